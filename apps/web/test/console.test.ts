// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launch, MISSING, screenshot, Watch, type WIDTHS } from './browser.ts';

const SAMPLE = JSON.parse(
  readFileSync(new URL('../../../fixtures/projects.sample.json', import.meta.url), 'utf8'),
) as { name: string; nameEn?: string; tags: { name: string; nameEn?: string }[] }[];

const QWEN = '通义千问';
/** expect.poll's default second is short on a busy 2-core machine. */
const WAIT = { timeout: 10_000 };

/** A project whose content tries to run script in three ways, and has markdown to render. */
const HOSTILE = {
  name: '安全渲染测试',
  nameEn: 'Safe rendering test',
  description: '一个内容里带有脚本的项目，用来检查页面不会执行它。',
  descriptionEn: 'A project whose content carries script, to check that the page never runs it.',
  content:
    '## 标题二\n\n**加粗** 与 `代码`\n\n- 第一项\n- 第二项\n\n<script>window.__pwned = "script"</script>\n\n' +
    '<img src="x" onerror="window.__pwned = \'img\'">\n\n[点我](javascript:window.__pwned=\'link\')',
  contentEn:
    '## Heading two\n\n**Bold** and a [link](https://example.org/docs)\n\n<b onmouseover="x()">raw</b>',
  tags: [{ name: '测试', nameEn: 'Testing' }],
  links: [
    { type: 'WEBSITE', url: 'https://example.org/safe-render', title: 'Home' },
    { type: 'CODEHOST', url: 'https://example.org/safe-render/code', title: 'Code' },
  ],
};

describe('the web console in Chromium', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  const watch = new Watch();
  const api = { search: false, tags: false, queue: false, changes: false };
  let hostileSlug = '';

  beforeAll(async () => {
    s = await startServer({ postgres: false });
    const upload = await s.call('POST', '/api/webhook/projects', {
      body: { projects: [...SAMPLE, HOSTILE] },
    });
    expect(upload.status).toBe(200);
    const found = await s.call('GET', `/api/projects/${encodeURIComponent('safe-rendering-test')}`, {
      key: false,
    });
    hostileSlug = found.status === 200 ? found.json.data.slug : '';
    // The APIs beyond the ten endpoints that the console shows (search, queue, changes); each test that
    // needs one requires it.
    api.search = (await s.call('GET', '/api/projects?limit=1', { key: false })).status === 200;
    api.tags = (await s.call('GET', '/api/tags?limit=1', { key: false })).status === 200;
    api.queue = (await s.call('GET', '/api/discovery/stats')).status === 200;
    api.changes = (await s.call('GET', '/api/changes?limit=1')).status === 200;
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
  const close = (page: Page) => page.context().close();

  /** Types into the search box and waits for the list the query produced. */
  const search = async (page: Page, q: string) => {
    await page.getByRole('searchbox').fill('');
    await page.getByRole('searchbox').pressSequentially(q, { delay: 20 });
    await page.locator(`ol.result-list[data-query="${q}"] > li`).first().waitFor();
  };

  const enterKey = async (page: Page) => {
    await page.locator('.key-prompt input[type="password"]').fill(s.key);
    await page.locator('.key-prompt button[type="submit"]').click();
  };

  it('finds 通义千问 first for 通义, tyqw, tongyi and qwen', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.search, 'GET /api/projects').toBe(true);
    const page = await open('/', { locale: 'zh-CN' });
    for (const q of ['通义', 'tyqw', 'tongyi', 'qwen']) {
      await search(page, q);
      const first = page.locator(`ol.result-list[data-query="${q}"] > li`).first();
      expect(await first.locator('h2').innerText(), q).toBe(QWEN);
      // The URL holds the query, so the search can be shared.
      expect(new URL(page.url()).searchParams.get('q')).toBe(q);
    }
    // A shared URL shows the same search.
    const shared = await open('/?q=tyqw', { locale: 'zh-CN' });
    await shared.locator('ol.result-list[data-query="tyqw"] > li').first().waitFor();
    expect(await shared.locator('.result h2').first().innerText()).toBe(QWEN);
    expect(await shared.getByRole('searchbox').inputValue()).toBe('tyqw');
    await close(page);
    await close(shared);
  });

  it('narrows the results by a tag facet, to exactly its count', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.search, 'GET /api/projects').toBe(true);
    const page = await open('/', { locale: 'en-US' });
    await page.locator('ol.result-list[data-query=""] > li').first().waitFor();
    const totalBefore = await page.locator('ol.result-list > li').count();
    // The first tag offered (the most used), with its count.
    const option = page.locator('.facet-tags .facet-option').first();
    const slug = (await option.getAttribute('data-tag'))!;
    const count = Number(await option.locator('.count').innerText());
    expect(count).toBeGreaterThan(0);
    await option.locator('input').check();
    await page.waitForURL((url) => url.searchParams.getAll('tag').includes(slug));
    await expect
      .poll(async () => page.locator('h1[aria-live]').innerText(), WAIT)
      .toMatch(new RegExp(`^${count} project`));
    // Every result shown has the tag, and there are `count` of them (loading more pages if needed).
    // (the button goes away once the last page is in: a click that finds it gone ends the loop)
    while (await page.getByRole('button', { name: 'Load more' }).isVisible())
      await page
        .getByRole('button', { name: 'Load more' })
        .click({ timeout: 5000 })
        .catch(() => undefined);
    await expect.poll(() => page.locator('ol.result-list > li').count(), WAIT).toBe(count);
    expect(count).toBeLessThan(SAMPLE.length + 1);
    expect(totalBefore).toBeGreaterThan(0);
    const reply = await s.call('GET', `/api/projects?tag=${slug}&limit=100`, { key: false });
    const slugs = await page
      .locator('ol.result-list > li')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-slug')));
    expect(slugs.sort()).toEqual(reply.json.projects.map((p: { slug: string }) => p.slug).sort());
    await close(page);
  });

  it('reaches every result once by paging', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.search, 'GET /api/projects').toBe(true);
    const page = await open('/?sort=name', { locale: 'en-US' });
    await page.locator('ol.result-list > li').first().waitFor();
    let pages = 1;
    const more = page.getByRole('button', { name: 'Load more' });
    while (await more.isVisible()) {
      const before = await page.locator('ol.result-list > li').count();
      await more.click();
      await expect.poll(() => page.locator('ol.result-list > li').count(), WAIT).toBeGreaterThan(before);
      pages += 1;
    }
    const slugs = await page
      .locator('ol.result-list > li')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-slug')));
    expect(pages).toBeGreaterThan(1);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.length).toBe(SAMPLE.length + 1);
    await close(page);
  });

  it('switches every visible label between English and Chinese, and a reload keeps the choice', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/', { locale: 'en-US' });
    await page.locator('nav').waitFor();
    if (api.search) await page.locator('ol.result-list > li').first().waitFor();
    // The labels: navigation, headings, legends, form labels, buttons, options, the placeholder.
    const labels = () =>
      page.evaluate(() => {
        const texts = [
          ...document.querySelectorAll('nav a, h1, legend, label:not(.facet-option), button, option'),
        ]
          .filter((el) => !el.closest('.facet-tags'))
          .map((el) => (el as HTMLElement).innerText.trim());
        const box = document.querySelector('input[type="search"]') as HTMLInputElement | null;
        return [...texts, box?.placeholder ?? ''];
      });
    const english = await labels();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: 'Switch to Chinese' }).click();
    await page.getByRole('link', { name: '搜索' }).waitFor();
    if (api.search) await page.locator('ol.result-list > li').first().waitFor();
    const chinese = await labels();
    expect(chinese.length).toBe(english.length);
    // Every label changed (the status facet's counts are numbers, the rest words).
    const unchanged = english.filter((text, i) => text === chinese[i] && !/^\d*$/.test(text));
    expect(unchanged).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    // No English word is left outside the data (project names and descriptions, tag names).
    const rest = await page.evaluate(() => {
      const clone = document.body.cloneNode(true) as HTMLElement;
      for (const el of clone.querySelectorAll('.result, .facet-tags, [lang="en"], noscript')) el.remove();
      return clone.innerText;
    });
    const words = (rest.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !['API'].includes(w));
    expect(words).toEqual([]);
    await page.reload();
    await page.getByRole('link', { name: '搜索' }).waitFor();
    expect(await page.getByRole('button', { name: '切换到英文' }).isVisible()).toBe(true);
    expect(await labels()).toEqual(chinese);
    await close(page);
  });

  it('renders a project in both languages with its markdown, and never runs script from the content', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(hostileSlug).not.toBe('');
    const page = await open(`/projects/${hostileSlug}`, { locale: 'zh-CN' });
    const zh = page.locator('[data-column="zh"] .markdown');
    await zh.waitFor();
    expect(await zh.locator('h2').innerText()).toBe('标题二');
    expect(await zh.locator('strong').innerText()).toBe('加粗');
    expect(await zh.locator('li').count()).toBe(2);
    // The raw HTML is shown as text, not made into elements.
    expect(await zh.innerText()).toContain('<script>');
    expect(
      await page
        .locator('.markdown script, .markdown img, .markdown [onerror], .markdown [onmouseover]')
        .count(),
    ).toBe(0);
    const en = page.locator('[data-column="en"] .markdown');
    expect(await en.locator('h2').innerText()).toBe('Heading two');
    expect(await en.locator('a').getAttribute('href')).toBe('https://example.org/docs');
    // The javascript: link lost its target; clicking it runs nothing.
    const hostileLink = zh.locator('a', { hasText: '点我' });
    if ((await hostileLink.count()) > 0) {
      expect(await hostileLink.getAttribute('href')).toBeNull();
      await hostileLink.click();
    }
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    // Links by type; tags link to their search.
    expect(await page.locator('.link-group h3').allInnerTexts()).toEqual(['官网', '代码']);
    const tag = page.locator('.project-head .chip').first();
    expect(await tag.getAttribute('href')).toMatch(/^\/\?tag=/);
    await close(page);
  });

  it('lists every tag with its project count', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.tags, 'GET /api/tags').toBe(true);
    const page = await open('/tags', { locale: 'en-US' });
    await page.locator('.tag-cloud li').first().waitFor();
    const reply = await s.call('GET', '/api/tags?limit=100', { key: false });
    const shown = await page
      .locator('.tag-cloud li')
      .evaluateAll((items) =>
        items.map((i) => [i.getAttribute('data-tag'), i.querySelector('.count')?.textContent]),
      );
    expect(shown).toEqual(
      reply.json.tags.map((t: { slug: string; projectCount: number }) => [
        t.slug,
        `${t.projectCount} ${t.projectCount === 1 ? 'project' : 'projects'}`,
      ]),
    );
    await close(page);
  });

  it('asks for the key on the queue and changes pages, and shows no data without it', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    for (const path of ['/queue', '/changes']) {
      const page = await open(path, { locale: 'en-US' });
      await page.getByRole('heading', { name: 'This page needs the API key' }).waitFor();
      await page.waitForTimeout(300);
      const calls = watch.requests.filter((url) => /\/api\/(discovery|changes)/.test(url));
      expect(calls, path).toEqual([]);
      expect(await page.locator('.stats, table').count()).toBe(0);
      await close(page);
    }
  });

  /** The computed colour of a queue figure. */
  const figureColour = (page: Page, stat: string) =>
    page.locator(`[data-stat="${stat}"] dd`).evaluate((dd) => getComputedStyle(dd).color);

  it('fits a phone (390 px) in both languages: the whole navigation in view, each sort label beside its select, no alarm for Failed 0', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect((await s.call('GET', '/api/discovery/stats')).json.counts.FAILED).toBe(0);
    for (const locale of ['en-US', 'zh-CN']) {
      const lang = locale.slice(0, 2);
      const page = await open('/?q=%E6%A8%A1%E5%9E%8B', { locale, width: 'phone' });
      await page.locator('ol.result-list > li').first().waitFor();
      const width = page.viewportSize()?.width ?? 0;
      expect(width).toBe(390);

      // The navigation: every section's link wholly in view and uncut, nothing hidden to scroll to.
      const links = await page.locator('header nav a').evaluateAll((as) =>
        as.map((a) => {
          const r = a.getBoundingClientRect();
          return { text: a.textContent, left: r.left, right: r.right, cut: a.scrollWidth > a.clientWidth };
        }),
      );
      expect(links).toHaveLength(9);
      for (const link of links) {
        expect(link.left, `${lang} ${link.text}`).toBeGreaterThanOrEqual(0);
        expect(link.right, `${lang} ${link.text}`).toBeLessThanOrEqual(width);
        expect(link.cut, `${lang} ${link.text}`).toBe(false);
      }
      expect(await page.locator('header nav').evaluate((n) => n.scrollWidth <= n.clientWidth)).toBe(true);

      // The sort row: each label on the line of its own select, each select wholly in view.
      const pairs = await page.locator('.results-head .sort label').evaluateAll((labels) =>
        labels.map((label) => {
          const select = document.getElementById((label as HTMLLabelElement).htmlFor);
          const l = label.getBoundingClientRect();
          const r = select?.getBoundingClientRect();
          return {
            text: label.textContent,
            middle: (l.top + l.bottom) / 2,
            top: r?.top,
            bottom: r?.bottom,
            right: r?.right,
          };
        }),
      );
      expect(pairs).toHaveLength(2);
      for (const pair of pairs) {
        expect(pair.middle, `${lang} ${pair.text}`).toBeGreaterThan(pair.top ?? Infinity);
        expect(pair.middle, `${lang} ${pair.text}`).toBeLessThan(pair.bottom ?? -Infinity);
        expect(pair.right, `${lang} ${pair.text}`).toBeLessThanOrEqual(width);
      }
      await screenshot(page, `phone-search-${lang}`);

      // The queue: no failed task is no alarm; "Failed 0" looks like any other figure.
      await page.goto(`${s.baseUrl}/queue`);
      await enterKey(page);
      await expect.poll(() => page.locator('[data-stat="FAILED"] dd').innerText(), WAIT).toBe('0');
      expect(await figureColour(page, 'FAILED')).toBe(await figureColour(page, 'IN_PROGRESS'));
      await screenshot(page, `phone-queue-${lang}`);
      await close(page);
    }
  });

  it('shows the queue with the key: counts as the API has them, a retry, and completions live', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.queue, 'GET /api/discovery/stats').toBe(true);
    // A FAILED task: completing with data that is not a project fails it.
    const url = `https://example.org/console-test/failed-${Date.now()}`;
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    const list = await s.call('GET', '/api/discovery/tasks?status=PENDING&limit=100');
    const failed = list.json.tasks.find((t: { sourceUrl: string }) => t.sourceUrl === url);
    await s.call('POST', `/api/discovery/tasks/${failed.id}/complete`, {
      body: { explorationData: { name: '' } },
    });
    expect((await s.call('GET', `/api/discovery/tasks/${failed.id}`)).json.task.status).toBe('FAILED');

    const page = await open('/queue', { locale: 'en-US' });
    await enterKey(page);
    const stats = (await s.call('GET', '/api/discovery/stats')).json;
    for (const status of ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'])
      await expect
        .poll(() => page.locator(`[data-stat="${status}"] dd`).innerText(), WAIT)
        .toBe(String(stats.counts[status]));
    for (const figure of ['claimable', 'delayed', 'leased', 'reapedTotal'])
      expect(await page.locator(`[data-stat="${figure}"] dd`).innerText()).toBe(String(stats[figure]));
    // The key is in this tab's sessionStorage only: in no URL, not in localStorage.
    expect(watch.requests.filter((u) => u.includes(s.key))).toEqual([]);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(s.key);

    // A failed task is an alarm: its figure is coloured, unlike one at 0 (previous test).
    expect(await figureColour(page, 'FAILED')).not.toBe(await figureColour(page, 'IN_PROGRESS'));

    // Retry the FAILED task from its detail.
    await page.getByRole('button', { name: 'Failed', exact: true }).click();
    await page.locator(`tr[data-task="${failed.id}"] button`).click();
    await page.locator('.task-detail').getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.locator('.task-detail .badge').first().innerText(), WAIT).toBe('Pending');
    expect((await s.call('GET', `/api/discovery/tasks/${failed.id}`)).json.task.status).toBe('PENDING');

    // A task completed through the API shows up without a reload (the marker would not survive one).
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    const completedBefore = Number(await page.locator('[data-stat="COMPLETED"] dd').innerText());
    const done = `https://example.org/console-test/done-${Date.now()}`;
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: done }] } });
    const pending = (await s.call('GET', '/api/discovery/tasks?status=PENDING&limit=100')).json.tasks;
    const task = pending.find((t: { sourceUrl: string }) => t.sourceUrl === done);
    await page.locator(`tr[data-task="${task.id}"]`).waitFor({ timeout: 15_000 });
    const completed = await s.call('POST', `/api/discovery/tasks/${task.id}/complete`, {
      body: {
        explorationData: {
          ...HOSTILE,
          name: '实时完成',
          nameEn: 'Completed live',
          links: [{ type: 'WEBSITE', url: done }],
        },
      },
    });
    expect(completed.status).toBe(200);
    await expect
      .poll(() => page.locator(`tr[data-task="${task.id}"] .badge`).innerText(), { timeout: 15_000 })
      .toBe('Completed');
    await expect
      .poll(() => page.locator('[data-stat="COMPLETED"] dd').innerText(), { timeout: 15_000 })
      .toBe(String(completedBefore + 1));
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);

    // Adding tasks from pasted URLs: the duplicate check is shown first, then only new ones are added.
    const fresh = `https://example.org/console-test/pasted-${Date.now()}`;
    await page.locator('.add-tasks textarea').fill(`${done}\n${fresh}\n`);
    await page.locator('.add-tasks').getByRole('button', { name: 'Check for duplicates' }).click();
    await page.locator('.check-results li').nth(1).waitFor();
    expect(await page.locator('.check-results li[data-should-create="false"] .url').allInnerTexts()).toEqual([
      done,
    ]);
    expect(await page.locator('.check-results li[data-should-create="true"] .url').allInnerTexts()).toEqual([
      fresh,
    ]);
    await page.locator('.add-tasks').getByRole('button', { name: 'Add 1 task' }).click();
    await page.locator('.add-tasks [role="status"]').filter({ hasText: 'Added 1, skipped 0.' }).waitFor();
    await page.locator('tr', { hasText: fresh }).waitFor({ timeout: 15_000 });
    await close(page);
  });

  it('adds tasks from pasted lines: invalid lines are shown and left out, the valid ones added', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/queue', { locale: 'en-US' });
    await enterKey(page);
    const valid = `https://github.com/xai-org/grok-1?console-test=${Date.now()}`;
    // Lines are the unit: "not a url" is one invalid line, not three words.
    await page.locator('.add-tasks textarea').fill(`${valid}\nnot a url\n`);
    await page.locator('.add-tasks').getByRole('button', { name: 'Check for duplicates' }).click();
    await page.locator('.check-results li').nth(1).waitFor();
    expect(await page.locator('.check-results li').count()).toBe(2);
    expect(await page.locator('.check-results li[data-invalid="true"] .url').allInnerTexts()).toEqual([
      'not a url',
    ]);
    expect(await page.locator('.check-results li[data-should-create="true"] .url').allInnerTexts()).toEqual([
      valid,
    ]);
    await page.locator('.add-tasks').getByRole('button', { name: 'Add 1 task' }).click();
    await page.locator('.add-tasks [role="status"]').filter({ hasText: 'Added 1, skipped 0.' }).waitFor();
    const tasks = (await s.call('GET', '/api/discovery/tasks?limit=100')).json.tasks;
    expect(tasks.map((t: { sourceUrl: string }) => t.sourceUrl)).toContain(valid);
    expect(tasks.map((t: { sourceUrl: string }) => t.sourceUrl)).not.toContain('not a url');
    await close(page);
  });

  it('shows the change feed as it happens', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(api.changes, 'GET /api/changes').toBe(true);
    const page = await open('/changes', { locale: 'en-US' });
    await enterKey(page);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const url = `https://example.org/console-test/feed-${Date.now()}`;
    await s.call('POST', '/api/discovery/tasks', { body: { tasks: [{ sourceUrl: url }] } });
    await page.locator('tbody tr').filter({ hasText: 'Task created' }).first().waitFor({ timeout: 15_000 });
    await close(page);
  });

  it('edits the search synonyms: lines are sets, a one-term line is refused, a saved set changes search', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const stamp = Date.now().toString(36);
    const word = `syn${stamp}`.replace(/\d/g, 'q');
    await s.call('POST', '/api/webhook/projects', {
      body: {
        projects: [
          {
            name: `同义词测试 ${stamp}`,
            nameEn: `Synonym target ${stamp}`,
            description: 'Found through a synonym of its tag only.',
            tags: [{ name: `${word}tag` }],
            links: [{ type: 'WEBSITE', url: `https://synonym-${stamp}.example.org/` }],
          },
        ],
      },
    });
    expect((await s.call('GET', `/api/projects?q=${word}alias`, { key: false })).json.total).toBe(0);
    const page = await open('/synonyms', { locale: 'en-US' });
    await enterKey(page);
    const box = page.getByLabel('One set per line, terms separated by commas');
    await box.waitFor(WAIT);
    await box.fill(`大模型, 大语言模型, LLM\n${word}tag`);
    await page.getByText('A set needs at least two terms: line 2').waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Save synonyms' }).isDisabled()).toBe(true);
    await box.fill(`大模型, 大语言模型, LLM\n${word}tag，${word}alias`);
    await page.getByText('2 sets').waitFor(WAIT);
    await page.getByRole('button', { name: 'Save synonyms' }).click();
    await page.getByText('Saved: searches use them now.').waitFor(WAIT);
    const stored = await s.call('GET', '/api/search/synonyms', { key: false });
    expect(stored.json.sets).toEqual([
      ['大模型', '大语言模型', 'LLM'],
      [`${word}tag`, `${word}alias`],
    ]);
    expect((await s.call('GET', `/api/projects?q=${word}alias`, { key: false })).json.total).toBe(1);
    await s.call('PUT', '/api/search/synonyms', { body: { sets: [] } });
    await close(page);
  });

  it('lists duplicates side by side and merges one after a confirmation; its old address leads to the kept one', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const stamp = Date.now();
    const paper = `https://arxiv.org/abs/2401.${String(stamp % 100000).padStart(5, '0')}`;
    const twin = (n: number, url: string) => ({
      name: `重复项目 ${stamp} ${n}`,
      nameEn: `Duplicate twin ${stamp} ${n}`,
      description: 'A project listed twice under two spellings of one paper.',
      tags: [{ name: `twin-${n}` }],
      links: [{ type: 'PAPER', url }],
    });
    await s.call('POST', '/api/webhook/projects', {
      body: { projects: [twin(1, paper), twin(2, `${paper.replace('/abs/', '/pdf/')}v2.pdf`)] },
    });
    const [keep, gone] = [`duplicate-twin-${stamp}-1`, `duplicate-twin-${stamp}-2`];
    const page = await open('/duplicates', { locale: 'en-US' });
    await enterKey(page);
    const group = page.locator('.dup-group').filter({ hasText: `arxiv:2401.` }).filter({ hasText: keep });
    await group.waitFor(WAIT);
    // side by side: both projects of the group, the oldest kept
    const names = await group.locator('.dup-project h3').allInnerTexts();
    expect(names).toHaveLength(2);
    expect(names[0]).toContain(`Duplicate twin ${stamp} 1`);
    expect(names[1]).toContain(`Duplicate twin ${stamp} 2`);
    expect(await group.locator('.dup-project.kept').innerText()).toContain(keep);
    const mergeButton = group.getByRole('button', {
      name: new RegExp(`^Keep .*${stamp} 1, merge ${gone} into it$`),
    });
    await mergeButton.click();
    const dialog = group.getByRole('alertdialog');
    expect(await dialog.innerText()).toContain(`Merge “${gone}” into “${keep}”?`);
    // Cancel first: nothing happens
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await group.getByRole('alertdialog').count()).toBe(0);
    expect((await s.call('GET', `/api/projects/${gone}`, { key: false })).status).toBe(200);
    await mergeButton.click();
    await group.getByRole('alertdialog').getByRole('button', { name: 'Merge' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Merged ${gone} into ${keep}.` })
      .waitFor(WAIT);
    expect((await s.call('GET', `/api/projects/${gone}`, { key: false })).status).toBe(301);

    // the old address: the kept project, under its own address, saying so
    await page.goto(`${s.baseUrl}/projects/${gone}`);
    await page.locator('.alias-note').waitFor(WAIT);
    expect(new URL(page.url()).pathname).toBe(`/projects/${keep}`);
    expect(await page.locator('h1').first().innerText()).toContain(`Duplicate twin ${stamp} 1`);
    expect(await page.locator('.alias-note').innerText()).toBe(
      `“${gone}” was merged into this project; you were taken here.`,
    );
    await close(page);
  });

  it('History tab: the timeline, two revisions side by side in both languages, a revert after a confirmation; the lock control; the Deleted page restores', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const stamp = Date.now();
    const careful = {
      name: `精心整理 ${stamp}`,
      nameEn: `Curated ${stamp}`,
      description: '一个被人精心整理过的项目，有中英文名称、标签和四个链接。',
      descriptionEn: 'A project curated with care: Chinese and English names, tags and four links.',
      content: '## 亮点\n- 人工整理',
      contentEn: '## Highlights\n- Curated by hand',
      source: 'import',
      tags: [
        { name: `整理-${stamp}`, nameEn: `Curated ${stamp}` },
        { name: '开源', nameEn: 'Open Source' },
      ],
      links: [
        { type: 'CODEHOST', url: `https://github.com/curated/p${stamp}`, title: 'GitHub' },
        { type: 'WEBSITE', url: `https://p${stamp}.example.org/` },
        { type: 'MODELHUB', url: `https://huggingface.co/curated/p${stamp}` },
        { type: 'PAPER', url: `https://arxiv.org/abs/2402.${String(stamp % 100000).padStart(5, '0')}` },
      ],
    };
    const thin = {
      name: `curated-${stamp}`,
      description: 'A crawler found this repository.',
      source: 'crawler',
      tags: [{ name: 'AI' }],
      links: [careful.links[0]],
    };
    const slug = (await s.call('POST', '/api/webhook/projects', { body: { projects: [careful] } })).json
      .results[0].slug as string;
    await s.call('POST', '/api/webhook/projects', { body: { projects: [thin] } });

    const page = await open(`/projects/${slug}?tab=history`, { locale: 'en-US' });
    const rows = page.locator('table.timeline tbody tr');
    await rows.nth(1).waitFor(WAIT);
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toContain('Updated');
    expect(await rows.nth(1).innerText()).toContain('Created');
    // side by side: revision 1 → 2, every field in both languages, the changed rows marked
    const compare = page.locator('.compare');
    await compare.getByRole('heading', { name: 'Revision 1 → revision 2' }).waitFor(WAIT);
    const row = (field: string) => compare.locator(`tr[data-field="${field}"]`);
    expect(await row('name').getAttribute('class')).toBe('changed');
    expect(await row('name').locator('td').allInnerTexts()).toEqual([careful.name, thin.name]);
    expect(await row('descriptionEn').locator('td').allInnerTexts()).toEqual([careful.descriptionEn, '—']);
    expect(await row('status').getAttribute('class')).toBeNull();
    expect(await row('tags').locator('td').first().innerText()).toContain(`整理-${stamp} / Curated ${stamp}`);
    await screenshot(page, 'history-desktop-en');

    // revert to revision 1: the key first, then a confirmation; cancel does nothing
    await page.getByRole('button', { name: 'Revert to revision 1…' }).click();
    await enterKey(page);
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.innerText()).toContain("Make the project revision 1's content again?");
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await s.call('GET', `/api/projects/${slug}`, { key: false })).json.data.name).toBe(thin.name);
    await page.getByRole('button', { name: 'Revert to revision 1…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revert' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Reverted to revision 1 (saved as revision 3).' })
      .waitFor(WAIT);
    await rows.nth(2).waitFor(WAIT);
    expect((await s.call('GET', `/api/projects/${slug}`, { key: false })).json.data.name).toBe(careful.name);

    // the lock control, on the project tab
    await page.getByRole('link', { name: 'Project', exact: true }).click();
    await page.getByRole('button', { name: 'Change lock…' }).click();
    const form = page.locator('.lock-form');
    await form.getByLabel('Chinese name').check();
    await form.getByLabel('Tags', { exact: true }).check();
    await form.getByLabel('Reason').fill('curated by the editors');
    await page.getByRole('button', { name: 'Save lock' }).click();
    await page.locator('[data-lock="name,tags"]').waitFor(WAIT);
    expect(await page.locator('.lock').innerText()).toContain(
      'Locked: Chinese name, Tags — curated by the editors',
    );
    const crawled = await s.call('POST', '/api/webhook/projects', { body: { projects: [thin] } });
    expect(crawled.json.results[0].kept).toEqual(['name', 'tags']);
    expect((await s.call('GET', `/api/projects/${slug}`, { key: false })).json.data.name).toBe(careful.name);
    await screenshot(page, 'project-lock-desktop-en');

    // the Deleted page: restore after a confirmation
    await s.call('DELETE', `/api/projects/${slug}`);
    await page.getByRole('link', { name: 'Deleted', exact: true }).click();
    const item = page.locator('.deleted-item').filter({ hasText: slug });
    await item.waitFor(WAIT);
    expect(await item.innerText()).toContain(careful.name);
    await item.getByRole('button', { name: `Restore ${slug}…` }).click();
    await item.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Restored ${slug}.` })
      .waitFor(WAIT);
    const back = (await s.call('GET', `/api/projects/${slug}`, { key: false })).json.data;
    expect(back).toMatchObject({ name: careful.name, lock: { fields: ['name', 'tags'] } });
    await close(page);
  });

  it('passes axe-core on every page at both widths, and takes their screenshots', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const pages: [string, string, boolean][] = [
      ['search', '/?q=%E6%A8%A1%E5%9E%8B', false],
      ['project', `/projects/${hostileSlug}`, false],
      ['tags', '/tags', false],
      ['queue', '/queue', true],
      ['changes', '/changes', true],
      ['duplicates', '/duplicates', true],
      ['deleted', '/deleted', true],
      ['synonyms', '/synonyms', true],
      ['history', `/projects/${hostileSlug}?tab=history`, false],
      ['key-prompt', '/queue', false],
      ['edit', `/projects/${hostileSlug}/edit`, true],
      ['webhooks', '/webhooks', true],
    ];
    for (const width of ['desktop', 'phone'] as const) {
      for (const locale of ['zh-CN', 'en-US']) {
        const context = await watch.context(browser, { locale, width });
        const page = await context.newPage();
        let keyed = false;
        for (const [name, path, needsKey] of pages) {
          await page.goto(s.baseUrl + path);
          if (needsKey && !keyed) {
            await enterKey(page);
            keyed = true;
          }
          if (!needsKey && keyed) {
            await page.evaluate(() => sessionStorage.clear());
            keyed = false;
            await page.reload();
          }
          await page.locator('main').waitFor();
          await page.waitForLoadState('networkidle', { timeout: 2000 }).catch(() => {});
          await page.waitForTimeout(150);
          await expectAccessible(page, `${name} ${width} ${locale}`);
          // nothing wider than the screen (390 and 1280 px)
          const wide = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
          expect(wide[0], `${name} ${width} ${locale} scroll width`).toBeLessThanOrEqual(wide[1]!);
          await screenshot(page, `${name}-${width}-${locale.slice(0, 2)}`);
        }
        await context.close();
      }
    }
    // twelve pages × two widths × two languages: minutes on a busy machine (159 s seen)
  }, 300_000);

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.requests.length).toBeGreaterThan(10);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });
});
