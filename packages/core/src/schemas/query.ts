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

/** `true`/`false` (or `1`/`0`) in a query string; typed clients' booleans as they are. */
export const queryBoolean = () =>
  z.preprocess(
    // 1 and 0 too: `explain=1` is how such a flag is written (docs/search.md#explain)
    (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
    z.boolean({ error: 'Invalid input: expected true or false' }),
  );

/** Levenshtein distance, small inputs only (parameter names). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The known parameter a mistyped one most likely meant: same letters in another case, a prefix either way, or at most two edits. */
export function closestParameter(given: string, known: readonly string[]): string | undefined {
  const g = given.toLowerCase();
  const scored = known
    .map((k) => {
      const l = k.toLowerCase();
      const d = distance(g, l);
      const related = l === g || g.startsWith(l) || l.startsWith(g) || d <= 2;
      return { k, d, related };
    })
    .filter((x) => x.related)
    .sort((a, b) => a.d - b.d);
  return scored[0]?.k;
}

/**
 * The parameters of a GET whose unknown parameters are a 400 naming each
 * (docs/search.md#search-as-a-search-engine): `query: unknown parameter "query"; did you mean "q"?`. A
 * typo is not silently ignored.
 */
export function queryObject<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      return issue.keys
        .map((key) => {
          const near = closestParameter(key, known);
          return `unknown parameter "${key}"${near ? `; did you mean "${near}"?` : ''}`;
        })
        .join('; ');
    },
  });
}
