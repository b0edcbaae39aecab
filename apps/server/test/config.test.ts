import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';

describe('configuration', () => {
  it('has timeouts, pool and rate-limit defaults, all off or generous', () => {
    const c = readConfig({});
    expect(c).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      dbPoolSize: 10,
      dbConnectTimeoutMs: 5_000,
      dbStatementTimeoutMs: 30_000,
      bodyLimitBytes: 5 * 1024 * 1024,
      rateLimit: { windowMs: 60_000, perAddress: 0, perKey: 0 },
      trustProxy: undefined,
    });
  });

  it('reads every knob from the environment', () => {
    const c = readConfig({
      REQUEST_TIMEOUT_MS: '5000',
      HEADERS_TIMEOUT_MS: '2000',
      KEEP_ALIVE_TIMEOUT_MS: '700',
      DB_POOL_SIZE: '4',
      DB_CONNECT_TIMEOUT_MS: '0',
      DB_STATEMENT_TIMEOUT_MS: '1500',
      BODY_LIMIT_BYTES: '1024',
      RATE_LIMIT_WINDOW_MS: '1000',
      RATE_LIMIT_PER_ADDRESS: '50',
      RATE_LIMIT_PER_KEY: '20',
      TRUST_PROXY: 'loopback',
    });
    expect(c).toMatchObject({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 2000,
      keepAliveTimeoutMs: 700,
      dbPoolSize: 4,
      dbConnectTimeoutMs: 0,
      dbStatementTimeoutMs: 1500,
      bodyLimitBytes: 1024,
      rateLimit: { windowMs: 1000, perAddress: 50, perKey: 20 },
      trustProxy: 'loopback',
    });
  });

  it('refuses values that cannot work, naming the variable', () => {
    expect(() => readConfig({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(
      /^REQUEST_TIMEOUT_MS must be an integer/,
    );
    expect(() => readConfig({ RATE_LIMIT_PER_KEY: '-1' })).toThrow(
      /^RATE_LIMIT_PER_KEY must be an integer >= 0/,
    );
    expect(() => readConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '5000' })).toThrow(
      /^HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/,
    );
  });

  it('reads DATABASE_READ_URL (standbys of a PostgreSQL primary) and READ_MAX_LAG_MS', () => {
    const primary = 'postgres://u:secret@primary/directory';
    expect(readConfig({ DATABASE_URL: primary })).toMatchObject({ databaseReadUrls: [], readMaxLagMs: 2000 });
    expect(
      readConfig({
        DATABASE_URL: primary,
        DATABASE_READ_URL: ' postgres://u:secret@a/directory, postgresql://u:secret@b/directory ,',
        READ_MAX_LAG_MS: '500',
      }),
    ).toMatchObject({
      databaseReadUrls: ['postgres://u:secret@a/directory', 'postgresql://u:secret@b/directory'],
      readMaxLagMs: 500,
    });
    expect(() => readConfig({ DATABASE_READ_URL: 'postgres://u:secret@a/directory' })).toThrow(
      /^DATABASE_READ_URL needs a PostgreSQL DATABASE_URL/,
    );
    expect(() => readConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'pglite:./x' })).toThrow(
      /^DATABASE_READ_URL: entry 1 must be postgres/,
    );
    // no password in the message
    expect(() =>
      readConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'mysql://u:secret@a/x' }),
    ).not.toThrow(/secret/);
  });
});
