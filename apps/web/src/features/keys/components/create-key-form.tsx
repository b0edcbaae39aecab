import { SCOPES, type Scope } from '@directory/core/scopes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { createKey } from '../api/keys.ts';
import { NewKeyShown } from './new-key.tsx';

/** A new named key: its name and scopes; the key is shown once, after. */
export function CreateKeyForm() {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const create = useMutation({
    mutationFn: () => createKey(name.trim(), scopes),
    onSuccess: () => {
      setName('');
      setScopes([]);
      void client.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card key-create" onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.createKey}</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t.keyName}</label>
        <input
          id={`${id}-name`}
          type="text"
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <fieldset className="events">
        <legend>{t.keyScopes}</legend>
        {SCOPES.map((s) => (
          <label key={s} title={t.scopeAction[s]}>
            <input
              type="checkbox"
              checked={scopes.includes(s)}
              onChange={(x) => setScopes(x.target.checked ? [...scopes, s] : scopes.filter((v) => v !== s))}
            />{' '}
            <code>{s}</code>
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={create.isPending || scopes.length === 0 || !name.trim()}>
        {t.createKey}
      </button>
      {create.isError && <ErrorNote error={create.error} />}
      {create.data && <NewKeyShown made={create.data.data} />}
    </form>
  );
}
