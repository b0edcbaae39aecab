import type { IncomingMessage } from 'node:http';

export type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'malformed' }
  | { kind: 'too-large' };

/**
 * Reads a request body as JSON, whatever its content type. A body over the limit is still
 * read to its end and thrown away, so that the 413 reply reaches the client: closing a socket
 * with unread data resets the connection and can destroy the reply in flight.
 */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<Body> {
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
      if (tooLarge) return resolve({ kind: 'too-large' });
      const text = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      if (text.trim() === '') return resolve({ kind: 'none' });
      try {
        resolve({ kind: 'json', value: JSON.parse(text) });
      } catch {
        resolve({ kind: 'malformed' });
      }
    });
  });
}
