// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, fitsScreen, launch, MISSING, screenshot, Watch, type WIDTHS } from './browser.ts';

const WAIT = { timeout: 10_000 };
/** With UPDATE_DOCS_SCREENSHOTS=1, the curation page also goes to docs/screenshots (docs/curation.md#in-the-console). */
const DOCS_SHOTS =
  process.env.UPDATE_DOCS_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : null;

interface Tag {
  slug: string;
  name: string;
  nameEn: string | null;
  aliases: string[];
  projectCount: number;
}

/**
 * Tag curation and edit summaries in the console (docs/curation.md#tags,
 * docs/curation.md#edit-summaries, docs/curation.md#in-the-console): rename (a taken name said on
 * its field), merge with the two tags side by side, summaries sent and shown in History.
 */
describe('tags curated and writes explained, in the web console (Chromium)', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  const watch = new Watch();
  const stamp = Date.now();
  // X has two projects; Y (another spelling of X) one; Z one
  const names = {
    x: { name: `Notes ${stamp}` },
    y: { name: `笔记 ${stamp}`, nameEn: `Notes ${stamp}` },
    z: { name: `整理 ${stamp}`, nameEn: `Curation ${stamp}` },
  };
  const project = (n: string, tag: { name: string; nameEn?: string }) => ({
    name: `标签项目 ${stamp} ${n}`,
    nameEn: `Tagged ${stamp} ${n}`,
    description: `一个用于测试标签整理的项目 ${n}。`,
    descriptionEn: `A project to try tag curation with, number ${n}.`,
    tags: [tag],
    links: [{ type: 'CODEHOST', url: `https://github.com/tags-${stamp}/p${n}` }],
  });
  const slug = (n: string) => `tagged-${stamp}-${n}`;
  const slugs = { x: '', y: '', z: '' };

  /** The tags of this test, by the name each was created with. */
  const tags = async (): Promise<Tag[]> =>
    (await s.call('GET', `/api/tags?q=${stamp}&limit=100`, { key: false })).json.tags;

  beforeAll(async () => {
    s = await startServer({ postgres: false });
    browser = await launch();
    const made = await s.call('POST', '/api/webhook/projects', {
      body: {
        projects: [
          project('1', names.x),
          project('2', names.x),
          project('3', names.y),
          project('4', names.z),
        ],
      },
    });
    expect(made.json.created, made.text).toBe(4);
    const all = await tags();
    slugs.x = all.find((t) => t.name === names.x.name)!.slug;
    slugs.y = all.find((t) => t.name === names.y.name)!.slug;
    slugs.z = all.find((t) => t.name === names.z.name)!.slug;
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
  const enterKey = async (page: Page) => {
    await page.locator('.key-prompt input[type="password"]').fill(s.key);
    await page.locator('.key-prompt button[type="submit"]').click();
  };
  const row = (page: Page, tag: string) => page.locator(`.curate-list li[data-tag="${tag}"]`);

  it('renames a tag: a name another tag has is said on its field, then a free one is saved', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/tags', { locale: 'en-US' });
    await page.getByRole('link', { name: 'Rename and merge tags' }).click();
    await enterKey(page);
    await page.getByLabel('Filter tags').fill(String(stamp));
    const z = row(page, slugs.z);
    await z.waitFor(WAIT);
    expect(await z.innerText()).toContain('No aliases');
    await z.getByRole('button', { name: `Rename Curation ${stamp}…` }).click();
    const english = z.getByLabel('English name');
    expect(await english.inputValue()).toBe(names.z.nameEn);
    // X's name: 409, on the English name's field, in the page's language
    await english.fill(names.x.name);
    await z.getByRole('button', { name: 'Save names' }).click();
    await z.locator('.field-error').waitFor(WAIT);
    expect(await english.getAttribute('aria-invalid')).toBe('true');
    expect(await z.locator('.field-error').innerText()).toMatch(
      /^The tag "[^"]+" already has this name: merge the two tags instead\.$/,
    );
    expect(await z.getByRole('alert').innerText()).toContain('Another tag already has this name');
    expect(await z.getByLabel('Chinese name').getAttribute('aria-invalid')).toBeNull();
    expect((await tags()).find((t) => t.slug === slugs.z)!.nameEn).toBe(names.z.nameEn);

    await english.fill(`Curated ${stamp}`);
    await z.getByRole('button', { name: 'Save names' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Renamed: now Curated ${stamp} / ${names.z.name}.` })
      .waitFor(WAIT);
    // the list shows the new name at once
    await z
      .locator('h2')
      .filter({ hasText: `Curated ${stamp}` })
      .waitFor(WAIT);
    expect((await tags()).find((t) => t.slug === slugs.z)).toMatchObject({
      name: names.z.name,
      nameEn: `Curated ${stamp}`,
    });
    await page.context().close();
  });

  it('merges a tag into another after showing both with their project counts; the summary goes on each revision', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/tags/curate', { locale: 'en-US' });
    await enterKey(page);
    await page.getByLabel('Filter tags').fill(String(stamp));
    const y = row(page, slugs.y);
    await y.waitFor(WAIT);
    await y.getByRole('button', { name: /^Merge .* into…$/ }).click();
    await y.getByLabel('Find the tag to keep').fill(String(stamp));
    // the tag itself is not offered
    await y.locator(`.tag-merge-options label[data-tag="${slugs.x}"]`).waitFor(WAIT);
    expect(await y.locator(`.tag-merge-options label[data-tag="${slugs.y}"]`).count()).toBe(0);
    await y.locator(`.tag-merge-options label[data-tag="${slugs.x}"] input`).check();
    const from = y.locator('.tag-side[data-side="from"]');
    const into = y.locator('.tag-side[data-side="into"]');
    expect(await from.innerText()).toContain(slugs.y);
    expect(await from.locator('.tag-side-count').innerText()).toBe('1 project');
    expect(await into.innerText()).toContain(slugs.x);
    expect(await into.locator('.tag-side-count').innerText()).toBe('2 projects');
    // side by side at 1280 px
    const [a, b] = [await from.boundingBox(), await into.boundingBox()];
    expect(a!.x + a!.width).toBeLessThan(b!.x);
    expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
    await y.getByLabel('Summary (optional)').fill('同一个标签的两种写法');
    await y.getByRole('button', { name: `Merge ${slugs.y} into ${slugs.x}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Merged ${slugs.y} into ${slugs.x}: 1 project changed.` })
      .waitFor(WAIT);
    await row(page, slugs.y).waitFor({ state: 'detached', ...WAIT });
    expect(await row(page, slugs.x).locator('.curate-aliases').innerText()).toBe(`Aliases: ${slugs.y}`);
    expect((await tags()).find((t) => t.slug === slugs.x)).toMatchObject({
      aliases: [slugs.y],
      projectCount: 3,
    });
    const revisions = (await s.call('GET', `/api/projects/${slug('3')}/revisions`, { key: false })).json
      .revisions;
    expect(revisions[0]).toMatchObject({ via: 'tag-merge', summary: '同一个标签的两种写法' });

    await page.context().close();
  });

  it('sends an edit summary and a revert summary, and History shows them', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open(`/projects/${slug('1')}/edit`, { locale: 'zh-CN' });
    await enterKey(page);
    await page.getByLabel('英文简介').fill('Edited with a reason.');
    await page.getByLabel('摘要（可选）').fill('修正英文简介 (a typo)');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '已保存为第 2 版。' }).waitFor(WAIT);
    // cleared for the next save
    expect(await page.getByLabel('摘要（可选）').inputValue()).toBe('');
    const saved = (await s.call('GET', `/api/projects/${slug('1')}/revisions`, { key: false })).json
      .revisions;
    expect(saved[0]).toMatchObject({ revision: 2, via: 'edit', summary: '修正英文简介 (a typo)' });

    await page.getByRole('status').getByRole('link', { name: '历史' }).click();
    const line = page.locator('.timeline tbody tr').first();
    await line.locator('.revision-summary').waitFor(WAIT);
    expect(await line.locator('.revision-summary').innerText()).toBe('摘要： 修正英文简介 (a typo)');
    await page.getByRole('button', { name: '恢复到版本 1…' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByLabel('摘要（可选）').fill('back to the import');
    await dialog.getByRole('button', { name: '恢复', exact: true }).click();
    await page.locator('.timeline .revision-summary').filter({ hasText: 'back to the import' }).waitFor(WAIT);
    const reverted = (await s.call('GET', `/api/projects/${slug('1')}/revisions`, { key: false })).json
      .revisions;
    expect(reverted[0]).toMatchObject({ revision: 3, via: 'revert', summary: 'back to the import' });
    // a revision without a summary shows none
    expect(await page.locator('.timeline tbody tr').nth(2).locator('.revision-summary').count()).toBe(0);
    await page.context().close();
  });

  it('sends the summary of a lock and of a restore', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open(`/projects/${slug('4')}`, { locale: 'en-US' });
    await page.getByRole('button', { name: 'Change lock…' }).click();
    await enterKey(page);
    const form = page.locator('.lock-form');
    await form.getByLabel('Chinese name').check();
    await form.getByLabel('Summary (optional)').fill('named by the editors');
    await form.getByRole('button', { name: 'Save lock' }).click();
    await page.locator('[data-lock="name"]').waitFor(WAIT);
    const locked = (await s.call('GET', `/api/projects/${slug('4')}/revisions`, { key: false })).json
      .revisions;
    expect(locked[0]).toMatchObject({ via: 'lock', summary: 'named by the editors' });

    expect((await s.call('DELETE', `/api/projects/${slug('4')}`)).status).toBe(200);
    await page.getByRole('link', { name: 'Deleted', exact: true }).click();
    const item = page.locator('.deleted-item').filter({ hasText: slug('4') });
    await item.getByRole('button', { name: `Restore ${slug('4')}…` }).click();
    await item.getByRole('alertdialog').getByLabel('Summary (optional)').fill('deleted by mistake');
    await item.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Restored ${slug('4')}.` })
      .waitFor(WAIT);
    const restored = (await s.call('GET', `/api/projects/${slug('4')}/revisions`, { key: false })).json
      .revisions;
    expect(restored[0]).toMatchObject({ via: 'restore', summary: 'deleted by mistake' });
    expect(restored[1]).toMatchObject({ via: 'delete', summary: null });
    await page.context().close();
  });

  it('fits 390 and 1280 px in Chinese and English, and passes axe-core: the curation page with a merge open, History with summaries', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    for (const width of ['desktop', 'phone'] as const) {
      for (const locale of ['zh-CN', 'en-US']) {
        const label = `${width} ${locale}`;
        const lang = locale.slice(0, 2);
        const page = await open('/tags/curate', { locale, width });
        await enterKey(page);
        await page.locator('.curate-list').waitFor(WAIT);
        await page.locator('.curate-tags input[type="search"]').fill(String(stamp));
        const z = row(page, slugs.z);
        await z.waitFor(WAIT);
        await z.locator('.row button').nth(1).click();
        await z.locator('.tag-merge input[type="search"]').fill(String(stamp));
        await z.locator(`.tag-merge-options label[data-tag="${slugs.x}"] input`).check();
        await z.locator('.tag-compare').waitFor(WAIT);
        await page.waitForTimeout(150);
        await fits(page, `curate ${label}`);
        await expectAccessible(page, `curate ${label}`);
        await screenshot(page, `tags-curate-${width}-${lang}`);
        if (DOCS_SHOTS && (width === 'desktop') === (lang === 'en'))
          await page.screenshot({ path: `${DOCS_SHOTS}tags-curate-${width}.png`, fullPage: true });

        // the rename form, with the taken name marked
        await z.locator('.tag-merge .row button').last().click();
        await z.locator('.row button').first().click();
        await z.locator('.tag-rename input').nth(1).fill(names.x.name);
        await z.locator('.tag-rename button[type="submit"]').click();
        await z.locator('.field-error').waitFor(WAIT);
        await fits(page, `rename ${label}`);
        await expectAccessible(page, `rename ${label}`);
        await screenshot(page, `tags-rename-${width}-${lang}`);

        await page.goto(`${s.baseUrl}/projects/${slug('1')}?tab=history`);
        await page.locator('.timeline .revision-summary').first().waitFor(WAIT);
        await page.waitForTimeout(150);
        // the timeline scrolls inside its own box; the page does not
        await fits(page, `history ${label}`, null);
        await expectAccessible(page, `history ${label}`);
        await screenshot(page, `history-summary-${width}-${lang}`);
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

/** fitsScreen, by default for every control and tag box of the page (null: the page alone). */
function fits(
  page: Page,
  label: string,
  selector: string | null = 'main button, main input, main label, .tag-side, .field-error',
) {
  return fitsScreen(page, label, selector);
}
