// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { MISSING, screenshot } from './browser.ts';
import { api, browser, close, enterKey, HOSTILE, open, s, WAIT, watch } from './console-setup.ts';

/**
 * The web console's queue and change feed in Chromium (docs/workers.md#watching-the-queue): the key
 * asked for first, the queue at 390 px, its counts, a retry, completions live, tasks added from pasted
 * lines, and the change feed live. Registered by console.test.ts in its describe block, on its server
 * and browser, in this order (the phone test needs no failed task yet; the next one makes one).
 */
export function queueCases(): void {
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
}
