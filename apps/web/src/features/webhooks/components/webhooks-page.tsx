import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CopyText } from '../../../components/copy-text.tsx';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { createWebhook, listWebhooks } from '../api/webhooks.ts';
import { EventChoices } from './event-choices.tsx';
import { WebhookCard } from './webhook-card.tsx';

export default function WebhooksPage() {
  return (
    <KeyGate scope="webhooks:manage">
      <Webhooks />
    </KeyGate>
  );
}

function Webhooks() {
  const { t } = useI18n();
  const id = useId();
  const query = useQuery({ queryKey: ['webhooks'], queryFn: ({ signal }) => listWebhooks(signal) });
  const webhooks = query.data?.webhooks ?? [];
  return (
    <section className="webhooks-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{t.webhooksTitle}</h1>
      <p className="muted">{t.webhooksHelp}</p>
      <CreateForm />
      {query.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : query.isError ? (
        <ErrorNote error={query.error} onRetry={() => query.refetch()} />
      ) : webhooks.length === 0 ? (
        <p>{t.noWebhooks}</p>
      ) : (
        <ul className="webhook-list">
          {webhooks.map((w) => (
            <li key={w.id}>
              <WebhookCard webhook={w} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A new webhook: its URL, events and description; the secret is shown once, after. */
function CreateForm() {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => createWebhook(url.trim(), events, description),
    onSuccess: () => {
      setUrl('');
      setDescription('');
      void client.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card webhook-create" onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t.createWebhook}</h2>
      <div className="field">
        <label htmlFor={`${id}-url`}>{t.webhookUrl}</label>
        <input id={`${id}-url`} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
      </div>
      <EventChoices value={events} onChange={setEvents} />
      <div className="field">
        <label htmlFor={`${id}-d`}>{t.webhookDescription}</label>
        <input
          id={`${id}-d`}
          type="text"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <button type="submit" disabled={create.isPending || events.length === 0}>
        {t.createWebhook}
      </button>
      {create.isError && <ErrorNote error={create.error} />}
      {create.data && (
        <div className="notice secret">
          <p>{t.secretOnce}</p>
          <CopyText value={create.data.secret} label={t.copySecret} />
        </div>
      )}
    </form>
  );
}
