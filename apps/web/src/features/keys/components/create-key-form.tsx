import { SCOPES, type Scope } from '@directory/core/scopes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { type CreateKeyInput, createKey } from '../api/keys.ts';
import { NewKeyShown } from './new-key.tsx';

/**
 * A `datetime-local` value (the person's local time) as the API's ISO time; a value the browser
 * could not read is sent as typed, for the API to say what is wrong with it.
 */
function expiryOf(local: string): string | undefined {
  if (!local) return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

/**
 * A new named key: its name, scopes and, optionally, an expiry and a rate limit of its own; the
 * key is shown once, after. The API checks the values (in the future, within bounds): its
 * messages show under the form.
 */
export function CreateKeyForm() {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expires, setExpires] = useState('');
  const [requests, setRequests] = useState('');
  const [windowSeconds, setWindowSeconds] = useState('');
  // one of the pair given asks for the other (the browser says so before sending)
  const limited = requests !== '' || windowSeconds !== '';
  const create = useMutation({
    mutationFn: () => {
      const expiresAt = expiryOf(expires);
      const input: CreateKeyInput = {
        name: name.trim(),
        scopes,
        ...(expiresAt !== undefined && { expiresAt }),
        ...(limited && { rateLimit: { requests: Number(requests), windowSeconds: Number(windowSeconds) } }),
      };
      return createKey(input);
    },
    onSuccess: () => {
      setName('');
      setScopes([]);
      setExpires('');
      setRequests('');
      setWindowSeconds('');
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
      <div className="key-options">
        <div className="field">
          <label htmlFor={`${id}-expires`}>{t.keyExpiresOptional}</label>
          <input
            id={`${id}-expires`}
            type="datetime-local"
            value={expires}
            aria-describedby={`${id}-expires-hint`}
            onChange={(e) => setExpires(e.target.value)}
          />
          <p id={`${id}-expires-hint`} className="muted hint">
            {t.keyExpiresHint}
          </p>
        </div>
        <fieldset className="key-rate" aria-describedby={`${id}-rate-hint`}>
          <legend>{t.keyRateOptional}</legend>
          <div className="key-rate-fields">
            <div className="field">
              <label htmlFor={`${id}-requests`}>{t.keyRateRequests}</label>
              <input
                id={`${id}-requests`}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                required={limited}
                value={requests}
                onChange={(e) => setRequests(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-window`}>{t.keyRateWindow}</label>
              <input
                id={`${id}-window`}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                required={limited}
                value={windowSeconds}
                onChange={(e) => setWindowSeconds(e.target.value)}
              />
            </div>
          </div>
          <p id={`${id}-rate-hint`} className="muted hint">
            {t.keyRateHint}
          </p>
        </fieldset>
      </div>
      <button type="submit" disabled={create.isPending || scopes.length === 0 || !name.trim()}>
        {t.createKey}
      </button>
      {create.isError && <ErrorNote error={create.error} />}
      {create.data && <NewKeyShown made={create.data.data} />}
    </form>
  );
}
