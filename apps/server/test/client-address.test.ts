import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { targets, useServer } from './helpers.ts';

/**
 * The address a request is counted as (docs/keys-and-limits.md#the-client-address): TRUST_PROXY
 * takes a number of hops or a list of proxy addresses, never `true` (a client would choose its
 * own address); an IPv6 client is counted per /64, by the limit and by the charging of guesses.
 */

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('TRUST_PROXY', () => {
  it('takes a number of hops or a list of addresses', () => {
    expect(readConfig({ TRUST_PROXY: '2' }).trustProxy).toBe('2');
    expect(readConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, 2001:db8::1' }).trustProxy).toBe(
      'loopback, 10.0.0.0/8, 2001:db8::1',
    );
    expect(readConfig({}).trustProxy).toBeUndefined();
  });

  it('refuses true, and what is neither, with the reason', () => {
    expect(() => readConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true .*any client/);
    expect(() => readConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
    expect(() => readConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/10\.0\.0\.0\/99/);
  });

  it('the server does not start with TRUST_PROXY=true, and says why', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: { ...process.env, PORT: '0', DATABASE_URL: 'memory:', TRUST_PROXY: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const stuck = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(stuck);
    expect(code).not.toBe(0);
    expect(out).toMatch(/TRUST_PROXY=true/);
    expect(out).not.toMatch(/"msg":"listening"/);
  }, 60_000);
});

describe.each(targets)('IPv6 clients counted per /64 ($name)', (target) => {
  const LIMIT = 3;
  const server = useServer(target, {
    rateLimit: { windowMs: 60_000, perAddress: LIMIT, perKey: 0 },
    trustProxy: 'loopback',
  });
  const from = (address: string, key?: string) =>
    server.call('GET', '/api/projects?limit=1', {
      key: key ?? false,
      headers: { 'x-forwarded-for': address },
    });

  it('addresses of one /64 share one budget; another /64 has its own', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= LIMIT + 3; i++)
      statuses.push((await from(`2001:db8:aa:1::${i.toString(16)}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    // the same /64 spelt in full, and with another interface id
    expect((await from('2001:0db8:00aa:0001:ffff:1:2:3')).status).toBe(429);
    expect((await from('2001:db8:aa:2::1')).status).toBe(200);
  });

  it('guessed keys from one /64 are charged to that /64', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= LIMIT + 2; i++)
      statuses.push((await from(`2001:db8:bb:1:${i}::1`, `guess-${i}`)).status);
    expect(statuses.slice(0, LIMIT), String(statuses)).not.toContain(429);
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  });

  it('an IPv4-mapped address is counted as its IPv4 address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await from('198.51.100.7')).status);
    expect(statuses).toEqual([200, 200, 200]);
    expect((await from('::ffff:198.51.100.7')).status).toBe(429);
  });
});
