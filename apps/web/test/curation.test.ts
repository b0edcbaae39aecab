// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, expectAccessible, launch, MISSING, Watch, WIDTHS } from './browser.ts';

/**
 * Screenshots of the curation pages: with UPDATE_DOCS_SCREENSHOTS=1 into docs/screenshots (which
 * docs/curation.md shows), else with the other test artifacts, so that a test run leaves the
 * checkout as it was.
 */
const SHOTS =
  process.env.UPDATE_DOCS_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${ARTIFACTS}curation-`;
const WAIT = { timeout: 10_000 };

/**
 * Curation in the console
 * (docs/curation.md#editing-undo-without-dead-ends-duplicates-to-decide-on-webhooks-you-can-see): edit,
 * conflicts, link conflicts, duplicates, webhooks.
 */
describe('curation in the web console (Chromium)', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  let receiver: Server;
  let receiverUrl = '';
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const watch = new Watch();
  const stamp = Date.now();
  const project = (n: string, extra: Record<string, unknown> = {}) => ({
    name: `整理项目 ${stamp} ${n}`,
    nameEn: `Curated ${stamp} ${n}`,
    description: `一个用于测试整理功能的项目 ${n}。`,
    descriptionEn: `A project to try curation with, number ${n}.`,
    tags: [{ name: '测试', nameEn: 'Testing' }],
    links: [{ type: 'CODEHOST', url: `https://github.com/curation-${stamp}/p${n}` }],
    ...extra,
  });
  const slug = (n: string) => `curated-${stamp}-${n}`;

  beforeAll(async () => {
    s = await startServer({ postgres: false }, { allowPrivateWebhookTargets: true, webhookTimeoutMs: 2_000 });
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.statusCode = 204;
        res.end();
      });
    }).listen(0, '127.0.0.1');
    await new Promise<void>((r) => receiver.once('listening', () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    browser = await launch();
    mkdirSync(SHOTS.endsWith('/') ? SHOTS : ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => receiver?.close(r));
    await s?.close();
  });

  const open = async (path: string, options: { locale?: string; width?: keyof typeof WIDTHS } = {}) => {
    const context = await watch.context(browser!, options);
    const page = await context.newPage();
    await page.goto(s.baseUrl + path);
    return page;
  };
  const enterKey = async (page: Page) => {
    await page.locator('.key-prompt input[type="password"]').fill(s.key);
    await page.locator('.key-prompt button[type="submit"]').click();
  };
  /** A page at both widths, into docs/screenshots, after axe and the width check. */
  const shoot = async (page: Page, name: string) => {
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(100);
      await expectAccessible(page, `${name} ${width}`);
      const [scroll, inner] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        window.innerWidth,
      ]);
      expect(scroll, `${name} ${width}`).toBeLessThanOrEqual(inner!);
      await page.screenshot({ path: `${SHOTS}${name}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize(WIDTHS.desktop);
  };
  const upsert = (projects: unknown[]) => s.call('POST', '/api/webhook/projects', { body: { projects } });

  it('edits a field and shows the revision; a second tab with the old version sees the conflict', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    await upsert([project('a')]);
    await s.call('PUT', `/api/projects/${slug('a')}/lock`, { body: { fields: ['name'], reason: 'curated' } });
    const one = await open(`/projects/${slug('a')}/edit`, { locale: 'en-US' });
    await enterKey(one);
    const two = await open(`/projects/${slug('a')}/edit`, { locale: 'en-US' });
    await enterKey(two);
    // the locked field is badged
    await one.getByText('Locked', { exact: false }).first().waitFor(WAIT);
    await one.getByLabel('English description').fill('Edited in the console, in English.');
    await one.getByRole('button', { name: 'Save', exact: true }).click();
    await one.getByRole('status').filter({ hasText: 'Saved as revision 3.' }).waitFor(WAIT);
    const revisions = (await s.call('GET', `/api/projects/${slug('a')}/revisions`)).json.revisions;
    expect(revisions[0]).toMatchObject({ revision: 3, via: 'edit' });
    await shoot(one, 'edit');

    // the second tab still has revision 2's ETag
    await two.getByLabel('English name').fill('Second tab name');
    await two.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = two.locator('.conflict');
    await conflict.waitFor(WAIT);
    expect(await conflict.innerText()).toContain('Someone else saved this project first');
    expect(
      await conflict.locator('tr', { has: two.locator('[data-field="descriptionEn"]') }).innerText(),
    ).toContain('Edited in the console, in English.');
    await shoot(two, 'edit-conflict');
    await conflict.getByRole('button', { name: 'Save mine over theirs' }).click();
    await two.getByRole('status').filter({ hasText: 'Saved as revision 4.' }).waitFor(WAIT);
    const now = (await s.call('GET', `/api/projects/${slug('a')}`)).json.data;
    // both edits are kept: the reapply sent only the second tab's change
    expect(now).toMatchObject({
      nameEn: 'Second tab name',
      descriptionEn: 'Edited in the console, in English.',
    });
    await one.context().close();
    await two.context().close();
  });

  it('a revert into a link conflict finishes with "without these links"', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const b = project('b', {
      links: [
        { type: 'CODEHOST', url: `https://github.com/curation-${stamp}/pb` },
        { type: 'WEBSITE', url: `https://b-${stamp}.example.org/` },
      ],
    });
    await upsert([b]);
    await upsert([{ ...b, links: [b.links[0]] }]);
    // another project takes the website now
    await upsert([project('c', { links: [{ type: 'WEBSITE', url: `https://b-${stamp}.example.org/` }] })]);
    const page = await open(`/projects/${slug('b')}?tab=history`, { locale: 'zh-CN' });
    await page.getByRole('button', { name: '恢复到版本 1…' }).click();
    await enterKey(page);
    await page.getByRole('alertdialog').getByRole('button').first().click();
    const notice = page.locator('.link-conflict');
    await notice.waitFor(WAIT);
    expect(await notice.getByRole('link', { name: slug('c') }).count()).toBe(1);
    expect(await notice.innerText()).toContain(`把 ${slug('c')} 合并到这里`);
    await shoot(page, 'revert-link-conflict');
    await notice.getByRole('button', { name: '不带这些链接' }).click();
    await page.getByRole('status').filter({ hasText: '1 个链接留在其当前项目中' }).waitFor(WAIT);
    const after = (await s.call('GET', `/api/projects/${slug('b')}`)).json.data;
    expect(after.links.map((l: { url: string }) => l.url)).toEqual([b.links[0]!.url]);
    await page.context().close();
  });

  it('merges from Duplicates into the suggested project, and dismisses a pair', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const paper = (n: number) =>
      `https://arxiv.org/abs/2403.${String((stamp + n) % 100000).padStart(5, '0')}`;
    // a crawler's stub first (older), then the curated project, sharing a paper
    await upsert([project('stub', { links: [{ type: 'PAPER', url: paper(1) }], nameEn: undefined })]);
    await upsert([project('kept', { links: [{ type: 'PAPER', url: `${paper(1)}v2` }] })]);
    await s.call('PATCH', `/api/projects/${slug('kept')}`, { body: { contentEn: 'Curated by hand.' } });
    // two different projects that share a paper
    await upsert([project('x', { links: [{ type: 'PAPER', url: paper(2) }] })]);
    await upsert([project('y', { links: [{ type: 'PAPER', url: paper(2) }] })]);
    const stubSlug = (await s.call('GET', `/api/projects/by-url?url=${encodeURIComponent(paper(1))}`)).json
      .data.slug as string;
    const page = await open('/duplicates', { locale: 'en-US' });
    await enterKey(page);
    const group = page.locator('.dup-group').filter({ hasText: slug('kept') });
    await group.waitFor(WAIT);
    expect(await group.locator('.dup-project.kept').getAttribute('data-slug')).toBe(slug('kept'));
    await shoot(page, 'duplicates');
    await group.getByRole('button', { name: new RegExp(`^Keep .*, merge ${stubSlug} into it$`) }).click();
    await group.getByRole('alertdialog').getByRole('button', { name: 'Merge' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Merged ${stubSlug} into ${slug('kept')}.` })
      .waitFor(WAIT);
    expect((await s.call('GET', `/api/projects/${stubSlug}`)).status).toBe(301);

    const pair = page.locator('.dup-group').filter({ hasText: slug('x') });
    await pair.getByRole('button', { name: `${slug('x')} and ${slug('y')} are not duplicates` }).click();
    await page.getByRole('status').filter({ hasText: 'Marked as different projects.' }).waitFor(WAIT);
    await pair.waitFor({ state: 'detached', ...WAIT });
    await page
      .locator('.dismissed li')
      .filter({ hasText: slug('x') })
      .waitFor(WAIT);
    await page.context().close();
  });

  it('webhooks: create (secret once), ping and redeliver against a local receiver, disable', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/webhooks', { locale: 'en-US' });
    await enterKey(page);
    await page.getByLabel('Target URL').fill(receiverUrl);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.locator('.secret-value').waitFor(WAIT);
    expect(await page.locator('.secret-value').innerText()).toMatch(/^whsec_/);
    const card = page.locator('.webhook').filter({ hasText: receiverUrl });
    await card.waitFor(WAIT);
    await card.getByRole('button', { name: 'Send ping' }).click();
    await card.getByRole('status').filter({ hasText: 'The receiver answered 204' }).waitFor(WAIT);
    expect(got.some((g) => g.body.includes('"type":"ping"'))).toBe(true);

    // a delivery to redeliver: an attempt recorded for a change queued to this webhook
    const hooks = (await s.call('GET', '/api/webhooks')).json.webhooks as { id: string; url: string }[];
    const hook = hooks.find((h) => h.url === receiverUrl)!;
    await upsert([project('hook')]);
    const db = s.db.db;
    const queued = await db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', hook.id)
      .execute();
    expect(queued.length).toBeGreaterThan(0);
    await db
      .insertInto('webhook_attempts')
      .values({
        webhook_id: hook.id,
        delivery_id: queued[0]!.id,
        change_id: queued[0]!.change_id,
        event: 'project.created',
        status_code: 500,
        error: 'HTTP 500',
        success: false,
        duration_ms: 4,
      })
      .execute();
    await page.reload();
    const row = card.locator('tr[data-delivery]').first();
    await row.waitFor(WAIT);
    expect(await row.innerText()).toContain('500');
    const before = got.length;
    await row.getByRole('button', { name: /^Redeliver / }).click();
    await card.getByRole('status').filter({ hasText: 'Sent again: 204.' }).waitFor(WAIT);
    expect(got.length).toBeGreaterThan(before);
    await card.locator('tr[data-delivery]').nth(1).waitFor(WAIT);
    expect(await card.locator('tr[data-delivery]').first().innerText()).toContain('204');
    await shoot(page, 'webhooks');
    await card.getByRole('button', { name: `Disable ${receiverUrl}` }).click();
    await card.getByRole('button', { name: `Enable ${receiverUrl}` }).waitFor(WAIT);
    await page.context().close();
  });

  it('History marks a revision whose upsert may be wrong, in both languages (docs/curation.md#updates-that-may-be-wrong)', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const w = project('warned');
    await upsert([w]);
    // the same slug, another repository: updated, with a warning
    const other = { ...w, links: [{ type: 'CODEHOST', url: `https://gitlab.com/curation-${stamp}/other` }] };
    const reply = await upsert([other]);
    expect(reply.json.results[0].warnings, reply.text).toHaveLength(1);
    for (const [locale, badge] of [
      ['zh-CN', '可能有误'],
      ['en-US', 'May be wrong'],
    ] as const) {
      const page = await open(`/projects/${slug('warned')}?tab=history`, { locale });
      const rows = page.locator('table.timeline tbody tr');
      await rows.nth(1).waitFor(WAIT);
      expect(await rows.nth(0).locator('.revision-warning .badge').innerText()).toBe(badge);
      expect(await rows.nth(1).locator('.revision-warning').count()).toBe(0);
      await expectAccessible(page, `history warning ${locale}`);
      await page.context().close();
    }
  });

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});
