import v8 from 'node:v8';

/*
 * The state of an object graph (the search index, and the read model's maps beside it) as a
 * stream of bytes and back, without naming a single field: an object is written as its own
 * fields, recursively into every field that is itself an instance of a class (a posting list,
 * a sorted order, the vocabulary), and read back into a freshly constructed instance of the
 * same classes, whose constructors have made the comparators and other closures. So the
 * engine's layout can change without this file: what does not round-trip is found by
 * snapshotFingerprint() (snapshot-probe.ts), which compares a probe index's answers before and
 * after. docs/search.md ("Restarts: the model's snapshot") says why this format.
 *
 * Values are written by kind, chosen per value: typed arrays as their raw bytes; arrays of
 * strings as lengths and UTF-16 text (a repeated string once, then by number: tags' ids, link
 * types and statuses come back interned); arrays of numbers as Float64; arrays of plain objects
 * of one shape (the projects) by column; arrays of arrays flattened; Maps and Sets as their
 * keys and values; anything else by v8.serialize. Arrays longer than CHUNK go in chunks, so
 * that no buffer of the writer or the reader holds more than a chunk of one array. A field
 * holding instances of classes inside an array or a map (a scratch pool) is not written: the
 * fresh instance keeps its own.
 */

const CHUNK = 65_536;

enum Kind {
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
}

const TYPED = [
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
type Typed = InstanceType<(typeof TYPED)[number]>;

const UNDEFINED = 0xffffffff;
const NULL = 0xfffffffe;

/** Where the bytes go: each call's bytes are written at once (the caller may reuse nothing). */
export type Sink = (bytes: Uint8Array) => void;

/** Where the bytes come from: fills `into` completely, or throws (a truncated file). */
export type Source = (into: Uint8Array) => void;

const isPlainObject = (v: object) => Object.getPrototypeOf(v) === Object.prototype;
const isTyped = (v: unknown): v is Typed => ArrayBuffer.isView(v) && !(v instanceof DataView);

/** An instance of a class (not a plain object, array, typed array, Map or Set). */
function isInstance(v: unknown): boolean {
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
function holdsInstances(v: unknown, depth = 0): boolean {
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

class Writer {
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
  text(s: string) {
    this.bytes(Buffer.from(s, 'utf8'));
  }
}

class Reader {
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
    this.source(b);
  }
}

// ————————————————————————————————————————— writing

/** The distinct strings of `items` by first occurrence, when there are at most `most`. */
function fewDistinct(items: readonly unknown[], most: number): Map<string, number> | undefined {
  const distinct = new Map<string, number>();
  for (const s of items) {
    if (typeof s !== 'string' || distinct.has(s)) continue;
    distinct.set(s, distinct.size);
    if (distinct.size > most) return undefined;
  }
  return distinct;
}

function writeStrings(w: Writer, items: readonly unknown[]) {
  // a few values repeated (ids of tags, link types): written once, then by number
  const distinct = items.length >= 16 ? fewDistinct(items, items.length / 4) : undefined;
  if (distinct) {
    w.u8(Kind.Dictionary);
    writeStrings(w, [...distinct.keys()]);
    const at = new Uint32Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const s = items[i];
      at[i] = typeof s === 'string' ? distinct.get(s)! : s === null ? NULL : UNDEFINED;
    }
    w.bytes(new Uint8Array(at.buffer));
    return;
  }
  w.u8(Kind.Strings);
  const lengths = new Uint32Array(items.length);
  const parts: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const s = items[i];
    if (typeof s === 'string') {
      lengths[i] = s.length;
      parts.push(s);
    } else lengths[i] = s === null ? NULL : UNDEFINED;
  }
  w.bytes(new Uint8Array(lengths.buffer));
  w.bytes(Buffer.from(parts.join(''), 'utf16le'));
}

/** One array, by the kind its elements have in common. */
function writeArray(w: Writer, items: readonly unknown[]) {
  if (items.length > CHUNK) {
    w.u8(Kind.Chunked);
    w.f64(items.length);
    for (let i = 0; i < items.length; i += CHUNK) writeArray(w, items.slice(i, i + CHUNK));
    return;
  }
  let strings = true;
  let numbers = true;
  let objects = true;
  let arrays = true;
  let shape: string[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    const absent = v === undefined || v === null;
    if (!(absent || typeof v === 'string')) strings = false;
    if (typeof v !== 'number') numbers = false;
    if (!(v === undefined || Array.isArray(v))) arrays = false;
    if (objects) {
      if (v === undefined) continue;
      if (typeof v !== 'object' || v === null || !isPlainObject(v)) objects = false;
      else {
        const keys = Object.keys(v);
        if (!shape) shape = keys;
        else if (keys.length !== shape.length || keys.some((k, j) => k !== shape![j])) objects = false;
      }
    }
  }
  if (items.length > 0 && numbers) {
    w.u8(Kind.Numbers);
    w.bytes(new Uint8Array(Float64Array.from(items as number[]).buffer));
  } else if (items.length > 0 && strings) writeStrings(w, items);
  else if (items.length > 0 && objects && shape) {
    w.u8(Kind.Objects);
    w.f64(items.length);
    w.text(JSON.stringify(shape));
    const present = new Uint8Array(items.length);
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < items.length; i++) {
      const v = items[i] as Record<string, unknown> | undefined;
      if (v) {
        present[i] = 1;
        rows.push(v);
      }
    }
    w.bytes(present);
    for (const key of shape)
      writeArray(
        w,
        rows.map((r) => r[key]),
      );
  } else if (items.length > 0 && arrays) {
    w.u8(Kind.Arrays);
    const lengths = new Int32Array(items.length);
    const flat: unknown[] = [];
    for (let i = 0; i < items.length; i++) {
      const a = items[i] as unknown[] | undefined;
      lengths[i] = a ? a.length : -1;
      if (a) for (const x of a) flat.push(x);
    }
    w.bytes(new Uint8Array(lengths.buffer));
    writeArray(w, flat);
  } else {
    w.u8(Kind.V8);
    w.bytes(v8.serialize(items));
  }
}

function writeValue(w: Writer, v: unknown) {
  if (isTyped(v)) {
    w.u8(Kind.Typed);
    w.u8(TYPED.findIndex((T) => v instanceof T));
    w.bytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  } else if (Array.isArray(v)) writeArray(w, v);
  else if (v instanceof Map) {
    w.u8(Kind.Map);
    writeArray(w, [...v.keys()]);
    writeArray(w, [...v.values()]);
  } else if (v instanceof Set) {
    w.u8(Kind.Set);
    writeArray(w, [...v]);
  } else {
    w.u8(Kind.V8);
    w.bytes(v8.serialize(v));
  }
}

/**
 * Writes an object's fields (class instances among them recursively). A generator: it yields
 * after each field, so that a caller may give the event loop a turn between them.
 */
export function* writeState(sink: Sink, root: object): Generator<void> {
  const w = new Writer(sink);
  yield* writeFields(w, root);
}

function* writeFields(w: Writer, o: object): Generator<void> {
  const fields = Object.entries(o).filter(([, v]) => typeof v !== 'function');
  w.f64(fields.length);
  for (const [name, v] of fields) {
    w.text(name);
    if (isInstance(v)) {
      w.u8(Kind.Instance);
      yield* writeFields(w, v as object);
    } else if (holdsInstances(v)) w.u8(Kind.Skip);
    else {
      writeValue(w, v);
      yield;
    }
  }
}

// ————————————————————————————————————————— reading

function readStrings(r: Reader, kind: Kind): unknown[] {
  if (kind === Kind.Dictionary) {
    const dictionary = readStrings(r, r.u8());
    const at = r.bytes();
    const n = at.byteLength / 4;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const k = at.readUInt32LE(i * 4);
      out[i] = k === NULL ? null : k === UNDEFINED ? undefined : dictionary[k];
    }
    return out;
  }
  const lengthBytes = r.bytes();
  const text = r.bytes().toString('utf16le');
  const n = lengthBytes.byteLength / 4;
  const out = new Array<unknown>(n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const len = lengthBytes.readUInt32LE(i * 4);
    if (len === NULL) out[i] = null;
    else if (len === UNDEFINED) out[i] = undefined;
    else {
      out[i] = text.slice(at, at + len);
      at += len;
    }
  }
  return out;
}

const makers = new Map<string, (columns: unknown[][], row: number) => unknown>();

/**
 * A function making one object of this shape from its columns: an object literal, so that
 * every object of the array has one hidden class from its start (as the objects written had).
 * The keys are JSON string literals.
 */
function rowMaker(shape: string[]): (columns: unknown[][], row: number) => unknown {
  const key = JSON.stringify(shape);
  let make = makers.get(key);
  if (!make) {
    const fields = shape.map((k, i) => `${JSON.stringify(k)}: c[${i}][r]`).join(', ');
    make = new Function('c', 'r', `return { ${fields} };`) as (columns: unknown[][], row: number) => unknown;
    makers.set(key, make);
  }
  return make;
}

function readArray(r: Reader, kind: Kind = r.u8()): unknown[] {
  switch (kind) {
    case Kind.Chunked: {
      const n = r.f64();
      const out: unknown[] = [];
      while (out.length < n) for (const x of readArray(r)) out.push(x);
      return out;
    }
    case Kind.Numbers: {
      const b = r.bytes();
      return Array.from(new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8));
    }
    case Kind.Strings:
    case Kind.Dictionary:
      return readStrings(r, kind);
    case Kind.Objects: {
      const n = r.f64();
      const shape = JSON.parse(r.text()) as string[];
      const present = r.bytes();
      const columns = shape.map(() => readArray(r));
      const make = rowMaker(shape);
      const out = new Array<unknown>(n);
      let row = 0;
      for (let i = 0; i < n; i++) if (present[i]) out[i] = make(columns, row++);
      return out;
    }
    case Kind.Arrays: {
      const b = r.bytes();
      const lengths = new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);
      const flat = readArray(r);
      const out = new Array<unknown>(lengths.length);
      let at = 0;
      for (let i = 0; i < lengths.length; i++) {
        const len = lengths[i]!;
        if (len < 0) continue;
        out[i] = flat.slice(at, at + len);
        at += len;
      }
      return out;
    }
    case Kind.V8:
      return v8.deserialize(r.bytes()) as unknown[];
    default:
      throw new Error(`snapshot: unknown array kind ${kind}`);
  }
}

function readValue(r: Reader, kind: Kind): unknown {
  switch (kind) {
    case Kind.Typed: {
      const T = TYPED[r.u8()];
      if (!T) throw new Error('snapshot: unknown typed array');
      // read straight into the array's own memory: no buffer in between to copy and collect
      const n = r.f64();
      const out = new T(n / T.BYTES_PER_ELEMENT);
      if (n > 0) r.into(new Uint8Array(out.buffer));
      return out;
    }
    case Kind.Map: {
      const keys = readArray(r);
      const values = readArray(r);
      const m = new Map();
      for (let i = 0; i < keys.length; i++) m.set(keys[i], values[i]);
      return m;
    }
    case Kind.Set:
      return new Set(readArray(r));
    case Kind.V8:
      return v8.deserialize(r.bytes());
    default:
      return readArray(r, kind);
  }
}

/**
 * Reads fields written by writeState into `root`, a freshly constructed object of the same
 * classes. Throws when the fields differ from the object's (another layout of the engine).
 */
export function readState(source: Source, root: object): void {
  readFields(new Reader(source), root, '');
}

function readFields(r: Reader, o: object, path: string) {
  const target = o as Record<string, unknown>;
  const expected = Object.entries(o)
    .filter(([, v]) => typeof v !== 'function')
    .map(([k]) => k);
  const n = r.f64();
  if (n !== expected.length) throw new Error(`snapshot: ${path || 'the root'} has other fields`);
  for (let i = 0; i < n; i++) {
    const name = r.text();
    if (name !== expected[i]) throw new Error(`snapshot: field ${path}${name} is not ${expected[i]}`);
    const kind = r.u8() as Kind;
    if (kind === Kind.Skip) continue;
    if (kind === Kind.Instance) {
      const inner = target[name] as object;
      if (!isInstance(inner)) throw new Error(`snapshot: ${path}${name} is not an instance`);
      readFields(r, inner, `${path}${name}.`);
    } else target[name] = readValue(r, kind);
  }
}
