import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Client } from './helpers.ts';

/* The two ways a test sees the changes a server lets out: a follower of the feed, a webhook receiver. */

/** A message a receiver was sent: its body and headers. */
export interface Received {
  body: string;
  headers: Record<string, string>;
}

/**
 * A local webhook receiver answering 200: every body it was sent (`received`), and each with its
 * headers (`messages`). `close` ends its connections, then waits for it to close.
 */
export async function receiver(): Promise<{
  url: string;
  received: string[];
  messages: Received[];
  close: () => Promise<unknown>;
}> {
  const received: string[] = [];
  const messages: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      received.push(body);
      messages.push({ body, headers: req.headers as Record<string, string> });
      res.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    messages,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/** GET /api/changes from `after` (absent: the start) to the end: every change, and the cursor to go on from. */
export async function readAll(s: Client, after?: string) {
  const changes: { type: string; slug: string | null; cursor: string }[] = [];
  let cursor = after;
  for (;;) {
    const r = await s.call('GET', `/api/changes?limit=1000${cursor ? `&after=${cursor}` : ''}`);
    expect(r.status, r.text).toBe(200);
    changes.push(...r.json.changes);
    cursor = r.json.nextCursor;
    if (!r.json.hasMore) return { changes, cursor: cursor! };
  }
}
