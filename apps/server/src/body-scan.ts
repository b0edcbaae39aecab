import type { InputShape } from '@directory/core/server';

/** A body is parsed only to this nesting depth (deeper: 400; docs/keys-and-limits.md#bodies). */
export const MAX_BODY_DEPTH = 64;
/** The most items of an array whose schema sets no maximum, or that the schema does not name. */
export const MAX_ARRAY_ITEMS = 10_000;
/** The most members of one object. */
export const MAX_OBJECT_MEMBERS = 1_000;

/** `apiKey` was sent with a value that is not a string (a wrong key, never "no key"). */
export const NOT_A_STRING = Symbol('apiKey is not a string');

export type BodyScan =
  | { kind: 'too-deep' }
  | {
      kind: 'scanned';
      /** The body's top-level `apiKey` (the last one, as JSON.parse keeps it); undefined: none. */
      apiKey: string | typeof NOT_A_STRING | undefined;
      /** The first array or object that holds more than it may: `<path>: <message>`. */
      tooLong: string | undefined;
    };

interface Frame {
  array: boolean;
  shape: InputShape | undefined;
  /** Where it sits in its parent: the item's index or the member's name ('' for the root). */
  at: string | number;
  count: number;
  /** The next token starts an item (array) or a member's name (object). */
  expectStart: boolean;
  /** The name of the member whose value comes next (objects); undefined: a name comes next. */
  key: string | undefined;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The index of the quote that ends the string starting at `start` (text.length when none), and
 * whether it has escapes. `slashes` keeps where the next backslash is, so that a text of many
 * strings is still one pass.
 */
function stringEnd(
  text: string,
  start: number,
  slashes: { next: number },
): { end: number; escaped: boolean } {
  let i = start;
  let escaped = false;
  for (;;) {
    const quote = text.indexOf('"', i + 1);
    if (quote === -1) return { end: text.length, escaped };
    if (slashes.next !== -1 && slashes.next <= i) slashes.next = text.indexOf('\\', i + 1);
    if (slashes.next !== -1 && slashes.next < quote) {
      escaped = true;
      i = slashes.next + 1;
      continue;
    }
    return { end: quote, escaped };
  }
}

/** A string token's value (JSON-decoded only when it has escapes; '' when it cannot be). */
function stringValue(text: string, start: number, end: number, escaped: boolean): string {
  if (!escaped) return text.slice(start + 1, end);
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return '';
  }
}

/**
 * The rest of a scan once nothing but the top-level `apiKey` matters (an array was already too
 * long): depth and strings only, from `i` at `depth`.
 */
function keyFrom(
  text: string,
  i: number,
  depth: number,
  found: string | typeof NOT_A_STRING | undefined,
  slashes: { next: number },
): string | typeof NOT_A_STRING | undefined {
  let apiKey = found;
  // at depth 1: the name just read, and whether a value (not a name) comes next
  let name: string | undefined;
  let value = false;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const { end, escaped } = stringEnd(text, i, slashes);
      if (depth === 1) {
        if (!value) name = stringValue(text, i, end, escaped);
        else if (name === 'apiKey') apiKey = stringValue(text, i, end, escaped);
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (depth === 1 && value && name === 'apiKey') apiKey = NOT_A_STRING;
      depth++;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (depth === 1) {
      if (c === 0x3a) value = true;
      else if (c === 0x2c) value = false;
      else if (value && name === 'apiKey' && !isSpace(c)) apiKey = NOT_A_STRING;
    }
  }
  return apiKey;
}

const pathOf = (stack: Frame[], depth: number) =>
  stack
    .slice(1, depth)
    .map((f) => String(f.at))
    .join('.') || 'body';

/**
 * One pass over a JSON text, before (and often instead of) parsing it: the nesting depth (more
 * than `maxDepth`: too deep, and the pass stops), the top-level `apiKey`, and every array's
 * length against what `shape` lets it hold (an object's members against MAX_OBJECT_MEMBERS).
 * Nothing is built but the key: a body of a million items costs this pass and no more, so that a
 * request whose key is missing or wrong is refused for the price of reading it. Text that is not
 * JSON may pass; JSON.parse refuses it later.
 */
export function scanBody(
  text: string,
  shape: InputShape | undefined,
  options: { needKey: boolean; maxDepth?: number },
): BodyScan {
  const maxDepth = options.maxDepth ?? MAX_BODY_DEPTH;
  const needKey = options.needKey;
  const slashes = { next: 0 };
  // frames are made once per depth and reused: a million items cost no allocation
  const stack: Frame[] = [];
  let depth = 0;
  let apiKey: string | typeof NOT_A_STRING | undefined;
  let tooLong: string | undefined;
  let top: Frame | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) continue;
    if (top?.expectStart && c !== 0x5d && c !== 0x7d && c !== 0x2c && c !== 0x3a) {
      top.expectStart = false;
      top.count++;
      if (tooLong === undefined) {
        const max = top.array
          ? Math.min(top.shape?.maxItems ?? MAX_ARRAY_ITEMS, MAX_ARRAY_ITEMS)
          : MAX_OBJECT_MEMBERS;
        if (top.count > max) {
          tooLong = top.array
            ? `${pathOf(stack, depth)}: Too big: expected array to have <=${max} items`
            : `${pathOf(stack, depth)}: Must have at most ${max} members`;
          // the rest matters only for the body's key, when no header sent one
          if (!needKey) return { kind: 'scanned', apiKey, tooLong };
          // no `"apiKey"` and no \u escape (the only way to spell it otherwise) in the rest: none there
          const none = text.indexOf('"apiKey"', i) === -1 && text.indexOf('\\u', i) === -1;
          const rest = stack[0]?.array || none ? apiKey : keyFrom(text, i, depth, apiKey, slashes);
          return { kind: 'scanned', apiKey: rest, tooLong };
        }
      }
    }
    if (c === 0x22) {
      // a string: find its end; a member's name is kept (decoded only when it has escapes)
      const start = i;
      const { end, escaped } = stringEnd(text, i, slashes);
      i = end;
      if (!top) continue;
      const isName = !top.array && top.key === undefined;
      if (isName || (depth === 1 && top.key === 'apiKey')) {
        const value = stringValue(text, start, end, escaped);
        if (isName) top.key = value;
        else apiKey = value;
      }
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      if (depth >= maxDepth) return { kind: 'too-deep' };
      const parent = top;
      if (parent && depth === 1 && parent.key === 'apiKey') apiKey = NOT_A_STRING;
      let frame = stack[depth];
      if (!frame) {
        frame = { array: false, shape: undefined, at: '', count: 0, expectStart: true, key: undefined };
        stack.push(frame);
      }
      frame.array = c === 0x5b;
      frame.shape = !parent
        ? shape
        : parent.array
          ? parent.shape?.items
          : (parent.shape?.properties?.[parent.key ?? ''] ?? parent.shape?.additional);
      frame.at = !parent ? '' : parent.array ? parent.count - 1 : (parent.key ?? '');
      frame.count = 0;
      frame.expectStart = true;
      frame.key = undefined;
      depth++;
      top = frame;
      continue;
    }
    if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
      top = depth > 0 ? stack[depth - 1] : undefined;
      continue;
    }
    if (!top) continue;
    if (c === 0x2c) {
      top.expectStart = true;
      if (!top.array) top.key = undefined;
    } else if (c !== 0x3a && depth === 1 && top.key === 'apiKey') {
      // a number, true, false or null: a key that is not a string
      apiKey = NOT_A_STRING;
    }
  }
  return { kind: 'scanned', apiKey, tooLong };
}
