/**
 * An answer's JSON as bytes, with parts rendered once and reused: a page of projects is mostly
 * the same twenty projects' fields, serialised and encoded for every request. `renderJson(v)`
 * gives exactly the bytes of `JSON.stringify(v)` in UTF-8, but a part that is a `Prerendered`
 * value is written from the bytes it gives (`jsonBytes()`) instead of being serialised again.
 *
 * The bytes travel in the answer itself: a procedure of the read model builds its list items
 * as `Prerendered` values (projects/list-item.ts, from the JSON its detail cache keeps per
 * project version: read-model/detail-cache.ts), returns them in its answer, and the REST
 * adapter calls renderJson on that answer. tRPC hands the answer on as it is (trusted-output.ts:
 * it is not parsed again, which would copy it into plain objects: correct, but serialised
 * afresh). What a Prerendered value gives must be its JSON.stringify, which its own enumerable
 * fields still give to every other reader (tRPC's JSON, tests);
 * apps/server/test/read-outputs.test.ts compares the two on every shape the reads answer.
 */

/** A value that knows its JSON bytes: those of `JSON.stringify` of its own fields. */
export abstract class Prerendered {
  abstract jsonBytes(): Buffer;
}

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
};

/**
 * `Buffer.from(JSON.stringify(value))`, with Prerendered parts written from their bytes. Anything
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
      if (v instanceof Prerendered) {
        flush();
        parts.push(v.jsonBytes());
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
