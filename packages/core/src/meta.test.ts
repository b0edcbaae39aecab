import { describe, expect, it } from 'vitest';
import { SCOPES } from './domain/scopes.ts';
import type { Meta } from './meta.ts';
import { appRouter } from './router.ts';
import { requireKey } from './trpc.ts';

type Def = { _def: { meta?: Meta; middlewares: unknown[] } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Def>);
const keyCheck = (requireKey as unknown as { _middlewares: unknown[] })._middlewares[0];

describe('every procedure declares who may call it: public, or the scope a key needs', () => {
  it.each(procedures.map(([name, p]) => [name, p] as const))('%s', (_, procedure) => {
    const meta = procedure._def.meta;
    expect(meta?.openapi).toBeDefined();
    const keyed = procedure._def.middlewares.includes(keyCheck);
    // protect (the OpenAPI document), the key check and the declared scope agree
    expect(meta?.openapi.protect).toBe(keyed);
    expect(meta?.scope !== undefined).toBe(keyed);
    if (meta?.scope !== undefined) expect([...SCOPES, 'any-key']).toContain(meta.scope);
  });
});
