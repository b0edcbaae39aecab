import type { IncomingMessage } from 'node:http';
import type { InputShape } from '@directory/core/server';
import { BodyScanner } from './body-scan.ts';
import type { BodyScan } from './body-scan.types.ts';

export type Body =
  | { kind: 'none' }
  | Extract<BodyScan, { kind: 'too-deep' }>
  | { kind: 'too-large' }
  /** Refused by its scan: an array too long, or the key it holds is all that is left of it. */
  | { kind: 'refused'; scan: Extract<BodyScan, { kind: 'scanned' }> }
  /**
   * Read and scanned (body-scan.ts), neither decoded nor parsed: parseBody does both once its key
   * may pay for it.
   */
  | { kind: 'bytes'; bytes: Buffer; scan: Extract<BodyScan, { kind: 'scanned' }> };

/**
 * Reads a request body, whatever its content type, and scans it against the input's shape as its
 * chunks arrive (body-scan.ts), without decoding or parsing it; once the scan has refused it, its
 * chunks are no longer kept. A body over the limit is still read to its end and thrown away, so
 * that the 413 reply reaches the client: closing a socket with unread data resets the connection
 * and can destroy the reply in flight.
 */
export async function readBody(
  req: IncomingMessage,
  limit: number,
  shape: InputShape | undefined,
  needKey: boolean,
): Promise<Body> {
  const scanner = new BodyScanner(shape, { needKey });
  const bytes = await readChunks(req, limit, (chunk) => {
    if (scanner.scanning || scanner.blank) scanner.feed(chunk);
    return scanner.acceptable;
  });
  if (bytes === undefined) return { kind: 'too-large' };
  if (scanner.blank) return { kind: 'none' };
  const scan = scanner.end();
  if (scan.kind === 'too-deep') return scan;
  return scanner.acceptable ? { kind: 'bytes', bytes, scan } : { kind: 'refused', scan };
}

/** Bodies up to this size are parsed at once; larger ones one at a time, each after a turn. */
const PARSE_AT_ONCE_BYTES = 64 * 1024;
let parsing: Promise<unknown> = Promise.resolve();

/** A body's text: its bytes decoded as UTF-8, without a leading byte order mark. */
export const bodyText = (bytes: Buffer) =>
  bytes.toString('utf8', bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);

/**
 * A scanned body decoded and parsed: its value, or undefined when it is not JSON. Large bodies
 * are decoded and parsed one at a time per process, each after the event loop has had a turn, so
 * that however many clients send them, other requests (and /healthz) are answered between two
 * parses (docs/keys-and-limits.md#bodies).
 */
export function parseBody(bytes: Buffer): Promise<{ value: unknown } | undefined> {
  const parse = () => {
    try {
      return { value: JSON.parse(bodyText(bytes)) as unknown };
    } catch {
      return undefined;
    }
  };
  if (bytes.length <= PARSE_AT_ONCE_BYTES) return Promise.resolve(parse());
  const turn = parsing.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(parse);
  parsing = turn;
  return turn;
}

/**
 * The most body bytes this process takes in per turn of its event loop, all requests together.
 * Beyond it each body's request is paused until the next turn, so that however many clients send
 * large bodies at once a turn stays short and other requests (and /healthz) are answered within
 * milliseconds (docs/keys-and-limits.md#bodies). Every paused request resumes at the next turn:
 * a slow sender delays no other.
 */
const BODY_BYTES_PER_TURN = 1024 * 1024;
let takenThisTurn = 0;
let turnEnding = false;
const pausedUntilNextTurn: IncomingMessage[] = [];

function nextTurn() {
  turnEnding = false;
  takenThisTurn = 0;
  for (const req of pausedUntilNextTurn.splice(0)) if (!req.destroyed) req.resume();
}

function takeIn(req: IncomingMessage, bytes: number) {
  takenThisTurn += bytes;
  if (!turnEnding) {
    turnEnding = true;
    setImmediate(nextTurn);
  }
  if (takenThisTurn > BODY_BYTES_PER_TURN) {
    req.pause();
    pausedUntilNextTurn.push(req);
  }
}

/**
 * A request body's bytes, not decoded (a body that is refused never is); undefined when it is over
 * `limit` bytes.
 */
export function readBodyBytes(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return readChunks(req, limit, () => true);
}

/**
 * A request body read chunk by chunk within `limit` bytes (undefined past it), each chunk shown to
 * `keep` as it arrives and kept only while `keep` says so; the kept chunks joined.
 */
function readChunks(
  req: IncomingMessage,
  limit: number,
  keep: (chunk: Buffer) => boolean,
): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let kept = 0;
    let tooLarge = Number(req.headers['content-length']) > limit;
    req.on('data', (chunk: Buffer) => {
      takeIn(req, chunk.length);
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (tooLarge || !keep(chunk)) {
        chunks.length = 0;
        kept = 0;
      } else {
        chunks.push(chunk);
        kept += chunk.length;
      }
    });
    req.on('error', reject);
    req.on('end', () => {
      if (tooLarge) return resolve(undefined);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, kept));
    });
  });
}
