import type { Change } from '@directory/sdk';
import { useId, useState } from 'react';
import { KeyGate } from '../../../components/key-gate.tsx';
import { Time } from '../../../components/time.tsx';
import { projectHref, taskHref } from '../../../config/paths.ts';
import { useChangeFeed } from '../../../lib/change-feed.ts';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { Link } from '../../../lib/router.tsx';

const KEEP = 200;

export default function ChangesPage() {
  return (
    <KeyGate scope="changes:read">
      <Changes />
    </KeyGate>
  );
}

function Changes() {
  const { t } = useI18n();
  const id = useId();
  const [changes, setChanges] = useState<Change[]>([]);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  // The last KEEP retained changes, then each new one as it is committed; newest first.
  const feed = useChangeFeed(
    true,
    (batch, initial) => {
      setChanges((old) => [...[...batch].reverse(), ...old].slice(0, KEEP));
      if (!initial) setFresh(new Set(batch.map((c) => c.cursor)));
    },
    KEEP,
  );
  return (
    <section className="changes-page" aria-labelledby={`${id}-h`}>
      <div className="results-head">
        <div>
          <h1 id={`${id}-h`}>{t.changesTitle}</h1>
          <p className="muted">{t.changesHelp}</p>
        </div>
        <span className="live" data-state={feed} role="status">
          {feed === 'live' ? t.live : feed === 'unavailable' ? t.none : t.loading}
        </span>
      </div>
      {feed === 'unavailable' && <p className="notice error">{t.unavailable}</p>}
      {feed === 'live' && changes.length === 0 && <p className="muted">{t.waiting}</p>}
      {changes.length > 0 && (
        <div className="card table-wrap">
          <table className="changes">
            <thead>
              <tr>
                <th scope="col">{t.changeAt}</th>
                <th scope="col">{t.changeType}</th>
                <th scope="col">{t.changeSubject}</th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {changes.map((change) => (
                <tr key={change.cursor} className={fresh.has(change.cursor) ? 'fresh' : undefined}>
                  <td>
                    <Time iso={change.at} />
                  </td>
                  <td>
                    <span className={`badge change-${change.type.replace('.', '-')}`}>{t[change.type]}</span>
                  </td>
                  <td className="url-cell">
                    <Subject change={change} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Subject({ change }: { change: Change }) {
  if (change.type === 'project.merged' && change.intoSlug)
    return (
      <>
        {change.slug} → <Link href={projectHref(change.intoSlug)}>{change.intoSlug}</Link>
      </>
    );
  if (change.type === 'tag.updated') return <>{change.slug}</>;
  if (change.slug && change.type !== 'project.deleted')
    return <Link href={projectHref(change.slug)}>{change.slug}</Link>;
  if (change.taskId) return <Link href={taskHref(change.taskId)}>{change.taskId}</Link>;
  return <>{change.slug ?? change.projectId}</>;
}
