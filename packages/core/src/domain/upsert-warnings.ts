import type { IdentityKeys } from '@directory/db';

/** The one warning an upsert gives today (docs/curation.md#updates-that-may-be-wrong). */
export const SLUG_ONLY_LINKS_DIFFER =
  "matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's";

/**
 * What may be wrong with an upsert's (endpoint 1 or 8) update of the project it found
 * (docs/curation.md#updates-that-may-be-wrong): found by its slug only (none of the input's url keys
 * is a stored link's key of its type), while the stored project and the input both have CODEHOST links
 * whose keys differ, or both have WEBSITE links whose keys differ. Keys compare as identity compares
 * them: CODEHOST among CODEHOST, WEBSITE among WEBSITE (a CODEHOST on one side and only a WEBSITE on
 * the other is no warning). The update happens all the same; a create, or a project found by a url
 * key, has no warning. Returns the warnings, [] when none.
 */
export function upsertWarnings(
  matchedBy: 'CODEHOST' | 'WEBSITE' | 'SLUG',
  stored: readonly { type: string; url_key: string }[],
  keys: Pick<IdentityKeys, 'codehostKeys' | 'websiteKeys'>,
): string[] {
  if (matchedBy !== 'SLUG') return [];
  const differ = (type: 'CODEHOST' | 'WEBSITE', submitted: readonly string[]) => {
    const held = new Set(stored.filter((l) => l.type === type).map((l) => l.url_key));
    const sent = new Set(submitted);
    if (held.size === 0 || sent.size === 0) return false;
    return held.size !== sent.size || [...sent].some((key) => !held.has(key));
  };
  return differ('CODEHOST', keys.codehostKeys) || differ('WEBSITE', keys.websiteKeys)
    ? [SLUG_ONLY_LINKS_DIFFER]
    : [];
}
