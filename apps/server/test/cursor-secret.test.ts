import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, migrateToLatest } from '@directory/db';
import { describe, expect, it } from 'vitest';
import { resolveKeys } from '../src/api-key.ts';

describe('the secret that signs cursors (docs/decisions.md#request-handling)', () => {
  it('is random, kept in the database, and never the configured WEBHOOK_API_KEY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cursor-secret-'));
    const url = `pglite:${dir}`;
    try {
      const open = async () => {
        const handle = await connect(url);
        await migrateToLatest(handle.db);
        return handle;
      };
      let handle = await open();
      const first = await resolveKeys('weak', url, handle.db);
      expect(first.key).toBe('weak');
      // a public cursor must say nothing of the key: its secret is not the key, nor made from it
      expect(first.secret).not.toBe('weak');
      expect(first.secret).toMatch(/^[\w-]{43}$/);
      await handle.close();
      // the same after a restart (cursors handed out stay valid), and with another key
      handle = await open();
      expect((await resolveKeys('another', url, handle.db)).secret).toBe(first.secret);
      await handle.close();
      // another deployment with the same weak key signs with another secret
      const other = await connect('memory:');
      await migrateToLatest(other.db);
      expect((await resolveKeys('weak', 'memory:', other.db)).secret).not.toBe(first.secret);
      await other.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
