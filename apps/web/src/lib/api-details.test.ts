import { describe, expect, it } from 'vitest';
import { mergedInto, takenLinks } from './api-details.ts';

describe('api details', () => {
  it('reads the taken links and the merge target the API names', () => {
    expect(
      takenLinks([
        'links.0.url: The url "https://github.com/a/b" now belongs to project "llama-2"',
        'name: Too big',
      ]),
    ).toEqual([{ url: 'https://github.com/a/b', slug: 'llama-2' }]);
    expect(mergedInto(['Project "x" was merged into "y"'])).toBe('y');
    expect(mergedInto(['nothing'])).toBeUndefined();
  });
});
