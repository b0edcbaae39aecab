import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, firstLoadJs } from '../scripts/size.ts';

describe('the console build', () => {
  it('loads at most 150 KB of gzipped JavaScript for the search page', () => {
    // Built by `pnpm install` (root postinstall) or `pnpm build:web`.
    expect(existsSync(join(DIST, 'index.html')), 'apps/web/dist: run pnpm build:web').toBe(true);
    const { files, gzip } = firstLoadJs();
    expect(files.length).toBeGreaterThan(0);
    expect(gzip).toBeLessThanOrEqual(150 * 1024);
  });

  it('has no inline script and loads nothing from another host', async () => {
    const { readFileSync } = await import('node:fs');
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });

  it('puts no API key into the bundle', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const assets = join(DIST, 'assets');
    for (const file of readdirSync(assets)) {
      const text = readFileSync(join(assets, file), 'utf8');
      expect(text, file).not.toMatch(/WEBHOOK_API_KEY|x-api-key["']?\s*:\s*["'][^"']/);
    }
  });
});
