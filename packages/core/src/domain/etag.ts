import { createHash } from 'node:crypto';

/**
 * The ETag of an answer: weak (a hash of its JSON rendering, not of a stored representation),
 * `W/"<sha1 of the body, base64url>"`. Every GET carries it; endpoint 2's is what
 * `PATCH /api/projects/{slug}` takes in `If-Match`
 * (docs/curation.md#patch-apiprojectsslug-with-if-match--curate).
 */
export function etagOf(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether an `If-Match` header names this ETag (or is `*`). The tags are compared by value, weak
 * or not: the API hands out weak tags only, and says that `If-Match` takes them.
 */
export function ifMatchAccepts(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
