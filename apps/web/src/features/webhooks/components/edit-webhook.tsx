import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { editWebhook, type Webhook } from '../api/webhooks.ts';
import { EventChoices } from './event-choices.tsx';

/** A webhook's target URL and events, changed (PATCH; checked as at creation, the secret stays). */
export function EditWebhook(props: { webhook: Webhook; onDone(note: string | null): void }) {
  const { t } = useI18n();
  const id = useId();
  const [url, setUrl] = useState(props.webhook.url);
  const [events, setEvents] = useState<string[]>([...props.webhook.events]);
  const save = useMutation({
    mutationFn: () => editWebhook(props.webhook.id, url.trim(), events),
    onSuccess: () => props.onDone(t.webhookSaved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="webhook-panel webhook-edit" onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t.editWebhookTitle(props.webhook.url)}</h3>
      <div className="field">
        <label htmlFor={`${id}-url`}>{t.webhookUrl}</label>
        <input id={`${id}-url`} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
      </div>
      <EventChoices value={events} onChange={setEvents} />
      {save.isError && <ErrorNote error={save.error} />}
      <div className="row">
        <button type="submit" disabled={save.isPending || events.length === 0}>
          {t.saveWebhook}
        </button>
        <button type="button" className="ghost" onClick={() => props.onDone(null)}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}
