import { describe, expect, it } from 'vitest';
import { useServer } from './helpers.ts';

/**
 * The API reference serves only the files its page loads, with the page's headers, and every
 * JSON answer carries X-Content-Type-Options: nosniff (docs/getting-started.md#rest-the-openapi-document-and-the-docs-page).
 */

// Headers only: PGlite.
describe('the API reference files and JSON answers', () => {
  const s = useServer({ postgres: false });

  /** The same-origin files the page loads (its scripts, stylesheets and icon). */
  async function pageFiles(): Promise<string[]> {
    const page = await (await fetch(`${s.baseUrl}/api/docs`)).text();
    return [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  }

  it("serves the page's files with the page's policy and nosniff", async () => {
    const page = await fetch(`${s.baseUrl}/api/docs`);
    const policy = page.headers.get('content-security-policy');
    expect(policy).toContain("default-src 'self'");
    const files = await pageFiles();
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const res = await fetch(`${s.baseUrl}${file}`);
      await res.arrayBuffer();
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-security-policy'), file).toBe(policy);
      expect(res.headers.get('x-content-type-options'), file).toBe('nosniff');
    }
  });

  it("serves none of Swagger UI's other files", async () => {
    for (const name of [
      'index.html',
      'oauth2-redirect.html',
      'swagger-initializer.js',
      'swagger-ui-bundle.js.map',
      'swagger-ui.css.map',
      'swagger-ui.js',
      'package.json',
      '',
    ]) {
      const res = await fetch(`${s.baseUrl}/api/docs/assets/${name}`);
      await res.arrayBuffer();
      expect(res.status, name).toBe(404);
      expect(res.headers.get('content-type'), name).toMatch(/json/);
    }
  });

  it('every JSON answer carries nosniff', async () => {
    for (const [method, path] of [
      ['GET', '/api/openapi.json'],
      ['GET', '/healthz'],
      ['GET', '/api/projects?limit=1'],
      ['GET', '/api/projects/no-such-project'],
      ['GET', '/api/projects?limit=banana'],
      ['POST', '/api/webhook/projects'],
      ['GET', '/api/no-such-route'],
      ['POST', '/api/docs'],
      ['GET', '/trpc/no.such'],
    ] as const) {
      const res = await fetch(`${s.baseUrl}${path}`, { method });
      await res.arrayBuffer();
      expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/json/);
      expect(res.headers.get('x-content-type-options'), `${method} ${path}`).toBe('nosniff');
    }
  });
});
