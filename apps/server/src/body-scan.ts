import type { InputShape } from '@directory/core/server';
import {
  type ApiKeyFound,
  type BodyScan,
  MAX_ARRAY_ITEMS,
  MAX_BODY_DEPTH,
  MAX_OBJECT_MEMBERS,
  NOT_A_STRING,
} from './body-scan.types.ts';

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
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BOM = [0xef, 0xbb, 0xbf];

/** What a string being read is for. */
type Capture = 'name' | 'key' | undefined;

/**
 * One pass over a JSON body's bytes as they arrive, chunk by chunk, before (and often instead of)
 * parsing it: the nesting depth (more than `maxDepth`: too deep), the top-level `apiKey`, and
 * every array's length against what `shape` lets it hold (an object's members against
 * MAX_OBJECT_MEMBERS); once refused (too deep, too long), the rest is read only for the key.
 * Nothing is built but the key and the member names, and no chunk is kept: a body of a million
 * items costs this pass over its chunks and no more, so a request whose key is missing or wrong
 * is refused for the price of reading it (docs/keys-and-limits.md#bodies).
 *
 * Bytes, never a decoded string: every character JSON's structure is made of is ASCII, and no
 * byte of a multi-byte UTF-8 character is below 0x80, so a quote or bracket byte is always that
 * character (and a leading byte order mark is bytes outside any value, skipped). Text that is not
 * JSON may pass; JSON.parse refuses it later.
 */
export class BodyScanner {
  /** No byte but whitespace (or a leading byte order mark) so far: no body. */
  blank = true;
  // frames are made once per depth and reused: a million items cost no allocation
  private readonly stack: Frame[] = [];
  private depth = 0;
  private top: Frame | undefined;
  private apiKey: ApiKeyFound;
  private tooLong: string | undefined;
  /** 'key': refused (too long, too deep), and only the top-level key still matters. */
  private mode: 'all' | 'key' | 'done' = 'all';
  private tooDeep = false;
  private offset = 0;
  // the string being read, across chunks
  private inString = false;
  private escapeNext = false;
  private escaped = false;
  private capture: Capture;
  private pieces: Buffer[] = [];
  // mode 'key' at depth 1: the member name just read, and whether its value comes next
  private name: string | undefined;
  private value = false;

  constructor(
    private readonly shape: InputShape | undefined,
    private readonly options: { needKey: boolean; maxDepth?: number },
  ) {}

  /** Whether the rest of the body can still change the answer (if not, it need not be fed). */
  get scanning(): boolean {
    return this.mode === 'all' || this.mode === 'key';
  }

  /** Whether the body may still be parsed (no array too long, not too deep): keep its bytes. */
  get acceptable(): boolean {
    return this.mode === 'all';
  }

  feed(chunk: Buffer): this {
    let i = 0;
    if (this.blank) {
      for (; i < chunk.length; i++) {
        const c = chunk[i]!;
        const at = this.offset + i;
        if (!(isSpace(c) || (at < 3 && c === BOM[at]))) break;
      }
      if (i < chunk.length) this.blank = false;
    }
    if (this.scanning) this.scan(chunk, i);
    this.offset += chunk.length;
    return this;
  }

  end(): BodyScan {
    return this.tooDeep
      ? { kind: 'too-deep', apiKey: this.apiKey }
      : { kind: 'scanned', apiKey: this.apiKey, tooLong: this.tooLong };
  }

  private scan(chunk: Buffer, from: number) {
    // where the next backslash of this chunk is, so that a chunk of many strings is one pass
    let slash = chunk.indexOf(BACKSLASH, from);
    for (let i = from; i < chunk.length && this.scanning; i++) {
      if (this.inString) {
        // the rest of the string in this chunk: up to its closing quote, escaped bytes skipped
        const keepFrom = i;
        let searchFrom = i;
        if (this.escapeNext) {
          this.escapeNext = false;
          searchFrom = i + 1;
        }
        for (;;) {
          const quote = chunk.indexOf(QUOTE, searchFrom);
          if (slash !== -1 && slash < searchFrom) slash = chunk.indexOf(BACKSLASH, searchFrom);
          const stop = quote === -1 ? chunk.length : quote;
          if (slash !== -1 && slash < stop) {
            this.escaped = true;
            if (slash + 1 < chunk.length) {
              searchFrom = slash + 2;
              continue;
            }
            // the escaped byte is in the next chunk
            this.escapeNext = true;
          }
          this.keep(chunk, keepFrom, this.escapeNext ? chunk.length : stop);
          i = this.escapeNext ? chunk.length : stop;
          if (quote !== -1 && !this.escapeNext) this.closeString();
          break;
        }
        continue;
      }
      if (this.mode === 'key') i = this.keyBytes(chunk, i);
      else this.token(chunk[i]!);
    }
  }

  /**
   * Bytes outside strings once only the top-level key matters, from `from` up to the next string
   * (whose opening quote it handles) or the chunk's end: the index of the last byte read. One tight
   * loop, as a body refused for its length is mostly read here.
   */
  private keyBytes(chunk: Buffer, from: number): number {
    let depth = this.depth;
    let i = from;
    for (; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === 0x7b || c === 0x5b) {
        if (depth === 1 && this.value && this.name === 'apiKey') this.apiKey = NOT_A_STRING;
        depth++;
      } else if (c === 0x7d || c === 0x5d) depth--;
      else if (c === QUOTE) {
        this.depth = depth;
        this.keyString();
        return i;
      } else if (depth === 1) {
        if (c === 0x3a) this.value = true;
        else if (c === 0x2c) this.value = false;
        else if (this.value && this.name === 'apiKey' && !isSpace(c)) this.apiKey = NOT_A_STRING;
      }
    }
    this.depth = depth;
    return i;
  }

  /** One byte outside a string, while all of the body matters. */
  private token(c: number) {
    if (isSpace(c)) return;
    const top = this.top;
    if (top?.expectStart && c !== 0x5d && c !== 0x7d && c !== 0x2c && c !== 0x3a) {
      top.expectStart = false;
      top.count++;
      const max = top.array
        ? Math.min(top.shape?.maxItems ?? MAX_ARRAY_ITEMS, MAX_ARRAY_ITEMS)
        : MAX_OBJECT_MEMBERS;
      if (top.count > max) {
        const path =
          this.stack
            .slice(1, this.depth)
            .map((f) => String(f.at))
            .join('.') || 'body';
        this.tooLong = top.array
          ? `${path}: Too big: expected array to have <=${max} items`
          : `${path}: Must have at most ${max} members`;
        return this.refuse(c);
      }
    }
    if (c === QUOTE) {
      const isName = top !== undefined && !top.array && top.key === undefined;
      const isKey = !isName && this.depth === 1 && top?.key === 'apiKey';
      return this.openString(isName ? 'name' : isKey ? 'key' : undefined);
    }
    if (c === 0x5b || c === 0x7b) {
      if (this.depth >= (this.options.maxDepth ?? MAX_BODY_DEPTH)) {
        this.tooDeep = true;
        return this.refuse(c);
      }
      if (top && this.depth === 1 && top.key === 'apiKey') this.apiKey = NOT_A_STRING;
      let frame = this.stack[this.depth];
      if (!frame) {
        frame = { array: false, shape: undefined, at: '', count: 0, expectStart: true, key: undefined };
        this.stack.push(frame);
      }
      frame.array = c === 0x5b;
      frame.shape = !top
        ? this.shape
        : top.array
          ? top.shape?.items
          : (top.shape?.properties?.[top.key ?? ''] ?? top.shape?.additional);
      frame.at = !top ? '' : top.array ? top.count - 1 : (top.key ?? '');
      frame.count = 0;
      frame.expectStart = true;
      frame.key = undefined;
      this.depth++;
      this.top = frame;
      return;
    }
    if (c === 0x5d || c === 0x7d) {
      if (this.depth > 0) this.depth--;
      this.top = this.depth > 0 ? this.stack[this.depth - 1] : undefined;
      return;
    }
    if (!top) return;
    if (c === 0x2c) {
      top.expectStart = true;
      if (!top.array) top.key = undefined;
    } else if (c !== 0x3a && this.depth === 1 && top.key === 'apiKey') {
      // a number, true, false or null: a key that is not a string
      this.apiKey = NOT_A_STRING;
    }
  }

  /** Refused at byte `c`: the rest matters only for the body's key (none: a header's, an array). */
  private refuse(c: number) {
    this.mode = this.options.needKey && !this.stack[0]?.array ? 'key' : 'done';
    // at the top level, the member whose value `c` starts (if any) is the one being read
    const top = this.depth === 1 ? this.top : undefined;
    this.name = top?.key;
    this.value = top?.key !== undefined;
    if (this.mode === 'key') this.keyBytes(Buffer.of(c), 0);
  }

  /** A string opens once only the top-level key matters: a top-level name, or the key, is kept. */
  private keyString() {
    const capture =
      this.depth !== 1 ? undefined : !this.value ? 'name' : this.name === 'apiKey' ? 'key' : undefined;
    this.openString(capture);
  }

  private openString(capture: Capture) {
    this.inString = true;
    this.escaped = false;
    this.capture = capture;
    this.pieces = [];
  }

  private keep(chunk: Buffer, from: number, to: number) {
    if (this.capture !== undefined && to > from) this.pieces.push(Buffer.from(chunk.subarray(from, to)));
  }

  /** The string's value (JSON-decoded only when it has escapes; '' when it cannot be). */
  private closeString() {
    this.inString = false;
    if (this.capture === undefined) return;
    const raw = Buffer.concat(this.pieces).toString('utf8');
    this.pieces = [];
    let value = raw;
    if (this.escaped) {
      try {
        value = JSON.parse(`"${raw}"`) as string;
      } catch {
        value = '';
      }
    }
    if (this.mode === 'key') {
      if (this.capture === 'name') this.name = value;
      else this.apiKey = value;
    } else if (this.capture === 'name') {
      if (this.top) this.top.key = value;
    } else this.apiKey = value;
  }
}

/** A whole body scanned at once (see BodyScanner). */
export function scanBody(
  bytes: Buffer,
  shape: InputShape | undefined,
  options: { needKey: boolean; maxDepth?: number },
): BodyScan {
  return new BodyScanner(shape, options).feed(bytes).end();
}
