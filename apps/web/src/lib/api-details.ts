/**
 * What the console reads out of the API's `details` (which stay in English: they are the
 * contract): the projects a detail names, so that an error can link to them.
 */

/** A link another project owns now (revert, restore, edit: 409 `links.N.url: The url "…" now belongs to project "…"`). */
interface TakenLink {
  url: string;
  slug: string;
}

const TAKEN = /^links\.\d+\.url: The url "(.*)" now belongs to project "([^"]+)"$/;
const MERGED = /was merged into "([^"]+)"/;

/** Every taken link the details name, in their order. */
export function takenLinks(details: readonly string[]): TakenLink[] {
  return details.flatMap((d) => {
    const m = TAKEN.exec(d);
    return m ? [{ url: m[1]!, slug: m[2]! }] : [];
  });
}

/** The slug a merged project went into, if a detail names one. */
export function mergedInto(details: readonly string[]): string | undefined {
  for (const d of details) {
    const m = MERGED.exec(d);
    if (m) return m[1];
  }
  return undefined;
}

/** Whether an error is a 409 naming links other projects own (the console offers its two ways on). */
export function hasTakenLinks(error: unknown): boolean {
  const details = (error as { details?: unknown } | null)?.details;
  return Array.isArray(details) && takenLinks(details as string[]).length > 0;
}
