import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { getProject, newKey, useProcesses } from './embedded-process.ts';
import { project, type ServerProcess, slugOf } from './helpers.ts';

/**
 * The server as a process on embedded PGlite (`pglite:<dir>`) or `memory:`, each test in its own
 * directory: graceful shutdown on SIGTERM, with a request in flight or no reader of its stdout
 * (docs/operating.md#configuration).
 */

const { tempDir, start } = useProcesses();

/** Resolves once the process has written something matching `pattern`. */
function waitForOutput(s: ServerProcess, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(s.output())) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${pattern} in the output:\n${s.output()}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      s.child.stdout?.off('data', check);
    };
    s.child.stdout?.on('data', check);
    check();
  });
}

/**
 * A keyed POST sent with `Expect: 100-continue`: the server answers "100 Continue" once it has
 * read the headers, so when `onContinue` runs the request is surely in the server's hands;
 * `onContinue` decides when the body follows (`send` resolves once it is handed to the socket).
 */
function postExpectingContinue(
  s: ServerProcess,
  path: string,
  payload: unknown,
  onContinue: (send: () => Promise<void>) => Promise<void>,
): Promise<{ status: number; text: string }> {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, s.baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-api-key': s.key,
        expect: '100-continue',
      },
    });
    const send = () => new Promise<void>((sent) => req.end(body, () => sent()));
    req.on('continue', () => {
      onContinue(send).catch((err) => {
        req.destroy();
        reject(err);
      });
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('the server process on embedded PGlite', () => {
  it('on SIGTERM sent right after a large batch, answers the batch and exits 0', async () => {
    const dir = tempDir();
    const env = { DATABASE_URL: `pglite:${dir}`, WEBHOOK_API_KEY: newKey() };
    const s = await start(env);
    const projects = Array.from({ length: 100 }, () => project({ content: '# 内容\n'.repeat(500) }));

    // The signal goes right after the whole body has been handed to the socket.
    const reply = await postExpectingContinue(s, '/api/webhook/projects', { projects }, async (send) => {
      await send();
      s.child.kill('SIGTERM');
    });

    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({
      success: true,
      processed: 100,
      created: 100,
      updated: 0,
      failed: 0,
      errors: [],
      results: expect.any(Array),
    });
    expect(await s.stop()).toBe(0);
    expect(s.output()).toMatch(/"msg":"shutting down"/);
    expect(s.output()).toMatch(/"msg":"stopped"/);

    // Everything the answered request wrote was committed.
    const again = await start(env);
    const reads = await Promise.all([projects[0]!, projects[99]!].map((p) => getProject(again, slugOf(p))));
    expect(reads.map((r) => r.status)).toEqual([200, 200]);
  });

  it('once shutting down, refuses new connections but finishes the request in flight', async () => {
    const s = await start({ DATABASE_URL: `pglite:${tempDir()}`, WEBHOOK_API_KEY: newKey() });
    const projects = Array.from({ length: 20 }, () => project());

    // The request's headers are in; the shutdown starts; only then does its body follow.
    const reply = await postExpectingContinue(s, '/api/webhook/projects', { projects }, async (send) => {
      s.child.kill('SIGTERM');
      await waitForOutput(s, /"msg":"shutting down"/);
      await expect(fetch(`${s.baseUrl}/healthz`)).rejects.toThrow();
      await send();
    });

    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({ processed: 20, created: 20, failed: 0 });
    expect(await s.stop()).toBe(0);
    const out = s.output();
    const shuttingDown = out.indexOf('"msg":"shutting down"');
    const answered = out.search(/"path":"\/api\/webhook\/projects","status":200[^\n]*"msg":"request"/);
    const stopped = out.indexOf('"msg":"stopped"');
    expect(shuttingDown).toBeGreaterThan(-1);
    expect(answered).toBeGreaterThan(shuttingDown);
    expect(stopped).toBeGreaterThan(answered);
  });

  it('still exits on SIGTERM when the reader of its stdout has gone', async () => {
    const s = await start({ DATABASE_URL: 'memory:', WEBHOOK_API_KEY: newKey() });
    // like `… | head -1`: the next log line (the shutdown's) meets a broken pipe
    s.child.stdout?.destroy();
    const code = await Promise.race([
      s.stop('SIGTERM'),
      new Promise((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000)),
    ]);
    expect(code).toBe(0);
  });
});
