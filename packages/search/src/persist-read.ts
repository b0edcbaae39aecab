import v8 from 'node:v8';
import { Encoding, isInstance, Kind, NULL, Reader, type Source, TYPED, UNDEFINED } from './persist-bytes.ts';

/*
 * Reading the state (persist.ts) into a freshly constructed object of the same classes: each
 * value by the kind it was written as; a typed array straight into its own memory.
 */

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
  const encoding = r.u8() === Encoding.Latin1 ? 'latin1' : 'utf16le';
  const lengthBytes = r.bytes();
  const text = r.bytes().toString(encoding);
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

function typedOf(index: number) {
  const T = TYPED[index];
  if (!T) throw new Error('snapshot: unknown typed array');
  return T;
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
    case Kind.TypedArrays: {
      const T = typedOf(r.u8());
      const b = r.bytes();
      const lengths = new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);
      const out = new Array<unknown>(lengths.length);
      for (let i = 0; i < lengths.length; i++) {
        if (lengths[i]! < 0) continue;
        const a = new T(lengths[i]!);
        r.into(new Uint8Array(a.buffer));
        out[i] = a;
      }
      return out;
    }
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
      const T = typedOf(r.u8());
      // read straight into the array's own memory: no buffer in between to copy and collect
      const n = r.f64();
      const out = new T(n / T.BYTES_PER_ELEMENT);
      r.into(new Uint8Array(out.buffer));
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
