import type { Principal } from '../auth.ts';
import { AppError } from '../errors.ts';
import { isPlainName, PLAIN_NAME_RULE, shownName } from './plain-name.ts';

/** What actorOf reads of a request's context (trpc.ts): the header as sent and the key's principal. */
interface ActorSource {
  actor?: string | string[] | undefined;
  principal?: Principal | undefined;
}

export const ACTOR_MAX = 100;

/**
 * A header that carries text: trimmed, and percent-decoded (UTF-8) when it holds an escape; a
 * value that is not valid percent-encoding is kept as sent.
 */
export function headerText(raw: string): string {
  const value = raw.trim();
  if (!/%[0-9a-fA-F]{2}/.test(value)) return value;
  try {
    return decodeURIComponent(value).trim();
  } catch {
    return value;
  }
}

/**
 * The request's `X-Directory-Actor` (docs/curation.md#history-revert-locks-and-restore), recorded on the
 * revisions a write makes: trimmed; absent or blank is null. A header can carry only Latin-1, so a name in
 * another script is sent percent-encoded (UTF-8, as `encodeURIComponent` does; the SDK and the CLI do it)
 * and decoded here; a value that is not valid percent-encoding is kept as sent. More than 100
 * characters, or a character a plain name may not hold (plain-name.ts), is 400 — it is the client's mistake, reported rather than cut.
 */
export function actorOf(ctx: ActorSource): string | null {
  const raw = Array.isArray(ctx.actor) ? ctx.actor.join(', ') : ctx.actor;
  // Without the header, the key's name: a named key's, or `bootstrap` as /api/keys/self calls the
  // bootstrap key (docs/keys-and-limits.md#named-keys-and-scopes)
  if (raw === undefined) return ctx.principal ? shownName(ctx.principal.name) : null;
  const value = headerText(raw);
  if (value === '') return null;
  if ([...value].length > ACTOR_MAX)
    throw new AppError('VALIDATION', [`header X-Directory-Actor: Must be at most ${ACTOR_MAX} characters`]);
  // a plain name: a bidi override (U+202E), a zero-width character or a Hangul filler would make
  // history show another name than the one stored
  if (!isPlainName(value)) throw new AppError('VALIDATION', [`header X-Directory-Actor: ${PLAIN_NAME_RULE}`]);
  return value;
}
