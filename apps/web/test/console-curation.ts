// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { expect, it } from 'vitest';
import { MISSING, screenshot } from './browser.ts';
import { browser, close, enterKey, open, s, WAIT } from './console-setup.ts';

/**
 * The web console's curation pages in Chromium (docs/curation.md): the search synonyms, duplicates
 * merged after a confirmation, and a project's history with a revert, its lock control and the
 * Deleted page's restore. Registered by console.test.ts in its describe block, on its server and
 * browser.
 */
export function curationCases(): void {
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
}
