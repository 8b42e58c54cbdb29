// The game survives a restart of the server: the page reconnects by itself and loads the game
// it kept. The server runs on a fixed free port here, so that the page finds it again.
"use strict";
const { test, after } = require("node:test");
const assert = require("node:assert/strict");
const H = require("./harness");

let browser = null, server = null;
after(async () => { if (browser) await browser.close(); if (server) await H.stopServerAndWait(server); });

test("the game survives a restart of the server: the page reconnects and resumes it", { timeout: 16 * 60 * 1000 }, async () => {
  const port = await H.freePort();
  server = await H.startServerOn(port);
  browser = await H.launch();
  const page = await H.openPage(browser, server.url, { width: 1280, height: 800 });
  await H.newGame(page, { spots: 3, players: ["human", "human"] });
  const st0 = await H.state(page);
  const [a, b] = [st0.spots[0], st0.spots[1]];
  const c = await H.stroke(page, [[a.x, a.y], [(a.x + b.x) / 2, (a.y + b.y) / 2 + 20], [b.x, b.y]]);
  const ans = await H.answer(page, c);
  assert.equal(ans.state.k, 1);
  await page.waitForFunction(() => { const k = window.sprouts.keptGame(); return k && k.k === 1; });
  await H.stopServerAndWait(server);
  await page.waitForFunction(() => /connection to the server was lost/.test(document.getElementById("status").textContent));
  server = await H.startServerOn(port);
  await page.waitForFunction(() => window.sprouts.session && window.sprouts.state.k === 1 && !window.sprouts.state.busy, null, { timeout: 30000 });
  const st = await H.state(page);
  assert.deepEqual(st.moves, ans.state.moves);
  assert.ok(st.can_undo);
  // And play goes on.
  const s3 = st.spots.find(s => s.id === 3);
  const c2 = await H.stroke(page, [[s3.x, s3.y], [(s3.x + b.x) / 2 + 15, (s3.y + b.y) / 2], [b.x, b.y]]);
  const ans2 = await H.answer(page, c2);
  assert.equal(ans2.state.k, 2, JSON.stringify(ans2));
});
