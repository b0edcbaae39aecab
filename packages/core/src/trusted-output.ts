import type { z } from 'zod';

const ORIGINAL = Symbol('the output schema');

/**
 * The output schema of a procedure whose answer the code builds typed from typed parts (the
 * reads of the read model): the schema still documents the answer (the OpenAPI document, the
 * SDK's and tRPC clients' types), but it is not run on every answer — validating a page of
 * projects cost more than finding it. What stands in for the check per request is
 * apps/server/test/read-outputs.test.ts: it parses answers of every such procedure, over the
 * shapes they take, with the real schema (`checkedOutputOf`) and requires the parse to change
 * nothing. TypeScript checks the rest: the resolver must return the schema's type. Since the
 * answer is handed on as it is, its list items keep the JSON they carry (render-json.ts
 * Prerendered), which the REST adapter writes; a parse would copy them into plain objects.
 *
 * tRPC takes the parse function of an output parser from its `parse`; the schema handed to it
 * is the real one with `parse` (and `parseAsync`) answering the value as it is. Everything
 * else (its definition, which the OpenAPI generator reads, and its type) is the schema's own.
 */
export function trustedOutput<T extends z.ZodType>(schema: T): T {
  const same = (value: unknown) => value;
  return Object.create(schema, {
    parse: { value: same },
    parseAsync: { value: async (value: unknown) => value },
    [ORIGINAL]: { value: schema },
  }) as T;
}

/** The schema behind a trusted output (the output itself when it is not one). */
export function checkedOutputOf(output: unknown): z.ZodType | undefined {
  if (output === null || typeof output !== 'object') return undefined;
  return ((output as Record<symbol, unknown>)[ORIGINAL] ?? output) as z.ZodType;
}
