import { describe, expect, it } from 'vitest';
import { createPoster } from '../src/webhooks/post.ts';
import { receiver } from './answering-receiver.ts';

/** The poster of webhook-delivery-details.test.ts's deliveries, alone: what it keeps of an answer. */
describe('the poster', () => {
  it('keeps the first 4096 bytes and reuses a kept-alive connection after a long answer', async () => {
    const r = await receiver();
    try {
      r.state.answer = (_, res) => res.writeHead(200, { 'X-Trace': 'a' }).end('x'.repeat(10_000));
      const poster = createPoster({ allowPrivateTargets: true, timeoutMs: 5_000, maxSockets: 1 });
      try {
        for (let i = 0; i < 3; i++) {
          const a = await poster.post(r.url, '{}', { 'content-type': 'application/json' });
          expect(a.statusCode).toBe(200);
          expect(a.body).toBe('x'.repeat(4096));
          expect(a.bodyTruncated).toBe(true);
          expect(a.headers['x-trace']).toBe('a');
        }
        expect(r.sockets.size).toBe(1);
      } finally {
        poster.destroy();
      }
    } finally {
      await r.close();
    }
  });

  it('an answer that does not end in time fails with its status and what came of its body', async () => {
    const r = await receiver();
    try {
      r.state.answer = (_, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial'); // and never ends
      };
      const poster = createPoster({ allowPrivateTargets: true, timeoutMs: 500 });
      const err = await poster.post(r.url, '{}', {}).catch((e: unknown) => e as any);
      poster.destroy();
      expect(err.message).toBe('the answer did not end within 500 ms');
      expect(err.answer).toMatchObject({ statusCode: 200, body: 'partial', bodyTruncated: false });
    } finally {
      await r.close();
    }
  });
});
