import { describe, expect, it } from 'vitest';
import { type Candidate, suggestInto } from './suggest-into.ts';

const project = (slug: string, over: Partial<Candidate> = {}): Candidate => ({
  slug,
  locked: false,
  curatedRevisions: 0,
  links: [1],
  createdAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

describe('suggestInto', () => {
  it('keeps a locked project over a curated one', () => {
    expect(suggestInto([project('stub', { curatedRevisions: 9 }), project('kept', { locked: true })])).toBe(
      'kept',
    );
  });

  it('then the most curated revisions, then the most links, then the oldest', () => {
    const old = project('arxiv-2307', { createdAt: '2026-10-01T00:00:00.000Z' });
    expect(suggestInto([old, project('llama-2', { curatedRevisions: 2 })])).toBe('llama-2');
    expect(suggestInto([old, project('llama-2', { links: [1, 2] })])).toBe('llama-2');
    expect(suggestInto([project('llama-2'), old])).toBe('arxiv-2307');
    expect(suggestInto([project('b'), project('a')])).toBe('a');
  });

  it('has no suggestion for no projects', () => {
    expect(suggestInto([])).toBeUndefined();
  });
});
