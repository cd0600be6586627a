// The page reads well at every width: at 1280 px (a desktop), in the 700 px embed of each
// experiment and at 390 px (a phone), with the recorded Quick results on load and (700 and 390
// px) after a live tiny run, no element is wider than the box it sits in: no page-level horizontal scroll, no
// table wider than its column (scrollWidth <= clientWidth, so no table scrolls sideways), no
// caption cut off, and no word of a table split across two lines. With WOLAB_SCREENSHOTS=1 each
// section is saved as a screenshot under test-results/screenshots/; with WOLAB_DOCS_SCREENSHOTS=1
// layout_<width>.png, one per width, are copied to docs/screenshots/ as well.
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { openPage, query, screenshot, TINY, untilAttribute } from './helpers.js';

const EXPERIMENTS = ['remove_wo', 'freeze_wo', 'wo_heatmap', 'activation_stats', 'gain_vs_learning', 'lr_stability'];

// In the page: every place where something does not fit, as readable strings (none: []).
function misfits() {
  const out = [];
  const name = (el) => {
    const id = el.closest('[id]');
    return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}${id ? ` in #${id.id}` : ''}`;
  };
  // Shown to the eye: laid out, and not clipped away for screen readers only (.visually-hidden,
  // a stacked table's header row).
  const clipped = (el) => {
    for (let a = el; a; a = a.parentElement) if (getComputedStyle(a).clip !== 'auto') return true;
    return false;
  };
  const shown = (el) => el.getClientRects().length > 0 && !el.closest('.skip, [hidden]') && !clipped(el);
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const style = getComputedStyle(el);
    // A box that clips or scrolls its content sideways must not need to (a text field's own
    // text scrolls in it, as it should).
    if (style.overflowX !== 'visible' && !el.matches('input, textarea, select') && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name(el)} is ${el.scrollWidth} px wide inside ${el.clientWidth} px`);
    }
  }
  for (const table of document.querySelectorAll('table')) {
    if (!shown(table)) continue;
    const box = table.parentElement;
    const width = table.getBoundingClientRect().width;
    if (width > box.clientWidth + 1) out.push(`${name(table)} is ${Math.round(width)} px wide in a ${box.clientWidth} px column`);
    if (table.scrollWidth > table.clientWidth + 1) out.push(`${name(table)} scrolls: ${table.scrollWidth} > ${table.clientWidth}`);
    const caption = table.caption;
    if (caption && shown(caption) && caption.scrollWidth > caption.clientWidth + 1) out.push(`the caption of ${name(table)} is cut off`);
    // A word split over two lines gives its range two boxes on different lines. Words of
    // Latin letters, digits and marks only: Chinese text breaks between any two characters, and
    // a line may end at a hyphen ("diagonal-" / "dominant").
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!shown(node.parentElement)) continue;
      for (const m of node.data.matchAll(/[A-Za-z0-9_.()%×±<>=/+]{2,}/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(`"${m[0]}" breaks across lines in ${name(node.parentElement)}`);
      }
    }
  }
  return out;
}

// Every section of the page (or of the embed) in view one after the other, since offscreen
// sections skip layout (content-visibility: auto), each then checked and saved.
async function checkSections(page, label) {
  const sections = page.locator('body > header:visible, #controls:visible, #lesson-top:visible, #claims:visible, #path:visible, #settings:visible, section.experiment:visible, #conclusion:visible');
  const count = await sections.count();
  expect(count).toBeGreaterThan(0);
  const found = [];
  for (let i = 0; i < count; i++) {
    const section = sections.nth(i);
    const id = (await section.getAttribute('id')) || 'top';
    await screenshot(page, `layout_${label}_${id}`, section);
    await section.scrollIntoViewIfNeeded();
    found.push(...(await page.evaluate(misfits)));
  }
  expect([...new Set(found)]).toEqual([]);
}

// Shows each visible experiment's recorded results, folded behind its question on load.
async function showRecorded(page) {
  for (const name of EXPERIMENTS) {
    const show = page.locator(`#exp-${name}:visible button.predict-show`);
    if (await show.count()) await show.click();
  }
  for (const name of EXPERIMENTS) {
    const section = page.locator(`#exp-${name}:visible`);
    if (await section.count()) await untilAttribute(section, 'data-state', 'settled', 20_000);
  }
}

// Runs experiment `name` and checks it while its first run trains (the runs table then has its
// rate, status and model columns, and the status its time left), unless all its runs were
// trained already by an experiment before it (wo_heatmap's learned runs are remove_wo's), then
// waits for its verdict.
async function runChecked(page, name) {
  const section = page.locator(`#exp-${name}`);
  await section.scrollIntoViewIfNeeded();
  await section.locator('button.run').click();
  await page.waitForFunction((s) => s.dataset.state === 'settled' || s.querySelector('.runs-table tr[data-status="running"]'),
    await section.elementHandle(), { polling: 'raf', timeout: 20_000 });
  // A table shown for the first time is fitted before it is painted, and a change of it or of its
  // size in the next frame (web/views/tables.js): measured after that.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(await page.evaluate(misfits), `${name} while running`).toEqual([]);
  await untilAttribute(section, 'data-state', 'settled', 60_000);
  await expect(section.locator('.runs-table tbody tr[data-status="queued"], .runs-table tbody tr[data-status="running"]')).toHaveCount(0);
}

// The page's screenshot of one width, for docs/screenshots/.
function keep(label, id) {
  if (!process.env.WOLAB_DOCS_SCREENSHOTS) return;
  fs.copyFileSync(path.join('test-results', 'screenshots', `layout_${label}_${id}.png`), path.join('docs', 'screenshots', `layout_${label}.png`));
}

// At 1280 px the recorded results, which hold every table a run makes but the runs table, which
// the 390 px page and each 700 px embed check while they train.
for (const width of [1280, 390]) {
  test(`at ${width} px every section fits, with the recorded results${width < 700 ? ' and after a tiny run' : ''}`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    const problems = await openPage(page);
    await showRecorded(page);
    await checkSections(page, `${width}_recorded`);
    keep(`${width}_recorded`, 'exp-freeze_wo');
    if (width >= 700) {
      expect(problems).toEqual([]);
      return;
    }

    await page.goto('/' + query(TINY));
    await untilAttribute(page.locator('body'), 'data-ready', 'true', 20_000);
    for (const name of EXPERIMENTS) await runChecked(page, name);
    await checkSections(page, `${width}_run`);
    expect(problems).toEqual([]);
  });
}

for (const name of EXPERIMENTS) {
  test(`the 700 px embed of ${name} fits, with the recorded results and after a tiny run`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 700, height: 900 });
    const problems = await openPage(page, `?embed=${name}`);
    await showRecorded(page);
    await checkSections(page, `700_${name}_recorded`);
    if (name === 'freeze_wo') keep(`700_${name}_recorded`, `exp-${name}`);
    await page.goto('/' + query(TINY, { embed: name }));
    await untilAttribute(page.locator('body'), 'data-ready', 'true', 20_000);
    await runChecked(page, name);
    await checkSections(page, `700_${name}_run`);
    expect(problems).toEqual([]);
  });
}

test('the dark theme at 390 px fits as the light one does', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 900 });
  const problems = await openPage(page, '?theme=dark');
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await showRecorded(page);
  await checkSections(page, '390_dark');
  keep('390_dark', 'exp-activation_stats');
  expect(problems).toEqual([]);
});
