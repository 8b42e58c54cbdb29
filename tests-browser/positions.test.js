// End-to-end tests of starting from a position in a real browser (Debian's chromium via
// playwright-core): a GLOP position typed in the New game dialog is drawn and played on; text
// that is not a position, or not a picture, is refused with the reason and the game in play
// goes on.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const H = require("./harness");

const env = H.useServerAndBrowser();

/** Opens the New game dialog, types `position`, starts; returns the number of log lines and
 * errors before. */
async function startFrom(page, position, { red = "human" } = {}) {
  await page.click("#b-new");
  await page.fill("#n-position", position);
  await page.selectOption("#p0-who", "human");
  await page.selectOption("#p1-who", red);
  const before = await page.evaluate(() => [window.sprouts.log.length, window.sprouts.errors.length]);
  await page.click("#n-start");
  return before;
}

test("a typed position is drawn, played on, and undone no further than its start", { timeout: 120000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 3 });
  const [logs] = await startFrom(page, "0*2.1a1a", { red: "computer" });
  await page.waitForFunction(b => window.sprouts.log.slice(b).some(l => l.startsWith("game ")), logs, { timeout: 30000 });
  const st = await H.state(page);
  assert.equal(st.spots.length, 5, "two seeds and the three spots of the curve");
  assert.equal(st.curves.length, 2);
  assert.equal(st.k, 0);
  assert.equal(st.can_undo, false, "nothing before the start");
  // Blue joins the two seeds by a click move (press and release on one, click on the other)
  // and the computer answers.
  const [a, b] = st.spots.filter(s => s.lives === 3);
  const [ax, ay] = await H.screen(page, a.x, a.y);
  await page.mouse.click(ax, ay);
  const [bx, by] = await H.screen(page, b.x, b.y);
  await page.mouse.click(bx, by);
  await page.waitForFunction(() => window.sprouts.state.k >= 1 || window.sprouts.refusals.length > 0, null, { timeout: 60000 });
  await H.waitIdle(page);
  const after = await H.state(page);
  assert.ok(after.k >= 1, "a move was played");
  // Undo goes back to the start and stops there.
  while ((await H.state(page)).can_undo) {
    const k = (await H.state(page)).k;
    await page.click("#b-undo");
    await page.waitForFunction(k => window.sprouts.state.k < k, k, { timeout: 30000 });
  }
  const back = await H.state(page);
  assert.equal(back.k, 0);
  assert.equal(back.spots.length, 5);
});

test("text that is not a position, or not a picture, is refused with the reason", { timeout: 60000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 4 });
  const game = (await H.state(page)).game;
  for (const [text, reason] of [["0.1a1a?", /at byte 6/], ["0.2", /not a picture/]]) {
    const [, errors] = await startFrom(page, text);
    await page.waitForFunction(e => window.sprouts.errors.length > e, errors, { timeout: 30000 });
    const message = await page.evaluate(() => window.sprouts.errors[window.sprouts.errors.length - 1]);
    assert.match(String(message), reason);
    assert.equal((await H.state(page)).game, game, "the game in play goes on");
  }
});
