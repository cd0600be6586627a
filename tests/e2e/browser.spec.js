// The browser the page tests run in (scripts/chromium-args.js): Playwright's own disabled
// features kept, the address bar's popups not preloaded.
import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import chromiumArgs from '../../scripts/chromium-args.js';

const { PLAYWRIGHT_DISABLED } = chromiumArgs;
const playwright = JSON.parse(fs.readFileSync('node_modules/playwright-core/package.json', 'utf8'));

test('the list of Playwright\'s disabled features is that of the Playwright installed', () => {
  // chromium-args.js gives the list again (Chromium keeps only the last --disable-features);
  // another Playwright may disable other features: renew the list from its chromiumSwitches.
  expect(playwright.version, `renew PLAYWRIGHT_DISABLED (${PLAYWRIGHT_DISABLED.length} features) for this Playwright`).toBe('1.65.1');
});

test('a test\'s window preloads no address-bar popup beside its page', async ({ browser, page }) => {
  await page.goto('about:blank');
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  await cdp.detach();
  expect(targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => t.url)).toEqual([]);
  expect(targetInfos.some((t) => t.type === 'page')).toBe(true);
});
