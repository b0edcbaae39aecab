import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { Time } from '../../../components/time.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { deleteWebhook, listDeliveries, ping, redeliver, setEnabled, type Webhook } from '../api/webhooks.ts';
import { DeliveryDrawer } from './delivery-drawer.tsx';
import { EditWebhook } from './edit-webhook.tsx';
import { RotateSecret } from './rotate-secret.tsx';

/**
 * One webhook (docs/curation.md#webhooks-in-the-console): enable or disable it, ping it, edit its
 * URL and events, rotate its secret; its deliveries and pings newest first, each with its request and
 * response in a drawer, a delivery with redeliver.
 */
export function WebhookCard({ webhook }: { webhook: Webhook }) {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [note, setNote] = useState<string | null>(null);
  const [open, setOpen] = useState<'edit' | 'rotate' | null>(null);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['webhooks'] });
    void client.invalidateQueries({ queryKey: ['deliveries', webhook.id] });
  };
  const toggle = useMutation({
    mutationFn: () => setEnabled(webhook.id, !webhook.enabled),
    onSuccess: refresh,
  });
  const pinged = useMutation({
    mutationFn: () => ping(webhook.id),
    onSuccess: (reply) => {
      setNote(t.pingResult(reply.ping.statusCode, reply.ping.durationMs));
      // the ping is listed among the deliveries
      void client.invalidateQueries({ queryKey: ['deliveries', webhook.id] });
    },
  });
  const remove = useMutation({ mutationFn: () => deleteWebhook(webhook.id), onSuccess: refresh });
  return (
    <article className="card webhook" aria-labelledby={`${id}-h`} data-webhook={webhook.id}>
      <h2 id={`${id}-h`} className="webhook-url">
        {webhook.url}
      </h2>
      <p>
        <span className={`badge ${webhook.enabled ? 'ok-badge' : 'muted-badge'}`}>
          {webhook.enabled ? t.enabled : t.disabled}
        </span>{' '}
        {webhook.events.map((e) => (
          <code key={e}>{e} </code>
        ))}
        {webhook.consecutiveFailures > 0 && (
          <span className="muted"> · {t.failures(webhook.consecutiveFailures)}</span>
        )}
      </p>
      {webhook.description && <p className="muted">{webhook.description}</p>}
      <div className="form-actions">
        <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate()}>
          {webhook.enabled ? t.disable(webhook.url) : t.enable(webhook.url)}
        </button>
        <button type="button" disabled={pinged.isPending} onClick={() => pinged.mutate()}>
          {t.ping}
        </button>
        <button
          type="button"
          className="ghost"
          aria-expanded={open === 'edit'}
          onClick={() => {
            setNote(null);
            setOpen(open === 'edit' ? null : 'edit');
          }}
        >
          {t.editWebhook}
        </button>
        <button
          type="button"
          className="ghost"
          aria-expanded={open === 'rotate'}
          onClick={() => {
            setNote(null);
            setOpen(open === 'rotate' ? null : 'rotate');
          }}
        >
          {t.rotateSecret}
        </button>
        <button
          type="button"
          className="danger ghost"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
        >
          {t.deleteWebhook}
        </button>
      </div>
      {open === 'edit' && (
        <EditWebhook
          webhook={webhook}
          onDone={(saved) => {
            setOpen(null);
            setNote(saved);
            if (saved) refresh();
          }}
        />
      )}
      {open === 'rotate' && (
        <RotateSecret webhook={webhook} onRotated={refresh} onDone={() => setOpen(null)} />
      )}
      <p role="status" className="note">
        {note}
      </p>
      {toggle.isError && <ErrorNote error={toggle.error} />}
      {pinged.isError && <ErrorNote error={pinged.error} />}
      {remove.isError && <ErrorNote error={remove.error} />}
      <Deliveries webhookId={webhook.id} onNote={setNote} />
    </article>
  );
}

function Deliveries({ webhookId, onNote }: { webhookId: string; onNote(note: string): void }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['deliveries', webhookId],
    queryFn: ({ signal }) => listDeliveries(webhookId, signal),
  });
  const again = useMutation({
    mutationFn: (deliveryId: string) => redeliver(webhookId, deliveryId),
    onSuccess: (reply) => {
      onNote(t.redelivered(reply.delivery.statusCode));
      void client.invalidateQueries({ queryKey: ['deliveries', webhookId] });
    },
  });
  const [shown, setShown] = useState<{ id: string; opener: HTMLElement } | null>(null);
  const deliveries = query.data?.deliveries ?? [];
  if (query.isError) return <ErrorNote error={query.error} onRetry={() => query.refetch()} />;
  return (
    <div className="table-wrap">
      <table className="deliveries">
        <caption>{t.deliveries}</caption>
        <thead>
          <tr>
            <th scope="col">{t.time}</th>
            <th scope="col">{t.event}</th>
            <th scope="col">{t.responseCode}</th>
            <th scope="col">
              <span className="visually-hidden">
                {t.showDelivery('').trim()} / {t.redeliver('').trim()}
              </span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.length === 0 && (
            <tr>
              <td colSpan={4} className="muted">
                {query.isPending ? t.loading : t.noDeliveries}
              </td>
            </tr>
          )}
          {deliveries.map((d) => (
            <tr key={d.id} data-delivery={d.id} data-type={d.type}>
              <td>
                <Time iso={d.at} />
              </td>
              <td>
                {d.type === 'ping' ? (
                  <span className="badge ping-badge">{t.pingBadge}</span>
                ) : (
                  <code>{d.event}</code>
                )}
              </td>
              <td>
                <span className={`badge ${d.success ? 'ok-badge' : 'error-badge'}`}>
                  {d.statusCode ?? t.noAnswer}
                </span>
                {d.error && d.statusCode === null && <span className="muted"> {d.error}</span>}
              </td>
              <td>
                <div className="delivery-actions">
                  <button
                    type="button"
                    className="ghost"
                    onClick={(e) => setShown({ id: d.id, opener: e.currentTarget })}
                  >
                    {t.showDelivery(d.id)}
                  </button>
                  {d.type === 'change' && (
                    <button
                      type="button"
                      className="ghost"
                      disabled={again.isPending}
                      onClick={() => again.mutate(d.id)}
                    >
                      {t.redeliver(d.id)}
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {again.isError && <ErrorNote error={again.error} />}
      {shown !== null && (
        <DeliveryDrawer
          webhookId={webhookId}
          deliveryId={shown.id}
          opener={shown.opener}
          onClose={() => setShown(null)}
        />
      )}
    </div>
  );
}
