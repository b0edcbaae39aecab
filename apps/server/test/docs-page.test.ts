import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, MISSING } from '../../../test-support/chromium.ts';
import { useServer } from './helpers.ts';

const OPERATIONS = [
  'POST /api/webhook/projects',
  'GET /api/projects/{slug}',
  'DELETE /api/projects/{slug}',
  'POST /api/discovery/tasks',
  'GET /api/discovery/tasks',
  'GET /api/discovery/tasks/{id}',
  'PATCH /api/discovery/tasks/{id}',
  'POST /api/discovery/tasks/{id}/complete',
  'POST /api/discovery/check-duplicates',
  'POST /api/webhook/check-duplicates',
  'POST /api/discovery/tasks/claim',
  'POST /api/discovery/tasks/{id}/heartbeat',
  'POST /api/discovery/tasks/{id}/release',
  'GET /api/discovery/stats',
  'GET /api/projects',
  'GET /api/tags',
  'GET /api/changes',
  'POST /api/webhooks',
  'GET /api/webhooks',
  'GET /api/webhooks/{id}',
  'DELETE /api/webhooks/{id}',
  'GET /api/webhooks/{id}/deliveries',
  'GET /api/projects/by-url',
  'POST /api/projects/{slug}/merge',
  'GET /api/projects/duplicates',
  'GET /api/projects/{slug}/revisions',
  'GET /api/projects/{slug}/revisions/{revision}',
  'GET /api/projects/{slug}/revisions/{revision}/diff',
  'POST /api/projects/{slug}/revert',
  'GET /api/projects/deleted',
  'POST /api/projects/deleted/{id}/restore',
  'PUT /api/projects/{slug}/lock',
  'DELETE /api/projects/{slug}/lock',
  'GET /api/search/synonyms',
  'PUT /api/search/synonyms',
  'PATCH /api/projects/{slug}',
  'POST /api/projects/duplicates/dismiss',
  'DELETE /api/projects/duplicates/dismiss',
  'PATCH /api/webhooks/{id}',
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  'POST /api/webhooks/{id}/ping',
  'POST /api/keys',
  'GET /api/keys',
  'GET /api/keys/self',
  'DELETE /api/keys/{id}',
  'POST /api/keys/{id}/rotate',
];

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
