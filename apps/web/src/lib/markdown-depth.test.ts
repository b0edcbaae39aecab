import { describe, expect, it } from 'vitest';
import { MAX_MARKDOWN_DEPTH, nestingDepth } from './markdown-depth.ts';

describe('markdown nesting depth (docs/decisions.md#markdown-depth)', () => {
  it('counts quote and list markers and indentation that start a line', () => {
    expect(nestingDepth('plain text\nmore')).toBe(0);
    expect(nestingDepth('> a\n> > b')).toBe(2);
    expect(nestingDepth('- a\n  - b\n    - c')).toBe(3);
    expect(nestingDepth('')).toBe(0);
  });

  it('finds the review’s content too deep: 9,990 quote markers within the 10,000-character limit', () => {
    expect(nestingDepth(`${'>'.repeat(9990)} x`)).toBeGreaterThan(MAX_MARKDOWN_DEPTH);
    expect(nestingDepth(`intro\n\n${'> '.repeat(4000)}x`)).toBeGreaterThan(MAX_MARKDOWN_DEPTH);
  });
});
