// An experiment embedded as a blogger would: the copied snippet pasted into a page of another
// origin with a 700 px text column. The frame must stay exactly as tall as its content, before
// and after a run, and accept height messages only from W_o Lab's origin. Also the themes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { start } from '../../scripts/serve.js';
import { openPage, runAndWait, screenshot, untilAttribute } from './helpers.js';

// A blog page around the snippet. It is served from "localhost", the lab from "127.0.0.1":
// two origins, as for a real blog.
async function hostPage(snippet) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-host-'));
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html>
<html><head><meta charset="utf-8"><title>A blog post</title><link rel="icon" href="data:,">
<style>body { margin: 0; background: #fff; color: #222; font: 17px/1.6 Georgia, serif; }
.column { width: 700px; margin: 0 auto; padding: 24px 0; }</style></head>
<body><div class="column">
<h1>Does attention need W_o?</h1>
<p>Press Run below to train the models yourself.</p>
${snippet}
<p>The text of the post goes on below the experiment.</p>
</div></body></html>`);
  const server = await start({ root: dir, port: 0, host: '127.0.0.1' });
  const close = async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { url: `http://localhost:${server.port}/`, close };
}

// The iframe's size on the host page.
function measure(page) {
  return page.locator('iframe').evaluate((frame) => {
    const box = frame.getBoundingClientRect();
    return { frame: box.height, width: box.width };
  });
}

test('the copied snippet keeps a cross-origin iframe exactly as tall as its content, before and after a run', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const problems = await openPage(page);  // the Quick preset
  await page.locator('#exp-remove_wo button.copy-embed').click();
  const snippet = await page.locator('#embed-code').inputValue();
  expect(snippet).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?[^"]*embed=remove_wo[^"]*" [^>]*><\/iframe>\n<script src="http:\/\/127\.0\.0\.1:\d+\/embed\.js" async><\/script>$/);

  expect(problems).toEqual([]);  // the lab page, where the snippet was copied

  const host = await hostPage(snippet);
  const hostProblems = [];
  page.on('pageerror', (e) => hostProblems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') hostProblems.push(m.text()); });
  await page.setViewportSize({ width: 1000, height: 900 });
  // The recorded files the frame fetches: its own experiment's only. Requests of the lab page
  // opened above (its claims panel may still be fetching) are not the frame's.
  const recorded = [];
  page.on('request', (r) => {
    if (r.frame().parentFrame() && r.url().includes('/recorded/')) recorded.push(r.url().replace(/^.*\/recorded\//, ''));
  });
  await page.goto(host.url);
  const frame = page.frameLocator('iframe');
  await untilAttribute(frame.locator('body'), 'data-ready', 'true', 20_000);
  const inner = () => page.frames().find((f) => f !== page.mainFrame());
  const fit = async () => {
    const outer = await measure(page);
    const content = await inner().evaluate(() => ({
      height: document.documentElement.getBoundingClientRect().height,
      scrollsY: document.documentElement.scrollHeight > document.documentElement.clientHeight,
      scrollsX: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    }));
    return { ...content, frame: outer.frame, width: outer.width, gap: Math.abs(outer.frame - content.height) };
  };

  // Before a run: title, Run, settings line, the estimated time, "Open in W_o Lab" and the
  // recorded results, however tall they are (720 px is only the snippet's height for hosts
  // without embed.js); no control bar, no engine line. The recorded results and the estimate
  // come after the engine: the frame has its final height once both are drawn.
  await untilAttribute(frame.locator('#exp-remove_wo'), 'data-state', 'settled', 10_000);
  // Its own recording, and the preset's recorded analysis, which holds its verdict.
  expect(recorded.sort()).toEqual(['index.json', 'quick/analysis.json', 'quick/results.remove_wo.json']);
  await expect(frame.locator('#exp-remove_wo .estimate')).toHaveText(/^Estimated time: about \d+ to \d+ s/, { timeout: 10_000 });
  await expect.poll(async () => (await fit()).gap, { timeout: 10_000 }).toBeLessThanOrEqual(2);
  let now = await fit();
  expect(now.width).toBe(700);
  expect(now.scrollsY).toBe(false);
  expect(now.scrollsX).toBe(false);
  await expect(frame.locator('#exp-remove_wo button.run')).toBeEnabled();
  await expect(frame.locator('#exp-remove_wo .config-line')).toHaveText(/^Recorded natively with the same core .* may differ where a verdict is fragile\. reverse, d_model 16, 8 heads/);
  await expect(frame.locator('#exp-remove_wo .open-full')).toBeVisible();
  await expect(frame.locator('#controls')).toBeHidden();
  await expect(frame.locator('#engine')).toBeHidden();
  // No control is disabled, but the PNG button of a chart the page has not drawn yet (it draws
  // charts near the host's viewport only).
  const disabled = frame.locator('button:disabled:visible');
  const undrawn = frame.locator('figure[data-stale="true"] button:disabled:visible');
  await expect.poll(async () => (await disabled.count()) - (await undrawn.count())).toBe(0);
  // The frame is transparent: the blog's white shows through around the panel.
  expect(await inner().evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
  await screenshot(page, 'embed_host_before_run');
  // The recorded results are folded behind the experiment's question, as on the full page;
  // shown, the frame grows to hold them, again exactly.
  await expect(frame.locator('#exp-remove_wo')).toHaveAttribute('data-fold', 'folded');
  await expect(frame.locator('#exp-remove_wo .predict-question')).toBeVisible();
  const folded = now.frame;
  await frame.locator('#exp-remove_wo button.predict-show').click();
  await expect.poll(async () => (await measure(page)).frame, { timeout: 10_000 }).toBeGreaterThan(folded + 200);
  await expect.poll(async () => (await fit()).gap, { timeout: 10_000 }).toBeLessThanOrEqual(2);
  now = await fit();
  expect(now.scrollsY).toBe(false);
  const before = now.frame;

  // A message from the host's own origin is ignored: only W_o Lab's origin may resize the frame.
  await page.evaluate(() => window.postMessage({ type: 'wolab:height', version: 1, height: 5 }, '*'));
  await page.waitForTimeout(200);
  expect((await measure(page)).frame).toBe(before);

  await frame.locator('#exp-remove_wo button.run').click();
  await expect(frame.locator('#controls')).toBeVisible();  // Pause, Stop and progress while it runs
  await untilAttribute(frame.locator('#exp-remove_wo'), 'data-state', 'settled', 60_000);
  await expect(frame.locator('#exp-remove_wo .summary-table')).toBeVisible();
  await expect.poll(async () => (await fit()).gap, { timeout: 10_000 }).toBeLessThanOrEqual(2);
  now = await fit();
  expect(now.scrollsY).toBe(false);
  expect(now.scrollsX).toBe(false);
  await page.setViewportSize({ width: 1000, height: Math.ceil(now.frame) + 300 });
  await page.waitForTimeout(300);  // charts coming into view draw in the next frames
  await screenshot(page, 'embed_host_after_run');
  await host.close();
  expect(hostProblems).toEqual([]);
});

test('without embed.js the iframe keeps the snippet height and scrolls', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openPage(page);
  await page.locator('#exp-wo_heatmap button.copy-embed').click();
  const snippet = (await page.locator('#embed-code').inputValue()).split('\n')[0];  // the iframe alone
  const host = await hostPage(snippet);
  await page.goto(host.url);
  await untilAttribute(page.frameLocator('iframe').locator('body'), 'data-ready', 'true', 20_000);
  expect((await measure(page)).frame).toBe(720);
  await expect(page.frameLocator('iframe').locator('#exp-wo_heatmap button.run')).toBeVisible();
  await host.close();
});

// Light and dark: ?theme= forces one, prefers-color-scheme chooses otherwise; chart text and
// heatmap colours come from the theme.
for (const theme of ['light', 'dark']) {
  test(`the ${theme} theme: page, charts and heatmap in its colours`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    const problems = await openPage(page, '?embed=wo_heatmap&d_model=8&heads=2&layers=1&steps=40&probe_every=10&seeds=1');
    const section = await runAndWait(page, 'wo_heatmap');
    // A chart is drawn once near the viewport: bring the norms chart there first.
    const norms = page.locator('canvas[data-chart="norms-0"]');
    await norms.scrollIntoViewIfNeeded();
    await expect(norms.locator('xpath=ancestor::figure[1]')).not.toHaveAttribute('data-stale', 'true');
    const colours = await page.evaluate(() => {
      const css = getComputedStyle(document.documentElement);
      const chart = Chart.getChart(document.querySelector('canvas[data-chart="norms-0"]'));
      return {
        text: css.getPropertyValue('--chart-text').trim(),
        panel: getComputedStyle(document.querySelector('#exp-wo_heatmap')).backgroundColor,
        ticks: chart && chart.options.scales.x.ticks.color,
      };
    });
    expect(colours.ticks).toBe(colours.text);
    expect(colours.panel).toBe(theme === 'dark' ? 'rgb(24, 27, 32)' : 'rgb(255, 255, 255)');
    await screenshot(page, `theme_${theme}_embed_wo_heatmap`, section);

    // The full page, and ?theme= winning over the browser's preference.
    const other = theme === 'dark' ? 'light' : 'dark';
    await page.goto(`/?theme=${other}&d_model=8&heads=2&layers=1&steps=40&probe_every=10&seeds=1`);
    await untilAttribute(page.locator('body'), 'data-ready', 'true');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('#controls')).backgroundColor))
      .toBe(other === 'dark' ? 'rgb(24, 27, 32)' : 'rgb(255, 255, 255)');
    await runAndWait(page, 'remove_wo');
    await screenshot(page, `theme_${other}_page_remove_wo`, page.locator('#exp-remove_wo'));
    expect(problems).toEqual([]);
  });
}

test('a change of prefers-color-scheme while the page is open redraws the charts in the new colours', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const problems = await openPage(page, '?embed=remove_wo&d_model=8&heads=2&layers=1&steps=40&probe_every=10&seeds=1');
  await runAndWait(page, 'remove_wo');
  // A chart drawn before the runs had points has no lines until it next draws: null until then.
  const colours = () => page.evaluate(() => ['loss', 'accuracy'].map((name) => {
    const chart = Chart.getChart(document.querySelector(`canvas[data-chart="${name}"]`));
    const mean = chart && chart.data.datasets.find((d) => d.role === 'mean');
    return mean ? [chart.options.scales.y.ticks.color, mean.borderColor] : null;
  }));
  // Charts draw in a later frame than the run table: wait for the last runs' lines.
  await expect.poll(async () => (await colours()).map((c) => c && c[1])).toEqual(['#0072B2', '#0072B2']);  // learned, on a light panel
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(colours).toEqual([['#c9d1d9', '#56B4E9'], ['#c9d1d9', '#56B4E9']]);
  expect(problems).toEqual([]);
});

// A blog post with several embeds: their frames share one timing of this device (estimate.js),
// rather than each timing it while the others do, which made each read a fraction of the speed:
// one timing is kept for the tab, in its first frame of the lab's origin, and every frame's
// estimate comes from it. A frame draws once a reader scrolls to it (Chromium holds the frames
// of another site off screen).
test('several embeds on one page share one timing of the device for their estimates', async ({ page }) => {
  test.setTimeout(120_000);
  const base = `http://127.0.0.1:${process.env.WOLAB_E2E_PORT}`;  // the lab (playwright.config.js)
  const frames = ['remove_wo', 'freeze_wo', 'activation_stats'].map((name) => `<iframe src="${base}/?embed=${name}" width="700" height="600"></iframe>`);
  const host = await hostPage(frames.join('\n'));
  await page.goto(host.url);
  const labs = () => page.frames().filter((f) => f !== page.mainFrame());
  await expect.poll(() => labs().length).toBe(3);
  for (const f of labs()) {
    await (await f.frameElement()).scrollIntoViewIfNeeded();
    await f.waitForFunction(() => {
      const line = document.querySelector('section.experiment:not([hidden]) .estimate');
      return line && !line.hidden && /^Estimated time: about \d+ to \d+ s/.test(line.textContent);
    }, null, { timeout: 30_000, polling: 250 });
  }
  // One timing in the tab (the frames share Run all's config), held by the first frame.
  expect(await labs()[0].evaluate(() => [...window.wolabTimings.keys()].length)).toBe(1);
  for (const f of labs().slice(1)) expect(await f.evaluate(() => Object.hasOwn(window, 'wolabTimings'))).toBe(false);
  await host.close();
});
