// The arguments Debian's /usr/bin/chromium is launched with, headless, by the page tests
// (playwright.config.js) and the page benchmark (scripts/bench_page.js).
'use strict';

// Playwright's own --disable-features list (playwright-core 1.65.1, chromiumSwitches), given
// again: Chromium keeps only the last --disable-features of its command line, so disabling one
// feature more means giving the whole list (tests/e2e/browser.spec.js fails on another
// Playwright version, whose list may differ).
const PLAYWRIGHT_DISABLED = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

// The address bar's two popups, which Chromium 156 preloads in a renderer process of their own
// for every window, and so for every test (a test's context opens a window of its own): about
// 2 CPU-seconds a test, a third of what the page tests spent (33 of them, two at a time: 264
// and 280 CPU-seconds with the popups, 178 and 207 without).
const OMNIBOX_POPUPS = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

module.exports = {
  PLAYWRIGHT_DISABLED,
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  CHROMIUM_ARGS: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run',
    `--disable-features=${[...PLAYWRIGHT_DISABLED, ...OMNIBOX_POPUPS].join(',')}`],
};
