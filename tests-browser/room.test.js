// End-to-end tests of the Room menu (spec 4.1) in a real browser: the key R relaxes the present
// picture (a job on the server, a step of the history), Undo puts the picture back; the menu's
// boxes are there with the defaults for a person's and the computer's moves.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const H = require("./harness");

const env = H.useServerAndBrowser();

// The picture of the state: spots' places and sizes, and the curves' pieces.
const placesOf = () => JSON.stringify([window.sprouts.state.spots.map(s => [s.id, s.x, s.y, s.r]), window.sprouts.state.curves]);
const places = page => page.evaluate(placesOf);

test("R relaxes the picture, Undo puts it back; the Room menu's boxes", { timeout: 240000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 4, players: ["human", "human"] });
  // A few moves drawn by the router give the picture curves to relax.
  for (const [a, b] of [[1, 2], [2, 3], [3, 4]]) {
    const c = await page.evaluate(() => [window.sprouts.refusals.length, window.sprouts.errors.length, window.sprouts.state.k]);
    await page.evaluate(([a, b]) => request({ from: a, to: b, stroke: [], from_side: null, to_side: null, marks: [] }), [a, b]);
    const ans = await H.answer(page, c);
    assert.equal(ans.refusal, null); assert.equal(ans.error, null);
    await H.waitIdle(page);
  }
  const k = await page.evaluate(() => window.sprouts.state.k);
  const before = await places(page);
  const logged = await page.evaluate(() => window.sprouts.log.length);
  await page.mouse.move(5, 400);
  await page.keyboard.press("r");
  await page.waitForFunction(n => !window.sprouts.state.busy && window.sprouts.log.slice(n).some(l => l.startsWith("R: the whole picture relaxed")), logged, { timeout: 120000 });
  await page.waitForFunction(() => window.sprouts.settled());
  const after = await places(page);
  assert.notEqual(after, before, "R changed the picture");
  assert.equal(await page.evaluate(() => window.sprouts.state.k), k, "and not the position");
  await page.click("#b-undo");
  await page.waitForFunction(b => !window.sprouts.state.busy && JSON.stringify([window.sprouts.state.spots.map(s => [s.id, s.x, s.y, s.r]), window.sprouts.state.curves]) === b, before, { timeout: 30000 });
  assert.equal(await places(page), before, "Undo put the picture back");
  assert.equal(await page.evaluate(() => window.sprouts.state.k), k);
  // The menu: the boxes with their defaults (M and R for a person, M is not built; R, Z and •
  // for the computer), and the buttons for the steps now.
  await page.click("#room summary");
  const boxes = await page.evaluate(() => ["human", "computer"].map(w => ["a", "r", "z", "dot"].map(f => document.getElementById(`room-${w}-${f}`).checked)));
  assert.deepEqual(boxes, [[false, true, false, false], [false, true, true, true]]);
  for (const id of ["b-room-a", "b-room-r", "b-room-z", "b-room-dot"]) assert.ok(await page.$("#" + id), id);
  await page.close();
});
