import type { IncomingMessage } from 'node:http';

export type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'malformed' }
  | { kind: 'too-deep' }
  | { kind: 'too-large' };

/**
 * A body is parsed only to this nesting depth (deeper: 400;
 * docs/keys-and-limits.md#body-input-and-time-limits).
 */
export const MAX_BODY_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the text, before
 * any parse, so that no body costs more than that pass (brackets inside strings do not count).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Reads a request body as JSON, whatever its content type. A body over the limit is still
 * read to its end and thrown away, so that the 413 reply reaches the client: closing a socket
 * with unread data resets the connection and can destroy the reply in flight.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<Body> {
  const text = await readBodyText(req, limit);
  if (text === undefined) return { kind: 'too-large' };
  if (text.trim() === '') return { kind: 'none' };
  if (nestsDeeperThan(text, MAX_BODY_DEPTH)) return { kind: 'too-deep' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'malformed' };
  }
}

/** A request body as text (a leading BOM dropped); undefined when it is over `limit` bytes. */
export function readBodyText(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length']) > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (tooLarge) chunks.length = 0;
      else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (tooLarge) return resolve(undefined);
      resolve(
        Buffer.concat(chunks)
          .toString('utf8')
          .replace(/^\uFEFF/, ''),
      );
    });
  });
}
