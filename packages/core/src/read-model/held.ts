import type { Snapshot } from '@directory/db';
import { SearchIndex } from '@directory/search';
import type { Contents } from './contents.ts';
import type { DetailCache } from './detail-cache.ts';
import { Freshness } from './position.ts';
import { AppliedVersions } from './versions.ts';

/**
 * What the read model holds, in one value that its parts are given (read-model.ts puts them
 * together): the contents it answers from (the index, which knows the slugs too, and the newest
 * `updatedAt`), the
 * projects' details, by project the newest change applied (versions.ts), where it is in the
 * feed (position.ts), and `version`, bumped by every change of what the model answers.
 * build.ts replaces the contents whole, apply.ts changes them project by project, read.ts
 * reads them.
 */
export class Held implements Contents {
  index = new SearchIndex();
  maxUpdated = 0;
  /** Bumped by every change of what the model answers (applies, builds, synonyms). */
  version = 0;
  /** By project, the newest change id applied (apply.ts, "Versions"). */
  versions = new AppliedVersions();
  readonly freshness = new Freshness();
  /** The snapshot of the last build: an own write it saw is in the model already. */
  builtFrom: Snapshot | undefined;
  synonymsVersion = '';
  synonymsCheckedAt = 0;
  /** The pins' version the index has ('' : none yet; a new index reads them, build.ts checkPins). */
  pinsVersion = '';
  pinsCheckedAt = 0;
  /** Projects applied since start (/metrics). */
  applied = 0;

  constructor(readonly details: DetailCache) {}

  /**
   * New contents, whole (a build, a loaded snapshot): the details and versions of the old ones
   * are dropped, and the model is at `horizon` of the feed.
   */
  replace(
    contents: Contents,
    synonymsVersion: string,
    builtFrom: Snapshot | undefined,
    horizon: bigint,
  ): void {
    this.index = contents.index;
    this.maxUpdated = contents.maxUpdated;
    this.synonymsVersion = synonymsVersion;
    this.pinsVersion = '';
    this.pinsCheckedAt = 0;
    this.details.clear();
    this.versions = new AppliedVersions();
    this.builtFrom = builtFrom;
    this.freshness.reset(horizon);
    this.version++;
  }
}
