import v8 from 'node:v8';
import {
  Encoding,
  holdsInstances,
  isInstance,
  isPlainObject,
  isTyped,
  Kind,
  NULL,
  type Sink,
  TYPED,
  type Typed,
  UNDEFINED,
  Writer,
} from './persist-bytes.ts';

/*
 * Writing the state (persist.ts): an object's fields, each value by the kind chosen for it.
 * Arrays longer than CHUNK go in chunks, so that no buffer holds more than a chunk of one array.
 */

export const CHUNK = 65_536;

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
  const text = parts.join('');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: every code unit below 256
  const latin1 = /^[\u0000-\u00ff]*$/.test(text);
  w.u8(latin1 ? Encoding.Latin1 : Encoding.Utf16);
  w.bytes(new Uint8Array(lengths.buffer));
  w.bytes(Buffer.from(text, latin1 ? 'latin1' : 'utf16le'));
}

/** The index in TYPED of the type every item has (items undefined or typed arrays), or -1. */
function typedArraysOf(items: readonly unknown[]): number {
  let type = -1;
  for (const v of items) {
    if (v === undefined) continue;
    if (!isTyped(v)) return -1;
    const t = TYPED.indexOf(v.constructor as (typeof TYPED)[number]);
    if (t < 0 || (type >= 0 && t !== type)) return -1;
    type = t;
  }
  return type;
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
  const typed = items.length > 0 ? typedArraysOf(items) : -1;
  if (items.length > 0 && numbers) {
    w.u8(Kind.Numbers);
    w.bytes(new Uint8Array(Float64Array.from(items as number[]).buffer));
  } else if (items.length > 0 && strings) writeStrings(w, items);
  else if (typed >= 0) {
    w.u8(Kind.TypedArrays);
    w.u8(typed);
    w.bytes(
      new Uint8Array(Int32Array.from(items, (v) => (v === undefined ? -1 : (v as Typed).length)).buffer),
    );
    for (const v of items as (Typed | undefined)[])
      if (v) w.raw(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  } else if (items.length > 0 && objects && shape) {
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
