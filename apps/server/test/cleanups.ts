import { afterAll } from 'vitest';

/**
 * What the tests of a describe block leave to undo (servers, clusters, directories): pushed as they
 * are made, undone after all the block's tests, the last first, each awaited; `ms`: afterAll's timeout.
 */
export function cleanupsAfterAll(ms: number): (() => Promise<unknown> | unknown)[] {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  }, ms);
  return cleanups;
}
