import fc from 'fast-check';
import { defineKey, type Req, req } from './fuzz-routes.ts';
import { validBodyRequest } from './fuzz-valid.ts';
import { ARRAY_SIZES, BAD_URLS, char, GOOD_ODD_URLS, SHAPE_KEYS, weird, weirdKey } from './fuzz-values.ts';

/**
 * fuzz.test.ts's (b) (docs/keys-and-limits.md#hostile-input): valid bodies, mutated (fields
 * dropped, retyped, over their limits, duplicated, unknown keys added).
 */

type Mutation =
  | { kind: 'delete' | 'null' | 'empty' | 'duplicate' | 'wrap' | 'stringify' }
  | { kind: 'set'; value: unknown }
  | { kind: 'long'; n: number; c: string }
  | { kind: 'resize'; n: number }
  | { kind: 'addKey'; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom<Mutation>(
    { kind: 'delete' },
    { kind: 'null' },
    { kind: 'empty' },
    { kind: 'duplicate' },
    { kind: 'wrap' },
    { kind: 'stringify' },
  ),
  weird.map((value): Mutation => ({ kind: 'set', value })),
  fc.constantFrom(...BAD_URLS, ...GOOD_ODD_URLS).map((value): Mutation => ({ kind: 'set', value })),
  fc
    .constantFrom('GITHUB', 'website', 'DRAFT', 'DONE', 'pending', 'ACTIVE ', '')
    .map((value): Mutation => ({ kind: 'set', value })),
  fc.string({ unit: char, minLength: 1, maxLength: 4 }).map((value): Mutation => ({ kind: 'set', value })),
  fc
    .tuple(fc.constantFrom(1, 10, 191, 200, 201, 490, 501, 1001, 2001, 2049, 10_001), char)
    .map(([n, c]): Mutation => ({ kind: 'long', n, c })),
  ARRAY_SIZES.map((n): Mutation => ({ kind: 'resize', n })),
  fc.tuple(weirdKey, weird).map(([key, value]): Mutation => ({ kind: 'addKey', key, value })),
);

/** Where a mutation applies: one of the positions with that key (any position when none has it). */
const mutationTarget = fc.tuple(fc.option(fc.constantFrom(...SHAPE_KEYS), { nil: undefined }), fc.nat());

interface Position {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
}

function positions(holder: { body: unknown }): Position[] {
  const found: Position[] = [{ parent: holder, key: 'body' }];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        found.push({ parent: value, key: i });
        walk(v);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        found.push({ parent: value as Record<string, unknown>, key: k });
        walk(v);
      }
    }
  };
  walk(holder.body);
  return found;
}

function mutate(body: unknown, mutations: [[string | undefined, number], Mutation][]): unknown {
  const holder = { body: structuredClone(body) };
  for (const [[key, index], m] of mutations) {
    const all = positions(holder);
    const keyed = all.filter((p) => p.key === key);
    const choices = keyed.length > 0 ? keyed : all;
    const at = choices[index % choices.length]!;
    const parent = at.parent as Record<string | number, unknown>;
    const current = parent[at.key];
    switch (m.kind) {
      case 'delete':
        if (Array.isArray(at.parent)) at.parent.splice(at.key as number, 1);
        else delete parent[at.key];
        break;
      case 'null':
        parent[at.key] = null;
        break;
      case 'empty':
        parent[at.key] = Array.isArray(current) ? [] : typeof current === 'string' ? '' : {};
        break;
      case 'duplicate':
        // a link listed twice (same url), a tag or a task repeated
        if (Array.isArray(current) && current.length > 0) current.push(structuredClone(current[0]));
        else if (Array.isArray(at.parent)) at.parent.push(structuredClone(current));
        break;
      case 'wrap':
        parent[at.key] = [current];
        break;
      case 'stringify':
        parent[at.key] = JSON.stringify(current) ?? 'undefined';
        break;
      case 'set':
        parent[at.key] = m.value;
        break;
      case 'long':
        parent[at.key] = (typeof current === 'string' ? current : '') + m.c.repeat(m.n);
        break;
      case 'resize': {
        const items = Array.isArray(current) && current.length > 0 ? current : [current];
        parent[at.key] = Array.from({ length: m.n }, (_, i) => structuredClone(items[i % items.length]));
        break;
      }
      case 'addKey':
        if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
          defineKey(current as Record<string, unknown>, m.key, m.value);
        } else {
          parent[at.key] = { [m.key]: m.value };
        }
        break;
    }
  }
  return holder.body;
}

export const mutatedRequest: fc.Arbitrary<Req> = fc
  .tuple(validBodyRequest, fc.array(fc.tuple(mutationTarget, mutation), { minLength: 1, maxLength: 3 }))
  .map(([v, mutations]) =>
    req(v.route, { path: v.path, body: JSON.stringify(mutate(v.json, mutations)) ?? 'undefined' }),
  );
