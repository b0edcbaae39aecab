/** What the choice of the project to keep reads of each project of a duplicate group. */
export interface Candidate {
  slug: string;
  locked: boolean;
  /** Revisions not made via upsert or complete: the work of curators. */
  curatedRevisions: number;
  links: readonly unknown[];
  createdAt: string;
}

/**
 * The project of a duplicate group to keep (`suggestedInto`, docs/curation.md#duplicates-to-decide-on): a
 * locked project, else the one with the most revisions not via upsert or complete, else the most links,
 * else the oldest. Each rule breaks the ties of the one before; the oldest (then the smaller slug)
 * breaks the last ones.
 */
export function suggestInto(projects: readonly Candidate[]): string | undefined {
  const better = (a: Candidate, b: Candidate): boolean => {
    if (a.locked !== b.locked) return a.locked;
    if (a.curatedRevisions !== b.curatedRevisions) return a.curatedRevisions > b.curatedRevisions;
    if (a.links.length !== b.links.length) return a.links.length > b.links.length;
    if (a.createdAt !== b.createdAt) return Date.parse(a.createdAt) < Date.parse(b.createdAt);
    return a.slug < b.slug;
  };
  let best: Candidate | undefined;
  for (const p of projects) if (!best || better(p, best)) best = p;
  return best?.slug;
}
