// End-to-end tests of the Room menu (spec 4.1) in a real browser: the key R relaxes the present
// picture (a job on the server, a step of the history), Undo puts the picture back, M with no
// move waiting for room is refused; the menu's boxes are there with the defaults for a person's
// and the computer's moves; Heroic keeps a loop dragged by hand exactly as drawn. (A waiting
// move drawn by a step pressed by hand is tested on the session: sprouts-net's
// `a_waiting_move_is_drawn_by_a_room_step_pressed_by_hand`.)
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
  // M with no move waiting for room: refused, nothing changed.
  const errs = await page.evaluate(() => window.sprouts.errors.length);
  await page.keyboard.press("m");
  await page.waitForFunction(n => window.sprouts.errors.length > n, errs, { timeout: 30000 });
  assert.match(await page.evaluate(() => window.sprouts.errors.at(-1)), /draw the move first/);
  assert.equal(await places(page), before);
  // The menu: the boxes with their defaults (R for a person, M off for the reason in
  // docs/drawing.md; R, Z and • for the computer), and the buttons for the steps.
  await page.click("#room summary");
  const boxes = await page.evaluate(() => ["human", "computer"].map(w => ["m", "a", "r", "z", "dot"].map(f => document.getElementById(`room-${w}-${f}`).checked)));
  assert.deepEqual(boxes, [[false, false, true, false, false], [false, false, true, true, true]]);
  for (const id of ["b-room-m", "b-room-a", "b-room-r", "b-room-z", "b-room-dot"]) assert.ok(await page.$("#" + id), id);
  // Heroic greys the person's row (nothing is done by itself for a person's moves), and is kept.
  await page.click("#room-heroic");
  assert.deepEqual(await page.evaluate(() => ["m", "a", "r", "z", "dot"].map(f => document.getElementById(`room-human-${f}`).disabled)), [true, true, true, true, true]);
  assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem("sprouts.roomBoxes")).heroic), true);
  await page.click("#room-heroic");
  assert.equal(await page.evaluate(() => document.getElementById("room-human-r").disabled), false);
  await page.close();
});

test("Heroic keeps a loop dragged by hand exactly as drawn", { timeout: 240000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 3, players: ["human", "human"] });
  await page.click("#room summary");
  await page.click("#room-heroic");
  await page.click("#room summary");
  const [a, b] = await page.evaluate(() => window.sprouts.state.spots.map(s => [s.x, s.y]));
  // A wobbly loop from spot 1 round spot 2.
  const pts = [a];
  const toward = Math.atan2(a[1] - b[1], a[0] - b[0]);
  for (let t = 0; t <= 24; t++) {
    const ang = toward + 0.35 + t / 24 * (2 * Math.PI - 0.7);
    const r = 70 + 12 * Math.sin(5 * ang);
    pts.push([b[0] + r * Math.cos(ang), b[1] + r * Math.sin(ang)]);
  }
  pts.push(a);
  const c = await H.stroke(page, pts, { steps: 3 });
  const ans = await H.answer(page, c);
  assert.equal(ans.refusal, null); assert.equal(ans.error, null);
  assert.match(ans.state.moves[0], /^1 -> 1 enclosing 2/);
  // Straight pieces only, one for each stretch between the points the mouse gave (and the cut).
  const pieces = ans.state.curves.flat();
  assert.ok(pieces.length >= 20, `${pieces.length} pieces`);
  for (const p of pieces) {
    const [dx, dy] = [p[6] - p[0], p[7] - p[1]];
    for (const [x, y] of [[p[2], p[3]], [p[4], p[5]]]) assert.ok(Math.abs((x - p[0]) * dy - (y - p[1]) * dx) / Math.hypot(dx, dy) < 1e-6, "a straight piece");
  }
  await page.close();
});
