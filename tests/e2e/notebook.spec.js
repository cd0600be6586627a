// An experiment leaves the page as a PyTorch notebook (each section's "Open as a notebook", and
// the embed's), in the page's language; the results file an executed notebook writes comes back
// labelled as PyTorch's (docs/notebooks.md).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { openPage, query, TINY, untilAttribute } from './helpers.js';

const CLI = path.resolve(process.env.WOLAB_CLI || 'build/wolab');
const RESULTS = path.resolve(process.env.WOLAB_NOTEBOOK_RESULTS || 'test-results/notebooks');

// The results file of remove_wo's notebook: the one tests/shell/notebooks.sh left (scripts/test.sh
// runs it first), else made here by executing a tiny notebook with nbclient.
function notebookResults() {
  const file = path.join(RESULTS, 'remove_wo.pytorch.json');
  if (fs.existsSync(file)) return file;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-notebook-'));
  execFileSync(CLI, ['notebook', '--experiment', 'remove_wo', '--d-model', '8', '--heads', '2', '--layers', '1',
    '--d-ff', '16', '--alphabet', '4', '--length', '3', '--batch', '8', '--heldout', '32', '--steps', '20',
    '--probe-every', '5', '--seeds', '2', '--out', path.join(dir, 'remove_wo.ipynb')], { stdio: 'pipe' });
  execFileSync('/usr/bin/python3', ['tests/shell/run_notebook.py', path.join(dir, 'remove_wo.ipynb')], { stdio: 'pipe' });
  return path.join(dir, 'remove_wo.pytorch.json');
}

// Clicks the section's "Open as a notebook" and returns the downloaded notebook, parsed.
async function downloadNotebook(page, section) {
  const [download] = await Promise.all([page.waitForEvent('download'), section.locator('button.notebook').click()]);
  expect(download.suggestedFilename()).toBe(`wolab-${await section.getAttribute('data-exp')}.ipynb`);
  return JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
}

const cellText = (nb, type) => nb.cells.filter((c) => c.cell_type === type).map((c) => c.source.join('')).join('\n');

test('a notebook\'s results file imports labelled as imported from PyTorch', async ({ page }) => {
  test.setTimeout(300_000);  // when it has to execute the notebook itself
  const file = notebookResults();
  const results = JSON.parse(fs.readFileSync(file, 'utf8'));
  const problems = await openPage(page);
  await page.locator('#import-file').setInputFiles(file);
  const section = page.locator('#exp-remove_wo');
  await expect(section.locator('.config-line')).toContainText(`Imported from PyTorch: remove_wo.pytorch.json (${results.created_by})`);
  await untilAttribute(section, 'data-state', 'settled');
  await expect(section.locator('.runs-table tbody tr')).toHaveCount(results.runs.length);
  await expect(section.locator('.sentence')).toHaveText(/^learned against identity: /);
  expect(problems).toEqual([]);
});

test('Open as a notebook downloads the section\'s experiment with the settings shown, in the page\'s language', async ({ page }) => {
  const problems = await openPage(page, query(TINY));
  const section = page.locator('#exp-freeze_wo');
  const en = await downloadNotebook(page, section);
  expect(en.nbformat).toBe(4);
  expect(en.metadata.wolab).toMatchObject({ experiment: 'freeze_wo', lang: 'en' });
  const code = cellText(en, 'code');
  expect(code).toContain('"d_model":8');
  expect(code).toContain('"steps":40');
  expect(code.match(/^\{"clip":1\.0,.*"variant":"frozen_random"\}$/gm)).toHaveLength(TINY.seeds);
  expect(cellText(en, 'markdown')).toContain('What is tested');

  await page.locator('#lang').selectOption('zh');
  const zh = await downloadNotebook(page, section);
  expect(zh.metadata.wolab.lang).toBe('zh');
  expect(cellText(zh, 'markdown')).toContain('检验什么');
  expect(cellText(zh, 'code')).toBe(code);
  expect(problems).toEqual([]);
});

test('the embed opens its experiment as a notebook too', async ({ page }) => {
  const problems = await openPage(page, query(TINY, { embed: 'remove_wo' }));
  const section = page.locator('#exp-remove_wo');
  await expect(section.locator('button.notebook')).toBeVisible();
  const nb = await downloadNotebook(page, section);
  expect(nb.metadata.wolab.experiment).toBe('remove_wo');
  expect(problems).toEqual([]);
});
