import { existsSync } from 'node:fs';
import { type Browser, chromium, type LaunchOptions } from 'playwright-core';

// The one Chromium of the browser tests (apps/web/test, apps/server/test/docs-page.test.ts) and of
// bench/web.ts: Debian's browser driven by playwright-core.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// CI sets REQUIRE_BROWSER=1: there a missing browser fails the tests instead of skipping them.
export const REQUIRED = process.env.REQUIRE_BROWSER === '1';
export const MISSING = `no Chromium at ${CHROMIUM} (install chromium, or set CHROMIUM_PATH)`;

/** Headless, no sandbox, and nothing that talks to the network on its own. */
export const CHROMIUM_LAUNCH: LaunchOptions = {
  executablePath: CHROMIUM,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** The browser, or undefined where there is none (then a test skips; with REQUIRE_BROWSER=1 it fails). */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    if (REQUIRED) throw new Error(`REQUIRE_BROWSER=1, but ${MISSING}`);
    return undefined;
  }
  return chromium.launch(CHROMIUM_LAUNCH);
}
