import type { ReadRouting } from '@directory/db';
import type { SearchIndex } from '@directory/search';
import { AppError } from '../errors.ts';
import type { CachedProject } from './detail-cache.ts';
import type { Held } from './held.ts';
import { decodePosition } from './position.ts';
import { cachedProjects, loadProjects } from './project-pages.ts';
import type { Turns } from './turns.ts';
import { timer } from './waiting.ts';

/*
 * How the read model answers a read (docs/search.md#the-engine-a-search-costs-what-it-returns):
 * once it can (built, at the read's `minPosition`: `readable`), the read's whole work — the
 * engine, the page's details from the detail cache, the answer — runs in a turn of the reads
 * (turns.ts), so that writes, applies and /healthz get the event loop between them however
 * many clients read; only a detail-cache miss waits outside, on I/O (`read`).
 */

export const notReady = () =>
  new AppError('UNAVAILABLE', ['The search index is being built; retry after Retry-After seconds']);

/**
 * Resolves once the model is built and has reached `minPosition` (when given), waiting at
 * most `ms`; else a 503 the client may retry. `wake`: the follower looks at the feed now (a
 * notification may be on its way).
 */
export async function readable(
  held: Held,
  model: { built: boolean; whenReady(): Promise<void>; wake(): void },
  minPosition: string | undefined,
  ms: number,
): Promise<void> {
  const at = minPosition === undefined ? undefined : decodePosition(minPosition);
  if (model.built && (at === undefined || held.freshness.reached(at))) return;
  const deadline = Date.now() + ms;
  if (!model.built) {
    const ok = await Promise.race([model.whenReady().then(() => true), timer(ms).then(() => false)]);
    if (!ok) throw notReady();
  }
  if (at === undefined) return;
  await held.freshness.waitFor(at, deadline - Date.now(), model.wake);
}

/**
 * A read of the model, its whole work in its turn: `search` reads the index and names the
 * projects its answer shows; `build` makes the answer from their details (each a project of
 * the detail cache with its list rendering kept, detail-cache.ts). Both run in one turn when
 * the detail cache has every project; else the missing ones are read by id (I/O, between
 * turns; on a standby when it shows this process's writes) and `build` runs in a later turn.
 */
export async function read<P, T>(
  held: Held,
  turns: Turns,
  reads: ReadRouting,
  search: (index: SearchIndex) => { ids: string[]; page: P },
  build: (page: P, projects: CachedProject[]) => T,
): Promise<T> {
  let found: { ids: string[]; page: P } | undefined;
  let missing: string[] = [];
  const first = await turns.run(() => {
    found = search(held.index);
    const cached = cachedProjects(held.details, found.ids);
    missing = cached.missing;
    return missing.length === 0 ? { answer: build(found.page, cached.projects) } : undefined;
  });
  if (first) return first.answer;
  const loaded = await loadProjects(reads, held, missing);
  return turns.run(() => build(found!.page, cachedProjects(held.details, found!.ids, loaded).projects));
}
