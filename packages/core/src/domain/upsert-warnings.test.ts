import { describe, expect, it } from 'vitest';
import { SLUG_ONLY_LINKS_DIFFER, upsertWarnings } from './upsert-warnings.ts';

const link = (type: string, url_key: string) => ({ type, url_key });
const keys = (codehostKeys: string[], websiteKeys: string[] = []) => ({ codehostKeys, websiteKeys });

/** docs/curation.md#updates-that-may-be-wrong */
describe('upsertWarnings', () => {
  it('warns when found by slug only and both sides have CODEHOST links with other keys', () => {
    expect(upsertWarnings('SLUG', [link('CODEHOST', 'github.com/a/x')], keys(['github.com/b/x']))).toEqual([
      SLUG_ONLY_LINKS_DIFFER,
    ]);
    expect(SLUG_ONLY_LINKS_DIFFER).toBe(
      "matched by slug only; its CODEHOST/WEBSITE links differ from the stored project's",
    );
  });

  it('warns for WEBSITE links too, even when the CODEHOST side is missing', () => {
    expect(
      upsertWarnings(
        'SLUG',
        [link('WEBSITE', 'x.example.org'), link('PAPER', 'arxiv:2401.00001')],
        keys(['github.com/b/x'], ['y.example.org']),
      ),
    ).toEqual([SLUG_ONLY_LINKS_DIFFER]);
  });

  it('gives one warning when both kinds differ', () => {
    expect(
      upsertWarnings(
        'SLUG',
        [link('CODEHOST', 'github.com/a/x'), link('WEBSITE', 'x.example.org')],
        keys(['github.com/b/x'], ['y.example.org']),
      ),
    ).toEqual([SLUG_ONLY_LINKS_DIFFER]);
  });

  it('does not warn when one side lacks links of the kind, or the kinds are crossed', () => {
    expect(upsertWarnings('SLUG', [], keys(['github.com/b/x'], ['y.example.org']))).toEqual([]);
    expect(upsertWarnings('SLUG', [link('CODEHOST', 'github.com/a/x')], keys([]))).toEqual([]);
    // identity compares CODEHOST with CODEHOST and WEBSITE with WEBSITE: nothing to compare here
    expect(upsertWarnings('SLUG', [link('CODEHOST', 'github.com/a/x')], keys([], ['y.example.org']))).toEqual(
      [],
    );
    // MODELHUB and PAPER links are not identity links
    expect(upsertWarnings('SLUG', [link('MODELHUB', 'huggingface.co/a/x')], keys([], []))).toEqual([]);
  });

  it('does not warn when the keys are the same', () => {
    expect(
      upsertWarnings(
        'SLUG',
        [link('CODEHOST', 'github.com/a/x')],
        keys(['github.com/a/x', 'github.com/a/x']),
      ),
    ).toEqual([]);
  });

  it('does not warn when a url key found the project', () => {
    for (const by of ['CODEHOST', 'WEBSITE'] as const)
      expect(
        upsertWarnings(
          by,
          [link('CODEHOST', 'github.com/a/x'), link('CODEHOST', 'github.com/a/y')],
          keys(['github.com/a/x', 'github.com/b/z']),
        ),
      ).toEqual([]);
  });
});
