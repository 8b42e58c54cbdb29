// End-to-end tests of the campaign in a real browser (Debian's chromium via playwright-core):
// a level started from the Campaign menu is won by playing the moves the Hint lights (the
// solver's winning moves), and the progress shows; another is lost by a move that is not among
// them, and the page offers to try again.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const H = require("./harness");

const env = H.useServerAndBrowser();

/** Opens the Campaign menu and starts level `n`; waits for its game. */
async function startLevel(page, n) {
  if (await page.isVisible("#b-menu")) await page.click("#b-menu");
  await page.click("#b-campaign");
  await page.waitForSelector(`#campaign-levels button[data-level="${n}"]`);
  const game = (await H.state(page)).game;
  await page.click(`#campaign-levels button[data-level="${n}"]`);
  await page.waitForFunction(g => window.sprouts.state.game !== g && window.sprouts.campaign.active, game, { timeout: 60000 });
  return H.waitIdle(page);
}

/** The winning moves the Hint button gives for the position now. */
async function hint(page) {
  const st = await H.state(page);
  await page.click("#b-hint");
  await page.waitForFunction(([g, k]) => {
    const a = window.sprouts.analysis;
    return a && a.game === g && a.k === k && a.done;
  }, [st.game, st.k], { timeout: 60000 });
  return page.evaluate(() => ({
    winning: window.sprouts.analysis.moves.filter(m => m.winning === true)
      .map(m => ({ from: m.from, to: m.to, words: m.words })),
  }));
}

/** The spots to mark for a move in words (`3 -> 3 enclosing 5, 7-8`): one of each boundary. */
function marks(words) {
  const m = words.match(/enclosing (.*)$/);
  if (!m || m[1] === "nothing") return [];
  return m[1].split(",").map(b => parseInt(b.trim().split("-")[0], 10));
}

/** Sends a move as the page does and waits for the answer: true when it was played. */
async function play(page, from, to, mk) {
  const st = await H.state(page);
  const before = await page.evaluate(() => [window.sprouts.refusals.length, window.sprouts.errors.length]);
  await page.evaluate(([k, from, to, marks]) => send({ type: "draw", k, from, to, stroke: [], marks }), [st.k, from, to, mk]);
  await page.waitForFunction(([k, r, e]) => window.sprouts.state.k > k || window.sprouts.refusals.length > r || window.sprouts.errors.length > e,
    [st.k, before[0], before[1]], { timeout: 60000 });
  const played = (await H.state(page)).k > st.k;
  await H.waitIdle(page, 120000);
  return played;
}

/** Levels as the server lists them. */
async function levels(page) {
  return page.evaluate(() => fetch("/campaign").then(r => r.json()).then(m => m.levels));
}

test("a level is won with the Hint's moves and the progress shows", { timeout: 600000 }, async () => {
  const page = await env.open();
  const list = await levels(page);
  assert.ok(list.length >= 150, `${list.length} levels`);
  // A click move takes the shortest way, and marks name only what a loop must enclose: a
  // winning move that must enclose nothing can come out as another move. Such a level is left
  // for the next one; one of the first few is won.
  let won = null, st;
  for (const level of list.filter(l => l.win_length >= 3).slice(0, 8)) {
    st = await startLevel(page, level.number);
    assert.equal(st.k, 0);
    assert.equal(st.human_to_move, true, "the person moves first");
    assert.deepEqual(st.players[1], { kind: "computer", spec: "perfect:5s" });
    assert.match(await page.textContent("#campaign-info"), new RegExp(`Level ${level.number}`));
    while (!(st = await H.state(page)).over) {
      const a = await hint(page);
      if (!a.winning.length) break;
      let played = false;
      for (const w of a.winning) {
        if (await play(page, w.from, w.to, marks(w.words))) { played = true; break; }
      }
      if (!played) break;
    }
    if (st.over && st.winner === 0) { won = level; break; }
  }
  assert.ok(won, "a level was won with the Hint's moves");
  await page.waitForFunction(n => document.getElementById("notice").textContent.includes(`Level ${n} won`), won.number);
  assert.match(await page.textContent("#b-campaign"), /Campaign \(1\/\d+\)/);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("sprouts.campaign")));
  assert.deepEqual(kept.won, [won.number]);
  await page.click("#b-campaign");
  await page.waitForSelector(`#campaign-levels button.won[data-level="${won.number}"]`);
  assert.match(await page.textContent("#campaign-progress"), /^1 of \d+ levels won/);
});

test("a level is lost by a move the Hint does not light", { timeout: 300000 }, async () => {
  const page = await env.open();
  const list = await levels(page);
  const level = list.find(l => l.winning_moves === 1 && l.moves >= 4 && l.win_length <= 7);
  let st = await startLevel(page, level.number);
  const a = await hint(page);
  const good = new Set(a.winning.map(w => w.from + ":" + w.to));
  // Moves between two spots with lives (or a loop), none of them the winning move's spots.
  const tryAny = async avoid => {
    const s = (await H.state(page)).spots.filter(p => p.lives > 0);
    for (const x of s) for (const y of s) {
      if (x.id > y.id || (x.id === y.id && x.lives < 2)) continue;
      if (avoid && (good.has(x.id + ":" + y.id) || good.has(y.id + ":" + x.id))) continue;
      if (await play(page, x.id, y.id, [])) return true;
    }
    return false;
  };
  assert.ok(await tryAny(true), "a move that does not win was played");
  while (!(st = await H.state(page)).over) {
    assert.ok(await tryAny(false), "a move was played");
  }
  assert.equal(st.winner, 1, "the perfect player won");
  await page.waitForFunction(n => document.getElementById("notice").textContent.includes(`Level ${n} lost`), level.number);
  assert.match(await page.textContent("#notice"), /Try again/);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("sprouts.campaign")));
  assert.deepEqual(kept.won, []);
});
