import { AppError } from '@directory/core/server';

/**
 * The parameters that take one value but were sent more than once (`limit=1&limit=2`,
 * `batch=1&batch=1`): 400 naming each, rather than one reader taking the first value and another
 * the last, or none (docs/keys-and-limits.md#query-parameters). `single(name)` says whether the
 * server acts on `name` as one value; lists (`tag`, `linkType`) may repeat, parameters it does not
 * act on are left to the input's own check.
 */
export function repeatedParameters(
  query: Record<string, unknown>,
  single: (name: string) => boolean,
): AppError | undefined {
  const details = Object.entries(query)
    .filter(([name, value]) => Array.isArray(value) && single(name))
    .map(([name]) => `${name}: Must be given once (it was repeated)`);
  return details.length > 0 ? new AppError('VALIDATION', details) : undefined;
}
