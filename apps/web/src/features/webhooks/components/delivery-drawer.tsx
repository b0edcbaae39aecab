import { useQuery } from '@tanstack/react-query';
import { type MouseEvent, type SyntheticEvent, useEffect, useId, useRef } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { Time } from '../../../components/time.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { type DeliveryDetail, getDelivery } from '../api/webhooks.ts';

/**
 * One delivery attempt (or ping) in a drawer (docs/curation.md#webhooks-in-the-console): the
 * request sent and the response received. A modal dialog: focus moves into it, Esc or Close ends
 * it, and focus goes back to what opened it.
 */
export function DeliveryDrawer(props: {
  webhookId: string;
  deliveryId: string;
  /** Where the focus goes back to (else what had it when the drawer opened). */
  opener?: HTMLElement | null;
  onClose(): void;
}) {
  const { t } = useI18n();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const { onClose } = props;
  const given = useRef(props.opener);
  useEffect(() => {
    const el = dialog.current;
    // a click does not focus a button in every browser: the button is named by the caller
    const opener =
      given.current ?? (document.activeElement instanceof HTMLElement ? document.activeElement : null);
    if (el && !el.open) el.showModal();
    return () => {
      el?.close();
      opener?.focus();
    };
  }, []);
  const query = useQuery({
    queryKey: ['delivery', props.webhookId, props.deliveryId],
    queryFn: ({ signal }) => getDelivery(props.webhookId, props.deliveryId, signal),
  });
  const d = query.data?.delivery;
  // Esc: closed by the page (which unmounts the drawer), not by the browser alone
  const cancel = (event: SyntheticEvent) => {
    event.preventDefault();
    onClose();
  };
  // a click on the backdrop (outside the drawer's box) closes it too
  const backdrop = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === dialog.current) onClose();
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes it (the dialog's cancel event)
    <dialog
      ref={dialog}
      className="drawer delivery-drawer"
      aria-labelledby={`${id}-h`}
      onCancel={cancel}
      onClick={backdrop}
    >
      <div className="drawer-head">
        <h2 id={`${id}-h`}>
          {t.deliveryTitle(props.deliveryId)}
          {d && (
            <>
              {' '}
              {d.type === 'ping' ? (
                <span className="badge ping-badge">{t.pingBadge}</span>
              ) : (
                <code className="drawer-event">{d.event}</code>
              )}
            </>
          )}
        </h2>
        <button type="button" className="ghost" onClick={onClose}>
          {t.closeDrawer}
        </button>
      </div>
      {query.isPending && <p className="muted">{t.loading}</p>}
      {query.isError && <ErrorNote error={query.error} onRetry={() => query.refetch()} />}
      {d && (
        <>
          <p className="muted">
            <Time iso={d.at} /> · <code>{d.messageId}</code>
          </p>
          <RequestSide request={d.request} />
          <ResponseSide response={d.response} />
        </>
      )}
    </dialog>
  );
}

function RequestSide({ request }: { request: DeliveryDetail['request'] }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <section className="drawer-side" data-side="request" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t.deliveryRequest}</h3>
      {request === null ? (
        <p className="muted">{t.requestNotKept}</p>
      ) : (
        <>
          <p className="request-line">
            <code>{request.method}</code> <code className="request-url">{request.url}</code>
          </p>
          <HeaderTable headers={request.headers} />
          <Body body={request.body} />
        </>
      )}
    </section>
  );
}

function ResponseSide({ response }: { response: DeliveryDetail['response'] }) {
  const { t } = useI18n();
  const id = useId();
  const ok = response.statusCode !== null && response.statusCode >= 200 && response.statusCode < 300;
  return (
    <section className="drawer-side" data-side="response" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t.deliveryResponse}</h3>
      <dl className="response-facts">
        <div>
          <dt>{t.statusCode}</dt>
          <dd>
            <span className={`badge ${ok ? 'ok-badge' : 'error-badge'}`} data-status>
              {response.statusCode ?? t.noAnswer}
            </span>
          </dd>
        </div>
        <div>
          <dt>{t.duration}</dt>
          <dd>{t.durationMs(response.durationMs)}</dd>
        </div>
        {response.error && (
          <div>
            <dt>{t.deliveryError}</dt>
            <dd className="response-error">{response.error}</dd>
          </div>
        )}
      </dl>
      {response.headers ? (
        <HeaderTable headers={response.headers} />
      ) : (
        <>
          <h4>{t.headers}</h4>
          <p className="muted">{t.noHeaders}</p>
        </>
      )}
      <Body body={response.body} truncated={response.bodyTruncated} />
    </section>
  );
}

function HeaderTable({ headers }: { headers: Record<string, string> }) {
  const { t } = useI18n();
  const entries = Object.entries(headers);
  if (entries.length === 0)
    return (
      <>
        <h4>{t.headers}</h4>
        <p className="muted">{t.noHeaders}</p>
      </>
    );
  return (
    <table className="header-table">
      <caption>{t.headers}</caption>
      <thead>
        <tr>
          <th scope="col">{t.headerName}</th>
          <th scope="col">{t.headerValue}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">
              <code>{name}</code>
            </th>
            <td>
              <code>{value}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A body as text, indented when it parses as JSON. */
function Body({ body, truncated = false }: { body: string | null; truncated?: boolean }) {
  const { t } = useI18n();
  const pretty = body === null ? null : indentJson(body);
  return (
    <div className="drawer-body">
      <h4>{pretty === null || pretty === body ? t.body : t.bodyJson}</h4>
      {truncated && <p className="notice truncated">{t.bodyTruncated}</p>}
      {body === null ? (
        <p className="muted">{t.bodyNone}</p>
      ) : body === '' ? (
        <p className="muted">{t.bodyEmpty}</p>
      ) : (
        <pre>
          <code>{pretty}</code>
        </pre>
      )}
    </div>
  );
}

/** The text indented by two spaces when it is JSON (an object or array), else as it is. */
function indentJson(text: string): string {
  if (!/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
