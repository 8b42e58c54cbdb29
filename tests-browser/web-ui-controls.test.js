// End-to-end tests of the web UI's controls in a real browser (Debian's chromium via
// playwright-core): Space during a long think, the status line and the log, settings, misère
// play, the number of spots, high-density screens, and the animations. The server is started
// here on a free port and stopped at the end.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const H = require("./harness");

const env = H.useServerAndBrowser();

const counts = page => page.evaluate(() => [window.sprouts.refusals.length, window.sprouts.errors.length, window.sprouts.state.k]);

/** A click move: press and release on spot `a` (which arms it), then a click on spot `b`.
 * Returns the answer (a new state, a refusal or an error). */
async function clickMove(page, a, b) {
  const st = await H.state(page);
  const sa = st.spots.find(s => s.id === a), sb = st.spots.find(s => s.id === b);
  const c = await counts(page);
  const [ax, ay] = await H.screen(page, sa.x, sa.y);
  await page.mouse.click(ax, ay);
  assert.equal(await page.evaluate(() => window.sprouts.armed && window.sprouts.armed.from), a, "the press armed a click move");
  const [bx, by] = await H.screen(page, sb.x, sb.y);
  await page.mouse.click(bx, by);
  return H.answer(page, c);
}

/** Starts a game through the dialog with a computer's strength set (the number box). */
async function newGameWithStrength(page, { spots, blue, red, first = 0 }) {
  await page.click("#b-new");
  await page.fill("#n-spots", String(spots));
  await page.selectOption("#n-conv", "normal");
  for (const [i, p] of [[0, blue], [1, red]]) {
    if (p.kind === "human") { await page.selectOption(`#p${i}-who`, "human"); continue; }
    await page.selectOption(`#p${i}-who`, "computer");
    await page.selectOption(`#p${i}-kind`, p.kind);
    if (p.strength !== undefined) await page.fill(`#p${i}-str`, String(p.strength));
  }
  await page.selectOption("#n-first", String(first));
  const b = await page.evaluate(() => window.sprouts.log.length);
  await page.click("#n-start");
  await page.waitForFunction(b => window.sprouts.log.slice(b).some(l => l.startsWith("game ")), b, { timeout: 30000 });
}

test("Space stops a long think; the page is answered while the computer thinks; the log has its reasoning", { timeout: 180000 }, async () => {
  const page = await env.open();
  // 21 spots: the perfect player's first move takes minutes (10 spots took under a second on
  // an idle machine, over before Space was pressed).
  await newGameWithStrength(page, { spots: 21, blue: { kind: "perfect", strength: 600 }, red: { kind: "human" } });
  await page.waitForFunction(() => window.sprouts.state.busy && /is thinking/.test(window.sprouts.state.status), null, { timeout: 30000 });
  assert.match(await page.textContent("#status"), /^Blue \(perfect:600s\) is thinking · 63 lives · moves left: M = \d+, m = \d+/);
  await page.waitForTimeout(500);
  // Save log while the computer thinks: answered at once.
  const t0 = Date.now();
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#b-savelog")]);
  const answered = Date.now() - t0;
  assert.equal(await download.failure(), null);
  assert.ok(answered < 10000, `the log came in ${answered} ms while the computer thinks`);
  assert.match(await page.evaluate(() => window.sprouts.lastLogText), /game \d+: 21 spots/);
  assert.equal((await H.state(page)).k, 0, "still thinking");
  // Space: the computer plays the best move it has.
  const t1 = Date.now();
  await page.keyboard.press("Space");
  await page.waitForFunction(() => window.sprouts.state.k === 1 && window.sprouts.state.human_to_move && !window.sprouts.state.busy, null, { timeout: 60000 });
  const stopped = Date.now() - t1;
  const log = await page.evaluate(() => window.sprouts.log);
  assert.ok(log.some(l => l.startsWith("stop asked")), log.join("\n"));
  // The computer's reasoning: its name, what it weighed, how long, the move chosen.
  assert.ok(log.some(l => /^ {2}Blue \(.*chose \d+ -> \d+/.test(l)), log.join("\n"));
  assert.ok(log.some(l => /^move 1 \(Blue\): \d+ -> \d+/.test(l)), log.join("\n"));
  assert.match(await page.textContent("#status"), /^Red to move/);
  console.log(`# Save log answered in ${answered} ms during the think; Space ended it in ${stopped} ms`);
  await page.close();
});

test("status line, log, refusals without pixel numbers, undo in the log, settings", { timeout: 120000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 3, players: ["human", "human"] });
  let status = await page.textContent("#status");
  assert.match(status, /^Blue to move · 9 lives · moves left: M = 8, m = 6 · Drawing area is \d+ x \d+$/);
  // A right-click marks a spot, another unmarks it.
  let st = await H.state(page);
  const s2 = st.spots.find(s => s.id === 2), s3 = st.spots.find(s => s.id === 3);
  const [tx, ty] = await H.screen(page, s3.x, s3.y);
  await page.mouse.click(tx, ty, { button: "right" });
  assert.deepEqual(await page.evaluate(() => window.sprouts.marks), [3]);
  await page.mouse.click(tx, ty, { button: "right" });
  assert.deepEqual(await page.evaluate(() => window.sprouts.marks), []);
  // Spot 2 marked (Shift+click), a click move 1 -> 1 encloses it.
  const [mx, my] = await H.screen(page, s2.x, s2.y);
  await page.keyboard.down("Shift");
  await page.mouse.click(mx, my);
  await page.keyboard.up("Shift");
  let ans = await clickMove(page, 1, 1);
  assert.equal(ans.refusal, null); assert.equal(ans.error, null);
  assert.match(ans.state.moves[0], /^1 -> 1 enclosing [23]$/);
  assert.match(await page.textContent("#status"), /^Red to move · 8 lives · moves left/);
  // 2 -> 3 crosses the loop: refused; the status line says why without numbers, the log with.
  ans = await clickMove(page, 2, 3);
  assert.ok(ans.refusal, "refused");
  status = await page.textContent("#status");
  assert.match(status, /^Red to move · /, "whose turn stays on the status line");
  const refusal = await page.textContent("#refusal");
  assert.match(refusal, /^Could not draw a curve from spot 2 to spot 3: /);
  assert.doesNotMatch(refusal, /\d+(\.\d+)? ?px/);
  let log = await page.evaluate(() => window.sprouts.log);
  const i = log.findIndex(l => l.startsWith("refused: "));
  assert.ok(i >= 0 && /\d/.test(log[i + 1]), log.join("\n"));
  assert.ok(log.some(l => /^move 1 \(Blue\): 1 -> 1 enclosing/.test(l)), log.join("\n"));
  assert.ok(log.some(l => /Drawing area is \d+ x \d+/.test(l)), log.join("\n"));
  // Undo (Ctrl+Z) is logged.
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => window.sprouts.state.k === 0);
  log = await page.evaluate(() => window.sprouts.log);
  assert.ok(log.some(l => /^undo move 1 -> 1/.test(l)), log.join("\n"));
  // Settings: applied and logged; a bad set is an error and changes nothing.
  await page.click("#b-settings");
  await page.fill("#s-d0", "3");
  await page.fill("#s-D", "30");
  await page.fill("#s-lambda", "0.5");
  await page.click("#s-ok");
  await page.waitForFunction(() => window.sprouts.state.settings.min_clearance === 3);
  st = await H.state(page);
  assert.deepEqual(st.settings, { min_clearance: 3, comfort_distance: 30, room_vs_length: 0.5 });
  assert.ok((await page.evaluate(() => window.sprouts.log)).some(l => l === "settings: minimum clearance 3, comfort distance 30, room vs length 0.5"));
  const errors = await page.evaluate(() => window.sprouts.errors.length);
  await page.click("#b-settings");
  await page.fill("#s-d0", "50");
  await page.fill("#s-D", "10");
  await page.click("#s-ok");
  await page.waitForFunction(e => window.sprouts.errors.length > e, errors);
  assert.match(await page.textContent("#refusal"), /^Settings refused .*clearance must be positive and below the comfort distance/);
  assert.match(await page.textContent("#status"), /^Red to move|^Blue to move/);
  assert.deepEqual((await H.state(page)).settings, st.settings);
  await page.close();
});

test("misère play: 1 spot, the player who cannot move wins", { timeout: 60000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 1, players: ["human", "human"], convention: "misere" });
  let ans = await clickMove(page, 1, 1);
  assert.equal(ans.refusal, null); assert.equal(ans.error, null);
  assert.equal(ans.state.k, 1);
  ans = await clickMove(page, 1, 2);
  assert.equal(ans.refusal, null); assert.equal(ans.error, null);
  const st = ans.state;
  assert.ok(st.over);
  assert.equal(st.convention, "misere");
  assert.equal(st.winner, 0);
  assert.match(await page.textContent("#status"), /^Blue wins: Blue cannot move and wins in misère play\. Game over after 2 moves\.$/);
  await page.close();
});

test("a proved verdict on the status line (the perfect player, 2 spots)", { timeout: 120000 }, async () => {
  const page = await env.open();
  await newGameWithStrength(page, { spots: 2, blue: { kind: "human" }, red: { kind: "perfect", strength: 5 } });
  const ans = await clickMove(page, 1, 2);
  assert.equal(ans.refusal, null); assert.equal(ans.error, null);
  const st = await H.waitIdle(page);
  assert.equal(st.k, 2);
  // Two spots: the second player wins.
  assert.match(await page.textContent("#status"), /^Blue to move · \d+ lives · moves left: M = \d+, m = \d+ · Red has a winning position · Drawing area/);
  await page.close();
});

test("1, 30 and 45 spots; the picture scales with the window and is sharp on a dense screen", { timeout: 120000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 }, deviceScaleFactor: 2 });
  await context.addInitScript(() => localStorage.setItem("sprouts.helpSeen", "1"));
  const page = await context.newPage();
  page.on("pageerror", e => { throw e; });
  await page.goto(env.server.url);
  await page.waitForFunction(() => window.sprouts && window.sprouts.state);
  for (const n of [1, 30, 45]) {
    await H.newGame(page, { spots: n, players: ["human", "human"] });
    await page.waitForFunction(n => window.sprouts.state.spots.length === n, n);
    assert.match(await page.textContent("#status"), new RegExp(`^Blue to move · ${3 * n} lives`));
  }
  // Twice as many canvas pixels as CSS pixels.
  const dims = await page.evaluate(() => { const c = document.getElementById("board"), r = c.getBoundingClientRect(); return [c.width, c.height, r.width, r.height]; });
  assert.equal(dims[0], Math.round(dims[2] * 2));
  assert.equal(dims[1], Math.round(dims[3] * 2));
  // A smaller window: one scale for both axes, the world fits.
  const st = await H.state(page);
  const s1 = await page.evaluate(() => window.sprouts.view.s);
  await page.setViewportSize({ width: 600, height: 500 });
  await page.waitForFunction(s => { window.sprouts.toScreen(0, 0); return window.sprouts.view.s < s; }, s1);
  const [a, b] = await Promise.all([H.screen(page, 0, 0), H.screen(page, st.width, st.height)]);
  const s2 = await page.evaluate(() => window.sprouts.view.s);
  assert.ok(Math.abs((b[0] - a[0]) / st.width - s2) < 1e-6 && Math.abs((b[1] - a[1]) / st.height - s2) < 1e-6, "uniform scale");
  const r = await page.evaluate(() => document.getElementById("board").getBoundingClientRect().toJSON());
  assert.ok(b[0] - a[0] <= r.width + 1e-6 && b[1] - a[1] <= r.height + 1e-6, "the world fits the window");
  await context.close();
});

test("a curve is animated as the band relaxes; a picture drawn afresh glides to its new places", { timeout: 120000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 3, players: ["human", "human"] });
  const before = await page.evaluate(() => Object.assign({}, window.sprouts.stats));
  const ans = await clickMove(page, 1, 2);
  assert.equal(ans.refusal, null); assert.equal(ans.error, null);
  await page.waitForFunction(() => window.sprouts.settled());
  let stats = await page.evaluate(() => Object.assign({}, window.sprouts.stats));
  assert.ok(stats.framesIn > before.framesIn, "relaxation frames came");
  assert.ok(stats.framesShown > before.framesShown, "and were shown");
  console.log(`# a click move 1 -> 2: ${stats.framesIn - before.framesIn} relaxation frames received, ${stats.framesShown - before.framesShown} shown`);
  // Redraw: the same position, new places, reached by a tween; half-way the spots are between.
  const old = await H.state(page);
  await page.click("#b-redraw");
  await page.waitForFunction(() => window.sprouts.state.busy === false && window.sprouts.log.some(l => l.startsWith("redraw:")), null, { timeout: 60000 });
  const mid = await page.evaluate(() => window.sprouts.tween && window.sprouts.tween.to.spots.length);
  await page.waitForFunction(() => window.sprouts.settled());
  stats = await page.evaluate(() => Object.assign({}, window.sprouts.stats));
  assert.equal(stats.tweens, before.tweens + 1, "one tween");
  const now = await H.state(page);
  assert.notDeepEqual(now.spots, old.spots);
  assert.ok(mid === null || mid === now.spots.length);
  await page.screenshot({ path: H.artifact("after-redraw.png") });
  // Undoing a move that was drawn with the whole picture afresh goes back to a picture with one
  // spot less and the others elsewhere: it glides too, the undone move's spot fading out.
  const undo = await page.evaluate(() => {
    const a = window.sprouts.pic;
    const gone = a.spots[a.spots.length - 1].id;
    const b = Object.assign({}, a, { k: a.k - 1, curves: a.curves.slice(0, -1),
      spots: a.spots.filter(s => s.id !== gone).map(s => Object.assign({}, s, { x: s.x + 40 })) });
    const half = tweenPic({ from: a, to: b }, 0.5);
    const faded = half.spots.find(s => s.id === gone);
    return { glides: sameSpots(a, b) && spotsMoved(a, b), spots: half.spots.length, of: a.spots.length, alpha: faded && faded.alpha };
  });
  assert.deepEqual(undo, { glides: true, spots: now.spots.length, of: now.spots.length, alpha: 0.5 });
  await page.close();
});

test("Enter draws the last refused move the shortest way, without marks", { timeout: 60000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 3, players: ["human", "human"] });
  const st = await H.state(page);
  // 1 -> 3 with spot 2 marked: a curve between two spots encloses nothing by itself, so the
  // request cannot be drawn as asked.
  const s2 = st.spots.find(s => s.id === 2);
  const [mx, my] = await H.screen(page, s2.x, s2.y);
  await page.keyboard.down("Shift");
  await page.mouse.click(mx, my);
  await page.keyboard.up("Shift");
  let ans = await clickMove(page, 1, 3);
  const sent = await page.evaluate(() => window.sprouts.lastRequest);
  assert.deepEqual(sent.marks, [2]);
  assert.ok(ans.refusal || ans.error, `refused or an error: ${JSON.stringify(ans.state.moves)}`);
  assert.equal(ans.state.k, 0);
  const c = await counts(page);
  await page.keyboard.press("Enter");
  ans = await H.answer(page, c);
  assert.equal(ans.refusal, null); assert.equal(ans.error, null);
  assert.equal(ans.state.k, 1);
  assert.equal(ans.state.moves[0], "1 -> 3");
  await page.close();
});
