// The first picture: one attention block with W_o picked out (block-diagram.js), the formula,
// the variant switch that redraws W_o, each part a link to the experiment that tests it, and
// beside it the fusion of the heads drawn from the recorded learned W_o (fusion-figure.js).
import { test, expect } from '@playwright/test';
import { openPage, presets, screenshot } from './helpers.js';

const drawing = (page) => page.locator('#block-diagram svg');

test('the diagram: every part drawn, the formula under it, and the variant switch redraws W_o', async ({ page }) => {
  const problems = await openPage(page);
  await expect(drawing(page)).toBeVisible();
  for (const part of ['heads', 'concat', 'wo', 'residual', 'norm', 'gradient']) {
    await expect(drawing(page).locator(`[data-part="${part}"]`)).toHaveCount(1);
  }
  // The switch offers the variants of the core's experiment that compares a frozen W_o, then the
  // controls of the one that separates W_o's jobs.
  const core = await page.evaluate(async () => JSON.parse((await createWolab()).experiments()));
  const compared = core.find((e) => e.frozen.length > 0 && !e.lr_sweep);
  const controls = core.find((e) => e.variants.includes('block_diagonal')).variants.filter((v) => !compared.variants.includes(v));
  expect(controls).toEqual(['block_diagonal', 'scalar_gain', 'identity_matched']);
  expect(await page.locator('#variant-switch button').evaluateAll((bs) => bs.map((b) => b.dataset.variant))).toEqual([...compared.variants, ...controls]);
  await expect(page.locator('#variant-switch button[aria-pressed="true"]')).toHaveText('learned');

  // learned: every head's slice wired to every output, W_o named, the formula ends in W^O.
  const wo = drawing(page).locator('[data-part="wo"]');
  await expect(drawing(page)).toHaveAttribute('data-variant', 'learned');
  await expect(wo.locator('.bd-mix')).toHaveCount(9);
  await expect(wo.locator('.bd-wire')).toHaveCount(0);
  await expect(wo.locator('.bd-lock')).toHaveCount(0);
  await expect(page.locator('#formula math msup')).toHaveText('WO');
  await expect(page.locator('#formula math')).toHaveText(/^MultiHead\(Q,K,V\)=Concat\(head1,…,headh\)WO$/);

  // identity: straight wires only, the box dashed, the formula multiplies by I.
  await page.locator('#variant-switch [data-variant="identity"]').click();
  await expect(drawing(page)).toHaveAttribute('data-variant', 'identity');
  await expect(page.locator('#variant-switch button[aria-pressed="true"]')).toHaveText('none (identity)');
  await expect(wo.locator('.bd-wire')).toHaveCount(3);
  await expect(wo.locator('.bd-mix')).toHaveCount(0);
  await expect(wo.locator('.bd-wo.absent')).toHaveCount(1);
  await expect(page.locator('#formula math msup')).toHaveCount(0);
  await expect(page.locator('#formula math')).toHaveText(/\)I$/);
  await screenshot(page, 'diagram_identity', page.locator('#lesson-top'));

  // frozen random: mixed, under a lock.
  await page.locator('#variant-switch [data-variant="frozen_random"]').click();
  await expect(wo.locator('.bd-lock')).toHaveCount(1);
  await expect(wo.locator('.bd-mix')).toHaveCount(9);
  await expect(wo.locator('.bd-wo.frozen')).toHaveCount(1);
  await expect(page.locator('#formula .bd-where')).toHaveText(/never trained/);
  await screenshot(page, 'diagram_frozen', page.locator('#lesson-top'));

  // identity at start: the straight wires, and the mixing it may learn, faint; no lock.
  await page.locator('#variant-switch [data-variant="learned_identity_init"]').click();
  await expect(wo.locator('.bd-wire')).toHaveCount(3);
  await expect(wo.locator('.bd-mix.faint')).toHaveCount(6);
  await expect(wo.locator('.bd-lock')).toHaveCount(0);

  // The controls: each head its own block and no mixing; one dial and no matrix; no W_o at all.
  await page.locator('#variant-switch [data-variant="block_diagonal"]').click();
  await expect(wo.locator('.bd-block')).toHaveCount(3);
  await expect(wo.locator('.bd-wire')).toHaveCount(3);
  await expect(wo.locator('.bd-mix')).toHaveCount(0);
  await expect(page.locator('#formula math msup')).toHaveText('WO');
  await page.locator('#variant-switch [data-variant="scalar_gain"]').click();
  await expect(wo.locator('.bd-dial')).toHaveCount(1);
  await expect(wo.locator('.bd-wo.absent')).toHaveCount(1);
  await expect(page.locator('#formula math')).toHaveText(/\)·g$/);
  await page.locator('#variant-switch [data-variant="identity_matched"]').click();
  await expect(wo.locator('.bd-wo.absent')).toHaveCount(1);
  await expect(page.locator('#formula .bd-where')).toHaveText(/wider|widened/);
  await screenshot(page, 'diagram_scalar_gain', page.locator('#lesson-top'));
  expect(problems).toEqual([]);
});

test('each part links to the experiment that tests it, and the link lands there', async ({ page }) => {
  const problems = await openPage(page);
  const core = await page.evaluate(async () => {
    const w = await createWolab();
    return { experiments: JSON.parse(w.experiments()), sources: JSON.parse(w.codes()).claim_sources };
  });
  const firstOf = (claim) => core.sources.find((c) => c.id === claim).experiments[0];
  // The claim each part stands for (block-diagram.js PARTS); W_o follows the variant shown.
  const expected = { heads: firstOf(9), concat: firstOf(5), residual: firstOf(8), norm: firstOf(6), gradient: firstOf(7) };
  for (const [part, name] of Object.entries(expected)) {
    await expect(drawing(page).locator(`[data-part="${part}"]`)).toHaveAttribute('href', `#exp-${name}`);
  }
  const comparing = (v) => core.experiments.find((e) => e.variants.length > 1 && e.variants.includes(v)).name;
  const wo = drawing(page).locator('[data-part="wo"]');
  await expect(wo).toHaveAttribute('href', `#exp-${comparing('learned')}`);
  await page.locator('#variant-switch [data-variant="frozen_random"]').click();
  await expect(wo).toHaveAttribute('href', `#exp-${comparing('frozen_random')}`);
  // Each link names its part and its experiment for a pointer's tooltip and a screen reader.
  await expect(wo.locator('title')).toHaveText(/^W_o: .*Tested in “2 · Freeze W_o”\.$/);

  // A click on a shape of the part (its box spans others' shapes).
  for (const [part, shape] of [['wo', '.bd-wo'], ['residual', '.bd-add'], ['gradient', '.bd-grad-label']]) {
    await page.evaluate(() => window.scrollTo(0, 0));
    const name = (await drawing(page).locator(`[data-part="${part}"]`).getAttribute('href')).slice(1);
    await drawing(page).locator(`[data-part="${part}"] ${shape}`).click();
    await expect(page).toHaveURL(new RegExp(`#${name}$`));
    await expect(page.locator(`#${name} h2`)).toBeInViewport();
  }
  expect(problems).toEqual([]);
});

test('the fusion of the heads, drawn from the recorded learned W_o against the identity', async ({ page }) => {
  const problems = await openPage(page);
  const { quick } = await presets(page);
  const body = page.locator('#fusion-body');
  await expect(body).toHaveAttribute('data-state', 'ready', { timeout: 10_000 });
  const [identity, learned] = [body.locator('.fu-panel').nth(0), body.locator('.fu-panel').nth(1)];
  const d = quick.model.d_model;
  // The identity: each output from exactly one head, one bar segment per output.
  await expect(identity.locator('rect')).toHaveCount(d);
  await expect(identity.locator('.fu-figure')).toHaveText('one head each (100%)');
  // The recorded learned W_o: its outputs draw on several heads.
  expect(await learned.locator('rect').count()).toBeGreaterThan(d);
  const share = Number((await learned.locator('.fu-figure').textContent()).match(/(\d+)%/)[1]);
  expect(share).toBeGreaterThan(0);
  expect(share).toBeLessThan(100);
  await expect(body.locator('.fu-key')).toHaveCount(quick.model.heads);
  await expect(body.locator('.fu-source')).toHaveText(`recorded Quick, seed ${quick.train.seed}, layer 1, step ${quick.train.steps}, from 3 · Look inside W_o`);
  await expect(body.locator('.fu-source a')).toHaveAttribute('href', '#exp-wo_heatmap');
  await screenshot(page, 'fusion', page.locator('#fusion'));
  expect(problems).toEqual([]);
});

test('while the recordings are being made the fusion says so, and fills in once they are there', async ({ page }) => {
  let recording = true;
  await page.route('**/recorded/index.json', async (route) => {
    if (recording) await route.fulfill({ json: { recording: true } });
    else await route.fallback();
  });
  const problems = await openPage(page);
  const body = page.locator('#fusion-body');
  await expect(body).toHaveAttribute('data-state', 'pending');
  await expect(body).toHaveText(/still being recorded/);
  recording = false;
  await expect(body).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
  expect(problems).toEqual([]);
});
