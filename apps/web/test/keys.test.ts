// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '@directory/server/test/helpers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, expectAccessible, launch, MISSING, Watch, WIDTHS } from './browser.ts';

/** With UPDATE_DOCS_SCREENSHOTS=1 into docs/screenshots (docs/keys-and-limits.md shows them). */
const SHOTS =
  process.env.UPDATE_DOCS_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : `${ARTIFACTS}keys-`;
const WAIT = { timeout: 10_000 };

/**
 * Named keys in the console (docs/keys-and-limits.md#named-keys-and-scopes): sign in with a named key, what
 * it may not do, the Keys page.
 */
describe('keys in the web console (Chromium)', () => {
  let s: TestServer;
  let browser: Browser | undefined;
  const watch = new Watch();
  const stamp = Date.now();
  const slug = `keyed-${stamp}`;
  const keys: Record<string, string> = {};

  const makeKey = async (name: string, scopes: string[]) => {
    const made = await s.call('POST', '/api/keys', { body: { name, scopes } });
    expect(made.status).toBe(201);
    keys[name] = made.json.data.key;
  };

  beforeAll(async () => {
    s = await startServer({ postgres: false });
    await makeKey('ana-curator', ['curate', 'tasks:read']);
    await makeKey('bob-curator', ['curate']);
    await makeKey('ops-admin', ['keys:admin']);
    const upsert = await s.call('POST', '/api/webhook/projects', {
      body: {
        projects: [
          {
            name: `密钥项目 ${stamp}`,
            nameEn: `Keyed ${stamp}`,
            description: '一个用于测试具名密钥的项目。',
            descriptionEn: 'A project to try named keys with.',
            tags: [{ name: '测试', nameEn: 'Testing' }],
            links: [{ type: 'CODEHOST', url: `https://github.com/keys-${stamp}/p` }],
          },
        ],
      },
    });
    expect(upsert.status).toBe(200);
    browser = await launch();
    mkdirSync(SHOTS.endsWith('/') ? SHOTS : ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const open = async (path: string, locale = 'en-US') => {
    const context = await watch.context(browser!, { locale });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.baseUrl });
    const page = await context.newPage();
    await page.goto(s.baseUrl + path);
    return page;
  };
  /** Signs in from the header's link: the sign-in page, then back to `path`. */
  const signIn = async (page: Page, key: string) => {
    await page.locator('.top-actions').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in with your key' }).waitFor(WAIT);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Continue' }).click();
  };
  const header = (page: Page) => page.locator('.top-actions .key-name');

  it('signs in with a personal key: the header shows its name, and an edit records it', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open(`/projects/${slug}`);
    await signIn(page, keys['ana-curator']!);
    await page.getByRole('heading', { name: 'You are signed in as ana-curator' }).waitFor(WAIT);
    expect(await header(page).innerText()).toContain('ana-curator');
    expect(await page.locator('.scopes-may-not').innerText()).toContain('keys:admin');

    // an edit from the console is recorded under the key's name
    await page.goto(`${s.baseUrl}/projects/${slug}/edit`);
    await page.getByLabel('English description').fill('Edited by Ana in the console.');
    // meanwhile Bob saves with his own key: Ana's save meets Bob's name in the conflict box
    const bob = await s.call('PATCH', `/api/projects/${slug}`, {
      key: keys['bob-curator']!,
      body: { contentEn: 'Bob was here.' },
    });
    expect(bob.status).toBe(200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.locator('.conflict');
    await conflict.waitFor(WAIT);
    expect(await conflict.innerText()).toContain('Changed by bob-curator at');
    await conflict.getByRole('button', { name: 'Save mine over theirs' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved as revision \d+\./ })
      .waitFor(WAIT);
    const revisions = (await s.call('GET', `/api/projects/${slug}/revisions`)).json.revisions;
    expect(revisions[0]).toMatchObject({ via: 'edit', actor: 'ana-curator', key: { name: 'ana-curator' } });
    expect(revisions[1]).toMatchObject({ actor: 'bob-curator', key: { name: 'bob-curator' } });

    // what the key may not do is said before any click
    expect(await page.locator('nav').getByRole('link', { name: 'Keys' }).count()).toBe(0);
    await page.goto(`${s.baseUrl}/queue`);
    const note = page.locator('.scope-note[data-scope="tasks:write"]');
    await note.waitFor(WAIT);
    expect(await note.innerText()).toBe(
      'Your key (ana-curator) cannot add, retry or work tasks: it lacks tasks:write.',
    );
    expect(await page.locator('.add-tasks').count()).toBe(0);
    await page.goto(`${s.baseUrl}/keys`);
    await page.locator('.scope-note[data-scope="keys:admin"]').waitFor(WAIT);
    expect(await page.locator('.key-create').count()).toBe(0);
    await page.goto(`${s.baseUrl}/webhooks`);
    expect(await page.locator('.scope-note[data-scope="webhooks:manage"]').innerText()).toBe(
      'Your key (ana-curator) cannot manage webhooks: it lacks webhooks:manage.',
    );
    await shoot(page, 'scope-note');

    // signing out: the header offers to sign in again, and public pages still read
    await page.locator('.top-actions').getByRole('button', { name: 'Sign out' }).click();
    await page.locator('.top-actions').getByRole('link', { name: 'Sign in' }).waitFor(WAIT);
    // the page asks for a key again, without saying a key was refused
    await page.getByRole('heading', { name: 'This page needs the API key' }).waitFor(WAIT);
    expect(await page.locator('.key-prompt .notice.error').count()).toBe(0);
    await page.goto(`${s.baseUrl}/projects/${slug}`);
    await page.getByRole('link', { name: 'Edit' }).waitFor(WAIT);
    await page.context().close();
  });

  it('a project page without curate says so instead of offering Edit', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    await makeKey('feed-reader', ['changes:read']);
    const page = await open(`/projects/${slug}`, 'zh-CN');
    await page.locator('.top-actions').getByRole('link', { name: '登录' }).click();
    await page.getByLabel('API 密钥').fill(keys['feed-reader']!);
    await page.locator('.key-prompt button[type="submit"]').click();
    await page.getByRole('heading', { name: '你已用 feed-reader 登录' }).waitFor(WAIT);
    await page.goto(`${s.baseUrl}/projects/${slug}`);
    const note = page.locator('.scope-note[data-scope="curate"]');
    await note.waitFor(WAIT);
    expect(await note.innerText()).toContain('你的密钥（feed-reader）不能编辑');
    expect(await page.getByRole('link', { name: '编辑' }).count()).toBe(0);
    expect(await page.locator('.lock button').count()).toBe(0);
    await page.context().close();
  });

  it('the Keys page: create (shown once, copied), list, rotate with a grace period, revoke', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    const page = await open('/keys');
    await page.locator('.key-prompt input[type="password"]').fill(keys['ops-admin']!);
    await page.locator('.key-prompt button[type="submit"]').click();
    await page.getByRole('heading', { name: 'Keys', exact: true }).waitFor(WAIT);
    expect(await header(page).innerText()).toContain('ops-admin');
    await page.locator('nav').getByRole('link', { name: 'Keys' }).waitFor(WAIT);

    await page.getByLabel('Name').fill('acme-integration');
    await page.getByLabel('changes:read').check();
    await page.getByLabel('webhooks:manage').check();
    // an expiry and a limit of its own: the API's messages show as other errors do, the form kept
    const form = page.locator('.key-create');
    const create = page.getByRole('button', { name: 'Create key' });
    const error = form.locator('.notice.error');
    await page.getByLabel('Requests').fill('600');
    await create.click();
    // half a limit: the browser asks for the window before anything is sent
    expect(
      await page
        .getByLabel('Window (seconds)')
        .evaluate((e) => (e as HTMLInputElement).validity.valueMissing),
    ).toBe(true);
    expect(await error.count()).toBe(0);
    await page.getByLabel('Window (seconds)').fill('60');
    await page.getByLabel('Requests').fill('2000000');
    await page.getByLabel('Expires (optional)').fill('2020-01-01T09:30');
    await create.click();
    await error.waitFor(WAIT);
    expect(await error.locator('.error-details').innerText()).toMatch(
      /^rateLimit\.requests: Too big: .*1000000/,
    );
    await page.getByLabel('Requests').fill('600');
    await create.click();
    await error.filter({ hasText: 'expiresAt: Must be in the future' }).waitFor(WAIT);
    expect(await page.getByLabel('Name').inputValue()).toBe('acme-integration');
    const expiry = '2030-03-01T12:00';
    await page.getByLabel('Expires (optional)').fill(expiry);
    await create.click();
    const shown = page.locator('.key-create .key-value');
    await shown.waitFor(WAIT);
    const made = await shown.innerText();
    expect(made).toMatch(/^dir_[1-9A-HJ-NP-Za-km-z]{40,}$/);
    expect(await page.locator('.key-create .new-key').innerText()).toContain('you will not see it again');
    await page.locator('.key-create').getByRole('button', { name: 'Copy' }).click();
    await page.locator('.key-create').getByRole('button', { name: 'Copied' }).waitFor(WAIT);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(made);
    // the key works for its scopes
    expect((await s.call('GET', '/api/changes?limit=1', { key: made })).status).toBe(200);

    const row = page.locator('tr', { has: page.getByRole('rowheader', { name: 'acme-integration' }) });
    await row.waitFor(WAIT);
    expect(await row.innerText()).toContain('changes:read');
    expect(await row.innerText()).toContain(made.slice(0, 12));
    expect(await row.locator('.key-state').innerText()).toBe('active');
    expect(await error.count()).toBe(0);
    // the form is empty again; the key has the expiry (the browser's local time) and the limit
    expect(await page.getByLabel('Expires (optional)').inputValue()).toBe('');
    expect(await page.getByLabel('Requests').inputValue()).toBe('');
    const expiresAt = await page.evaluate((local) => new Date(local).toISOString(), expiry);
    const self = (await s.call('GET', '/api/keys/self', { key: made })).json.data;
    expect(self).toMatchObject({ expiresAt, rateLimit: { requests: 600, windowSeconds: 60 } });
    expect(await row.locator('.key-rate-limit').innerText()).toBe('600 per 60 s');
    expect(await row.locator('.key-expires time').getAttribute('datetime')).toBe(expiresAt);
    expect(await row.locator('.key-expires').innerText()).toContain('2030');
    const bobRow = page.locator('tr', { has: page.getByRole('rowheader', { name: 'bob-curator' }) }).first();
    expect(await bobRow.locator('.key-rate-limit').innerText()).toBe('server default');
    expect(await bobRow.locator('.key-expires').innerText()).toBe('never');
    expect(await page.locator('.keys').innerText()).not.toContain(made);

    // rotate bob's key, keeping the old one for an hour
    // by id: the new key's row, newest, comes first once the list is refreshed
    const bobId = await page
      .locator('tr', { has: page.getByRole('rowheader', { name: 'bob-curator' }) })
      .getAttribute('data-key');
    const bob = page.locator(`tr[data-key="${bobId}"]`);
    await bob.getByRole('button', { name: 'Rotate bob-curator' }).click();
    await bob.getByLabel('The old key keeps working for').selectOption({ label: 'one hour' });
    await bob.getByRole('button', { name: 'Rotate', exact: true }).click();
    const next = page.locator('.rotated .key-value');
    await next.waitFor(WAIT);
    const rotated = await next.innerText();
    expect(await page.locator('.rotated').innerText()).toContain('The key for bob-curator.');
    expect(rotated).toMatch(/^dir_/);
    await bob
      .locator('.key-state')
      .filter({ hasText: /^works until / })
      .waitFor(WAIT);
    expect((await s.call('GET', '/api/keys/self', { key: keys['bob-curator']! })).status).toBe(200);
    expect((await s.call('GET', '/api/keys/self', { key: rotated })).json.data.name).toBe('bob-curator');
    await shoot(page, 'keys');

    // revoke, after a confirmation
    await row.getByRole('button', { name: 'Revoke acme-integration' }).click();
    await row.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await row
      .locator('.key-state')
      .filter({ hasText: /^revoked$/ })
      .waitFor(WAIT);
    expect((await s.call('GET', '/api/changes?limit=1', { key: made })).status).toBe(401);
    await page.context().close();
  });

  it('sent no request off the origin, and no page threw', async (ctx) => {
    if (!browser) return ctx.skip(MISSING);
    expect(watch.elsewhere(new URL(s.baseUrl).origin)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });

  /** A page at both widths: axe, no horizontal scroll, a screenshot. */
  async function shoot(page: Page, name: string) {
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
  }
});
