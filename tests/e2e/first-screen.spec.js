// The page as a newcomer meets it: the first screen on a phone, damaged links, a suite stopped
// halfway, the keyboard alone, and the small things (PNG size, leaving mid-run, Chinese names).
import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { openPage, presets, query, runAndWait, screenshot, TINY, untilAttribute } from './helpers.js';

test('390 × 844: one sentence on the page, Run above the fold, settings folded with a summary', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const problems = await openPage(page);
  await expect(page.locator('.tagline')).toHaveText(/^W_o Lab trains a small Transformer in your browser.*\.$/);
  const run = await page.locator('#run-all').boundingBox();
  expect(run.y + run.height).toBeLessThanOrEqual(844);
  await expect(page.locator('#run-all')).toBeInViewport();
  await expect(page.locator('#settings')).not.toHaveAttribute('open', '');
  await expect(page.locator('#s-d_model')).toBeHidden();
  const { quick } = await presets(page);
  await expect(page.locator('#settings-summary')).toHaveText(new RegExp(`^Quick: ${quick.task.name}, d_model ${quick.model.d_model}, `));
  // The training rate, and the sweep's rates named as such (experiment 6), not six rates in a row.
  await expect(page.locator('#settings-summary')).toContainText(`, lr ${quick.train.lr} (the learning-rate sweep: ${quick.lr_stability.lrs.join(', ')}), `);
  await screenshot(page, 'first_screen_390x844');

  // Unfolded, every setting has its help under it, the core's (settings().help, the CLI's --help
  // in English), in the page's language.
  await page.locator('#settings > summary').click();
  const rows = await page.evaluate(async () => JSON.parse((await globalThis.createWolab()).settings()).filter((s) => s.form));
  await expect(page.locator('#settings-form .help')).toHaveText(rows.map((s) => s.help.en));
  await screenshot(page, 'settings_open_390', page.locator('#settings'));
  await page.locator('#lang').selectOption('zh');
  await expect(page).toHaveTitle('W_o 实验室');
  await expect(page.locator('#settings-form .help')).toHaveText(rows.map((s) => s.help.zh));
  for (const help of await page.locator('#settings-form .help').all()) await expect(help).toHaveText(/[\u4e00-\u9fff]/);
  expect(problems).toEqual([]);
});

test('a link whose d_model does not fit its heads names d_model and falls back to the whole preset', async ({ page }) => {
  const problems = await openPage(page, '?d_model=63&heads=4');
  const { quick } = await presets(page);
  const notice = page.locator('#notices .notice.error');
  await expect(notice).toHaveCount(1);
  await expect(notice.locator('.notice-text > p')).toHaveText(
    'This link has a setting the page cannot use, so the page uses all settings of the Quick preset instead:');
  await expect(notice.locator('li')).toHaveText([
    'Model width (d_model): d_model 63 is not divisible by heads 4; choose a d_model divisible by 4, such as 60 or 64.',
  ]);
  await expect(notice).toBeInViewport();  // in the control bar, where the reader is looking
  await expect(page.locator('#s-d_model')).toHaveValue(String(quick.model.d_model));
  await expect(page.locator('#s-heads')).toHaveValue(String(quick.model.heads));  // the preset's, not the link's 4
  await expect(page.locator('#preset')).toHaveValue('quick');
  await expect(page.locator('#config-errors')).toBeEmpty();
  await expect(page.locator('#run-all')).toBeEnabled();
  await screenshot(page, 'bad_link_notice');

  // Dismissed from the keyboard: the notice goes and focus lands on Run, not on <body>.
  await notice.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Enter');
  await expect(notice).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement.id)).toBe('run-all');
  expect(problems).toEqual([]);
});

test('when neither value of the link fits the other, the validator\'s one message is named and every setting is the preset\'s', async ({ page }) => {
  // 12 with 5 heads names heads.
  const problems = await openPage(page, '?d_model=12&heads=5&seeds=2');
  const { quick } = await presets(page);
  const items = page.locator('#notices .notice.error li');
  await expect(items).toHaveCount(1);
  await expect(items.nth(0)).toHaveText(/^Heads: d_model 12 is not divisible by heads 5; choose heads dividing d_model\.$/);
  await expect(page.locator('#s-d_model')).toHaveValue(String(quick.model.d_model));
  await expect(page.locator('#s-heads')).toHaveValue(String(quick.model.heads));
  await expect(page.locator('#s-seeds')).toHaveValue(String(quick.seeds));
  await expect(page.locator('#run-all')).toBeEnabled();
  expect(problems).toEqual([]);
});

test('Stop mid-suite says what finished, what stopped partway and what never started', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, steps: 20000, lrs: '0.01' }));
  await page.locator('#run-all').click();
  const remove = page.locator('#exp-remove_wo');
  await expect.poll(() => remove.locator('.runs-table tbody tr .steps').first().textContent()
    .then((s) => Number(s.split('/')[0]))).toBeGreaterThan(0);
  await page.locator('#stop').click();
  await expect(page.locator('#controls')).toHaveAttribute('data-state', 'idle');
  // 6 variants × 2 seeds are trained once each, experiment 6's 4 variants × 2 seeds at its one
  // unclipped rate, and experiment 8's 3 controls × 2 seeds; 2 workers were on 2 of them.
  const label = page.locator('#overall-label');
  await expect(label).toHaveText(/^Stopped: 0 of 26 runs finished; (\d+) stopped partway; (\d+) not started\.$/);
  const [, partway, notStarted] = (await label.textContent()).match(/; (\d+) stopped partway; (\d+) not started/);
  expect(Number(partway) + Number(notStarted)).toBe(26);
  expect(await page.locator('#overall-progress').evaluate((b) => b.value)).toBeLessThan(0.5);  // not a full bar
  // The run table redraws in a later frame, and only near the viewport: bring it there and wait.
  const cells = page.locator('#exp-freeze_wo .runs-table tbody tr td:nth-child(5)');
  await cells.first().scrollIntoViewIfNeeded();
  await expect.poll(async () => (await cells.allTextContents())
    .every((s) => /^(not started|stopped at step \d+)$/.test(s))).toBe(true);
  const statuses = await cells.allTextContents();
  expect(statuses.filter((s) => s === 'not started').length).toBeGreaterThan(0);
  await expect(remove.locator('.partial-line')).toHaveText(/^Not every run trained to its end: 0 of 4 runs finished; \d+ stopped partway/);
  await expect(remove.locator('.sentence')).toHaveText('Not enough finished runs to compare.');
  // A run stopped partway has the core's record of what it trained, which can be saved.
  await expect(remove.locator('.exports')).toBeVisible();
  // Stop disabled itself under the pointer's focus: focus went back to the Run that started it.
  expect(await page.evaluate(() => document.activeElement.id)).toBe('run-all');
  await screenshot(page, 'stopped_mid_suite', remove);
  expect(problems).toEqual([]);
});

test('keyboard only: Run within 5 Tabs, the skip link, one experiment run and its results saved', async ({ page }) => {
  // Long enough that focus can be seen on Stop while the runs train.
  const problems = await openPage(page, query({ ...TINY, steps: 3000, probe_every: 500 }));
  const active = () => page.evaluate(() => {
    const el = document.activeElement;
    return el === document.body ? 'body' : el.id || `${el.closest('section') ? el.closest('section').id + ' ' : ''}${el.className || el.tagName}`;
  });
  const stops = [];
  while (stops.length < 10 && stops[stops.length - 1] !== 'run-all') {
    await page.keyboard.press('Tab');
    stops.push(await active());
  }
  expect(stops[stops.length - 1]).toBe('run-all');
  expect(stops.length).toBeLessThanOrEqual(5);

  // The skip link is the first stop and leads to the experiments; the next Tab is the first Run.
  expect(stops[0]).toBe('skip');
  await page.reload();
  await untilAttribute(page.locator('body'), 'data-ready', 'true');
  await page.keyboard.press('Tab');
  await expect(page.locator('a.skip')).toBeInViewport();
  await page.keyboard.press('Enter');
  expect(await active()).toBe('experiments');
  await page.keyboard.press('Tab');
  expect(await active()).toBe('exp-remove_wo run primary');

  // Enter runs it; the Run button disables itself, and focus moves to Stop, then back to Run.
  await page.keyboard.press('Enter');
  await expect.poll(active).toBe('stop');
  const section = page.locator('#exp-remove_wo');
  await untilAttribute(section, 'data-state', 'settled', 30_000);
  await expect.poll(active).toBe('exp-remove_wo run primary');

  // On through the results by Tab to the results file, saved with Enter.
  let found = false;
  for (let i = 0; i < 40 && !found; i++) {
    await page.keyboard.press('Tab');
    found = await page.evaluate(() => document.activeElement.textContent === 'Results JSON');
  }
  expect(found).toBe(true);
  const [json] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(JSON.parse(fs.readFileSync(await json.path(), 'utf8')).experiment).toBe('remove_wo');
  expect(problems).toEqual([]);
});

test('chart PNGs are twice the chart size; leaving mid-run asks first; Chinese names', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, lang: 'zh' }));
  await expect(page).toHaveTitle('W_o 实验室');
  const section = await runAndWait(page, 'freeze_wo');
  await expect(section.locator('.runs-table tbody tr').first().locator('td').first()).toHaveText('learned（可学习）');
  await expect(section.locator('.variants li')).toHaveText([
    /^learned（可学习） — W_o 与模型其余部分一起训练/, /^identity（无 W_o） — /, /^frozen_random（冻结的随机矩阵） — /,
    /^learned_identity_init（从单位矩阵开始学习） — /,
  ]);
  await screenshot(page, 'freeze_wo_zh', section);

  const canvas = section.locator('canvas[data-chart="loss"]');
  await canvas.scrollIntoViewIfNeeded();
  await expect(canvas.locator('xpath=ancestor::figure[1]')).not.toHaveAttribute('data-stale', 'true');
  const width = await canvas.evaluate((c) => Chart.getChart(c).width);
  const [png] = await Promise.all([page.waitForEvent('download'), section.locator('figure').first().getByRole('button').click()]);
  const bytes = fs.readFileSync(await png.path());
  expect(bytes.readUInt32BE(16)).toBe(Math.floor(2 * width));  // IHDR width
  expect(await canvas.evaluate((c) => c.width)).toBe(Math.floor(width));  // the screen's own ratio after

  await page.locator('#settings > summary').click();
  await page.locator('#s-steps').fill('100000');
  await page.locator('#exp-activation_stats button.run').click();
  await expect(page.locator('#controls')).toHaveAttribute('data-state', 'running');
  const dialog = new Promise((resolve) => page.once('dialog', async (d) => {
    resolve(d.type());
    await d.dismiss();
  }));
  await page.close({ runBeforeUnload: true });
  expect(await dialog).toBe('beforeunload');
  expect(problems).toEqual([]);
});
