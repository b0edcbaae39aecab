import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { urlKey } from './url-key.ts';

/** The table of URL keys of docs/curation.md ("Same project, other spelling") is what urlKey gives. */
describe('the docs table of url keys', () => {
  it('shows each key as urlKey makes it', () => {
    const readme = readFileSync(
      fileURLToPath(new URL('../../../../docs/curation.md', import.meta.url)),
      'utf8',
    );
    const section = readme.split(/^## Same project, other spelling$/m)[1]?.split(/^## /m)[0] ?? '';
    const rows = [...section.matchAll(/^\| `([^`]+)`\s*\| `([^`]+)`/gm)].map((m) => [m[1], m[2]]);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const [url, key] of rows) expect(urlKey(url as string), url).toBe(key);
  });
});
