/**
 * A name people read (a key's name, an actor) is plain (docs/keys-and-limits.md#named-keys-and-scopes):
 * no control (Cc) or format (Cf) character, no line or paragraph separator (Zl, Zp), no
 * default-ignorable code point (U+034F, variation selectors, …) and no blank filler (the Hangul
 * fillers, the blank Braille pattern). Each of them can make history show another name than the
 * one stored, or none at all: `evil\u202egnp.exe`, a name of U+3164 alone.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0\u2800]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

/** The message of a refused name (after `<field>: `). */
export const PLAIN_NAME_RULE =
  'Must not contain control, format, separator or invisible characters (such as bidi overrides, zero-width characters or Hangul fillers)';

export const isPlainName = (value: string): boolean => !HIDDEN.test(value);

/** A name stored before the rule, as history shows it: each such character as U+FFFD. */
export const shownName = (value: string): string => value.replace(HIDDEN_ALL, '\uFFFD');
