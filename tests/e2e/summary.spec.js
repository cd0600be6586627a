// The first screen that teaches: the diagram and the start of "What the runs found" on a desktop's
// first screen, every claim in one plain sentence under the article's three design philosophies
// (the core's words), the evidence one click away, the whole summary within a screen and a half;
// on a phone the diagram, Run and the first claim within two screens; 中文 and the dark theme; a
// live run relabels the answers.
import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { docScreenshot, openPage, query, TINY, untilAttribute } from './helpers.js';

const plain = (page) => page.locator('#claims-body details.claim > summary .plain');

// Waits until every claim's summary line has its verdict (the recorded analysis is in).
async function answered(page) {
  await expect(page.locator('#claims-body details.claim')).toHaveCount(9, { timeout: 10_000 });
  await expect(page.locator('#claims-body details.claim[data-state="verdict"]')).toHaveCount(9, { timeout: 10_000 });
}

// Its top and bottom in the page (not the viewport).
const extent = (locator) => locator.evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { top: r.top + scrollY, bottom: r.bottom + scrollY, height: r.height };
});

test('1280 × 800: the diagram, what W_o is for and the headline on the first screen, the whole summary within 1.5 screens', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const problems = await openPage(page);
  await answered(page);
  await expect(page.locator('#block-diagram svg')).toBeInViewport({ ratio: 1 });
  await expect(page.locator('#formula math')).toBeInViewport({ ratio: 1 });
  await expect(page.locator('#fusion-body')).toBeInViewport();
  // What W_o is for, under the diagram: the core's answer and a bar per variant, from a recording.
  await expect(page.locator('#purpose .pu-answer')).toBeInViewport({ ratio: 1 });
  // The committed real words trained to the end (recorded/purpose): learned and the controls of
  // mixing, gain and parameters.
  const purpose = JSON.parse(fs.readFileSync('recorded/purpose/manifest.json', 'utf8'));
  const drawn = JSON.parse(fs.readFileSync(`recorded/purpose/${purpose.figure[0]}/analysis.json`, 'utf8')).experiments[0];
  expect(await page.locator('#purpose .pu-bar').evaluateAll((bars) => bars.map((b) => b.dataset.variant)))
    .toEqual(['learned', 'block_diagonal', 'scalar_gain', 'identity_matched']);
  await expect(page.locator('#purpose .pu-source')).toHaveText(new RegExp(`^Recorded, real words trained natively \\(d_model ${drawn.run_config.model.d_model}, 5 seeds, ${drawn.run_config.train.steps} steps, learning rate ${drawn.run_config.train.lr}\\)`));
  await expect(page.locator('#claims-title')).toHaveText('What the runs found');
  await expect(page.locator('#claims-source')).toHaveText(/^From the runs recorded with the Quick preset \(3 seeds each/);
  await expect(page.locator('#claims-source')).toHaveAttribute('data-source', 'recorded');
  const summary = await extent(page.locator('#claims-body'));
  expect(summary.height, 'the summary of all claims, in px').toBeLessThanOrEqual(1.5 * 800);
  // The three philosophies, in the core's order, with the claims each groups.
  const groups = await page.evaluate(async () => JSON.parse((await createWolab()).codes()).claim_groups);
  const sections = page.locator('#claims-body section.claim-group');
  await expect(sections).toHaveCount(groups.length);
  for (const [i, g] of groups.entries()) {
    await expect(sections.nth(i)).toHaveAttribute('data-group', g.code);
    expect(await sections.nth(i).locator('details.claim').evaluateAll((ds) => ds.map((d) => Number(d.dataset.claim)))).toEqual(g.claims);
  }
  await expect(sections.nth(0).locator('h3')).toHaveText(/^Fusion/);
  // One plain sentence each, of at most 25 words, with its verdict's badge; the evidence folded.
  for (const text of await plain(page).allTextContents()) {
    expect(text.split(/\s+/).length, text).toBeLessThanOrEqual(25);
    expect(text).toMatch(/^\S.*[.)]$/);
  }
  await expect(page.locator('#claims-body summary .badge')).toHaveCount(9);
  for (const badge of await page.locator('#claims-body summary .badge').allTextContents()) {
    expect(badge).toMatch(/^(supported|partly supported|not supported|not decided|not tested with these settings)$/);
  }
  await expect(page.locator('#claims-body .claim-evidence').first()).toBeHidden();
  // Each row says what the article claims, in the core's words, before what the runs found; the
  // headline above them counts the verdicts.
  const said = await page.evaluate(async () => JSON.parse((await createWolab()).analysisWords('{"claims":[],"words_claims":[]}', 'en')).statements);
  const order = groups.flatMap((g) => g.claims);
  await expect(page.locator('#claims-body details.claim > summary .statement')).toHaveText(order.map((id) => `The article: ${said.find((s) => s.id === id).text}`));
  await expect(page.locator('#claims-body details[data-claim="1"] > summary .statement')).toBeVisible();
  // Each experiment that a claim reads first quotes that claim's statement, the same words.
  const sources = await page.evaluate(async () => JSON.parse((await createWolab()).codes()).claim_sources);
  for (const name of ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats', 'lr_stability']) {
    const quoted = sources.filter((c) => c.experiments[0] === name).map((c) => said.find((s) => s.id === c.id).text);
    expect(quoted.length, name).toBeGreaterThan(0);
    await expect(page.locator(`#exp-${name} .claim-quotes`)).toHaveText(quoted.join(' '));
  }
  await expect(page.locator('#claims-headline')).toHaveText(/^Of the article's 9 claims, these runs (support|partly support|do not support|decide none)[^.]*\.$/);
  await expect(page.locator('#claims-headline')).toBeInViewport({ ratio: 1 });
  // Strength in seeds: a claim 1 comparison counts the seeds a variant was ahead in.
  const dots = page.locator('#claims-body details[data-claim="1"] .seed-dots');
  await expect(dots).toHaveAttribute('aria-label', /^\d of 3 seeds$/);
  await expect(dots.locator('.dot')).toHaveCount(3);
  // A two-part claim (claim 6): a row of dots per part, each filled where its part held.
  const parts = page.locator('#claims-body details[data-claim="6"] .seed-dots');
  const [a, b] = (await parts.getAttribute('aria-label')).match(/^parts held in (\d) and (\d) of 3 seeds$/).slice(1).map(Number);
  await expect(parts.locator('.dot-row')).toHaveCount(2);
  expect(await parts.locator('.dot-row').evaluateAll((rows) => rows.map((r) => r.querySelectorAll('.dot.on').length))).toEqual([a, b]);
  await docScreenshot(page, 'first_screen_1280_en', null, 'on_load_quick_first_screen');

  // One click opens a claim's evidence: its figures, reason and rule, under every preset.
  await page.locator('#claims-body details[data-claim="1"] > summary').click();
  const evidence = page.locator('#claims-body details[data-claim="1"] .claim-evidence');
  await expect(evidence).toBeVisible();
  await expect(evidence.locator('th[data-preset]:not([data-converged])')).toHaveText(['Quick', 'Article']);
  await expect(evidence.locator('td[data-preset="quick"] > .figures')).toHaveText(/^\S/);
  await expect(evidence.locator('td[data-preset="quick"] > .reason')).toHaveText(/^\S.{10,}/);
  await expect(evidence.locator('a.rule-link')).toHaveAttribute('href', 'rules.html#claim-1');
  expect(problems).toEqual([]);
});

test('390 × 844: Run, the headline and the first finding on the first screen, the diagram after the findings', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const problems = await openPage(page);
  await answered(page);
  await expect(page.locator('#claims-headline')).toHaveText(/^Of the article's 9 claims/);
  for (const part of ['.statement', '.badge', '.plain']) {
    await expect(page.locator(`#claims-body details.claim > summary ${part}`).first()).toBeInViewport({ ratio: 1 });
  }
  await expect(page.locator('#claims-headline')).toBeInViewport({ ratio: 1 });
  await expect(page.locator('#block-diagram svg')).toHaveClass(/compact/);
  // On a phone the findings come first, the diagram right after them.
  const [claims, hero] = [await extent(page.locator('#claims')), await extent(page.locator('#lesson-top'))];
  expect(hero.top).toBeGreaterThan(claims.bottom);
  expect(hero.top - claims.bottom).toBeLessThanOrEqual(24);
  await expect(page.locator('#run-all')).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await docScreenshot(page, 'first_screen_390_en', null, 'first_screen_390_en');
  await page.locator('#claims').evaluate((el) => el.scrollIntoView());
  await docScreenshot(page, 'summary_390_en', null, 'summary_390_en');
  expect(problems).toEqual([]);
});

test('中文 and the dark theme: the picture, the switch and the summary in Chinese, coloured for the dark', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const problems = await openPage(page, '?lang=zh&theme=dark');
  await answered(page);
  await expect(page.locator('#hero-title')).toHaveText('W_o 在哪里：一个注意力块');
  await expect(page.locator('#variant-switch [data-variant="identity"]')).toHaveText('无 W_o（单位矩阵）');
  await expect(page.locator('#claims-title')).toHaveText('运行的发现');
  await expect(page.locator('#claims-body section.claim-group h3').first()).toHaveText(/[\u4e00-\u9fff]/);
  for (const text of await plain(page).allTextContents()) expect(text).toMatch(/[\u4e00-\u9fff]/);
  for (const text of await page.locator('#claims-body details.claim > summary .statement').allTextContents()) expect(text).toMatch(/^文章：.*[\u4e00-\u9fff]/);
  await expect(page.locator('#claims-headline')).toHaveText(/^文章的 9 个论断中，这些运行/);
  await expect(page.locator('#block-diagram svg [data-part="norm"] .bd-norm-label')).toHaveText('层归一化');
  // Dark: the panel, the diagram's words and W_o's box follow the theme's colours.
  const colours = await page.evaluate(() => {
    const css = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
    return { panel: css('#lesson-top', 'backgroundImage'), text: css('#block-diagram svg .bd-wo-note', 'fill'), wo: css('.bd-wo', 'stroke') };
  });
  expect(colours.text).toBe('rgb(230, 232, 235)');  // --fg of the dark theme
  expect(colours.wo).toBe('rgb(157, 147, 255)');    // --wo-out of the dark theme
  expect(colours.panel).toMatch(/rgb\(26, 30, 37\)/);
  await expect(page.locator('#claims-headline')).toBeInViewport({ ratio: 1 });
  await expect(page.locator('#purpose .pu-answer')).toHaveText(/[\u4e00-\u9fff]/);
  await docScreenshot(page, 'first_screen_1280_zh_dark', null, 'first_screen_1280_zh_dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await docScreenshot(page, 'first_screen_390_zh_dark', null, 'first_screen_390_zh_dark');
  await page.goto('/?lang=zh&theme=light');
  await untilAttribute(page.locator('body'), 'data-ready', 'true', 20_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await answered(page);
  await docScreenshot(page, 'first_screen_1280_zh', null, 'first_screen_1280_zh');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('#claims-headline')).toBeInViewport({ ratio: 1 });
  await expect(page.locator('#claims-body details.claim > summary .plain').first()).toBeInViewport({ ratio: 1 });
  await docScreenshot(page, 'first_screen_390_zh', null, 'first_screen_390_zh');
  expect(problems).toEqual([]);
});

test('after a live run the answers it decided say live, and the heading says whose runs they read', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  await page.locator('#exp-remove_wo button.run').click();
  await untilAttribute(page.locator('#exp-remove_wo'), 'data-state', 'settled', 30_000);
  const claim1 = page.locator('#claims-body details[data-claim="1"]');
  await expect(claim1).toHaveAttribute('data-source', 'live', { timeout: 10_000 });
  await expect(page.locator('#claims-source')).toHaveText(/^From your runs in this browser \(Custom settings, 2 seeds each\)\.$/);
  await expect(claim1.locator('summary .plain')).toHaveText(/^\S/);
  expect(problems).toEqual([]);
});
