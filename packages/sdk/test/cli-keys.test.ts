import { startServer, type TestServer } from '@directory/server/test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ postgres: false });
});

afterAll(async () => {
  await server?.close();
});

/** The CLI as its own process, with the test server's bootstrap key unless `key` is given. */
async function cli(args: string[], key = server.key) {
  const r = await runCli({ baseUrl: server.baseUrl, key }, args);
  // the key the command was run with is never printed
  expect(r.stdout + r.stderr).not.toContain(key);
  return r;
}

const KEY = /^dir_[1-9A-HJ-NP-Za-km-z]{40,}$/;

describe('directory keys: create, list, self, revoke, rotate', () => {
  it('creates a key shown once, lists it, rotates it with a grace period and revokes it', async () => {
    const made = await cli([
      'keys',
      'create',
      '--name',
      'crawler-fleet',
      '--scopes',
      'tasks:write,projects:write',
      '--rate-limit',
      '600/60',
    ]);
    expect(made.code).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(KEY);
    expect(made.stderr).toContain('Created the key "crawler-fleet"');
    expect(made.stderr).toContain('scopes tasks:write, projects:write');
    expect(made.stderr).toContain('This is the only time the key is shown');

    // the key works for what its scopes allow, and is refused the rest in the envelope's words
    expect((await cli(['tasks', 'stats'], key)).code).toBe(0);
    const refused = await cli(['keys', 'list'], key);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('error: 403 Forbidden: scope: this key lacks "keys:admin"\n');

    const list = await cli(['keys', 'list']);
    expect(list.code).toBe(0);
    const [header, row] = list.stdout.split('\n');
    expect(header).toMatch(/^ID +NAME +KEY +SCOPES +CREATED +LAST USED +LIMIT +EXPIRES +STATE$/);
    expect(row).toContain('crawler-fleet');
    expect(row).toContain(`${key.slice(0, 12)}…`);
    expect(row).toContain('tasks:write,projects:write');
    expect(row).toMatch(/ 600\/60s +- +active$/);
    expect(list.stdout).not.toContain(key);
    const json = JSON.parse((await cli(['keys', 'list', '--json'])).stdout);
    const record = json.data.find((k: { name: string }) => k.name === 'crawler-fleet');
    expect(record).toMatchObject({ scopes: ['tasks:write', 'projects:write'], revokedAt: null });
    expect(record.lastUsedAt).not.toBeNull();

    const rotated = await cli(['keys', 'rotate', record.id, '--grace', '3600']);
    expect(rotated.code).toBe(0);
    const next = rotated.stdout.trim();
    expect(next).toMatch(KEY);
    expect(next).not.toBe(key);
    expect(rotated.stderr).toContain(`The old key (${record.id}) works until about`);
    expect(rotated.stderr).toContain('Rotated the key "crawler-fleet"');
    // both work during the grace period
    expect((await cli(['tasks', 'stats'], key)).code).toBe(0);
    expect((await cli(['tasks', 'stats'], next)).code).toBe(0);
    const after = (await cli(['keys', 'list'])).stdout;
    expect(after).toMatch(
      new RegExp(`^${record.id} .* until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`, 'm'),
    );

    const newId = JSON.parse((await cli(['keys', 'list', '--json'])).stdout).data[0].id as string;
    const revoked = await cli(['keys', 'revoke', newId]);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout).toBe(`Revoked the key "crawler-fleet" (${newId}, ${next.slice(0, 12)}…)\n`);
    const gone = await cli(['tasks', 'stats'], next);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('401 Unauthorized');
    expect((await cli(['keys', 'list'])).stdout).toMatch(new RegExp(`^${newId} .* revoked$`, 'm'));
  });

  it('says what is wrong: unknown scope, no name, unknown id, a revoked key rotated', async () => {
    const scope = await cli(['keys', 'create', '--name', 'x', '--scopes', 'curate,admin']);
    expect(scope.code).toBe(2);
    expect(scope.stderr).toMatch(
      /^error: unknown scope 'admin'; scopes: projects:write, .* \(see 'directory keys create --help'\)\n$/,
    );
    const name = await cli(['keys', 'create', '--scopes', 'curate']);
    expect(name.stderr).toBe("error: --name is required (see 'directory keys create --help')\n");
    const long = await cli(['keys', 'create', '--name', 'n'.repeat(101), '--scopes', 'curate']);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/^error: 400 Validation error: name: Too big/);
    const unknown = await cli(['keys', 'revoke', 'no-such-key']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: .+\n$/);

    const json = JSON.parse(
      (await cli(['keys', 'create', '--name', 'short-lived', '--scopes', 'curate', '--json'])).stdout,
    );
    expect(json).toMatchObject({ success: true, data: { name: 'short-lived', scopes: ['curate'] } });
    expect(json.data.key).toMatch(KEY);
    expect((await cli(['keys', 'revoke', json.data.id, '--json'])).code).toBe(0);
    const again = await cli(['keys', 'rotate', json.data.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: .+\n$/);
    const help = await cli(['keys', '--help']);
    for (const sub of ['create', 'list', 'revoke', 'rotate', 'self'])
      expect(help.stdout).toContain(`keys ${sub}`);
  });

  it('keys self: which key is sending, with its scopes, expiry, limit and state; any key may ask', async () => {
    const boot = await cli(['keys', 'self']);
    expect(boot).toMatchObject({ code: 0, stderr: '' });
    const bootLines = boot.stdout.split('\n');
    expect(bootLines[0]).toBe('name:       bootstrap');
    expect(bootLines[1]).toMatch(/^id: +- \(the bootstrap key: WEBHOOK_API_KEY/);
    expect(bootLines[2]).toMatch(/^scopes: +every scope \(projects:write, .*keys:admin.*\)$/);
    expect(JSON.parse((await cli(['keys', 'self', '--json'])).stdout)).toMatchObject({
      success: true,
      data: { id: null, name: 'bootstrap', start: null, rateLimit: null },
    });

    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const made = JSON.parse(
      (
        await cli([
          'keys',
          'create',
          '--name',
          'feed-reader',
          '--scopes',
          'changes:read',
          '--expires-at',
          expiresAt,
          '--rate-limit',
          '120/60',
          '--json',
        ])
      ).stdout,
    ).data;
    // a key without keys:admin may still ask who it is
    const self = await cli(['keys', 'self'], made.key);
    expect(self).toMatchObject({ code: 0, stderr: '' });
    const fields = Object.fromEntries(
      self.stdout
        .trimEnd()
        .split('\n')
        .map((line) => [line.slice(0, 12).trim(), line.slice(12)]),
    );
    expect(fields).toEqual({
      'name:': 'feed-reader',
      'id:': made.id,
      'key:': `${made.key.slice(0, 12)}…`,
      'scopes:': 'changes:read',
      'created:': expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/),
      'expires:': `${expiresAt.slice(0, 10)} ${expiresAt.slice(11, 19)}Z`,
      'rate limit:': '120 requests per 60 s',
      // this very request is a use, recorded beside the request (on PostgreSQL perhaps after the read)
      'last used:': expect.stringMatching(/^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ|-)$/),
      'state:': 'active',
    });
    const json = JSON.parse((await cli(['keys', 'self', '--json'], made.key)).stdout);
    expect(json).toEqual({
      success: true,
      data: {
        id: made.id,
        name: 'feed-reader',
        start: made.start,
        scopes: ['changes:read'],
        createdAt: made.createdAt,
        expiresAt,
        revokedAt: null,
        lastUsedAt: expect.any(String),
        rateLimit: { requests: 120, windowSeconds: 60 },
      },
    });

    // a key with no limit of its own; then rotated with a grace period: it says until when
    const plain = JSON.parse(
      (await cli(['keys', 'create', '--name', 'plain', '--scopes', 'curate', '--json'])).stdout,
    ).data;
    expect((await cli(['keys', 'self'], plain.key)).stdout).toMatch(
      /^rate limit: the server's default \(RATE_LIMIT_KEY_PER_MINUTE\)\nlast used: .*\nstate: +active\n$/m,
    );
    expect((await cli(['keys', 'rotate', plain.id, '--grace', '3600'])).code).toBe(0);
    expect((await cli(['keys', 'self'], plain.key)).stdout).toMatch(
      /^state: +until \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/m,
    );

    // a revoked key is refused, as for any other command
    expect((await cli(['keys', 'revoke', made.id])).code).toBe(0);
    const refused = await cli(['keys', 'self'], made.key);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('401 Unauthorized');

    const help = await cli(['keys', 'self', '--help']);
    expect(help.stdout).toMatch(/^Usage: directory keys self\n/);
    expect(help.stdout).toContain('Any valid key may ask');
  });
});
