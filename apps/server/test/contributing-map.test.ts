import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Every path CONTRIBUTING.md and the README name in backticks is a file or folder of the tree
 * (build and test outputs, made by a build or a test run, aside).
 */
const made = /(^|\/)(dist|test-artifacts)(\/|$)/;
describe('the map of the code', () => {
  for (const doc of ['CONTRIBUTING.md', 'README.md']) {
    it(`${doc} names only paths that exist`, () => {
      const text = readFileSync(`${root}${doc}`, 'utf8');
      const paths = [
        ...new Set(
          [
            ...text.matchAll(/`((?:packages|apps|bench|examples|scripts|test-support|docs)\/[^`\s*<>{}]+)`/g),
          ].map((m) => m[1] as string),
        ),
      ];
      expect(paths.length).toBeGreaterThan(doc === 'CONTRIBUTING.md' ? 50 : 5);
      expect(paths.filter((p) => !made.test(p) && !existsSync(`${root}${p.replace(/[.,:;]$/, '')}`))).toEqual(
        [],
      );
    });
  }
});
