import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { Time } from '../../../components/time.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { type KeyRecord, type NewKey, revokeKey, rotateKey } from '../api/keys.ts';

const GRACE = [
  [0, 'graceNone'],
  [3600, 'graceHour'],
  [86_400, 'graceDay'],
  [604_800, 'graceWeek'],
] as const;

/** One key of the list: what it may do, its limit and expiry, when it was used, and revoke or rotate it. */
export function KeyRow(props: { record: KeyRecord; now: number; onRotated(made: NewKey): void }) {
  const { record, now } = props;
  const { t, formatDate } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const [asking, setAsking] = useState<'revoke' | 'rotate' | null>(null);
  const [grace, setGrace] = useState(3600);
  const refresh = () => client.invalidateQueries({ queryKey: ['keys'] });
  const revoke = useMutation({
    mutationFn: () => revokeKey(record.id),
    onSuccess: () => {
      setAsking(null);
      return refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: () => rotateKey(record.id, grace),
    onSuccess: (reply) => {
      setAsking(null);
      props.onRotated(reply.data);
      return refresh();
    },
  });
  const pending = record.revokedAt !== null && Date.parse(record.revokedAt) > now;
  const usable =
    record.revokedAt === null && (record.expiresAt === null || Date.parse(record.expiresAt) > now);
  const state = pending
    ? t.keyUntil(formatDate(record.revokedAt!))
    : record.revokedAt !== null
      ? t.keyRevoked
      : usable
        ? t.keyActive
        : t.keyExpired;
  return (
    <tr data-key={record.id} className={usable || pending ? undefined : 'key-gone'}>
      <th scope="row">{record.name}</th>
      <td data-label={t.keyStart}>
        <code>{record.start}…</code>
      </td>
      <td data-label={t.keyScopes}>
        {record.scopes.map((s) => (
          <code key={s} className="scope">
            {s}
          </code>
        ))}
      </td>
      <td className="key-rate-limit" data-label={t.keyRateLimit}>
        {record.rateLimit
          ? t.keyRate(record.rateLimit.requests, record.rateLimit.windowSeconds)
          : t.keyRateDefault}
      </td>
      <td className="key-time" data-label={t.keyCreatedAt}>
        <Time iso={record.createdAt} />
      </td>
      <td className="key-time key-expires" data-label={t.keyExpiresAt}>
        {record.expiresAt ? <Time iso={record.expiresAt} /> : t.keyNoExpiry}
      </td>
      <td className="key-time" data-label={t.keyLastUsed}>
        {record.lastUsedAt ? <Time iso={record.lastUsedAt} /> : t.keyNever}
      </td>
      <td className="key-state" data-label={t.keyState}>
        {state}
      </td>
      <td className="key-actions">
        {usable && asking === null && (
          <>
            <button type="button" className="ghost" onClick={() => setAsking('rotate')}>
              {t.rotateKey(record.name)}
            </button>{' '}
            <button type="button" className="danger ghost" onClick={() => setAsking('revoke')}>
              {t.revokeKey(record.name)}
            </button>
          </>
        )}
        {asking === 'revoke' && (
          <div className="confirm" role="alertdialog" aria-labelledby={`${id}-q`}>
            <p id={`${id}-q`}>{t.revokeConfirm(record.name)}</p>
            <button
              type="button"
              className="danger"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate()}
            >
              {t.revokeYes}
            </button>{' '}
            <button type="button" className="ghost" onClick={() => setAsking(null)}>
              {t.cancel}
            </button>
          </div>
        )}
        {asking === 'rotate' && (
          <div className="confirm" role="alertdialog" aria-label={t.rotateKey(record.name)}>
            <label htmlFor={`${id}-grace`}>{t.rotateGrace}</label>{' '}
            <select id={`${id}-grace`} value={grace} onChange={(e) => setGrace(Number(e.target.value))}>
              {GRACE.map(([seconds, label]) => (
                <option key={seconds} value={seconds}>
                  {t[label]}
                </option>
              ))}
            </select>{' '}
            <button type="button" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              {t.rotateYes}
            </button>{' '}
            <button type="button" className="ghost" onClick={() => setAsking(null)}>
              {t.cancel}
            </button>
          </div>
        )}
        {revoke.isSuccess && <p role="status">{t.revoked(record.name)}</p>}
        {revoke.isError && <ErrorNote error={revoke.error} />}
        {rotate.isError && <ErrorNote error={rotate.error} />}
      </td>
    </tr>
  );
}
