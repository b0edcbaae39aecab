import type { Draft } from './draft.ts';

/**
 * An edit kept in this tab's sessionStorage while it is typed (one per project), so that a
 * refused key (revoked, a rotation's grace over) does not lose it: after signing in again the
 * edit page offers it back (docs/curation.md#in-the-console). `base` and `etag` are what the
 * form started from, so that saving it sends only the fields typed, and a version saved since
 * shows the conflict instead of being overwritten.
 */
export interface KeptDraft {
  base: Draft;
  draft: Draft;
  etag: string;
  /** When it was last typed (ISO). */
  at: string;
}

const storageKey = (slug: string) => `directory.draft.${slug}`;

export const keptDraft = {
  read(slug: string): KeptDraft | null {
    try {
      const text = sessionStorage.getItem(storageKey(slug));
      const kept = text ? (JSON.parse(text) as Partial<KeptDraft>) : null;
      return kept?.base && kept.draft && typeof kept.etag === 'string' && typeof kept.at === 'string'
        ? (kept as KeptDraft)
        : null;
    } catch {
      return null;
    }
  },
  write(slug: string, kept: Omit<KeptDraft, 'at'>) {
    try {
      sessionStorage.setItem(storageKey(slug), JSON.stringify({ ...kept, at: new Date().toISOString() }));
    } catch {
      // storage full or refused: the edit is only in the form
    }
  },
  drop(slug: string) {
    try {
      sessionStorage.removeItem(storageKey(slug));
    } catch {
      // nothing kept
    }
  },
};
