import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorNote } from '../../../components/error-note.tsx';
import { KeyGate } from '../../../components/key-gate.tsx';
import { LoadMore } from '../../../components/load-more.tsx';
import { useI18n } from '../../../lib/i18n/i18n.tsx';
import { listKeys, type NewKey } from '../api/keys.ts';
import { CreateKeyForm } from './create-key-form.tsx';
import { KeyRow } from './key-row.tsx';
import { NewKeyShown } from './new-key.tsx';

export default function KeysPage() {
  return (
    <KeyGate scope="keys:admin">
      <Keys />
    </KeyGate>
  );
}

function Keys() {
  const { t } = useI18n();
  const id = useId();
  const query = useInfiniteQuery({
    queryKey: ['keys'],
    queryFn: ({ pageParam, signal }) => listKeys(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const keys = query.data?.pages.flatMap((p) => p.data) ?? [];
  const now = Date.now();
  // a rotated key, shown this once above the list
  const [rotated, setRotated] = useState<NewKey | null>(null);
  return (
    <section className="keys-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{t.keysTitle}</h1>
      <p className="muted">{t.keysHelp}</p>
      <CreateKeyForm />
      {rotated && (
        <div className="rotated">
          <NewKeyShown made={rotated} />
        </div>
      )}
      {query.isPending ? (
        <p className="muted">{t.loading}</p>
      ) : query.isError ? (
        <ErrorNote error={query.error} onRetry={() => query.refetch()} />
      ) : keys.length === 0 ? (
        <p>{t.noKeys}</p>
      ) : (
        <div className="card table-wrap">
          <table className="keys">
            <thead>
              <tr>
                <th scope="col">{t.keyName}</th>
                <th scope="col">{t.keyStart}</th>
                <th scope="col">{t.keyScopes}</th>
                <th scope="col">{t.keyRateLimit}</th>
                <th scope="col">{t.keyCreatedAt}</th>
                <th scope="col">{t.keyExpiresAt}</th>
                <th scope="col">{t.keyLastUsed}</th>
                <th scope="col">{t.keyState}</th>
                <th scope="col">{t.keyActions}</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <KeyRow key={k.id} record={k} now={now} onRotated={setRotated} />
              ))}
            </tbody>
          </table>
          <LoadMore query={query} />
        </div>
      )}
    </section>
  );
}
