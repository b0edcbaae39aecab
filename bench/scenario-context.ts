import type { DatabaseHandle } from '../packages/db/src/index.ts';
import type { SeedResult } from './seed.ts';

/** What the scenarios of a size are made from: the key, the seeded data, and a pool to prepare with. */
export interface ScenarioContext {
  apiKey: string;
  seed: SeedResult;
  pool: DatabaseHandle['pool'];
  runTag: string;
  /**
   * A named key (docs/keys-and-limits.md#named-keys-and-scopes) with a limit of its own, for the keyed GET
   * (`slug-keyed`).
   */
  namedKey?: string;
}
