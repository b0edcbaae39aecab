import { describe, expect, it } from 'vitest';
import { isAuthorized, readCredentials } from './auth.ts';

const KEY = 'the-key';

describe('isAuthorized', () => {
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
  ])('%s → %s', (_, credentials, expected) => {
    expect(isAuthorized(credentials, KEY)).toBe(expected);
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
