#!/usr/bin/env node
// How soon `npm start` is useful on a fresh clone, as a new user meets it (docs/performance.md,
// "npm start from a fresh clone"): clones this checkout's HEAD into a new folder, runs `npm
// start` there (setup.sh included: npm ci; apt has nothing to install on a machine that ran it
// once), and prints the seconds from the start to
//   url        the URL printed (the SIMD module built, dist/ assembled)
//   ready      the page's engine ready in headless Chromium (body[data-ready])
//   quick      every claim of the Quick column shown from the recorded runs
//   article    the same for the Article column
//   nosimd     the module for browsers without WASM SIMD in place
//   lexicon    the lexicon of the real-words section in place
//   done       everything built and in place
// as one JSON line, then stops npm start and removes the clone.
//   node scripts/time-start.js [--keep]    --keep: leave the clone (its path is printed)
// Exit 1, with a one-line reason, when npm start fails or a step takes over 20 minutes.
'use strict';

const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');
const { chromium } = require('@playwright/test');
const { CHROMIUM_ARGS } = require('./chromium-args.js');

const LIMIT_MS = 20 * 60 * 1000;
const root = path.resolve(__dirname, '..');
const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-start-'));
const keep = process.argv.includes('--keep');
const fail = (why) => {
  console.error(`time-start: ${why}`);
  process.exitCode = 1;
};

async function main() {
  execFileSync('git', ['clone', '--quiet', root, clone]);
  const started = Date.now();
  const at = {};
  const mark = (name) => {
    if (!(name in at)) at[name] = Math.round((Date.now() - started) / 100) / 10;
  };
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const child = spawn('npm', ['start'], { cwd: clone, env: { ...process.env, PORT: port, HOST: '127.0.0.1' }, detached: true });
  const log = fs.createWriteStream(path.join(clone, 'time-start.log'));
  let url = null;
  const waiters = [];
  const seen = (line) => {
    log.write(`${((Date.now() - started) / 1000).toFixed(1)} ${line}\n`);
    const u = line.match(/W_o Lab: (http\S+)/);
    if (u) {
      url = u[1];
      mark('url');
    }
    if (/without WASM SIMD in place/.test(line)) mark('nosimd');
    if (/the lexicon .*in place/.test(line)) mark('lexicon');
    if (/everything built and in place/.test(line)) mark('done');
    waiters.forEach((w) => w());
  };
  readline.createInterface({ input: child.stdout }).on('line', seen);
  readline.createInterface({ input: child.stderr }).on('line', seen);
  let exited = null;
  child.on('exit', (code) => {
    exited = code;
    waiters.forEach((w) => w());
  });
  const until = (ok, what) => new Promise((resolve, reject) => {
    const check = () => {
      if (ok()) resolve();
      else if (exited !== null) reject(new Error(`npm start exited (${exited}) before ${what}; see ${clone}/time-start.log`));
      else if (Date.now() - started > LIMIT_MS) reject(new Error(`no ${what} within ${LIMIT_MS / 60000} minutes`));
      else return false;
      return true;
    };
    if (check()) return;
    const waiter = () => {
      if (check()) waiters.splice(waiters.indexOf(waiter), 1);
    };
    waiters.push(waiter);
    const timer = setInterval(() => {
      if (check()) clearInterval(timer);
    }, 500);
  });

  try {
    await until(() => url, 'URL');
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForSelector('body[data-ready="true"]', { timeout: LIMIT_MS });
      mark('ready');
      for (const preset of ['quick', 'article']) {
        await page.waitForFunction((p) => {
          const cells = document.querySelectorAll(`#claims-body tr[data-claim] td[data-preset="${p}"]`);
          return cells.length === 9 && [...cells].every((c) => c.dataset.source === 'recorded');
        }, preset, { timeout: LIMIT_MS, polling: 250 });
        mark(preset);
      }
    } finally {
      await browser.close();
    }
    await until(() => 'done' in at, 'the end of the background builds');
    console.log(JSON.stringify({ bench: 'start', seconds: at, cores: os.cpus().length, load1: os.loadavg()[0] }));
  } catch (e) {
    fail(e.message);
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    log.end();
    if (keep) console.error(`time-start: the clone is ${clone}`);
    else fs.rmSync(clone, { recursive: true, force: true });
  }
}

main().catch((e) => fail(e.message));
