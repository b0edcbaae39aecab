// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { ARTIFACTS, fitsScreen, launch, Watch, type WIDTHS } from './browser.ts';

/*
 * The set-up of the console's webhooks tests (docs/curation.md#webhooks-in-the-console): one server,
 * a receiver, four webhooks and one browser for webhooks.test.ts and the cases it registers
 * (webhooks-layout.ts). The bindings below are set by useWebhooksConsole's beforeAll.
 */

export const WAIT = { timeout: 10_000 };
/** With UPDATE_DOCS_SCREENSHOTS=1, the drawer also goes to docs/screenshots (docs/curation.md#webhooks-in-the-console). */
export const DOCS_SHOTS =
  process.env.UPDATE_DOCS_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : null;
/** What the receiver answers a change: JSON, which the drawer shows indented. */
export const CHANGE_ANSWER = '{"ok":true,"消息":"已收入索引"}';
/** What it answers a ping: more than the 4 KB kept. */
export const PING_ANSWER = `pong ${'x'.repeat(6_000)}`;

export let s: TestServer;
export let browser: Browser | undefined;
let receiver: Server;
export let receiverUrl = '';
let deadUrl = '';
export const got: { headers: IncomingHttpHeaders; body: string }[] = [];
export const watch = new Watch();
export const stamp = Date.now();
export const hooks = { main: '', dead: '', edit: '', layout: '' };

const createHook = async (url: string, description: string) => {
  const made = await s.call('POST', '/api/webhooks', { body: { url, events: ['*'], description } });
  expect(made.status, made.text).toBe(200);
  return made.json.webhook.id as string;
};
/** An attempt recorded for a change queued to the webhook, as before requests were kept. */
const oldAttempt = async (webhookId: string) => {
  const db = s.db.db;
  const queued = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .execute();
  expect(queued.length).toBeGreaterThan(0);
  await db
    .insertInto('webhook_attempts')
    .values({
      webhook_id: webhookId,
      delivery_id: queued[0]!.id,
      change_id: queued[0]!.change_id,
      event: 'project.created',
      status_code: 500,
      error: 'HTTP 500',
      success: false,
      duration_ms: 4,
    })
    .execute();
};

/** Registers, in the calling describe block, the beforeAll that sets all of it up and the afterAll that ends it. */
export function useWebhooksConsole() {
  beforeAll(async () => {
    s = await startServer({ postgres: false }, { allowPrivateWebhookTargets: true, webhookTimeoutMs: 2_000 });
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        if (body.includes('"type":"ping"'))
          res.writeHead(200, { 'content-type': 'text/plain', 'x-receiver': 'console-test' }).end(PING_ANSWER);
        else
          res
            .writeHead(200, {
              'content-type': 'application/json; charset=utf-8',
              'x-receiver': 'console-test',
            })
            .end(CHANGE_ANSWER);
      });
    }).listen(0, '127.0.0.1');
    await new Promise<void>((r) => receiver.once('listening', () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook-${stamp}`;
    // a port nothing listens on: a ping gets no answer
    const closed = createServer().listen(0, '127.0.0.1');
    await new Promise<void>((r) => closed.once('listening', () => r()));
    deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/dead-${stamp}`;
    await new Promise((r) => closed.close(r));

    hooks.main = await createHook(`${receiverUrl}/main`, 'main');
    hooks.dead = await createHook(deadUrl, 'dead');
    hooks.edit = await createHook(`${receiverUrl}/edit`, 'edit');
    hooks.layout = await createHook(`${receiverUrl}/layout`, 'layout');
    const made = await s.call('POST', '/api/webhook/projects', {
      body: {
        projects: [
          {
            name: `钩子项目 ${stamp}`,
            nameEn: `Hooked ${stamp}`,
            description: '一个用于测试网络钩子的项目。',
            descriptionEn: 'A project to try webhooks with.',
            tags: [{ name: '测试', nameEn: 'Testing' }],
            links: [{ type: 'CODEHOST', url: `https://github.com/hooks-${stamp}/p` }],
          },
        ],
      },
    });
    expect(made.json.created, made.text).toBe(1);
    await oldAttempt(hooks.main);
    await oldAttempt(hooks.layout);
    // the layout webhook: a ping and a redelivered change, each with its request and response
    expect((await s.call('POST', `/api/webhooks/${hooks.layout}/ping`)).json.ping.statusCode).toBe(200);
    const listed = (await s.call('GET', `/api/webhooks/${hooks.layout}/deliveries`)).json.deliveries;
    const change = listed.find((d: { type: string }) => d.type === 'change');
    const again = await s.call('POST', `/api/webhooks/${hooks.layout}/deliveries/${change.id}/redeliver`);
    expect(again.json.delivery.statusCode, again.text).toBe(200);
    browser = await launch();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => receiver?.close(r));
    await s?.close();
  });
}

export const open = async (
  path: string,
  options: { locale?: string; width?: keyof typeof WIDTHS; clipboard?: boolean } = {},
) => {
  const context = await watch.context(browser!, options);
  if (options.clipboard)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.baseUrl });
  const page = await context.newPage();
  await page.goto(s.baseUrl + path);
  return page;
};
export const enterKey = async (page: Page) => {
  await page.locator('.key-prompt input[type="password"]').fill(s.key);
  await page.locator('.key-prompt button[type="submit"]').click();
};
export const card = (page: Page, id: string) => page.locator(`.webhook[data-webhook="${id}"]`);
export const focusInside = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('dialog[open]') !== null);
export const focused = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText);
export const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
/** The drawer's section (`request` or `response`). */
export const side = (drawer: Locator, which: 'request' | 'response') =>
  drawer.locator(`[data-side="${which}"]`);
/** A header's value in a side's table. */
export const header = (where: Locator, name: string) =>
  where
    .locator('.header-table tbody tr')
    .filter({ has: where.page().getByRole('rowheader', { name, exact: true }) })
    .locator('td');

/** fitsScreen, by default for every control of the page. */
export function fits(
  page: Page,
  label: string,
  selector = 'main button, main input, main label, main code, main h2, .secret-value, .copy-note',
) {
  return fitsScreen(page, label, selector);
}
