import { IDLE_WAIT_MS } from './follow.ts';
import type { Held } from './held.ts';
import type { ReadModelStats } from './read-model.types.ts';

/** Where the model is in its life (read-model.ts): what its stats tell beside what it holds. */
export interface ModelLife {
  built: boolean;
  buildSeconds: number;
  readyFrom: 'database' | 'snapshot';
  /** When the model last knew it was up to date with the feed (ms, Date.now()). */
  upToDateAt: number;
}

/** A model not built yet (up to date as of now: its lag counts from when it is built). */
export function newLife(): ModelLife {
  return { built: false, buildSeconds: 0, readyFrom: 'database', upToDateAt: Date.now() };
}

/** What the read model tells /metrics: its index, detail cache and place in the feed. */
export function modelStats(held: Held, life: ModelLife): ReadModelStats {
  const index = held.index.stats();
  const cache = held.details.size;
  return {
    ready: life.built,
    projects: index.projects,
    tags: index.tags,
    indexBytes: index.bytes,
    cacheProjects: cache.projects,
    cacheBytes: cache.bytes,
    buildSeconds: life.buildSeconds,
    readyFrom: life.readyFrom,
    position: Number(held.freshness.horizon),
    lagSeconds: life.built ? Math.max(0, (Date.now() - life.upToDateAt) / 1000 - IDLE_WAIT_MS / 1000) : 0,
    applied: held.applied,
    versions: held.versions.size,
  };
}
