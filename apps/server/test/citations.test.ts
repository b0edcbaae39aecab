import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headingAnchors } from './heading-anchors.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * A person who clones the repository has its code and docs/, nothing else: comments, tests and
 * docs cite docs/<page>.md#section, never the contract's documents, issue numbers or the folder
 * beside the repository that held them. The pattern is assembled so that this file does not match it.
 */
const OUTSIDE = new RegExp(
  [
    'EXTEN' + 'SIONS',
    '\\b[Ii]ssues? [0-9]+',
    'SP' + 'EC\\.md',
    'DECI' + 'SIONS\\.md',
    '\\.\\./sha' + 'red',
    '\\bSP' + 'EC\\b',
    '\\bDECI' + 'SIONS\\b',
  ].join('|'),
);

/** Where a citation of the outside must stay: what runs the contract's conformance suite. */
const RUNS_CONFORMANCE = new Set(['.ci/run', 'apps/server/test/generated-client.test.ts']);
/** CONTRIBUTING.md says, in one paragraph, where the contract this implementation follows came from. */
const CONTRIBUTING_PARAGRAPHS = 1;

const TEXT = /\.(ts|tsx|mts|mjs|js|css|md|py|sh|yaml|html)$|^\.ci\/run$|^directory$|Dockerfile$/;
const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => TEXT.test(f) && f !== 'apps/server/test/citations.test.ts' && existsSync(`${root}${f}`));

describe('comments, tests and docs cite what the repository has', () => {
  it('no file cites the contract documents, an issue number or ../shared', () => {
    expect(files.length).toBeGreaterThan(300);
    const found: string[] = [];
    for (const file of files) {
      if (RUNS_CONFORMANCE.has(file)) continue;
      const text = readFileSync(`${root}${file}`, 'utf8');
      if (file === 'CONTRIBUTING.md') {
        const paragraphs = text.split(/\n\s*\n/).filter((p) => OUTSIDE.test(p));
        if (paragraphs.length > CONTRIBUTING_PARAGRAPHS)
          found.push(...paragraphs.map((p) => `${file}: ${p}`));
        continue;
      }
      text.split('\n').forEach((line, i) => {
        if (OUTSIDE.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('every docs/<page>.md#section a file cites is a heading of that page', () => {
    const broken: string[] = [];
    let cited = 0;
    for (const file of files) {
      const text = readFileSync(`${root}${file}`, 'utf8');
      for (const m of text.matchAll(/\bdocs\/([a-z-]+\.md)#([\p{L}\p{N}_-]+)/gu)) {
        cited++;
        const page = `${root}docs/${m[1]}`;
        if (!existsSync(page) || !headingAnchors(readFileSync(page, 'utf8')).has(m[2] as string)) {
          broken.push(`${file}: docs/${m[1]}#${m[2]}`);
        }
      }
    }
    expect(cited).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
});
