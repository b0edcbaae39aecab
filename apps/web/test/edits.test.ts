// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, MISSING, screenshot, Watch, WIDTHS } from './browser.ts';

const WAIT = { timeout: 10_000 };

/** Edits when things go wrong (a refused key, refused input, a conflict on a phone), and merges in the history. */
describe('edits, refusals and merges in the web console (Chromium)', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  const watch = new Watch();
  const stamp = Date.now();
  const project = (n: string) => ({
    name: `草稿项目 ${stamp} ${n}`,
    nameEn: `Draft ${stamp} ${n}`,
    description: `一个用于测试草稿保留的项目 ${n}。`,
    tags: [{ name: '测试', nameEn: 'Testing' }],
    links: [{ type: 'CODEHOST', url: `https://github.com/draft-${stamp}/p${n}` }],
  });
  const slug = (n: string) => `draft-${stamp}-${n}`;

  beforeAll(async () => {
    s = await startServer({ postgres: false });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const open = async (path: string, options: { locale?: string; width?: keyof typeof WIDTHS } = {}) => {
    const context = await watch.context(browser!, options);
    const page = await context.newPage();
    await page.goto(s.baseUrl + path);
    return page;
  };
  const enterKey = async (page: Page, key: string) => {
    await page.locator('.key-prompt input[type="password"]').fill(key);
    await page.locator('.key-prompt button[type="submit"]').click();
  };
  const upsert = (projects: unknown[]) => s.call('POST', '/api/webhook/projects', { body: { projects } });

  it('an edit typed before the key was revoked is offered back after signing in, and saved', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    await upsert([project('a')]);
    const made = await s.call('POST', '/api/keys', { body: { name: 'drafter', scopes: ['curate'] } });
    expect(made.status, made.text).toBe(201);
    const page = await open(`/projects/${slug('a')}/edit`);
    await enterKey(page, made.json.data.key);
    await page.getByLabel('English description').fill('Typed before the key was revoked.');
    expect((await s.call('DELETE', `/api/keys/${made.json.data.id}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // the page asks for a key again; the typed text is not lost
    await page.locator('.key-prompt [role="alert"]').waitFor(WAIT);
    await enterKey(page, s.key);
    const offer = page.locator('.kept-edit');
    await offer.waitFor(WAIT);
    expect(await offer.innerText()).toContain('An edit you had not saved');
    await screenshot(page, 'edit-kept');
    await offer.getByRole('button', { name: 'Save my edit' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved as revision 2.' }).waitFor(WAIT);
    expect(await page.getByLabel('English description').inputValue()).toBe(
      'Typed before the key was revoked.',
    );
    const now = (await s.call('GET', `/api/projects/${slug('a')}`)).json.data;
    expect(now.descriptionEn).toBe('Typed before the key was revoked.');
    expect(await page.locator('.kept-edit').count()).toBe(0);
    // saved: nothing is offered when the form opens again
    await page.reload();
    await page.getByLabel('English description').waitFor(WAIT);
    expect(await page.locator('.kept-edit').count()).toBe(0);
    await page.context().close();
  });

  it('a kept edit can be put back into the form or discarded (in Chinese too)', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    await upsert([project('b')]);
    const page = await open(`/projects/${slug('b')}/edit`, { locale: 'zh-CN' });
    await enterKey(page, s.key);
    await page.getByLabel('英文名称').fill('Kept in the tab');
    await page.reload();
    const offer = page.locator('.kept-edit');
    await offer.waitFor(WAIT);
    expect(await offer.innerText()).toContain('有一处修改尚未保存');
    await offer.getByRole('button', { name: '放回表单' }).click();
    expect(await page.getByLabel('英文名称').inputValue()).toBe('Kept in the tab');
    await page.reload();
    await page.locator('.kept-edit').waitFor(WAIT);
    await page.locator('.kept-edit').getByRole('button', { name: '丢弃' }).click();
    expect(await page.getByLabel('英文名称').inputValue()).toBe(`Draft ${stamp} b`);
    await page.reload();
    await page.getByLabel('英文名称').waitFor(WAIT);
    expect(await page.locator('.kept-edit').count()).toBe(0);
    await page.context().close();
  });

  it('a merge shows in the history of the project kept, even when it changed nothing there', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    // one paper, the same tags: nothing moves onto the project kept
    const links = [{ type: 'PAPER', url: `https://arxiv.org/abs/${stamp}` }];
    await upsert([
      { ...project('c'), links },
      { ...project('d'), links },
    ]);
    const merged = await s.call('POST', `/api/projects/${slug('c')}/merge`, { body: { into: slug('d') } });
    expect(merged.status, merged.text).toBe(200);
    for (const [locale, text] of [
      ['en-US', `Merged in: ${slug('c')}`],
      ['zh-CN', `并入：${slug('c')}`],
    ] as const) {
      const page = await open(`/projects/${slug('d')}?tab=history`, { locale });
      const row = page.locator('.timeline tbody tr').first();
      await row.waitFor(WAIT);
      expect(await row.innerText()).toContain(text);
      expect(await row.innerText()).toContain('merge');
      await page.context().close();
    }
  });

  it('the conflict panel keeps its "Now saved" and "Yours" headers at 390 px', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    await upsert([project('e')]);
    const page = await open(`/projects/${slug('e')}/edit`, { width: 'phone' });
    await enterKey(page, s.key);
    await page.getByLabel('English name').fill('Mine, typed on a phone');
    // saved by someone else meanwhile
    await upsert([{ ...project('e'), description: '别人先保存的描述，内容不同。' }]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.locator('.conflict');
    await conflict.waitFor(WAIT);
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(100);
      const text = await conflict.innerText();
      expect(text, width).toContain('Now saved');
      expect(text, width).toContain('Yours');
      const row = conflict.locator('tr', { has: page.locator('[data-field="nameEn"]') });
      // on a phone each value is labelled itself (the table's header row is not shown there)
      if (width === 'phone') expect(await row.locator('.conflict-yours').innerText()).toContain('Yours');
      expect(await row.locator('.conflict-yours').innerText(), width).toContain('Mine, typed on a phone');
      await screenshot(page, `edit-conflict-${width}`);
    }
    await page.context().close();
  });

  it('the zh Keys page keeps 已吊销 on one line, at 390 and 1280 px', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const made = await s.call('POST', '/api/keys', { body: { name: `吊销 ${stamp}`, scopes: ['curate'] } });
    await s.call('DELETE', `/api/keys/${made.json.data.id}`);
    // a crowded table: a live key with every scope, a long name, a limit and an expiry
    const scopes = [
      'projects:write',
      'tasks:read',
      'tasks:write',
      'curate',
      'changes:read',
      'webhooks:manage',
      'keys:admin',
      'metrics:read',
    ];
    await s.call('POST', '/api/keys', {
      body: {
        name: `一个名字很长的集成密钥 integration key with a long name ${stamp}`,
        scopes,
        expiresAt: '2030-01-01T00:00:00.000Z',
        rateLimit: { requests: 600, windowSeconds: 60 },
      },
    });
    const page = await open('/keys', { locale: 'zh-CN', width: 'phone' });
    await enterKey(page, s.key);
    const cell = page.locator('tr', { hasText: `吊销 ${stamp}` }).locator('.key-state');
    await cell.waitFor(WAIT);
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(100);
      // the state's text, one box per line it takes
      const lines = await cell.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      expect(await cell.innerText()).toContain('已吊销');
      expect(lines, `${width}: lines of the state text`).toBeLessThanOrEqual(2);
      await screenshot(page, `keys-revoked-zh-${width}`);
    }
    await page.context().close();
  });

  it('a refused link url is marked on its field and said in Chinese, not in the English of the API', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    await upsert([project('f')]);
    const page = await open(`/projects/${slug('f')}/edit`, { locale: 'zh-CN' });
    await enterKey(page, s.key);
    const url = page.getByLabel('网址 1', { exact: true });
    // the browser takes ftp:// as a URL; the API does not
    await url.fill('ftp://example.org/x');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.locator('[role="alert"]').waitFor(WAIT);
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]'), null, WAIT);
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    const described = await url.getAttribute('aria-describedby');
    const message = page.locator(`[id="${described}"]`);
    expect(await message.innerText()).toBe('不是有效的网址：须以 http:// 或 https:// 开头。');
    const body = await page.locator('main').innerText();
    expect(body).not.toContain('Invalid URL');
    await screenshot(page, 'edit-field-error-zh');
    await page.context().close();
  });

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.elsewhere(s.baseUrl)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});
