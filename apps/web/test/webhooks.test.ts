// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { describe, expect, it } from 'vitest';
import { MISSING } from './browser.ts';
import {
  browser,
  CHANGE_ANSWER,
  card,
  clipboard,
  enterKey,
  focused,
  focusInside,
  got,
  header,
  hooks,
  open,
  PING_ANSWER,
  receiverUrl,
  s,
  side,
  stamp,
  useWebhooksConsole,
  WAIT,
  watch,
} from './webhooks-console.ts';
import { layoutCases } from './webhooks-layout.ts';

/**
 * The console's webhooks (docs/curation.md#webhooks-in-the-console): each delivery's request and
 * response in a drawer, pings marked, the secret rotated with a grace period and copied, the URL and
 * events edited; at 390 and 1280 px in both languages, axe-clean (webhooks-layout.ts). One server,
 * receiver and browser for all (webhooks-console.ts).
 */
describe('webhooks in the web console: deliveries in a drawer, rotate and copy the secret, edit (Chromium)', () => {
  useWebhooksConsole();

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

  layoutCases();

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});
