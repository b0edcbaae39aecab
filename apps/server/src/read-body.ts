import type { IncomingMessage } from 'node:http';
import type { InputShape } from '@directory/core/server';
import { type BodyScan, scanBody } from './body-scan.ts';

export type Body =
  | { kind: 'none' }
  | { kind: 'too-deep' }
  | { kind: 'too-large' }
  /** Read and scanned (body-scan.ts), not parsed: parseBody parses it once its key may pay for it. */
  | { kind: 'text'; text: string; scan: Extract<BodyScan, { kind: 'scanned' }> };

/**
 * Reads a request body, whatever its content type, and scans it against the input's shape
 * (body-scan.ts) without parsing it. A body over the limit is still read to its end and thrown
 * away, so that the 413 reply reaches the client: closing a socket with unread data resets the
 * connection and can destroy the reply in flight.
 */
export async function readBody(
  req: IncomingMessage,
  limit: number,
  shape: InputShape | undefined,
  needKey: boolean,
): Promise<Body> {
  const text = await readBodyText(req, limit);
  if (text === undefined) return { kind: 'too-large' };
  if (text.trim() === '') return { kind: 'none' };
  const scan = scanBody(text, shape, { needKey });
  return scan.kind === 'too-deep' ? scan : { kind: 'text', text, scan };
}

/** Bodies up to this size are parsed at once; larger ones one at a time, each after a turn. */
const PARSE_AT_ONCE_BYTES = 64 * 1024;
let parsing: Promise<unknown> = Promise.resolve();

/**
 * A scanned body parsed: its value, or undefined when it is not JSON. Large bodies are parsed
 * one at a time per process, each after the event loop has had a turn, so that however many
 * clients send them, other requests (and /healthz) are answered between two parses
 * (docs/keys-and-limits.md#bodies).
 */
export function parseBody(text: string): Promise<{ value: unknown } | undefined> {
  const parse = () => {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return undefined;
    }
  };
  if (text.length <= PARSE_AT_ONCE_BYTES) return Promise.resolve(parse());
  const turn = parsing.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(parse);
  parsing = turn;
  return turn;
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
