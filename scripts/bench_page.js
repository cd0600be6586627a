#!/usr/bin/env node
// The page's speed as a user sees it: wall time of a preset's four-experiment suite (the Run
// buttons of experiments 1-4, every seed) in headless Chromium, from the first click to the moment
// the page shows every run ended, and the main thread's longest task meanwhile (a
// PerformanceObserver of 'longtask': the tasks over 50 ms). The last section of `npm run bench`
// (scripts/bench.sh).
//   node scripts/bench_page.js [dist-dir]      serves dist/ (or dist-dir) on a free port
//   BENCH_PRESET=article                       the Article preset (default quick)
//   BENCH_SUITE=all                            Run all (every experiment but real words) in place
//                                              of the four experiments' Run buttons
//   BENCH_PROFILE=file.cpuprofile              also writes the main thread's CPU profile of the
//                                              suite (DevTools' format), to find a long task's code
//   WOLAB_BENCH_SMOKE=1                        a smoke run (scripts/test.sh): experiment 1 only,
//                                              to check that the benchmark runs; no figure to read
// Prints one JSON line: {"bench":"page","preset":"quick","suite":"four","runs":12,"experiment_runs":27,
// "workers":2,"hardware_concurrency":2,"seconds":..,"longest_task_ms":..,"tasks_over_100_ms":..,
// "chromium":"..","load1":[start,end]}.
// `runs` counts trained runs: the page trains a (variant, seed) that several experiments share
// once; `experiment_runs` counts the rows of the four run tables. load1 is the machine's 1-minute
// load average before and after (a shared machine makes the figure noisy).
// Exit 1, with a one-line reason, when a run diverged (Run all: failed), failed or stopped, the page threw, or the
// suite took longer than $BENCH_PAGE_TIMEOUT seconds (default 600).
'use strict';

const os = require('os');
const path = require('path');
const { chromium } = require('@playwright/test');
const { start } = require('./serve.js');
const { CHROMIUM_ARGS } = require('./chromium-args.js');

const root = path.resolve(process.argv[2] || path.join(__dirname, '..', 'dist'));
const timeoutS = Number(process.env.BENCH_PAGE_TIMEOUT || 600);
const presetName = process.env.BENCH_PRESET || 'quick';
const smoke = process.env.WOLAB_BENCH_SMOKE === '1';
const runAll = !smoke && process.env.BENCH_SUITE === 'all';
const profileFile = process.env.BENCH_PROFILE || '';
// Run all's experiments are the page's (runAllNames): read from it once it has loaded.
let SUITE = smoke ? ['remove_wo'] : ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats'];
const LOAD_TIMEOUT_MS = 60_000;  // page and wasm engine ready, on a loaded machine

const log = (text) => process.stderr.write(`bench_page: ${text}\n`);

// In the page, before the click: notes the click's time and the first time the DOM shows the
// suite ended (the control bar idle, every experiment settled: its runs ended, its summary table
// and verdict made from them; no run queued or running), so the figure does not depend on how
// often this script polls. The page renders at most 4 times a second, so that moment is up to
// ~0.25 s after the last verdict: the time a user would see.
function watchSuite(names) {
  const bench = { clicked: 0, started: false, done: 0, tasks: [] };
  // The main thread's tasks over 50 ms from the click on (the page's own load is not the suite's).
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (bench.clicked && e.startTime >= bench.clicked && !bench.done) bench.tasks.push(e.duration);
  }).observe({ type: 'longtask' });
  window.wolabBench = bench;
  const controls = document.getElementById('controls');
  // The suite's sections only: the others show recorded results, or nothing when dist/ has none.
  const sections = names.map((n) => document.getElementById(`exp-${n}`));
  const ended = () => controls.dataset.state === 'idle'
    && sections.every((s) => s.dataset.state === 'settled')
    && !document.querySelector('.runs-table tr[data-status="queued"], .runs-table tr[data-status="running"]');
  document.addEventListener('click', (e) => {
    if ((e.target.classList.contains('run') || e.target.id === 'run-all') && !bench.clicked) bench.clicked = performance.now();
  }, true);
  new MutationObserver(() => {
    if (!bench.clicked || bench.done) return;
    if (controls.dataset.state === 'running') bench.started = true;
    if (bench.started && ended()) bench.done = performance.now();
  }).observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-state', 'data-status'] });
}

// Every row of the run tables, and the page's worker pool size (its own poolSize()). A row's
// `text` is its Status cell, found by the column's header: the columns differ between tables
// (a learning-rate sweep adds one; recorded and imported runs have no rate or model columns).
async function readResults(page) {
  return page.evaluate(async () => {
    const { poolSize } = await import(new URL('runs/runner.js', location.href).href);
    const { t } = await import(new URL('i18n/i18n.js', location.href).href);
    const rows = [...document.querySelectorAll('section.experiment .runs-table')].flatMap((table) => {
      const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
      const status = heads.indexOf(t('colStatus'));
      return [...table.querySelectorAll('tbody tr')].map((tr) => ({
        experiment: tr.closest('section.experiment').dataset.exp,
        variant: tr.cells[0]?.textContent ?? '',
        seed: tr.cells[1]?.textContent ?? '',
        status: tr.dataset.status,
        text: tr.cells[status]?.textContent ?? '?',
      }));
    });
    return { rows, workers: poolSize(), hardwareConcurrency: navigator.hardwareConcurrency };
  });
}

async function bench(browser, url) {
  const page = await browser.newPage();
  let rejectOnError;
  const pageError = new Promise((_, reject) => { rejectOnError = reject; });
  pageError.catch(() => {});
  page.on('pageerror', (e) => rejectOnError(new Error(`the page threw: ${e.message}`)));
  page.on('console', (m) => {
    if (m.type() === 'error') log(`console error in the page: ${m.text()}`);
  });

  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: LOAD_TIMEOUT_MS }).catch(async () => {
    const engine = await page.locator('#engine').textContent().catch(() => '?');
    throw new Error(`the page was not ready within ${LOAD_TIMEOUT_MS / 1000} s (page: "${engine}")`);
  });
  if (presetName !== 'quick') {
    await page.evaluate(() => { document.getElementById('settings').open = true; });  // folded by default
    await page.selectOption('#preset', presetName);
  }
  const preset = await page.locator('#preset').inputValue();
  if (preset !== presetName) throw new Error(`the page shows preset "${preset}", not "${presetName}"`);

  if (runAll) {
    SUITE = await page.evaluate(async () => (await import(new URL('state/experiments.js', location.href).href)).runAllNames());
  }
  await page.evaluate(watchSuite, SUITE);
  const what = smoke ? 'experiment 1 (smoke run)' : runAll ? 'Run all' : 'four-experiment suite';
  log(`running the ${presetName} preset's ${what} (timeout ${timeoutS} s) ...`);
  let cdp = null;
  if (profileFile) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  // Clicked at once, so the page plans them together and shares their common runs.
  if (runAll) await page.click('#run-all');
  else await page.evaluate((names) => { for (const n of names) document.querySelector(`#exp-${n} .run`).click(); }, SUITE);
  // A Playwright TimeoutError becomes `message`; a page error ends the wait at once.
  const within = (promise, message) => Promise.race([pageError, promise]).catch(async (e) => {
    if (e.name !== 'TimeoutError') throw e;
    const progress = await page.locator('#overall-label').textContent().catch(() => '?');
    throw new Error(`${message} (page: "${progress}")`);
  });
  const startedBy = 5_000;
  await within(page.waitForFunction(() => window.wolabBench.started, null, { timeout: startedBy }),
    `the Run buttons started no runs within ${startedBy / 1000} s`);
  await within(page.waitForFunction(() => window.wolabBench.done > 0, null, { timeout: timeoutS * 1000, polling: 250 }),
    `the suite did not end within ${timeoutS} s`);
  const { clicked, done, tasks } = await page.evaluate(() => window.wolabBench);
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    require('fs').writeFileSync(profileFile, JSON.stringify(profile));
    log(`CPU profile: ${profileFile}`);
  }
  const { rows: all, workers, hardwareConcurrency } = await readResults(page);
  const rows = all.filter((r) => SUITE.includes(r.experiment));  // the others show recorded runs

  // Run all's learning-rate sweep trains rates at which runs may diverge: an outcome, not a fault.
  const bad = rows.filter((r) => r.status !== 'done' && !(runAll && r.status === 'diverged'));
  if (bad.length) {
    const list = bad.slice(0, 4).map((r) => `${r.experiment} ${r.variant} seed ${r.seed}: ${r.text}`);
    if (bad.length > 4) list.push('…');
    throw new Error(`${bad.length} of ${rows.length} runs did not finish: ${list.join('; ')}`);
  }
  return {
    preset,
    suite: runAll ? 'all' : smoke ? 'smoke' : 'four',
    runs: new Set(rows.map((r) => `${r.variant}/${r.seed}`)).size,
    experiment_runs: rows.length,
    workers,
    hardware_concurrency: hardwareConcurrency,
    seconds: Number(((done - clicked) / 1000).toFixed(2)),
    longest_task_ms: Math.round(Math.max(0, ...tasks)),
    tasks_over_100_ms: tasks.filter((ms) => ms > 100).length,
  };
}

async function main() {
  if (!(timeoutS > 0)) throw new Error(`BENCH_PAGE_TIMEOUT: "${process.env.BENCH_PAGE_TIMEOUT}" is not a number of seconds > 0`);
  const load0 = os.loadavg()[0];
  const server = await start({ root, port: 0 });
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
    const result = await bench(browser, server.url);
    const line = {
      bench: 'page', ...result, chromium: browser.version(),
      load1: [Number(load0.toFixed(2)), Number(os.loadavg()[0].toFixed(2))],
    };
    process.stdout.write(JSON.stringify(line) + '\n');
  } finally {
    if (browser) await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  log(e.message.split('\n')[0]);
  process.exit(1);
});
