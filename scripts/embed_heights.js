// Measures how tall each experiment's embed frame is (docs/embed.md, "Height"): the page served
// from dist/ on 127.0.0.1, framed by a blog page on localhost with a 700 px text column
// (EMBED_WIDTH=360 for a phone's) and embed.js, in Debian's Chromium. Per experiment, the
// frame's height once the recorded results (the default preset's) are drawn and folded behind
// its question, then with them shown.
//   node scripts/embed_heights.js        (needs dist/ with its recordings: npm run build)
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('@playwright/test');
const { start } = require('./serve.js');

const root = path.resolve(__dirname, '..');
const WIDTH = Number(process.env.EMBED_WIDTH) || 700;  // the host's text column, px

async function main() {
  const lab = await start({ root: path.join(root, 'dist'), port: 0, host: '127.0.0.1' });
  const labUrl = `http://127.0.0.1:${lab.port}`;
  const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wolab-heights-'));
  const hostPage = (name) => `<!doctype html><html><head><meta charset="utf-8">
<style>body { margin: 0; font: 17px/1.6 Georgia, serif; } .column { width: ${WIDTH}px; margin: 0 auto; }</style></head>
<body><div class="column"><iframe src="${labUrl}/?embed=${name}" style="width:100%;height:720px;border:0"></iframe>
<script src="${labUrl}/embed.js" async></script></div></body></html>`;
  fs.writeFileSync(path.join(hostDir, 'index.html'), '');  // the server wants one at start
  const host = await start({ root: hostDir, port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: Math.max(1000, WIDTH + 40), height: 900 } });
    await page.goto(`${labUrl}/`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 30_000 });
    const names = await page.evaluate(async () => JSON.parse((await createWolab()).experiments()).map((e) => e.name));
    console.log(`frame ${WIDTH} px wide\n| experiment | folded (px) | shown (px) |`);
    for (const name of names) {
      fs.writeFileSync(path.join(hostDir, 'index.html'), hostPage(name));
      await page.goto(`http://localhost:${host.port}/`);
      const frame = page.frameLocator('iframe');
      await frame.locator(`body[data-ready="true"] #exp-${name}[data-state="settled"]`).waitFor({ timeout: 30_000 });
      // The frame's height, once it has stayed the same for half a second (charts and the
      // estimate draw after the results).
      const settled = async () => {
        let last = -1;
        for (;;) {
          await page.waitForTimeout(500);
          const h = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().height);
          if (h === last) return h;
          last = h;
        }
      };
      const folded = await settled();
      await frame.locator(`#exp-${name} button.predict-show`).click();
      const shown = await settled();
      console.log(`| \`${name}\` | ${folded} | ${shown} |`);
    }
  } finally {
    await browser.close();
    await lab.close();
    await host.close();
    fs.rmSync(hostDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
