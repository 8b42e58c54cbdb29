// End-to-end tests of `sprouts serve` in a real browser (Debian's chromium via playwright-core).
// The server is started here on a free port and stopped at the end.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const H = require("./harness");

const env = H.useServerAndBrowser();

const COLOURS = ["Blue", "Red"];

/** Plays one human move by mouse: press on a spot with a life, read the lit destinations, stroke
 * to one of them and release on it. Tries spots in turn until a move is made. */
async function humanMove(page) {
  const st = await H.state(page);
  const alive = st.spots.filter(s => s.lives > 0);
  for (const a of alive) {
    const lit = await H.lit(page, a.id);
    await page.mouse.up(); // a press and release on the spot: a click, arming a click move
    await page.keyboard.press("Escape");
    lit.sort((x, y) => (x === a.id) - (y === a.id)); // loops last
    for (const bId of lit) {
      const b = st.spots.find(s => s.id === bId);
      let pts;
      if (b.id === a.id) {
        // A loop: out and round a small circle beside the spot.
        const c = [a.x + 30, a.y];
        pts = [[a.x, a.y]];
        for (let t = 1; t < 16; t++) {
          const ang = Math.PI + (t / 16) * 2 * Math.PI;
          pts.push([c[0] + 22 * Math.cos(ang), c[1] + 22 * Math.sin(ang)]);
        }
        pts.push([a.x, a.y]);
      } else {
        pts = [[a.x, a.y], [(a.x + b.x) / 2, (a.y + b.y) / 2 + 10], [b.x, b.y]];
      }
      const counts = await H.stroke(page, pts);
      const ans = await H.answer(page, counts);
      if (!ans.refusal && !ans.error) return ans.state;
      // The stroke left by another side than the lit one or crossed a curve: the same move as a
      // click move (press and release on the spot's lit side, then a click on the destination),
      // which the router draws its own way.
      const before = await H.lit(page, a.id);
      await page.mouse.up();
      if (!before.includes(b.id)) { await page.keyboard.press("Escape"); continue; }
      const c2 = await page.evaluate(() => [window.sprouts.refusals.length, window.sprouts.errors.length, window.sprouts.state.k]);
      const [bx, by] = await H.screen(page, b.x, b.y);
      await page.mouse.click(bx, by);
      const ans2 = await H.answer(page, c2, 15000).catch(() => null);
      if (ans2 && !ans2.refusal && !ans2.error) return ans2.state;
      await page.keyboard.press("Escape");
    }
  }
  throw new Error("no human move could be drawn in " + st.glop);
}

test("a 2-spot game against the computer, drawn with the mouse, ends with the winner on the status line", { timeout: 400000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 2, players: ["human", "random"], first: 0 });
  let st = await H.waitIdle(page);
  let guard = 0;
  while (!st.over) {
    assert.ok(guard++ < 10, "a 2-spot game lasts at most 5 moves");
    assert.ok(st.human_to_move, "the page waits for the person");
    assert.match(st.status, /^Blue to move/);
    await humanMove(page);
    st = await H.waitIdle(page);
  }
  assert.ok(st.k >= 4 && st.k <= 5, `a 2-spot game lasts 4 or 5 moves, this one ${st.k}`);
  // Normal play: whoever made the last move wins.
  const lastMover = (st.k - 1) % 2;
  assert.equal(st.winner, lastMover);
  const status = await page.textContent("#status");
  assert.match(status, new RegExp(`^${COLOURS[lastMover]} wins: ${COLOURS[1 - lastMover]} cannot move`));
  // Every region is dead: no spot pair shares two lives.
  assert.equal(st.moves.length, st.k);
  await page.close();
});

test("an enclosing move with a marked spot, then a curve that would cross it is refused, undo and redo, Redraw", { timeout: 120000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 3, players: ["human", "human"] });
  let st = await H.state(page);
  const [s1, s2, s3] = [1, 2, 3].map(id => st.spots.find(s => s.id === id));
  // Mark spot 2 with a shift-click.
  const [mx, my] = await H.screen(page, s2.x, s2.y);
  await page.keyboard.down("Shift");
  await page.mouse.click(mx, my);
  await page.keyboard.up("Shift");
  assert.deepEqual(await page.evaluate(() => window.sprouts.marks), [2]);
  // A loop from 1 round spot 2 and back.
  const R = Math.min(60, Math.hypot(s2.x - s1.x, s2.y - s1.y) / 2);
  const toward = Math.atan2(s1.y - s2.y, s1.x - s2.x);
  const pts = [[s1.x, s1.y]];
  for (let t = 0; t <= 40; t++) {
    const ang = toward + 0.35 + (t / 40) * (2 * Math.PI - 0.7);
    pts.push([s2.x + R * Math.cos(ang), s2.y + R * Math.sin(ang)]);
  }
  pts.push([s1.x, s1.y]);
  let counts = await H.stroke(page, pts, { steps: 2 });
  let ans = await H.answer(page, counts);
  assert.equal(ans.refusal, null, "the marked loop is drawn");
  assert.equal(ans.error, null);
  st = ans.state;
  assert.equal(st.k, 1);
  // The loop separates 2 from 3 (on the sphere, enclosing 2 is enclosing 3 on the other side).
  assert.match(st.moves[0], /^1 -> 1 enclosing [23]$/);
  // The position: spot 2 alone inside the loop, spot 3 outside with the loop's outer side.
  const regions = st.glop;
  assert.ok(regions.length > 0);
  const glopAfterLoop = st.glop;

  // A curve from 2 (inside) to 3 (outside) would cross the loop: refused, nothing changes.
  counts = await H.stroke(page, [[s2.x, s2.y], [(s2.x + s3.x) / 2, (s2.y + s3.y) / 2], [s3.x, s3.y]]);
  ans = await H.answer(page, counts);
  assert.ok(ans.refusal, "the crossing curve is refused");
  assert.match(ans.refusal, /do not face a common region/);
  st = await H.state(page);
  assert.equal(st.k, 1);
  assert.equal(st.glop, glopAfterLoop);
  assert.match(await page.textContent("#status"), /^Red to move/);
  assert.match(await page.textContent("#refusal"), /^Could not draw a curve from spot 2 to spot 3: spots 2 and 3 do not face a common region/);

  // Undo, then redo.
  await page.click("#b-undo");
  await page.waitForFunction(() => window.sprouts.state.k === 0);
  st = await H.state(page);
  assert.equal(st.curves.length, 0);
  assert.equal(st.spots.length, 3);
  assert.ok(st.can_redo);
  await page.click("#b-redo");
  await page.waitForFunction(() => window.sprouts.state.k === 1);
  assert.equal((await H.state(page)).glop, glopAfterLoop);

  // Redraw: the picture drawn afresh, the same position; undo puts the old picture back.
  const drawn = await H.state(page);
  await page.click("#b-redraw");
  await page.waitForFunction(() => window.sprouts.log.some(l => l.startsWith("redraw:")) && !window.sprouts.state.busy, null, { timeout: 60000 });
  st = await H.state(page);
  assert.equal(st.k, 1);
  assert.equal(st.glop, glopAfterLoop);
  assert.notDeepEqual(st.spots, drawn.spots, "the spots are placed afresh");
  await page.click("#b-undo");
  await page.waitForFunction(() => window.sprouts.log.some(l => l.startsWith("undo rearrange (Z)")));
  st = await H.state(page);
  assert.equal(st.k, 1);
  assert.deepEqual(st.spots, drawn.spots);
  assert.deepEqual(st.curves, drawn.curves);
  await page.close();
});

test("save, reload the page, load: the same game", { timeout: 120000 }, async () => {
  const page = await env.open();
  await H.newGame(page, { spots: 3, players: ["human", "random"] });
  await H.waitIdle(page);
  await humanMove(page);
  const st = await H.waitIdle(page);
  assert.equal(st.k, 2);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#b-save")]);
  const file = H.artifact("saved-game.json");
  assert.equal(await download.failure(), null, "the download completes");
  await download.saveAs(file);
  const json = fs.readFileSync(file, "utf8");
  assert.ok(JSON.parse(json));
  // A reload resumes the game kept by the page; a new game, then Load, brings it back too.
  await page.reload();
  await page.waitForFunction(() => window.sprouts.state && window.sprouts.state.k === 2);
  await H.newGame(page, { spots: 3, players: ["human", "random"] });
  await page.waitForFunction(() => window.sprouts.state.k === 0);
  await page.setInputFiles("#file", file);
  await page.waitForFunction(() => window.sprouts.state.k === 2);
  const back = await H.state(page);
  for (const key of ["k", "glop", "moves", "spots", "curves", "width", "height"]) {
    assert.deepEqual(back[key], st[key], key);
  }
  await page.close();
});

/** Waits until the computers have finished the game. A move the router refuses is drawn by the
 * server's ladder (an equivalent move, then the whole picture afresh), so the game must not pause
 * on an undrawable move: if it does, the test fails with the log. */
async function finishByComputers(page) {
  await page.waitForFunction(() => {
    const s = window.sprouts.state;
    return s.over || (s.paused && !s.busy && /could not be drawn/.test(s.status));
  }, null, { timeout: 120000 });
  const st = await H.state(page);
  const log = await page.evaluate(() => window.sprouts.log.slice(-16));
  assert.ok(st.over, `the game paused on a move it could not draw (k ${st.k}: ${st.status}; ${log.join(" / ")})`);
}

test("two computers finish a 5-spot game; undo pauses them, resume finishes; a screenshot is kept", { timeout: 600000 }, async t => {
  const page = await env.open({ width: 1000, height: 700 });
  await H.newGame(page, { spots: 5, players: ["random", "random"] });
  await finishByComputers(page);
  let st = await H.state(page);
  assert.ok(st.k >= 10 && st.k <= 14, `a 5-spot game lasts 10 to 14 moves, this one ${st.k}`);
  const k = st.k;
  // Undo between computers pauses the game: nothing moves until Resume.
  await page.click("#b-undo");
  await page.waitForFunction(k => window.sprouts.state.k === k - 1, k);
  await page.waitForTimeout(700);
  st = await H.state(page);
  assert.equal(st.k, k - 1, "nothing moves while paused");
  assert.ok(st.paused);
  assert.match(await page.textContent("#status"), /paused/);
  assert.equal(await page.textContent("#b-pause"), "Resume");
  await page.click("#b-pause");
  await finishByComputers(page);
  const log = await page.evaluate(() => window.sprouts.log);
  t.diagnostic(`moves refused as chosen: ${log.filter(l => /ladder step 1/.test(l)).length}; drawn as an equivalent move: ${log.filter(l => /drawn instead/.test(l)).length}; drawn afresh: ${log.filter(l => /ladder step 4: .* drawn with the whole picture afresh/.test(l)).length}`);
  st = await H.state(page);
  assert.match(await page.textContent("#status"), new RegExp(`^${COLOURS[st.winner]} wins`));
  // The picture keeps up with the game: within a few seconds of the end, the last picture is
  // shown, every animation over.
  await page.waitForFunction(() => window.sprouts.settled(), null, { timeout: 5000 });
  const shown = await page.evaluate(() => ({ k: window.sprouts.pic.k, curves: window.sprouts.pic.curves, spots: window.sprouts.pic.spots }));
  assert.deepEqual(shown, { k: st.k, curves: st.curves, spots: st.spots });
  await page.click("#b-log");
  await page.screenshot({ path: H.artifact("finished-5-spots.png") });
  await page.close();
});
