/**
 * An answer's JSON as bytes, with parts rendered once and reused: a page of projects is mostly
 * the same twenty projects' fields, serialised and encoded for every request. `renderJson(v)`
 * gives exactly the bytes of `JSON.stringify(v)` in UTF-8, but an object registered with
 * `renderAs` is written from the bytes its renderer gives (computed once per object and kept
 * with it), instead of being serialised again.
 *
 * What may be registered: an object nobody mutates, whose rendering is its JSON.stringify
 * (apps/server/test/read-outputs.test.ts compares the two on every shape the reads answer).
 * The read model's projects (its detail cache never changes an object; a newer version is
 * another object) and the list items built from them.
 */

type Renderer = () => Buffer;

const renderers = new WeakMap<object, Renderer | Buffer>();

/** Registers how `value` renders (called at most once per object: the bytes are kept). */
export function renderAs<T extends object>(value: T, render: Renderer): T {
  renderers.set(value, render);
  return value;
}

/** The bytes of a registered object, rendered now if they were not yet. */
function bytesOf(value: object, entry: Renderer | Buffer): Buffer {
  if (Buffer.isBuffer(entry)) return entry;
  const bytes = entry();
  renderers.set(value, bytes);
  return bytes;
}

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
};

/**
 * `Buffer.from(JSON.stringify(value))`, from the kept bytes of registered objects. Anything
 * that is not a plain object or array, or has `toJSON`, is left to JSON.stringify whole.
 */
export function renderJson(value: unknown): Buffer {
  const parts: (string | Buffer)[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') parts.push(text);
    text = '';
  };
  const walk = (v: unknown, inArray: boolean): void => {
    if (v !== null && typeof v === 'object') {
      const entry = renderers.get(v);
      if (entry !== undefined) {
        flush();
        parts.push(bytesOf(v, entry));
        return;
      }
      if (Array.isArray(v)) {
        text += '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) text += ',';
          walk(v[i], true);
        }
        text += ']';
        return;
      }
      if (isPlain(v)) {
        text += '{';
        let first = true;
        for (const key of Object.keys(v)) {
          const item = (v as Record<string, unknown>)[key];
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          text += first ? JSON.stringify(key) : `,${JSON.stringify(key)}`;
          text += ':';
          first = false;
          walk(item, false);
        }
        text += '}';
        return;
      }
    }
    const json = JSON.stringify(v);
    // what JSON.stringify leaves out of an object (undefined, functions, symbols) is null in an array
    text += json === undefined ? (inArray ? 'null' : '') : json;
  };
  walk(value, false);
  flush();
  if (parts.length === 1 && typeof parts[0] === 'string') return Buffer.from(parts[0]);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}
