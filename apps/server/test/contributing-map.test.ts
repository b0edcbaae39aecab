import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headingAnchors } from './heading-anchors.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Every path CONTRIBUTING.md, the README and the pages of docs/ name in backticks is a file or
 * folder of the tree (build and test outputs, made by a build or a test run, aside), and every
 * relative link between them leads to a file.
 */
const made = /(^|\/)(dist|test-artifacts)(\/|$)/;
const docs = readdirSync(`${root}docs`)
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
describe('the map of the code', () => {
  for (const doc of ['CONTRIBUTING.md', 'README.md', ...docs]) {
    it(`${doc} names only paths that exist`, () => {
      const text = readFileSync(`${root}${doc}`, 'utf8');
      const paths = [
        ...new Set(
          [
            ...text.matchAll(/`((?:packages|apps|bench|examples|scripts|test-support|docs)\/[^`\s*<>{}]+)`/g),
          ].map((m) => m[1] as string),
        ),
      ];
      if (doc === 'CONTRIBUTING.md') expect(paths.length).toBeGreaterThan(50);
      if (doc === 'README.md') expect(paths.length).toBeGreaterThan(2);
      expect(paths.filter((p) => !made.test(p) && !existsSync(`${root}${p.replace(/[.,:;]$/, '')}`))).toEqual(
        [],
      );
    });
  }

  for (const doc of ['CONTRIBUTING.md', 'README.md', ...docs]) {
    it(`${doc} links only to files that exist, and to headings they have`, () => {
      const text = readFileSync(`${root}${doc}`, 'utf8');
      const dir = doc.includes('/') ? doc.slice(0, doc.lastIndexOf('/') + 1) : '';
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] as string)
        .filter((l) => !/^[a-z]+:/.test(l));
      expect(links.length, doc).toBeGreaterThan(0);
      const broken = links.filter((link) => {
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? `${root}${doc}` : new URL(path, `file://${root}${dir}`).pathname;
        if (!existsSync(target)) return true;
        if (anchor === undefined || !target.endsWith('.md')) return false;
        return !headingAnchors(readFileSync(target, 'utf8')).has(anchor);
      });
      expect(broken).toEqual([]);
    });
  }
});
