// End-to-end tests of the editor in a real browser: spots placed and curves drawn by hand, the
// picture started from and played on; a picture that is not legal (a spot with four curves, a
// bare curve no move draws) refused with the reason, its spots and curves kept, then accepted
// as any valid position.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const H = require("./harness");

const env = H.useServerAndBrowser();

async function openEditor(page) {
  await page.click("#b-new");
  await page.selectOption("#p0-who", "human");
  await page.selectOption("#p1-who", "human");
  await page.click("#n-edit");
  await page.waitForFunction(() => window.sprouts.editor && !document.getElementById("editor").hidden);
  assert.match(await page.textContent("#status"), /^Editing a position/);
}
const at = (page, x, y) => page.evaluate(([x, y]) => window.sprouts.editorToScreen(x, y), [x, y]);
async function click(page, x, y) { const [a, b] = await at(page, x, y); await page.mouse.click(a, b); }
async function drag(page, points) {
  const [x0, y0] = await at(page, ...points[0]);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  let prev = [x0, y0];
  for (const p of points.slice(1)) {
    const [x, y] = await at(page, ...p);
    for (let s = 1; s <= 8; s++) await page.mouse.move(prev[0] + (x - prev[0]) * s / 8, prev[1] + (y - prev[1]) * s / 8);
    prev = [x, y];
  }
  await page.mouse.up();
}
const picture = page => page.evaluate(() => JSON.parse(JSON.stringify({ spots: window.sprouts.editor.spots, curves: window.sprouts.editor.curves })));

test("a picture drawn by hand starts a game that is played on", { timeout: 120000 }, async () => {
  const page = await env.open({ width: 1100, height: 750 });
  await H.newGame(page, { spots: 3 });
  const before = (await H.state(page)).game;
  await openEditor(page);
  // Three spots, a move from spot 1 to spot 2 (a middle spot added), and a curve from spot 3
  // to spot 2, drawn bare and then given a spot of its own.
  for (const [x, y] of [[150, 200], [450, 200], [300, 420]]) await click(page, x, y);
  await drag(page, [[150, 200], [300, 90], [450, 200]]);
  let pic = await picture(page);
  assert.equal(pic.spots.length, 4, "the move's middle spot");
  assert.equal(pic.curves.length, 2);
  await page.uncheck("#ed-middle");
  await drag(page, [[300, 420], [560, 300], [560, 120], [450, 200]]);
  pic = await picture(page);
  assert.equal(pic.curves.length, 3, "a bare curve");
  // Bare, it is refused: three curves cannot be moves.
  await page.click("#ed-start");
  await page.waitForFunction(() => /cannot start a game/.test(document.getElementById("refusal").textContent));
  assert.match(await page.textContent("#refusal"), /odd number/);
  assert.deepEqual(await picture(page), pic, "the picture is kept");
  assert.equal((await H.state(page)).game, before, "the game in play is unchanged");
  // A spot on the bare curve makes it a move's two curves.
  await click(page, 560, 210);
  pic = await picture(page);
  assert.equal(pic.spots.length, 5);
  assert.equal(pic.curves.length, 4);
  await page.screenshot({ path: H.artifact("editor.png") });
  if (process.env.SPROUTS_DOCS_SHOTS) await page.screenshot({ path: path.join(H.ROOT, "docs", "editor.png") });
  await page.click("#ed-start");
  await page.waitForFunction(b => window.sprouts.state.game !== b && !window.sprouts.editor, before, { timeout: 30000 });
  const st = await H.state(page);
  assert.equal(st.spots.length, 5);
  assert.equal(st.curves.length, 4);
  assert.equal(st.k, 0);
  assert.doesNotMatch(await page.textContent("#status"), /Editing/, "the status is the new game's");
  // Blue joins spots 3 and 1 (each has a curve and two lives) by a click move.
  const a = st.spots.find(s => s.id === 3), b = st.spots.find(s => s.id === 1);
  const [ax, ay] = await H.screen(page, a.x, a.y);
  await page.mouse.click(ax, ay);
  const [bx, by] = await H.screen(page, b.x, b.y);
  await page.mouse.click(bx, by);
  await page.waitForFunction(() => window.sprouts.state.k >= 1 || window.sprouts.refusals.length > 0, null, { timeout: 60000 });
  assert.equal((await H.state(page)).k, 1, "a move was played on the picture");
});

test("a spot with four curves is refused; a picture no move reaches starts as any valid position", { timeout: 120000 }, async () => {
  const page = await env.open({ width: 1100, height: 750 });
  await H.newGame(page, { spots: 2 });
  const before = (await H.state(page)).game;
  await openEditor(page);
  await page.uncheck("#ed-middle");
  // Spot 1 in the middle, four bare curves out to four spots.
  for (const [x, y] of [[300, 250], [150, 250], [450, 250], [300, 100], [300, 400]]) await click(page, x, y);
  for (const [x, y] of [[150, 250], [450, 250], [300, 100], [300, 400]]) await drag(page, [[300, 250], [(300 + x) / 2 + 1, (250 + y) / 2 + 1], [x, y]]);
  const pic = await picture(page);
  assert.equal(pic.curves.length, 4);
  await page.check("#ed-any");
  await page.click("#ed-start");
  await page.waitForFunction(() => /spot 1 has 4 curve ends/.test(document.getElementById("refusal").textContent));
  assert.deepEqual(await picture(page), pic, "nothing is lost");
  assert.equal((await H.state(page)).game, before);
  // Undo the fourth curve: three curves are no moves' (each move draws two), so the picture
  // is refused as a start reached by moves, and accepted as any valid position.
  await page.click("#ed-undo");
  assert.equal((await picture(page)).curves.length, 3);
  await page.uncheck("#ed-any");
  await page.click("#ed-start");
  await page.waitForFunction(() => /not reached by moves/.test(document.getElementById("refusal").textContent));
  await page.check("#ed-any");
  await page.click("#ed-start");
  await page.waitForFunction(b => window.sprouts.state.game !== b && !window.sprouts.editor, before, { timeout: 30000 });
  const st = await H.state(page);
  assert.equal(st.spots.length, 5);
  assert.equal(st.curves.length, 3);
});
