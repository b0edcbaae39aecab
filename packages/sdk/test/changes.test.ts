import { project, startServer, type TestServer } from '@directory/server/test/helpers';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/run.ts';
import {
  type Change,
  createDirectoryClient,
  DirectoryError,
  type ProjectInput,
  verifyWebhook,
} from '../src/index.ts';

const sample = () => project() as ProjectInput;

describe('following changes with the SDK and the CLI', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ postgres: false });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('changes.follow yields every change as it happens, resumes from a cursor, and stops on abort', async () => {
    const client = createDirectoryClient({ baseUrl: s.baseUrl, apiKey: s.key });
    const stop = new AbortController();
    const seen: Change[] = [];
    const following = (async () => {
      for await (const change of client.changes.follow({ signal: stop.signal, limit: 2, wait: 5 })) {
        seen.push(change);
        if (seen.length === 5) stop.abort();
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    await client.projects.upsert({ projects: [sample(), sample(), sample()] });
    await client.projects.upsert({ projects: [sample(), sample()] });
    const started = Date.now();
    await following;
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(seen.map((c) => c.type)).toEqual(Array(5).fill('project.created'));
    // Resuming after the second change yields the third onwards.
    const resumed: Change[] = [];
    const again = new AbortController();
    for await (const change of client.changes.follow({ after: seen[1]!.cursor, signal: again.signal })) {
      resumed.push(change);
      if (resumed.length === 3) again.abort();
    }
    expect(resumed).toEqual(seen.slice(2));
    // A refusal ends the iteration with the error.
    await expect(client.changes.follow({ after: 'bogus' }).next()).rejects.toBeInstanceOf(DirectoryError);
  });

  it('verifyWebhook accepts a Standard Webhooks signature and refuses a tampered body', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({
      type: 'project.created',
      timestamp: '2026-11-23T08:00:00.000Z',
      data: { x: 1 },
    });
    const now = new Date();
    const headers = new Headers({
      'webhook-id': 'chg_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('chg_1', now, body),
    });
    expect(verifyWebhook(secret, headers, body).type).toBe('project.created');
    expect(verifyWebhook(secret, Object.fromEntries(headers), Buffer.from(body)).data).toEqual({ x: 1 });
    expect(() => verifyWebhook(secret, headers, body.replace('1', '2'))).toThrow();
  });

  it('directory changes prints a page, and --json gives the reply', async () => {
    let out = '';
    let err = '';
    const io = {
      stdin: (async function* () {})(),
      stdout: { write: (c: string) => (out += c) },
      stderr: { write: (c: string) => (err += c) },
      env: { DIRECTORY_URL: s.baseUrl, DIRECTORY_API_KEY: s.key },
    };
    expect(await run(['changes', '--limit', '2'], io)).toBe(0);
    expect(out.trim().split('\n')).toHaveLength(2);
    expect(out).toContain('project.created');
    expect(err).toMatch(/Continue with --after \S+/);
    out = '';
    expect(await run(['changes', '--json', '--limit', '1'], io)).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ success: true, hasMore: true });
  });
});
