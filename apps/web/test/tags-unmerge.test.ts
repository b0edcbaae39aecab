// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, fitsScreen, launch, MISSING, screenshot, Watch, type WIDTHS } from './browser.ts';

const WAIT = { timeout: 10_000 };

interface Tag {
  slug: string;
  name: string;
  aliases: string[];
  projectCount: number;
}

/** What a person reads and clicks, in each language of the console. */
const TEXTS = {
  en: {
    locale: 'en-US',
    filter: 'Filter tags',
    open: (alias: string) => `Undo merge of ${alias}…`,
    yes: 'Undo merge',
    summary: 'Summary (optional)',
    done: (name: string) => `Merge undone: ${name} is a tag of its own again; 1 project has it again.`,
    skipped: '1 project was left as it was: it changed after the merge',
    reason: '(changed since the merge)',
    notMerged: 'This tag is not merged any more (the merge was undone already). Reload the list.',
    noAliases: 'No aliases',
  },
  zh: {
    locale: 'zh-CN',
    filter: '筛选标签',
    open: (alias: string) => `撤销合并 ${alias}…`,
    yes: '撤销合并',
    summary: '摘要（可选）',
    done: (name: string) => `已撤销合并：${name} 重新成为独立的标签，1 个项目重新带有它。`,
    skipped: '合并之后有过改动的 1 个项目保持原样',
    reason: '（合并之后有过改动）',
    notMerged: '这个标签已不再是别名（合并已被撤销）。请重新加载列表。',
    noAliases: '没有别名',
  },
} as const;

/**
 * Undoing a tag merge in the console (docs/curation.md#undoing-a-merge): the kept tag offers it
 * for each alias, asks first, then says what happened, with the projects left as they were
 * because they changed after the merge; a refusal is said in the page's language.
 */
describe('a tag merge undone from the Tags curation page, in Chinese and English (Chromium)', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  const watch = new Watch();
  const stamp = Date.now();

  const tags = async (q: string): Promise<Tag[]> =>
    (await s.call('GET', `/api/tags?q=${encodeURIComponent(q)}&limit=100`, { key: false })).json.tags;
  const tagsOf = async (slug: string): Promise<string[]> =>
    (await s.call('GET', `/api/projects/${slug}`, { key: false })).json.data.tags.map(
      (t: { slug: string }) => t.slug,
    );
  const upsert = async (projects: unknown[]) => {
    const r = await s.call('POST', '/api/webhook/projects', { body: { projects } });
    expect(r.status, r.text).toBe(200);
    return (r.json.results as { slug: string }[]).map((p) => p.slug);
  };
  const project = (run: string, n: number, tag: { name: string; nameEn: string }, description?: string) => ({
    name: `撤销项目 ${run} ${n}`,
    nameEn: `Unmerge ${run} ${n}`,
    description: description ?? `一个用于测试撤销合并的项目 ${n}。`,
    tags: [tag],
    links: [{ type: 'CODEHOST', url: `https://github.com/unmerge-${run}/p${n}` }],
  });

  /**
   * Two tags, the alias's two projects and the kept tag's one; the alias merged into the kept
   * tag, then its second project written again after the merge.
   */
  const merged = async (run: string) => {
    const alias = { name: `向量库 ${run}`, nameEn: `Vector DB ${run}` };
    const kept = { name: `向量数据库 ${run}`, nameEn: `Vector Database ${run}` };
    const [moved, edited, other] = await upsert([
      project(run, 1, alias),
      project(run, 2, alias),
      project(run, 3, kept),
    ]);
    const all = await tags(run);
    const a = all.find((t) => t.name === alias.name)!.slug;
    const k = all.find((t) => t.name === kept.name)!.slug;
    const r = await s.call('POST', `/api/tags/${a}/merge`, { body: { into: k } });
    expect(r.status, r.text).toBe(200);
    await upsert([project(run, 2, alias, '合并之后改过的简介。')]);
    expect((await tagsOf(edited!))[0]).toBe(k);
    return { alias, a, k, moved: moved!, edited: edited!, other: other! };
  };

  beforeAll(async () => {
    s = await startServer({ postgres: false });
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const open = async (lang: keyof typeof TEXTS, run: string, width: keyof typeof WIDTHS) => {
    const context = await watch.context(browser!, { locale: TEXTS[lang].locale, width });
    const page = await context.newPage();
    await page.goto(`${s.baseUrl}/tags/curate`);
    await page.locator('.key-prompt input[type="password"]').fill(s.key);
    await page.locator('.key-prompt button[type="submit"]').click();
    await page.getByLabel(TEXTS[lang].filter).fill(run);
    return page;
  };
  const row = (page: Page, tag: string) => page.locator(`.curate-list li[data-tag="${tag}"]`);

  for (const [lang, width] of [
    ['en', 'desktop'],
    ['zh', 'phone'],
  ] as const) {
    it(`${lang}: undoes the merge from the alias, and lists the project edited since as left as it was`, async (ctx) => {
      if (!browser) return ctx.skip(MISSING);
      const text = TEXTS[lang];
      const run = `${stamp}-${lang}`;
      const m = await merged(run);
      const page = await open(lang, run, width);
      const kept = row(page, m.k);
      await kept.waitFor(WAIT);
      // the alias has no row of its own while merged
      expect(await row(page, m.a).count()).toBe(0);
      await kept.getByRole('button', { name: text.open(m.a) }).click();
      const dialog = kept.getByRole('alertdialog');
      expect(await dialog.innerText()).toContain(`“${m.a}”`);
      await dialog.getByLabel(text.summary).fill('两种写法其实是两个标签');
      await page.waitForTimeout(150);
      await fits(page, `${lang} confirm`);
      await expectAccessible(page, `${lang} confirm`);
      await screenshot(page, `tags-unmerge-confirm-${width}-${lang}`);

      await dialog.getByRole('button', { name: text.yes, exact: true }).click();
      const status = page.getByRole('status');
      const name =
        lang === 'en' ? `${m.alias.nameEn} / ${m.alias.name}` : `${m.alias.name} / ${m.alias.nameEn}`;
      await status.filter({ hasText: text.done(name) }).waitFor(WAIT);
      expect(await status.innerText()).toContain(text.skipped);
      const left = status.locator('.unmerge-skipped li');
      expect(await left.count()).toBe(1);
      // named once read, with its address and why
      await left.filter({ hasText: `${lang === 'en' ? 'Unmerge' : '撤销项目'} ${run} 2` }).waitFor(WAIT);
      expect(await left.getAttribute('data-project')).toBe(m.edited);
      expect(await left.innerText()).toContain(text.reason);
      expect(await left.getByRole('link', { name: m.edited }).getAttribute('href')).toBe(
        `/projects/${m.edited}`,
      );

      // the alias is its own tag again, on the page and in the API
      await row(page, m.a).waitFor(WAIT);
      await kept.locator('.curate-aliases').filter({ hasText: text.noAliases }).waitFor(WAIT);
      const now = await tags(run);
      expect(now.find((t) => t.slug === m.a)).toMatchObject({ aliases: [], projectCount: 1 });
      expect(now.find((t) => t.slug === m.k)).toMatchObject({ aliases: [], projectCount: 2 });
      expect(await tagsOf(m.moved)).toEqual([m.a]);
      expect(await tagsOf(m.edited)).toEqual([m.k]);
      expect(await tagsOf(m.other)).toEqual([m.k]);
      const revisions = (await s.call('GET', `/api/projects/${m.moved}/revisions`, { key: false })).json
        .revisions;
      expect(revisions[0]).toMatchObject({ via: 'tag-unmerge', summary: '两种写法其实是两个标签' });
      expect(
        (await s.call('GET', `/api/projects/${m.edited}/revisions`, { key: false })).json.revisions[0].via,
      ).toBe('upsert');
      await page.waitForTimeout(150);
      await fits(page, `${lang} result`);
      await expectAccessible(page, `${lang} result`);
      await screenshot(page, `tags-unmerge-result-${width}-${lang}`);
      await page.context().close();
    }, 60_000);

    it(`${lang}: a merge undone meanwhile is said as such, with the API's detail`, async (ctx) => {
      if (!browser) return ctx.skip(MISSING);
      const text = TEXTS[lang];
      const run = `${stamp}-${lang}-again`;
      const m = await merged(run);
      const page = await open(lang, run, width);
      const kept = row(page, m.k);
      await kept.getByRole('button', { name: text.open(m.a) }).click(WAIT);
      // someone else undoes it first
      const r = await s.call('POST', `/api/tags/${m.a}/unmerge`, { body: {} });
      expect(r.status, r.text).toBe(200);
      await kept.getByRole('alertdialog').getByRole('button', { name: text.yes, exact: true }).click();
      const alert = kept.getByRole('alert');
      await alert.waitFor(WAIT);
      expect(await alert.getAttribute('data-status')).toBe('409');
      expect(await alert.locator('p').first().innerText()).toBe(text.notMerged);
      expect(await alert.locator('.error-details').innerText()).toBe(
        `Tag "${m.a}" is not merged into another tag`,
      );
      await page.context().close();
    });
  }

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});

/** fitsScreen for every control and list item of the page. */
function fits(page: Page, label: string) {
  return fitsScreen(page, label, 'main button, main input, main label, main li');
}
