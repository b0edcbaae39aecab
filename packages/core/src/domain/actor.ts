import { AppError } from '../errors.ts';
import type { Context } from '../trpc.ts';

export const ACTOR_MAX = 100;

/**
 * The request's `X-Directory-Actor` (EXTENSIONS F), recorded on the revisions a write makes:
 * trimmed; absent or blank is null. A header can carry only Latin-1, so a name in another script
 * is sent percent-encoded (UTF-8, as `encodeURIComponent` does; the SDK and the CLI do it) and
 * decoded here; a value that is not valid percent-encoding is kept as sent. More than 100
 * characters, or control characters, is 400 — it is the client's mistake, reported rather than cut.
 */
export function actorOf(ctx: Pick<Context, 'actor'>): string | null {
  const raw = Array.isArray(ctx.actor) ? ctx.actor.join(', ') : ctx.actor;
  if (raw === undefined) return null;
  let value = raw.trim();
  if (/%[0-9a-fA-F]{2}/.test(value)) {
    try {
      value = decodeURIComponent(value).trim();
    } catch {
      // not percent-encoding: kept as sent
    }
  }
  if (value === '') return null;
  if ([...value].length > ACTOR_MAX)
    throw new AppError('VALIDATION', [`header X-Directory-Actor: Must be at most ${ACTOR_MAX} characters`]);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new AppError('VALIDATION', ['header X-Directory-Actor: Must not contain control characters']);
  return value;
}
