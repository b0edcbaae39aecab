import { type FormEvent, type ReactNode, useId, useState, useSyncExternalStore } from 'react';
import { apiKey } from '../lib/api-key.ts';
import { useI18n } from '../lib/i18n/i18n.tsx';

export function useApiKey(): string | null {
  return useSyncExternalStore(apiKey.subscribe, apiKey.get);
}

/**
 * Pages that need the key show a prompt instead of their content until one is entered. The key
 * goes to sessionStorage (this tab only) and is sent as `x-api-key`; a refused key is dropped by
 * the API client (lib/api-client.ts), which brings this prompt back with a note.
 */
export function KeyGate({ children }: { children: ReactNode }) {
  const key = useApiKey();
  const { t } = useI18n();
  const [value, setValue] = useState('');
  const [refused, setRefused] = useState(false);
  const [hadKey, setHadKey] = useState(key !== null);
  const id = useId();
  if (key && !hadKey) setHadKey(true);
  if (!key && hadKey) {
    setHadKey(false);
    setRefused(true);
  }
  if (key) return <>{children}</>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (!trimmed) return;
    setValue('');
    setRefused(false);
    apiKey.set(trimmed);
  };
  return (
    <section className="card key-prompt" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{t.keyTitle}</h1>
      <p>{t.keyHelp}</p>
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
