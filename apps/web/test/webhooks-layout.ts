// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what a person sees (innerText honours CSS)
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ARTIFACTS, expectAccessible, MISSING, screenshot } from './browser.ts';
import { browser, card, DOCS_SHOTS, enterKey, fits, hooks, open, WAIT } from './webhooks-console.ts';

/**
 * The console's webhooks at 390 and 1280 px in both languages, axe-clean: the list, the drawer of a
 * change and of a ping, a rotated secret and the edit form (docs/curation.md#webhooks-in-the-console).
 * Registered by webhooks.test.ts in its describe block, on its server and browser.
 */
export function layoutCases(): void {
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
}
