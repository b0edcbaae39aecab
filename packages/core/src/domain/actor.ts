import { AppError } from '../errors.ts';
import type { Context } from '../trpc.ts';

export const ACTOR_MAX = 100;

/**
 * The request's `X-Directory-Actor` (docs/curation.md#history-revert-locks-and-restore), recorded on the
 * revisions a write makes: trimmed; absent or blank is null. A header can carry only Latin-1, so a name in
 * another script is sent percent-encoded (UTF-8, as `encodeURIComponent` does; the SDK and the CLI do it)
 * and decoded here; a value that is not valid percent-encoding is kept as sent. More than 100
 * characters, or control or format characters (Unicode Cc, Cf), is 400 — it is the client's mistake, reported rather than cut.
 */
export function actorOf(ctx: Pick<Context, 'actor' | 'principal'>): string | null {
  const raw = Array.isArray(ctx.actor) ? ctx.actor.join(', ') : ctx.actor;
  // Without the header, a named key's name (the bootstrap key names no one)
  if (raw === undefined) return ctx.principal?.id ? ctx.principal.name : null;
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
  // No control (Cc) or format (Cf) character — a bidi override (U+202E) or a
  // zero-width character would make history show another name than the one stored
  if (/[\p{Cc}\p{Cf}]/u.test(value))
    throw new AppError('VALIDATION', [
      'header X-Directory-Actor: Must not contain control or format characters (such as bidi overrides or zero-width characters)',
    ]);
  return value;
}
