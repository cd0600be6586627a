// The claims panel: every claim under each preset side by side, each cell saying where its
// results come from; the rules it links to; "running (k of n)" while a claim's runs train; a
// phone's width.
import { test, expect } from '@playwright/test';
import { openPage, query, routeIndex, screenshot, TINY, untilAttribute } from './helpers.js';

const cell = (page, claim, preset) => page.locator(`#claims-body tr[data-claim="${claim}"] td[data-preset="${preset}"]`);
// The presets' columns, as each claim's evidence (folded under its plain answer) names them (the
// columns of real words trained to the end natively follow them).
const heads = (page) => page.locator('#claims-body details[data-claim="1"] thead th[data-preset]:not([data-converged])');
// Unfolds a claim's evidence: one click on its plain answer.
const unfold = (page, claim) => page.locator(`#claims-body details[data-claim="${claim}"] > summary`).click();

// Every build has both presets recorded (recorded/presets/; npm start's page shows all of them,
// tests/e2e/fresh-start.spec.js): here the index lists only an Article recording of experiment 1
// (a CLI file of the fixtures, without a recorded analysis), so that the column shows both what is
// recorded and what is not.
async function withPartialArticleRecording(page) {
  await routeIndex(page, (index) => {
    index.presets.article = { remove_wo: 'results.remove_wo.json' };
    delete index.analyses?.article;
    delete index.models?.article;
    return index;
  });
  await page.route('**/recorded/article/results.remove_wo.json', (route) => route.fulfill({ path: 'tests/e2e/fixtures/cli.remove_wo.json' }));
}

test('on load: the article named, a column per preset, each cell tagged with where its results come from', async ({ page }) => {
  await withPartialArticleRecording(page);
  const problems = await openPage(page);
  const names = await page.evaluate(() => globalThis.createWolab().then((w) => w.presetNames()));
  expect(names).toEqual(['quick', 'article']);
  await expect(heads(page)).toHaveText(['Quick', 'Article']);
  await expect(page.locator('#claims .article-name cite')).toHaveText(/^从论文到代码：拆解Transformer多头注意力最后线性层的3个设计哲学/);
  await expect(page.locator('#claims .article-name')).toContainText('(“From paper to code:');
  const rows = page.locator('#claims-body tbody tr');
  await expect(rows).toHaveCount(9);
  // Quick: the recordings the sections show. Article: its recordings (fetched after the sections'
  // own analyses); with only experiment 1's, claims 1 and 2 are decided and the others are not
  // recorded.
  for (let id = 1; id <= 9; id++) {
    await expect(cell(page, id, 'quick')).toHaveAttribute('data-source', 'recorded');
    await expect(cell(page, id, 'quick').locator(':scope > .source-tag')).toHaveText('recorded natively with the same core');
    await expect(cell(page, id, 'quick').locator(':scope > .verdict')).toHaveText(/^(supported|partly supported|not supported|not tested with these settings|not decided)/);
  }
  for (const id of [1, 2]) {
    await expect(cell(page, id, 'article')).toHaveAttribute('data-source', 'recorded', { timeout: 20_000 });
  }
  await expect(cell(page, 1, 'article').locator(':scope > .figures a[href="#exp-remove_wo"]')).toHaveCount(1);
  for (const id of [3, 4, 5, 7]) await expect(cell(page, id, 'article').locator(':scope > .verdict')).toHaveText('not recorded here');
  // The verdict the sections' recordings give claim 1 is the Quick column's.
  await expect(cell(page, 1, 'quick').locator(':scope > .figures a')).toHaveAttribute('href', '#exp-remove_wo');
  // Claims 1 to 4 are judged again on real words, from the runs trained to the end (a column per
  // size); a preset's column points there, its recorded 400-step runs being section 7's short
  // version. The other claims are not judged on real words.
  for (let id = 1; id <= 9; id++) {
    const words = cell(page, id, 'quick').locator('.words-verdict');
    const converged = cell(page, id, 'converged').locator('.words-verdict');
    if (id > 4) { await expect(words).toHaveCount(0); await expect(converged).toHaveCount(0); continue; }
    await expect(words).toHaveAttribute('data-state', 'none');
    await expect(words).toHaveText('On real wordsjudged from the runs trained to the end (their columns); section 7 trains a short version');
    await expect(converged).toHaveAttribute('data-source', 'recorded');
    await expect(converged.locator('.words-label')).toHaveText('On real words');
    await expect(converged.locator('.verdict')).toHaveText(/^(supported|partly supported|not supported|not decided)/);
  }
  // The conclusion names where the toy tasks (Quick, the results shown) and real words trained to
  // the end agree and where they differ, as the cells say.
  const decided = (v) => v && v !== 'not_tested' && v !== 'not_decided';
  const verdicts = await page.evaluate(() => [1, 2, 3, 4].map((id) => {
    const td = (preset) => document.querySelector(`#claims-body tr[data-claim="${id}"] td[data-preset="${preset}"]`);
    return [td('quick').dataset.verdict, td('converged').querySelector('.words-verdict').dataset.verdict];
  }));
  const agree = [1, 2, 3, 4].filter((id, i) => decided(verdicts[i][0]) && decided(verdicts[i][1]) && verdicts[i][0] === verdicts[i][1]);
  const differ = [1, 2, 3, 4].filter((id, i) => decided(verdicts[i][0]) && decided(verdicts[i][1]) && verdicts[i][0] !== verdicts[i][1]);
  const conclusion = page.locator('#conclusion-text');
  if (!agree.length && !differ.length) await expect(conclusion).not.toContainText('On real words');
  else {
    await expect(conclusion).toContainText(/On real words trained to the end \(\d+ heads of width \d+, \d+ steps\)/);
    await expect(conclusion).toContainText(agree.length ? `agree on ${agree.length === 1 ? 'claim' : 'claims'} ${agree[0]}` : 'agree on no claim');
  }
  for (const id of differ) await expect(conclusion).toContainText(new RegExp(`differ on [^.]*\\b${id}\\b`));
  await screenshot(page, 'claims-load', page.locator('#claims'));
  await page.locator('#lang').selectOption('zh');
  await expect(heads(page)).toHaveText(['快速', '文章']);
  await expect(cell(page, 1, 'article').locator(':scope > .source-tag')).toHaveText('用同一内核本地原生录制');
  await page.unrouteAll({ behavior: 'wait' });
  expect(problems).toEqual([]);
});

test('each row links to its rule in the rules page the site ships', async ({ page }) => {
  const problems = await openPage(page);
  const response = await page.request.get('rules.html');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/html/);
  const link = page.locator('#claims-body tr[data-claim="5"] a.rule-link');
  await expect(link).toHaveAttribute('href', 'rules.html#claim-5');
  // Clicked once the row has its last cells: each new cell makes the row anew, and a click
  // between two makings can miss the link (seen once in about a hundred runs).
  await expect(cell(page, 5, 'quick')).toHaveAttribute('data-source', 'recorded');
  await expect(page.locator('#claims-body .v-running')).toHaveCount(0);  // none analysing
  await expect(page.locator('#claims-body')).not.toContainText('loading the recorded runs…');
  await unfold(page, 5);
  await link.click();
  await expect(page).toHaveURL(/\/rules\.html#claim-5$/);
  // The anchor sits in the rule's list item, which names the claim and the verdicts it can get.
  const rule = page.locator('li', { has: page.locator('[id="claim-5"]') }).first();
  await expect(rule).toContainText('The learned W_o is neither diagonal-dominant nor uniform');
  await expect(rule).toContainText('both_hold');
  await expect(page.locator('h2#the-claims')).toHaveText('The claims');
  await screenshot(page, 'rules-claim-5');
  expect(problems).toEqual([]);
});

test('while an experiment trains, the claims that read it say running (k of n); after Stop they do not', async ({ page }) => {
  // Settings of one's own (a link): their column follows the presets', which show their recordings.
  const problems = await openPage(page, query({ ...TINY, steps: 20000 }));
  await expect(heads(page)).toHaveText(['Quick', 'Article']);
  await expect(cell(page, 1, 'quick')).toHaveAttribute('data-source', 'recorded', { timeout: 10_000 });
  const section = page.locator('#exp-remove_wo');
  await section.locator('button.run').click();
  await expect(heads(page)).toHaveText(['Quick', 'Article', 'Custom']);
  await expect.poll(() => section.locator('.runs-table tbody tr .steps').first().textContent()
    .then((s) => Number(s.split('/')[0]))).toBeGreaterThan(0);
  const runs = await section.locator('.runs-table tbody tr').count();
  // Claims 1 and 2 read remove_wo first; claims 6, 8 and 9 prefer activation_stats, which has no
  // results with these settings, so they wait for remove_wo too.
  for (const id of [1, 2, 6, 8, 9]) {
    await expect(cell(page, id, 'custom')).toHaveText(new RegExp(`^running \\(0 of ${runs}\\) live$`));
    await expect(cell(page, id, 'custom')).toHaveAttribute('data-source', 'live');
  }
  for (const id of [3, 4, 5, 7]) await expect(cell(page, id, 'custom')).toHaveText('not run with these settings');
  await expect(cell(page, 1, 'quick')).toHaveAttribute('data-source', 'recorded');  // the presets' columns stay
  await screenshot(page, 'claims-running', page.locator('#claims'));
  await page.locator('#stop').click();
  await untilAttribute(section, 'data-state', 'settled', 10_000);
  // Runs stopped partway count for nothing: no verdict, and no "running" left behind.
  for (const id of [1, 2, 6]) {
    await expect(cell(page, id, 'custom')).not.toHaveText(/running/);
    await expect(cell(page, id, 'custom')).toHaveAttribute('data-verdict', /^(not_tested|not_decided)$/);
  }
  await screenshot(page, 'claims-stopped', page.locator('#claims'));
  expect(problems).toEqual([]);
});

test('Run all: a claim shows its verdict once the experiments it reads have settled, while others still run', async ({ page }) => {
  const problems = await openPage(page, query({ ...TINY, steps: 300 }));
  await page.locator('#run-all').click();
  await expect(cell(page, 7, 'custom')).toHaveText(/^running \(\d+ of \d+\) live$/);
  // Claim 1 reads remove_wo, whose runs are few; claim 7 the learning-rate sweep, the most.
  await page.waitForFunction(() => {
    const at = (id) => document.querySelector(`#claims-body tr[data-claim="${id}"] td[data-preset="custom"]`);
    return at(1).dataset.state === 'verdict' && at(7).dataset.state === 'running';
  }, null, { polling: 'raf', timeout: 30_000 });
  await expect(cell(page, 1, 'custom')).toHaveAttribute('data-source', 'live');
  await untilAttribute(page.locator('#controls'), 'data-state', 'idle', 60_000);
  for (let id = 1; id <= 9; id++) await expect(cell(page, id, 'custom')).toHaveAttribute('data-state', 'verdict', { timeout: 10_000 });
  expect(problems).toEqual([]);
});

test('360 px wide: the columns stack, nothing in the panel overflows', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const problems = await openPage(page);
  await expect(cell(page, 7, 'quick')).toHaveAttribute('data-source', 'recorded', { timeout: 10_000 });
  await unfold(page, 1);
  await page.locator('#claims').scrollIntoViewIfNeeded();
  const sizes = await page.evaluate(() => {
    const panel = document.getElementById('claims');
    const wrap = panel.querySelector('.table-wrap');
    return { page: document.documentElement.scrollWidth, panel: panel.scrollWidth - panel.clientWidth, wrap: wrap.scrollWidth - wrap.clientWidth };
  });
  expect(sizes.page).toBeLessThanOrEqual(360);
  expect(sizes.panel).toBeLessThanOrEqual(0);
  expect(sizes.wrap).toBeLessThanOrEqual(0);
  // Stacked: a row's cells one under another, each under its preset's name.
  const [quick, article] = await Promise.all(['quick', 'article'].map((p) => cell(page, 1, p).boundingBox()));
  expect(article.y).toBeGreaterThanOrEqual(quick.y + quick.height - 1);
  // Polled, as the checks of the page's text are: read once, it was found empty in a few runs
  // of many beside other tests, for a reason not found.
  await expect.poll(() => cell(page, 1, 'quick').evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Quick"');
  await screenshot(page, 'claims-phone-360', page.locator('#claims'));
  expect(problems).toEqual([]);
});
