import { type ClientRequest, get, type IncomingMessage } from 'node:http';
import { expect } from 'vitest';

/** An NDJSON export's header and project lines. */
export function readNdjson(text: string): { header: any; projects: any[] } {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const [first, ...rest] = lines;
  return { header: JSON.parse(first ?? ''), projects: rest.map((l) => JSON.parse(l)) };
}

/** A streamed GET whose response the test reads (or stalls) itself. */
export function openStream(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ res: IncomingMessage; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = get(`${baseUrl}${path}`, { headers }, (res) => resolve({ res, req }));
    req.on('error', reject);
  });
}

/** The first `n` lines of a streamed response; then the connection is cut. */
export function firstLines(res: IncomingMessage, req: ClientRequest, n: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (lines: string[]) => {
      res.removeAllListeners('data');
      req.destroy();
      resolve(lines);
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      const lines = text.split('\n');
      if (lines.length > n) done(lines.slice(0, n));
    });
    res.on('end', () => done(text.split('\n').filter((l) => l !== '')));
    res.on('error', reject);
  });
}
