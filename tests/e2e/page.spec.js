// The page around the experiments: loading, URL state, validation, language, embed mode,
// layout at phone width, play/pause/stop, a crashing worker, and main-thread responsiveness.
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { openPage, presets, query, runAndWait, screenshot, TIMED, TINY, untilAttribute } from './helpers.js';

const EXPERIMENTS = ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats', 'gain_vs_learning', 'lr_stability', 'real_words', 'wo_purpose'];

test('loads with no console errors, nothing off-origin, the Quick preset selected', async ({ page }) => {
  const problems = await openPage(page);
  await expect(page.locator('#engine')).toHaveText(/^Engine: \d+\.\d+\.\d+, wasm SIMD build, \d+ workers\.$/);
  await expect(page.locator('#preset')).toHaveValue('quick');
  const { quick } = await presets(page);
  await expect(page.locator('#s-d_model')).toHaveValue(String(quick.model.d_model));
  await expect(page.locator('#s-task')).toHaveValue(quick.task.name);
  // g2p needs the lexicon (settings(): needs_data), which the page loads when a run needs it.
  await expect(page.locator('#s-task option')).toHaveText(['copy', 'reverse', 'sort', 'g2p (words → sounds)']);
  await expect(page.locator('#s-steps')).toHaveValue(String(quick.train.steps));
  await expect(page.locator('#run-all')).toBeEnabled();
  for (const e of EXPERIMENTS) await expect(page.locator(`#exp-${e} button.run`)).toBeEnabled();
  // The experiment sections, copies of one template: in order, each a region named by its own
  // heading, with its own explanation.
  await expect(page.locator('section.experiment')).toHaveCount(EXPERIMENTS.length);
  for (const [i, e] of EXPERIMENTS.entries()) {
    const section = page.locator('section.experiment').nth(i);
    await expect(section).toHaveAttribute('id', `exp-${e}`);
    await expect(section).toHaveAttribute('data-exp', e);
    const title = await section.locator('h2').textContent();
    expect(title).toMatch(new RegExp(`^${i + 1} · `));
    await expect(page.getByRole('region', { name: title })).toHaveAttribute('id', `exp-${e}`);
    await expect(section.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
    for (const span of await section.locator('.explain span').all()) await expect(span).toHaveText(/\w{3}.*\./);
  }
  // Every setting is in the URL from the start.
  const url = new URL(page.url());
  for (const key of Object.keys(TINY)) expect(url.searchParams.has(key)).toBe(true);
  await screenshot(page, 'page_1280x800');
  expect(problems).toEqual([]);
});

test('settings round-trip through the URL', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  await page.locator('#settings > summary').click();
  await page.locator('#s-d_model').fill('16');
  await page.locator('#s-task').selectOption('reverse');
  await page.locator('#s-lr').fill('3e-3');
  await expect(page.locator('#preset')).toHaveValue('custom');
  const url = page.url();
  expect(new URL(url).searchParams.get('d_model')).toBe('16');
  expect(new URL(url).searchParams.get('task')).toBe('reverse');

  await page.goto(url);
  await untilAttribute(page.locator('body'), 'data-ready', 'true');
  await expect(page.locator('#s-d_model')).toHaveValue('16');
  await expect(page.locator('#s-task')).toHaveValue('reverse');
  await expect(page.locator('#s-lr')).toHaveValue('0.003');  // the same number, written plainly
  await expect(page.locator('#s-steps')).toHaveValue(String(TINY.steps));
  await expect(page.locator('#notices .notice.error')).toHaveCount(0);

  // Choosing a preset sets every field and is itself visible in the URL's values.
  const { article } = await presets(page);
  await page.locator('#settings > summary').click();
  await page.locator('#preset').selectOption('article');
  await expect(page.locator('#s-d_model')).toHaveValue(String(article.model.d_model));
  expect(new URL(page.url()).searchParams.get('d_model')).toBe(String(article.model.d_model));
  expect(problems).toEqual([]);
});

test('bad values in a link fall back to the preset with a message, never a crash', async ({ page }) => {
  // heads=7 divides none of the d_model values a preset could sensibly hold.
  const problems = await openPage(page, '?d_model=abc&heads=7&task=translate&seeds=2&lang=xx&embed=nope');
  const { quick } = await presets(page);
  expect(quick.model.d_model % 7).not.toBe(0);
  // One notice lists every problem, each under the setting's label, and what the page uses.
  const notices = page.locator('#notices .notice.error');
  await expect(notices).toHaveCount(1);
  await expect(notices.locator('.notice-text > p')).toHaveText('This link has 5 problems, so the page uses all settings of the Quick preset instead:');
  const items = notices.locator('li');
  await expect(items.filter({ hasText: 'Model width (d_model): “abc” was not understood (enter a whole number).' })).toHaveCount(1);
  await expect(items.filter({ hasText: 'Task: “translate” was not understood (use copy, reverse, sort, g2p).' })).toHaveCount(1);
  await expect(items.filter({ hasText: 'Language: “xx” was not understood (use en, zh); the page is in English.' })).toHaveCount(1);
  await expect(items.filter({ hasText: `Heads: d_model ${quick.model.d_model} is not divisible by heads 7;` })).toHaveCount(1);
  await expect(items.filter({ hasText: 'Embedded experiment: “nope” was not understood (use remove_wo, ' })).toHaveCount(1);
  await expect(page.locator('#s-d_model')).toHaveValue(String(quick.model.d_model));
  await expect(page.locator('#s-heads')).toHaveValue(String(quick.model.heads));
  await expect(page.locator('#s-task')).toHaveValue(quick.task.name);
  await expect(page.locator('#s-seeds')).toHaveValue(String(quick.seeds));  // the preset's, not a mix
  await expect(page.locator('#preset')).toHaveValue('quick');
  await expect(page.locator('#run-all')).toBeEnabled();
  await expect(page.locator('#exp-remove_wo')).toBeVisible();  // a bad embed value shows the whole page
  expect(problems).toEqual([]);
});

test('an invalid setting shows the validator message inline and disables Run until fixed', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  await page.locator('#settings > summary').click();
  await page.locator('#s-heads').fill('3');
  const message = page.locator('#err-heads');
  await expect(message).toHaveText(/^d_model 8 is not divisible by heads 3; /);  // the field names itself
  await expect(page.locator('#s-heads')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#s-heads')).toHaveAttribute('aria-describedby', 'err-heads help-heads');
  for (const e of EXPERIMENTS) await expect(page.locator(`#exp-${e} button.run`)).toBeDisabled();
  await expect(page.locator('#run-all')).toBeDisabled();
  await expect(page.locator('#config-errors')).toContainText('Fix the settings');
  await screenshot(page, 'invalid_setting', page.locator('#settings'));

  await page.locator('#s-lr').fill('fast');
  await expect(page.locator('#err-lr')).toHaveText('enter a number, e.g. 0.001 or 1e-3');
  await page.locator('#s-lr').fill('2');
  await expect(page.locator('#err-lr')).toHaveText(/^2 is out of range; /);

  await page.locator('#s-heads').fill('4');
  await page.locator('#s-lr').fill('0.01');
  await expect(message).toHaveCount(0);
  await expect(page.locator('#err-lr')).toHaveCount(0);
  for (const e of EXPERIMENTS) await expect(page.locator(`#exp-${e} button.run`)).toBeEnabled();
  expect(problems).toEqual([]);
});

test('language: ?lang=zh shows Chinese, the selector switches back and records it in the URL', async ({ page }) => {
  const problems = await openPage(page, query(TINY, { lang: 'zh' }));
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.locator('h1')).toHaveText('W_o 实验室');
  await expect(page.locator('#exp-remove_wo button.run')).toHaveText('运行');
  await expect(page.getByRole('region', { name: '1 · 去掉 W_o' })).toHaveAttribute('id', 'exp-remove_wo');
  await expect(page.locator('#exp-freeze_wo .explain span').last()).toHaveText(/冻结的随机 W_o/);
  await runAndWait(page, 'remove_wo');
  await expect(page.locator('#exp-remove_wo .sentence')).toHaveText(/^learned 对比 identity：/);
  // The settings line of the runs, in Chinese, the task's name too (TINY: copy, 2 heads, 2 layers).
  await expect(page.locator('#exp-remove_wo .config-line')).toContainText('复制 (copy)，d_model 8，2 个头，2 层，');
  await screenshot(page, 'remove_wo_zh', page.locator('#exp-remove_wo'));

  await page.locator('#lang').selectOption('en');
  await expect(page.locator('h1')).toHaveText('W_o Lab');
  await expect(page.locator('#exp-remove_wo .sentence')).toHaveText(/^learned against identity: /);
  await expect(page.locator('#exp-remove_wo th').first()).toHaveText('Variant');
  expect(new URL(page.url()).searchParams.get('lang')).toBe('en');
  expect(problems).toEqual([]);
});

// Every key the scripts pass to t() as a literal, and every data-i18n of index.html, has a text:
// a missing one would show its bare key on the page.
test('every text the page asks for exists', async ({ page }) => {
  const keys = new Set();
  for (const file of fs.readdirSync('web', { recursive: true }).filter((f) => f.endsWith('.js'))) {
    const text = fs.readFileSync(path.join('web', file), 'utf8');
    for (const m of text.matchAll(/\bt\(\s*'(\w+)'/g)) keys.add(m[1]);
    for (const m of text.matchAll(/\bt\([^()]*?\?\s*'(\w+)'\s*:\s*'(\w+)'/g)) keys.add(m[1]).add(m[2]);
  }
  for (const m of fs.readFileSync('web/index.html', 'utf8').matchAll(/data-i18n="(\w+)"/g)) keys.add(m[1]);
  expect(keys.size).toBeGreaterThan(150);
  await openPage(page, query(TINY));
  const missing = await page.evaluate(async (all) => {
    const { t } = await import('./i18n/i18n.js');
    return all.filter((k) => t(k) === k);
  }, [...keys]);
  expect(missing).toEqual([]);
});

// Each language has its texts in three files by area (web/i18n/<lang>-interface.js, -terms.js,
// -explanations.js): both languages must hold the same keys in each area, also those the page
// builds at run time from the core's tables (a setting's label, an experiment's title, a
// variant's gloss, a choice's name, a run's status), and no key is in two areas. Only the Chinese
// terms gloss the variant codes (v_learned: 可学习); English shows the code alone. The words of
// verdicts and reasons, and the settings' help, are the core's (tests/wasm/sentences-once.test.js).
test('both languages have the same texts, area by area, the core-built keys included', async ({ page }) => {
  await openPage(page, query(TINY));
  const { onlyEn, onlyZh, twice, missing } = await page.evaluate(async () => {
    const areas = ['interface', 'terms', 'explanations'];
    const load = async (lang) => Promise.all(areas.map(async (a) => (await import(`./i18n/${lang}-${a}.js`)).texts));
    const [en, zh] = [await load('en'), await load('zh')];
    const core = await globalThis.createWolab();
    const keys = [];
    for (const s of JSON.parse(core.settings())) {
      if (s.form) keys.push(`f_${s.key}`);
      if (s.form && s.choices) for (const c of s.choices) keys.push(`${s.key}_${c}`);
    }
    // Every experiment: the page loads the data real_words needs (web/state/data-files.js).
    const experiments = JSON.parse(core.experiments());
    for (const e of experiments) {
      keys.push(`${e.name}_title`, `${e.name}_question`, `${e.name}_ask`);
      for (const v of e.variants) keys.push(`vh_${v}`);
    }
    // The block diagram's variant switch: the variants of the experiment that compares a frozen
    // W_o (web/lesson/block-diagram.js), each with its button, its note under W_o and its formula's line.
    const compared = experiments.find((e) => e.frozen.length > 0 && !e.lr_sweep);
    for (const v of compared.variants) keys.push(`ds_${v}`, `dv_${v}`, `df_${v}`);
    // A state as runlist.js's statusText words it: statusDone for done.
    const codes = JSON.parse(core.codes());
    for (const state of codes.states) keys.push(`status${state[0].toUpperCase()}${state.slice(1)}`);
    const glosses = (k) => /^v_[a-z_]+$/.test(k);
    const all = (texts) => texts.flatMap((t) => Object.keys(t));
    return {
      onlyEn: areas.flatMap((a, i) => Object.keys(en[i]).filter((k) => !(k in zh[i])).map((k) => `${a}: ${k}`)),
      onlyZh: areas.flatMap((a, i) => Object.keys(zh[i]).filter((k) => !(k in en[i]) && !glosses(k)).map((k) => `${a}: ${k}`)),
      twice: [en, zh].flatMap((texts) => all(texts).filter((k, i, keys) => keys.indexOf(k) !== i)),
      missing: [...new Set(keys)].filter((k) => !all(en).includes(k) || !all(zh).includes(k)),
    };
  });
  expect(onlyEn).toEqual([]);
  expect(onlyZh).toEqual([]);
  expect(twice).toEqual([]);
  expect(missing).toEqual([]);
});

test('the browser language picks the default', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await openPage(page);
  await expect(page.locator('h1')).toHaveText('W_o 实验室');
  await context.close();
});

test('embed mode: one experiment without page chrome, and the iframe snippet that opens it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const problems = await openPage(page, query(TINY));
  await page.locator('#exp-wo_heatmap button.copy-embed').click();
  const snippet = await page.locator('#embed-code').inputValue();
  expect(snippet).toMatch(/^<iframe src="http:\/\/[^"]+\?[^"]*embed=wo_heatmap[^"]*" title="W_o Lab: 3 · Look inside W_o"/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
  const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');

  await page.goto(src);
  await untilAttribute(page.locator('body'), 'data-ready', 'true');
  await expect(page.locator('body')).toHaveClass(/embed/);
  for (const hidden of ['header', '#settings', 'footer', '#run-all', '#exp-remove_wo', '#exp-freeze_wo', '#exp-activation_stats']) {
    await expect(page.locator(hidden)).toBeHidden();
  }
  await expect(page.locator('#exp-wo_heatmap .open-full')).toBeVisible();
  expect(await page.locator('#exp-wo_heatmap .open-full').getAttribute('href')).not.toContain('embed=');
  await page.setViewportSize({ width: 800, height: 900 });
  await runAndWait(page, 'wo_heatmap');
  await expect(page.locator('#exp-wo_heatmap .heatmap canvas[data-layer="0"]')).toHaveAttribute('data-cols', '8');
  await screenshot(page, 'embed_wo_heatmap');
  expect(problems).toEqual([]);
});

test('at 390 px wide nothing overflows the page and every control is reachable', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const problems = await openPage(page, query(TINY));
  await runAndWait(page, 'remove_wo');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await expect(page.locator('#exp-remove_wo canvas[data-chart="loss"]')).toBeVisible();
  // Tab reaches the first Run button from the last setting.
  await page.locator('#settings > summary').click();
  await page.locator('#s-probe_every').focus();
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement.matches('#exp-remove_wo button.run'))) break;
  }
  expect(await page.evaluate(() => document.activeElement.matches('#exp-remove_wo button.run'))).toBe(true);
  await page.locator('#exp-remove_wo .runs-table').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(400);  // charts coming into view draw in the next frames
  await screenshot(page, 'page_390');
  expect(problems).toEqual([]);
});

test('pause holds every run, resume continues, stop ends them and marks their rows', async ({ page }) => {
  // The plans the page posts to its analysis worker (web/results/analysis.js): none for an estimate while
  // runs train or are paused, when there is nothing to time (web/runs/estimate.js, measureSpeed).
  await page.addInitScript(() => {
    window.planCalls = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, ...rest) {
      if (msg && msg.method === 'plan') window.planCalls++;
      return post.call(this, msg, ...rest);
    };
  });
  const problems = await openPage(page, query({ ...TINY, steps: 20000, seeds: 1 }));
  const readyAt = await page.evaluate(() => performance.now());
  const section = page.locator('#exp-remove_wo');
  await section.locator('button.run').click();
  const done = () => section.locator('.runs-table tbody tr .steps').allTextContents()
    .then((t) => t.map((s) => Number(s.split('/')[0])));
  await expect.poll(async () => Math.min(...(await done()))).toBeGreaterThan(0);

  await page.locator('#pause').click();
  await expect(page.locator('#controls')).toHaveAttribute('data-state', 'paused');
  await expect(page.locator('#pause')).toHaveText('Resume');
  await expect(section.locator('button.run')).toHaveText('Paused');  // not "Running…" while held
  await page.waitForTimeout(400);  // messages already in flight land
  const held = await done();
  await page.waitForTimeout(800);
  expect(await done()).toEqual(held);
  // Held past the moment the load's timing would have started (these settings show no
  // recordings, so it is due LOAD_SPEED_DELAY_MS after the engine is ready): nothing planned.
  const delay = await page.evaluate(async () => (await import('./runs/estimate.js')).LOAD_SPEED_DELAY_MS);
  await page.waitForFunction(([t, ms]) => performance.now() - t > ms + 300, [readyAt, delay]);
  expect(await page.evaluate(() => window.planCalls), 'plans for an estimate while runs trained or were paused').toBe(0);

  await page.locator('#pause').click();
  await expect(section.locator('button.run')).toHaveText('Running…');
  await expect.poll(async () => (await done())[0]).toBeGreaterThan(held[0]);
  await page.locator('#stop').click();
  await expect(page.locator('#controls')).toHaveAttribute('data-state', 'idle');
  await expect(section.locator('.runs-table tbody tr[data-status="stopped"]')).toHaveCount(2);
  await expect(section.locator('.runs-table tbody tr td').nth(4)).toHaveText(/^stopped at step \d+$/);
  await expect(section.locator('button.run')).toBeEnabled();
  expect(problems).toEqual([]);
});

test('a worker that crashes is reported in its run row and the page keeps working', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  const section = page.locator('#exp-remove_wo');
  // The pool's first workers are made with the page, before any Run, and end with their first batch.
  const training = () => page.workers().filter((w) => /\/worker\.js$/.test(w.url())).length;
  const size = await page.evaluate(async () => (await import(new URL('runs/runner.js', location.href).href)).poolSize());
  await expect.poll(training).toBe(size);
  await runAndWait(page, 'remove_wo');
  await expect.poll(training).toBe(0);
  await expect(section.locator('.runs-table tbody tr[data-status="done"]')).toHaveCount(4);
  // From now on the wasm script a new worker loads throws as it starts.
  await page.route('**/wolab.js', (route) => route.fulfill({
    contentType: 'text/javascript', body: 'throw new Error("simulated crash");',
  }));
  await section.locator('button.run').click();
  await untilAttribute(section, 'data-state', 'settled');
  const rows = section.locator('.runs-table tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(section.locator('.runs-table tbody tr[data-status="failed"]')).toHaveCount(4);
  await expect(rows.first().locator('td').nth(4)).toHaveText(/^failed: .*simulated crash/);
  await expect(page.locator('#controls')).toHaveAttribute('data-state', 'idle');

  // The pool replaced its workers: once the script loads again, runs work.
  await page.unroute('**/wolab.js');
  await runAndWait(page, 'remove_wo');
  await expect(section.locator('.runs-table tbody tr[data-status="done"]')).toHaveCount(4);
  expect(problems.filter((p) => !p.includes('simulated crash'))).toEqual([]);
});

// A task's CPU time on the page's main thread (Chromium's trace: RunTask's thread duration) is
// what the page controls; its wall time also counts every moment the OS gave the core to the
// workers or to other processes, which on a loaded 2-core machine says little about the page.
test('no main-thread task over 100 ms while all the experiments train', TIMED, async ({ page, browser }) => {
  test.setTimeout(120_000);
  // One learning rate for experiment 6: 6 variants × 2 seeds, and its 4 variants × 2 seeds unclipped.
  const problems = await openPage(page, query({ ...TINY, d_model: 16, heads: 4, steps: 200, seeds: 2, lrs: '0.01' }));
  await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline'] });
  await page.locator('#run-all').click();
  for (const e of EXPERIMENTS.filter((e) => e !== 'real_words')) {  // Run all: 1 to 6 and 8
    await untilAttribute(page.locator(`#exp-${e}`), 'data-state', 'settled', 60_000);
  }
  await page.waitForTimeout(300);  // the last throttled renders
  const events = JSON.parse((await browser.stopTracing()).toString('utf8')).traceEvents;
  const mains = events.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
  const tasksOf = (t) => events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.name === 'RunTask' && e.ph === 'X');
  const tasks = mains.map(tasksOf).sort((x, y) => y.length - x.length)[0];  // the busiest renderer: this page
  expect(tasks.length).toBeGreaterThan(100);
  const cpu = Math.max(...tasks.map((e) => e.tdur ?? e.dur)) / 1000;
  const wall = Math.max(...tasks.map((e) => e.dur)) / 1000;
  test.info().annotations.push({ type: 'longest main-thread task', description: `${cpu.toFixed(1)} ms CPU, ${wall.toFixed(1)} ms wall` });
  expect(cpu).toBeLessThan(100);
  await expect(page.locator('#overall-label')).toHaveText(/^\d+ of \d+ runs finished in [\d.]+ s$/);
  expect(problems).toEqual([]);
});

test('a browser without WASM SIMD gets the build without it, and it trains', async ({ page }) => {
  // Pretend the SIMD probe module does not validate, as in a browser without WASM SIMD.
  await page.addInitScript(() => {
    const validate = WebAssembly.validate;
    WebAssembly.validate = (bytes) => !new Uint8Array(bytes).includes(0xfd) && validate(bytes);
  });
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  const problems = await openPage(page, query(TINY));
  await expect(page.locator('#engine')).toContainText('wasm build without SIMD');
  await runAndWait(page, 'remove_wo');
  await expect(page.locator('#exp-remove_wo .runs-table tbody tr[data-status="done"]')).toHaveCount(4);
  expect(requested).toContain('/wolab-nosimd.wasm');
  expect(requested).not.toContain('/wolab.wasm');
  expect(problems).toEqual([]);
});

// npm start serves the page before the build without SIMD is made (scripts/start.sh): until it
// is there, such a browser gets one line that says so, not a loading error.
test('a browser without WASM SIMD, before its build is made, is told so in one line', async ({ page }) => {
  await page.addInitScript(() => {
    const validate = WebAssembly.validate;
    WebAssembly.validate = (bytes) => !new Uint8Array(bytes).includes(0xfd) && validate(bytes);
  });
  await page.route('**/wolab-nosimd.*', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
  await page.goto('/');
  await expect(page.locator('#engine')).toHaveText(/^This browser cannot run WebAssembly SIMD, and the engine built for such browsers is still being made on the server .*reload in a minute or two\.$/);
  await expect(page.locator('#engine')).toHaveClass(/error/);
  await page.goto('/?lang=zh');
  await expect(page.locator('#engine')).toHaveText(/^此浏览器不支持 WebAssembly SIMD/);
  await page.unrouteAll({ behavior: 'wait' });
});

// A run whose worker fails is in the results the page analyses, listed as failed (docs/results.md,
// "Failed runs"), and the claims it would have decided say so, in the core's words.
test('a run whose worker failed leaves its claims not decided, saying that a run failed', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, seeds: 3 }));
  const section = page.locator('#exp-remove_wo');
  await runAndWait(page, 'remove_wo');
  // From now on the first worker made loads the wasm script as usual, every later one crashes as it starts.
  let loads = 0;
  await page.route('**/wolab.js', (route) => (loads++ === 0 ? route.continue() : route.fulfill({
    contentType: 'text/javascript', body: 'throw new Error("simulated crash");',
  })));
  await section.locator('button.run').click();
  await untilAttribute(section, 'data-state', 'settled', 30_000);
  const failedRows = await section.locator('.runs-table tbody tr[data-status="failed"]').count();
  expect(failedRows).toBeGreaterThan(0);
  await expect(section.locator('.runs-table tbody tr[data-status="done"]')).not.toHaveCount(0);
  // The summary's row of claim 1 (learned against identity), then its evidence in the live column.
  const row = page.locator('#claims-body details[data-claim="1"]');
  await expect(row.locator(':scope > summary')).toContainText(`Not decided: ${failedRows} of the runs this needs failed to train (an error, not a result).`);
  await row.locator(':scope > summary').click();
  const cell = row.locator('td[data-source="live"]').first();
  await expect(cell.locator(':scope > .verdict')).toHaveText('not decided');
  await expect(cell.locator(':scope > .reason')).toHaveText(
    new RegExp(`^${failedRows === 1 ? '1 run failed' : `${failedRows} runs failed`}: the experiment did not train as planned \\(the first error: .*simulated crash`));
  await page.locator('#lang').selectOption('zh');
  await expect(row.locator(':scope > summary')).toContainText(`所需的运行中有 ${failedRows} 个训练失败`);
  await expect(cell.locator(':scope > .reason')).toContainText(`${failedRows} 个运行失败`);
  await page.unrouteAll({ behavior: 'wait' });
  expect(problems.filter((p) => !p.includes('simulated crash'))).toEqual([]);
});
