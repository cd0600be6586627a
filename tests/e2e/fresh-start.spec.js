// The page as `npm start` serves it on a fresh clone, not the test build's dist/: assembled
// (scripts/assemble-dist.sh) from the SIMD module alone, before the native build has made the
// lexicon and before the module without SIMD is built, with the committed recordings of both
// presets (recorded/presets/) on it from the start; then given the lexicon and that module by
// scripts/place.sh without a reload, as scripts/start.sh does. Section 7 then works as on any
// build: its word box answers and its live Run trains.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { start } from '../../scripts/serve.js';
import { openPage, query, runAndWait, tableCells, TINY, untilAttribute } from './helpers.js';

const root = path.resolve('.');
const wasm = path.join(root, 'build-wasm');
const lexicon = path.join(root, 'build', 'data', 'cmudict-g2p.txt');
const VARIANTS = ['learned', 'identity', 'frozen_random', 'learned_identity_init'];

const script = (name, env) => execFileSync('bash', [path.join(root, 'scripts', name)], {
  cwd: root, env: { ...process.env, ...env }, encoding: 'utf8',
});

test('npm start\'s page on a fresh clone: both presets recorded from the start; the lexicon and the module without SIMD arrive while it is open, then section 7 answers and trains', async ({ page }) => {
  test.skip(!fs.existsSync(path.join(wasm, 'wolab-nosimd.wasm')) || !fs.existsSync(lexicon),
    'needs both wasm modules (scripts/build-wasm.sh) and the lexicon (scripts/build-native.sh)');
  test.setTimeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-start-'));
  const env = { WOLAB_DIST: path.join(dir, 'dist'), WOLAB_MADE: path.join(dir, 'made') };
  // The SIMD module alone, as npm start builds it first.
  const simdOnly = path.join(dir, 'build-wasm');
  fs.mkdirSync(simdOnly);
  for (const f of ['wolab.js', 'wolab.wasm']) fs.copyFileSync(path.join(wasm, f), path.join(simdOnly, f));
  script('assemble-dist.sh', { ...env, WOLAB_WASM_DIR: simdOnly, WOLAB_NATIVE_DIR: path.join(dir, 'no-native-build') });
  expect(script('place.sh', env)).toBe('');
  for (const f of ['cmudict-g2p.txt', 'wolab-nosimd.wasm', 'wolab-nosimd.js']) {
    expect(fs.existsSync(path.join(env.WOLAB_DIST, f)), f).toBe(false);
  }
  const server = await start({ root: env.WOLAB_DIST, port: 0, host: '127.0.0.1' });
  try {
    // The page asks whether the lexicon is there (a HEAD request) before it is: that 404, which
    // Chromium logs as a console error, is the only one expected.
    const missing = [];
    page.on('response', (r) => {
      if (r.status() === 404) missing.push(new URL(r.url()).pathname);
    });
    const problems = await openPage(page, server.url);
    for (const preset of ['quick', 'article']) {
      for (let id = 1; id <= 9; id++) {
        await expect(page.locator(`#claims-body tr[data-claim="${id}"] td[data-preset="${preset}"]`))
          .toHaveAttribute('data-source', 'recorded', { timeout: 30_000 });
      }
    }
    expect((await page.request.get(`${server.url}cmudict-g2p.txt`)).status()).toBe(404);

    // The native build and the module without SIMD are done.
    fs.mkdirSync(env.WOLAB_MADE, { recursive: true });
    fs.writeFileSync(path.join(env.WOLAB_MADE, 'native.done'), '');
    fs.writeFileSync(path.join(env.WOLAB_MADE, 'nosimd.done'), '');
    const placed = script('place.sh', { ...env, WOLAB_WASM_DIR: wasm });
    expect(placed).toContain('the lexicon (real words) in place');
    expect(placed).toContain('the module for browsers without WASM SIMD in place');
    expect((await page.request.get(`${server.url}wolab-nosimd.wasm`)).status()).toBe(200);

    // The open page's section 7, recorded from the start, now has its lexicon too.
    const section = page.locator('#exp-real_words');
    await expect(section.locator('.config-line')).toContainText('Recorded', { timeout: 30_000 });
    await untilAttribute(section, 'data-state', 'settled', 30_000);
    const show = section.locator('.predict-show');
    if (await show.count()) await show.click();
    const box = section.locator('.word-box');
    await box.scrollIntoViewIfNeeded();
    await untilAttribute(box, 'data-models', '4', 90_000);
    await box.locator('input').fill('knight');
    await box.locator('button[type="submit"]').click();
    await untilAttribute(box, 'data-state', 'answered', 60_000);
    await expect(box.locator('.word-dictionary')).toContainText('N AY T');
    const answers = (await tableCells(box.locator('.word-table'))).slice(1);
    expect(answers.map((r) => r[0])).toEqual(VARIANTS);
    expect(new Set(missing)).toEqual(new Set(['/cmudict-g2p.txt']));
    expect(problems.filter((p) => !/Failed to load resource: the server responded with a status of 404/.test(p))).toEqual([]);

    // A live run of section 7 (the lexicon fetched from this dist/), one tiny seed per variant.
    const live = await openPage(page, server.url + query({ ...TINY, seeds: 1 }));
    const trained = await runAndWait(page, 'real_words', 240_000);
    const rows = (await tableCells(trained.locator('.summary-table'))).slice(1);
    expect(rows.map((r) => r[0])).toEqual(VARIANTS);
    await expect(trained.locator('.runs-table tbody tr[data-status="done"]')).toHaveCount(4);
    expect(live).toEqual([]);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
