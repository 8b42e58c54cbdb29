// The server's copy of the game (`sprouts serve --data DIR`): a game survives a restart of the
// server even for a browser that kept nothing, and the newer of the page's copy and the
// server's is the one resumed. The server runs on a fixed free port, restarted on the same one.
"use strict";
const { test, after } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const H = require("./harness");

/** The kept games in `data`: their envelopes, by id. */
function keptFiles(data) {
  const out = {};
  for (const f of fs.readdirSync(data)) {
    const m = f.match(/^game-([0-9a-f]{16})\.json$/);
    if (m) out[m[1]] = JSON.parse(fs.readFileSync(path.join(data, f), "utf8"));
  }
  return out;
}

/** Waits until the server's copy of the game holds `k` moves; returns its envelope. */
async function keptOnDisk(data, k) {
  for (let i = 0; i < 200; i++) {
    const found = Object.values(keptFiles(data)).find(e => e.k === k);
    if (found) return found;
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error(`no game with ${k} moves kept in ${data}: ${JSON.stringify(Object.values(keptFiles(data)).map(e => e.k))}`);
}

/** A move from spot a to spot b drawn by hand, bowed by `bow` pixels. */
async function move(page, a, b, bow) {
  const st = await H.state(page);
  const sa = st.spots.find(s => s.id === a), sb = st.spots.find(s => s.id === b);
  const c = await H.stroke(page, [[sa.x, sa.y], [(sa.x + sb.x) / 2 + bow, (sa.y + sb.y) / 2 + bow], [sb.x, sb.y]]);
  const ans = await H.answer(page, c);
  assert.equal(ans.state.k, st.k + 1, JSON.stringify(ans));
  return ans.state;
}

const data = fs.mkdtempSync(path.join(os.tmpdir(), "sprouts-kept-"));
let browser = null, server = null;
after(async () => {
  if (browser) await browser.close();
  if (server) await H.stopServerAndWait(server);
  fs.rmSync(data, { recursive: true, force: true });
});

test("the server keeps the game: after a restart a browser with empty storage resumes it, and the newer copy wins", { timeout: 16 * 60 * 1000 }, async () => {
  const port = await H.freePort();
  server = await H.startServerOn(port, data);
  browser = await H.launch();
  const one = await H.openPage(browser, server.url, { width: 1280, height: 800 });
  await H.newGame(one, { spots: 3, players: ["human", "human"], convention: "misere" });
  await move(one, 1, 2, 20);
  const played = await move(one, 3, 2, -25);
  const kept = await keptOnDisk(data, 2);
  assert.equal(kept.format, "sprouts-kept-game");
  assert.equal(kept.over, false);
  const log = await one.evaluate(() => window.sprouts.log.filter(l => !l.startsWith("error: ")));
  // The page's copy carries the same id and stamp as the server's.
  await one.waitForFunction(() => { const k = window.sprouts.keptGame(); return k && k.k === 2; });
  const local = await one.evaluate(() => window.sprouts.keptGame());
  assert.equal(local.id, kept.id);
  assert.equal(local.at, kept.at);

  // The server stops and starts again on its data directory.
  await H.stopServerAndWait(server);
  server = await H.startServerOn(port, data);
  // A browser that kept nothing: the server's copy is resumed, the same position and log.
  const two = await H.openPage(browser, server.url, { width: 1280, height: 800 });
  await two.waitForFunction(() => { const s = window.sprouts.state; return s && s.k === 2 && !s.busy; }, null, { timeout: 30000 });
  assert.equal(await two.evaluate(() => window.sprouts.resumedFrom), "server");
  const st = await H.state(two);
  assert.equal(st.glop, played.glop);
  assert.deepEqual(st.moves, played.moves);
  assert.equal(st.convention, "misere");
  assert.ok(st.can_undo, "the history came back too");
  const resumed = await two.evaluate(() => window.sprouts.log.slice());
  for (const line of log) assert.ok(resumed.includes("  (saved) " + line), `${line} in\n${resumed.join("\n")}`);
  assert.match(await two.textContent("#notice"), /Your last game was resumed \(2 moves played\)/);

  // The second browser plays on: the server's copy (same id) is now newer than the first
  // browser's, which resumes it on a reload.
  const files = Object.keys(keptFiles(data)).sort();
  const third = await move(two, 1, 3, 30);
  const after3 = await keptOnDisk(data, 3);
  assert.equal(after3.id, kept.id, "the same game goes on under its id");
  assert.deepEqual(Object.keys(keptFiles(data)).sort(), files, "no other file");
  // (The first page reconnected by itself after the restart; if it did so only after the third
  // move it has already taken the newer copy, by the same rule.)
  const sawThird = (await H.state(one)).k === 3;
  await one.reload();
  await one.waitForFunction(() => { const s = window.sprouts.state; return s && s.k === 3 && !s.busy; }, null, { timeout: 30000 });
  if (!sawThird) assert.equal(await one.evaluate(() => window.sprouts.resumedFrom), "server");
  assert.deepEqual((await H.state(one)).moves, third.moves);

  // A page's own copy newer than the server's (here: the server's data gone) is the one kept.
  await two.context().close();
  await H.stopServerAndWait(server);
  for (const f of fs.readdirSync(data)) fs.rmSync(path.join(data, f));
  server = await H.startServerOn(port, data);
  await one.reload();
  await one.waitForFunction(() => { const s = window.sprouts.state; return s && s.k === 3 && !s.busy; }, null, { timeout: 30000 });
  assert.equal(await one.evaluate(() => window.sprouts.resumedFrom), "page");
  const again = await keptOnDisk(data, 3);
  assert.equal(again.id, kept.id, "the page's copy goes on under its id on the server");

  // A spoiled file is refused at start with the reason; the server runs and a new page starts
  // a new game.
  await one.context().close();
  await H.stopServerAndWait(server);
  fs.writeFileSync(path.join(data, `game-${kept.id}.json`), "{\"format\": 7");
  server = await H.startServerOn(port, data);
  for (let i = 0; i < 100 && !/is refused/.test(server.stderr()); i++) await new Promise(r => setTimeout(r, 100));
  assert.match(server.stderr(), new RegExp(`game-${kept.id}\\.json is refused: it is not a kept game`));
  const four = await H.openPage(browser, server.url, { width: 900, height: 650 });
  const st4 = await H.state(four);
  assert.equal(st4.k, 0, "nothing to resume: a new game");
  assert.equal(await four.evaluate(() => window.sprouts.resumedFrom || null), null);
  await four.context().close();
});
