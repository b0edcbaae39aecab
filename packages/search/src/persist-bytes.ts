/*
 * The pieces of the snapshot format (persist.ts): the kinds a value is written as, the typed
 * arrays it knows, what counts as an instance of a class, and the byte-level writer and
 * reader over a sink and a source.
 */

export enum Kind {
  V8 = 1,
  Typed = 2,
  Strings = 3,
  Numbers = 4,
  Objects = 5,
  Arrays = 6,
  Map = 7,
  Set = 8,
  Instance = 9,
  Skip = 10,
  Chunked = 11,
  Dictionary = 12,
  /** Typed arrays of one type (or absent): their lengths, then each one's bytes. */
  TypedArrays = 13,
}

export const TYPED = [
  Uint8Array,
  Uint16Array,
  Uint32Array,
  Int8Array,
  Int16Array,
  Int32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
  Uint8ClampedArray,
] as const;
export type Typed = InstanceType<(typeof TYPED)[number]>;

/** A string array's text: UTF-16, or Latin-1 when every code unit is below 256 (one-byte strings back). */
export enum Encoding {
  Utf16 = 0,
  Latin1 = 1,
}

export const UNDEFINED = 0xffffffff;
export const NULL = 0xfffffffe;

/** Where the bytes go: each call's bytes are written at once (the caller may reuse nothing). */
export type Sink = (bytes: Uint8Array) => void;

/** Where the bytes come from: fills `into` completely, or throws (a truncated file). */
export type Source = (into: Uint8Array) => void;

export const isPlainObject = (v: object) => Object.getPrototypeOf(v) === Object.prototype;
export const isTyped = (v: unknown): v is Typed => ArrayBuffer.isView(v) && !(v instanceof DataView);

/** An instance of a class (not a plain object, array, typed array, Map or Set). */
export function isInstance(v: unknown): boolean {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !isTyped(v) &&
    !(v instanceof Map) &&
    !(v instanceof Set) &&
    !isPlainObject(v)
  );
}

/** Whether a value holds a class instance (or a function) anywhere, so that it cannot be copied. */
export function holdsInstances(v: unknown, depth = 0): boolean {
  if (typeof v === 'function') return true;
  if (typeof v !== 'object' || v === null || isTyped(v)) return false;
  if (isInstance(v)) return true;
  if (depth > 3) return false;
  const check = (items: Iterable<unknown>) => {
    let n = 0;
    for (const x of items) {
      if (holdsInstances(x, depth + 1)) return true;
      // the first elements tell the kind of a long array
      if (++n > 64) return false;
    }
    return false;
  };
  if (Array.isArray(v) || v instanceof Set) return check(v);
  if (v instanceof Map) return check(v.keys()) || check(v.values());
  return check(Object.values(v));
}

export class Writer {
  private readonly scratch = new DataView(new ArrayBuffer(8));
  constructor(private readonly sink: Sink) {}
  u8(n: number) {
    this.sink(new Uint8Array([n]));
  }
  u32(n: number) {
    this.scratch.setUint32(0, n, true);
    this.sink(new Uint8Array(this.scratch.buffer.slice(0, 4)));
  }
  f64(n: number) {
    this.scratch.setFloat64(0, n, true);
    this.sink(new Uint8Array(this.scratch.buffer.slice(0, 8)));
  }
  bytes(b: Uint8Array) {
    this.f64(b.byteLength);
    if (b.byteLength > 0) this.sink(b);
  }
  /** A typed array's bytes, without its length (the reader knows it). */
  raw(b: Uint8Array) {
    if (b.byteLength > 0) this.sink(b);
  }
  text(s: string) {
    this.bytes(Buffer.from(s, 'utf8'));
  }
}

export class Reader {
  constructor(private readonly source: Source) {}
  private fixed(n: number): DataView {
    const b = new Uint8Array(n);
    this.source(b);
    return new DataView(b.buffer);
  }
  u8(): number {
    return this.fixed(1).getUint8(0);
  }
  u32(): number {
    return this.fixed(4).getUint32(0, true);
  }
  f64(): number {
    return this.fixed(8).getFloat64(0, true);
  }
  bytes(): Buffer {
    const n = this.f64();
    const b = Buffer.allocUnsafe(n);
    if (n > 0) this.source(b);
    return b;
  }
  text(): string {
    return this.bytes().toString('utf8');
  }
  into(b: Uint8Array) {
    if (b.byteLength > 0) this.source(b);
  }
}
