// Playwright runs tests/e2e against dist/ (built by scripts/build-wasm.sh; WOLAB_DIST names
// another directory), served by scripts/serve.js, in Debian's /usr/bin/chromium: Playwright's
// own browser download is not available here, and nothing in this project downloads one.
'use strict';

const { execFileSync } = require('child_process');
const { defineConfig } = require('@playwright/test');
const { CHROMIUM_ARGS } = require('./scripts/chromium-args.js');

// Playwright loads this file in its main process and again in each worker; the port chosen
// in the main process is kept in the environment, which the workers inherit.
if (!process.env.WOLAB_E2E_PORT) {
  process.env.WOLAB_E2E_PORT = execFileSync(process.execPath, ['-e',
    "const s = require('net').createServer().listen(0, '127.0.0.1', () => {" +
    ' process.stdout.write(String(s.address().port)); s.close(); });',
  ]).toString();
}
const port = process.env.WOLAB_E2E_PORT;
const baseURL = `http://127.0.0.1:${port}/`;

module.exports = defineConfig({
  testDir: 'tests/e2e',
  // Playwright empties outputDir on each run (scripts/test.sh gives each of its runs its own);
  // screenshots that tests save elsewhere under test-results/ survive it.
  outputDir: process.env.WOLAB_E2E_OUT || 'test-results/e2e',
  // Pages train models in Web Workers: one test at a time on a 2-core machine, unless
  // WOLAB_E2E_WORKERS says otherwise (scripts/test.sh runs the untimed tests two at a time: most
  // of a test's time is spent waiting on the page, and two tests fill both cores).
  workers: Number(process.env.WOLAB_E2E_WORKERS || 1),
  timeout: 60_000,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: process.env.WOLAB_E2E_REPORT || 'test-results/e2e-report.json' }]],
  webServer: {
    command: 'node scripts/serve.js',
    env: { PORT: port, HOST: '127.0.0.1' },
    url: baseURL,
    reuseExistingServer: false,
    timeout: 15_000,
  },
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
});
