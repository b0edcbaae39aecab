import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, MISSING } from '../../../test-support/chromium.ts';
import { useServer } from './helpers.ts';

/** Every operation of the served OpenAPI document, as Swagger UI labels it ("GET /api/tags"). */
async function documentedOperations(baseUrl: string): Promise<string[]> {
  const doc = (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => methods.has(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

// The docs page does not depend on the database: PGlite only.
describe('the API reference page', () => {
  const s = useServer({ postgres: false });
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lists every operation, with everything loaded from the server itself', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('websocket', (socket) => requests.push(socket.url()));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });

    const OPERATIONS = await documentedOperations(s.baseUrl);
    // The document itself holds the ten endpoints of docs/api.md and every other (openapi.test.ts checks
    // it).
    expect(OPERATIONS.length).toBeGreaterThan(30);
    const response = await page.goto(`${s.baseUrl}/api/docs`);
    expect(response?.status()).toBe(200);
    // Swagger UI renders after it has fetched and parsed the document.
    await page
      .locator('.opblock')
      .nth(OPERATIONS.length - 1)
      .waitFor({ timeout: 30_000 });
    const listed = await page.$$eval('.opblock-summary', (summaries) =>
      summaries.map((summary) => {
        const method = summary.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
        const path = summary.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method} ${path}`;
      }),
    );
    expect(listed.sort()).toEqual([...OPERATIONS].sort());
    expect(await page.title()).toBe('Project Directory API');

    // It loaded the document, and nothing from anywhere else.
    expect(requests).toContain(`${s.baseUrl}/api/openapi.json`);
    const origin = new URL(s.baseUrl).origin;
    const elsewhere = requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('has no external URL in its HTML', async () => {
    const html = (await s.call('GET', '/api/docs', { key: false })).text;
    expect(html).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+/i);
  });
});
