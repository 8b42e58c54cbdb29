// Takes the README's and docs' screenshots of the web UI: a game of two computers on 8 spots,
// paused part-way, at a desktop and at a phone viewport.
//
//   SPROUTS_BIN=target/release/sprouts node tests-browser/screenshots.js [OUT_DIR]
//
// OUT_DIR defaults to docs/. Not a test: run it by hand when the page's look changes.
"use strict";
const path = require("node:path");
const H = require("./harness");

const OUT = path.resolve(process.argv[2] || path.join(H.ROOT, "docs"));
const VIEWS = [
  { name: "web-ui.png", viewport: { width: 1280, height: 760 } },
  { name: "web-ui-phone.png", viewport: { width: 390, height: 844 }, context: { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
];
const MOVES = 12;

async function shoot(browser, url, view) {
  const page = await H.openPage(browser, url, view.viewport, { context: view.context });
  await page.selectOption("#pace", "0").catch(() => {});
  await H.newGame(page, { spots: 8, players: ["random", "random"] });
  await page.waitForFunction(n => window.sprouts.state.k >= n || window.sprouts.state.over, MOVES, { timeout: 300000 });
  // Pause, then wait until the picture shows the last move drawn.
  if (await page.isVisible("#b-menu")) await page.click("#b-menu");
  await page.click("#b-pause");
  if (await page.isVisible("#b-menu")) await page.keyboard.press("Escape");
  await page.waitForFunction(() => !window.sprouts.state.busy && window.sprouts.settled(), null, { timeout: 120000 });
  await page.waitForTimeout(500);
  const file = path.join(OUT, view.name);
  await page.screenshot({ path: file });
  const k = await page.evaluate(() => window.sprouts.state.k);
  console.log(`${file}: ${view.viewport.width}x${view.viewport.height}, ${k} moves`);
  await page.context().close();
}

(async () => {
  const server = await H.startServer();
  const browser = await H.launch();
  try {
    for (const view of VIEWS) await shoot(browser, server.url, view);
  } finally {
    await browser.close();
    H.stopServer(server);
  }
})().catch(e => { console.error(e); process.exit(1); });
