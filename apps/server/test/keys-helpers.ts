import { expect } from 'vitest';
import type { TestServer } from './helpers.ts';

/**
 * What the tests of named keys (docs/keys-and-limits.md#named-keys-and-scopes) share: the shape of
 * a key as created, and a way to create one on the server of keys.test.ts.
 */

/** A key as created: dir_ and 43 or 44 characters of base58. */
export const BASE58_KEY = /^dir_[1-9A-HJ-NP-Za-km-z]{43,44}$/;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A key as `POST /api/keys` answers it, the only time the key itself is shown. */
export interface NewKey {
  id: string;
  key: string;
  name: string;
  start: string;
  scopes: string[];
}
export type CreateKey = (body: Record<string, unknown>) => Promise<NewKey>;

/** Creates a key on `s` with the bootstrap key; anything but 201 fails the test. */
export function keyCreator(s: TestServer): CreateKey {
  return async (body) => {
    const r = await s.call('POST', '/api/keys', { body });
    expect(r.status, r.text).toBe(201);
    return r.json.data as NewKey;
  };
}
