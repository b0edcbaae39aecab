import { describe, expect, it } from 'vitest';
import {
  authenticate,
  bootstrapVerifier,
  type Credentials,
  headerKey,
  readCredentials,
  requireScope,
} from './auth.ts';
import { AppError } from './errors.ts';

const KEY = 'the-key';

describe('authenticate with the bootstrap key', () => {
  it.each([
    ['header only, right', { header: KEY, body: undefined }, true],
    ['body only, right', { header: undefined, body: KEY }, true],
    ['both right', { header: KEY, body: KEY }, true],
    ['nothing sent', { header: undefined, body: undefined }, false],
    ['header wrong', { header: 'nope', body: undefined }, false],
    ['header right, body wrong', { header: KEY, body: 'nope' }, false],
    ['header wrong, body right', { header: 'nope', body: KEY }, false],
    ['empty header counts as sent', { header: '', body: KEY }, false],
    ['non-string body key', { header: undefined, body: 42 }, false],
    ['null body key', { header: undefined, body: null }, false],
    ['prefix of the key', { header: 'the-ke', body: undefined }, false],
    ['key plus suffix', { header: `${KEY}x`, body: undefined }, false],
  ])('%s → %s', async (_, credentials: Credentials, expected) => {
    const result = await authenticate(credentials, bootstrapVerifier(KEY)).then(
      (p) => p.name,
      (e: AppError) => e.kind,
    );
    expect(result).toBe(expected ? 'bootstrap' : 'UNAUTHORIZED');
  });
});

describe('requireScope', () => {
  it('403 names the missing scope', () => {
    const p = { id: 'k1', name: 'crawler', scopes: ['tasks:write' as const], rateLimit: null };
    expect(() => requireScope(p, 'tasks:read')).not.toThrow();
    try {
      requireScope(p, 'curate');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(403);
      expect((err as AppError).body).toEqual({
        success: false,
        error: 'Forbidden',
        details: ['scope: this key lacks "curate"'],
      });
    }
  });
});

describe('headerKey', () => {
  it('takes x-api-key or Authorization: Bearer; both must agree', () => {
    expect(headerKey('k', undefined)).toBe('k');
    expect(headerKey(undefined, 'Bearer k')).toBe('k');
    expect(headerKey(undefined, 'bearer k')).toBe('k');
    expect(headerKey('k', 'Bearer k')).toBe('k');
    expect(headerKey(undefined, undefined)).toBeUndefined();
  });
  it('another scheme, or two different keys, is a wrong key (never "no key")', () => {
    for (const wrong of [
      headerKey(undefined, 'Basic abc'),
      headerKey('a', 'Bearer b'),
      headerKey(undefined, 'Bearer'),
    ])
      expect(wrong).toBe('\u0000');
  });
});

describe('readCredentials', () => {
  it('takes apiKey from an object body only', () => {
    expect(readCredentials(undefined, { apiKey: 'k' }).body).toBe('k');
    expect(readCredentials(undefined, { other: 1 }).body).toBeUndefined();
    expect(readCredentials(undefined, ['k']).body).toBeUndefined();
    expect(readCredentials(undefined, undefined).body).toBeUndefined();
    expect(readCredentials('h', undefined).header).toBe('h');
  });

  it('does not take apiKey from the prototype chain', () => {
    expect(readCredentials(undefined, JSON.parse('{"__proto__": {"apiKey": "k"}}')).body).toBeUndefined();
  });
});
