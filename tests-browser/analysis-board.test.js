// The analysis board in the page: off until asked for, one analysis a position shared with "Who
// is winning", its verdicts equal to `sprouts solve` run apart from the server on the same
// positions, the winning moves lit on the picture, "unknown" where the budget ran out.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const H = require("./harness");

const env = H.useServerAndBrowser();

/** `sprouts solve POSITION --nimber`, run apart from the server: { outcome: "W"|"L", nimber }. */
const solved = new Map();
function solve(position) {
  if (solved.has(position)) return solved.get(position);
  const args = ["solve", position, "--nimber", "--threads", "1"];
  const out = process.env.SPROUTS_BIN
    ? execFileSync(process.env.SPROUTS_BIN, args, { encoding: "utf8" })
    : execFileSync("cargo", ["run", "--release", "--quiet", "-p", "sprouts-cli", "--bin", "sprouts", "--", ...args], { cwd: H.ROOT, encoding: "utf8" });
  const fields = out.trim().split("\t");
  const m = fields.join(" ").match(/nimber (\d+)/);
  assert.ok(m && /^[WL]$/.test(fields[1]), `sprouts solve ${position}: ${out}`);
  const r = { outcome: fields[1], nimber: Number(m[1]) };
  solved.set(position, r);
  return r;
}

/** Opens the board (if closed) and waits for the analysis of the position in play to end. */
async function boardDone(page) {
  if (!(await page.evaluate(() => window.sprouts.board.open))) await page.click("#b-board");
  await page.waitForFunction(() => {
    const a = window.sprouts.analysis, s = window.sprouts.state;
    return a && s && a.key === s.game + ":" + s.k && a.done;
  }, null, { timeout: 60000 });
  return page.evaluate(() => window.sprouts.analysis);
}

/** Every verdict of the board against `sprouts solve`. */
function checkAgainstSolve(a) {
  assert.ok(a.complete, "settled within the budget");
  const whole = solve(a.canonical);
  assert.equal(a.outcome.wins, whole.outcome === "W", a.canonical);
  assert.equal(a.outcome.nimber, whole.nimber, a.canonical);
  for (const p of a.parts) assert.equal(p.nimber, solve(p.land).nimber, p.land);
  assert.equal(a.moves.length, a.moveCount);
  for (const mv of a.moves) {
    const child = solve(mv.child);
    assert.equal(mv.nimber, child.nimber, mv.words);
    assert.equal(mv.winning, child.outcome === "L", mv.words);
  }
  assert.equal(a.moves.some(m => m.winning), whole.outcome === "W", "a winning move exactly when the position is won");
}

/** How many `analyse` messages the page sends from now on. */
async function countAnalyse(page) {
  await page.evaluate(() => {
    const ws = window.sprouts.ws, send = ws.send.bind(ws);
    window.sprouts.analyseSent = 0;
    ws.send = text => { if (JSON.parse(text).type === "analyse") window.sprouts.analyseSent++; send(text); };
  });
}

test("the analysis board: off at first, its verdicts equal sprouts solve, winning moves lit, one analysis shared with Who is winning", { timeout: 300000 }, async () => {
  const page = await env.open({ width: 1280, height: 800 });
  await H.newGame(page, { spots: 3, players: ["human", "random"] });
  assert.ok(await page.isHidden("#board-panel"), "closed by default");
  assert.equal(await page.evaluate(() => window.sprouts.analysis), null, "nothing analysed unasked");
  await countAnalyse(page);
  let a = await boardDone(page);
  assert.equal(a.canonical, "0*3");
  assert.deepEqual([a.lower, a.upper], [6, 8]);
  checkAgainstSolve(a);
  const text = await page.textContent("#board-panel");
  assert.match(text, /Outcome: the player to move wins \(nimber 1\)/);
  assert.match(text, /0\*3\s+nimber 1/);
  const rows = await page.$$eval("#bp-moves tbody tr", trs => trs.map(tr => [...tr.cells].map(c => c.textContent)));
  assert.equal(rows.length, a.moves.length);
  rows.forEach((r, i) => {
    assert.equal(r[0], a.moves[i].words);
    assert.equal(r[2], a.moves[i].winning ? "winning" : "losing");
    assert.match(r[1], new RegExp(`\\(nimber ${a.moves[i].nimber}\\)$`));
  });
  // "Who is winning" reads the same analysis: no second one is asked for.
  await page.check("#who");
  await page.waitForFunction(() => /can win/.test(document.getElementById("verdict").textContent));
  assert.match(await page.textContent("#verdict"), /^Who is winning: Blue, to move, can win with best play\.$/);
  assert.equal(await page.evaluate(() => window.sprouts.analyseSent), 1, "one analysis for the board and the verdict");
  // A winning move between two spots is drawn on the picture in green.
  const green = await page.evaluate(() => {
    const S = window.sprouts, a = S.analysis, mv = a.moves.find(m => m.winning && m.from !== m.to);
    if (!mv) return null;
    const s = S.state.spots.find(x => x.id === mv.from), t = S.state.spots.find(x => x.id === mv.to);
    const c = document.getElementById("board"), g = c.getContext("2d");
    const box = c.getBoundingClientRect();
    let hits = 0;
    for (let i = 1; i < 20; i++) {
      const f = 0.3 + 0.4 * i / 20, [x, y] = S.toScreen(s.x + f * (t.x - s.x), s.y + f * (t.y - s.y));
      const [r, gg, b] = g.getImageData(Math.round((x - box.left) * c.width / box.width), Math.round((y - box.top) * c.height / box.height), 1, 1).data;
      if (gg > r + 40 && gg > b + 20) hits++;
    }
    return hits;
  });
  await page.screenshot({ path: H.artifact("analysis-board.png") });
  if (green !== null) assert.ok(green > 0, "the winning move is lit");
  // The board follows the game: after a move (the computer's reply too), the new position.
  await page.uncheck("#who");
  const st = await H.state(page);
  const s1 = st.spots.find(s => s.id === 1), s2 = st.spots.find(s => s.id === 2);
  const c = await H.stroke(page, [[s1.x, s1.y], [(s1.x + s2.x) / 2, (s1.y + s2.y) / 2 + 30], [s2.x, s2.y]]);
  await H.answer(page, c);
  await H.waitIdle(page);
  const now = await H.state(page);
  if (!now.over) {
    a = await boardDone(page);
    assert.equal(a.k, now.k);
    checkAgainstSolve(a);
  }
  await page.context().close();
});

test("the analysis board on a typed position and in misère play; unknown where the budget ran out", { timeout: 300000 }, async () => {
  const page = await env.open({ width: 1280, height: 800 });
  // A typed position.
  await page.click("#b-new");
  await page.fill("#n-position", "0*2.1a1a");
  await page.selectOption("#p0-who", "human");
  await page.selectOption("#p1-who", "human");
  const logs = await page.evaluate(() => window.sprouts.log.length);
  await page.click("#n-start");
  await page.waitForFunction(b => window.sprouts.log.slice(b).some(l => l.startsWith("game ")), logs, { timeout: 30000 });
  let a = await boardDone(page);
  assert.ok(a.parts.length >= 1);
  checkAgainstSolve(a);
  // Misère: verdicts without nimbers.
  await page.click("#b-new"); await page.fill("#n-position", ""); await page.click("#d-new button[value=cancel]");
  await H.newGame(page, { spots: 2, players: ["human", "human"], convention: "misere" });
  a = await boardDone(page);
  assert.equal(a.misere, true);
  assert.equal(a.outcome.nimber, null);
  assert.ok(a.moves.every(m => m.nimber === null && m.winning !== null));
  assert.equal(a.outcome.wins, a.moves.some(m => m.winning));
  // Too small a budget for 14 spots: what was not settled says "unknown", nothing is guessed.
  await H.newGame(page, { spots: 14, players: ["human", "human"] });
  await page.selectOption("#bp-seconds", "2");
  a = await boardDone(page);
  assert.equal(a.complete, false);
  const unknown = a.moves.filter(m => m.winning === null).length;
  assert.ok(unknown > 0, "some moves are not settled in 2 s");
  const cells = await page.$$eval("#bp-moves tbody tr", trs => trs.map(tr => tr.cells[2].textContent));
  assert.equal(cells.filter(c => c === "unknown").length, unknown);
  assert.ok(cells.every(c => ["unknown", "winning", "losing"].includes(c)));
  await page.context().close();
});
