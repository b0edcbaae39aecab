/** The bounds and answers of a body's scan (body-scan.ts; docs/keys-and-limits.md#bodies). */

/** A body is parsed only to this nesting depth (deeper: 400; docs/keys-and-limits.md#bodies). */
export const MAX_BODY_DEPTH = 64;
/** The most items of an array whose schema sets no maximum, or that the schema does not name. */
export const MAX_ARRAY_ITEMS = 10_000;
/** The most members of one object. */
export const MAX_OBJECT_MEMBERS = 1_000;

/** `apiKey` was sent with a value that is not a string (a wrong key, never "no key"). */
export const NOT_A_STRING = Symbol('apiKey is not a string');

export type ApiKeyFound = string | typeof NOT_A_STRING | undefined;

export type BodyScan =
  /** Nested deeper than it may be; its top-level `apiKey` is still looked for (a key is a key). */
  | { kind: 'too-deep'; apiKey: ApiKeyFound }
  | {
      kind: 'scanned';
      /** The body's top-level `apiKey` (the last one, as JSON.parse keeps it); undefined: none. */
      apiKey: ApiKeyFound;
      /** The first array or object that holds more than it may: `<path>: <message>`. */
      tooLong: string | undefined;
    };
