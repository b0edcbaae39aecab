// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  expectAccessible,
  fitsScreen,
  launch,
  MISSING,
  screenshot,
  Watch,
  type WIDTHS,
} from './browser.ts';

const WAIT = { timeout: 10_000 };
/** With UPDATE_DOCS_SCREENSHOTS=1, the drawer also goes to docs/screenshots (docs/curation.md#webhooks-in-the-console). */
const DOCS_SHOTS =
  process.env.UPDATE_DOCS_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : null;
/** What the receiver answers a change: JSON, which the drawer shows indented. */
const CHANGE_ANSWER = '{"ok":true,"消息":"已收入索引"}';
/** What it answers a ping: more than the 4 KB kept. */
const PING_ANSWER = `pong ${'x'.repeat(6_000)}`;

/**
 * The console's webhooks (docs/curation.md#webhooks-in-the-console): each delivery's request and
 * response in a drawer, pings marked, the secret rotated with a grace period and copied, the URL and
 * events edited; at 390 and 1280 px in both languages, axe-clean.
 */
describe('webhooks in the web console: deliveries in a drawer, rotate and copy the secret, edit (Chromium)', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  let receiver: Server;
  let receiverUrl = '';
  let deadUrl = '';
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const watch = new Watch();
  const stamp = Date.now();
  const hooks = { main: '', dead: '', edit: '', layout: '' };

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

  const open = async (
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
  const enterKey = async (page: Page) => {
    await page.locator('.key-prompt input[type="password"]').fill(s.key);
    await page.locator('.key-prompt button[type="submit"]').click();
  };
  const card = (page: Page, id: string) => page.locator(`.webhook[data-webhook="${id}"]`);
  const focusInside = (page: Page) =>
    page.evaluate(() => document.activeElement?.closest('dialog[open]') !== null);
  const focused = (page: Page) =>
    page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText);
  const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
  /** The drawer's section (`request` or `response`). */
  const side = (drawer: Locator, which: 'request' | 'response') => drawer.locator(`[data-side="${which}"]`);
  /** A header's value in a side's table. */
  const header = (where: Locator, name: string) =>
    where
      .locator('.header-table tbody tr')
      .filter({ has: where.page().getByRole('rowheader', { name, exact: true }) })
      .locator('td');

  it('opens a ping and a change in the drawer: request and response, Esc and Close return focus', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/webhooks', { locale: 'en-US' });
    await enterKey(page);
    const hook = card(page, hooks.main);
    await hook.waitFor(WAIT);
    await hook.getByRole('button', { name: 'Send ping' }).click();
    await hook.getByRole('status').filter({ hasText: 'The receiver answered 200' }).waitFor(WAIT);

    // the ping is listed, marked, and cannot be redelivered
    const pingRow = hook.locator('tr[data-type="ping"]');
    await pingRow.waitFor(WAIT);
    expect(await pingRow.locator('.ping-badge').innerText()).toBe('Ping');
    expect(await pingRow.getByRole('button', { name: /^Redeliver/ }).count()).toBe(0);
    const pingId = (await pingRow.getAttribute('data-delivery'))!;
    const opener = pingRow.getByRole('button', { name: `Details ${pingId}` });
    await opener.click();
    const drawer = page.getByRole('dialog', { name: `Delivery ${pingId} Ping` });
    await drawer.locator('[data-side="response"]').waitFor(WAIT);
    expect(await focusInside(page)).toBe(true);
    expect(await drawer.getAttribute('aria-labelledby')).toBeTruthy();

    const request = side(drawer, 'request');
    const sent = got.find((g) => g.body.includes('"type":"ping"') && g.body.includes(hooks.main))!;
    expect(await request.locator('.request-line').innerText()).toBe(`POST ${receiverUrl}/main`);
    expect(await header(request, 'webhook-id').innerText()).toBe(sent.headers['webhook-id']);
    expect(await header(request, 'webhook-signature').innerText()).toBe(sent.headers['webhook-signature']);
    expect(await header(request, 'content-type').innerText()).toBe('application/json');
    // the JSON body, indented
    expect(await request.locator('pre').innerText()).toBe(JSON.stringify(JSON.parse(sent.body), null, 2));
    expect(await request.locator('h4').innerText()).toBe('Body (JSON, indented here)');

    const response = side(drawer, 'response');
    expect(await response.locator('[data-status]').innerText()).toBe('200');
    expect(await response.locator('.response-facts').innerText()).toMatch(/Duration\s+\d+ ms/);
    expect(await header(response, 'x-receiver').innerText()).toBe('console-test');
    expect(await response.locator('pre').innerText()).toBe(PING_ANSWER.slice(0, 4096));
    expect(await response.locator('.truncated').innerText()).toBe(
      'Only the first 4 KB of the answer is kept.',
    );

    // Esc closes it; focus is back on the button that opened it
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached', ...WAIT });
    expect(await focused(page)).toBe(`Details ${pingId}`);

    // an attempt recorded before requests were kept, then its redelivery with all of it
    const old = hook.locator('tr[data-type="change"]').filter({ hasText: '500' });
    const oldId = (await old.getAttribute('data-delivery'))!;
    // opened from the keyboard
    await old.getByRole('button', { name: `Details ${oldId}` }).focus();
    await page.keyboard.press('Enter');
    const oldDrawer = page.getByRole('dialog', { name: `Delivery ${oldId} project.created` });
    await oldDrawer.locator('[data-side="response"]').waitFor(WAIT);
    expect(await side(oldDrawer, 'request').innerText()).toContain(
      'Not kept: this attempt was recorded before requests were stored.',
    );
    expect(await side(oldDrawer, 'response').locator('[data-status]').innerText()).toBe('500');
    expect(await side(oldDrawer, 'response').innerText()).toContain('None received.');
    await oldDrawer.getByRole('button', { name: 'Close' }).click();
    await oldDrawer.waitFor({ state: 'detached', ...WAIT });
    expect(await focused(page)).toBe(`Details ${oldId}`);

    await old.getByRole('button', { name: `Redeliver ${oldId}` }).click();
    await hook.getByRole('status').filter({ hasText: 'Sent again: 200.' }).waitFor(WAIT);
    const fresh = hook.locator('tr[data-type="change"]').first();
    await fresh.filter({ hasText: '200' }).waitFor(WAIT);
    const freshId = (await fresh.getAttribute('data-delivery'))!;
    await fresh.getByRole('button', { name: `Details ${freshId}` }).click();
    const changeDrawer = page.getByRole('dialog', { name: `Delivery ${freshId} project.created` });
    await changeDrawer.locator('[data-side="response"]').waitFor(WAIT);
    const body = await side(changeDrawer, 'request').locator('pre').innerText();
    expect(JSON.parse(body)).toMatchObject({ type: 'project.created', data: { slug: `hooked-${stamp}` } });
    expect(body).toContain('\n  "type": "project.created"');
    expect(await side(changeDrawer, 'response').locator('pre').innerText()).toBe(
      JSON.stringify(JSON.parse(CHANGE_ANSWER), null, 2),
    );
    expect(await side(changeDrawer, 'response').locator('.truncated').count()).toBe(0);
    await page.keyboard.press('Escape');
    await changeDrawer.waitFor({ state: 'detached', ...WAIT });

    // a ping nobody answers: "No answer", with the error
    const dead = card(page, hooks.dead);
    await dead.getByRole('button', { name: 'Send ping' }).click();
    await dead.getByRole('status').filter({ hasText: 'No answer' }).waitFor(WAIT);
    const deadRow = dead.locator('tr[data-type="ping"]');
    await deadRow.waitFor(WAIT);
    await deadRow.getByRole('button', { name: /^Details / }).click();
    const deadDrawer = page.getByRole('dialog');
    await deadDrawer.locator('[data-side="response"]').waitFor(WAIT);
    const deadResponse = side(deadDrawer, 'response');
    expect(await deadResponse.locator('[data-status]').innerText()).toBe('No answer');
    expect(await deadResponse.locator('.response-error').innerText()).toMatch(/ECONNREFUSED|refused/i);
    expect(await deadResponse.innerText()).toContain('None received.');
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('copies the secret at creation; rotates it with a grace period, shows the new one once and copies it', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/webhooks', { locale: 'en-US', clipboard: true });
    await enterKey(page);
    const url = `${receiverUrl}/rotated`;
    await page.getByLabel('Target URL').fill(url);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const form = page.locator('.webhook-create');
    await form.locator('.secret-value').waitFor(WAIT);
    const first = await form.locator('.secret-value').innerText();
    expect(first).toMatch(/^whsec_/);
    await form.getByRole('button', { name: 'Copy secret' }).click();
    await form.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor(WAIT);
    expect(await clipboard(page)).toBe(first);

    const id = ((await s.call('GET', '/api/webhooks')).json.webhooks as { id: string; url: string }[]).find(
      (w) => w.url === url,
    )!.id;
    const hook = card(page, id);
    await hook.getByRole('button', { name: 'Rotate secret…' }).click();
    const panel = hook.locator('.rotate-secret');
    // four grace periods; 24 hours chosen until another is
    const choices = panel.getByRole('radio');
    expect(await choices.count()).toBe(4);
    expect(await panel.getByLabel('24 hours').isChecked()).toBe(true);
    await panel.getByLabel('7 days').check();
    const before = Date.now();
    await panel.getByRole('button', { name: 'Rotate secret', exact: true }).click();
    await panel.locator('.secret-value').waitFor(WAIT);
    const second = await panel.locator('.secret-value').innerText();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(await panel.innerText()).toContain('The new signing secret, shown only now');
    const until = await panel.locator('.old-secret time').getAttribute('datetime');
    const week = Date.parse(until!) - before;
    expect(week).toBeGreaterThan(604_800_000 - 60_000);
    expect(week).toBeLessThan(604_800_000 + 60_000);
    await panel.getByRole('button', { name: 'Copy secret' }).click();
    await panel.getByRole('status').filter({ hasText: '✓ Copied to the clipboard.' }).waitFor(WAIT);
    expect(await clipboard(page)).toBe(second);
    // during the grace period a delivery carries two signatures
    await hook.getByRole('button', { name: 'Send ping' }).click();
    await hook.getByRole('status').filter({ hasText: 'The receiver answered 200' }).waitFor(WAIT);
    const signed = got.filter((g) => g.body.includes(id)).at(-1)!;
    expect(String(signed.headers['webhook-signature']).split(' ')).toHaveLength(2);
    // Done: the secret is not shown again
    await panel.getByRole('button', { name: 'Done' }).click();
    await panel.waitFor({ state: 'detached', ...WAIT });
    expect(await hook.innerText()).not.toContain(second);

    // with no grace period the old secret stops at once
    await hook.getByRole('button', { name: 'Rotate secret…' }).click();
    await panel.getByLabel('No time: it stops at once').check();
    await panel.getByRole('button', { name: 'Rotate secret', exact: true }).click();
    await panel.locator('.secret-value').waitFor(WAIT);
    expect(await panel.locator('.old-secret').innerText()).toBe('The old secret no longer signs.');
    await hook.getByRole('button', { name: 'Send ping' }).click();
    await hook.locator('tr[data-type="ping"]').nth(1).waitFor(WAIT);
    expect(
      String(got.filter((g) => g.body.includes(id)).at(-1)!.headers['webhook-signature']).split(' '),
    ).toHaveLength(1);
    await page.context().close();
  });

  it('without a clipboard, Copy selects the secret and says to copy it by hand', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const context = await watch.context(browser!, { locale: 'zh-CN' });
    await context.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
    const page = await context.newPage();
    await page.goto(`${s.baseUrl}/webhooks`);
    await enterKey(page);
    const hook = card(page, hooks.edit);
    await hook.getByRole('button', { name: '轮换密钥…' }).click();
    await hook.getByRole('button', { name: '轮换密钥', exact: true }).click();
    const secret = hook.locator('.secret-value');
    await secret.waitFor(WAIT);
    await hook.getByRole('button', { name: '复制密钥' }).click();
    await hook.getByRole('status').filter({ hasText: '此处无法使用剪贴板' }).waitFor(WAIT);
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(await secret.innerText());
    await context.close();
  });

  it('edits the URL and events; a URL the API refuses is said', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/webhooks', { locale: 'en-US' });
    await enterKey(page);
    const hook = card(page, hooks.edit);
    await hook.getByRole('button', { name: 'Edit…' }).click();
    const form = hook.locator('.webhook-edit');
    const url = form.getByLabel('Target URL');
    expect(await url.inputValue()).toBe(`${receiverUrl}/edit`);
    expect(await form.getByLabel('*', { exact: true }).isChecked()).toBe(true);
    await url.fill('ftp://example.org/hook');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').waitFor(WAIT);
    await url.fill(`${receiverUrl}/edited`);
    await form.getByLabel('*', { exact: true }).uncheck();
    await form.getByLabel('project.updated', { exact: true }).check();
    await form.getByLabel('tag.updated', { exact: true }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await hook.getByRole('status').filter({ hasText: 'Saved.' }).waitFor(WAIT);
    await hook
      .locator('h2')
      .filter({ hasText: `${receiverUrl}/edited` })
      .waitFor(WAIT);
    expect((await s.call('GET', `/api/webhooks/${hooks.edit}`)).json.webhook).toMatchObject({
      url: `${receiverUrl}/edited`,
      events: ['project.updated', 'tag.updated'],
    });
    await page.context().close();
  });

  it('fits 390 and 1280 px in Chinese and English, and passes axe-core: the drawer open, a rotated secret shown', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    for (const width of ['desktop', 'phone'] as const) {
      for (const locale of ['zh-CN', 'en-US']) {
        const label = `${width} ${locale}`;
        const lang = locale.slice(0, 2);
        const page = await open('/webhooks', { locale, width });
        await enterKey(page);
        const hook = card(page, hooks.layout);
        const change = hook.locator('tr[data-type="change"]').first();
        await change.waitFor(WAIT);
        await hook.locator('tr[data-type="ping"]').waitFor(WAIT);
        await page.waitForTimeout(150);
        await fits(page, `list ${label}`);
        await expectAccessible(page, `list ${label}`);
        await screenshot(page, `webhooks-list-${width}-${lang}`);

        await change.locator('.delivery-actions button').first().click();
        const drawer = page.getByRole('dialog');
        await drawer.locator('[data-side="response"] pre').waitFor(WAIT);
        await page.waitForTimeout(200);
        await fits(
          page,
          `drawer ${label}`,
          'dialog button, dialog table, dialog pre, dialog h2, dialog h3, dialog p',
        );
        // the drawer is within the screen
        const box = await drawer.boundingBox();
        const viewport = page.viewportSize()!;
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 0.5);
        await expectAccessible(page, `drawer ${label}`);
        await page.screenshot({ path: join(ARTIFACTS, `webhooks-drawer-${width}-${lang}.png`) });
        // Chinese on the phone, English on the desktop
        if (DOCS_SHOTS && (width === 'desktop') === (lang === 'en'))
          await page.screenshot({ path: `${DOCS_SHOTS}webhooks-drawer-${width}.png` });
        // scrolled to the response
        await drawer.locator('[data-side="response"]').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(ARTIFACTS, `webhooks-drawer-response-${width}-${lang}.png`) });
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'detached', ...WAIT });

        // a ping's drawer: its answer cut at 4 KB, said so
        await hook.locator('tr[data-type="ping"] .delivery-actions button').click();
        await drawer.locator('.truncated').waitFor(WAIT);
        await fits(page, `ping drawer ${label}`, 'dialog button, dialog table, dialog pre, dialog p');
        await expectAccessible(page, `ping drawer ${label}`);
        await drawer.locator('.truncated').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(ARTIFACTS, `webhooks-drawer-ping-${width}-${lang}.png`) });
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'detached', ...WAIT });

        await hook.locator('.form-actions button').nth(3).click();
        await hook.locator('.rotate-secret button[type="submit"]').click();
        await hook.locator('.rotate-secret .secret-value').waitFor(WAIT);
        await fits(page, `rotated ${label}`);
        await expectAccessible(page, `rotated ${label}`);
        await screenshot(page, `webhooks-rotated-${width}-${lang}`);
        await hook.screenshot({ path: join(ARTIFACTS, `webhooks-card-${width}-${lang}.png`) });
        await hook.locator('.rotate-secret .row:last-child button').click();

        await hook.locator('.form-actions button').nth(2).click();
        await hook.locator('.webhook-edit').waitFor(WAIT);
        await fits(page, `edit ${label}`);
        await expectAccessible(page, `edit ${label}`);
        await page.context().close();
      }
    }
  }, 180_000);

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});

/** fitsScreen, by default for every control of the page. */
function fits(
  page: Page,
  label: string,
  selector = 'main button, main input, main label, main code, main h2, .secret-value, .copy-note',
) {
  return fitsScreen(page, label, selector);
}
