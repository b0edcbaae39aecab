import { z } from 'zod';

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
 * A string whose length is counted in code points. Text stored in PostgreSQL cannot hold
 * U+0000, so it is refused here rather than failing in the database.
 */
export function text(limits: { min?: number; max?: number } = {}) {
  const { min, max } = limits;
  return z
    .string()
    .superRefine((s, ctx) => {
      if (s.includes('\u0000'))
        ctx.addIssue({ code: 'custom', message: 'Must not contain NUL (U+0000) characters' });
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

/**
 * URLs are indexed for exact lookup; a btree entry holds at most ~2.7 kB, so URLs are
 * limited to 2048 bytes of UTF-8 (documented in the README).
 */
export const MAX_URL_BYTES = 2048;

export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'Invalid URL: expected an HTTP or HTTPS URL' })
  .superRefine((s, ctx) => {
    if (s.includes('\u0000'))
      ctx.addIssue({ code: 'custom', message: 'Must not contain NUL (U+0000) characters' });
    if (Buffer.byteLength(s, 'utf8') > MAX_URL_BYTES) {
      ctx.addIssue({ code: 'custom', message: `Too big: expected URL to have <=${MAX_URL_BYTES} bytes` });
    }
  })
  .meta({ format: 'uri' });

const MAX_JSON_DEPTH = 64;

function jsonProblem(value: unknown, depth: number): string | undefined {
  if (depth > MAX_JSON_DEPTH) return `Too deep: expected JSON nested at most ${MAX_JSON_DEPTH} levels`;
  if (typeof value === 'string') {
    return value.includes('\u0000') ? 'Must not contain NUL (U+0000) characters' : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return 'Must not contain NUL (U+0000) characters';
    const problem = jsonProblem(v, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** A JSON object that PostgreSQL's jsonb can store. */
export const jsonObject = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = jsonProblem(value, 1);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Timestamps in responses: ISO 8601 UTC with milliseconds. */
export const timestamp = z.iso.datetime();

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());
