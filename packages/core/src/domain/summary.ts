import { AppError } from '../errors.ts';
import { headerText } from './actor.ts';
import { isPlainName, PLAIN_NAME_RULE } from './plain-name.ts';

/** The request's X-Directory-Summary header as sent (trpc.ts's context carries it). */
interface SummaryHeader {
  summary?: string | string[] | undefined;
}

export const SUMMARY_MAX = 500;

/**
 * The request's `X-Directory-Summary` (docs/curation.md#edit-summaries): why a write was made,
 * recorded on every revision it stores. Read as `X-Directory-Actor` is (actor.ts: trimmed,
 * percent-encoded UTF-8 decoded; absent or blank is null) and held to the same character rule
 * (plain-name.ts); more than 500 characters is 400.
 */
export function summaryOf(ctx: SummaryHeader): string | null {
  if (ctx.summary === undefined) return null;
  const value = headerText(Array.isArray(ctx.summary) ? ctx.summary.join(', ') : ctx.summary);
  if (value === '') return null;
  if ([...value].length > SUMMARY_MAX)
    throw new AppError('VALIDATION', [
      `header X-Directory-Summary: Must be at most ${SUMMARY_MAX} characters`,
    ]);
  if (!isPlainName(value))
    throw new AppError('VALIDATION', [`header X-Directory-Summary: ${PLAIN_NAME_RULE}`]);
  return value;
}
