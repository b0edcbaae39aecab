import { describe, expect, it } from 'vitest';
import { renderAs, renderJson } from './render-json.ts';

const text = (v: unknown) => renderJson(v).toString('utf8');

describe('renderJson', () => {
  it('writes the bytes of JSON.stringify for what is not registered', () => {
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

  it('writes a registered object from its renderer, once', () => {
    let calls = 0;
    const project = { id: 'p1', name: '通义千问', tags: [{ slug: 'llm' }] };
    renderAs(project, () => {
      calls++;
      return Buffer.from(JSON.stringify(project));
    });
    const page = { success: true, projects: [project, project], total: 2 };
    expect(text(page)).toBe(JSON.stringify(page));
    expect(text({ data: project })).toBe(JSON.stringify({ data: project }));
    expect(calls).toBe(1);
  });

  it('writes what the renderer gives, not the object (a renderer must be its JSON)', () => {
    // this is why only objects nobody mutates may be registered
    const item = renderAs({ id: 'x' }, () => Buffer.from('{"id":"y"}'));
    expect(text([item])).toBe('[{"id":"y"}]');
  });
});
