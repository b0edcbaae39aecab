import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/* A local webhook receiver whose answers a test chooses (webhook-delivery-details.test.ts, webhook-poster.test.ts). */

export interface Got {
  body: string;
  headers: Record<string, string>;
}

export type Answer = (got: Got, res: ServerResponse) => void;

/** A local receiver; `answer` (changed between requests) writes each answer. */
export async function receiver() {
  const got: Got[] = [];
  const sockets = new Set<unknown>();
  const state: { answer: Answer } = { answer: (_, res) => res.writeHead(204).end() };
  const server = createServer((req: IncomingMessage, res) => {
    sockets.add(req.socket);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => {
      const g = { body, headers: req.headers as Record<string, string> };
      got.push(g);
      state.answer(g, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    state,
    sockets,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/** A port nothing listens on (a server opened and closed). */
export async function closedPort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}
