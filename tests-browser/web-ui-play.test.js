// End-to-end tests of the web UI as a game (Debian's chromium via playwright-core), on a
// 1280 x 800 desktop and a 390 x 844 touch phone: strokes honoured, refused strokes and stray
// clicks arm nothing, messages in plain words with whose turn kept, the game kept across a
// reload, Save/Load keeping the rules, the phone's layout, guidance, keyboard-only play. The
// server is started here on a free port and stopped at the end.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const H = require("./harness");

const env = H.useServerAndBrowser();

const DESKTOP = { viewport: { width: 1280, height: 800 }, options: {} };
const PHONE = {
  viewport: { width: 390, height: 844 },
  options: { context: { hasTouch: true, isMobile: true, deviceScaleFactor: 3 } },
};
const VIEWS = [["desktop", DESKTOP], ["phone", PHONE]];
const open = (view, extra = {}) => env.open(view.viewport, Object.assign({}, view.options, extra));

const counts = page => page.evaluate(() => [window.sprouts.refusals.length, window.sprouts.errors.length, window.sprouts.state.k]);

/** A hand-drawn ellipse from spot `a` round spot `b` and back to `a`, in world points. */
function ellipseLoop(a, b, minor) {
  const c = [(a.x + b.x) / 2, (a.y + b.y) / 2], d = Math.hypot(b.x - a.x, b.y - a.y);
  const u = [(b.x - a.x) / d, (b.y - a.y) / d], major = d / 2 + minor;
  const pts = [[a.x, a.y]];
  for (let t = 0; t <= 48; t++) {
    const th = Math.PI + 0.6 + (t / 48) * (2 * Math.PI - 1.2);
    const ex = major * Math.cos(th), ey = minor * Math.sin(th);
    pts.push([c[0] + ex * u[0] - ey * u[1], c[1] + ex * u[1] + ey * u[0]]);
  }
  pts.push([a.x, a.y]);
  return pts;
}

/** A click (a tap on the phone) at world point p. */
async function tapAt(page, p, view) {
  const [x, y] = await H.screen(page, p[0], p[1]);
  if (view === PHONE) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** A click move by mouse or taps: spot a, then spot b. */
async function clickMove(page, a, b, view) {
  const st = await H.state(page);
  const sa = st.spots.find(s => s.id === a), sb = st.spots.find(s => s.id === b);
  const c = await counts(page);
  await tapAt(page, [sa.x, sa.y], view);
  await tapAt(page, [sb.x, sb.y], view);
  return H.answer(page, c);
}

for (const [name, view] of VIEWS) {
  test(`${name}: a loop drawn by hand is drawn as the stroke, enclosing what it encloses (problem 1)`, { timeout: 60000 }, async () => {
    const page = await open(view);
    await H.newGame(page, { spots: 3, players: ["human", "human"] });
    const st = await H.state(page);
    const [a, b] = [st.spots[0], st.spots[1]];
    const c = await H.stroke(page, ellipseLoop(a, b, Math.min(60, Math.hypot(b.x - a.x, b.y - a.y) / 4)), { steps: 2 });
    const ans = await H.answer(page, c);
    assert.equal(ans.refusal, null); assert.equal(ans.error, null);
    assert.equal(ans.state.moves[0], `${a.id} -> ${a.id} enclosing ${b.id}`);
    const log = await page.evaluate(() => window.sprouts.log);
    assert.ok(log.some(l => /\(Stroke\)/.test(l)), log.join("\n"));
    await page.context().close();
  });

  test(`${name}: a refused stroke and clicks on empty canvas arm nothing and play nothing (problem 2)`, { timeout: 90000 }, async () => {
    const page = await open(view);
    await H.newGame(page, { spots: 1, players: ["human", "human"] });
    // 1 -> 1: spot 1 keeps one life.
    let ans = await clickMove(page, 1, 1, view);
    assert.equal(ans.state.k, 1);
    let st = await H.state(page);
    const s1 = st.spots.find(s => s.id === 1);
    assert.equal(s1.lives, 1);
    // A loop at spot 1 by hand: refused in words naming spot 1, nothing armed, nothing played.
    const c = await H.stroke(page, ellipseLoop(s1, { x: s1.x + 1, y: s1.y + 80 }, 30), { steps: 2 });
    ans = await H.answer(page, c);
    assert.ok(ans.error || ans.refusal);
    assert.equal(ans.state.k, 1);
    assert.equal(await page.evaluate(() => window.sprouts.armed), null, "nothing armed");
    const refusal = await page.textContent("#refusal");
    assert.match(refusal, /spot 1/);
    assert.match(await page.textContent("#status"), /^Red to move · 2 lives/);
    // Clicks away from every spot: nothing armed, no move.
    const far = [];
    for (let x = 0.1; x < 1; x += 0.2) for (let y = 0.1; y < 1; y += 0.2) far.push([st.width * x, st.height * y]);
    const clear = far.filter(p => st.spots.every(s => Math.hypot(p[0] - s.x, p[1] - s.y) > 60));
    assert.ok(clear.length >= 10);
    for (const p of clear) {
      await tapAt(page, p, view);
      assert.equal(await page.evaluate(() => window.sprouts.armed), null);
    }
    await page.waitForTimeout(300);
    st = await H.state(page);
    assert.equal(st.k, 1, "no move was played");
    await page.context().close();
  });

  test(`${name}: the game survives a reload, with its log (problem 3)`, { timeout: 90000 }, async () => {
    const page = await open(view);
    await H.newGame(page, { spots: 3, players: ["human", "human"], convention: "misere" });
    const ans = await clickMove(page, 1, 2, view);
    assert.equal(ans.state.k, 1);
    await page.waitForFunction(() => { const k = window.sprouts.keptGame(); return k && k.k === 1; });
    const before = await H.state(page);
    await page.reload();
    await page.waitForFunction(() => window.sprouts.state && window.sprouts.state.k === 1 && !window.sprouts.state.busy, null, { timeout: 30000 });
    const after = await H.state(page);
    assert.deepEqual(after.moves, before.moves);
    assert.equal(after.convention, "misere");
    assert.deepEqual(after.players, before.players);
    assert.ok(after.can_undo, "undo kept");
    assert.match(await page.textContent("#notice"), /resumed/);
    const log = await page.evaluate(() => window.sprouts.log);
    assert.ok(log.some(l => /\(saved\) move 1 \(Blue\): 1 -> 2/.test(l)), log.join("\n"));
    await page.context().close();
  });

  test(`${name}: messages are plain words and the status line keeps whose turn (problem 5)`, { timeout: 90000 }, async () => {
    const page = await open(view);
    await H.newGame(page, { spots: 2, players: ["human", "human"] });
    // Aiming at a spot with no life names that spot.
    let ans = await clickMove(page, 1, 1, view); // spot 1: one life, new spot 3
    ans = await clickMove(page, 1, 3, view); // spot 1: no life
    assert.equal(ans.state.k, 2);
    const c = await counts(page);
    const st = await H.state(page);
    const [s1, s2] = [st.spots.find(s => s.id === 1), st.spots.find(s => s.id === 2)];
    assert.equal(s1.lives, 0);
    await tapAt(page, [s2.x, s2.y], view);
    await tapAt(page, [s1.x, s1.y], view);
    ans = await H.answer(page, c);
    assert.ok(ans.error);
    assert.match(await page.textContent("#refusal"), /spot 1 has no life left/);
    assert.match(await page.textContent("#status"), /^Blue to move · \d+ lives/);
    // Settings the drawing cannot take: words, no debug text.
    await page.evaluate(() => send({ type: "settings", settings: { min_clearance: 1000, comfort_distance: 40, room_vs_length: 1 } }));
    await page.waitForFunction(() => !document.getElementById("refusal").hidden && /Settings refused/.test(document.getElementById("refusal").textContent));
    const text = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /Settings \{|Some\(|\bNone\b|::/);
    await page.context().close();
  });
}

test("Save and Load keep the players, the convention, the settings, the undo history and the log (problem 4)", { timeout: 120000 }, async () => {
  const page = await open(DESKTOP);
  await page.click("#b-new");
  await page.fill("#n-spots", "3");
  await page.selectOption("#n-conv", "misere");
  await page.selectOption("#p0-who", "human");
  await page.selectOption("#p1-who", "computer");
  await page.selectOption("#p1-kind", "perfect");
  await page.fill("#p1-str", "1");
  const b = await page.evaluate(() => window.sprouts.log.length);
  await page.click("#n-start");
  await page.waitForFunction(b => window.sprouts.log.slice(b).some(l => l.startsWith("game ")), b);
  await page.evaluate(() => send({ type: "settings", settings: { min_clearance: 5, comfort_distance: 35, room_vs_length: 0.8 } }));
  await page.waitForFunction(() => window.sprouts.state.settings.min_clearance === 5);
  const ans = await clickMove(page, 1, 2, DESKTOP);
  assert.equal(ans.refusal, null);
  const st = await H.waitIdle(page);
  assert.equal(st.k, 2);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#b-save")]);
  const file = await download.path();
  await H.newGame(page, { spots: 4, players: ["human", "random"] });
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click("#b-load")]);
  await chooser.setFiles(file);
  await page.waitForFunction(() => window.sprouts.state.k === 2 && window.sprouts.state.convention === "misere");
  const back = await H.state(page);
  assert.deepEqual(back.moves, st.moves);
  assert.deepEqual(back.players, [{ kind: "human" }, { kind: "computer", spec: "perfect:1s" }]);
  assert.deepEqual(back.settings, { min_clearance: 5, comfort_distance: 35, room_vs_length: 0.8 });
  assert.ok(back.can_undo);
  const log = await page.evaluate(() => window.sprouts.log);
  assert.ok(log.some(l => /\(saved\) move 1 \(Blue\)/.test(l)), log.join("\n"));
  await page.context().close();
});

test("phone 390 x 844: one toolbar row, the status whole, 40-pixel targets, rotation, pinch zoom (problem 6)", { timeout: 90000 }, async () => {
  const page = await open(PHONE);
  await H.newGame(page, { spots: 5, players: ["human", "human"] });
  const geo = await page.evaluate(() => {
    const h = document.querySelector("header").getBoundingClientRect(), st = document.getElementById("status");
    const menu = document.getElementById("b-menu").getBoundingClientRect();
    return { header: h.height, statusCut: st.scrollWidth > st.clientWidth + 1, statusVisible: st.getBoundingClientRect().height > 0, menuH: menu.height, menuW: menu.width };
  });
  assert.ok(geo.header <= 60, `one toolbar row (${geo.header} px)`);
  assert.ok(!geo.statusCut && geo.statusVisible, "the status line is whole");
  assert.ok(geo.menuH >= 40 && geo.menuW >= 40, "the menu button is a 40-pixel target");
  await page.click("#b-menu");
  const sizes = await page.evaluate(() => [...document.querySelectorAll("#tools button")].filter(b => b.offsetParent).map(b => { const r = b.getBoundingClientRect(); return [b.id, r.width, r.height]; }));
  assert.ok(sizes.length >= 8);
  for (const [id, w, h] of sizes) assert.ok(w >= 40 && h >= 40, `${id}: ${w} x ${h}`);
  await page.click("#b-menu");
  // The spots take a finger: a tap within 20 pixels of a spot arms it.
  let st = await H.state(page);
  const s = st.spots[0];
  const [sx, sy] = await H.screen(page, s.x, s.y);
  await page.touchscreen.tap(sx + 14, sy + 10);
  assert.equal(await page.evaluate(() => window.sprouts.armed && window.sprouts.armed.from), s.id);
  await page.keyboard.press("Escape");
  // Rotation: the drawing area takes the landscape window.
  await page.setViewportSize({ width: 844, height: 390 });
  await page.waitForTimeout(200);
  const wrap = await page.evaluate(() => document.getElementById("wrap").getBoundingClientRect().toJSON());
  assert.ok(wrap.width > wrap.height, "landscape drawing area");
  const [a0, b0] = await Promise.all([H.screen(page, 0, 0), H.screen(page, st.width, st.height)]);
  assert.ok(b0[1] - a0[1] <= wrap.height + 1, "the picture fits the rotated window");
  await page.setViewportSize({ width: 390, height: 844 });
  // Pinch: two fingers moving apart zoom the picture in.
  const s0 = await page.evaluate(() => { window.sprouts.toScreen(0, 0); return window.sprouts.view.s; });
  await page.evaluate(() => {
    const c = document.getElementById("board"), r = c.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + 40;
    const ev = (type, id, x) => c.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: "touch", clientX: x, clientY: cy, bubbles: true, button: 0 }));
    ev("pointerdown", 11, cx - 20); ev("pointerdown", 12, cx + 20);
    for (let i = 1; i <= 10; i++) { ev("pointermove", 11, cx - 20 - 6 * i); ev("pointermove", 12, cx + 20 + 6 * i); }
    ev("pointerup", 11, cx - 80); ev("pointerup", 12, cx + 80);
  });
  const s1 = await page.evaluate(() => { window.sprouts.toScreen(0, 0); return window.sprouts.view.s; });
  assert.ok(s1 > 1.5 * s0, `zoomed in (${s0} -> ${s1})`);
  st = await H.state(page);
  assert.equal(st.k, 0, "a pinch plays nothing");
  await page.context().close();
});

test("guidance: help on the first visit, legend, hints, thinking with Stop, game over with Play again, pace (problem 7)", { timeout: 120000 }, async () => {
  const page = await open(DESKTOP, { firstVisit: true });
  await page.waitForSelector("#d-help[open]");
  assert.match(await page.textContent("#d-help"), /cannot move loses/);
  await page.click("#help-ok");
  assert.ok(await page.isVisible("#legend"));
  assert.match(await page.textContent("#legend"), /3 lives.*Blue.*Red/s);
  assert.match(await page.textContent("#hints"), /right-click, Shift\+click or a long press.*Enter.*Space/);
  // The legend's lives colours are not the players' colours.
  const colours = await page.evaluate(() => ({ lives: LIVES_COLOUR, players: PLAYER_COLOUR }));
  for (const c of colours.lives) assert.ok(!colours.players.includes(c));
  // A long think (15 spots: the perfect player needs many seconds): the indicator counts, Stop
  // ends it.
  await page.click("#b-new");
  await page.fill("#n-spots", "15");
  await page.selectOption("#p0-who", "computer");
  await page.selectOption("#p0-kind", "perfect");
  await page.fill("#p0-str", "600");
  await page.selectOption("#p1-who", "human");
  await page.click("#n-start");
  await page.waitForSelector("#thinking:not([hidden])", { timeout: 30000 });
  await page.waitForFunction(() => /Blue is thinking… [1-9]\d*\.\d s/.test(document.getElementById("thinking-text").textContent), null, { timeout: 10000 });
  await page.click("#b-stop");
  await page.waitForFunction(() => window.sprouts.state.k === 1 && !window.sprouts.state.busy, null, { timeout: 60000 });
  assert.ok(await page.isHidden("#thinking"));
  // Two computers at the slow pace: at least 1.5 s between moves.
  await page.selectOption("#pace", "1500");
  await H.newGame(page, { spots: 2, players: ["random", "random"] });
  await page.waitForFunction(() => window.sprouts.state.k >= 1, null, { timeout: 20000 });
  const t1 = Date.now();
  await page.waitForFunction(() => window.sprouts.state.k >= 2 || window.sprouts.state.over, null, { timeout: 20000 });
  const gap = Date.now() - t1;
  assert.ok(gap >= 1200, `moves ${gap} ms apart`);
  // Game over: the panel, and Play again starts the same kind of game.
  await page.selectOption("#pace", "0");
  await page.waitForSelector("#d-over[open]", { timeout: 30000 });
  assert.match(await page.textContent("#over-text"), /wins after \d+ moves/);
  const game = (await H.state(page)).game;
  await page.click("#b-again");
  await page.waitForFunction(g => window.sprouts.state.game > g, game);
  const st = await H.state(page);
  assert.equal(st.start_spots, 2);
  assert.deepEqual(st.players.map(p => p.kind), ["computer", "computer"]);
  await page.context().close();
});

/** Chooses option `index` of the select `sel` with the keyboard only. */
async function chooseByKeys(page, sel, index) {
  await page.focus(sel);
  await page.keyboard.press("Home");
  for (let i = 0; i < index; i++) await page.keyboard.press("ArrowDown");
}

test("keyboard-only play of a whole game, and screenshots of the finished game", { timeout: 150000 }, async () => {
  for (const [name, view] of VIEWS) {
    const page = await open(view);
    await H.newGame(page, { spots: 2, players: ["human", "random"] });
    const menu = await page.isVisible("#b-menu");
    if (menu) { await page.focus("#b-menu"); await page.keyboard.press("Enter"); }
    await page.focus("#b-keys");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#keyplay:not([hidden])");
    let st = await H.waitIdle(page);
    let guard = 0;
    while (!st.over) {
      assert.ok(guard++ < 10);
      const live = st.spots.filter(s => s.lives > 0);
      let moved = false;
      for (let i = 0; i < live.length && !moved; i++) {
        for (let j = 0; j < live.length && !moved; j++) {
          if (i === j && live[i].lives < 2) continue;
          await chooseByKeys(page, "#k-from", i);
          await chooseByKeys(page, "#k-to", j);
          const c = await counts(page);
          await page.focus("#k-play");
          await page.keyboard.press("Enter");
          const ans = await H.answer(page, c);
          moved = !ans.refusal && !ans.error;
        }
      }
      assert.ok(moved, "a move was made with the keys in " + st.glop);
      st = await H.waitIdle(page);
    }
    assert.ok(st.over);
    await page.waitForSelector("#d-over[open]");
    await page.focus("#d-over button[value=close]");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => !document.getElementById("d-over").open);
    await page.evaluate(() => { document.getElementById("keyplay").hidden = true; resize(); });
    await page.waitForFunction(() => window.sprouts.settled());
    await page.screenshot({ path: H.artifact(`finished-game-${name}.png`) });
    assert.ok(fs.statSync(H.artifact(`finished-game-${name}.png`)).size > 1000);
    await page.context().close();
  }
});

test("who is winning: off at first; the verdict and the hint's winning moves on request", { timeout: 60000 }, async () => {
  const page = await open(DESKTOP);
  await H.newGame(page, { spots: 3, players: ["human", "random"] });
  assert.equal(await page.isChecked("#who"), false, "off by default");
  assert.ok(await page.isHidden("#verdict"));
  await page.check("#who");
  await page.waitForFunction(() => /can win/.test(document.getElementById("verdict").textContent), null, { timeout: 20000 });
  assert.match(await page.textContent("#verdict"), /^Who is winning: Blue, to move, can win with best play\.$/);
  await page.click("#b-hint");
  await page.waitForFunction(() => /Winning moves: /.test(document.getElementById("verdict").textContent), null, { timeout: 20000 });
  const lit = await page.evaluate(() => window.sprouts.lit.slice());
  assert.ok(lit.length > 0, "the winning moves' spots are lit");
  const words = await page.evaluate(() => window.sprouts.analysis.moves.filter(m => m.winning).map(w => w.words));
  assert.ok(words.length > 0 && words.every(w => /^\d+ -> \d+/.test(w)), words.join("; "));
  await page.context().close();
});

test("phone: a finger held still on a spot marks it (not twice, nothing played); the next move encloses it", { timeout: 60000 }, async () => {
  const page = await open(PHONE);
  await H.newGame(page, { spots: 3, players: ["human", "human"] });
  const st = await H.state(page);
  const at = async id => { const s = (await H.state(page)).spots.find(x => x.id === id); return H.screen(page, s.x, s.y); };
  // Real touch input (the browser's own touch events, its long-press gesture included).
  const cdp = await page.context().newCDPSession(page);
  const hold = async ([x, y], ms, menu = false) => {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y, id: 1 }] });
    // A phone's browser reports a long press as a context menu too (as Chrome on Android does):
    // it must not mark the spot a second time.
    if (menu) {
      await page.waitForTimeout(300);
      await page.evaluate(([x, y]) => document.getElementById("board").dispatchEvent(new PointerEvent("contextmenu", { pointerType: "touch", clientX: x, clientY: y, bubbles: true, cancelable: true })), [x, y]);
    }
    await page.waitForTimeout(ms);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForTimeout(100);
  };
  const marks = () => page.evaluate(() => window.sprouts.marks.slice());
  await hold(await at(3), 900);
  assert.deepEqual(await marks(), [3], "held: marked");
  await hold(await at(3), 900, true);
  assert.deepEqual(await marks(), [], "held with the browser's long-press menu: unmarked once");
  await hold(await at(3), 900, true);
  assert.deepEqual(await marks(), [3], "and marked once");
  await hold(await at(3), 900);
  assert.deepEqual(await marks(), [], "held again: unmarked");
  await hold(await at(2), 900);
  assert.deepEqual(await marks(), [2]);
  assert.equal(await page.evaluate(() => window.sprouts.armed), null, "a hold arms nothing");
  assert.equal((await H.state(page)).k, st.k, "a hold plays nothing");
  // A short tap still arms the spot (no mark); the second tap plays the loop with the mark.
  const ans = await clickMove(page, 1, 1, PHONE);
  assert.equal(ans.error, null); assert.equal(ans.refusal, null);
  assert.deepEqual(await page.evaluate(() => window.sprouts.lastRequest.marks), [2], "the move used the mark");
  assert.match(ans.state.moves[0], /^1 -> 1 enclosing [23]$/);
  assert.deepEqual(await marks(), [], "marks are used once");
  // A spot with no life left can be marked by a hold (it can be enclosed); a tap on it says why
  // no move starts there.
  const ans2 = await clickMove(page, 1, 4, PHONE);
  assert.equal(ans2.error, null); assert.equal(ans2.refusal, null);
  assert.equal(ans2.state.spots.find(x => x.id === 1).lives, 0);
  await hold(await at(1), 900);
  assert.deepEqual(await marks(), [1], "a spot with no life marked");
  await hold(await at(1), 100);
  assert.deepEqual(await marks(), [1], "a tap changes no mark");
  assert.match(await page.textContent("#refusal"), /Spot 1 has no life left/);
  await page.context().close();
});
