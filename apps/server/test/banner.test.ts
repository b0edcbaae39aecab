import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startBanner } from '../src/banner.ts';
import { spawnServer } from './helpers.ts';

/** A person who starts the server at a terminal is told where the console is. */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('the start banner', () => {
  it('is one plain line with the console and docs addresses, only on a terminal', () => {
    expect(startBanner({ isTTY: true, host: '127.0.0.1', port: 3000 })).toBe(
      'Console: http://127.0.0.1:3000/ · API docs: http://127.0.0.1:3000/api/docs',
    );
    expect(startBanner({ isTTY: false, host: '127.0.0.1', port: 3000 })).toBeUndefined();
    expect(startBanner({ isTTY: undefined, host: '127.0.0.1', port: 3000 })).toBeUndefined();
  });

  it('names an address a browser can open for a wildcard or IPv6 bind', () => {
    expect(startBanner({ isTTY: true, host: '0.0.0.0', port: 8080 })).toContain('http://127.0.0.1:8080/');
    expect(startBanner({ isTTY: true, host: '::', port: 8080 })).toContain('http://[::1]:8080/api/docs');
    expect(startBanner({ isTTY: true, host: '::1', port: 1 })).toContain('http://[::1]:1/');
  });

  it('a server started under a terminal prints it before its JSON logs; through a pipe it does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'directory-banner-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: `pglite:${dir}`,
    };
    delete env.WEBHOOK_API_KEY;
    // script(1) gives the server a pseudo-terminal as stdout and copies what it writes to ours.
    const command = `${process.execPath} --import tsx ${MAIN}`;
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    cleanups.push(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {}
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line:\n${out}`)), 60_000);
      const check = () => {
        if (!/"msg":"listening"/.test(out)) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout.on('data', check);
      child.once('exit', () => reject(new Error(`exited before listening:\n${out}`)));
    });
    const lines = out.split(/\r?\n/);
    const port = /"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(out)?.[1];
    const banner = `Console: http://127.0.0.1:${port}/ · API docs: http://127.0.0.1:${port}/api/docs`;
    expect(lines).toContain(banner);
    const firstJson = lines.findIndex((l) => l.startsWith('{'));
    expect(lines.indexOf(banner)).toBeLessThan(firstJson);
    expect(lines.filter((l) => l.startsWith('Console:'))).toHaveLength(1);

    // The same start through a pipe (as a log collector reads it): JSON lines and the key line only.
    const piped = await spawnServer({ DATABASE_URL: 'memory:', WEBHOOK_API_KEY: 'k' });
    cleanups.push(() => void piped.stop('SIGKILL'));
    expect(piped.output()).not.toContain('Console:');
    expect(
      piped
        .output()
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('{')),
    ).toBe(true);
  }, 120_000);
});
