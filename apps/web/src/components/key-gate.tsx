import type { Scope } from '@directory/core/scopes';
import { type FormEvent, type ReactNode, useId, useState, useSyncExternalStore } from 'react';
import { apiKey } from '../lib/api-key.ts';
import { useI18n } from '../lib/i18n/i18n.tsx';
import { useCan, useOwnKey } from '../lib/own-key.ts';
import { ScopeNote } from './scope-note.tsx';

/**
 * Pages that need the key show a prompt instead of their content until one is entered. The key
 * goes to sessionStorage (this tab only) and is sent as `x-api-key`; a refused key is dropped by
 * the API client (lib/api-client.ts), which brings this prompt back with a note. With `scope`, a
 * key without it gets the line saying so instead of the page.
 */
export function KeyGate(props: { children: ReactNode; scope?: Scope; title?: string; help?: string }) {
  const { children, scope } = props;
  const { key } = useOwnKey();
  const refused = useSyncExternalStore(apiKey.subscribe, apiKey.refused);
  const { t } = useI18n();
  const [value, setValue] = useState('');
  const id = useId();
  if (key) return scope ? <ScopeGate scope={scope}>{children}</ScopeGate> : children;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (!trimmed) return;
    setValue('');
    apiKey.set(trimmed);
  };
  return (
    <section className="card key-prompt" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{props.title ?? t.keyTitle}</h1>
      <p>{props.help ?? t.keyHelp}</p>
      {refused && (
        <p className="notice error" role="alert">
          {t.keyRefused}
        </p>
      )}
      <form onSubmit={submit} className="row">
        <label htmlFor={`${id}-key`}>{t.keyLabel}</label>
        <input
          id={`${id}-key`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
        />
        <button type="submit">{t.keySubmit}</button>
      </form>
    </section>
  );
}

function ScopeGate({ children, scope }: { children: ReactNode; scope: Scope }) {
  const { t } = useI18n();
  const { pending } = useOwnKey();
  const { can } = useCan(scope);
  if (pending) return <p className="muted">{t.loading}</p>;
  if (can) return <>{children}</>;
  return (
    <section className="card">
      <ScopeNote scope={scope} />
    </section>
  );
}
