import { z } from 'zod';

// Query-string parameters arrive as text, and a repeated parameter as an array.

/** An integer from decimal digits only ("1.5", "1e2", "" are refused); typed clients' numbers as they are. */
export const queryInt = ({ min, max, fallback }: { min: number; max: number; fallback: number }) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
      z
        .int({
          error: (issue) =>
            issue.code === 'invalid_type' ? 'Invalid input: expected an integer' : undefined,
        })
        .min(min)
        .max(max)
        .meta({ default: fallback }),
    )
    .default(fallback);

/** A repeatable parameter: one value or several (`?tag=a&tag=b`), always read as a list. */
export const repeatable = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item).max(20)).optional();

/** A comma list of known values (`facets=tags,status`). */
export const commaList = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .preprocess(
      (v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : v,
      z.array(z.enum(values)),
    )
    .optional();
