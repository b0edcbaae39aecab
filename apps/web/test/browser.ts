import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

export { launchChromium as launch, MISSING } from '../../../test-support/chromium.ts';

/** Screenshots of every page at two widths: test artifacts, not committed (.gitignore). */
export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));
export const WIDTHS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } } as const;

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Every request of every page, and every page error, of the contexts made here: the tests check at
 * the end that no request left the origin and that no page threw.
 */
export class Watch {
  readonly requests: string[] = [];
  readonly problems: string[] = [];

  async context(
    browser: Browser,
    options: { locale?: string; width?: keyof typeof WIDTHS } = {},
  ): Promise<BrowserContext> {
    const context = await browser.newContext({
      locale: options.locale ?? 'en-US',
      viewport: WIDTHS[options.width ?? 'desktop'],
    });
    context.on('request', (request) => this.requests.push(request.url()));
    context.on('page', (page) => this.page(page));
    return context;
  }

  page(page: Page) {
    page.on('websocket', (socket) => this.requests.push(socket.url()));
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
  }

  /** URLs of requests to anywhere but `origin` (data: URLs are not requests to a host). */
  elsewhere(origin: string): string[] {
    return this.requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
  }
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core, run inside the page (injected through the DevTools protocol: the page's CSP allows no inline script). */
export async function axe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe.run;
    const result = await run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations;
}

export async function expectAccessible(page: Page, label: string) {
  const serious = (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${label}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Nothing wider than the screen: the page does not scroll sideways, and nothing `selector` names
 * (null: nothing more) leaves it. Each test names what it checks (its controls, its boxes).
 */
export async function fitsScreen(page: Page, label: string, selector: string | null) {
  const [scroll, inner, out] = await page.evaluate((selector) => {
    const width = window.innerWidth;
    const outside = [...(selector ? document.querySelectorAll(selector) : [])]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.left < 0 || box.right > width + 0.5);
      })
      .map((el) => el.outerHTML.slice(0, 80));
    return [document.documentElement.scrollWidth, width, outside] as const;
  }, selector);
  expect(scroll, `${label} scroll width`).toBeLessThanOrEqual(inner);
  expect(out, `${label}: off-screen`).toEqual([]);
}
