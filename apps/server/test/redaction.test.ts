import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, POSTGRES_URL, type ServerProcess, spawnServer } from './helpers.ts';

/**
 * A database URL is logged and shown with its passwords blanked (docs/operating.md#configuration):
 * a password with `@` in it, and one given as `?password=`, in the "listening" line and in
 * GET /healthz?verbose=1.
 */
describe.skipIf(!POSTGRES_URL)('the database URL in the log and in /healthz?verbose=1', () => {
  let server: ServerProcess | undefined;
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  afterAll(async () => {
    await server?.stop();
    await fresh?.drop();
  });

  it('shows no password', async () => {
    fresh = await freshPostgresDatabase();
    const url = new URL(fresh.url);
    // trust authentication ignores both passwords
    const withPasswords = `postgres://${url.username}:hunter@two@${url.host}${url.pathname}?password=s3cr3t-param&application_name=redaction`;
    server = await spawnServer({
      DATABASE_URL: withPasswords,
      WEBHOOK_API_KEY: 'redaction-key-0123456789abcdef',
    });
    let health = await server.call('GET', '/healthz?verbose=1', { key: false });
    for (let i = 0; health.status !== 200 && i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      health = await server.call('GET', '/healthz?verbose=1', { key: false });
    }
    expect(health.status).toBe(200);
    for (const text of [server.output(), health.text]) {
      expect(text).not.toContain('hunter');
      expect(text).not.toContain('two@');
      expect(text).not.toContain('s3cr3t-param');
    }
    expect(server.output()).toMatch(
      /"database":"postgres:\/\/postgres:\*\*\*@[^"]*password=\*\*\*[^"]*","msg":"listening"/,
    );
  }, 60_000);
});
