import { z } from 'zod';
import { HTTP_URL_PATTERN, httpUrlProblem, INVALID_URL, MAX_URL_BYTES } from './url-rule.ts';

/** Length in Unicode code points: the spec's "characters" (200 emoji are a valid name). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * Why PostgreSQL could not store a string as it is, if it could not: text holds no U+0000,
 * and a lone UTF-16 surrogate has no UTF-8 form (text would silently store U+FFFD, jsonb
 * refuses it).
 */
export function unstorable(s: string): string | undefined {
  if (s.includes('\u0000')) return 'Must not contain NUL (U+0000) characters';
  if (!s.isWellFormed()) return 'Must be well-formed Unicode (no lone surrogates)';
  return undefined;
}

/**
 * A string whose length is counted in code points, refused when PostgreSQL could not store
 * it as it is (rather than failing, or silently changing it, in the database).
 */
export function text(limits: { min?: number; max?: number } = {}) {
  const { min, max } = limits;
  return z
    .string()
    .superRefine((s, ctx) => {
      const problem = unstorable(s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
      if (min === undefined && max === undefined) return;
      const n = codePointLength(s);
      if (min !== undefined && n < min) {
        ctx.addIssue({ code: 'custom', message: `Too small: expected string to have >=${min} characters` });
      } else if (max !== undefined && n > max) {
        ctx.addIssue({ code: 'custom', message: `Too big: expected string to have <=${max} characters` });
      }
    })
    .meta({ ...(min !== undefined && { minLength: min }), ...(max !== undefined && { maxLength: max }) });
}

export const httpUrl = z
  .string()
  .superRefine((s, ctx) => {
    const invalid = httpUrlProblem(s);
    if (invalid === INVALID_URL) {
      ctx.addIssue({ code: 'custom', message: invalid });
      return;
    }
    const problem = unstorable(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    if (invalid) ctx.addIssue({ code: 'custom', message: invalid });
  })
  .meta({
    pattern: HTTP_URL_PATTERN,
    // A character is at least one byte: the byte limit below is the exact rule.
    maxLength: MAX_URL_BYTES,
    description:
      `An HTTP or HTTPS URL (IRIs with non-ASCII characters are accepted as they are), at most ${MAX_URL_BYTES} ` +
      'bytes of UTF-8, without whitespace or control characters',
  });

/** The largest integer any input takes (PostgreSQL's integer): a larger one is 400, never 500. */
export const MAX_INT = 2_147_483_647;

/** A count in a response. */
export const count = () => z.int().min(0);

const MAX_JSON_DEPTH = 64;

function jsonProblem(value: unknown, depth: number): string | undefined {
  if (depth > MAX_JSON_DEPTH) return `Too deep: expected JSON nested at most ${MAX_JSON_DEPTH} levels`;
  if (typeof value === 'string') return unstorable(value);
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const problem = unstorable(k) ?? jsonProblem(v, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** A JSON object that PostgreSQL's jsonb can store. */
export const jsonObject = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = jsonProblem(value, 1);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * An optional input field that also takes null as "not given": responses write absent values
 * as null, so a record read back and sent again must be accepted as it is.
 */
export function optional<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((v) => v ?? undefined)
    .optional();
}

/** Timestamps in responses: ISO 8601 UTC with milliseconds. */
export const timestamp = z.iso.datetime();

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());
