import { describe, expect, it } from 'vitest';
import { etagOf, ifMatchAccepts } from './etag.ts';

describe('etag', () => {
  it('is a weak tag of the body', () => {
    expect(etagOf('{"a":1}')).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(etagOf('{"a":1}')).not.toBe(etagOf('{"a":2}'));
  });

  it('If-Match names it weak or strong, in a list, or with *', () => {
    const tag = etagOf('x');
    expect(ifMatchAccepts(tag, tag)).toBe(true);
    expect(ifMatchAccepts(tag.slice(2), tag)).toBe(true);
    expect(ifMatchAccepts(`W/"other", ${tag}`, tag)).toBe(true);
    expect(ifMatchAccepts('*', tag)).toBe(true);
    expect(ifMatchAccepts(etagOf('y'), tag)).toBe(false);
    expect(ifMatchAccepts('', tag)).toBe(false);
  });
});
