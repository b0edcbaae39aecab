import { describe, expect, it } from 'vitest';
import { Prerendered, renderJson } from './render-json.ts';

/** A value with its fields and the bytes it says are its JSON. */
class Fixed extends Prerendered {
  readonly #bytes: () => Buffer;
  constructor(fields: Record<string, unknown>, bytes: (self: Fixed) => Buffer) {
    super();
    Object.assign(this, fields);
    this.#bytes = () => bytes(this);
  }
  jsonBytes(): Buffer {
    return this.#bytes();
  }
}

const text = (v: unknown) => renderJson(v).toString('utf8');

describe('renderJson', () => {
  it('writes the bytes of JSON.stringify for what is not Prerendered', () => {
    const values: unknown[] = [
      { success: true, projects: [], total: 0, nextCursor: null },
      {
        a: undefined,
        b: () => 1,
        c: Symbol('x'),
        d: [undefined, () => 1, Symbol('y'), null],
        e: '模型 "q" \n \u2028',
      },
      { date: new Date(0), nested: { toJSON: () => ({ x: 1 }) }, big: 1e21, neg: -0, nan: Number.NaN },
      Object.assign(Object.create(null), { z: 1, a: [1, 'two', { three: 3 }] }),
      [[], {}, [[{}]], '', 0, false],
      'just a string',
      42,
      null,
    ];
    for (const v of values) expect(text(v)).toBe(JSON.stringify(v));
  });

  it('writes a Prerendered value from its bytes, not by serialising it', () => {
    let calls = 0;
    const fields = { id: 'p1', name: '通义千问', tags: [{ slug: 'llm' }] };
    const project = new Fixed(fields, () => {
      calls++;
      return Buffer.from(JSON.stringify(fields));
    });
    const page = { success: true, projects: [project], total: 1 };
    expect(text(page)).toBe(JSON.stringify({ ...page, projects: [fields] }));
    // what every other reader sees of it: its own fields
    expect(JSON.stringify(project)).toBe(JSON.stringify(fields));
    expect(calls).toBe(1);
  });

  it('writes what the value gives, not its fields (its bytes must be its JSON)', () => {
    // this is why a Prerendered value's bytes must come from the same fields
    const item = new Fixed({ id: 'x' }, () => Buffer.from('{"id":"y"}'));
    expect(text([item])).toBe('[{"id":"y"}]');
  });
});
