// Network play in a real browser: two browser contexts (two players with nothing shared) play a
// whole game through the relay of one `sprouts serve` on loopback, with an undo, a reload of each
// side, and the server (and its relay) stopped and started again on its store in the middle.
"use strict";
const { test, after } = require("node:test");
const assert = require("node:assert/strict");
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const H = require("./harness");

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sprouts-net-"));
const DB = path.join(DIR, "relay.redb");

/** `sprouts serve --port PORT --relay-db DB`; resolves with its URL and process. */
function serve(port) {
  return new Promise((resolve, reject) => {
    const args = ["serve", "--port", String(port), "--relay-db", DB, "--no-data"];
    const [program, argv] = process.env.SPROUTS_BIN
      ? [process.env.SPROUTS_BIN, args]
      : ["cargo", ["run", "--release", "--quiet", "-p", "sprouts-cli", "--bin", "sprouts", "--", ...args]];
    const child = spawn(program, argv, { cwd: H.ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    child.stdout.on("data", d => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ url: m[0], port: Number(m[1]), child });
    });
    child.stderr.on("data", d => { err += d; if (process.env.SPROUTS_SERVER_LOG) process.stderr.write(d); });
    child.on("exit", code => reject(new Error("the server exited with " + code + ":\n" + err)));
  });
}

let server = null, browser = null;
after(async () => {
  if (browser) await browser.close();
  if (server) await H.stopServerAndWait(server);
  fs.rmSync(DIR, { recursive: true, force: true });
});

/** A player's page in its own browser context, with its name kept as the Net menu keeps it. */
async function player(name, url) {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  await context.addInitScript(n => {
    localStorage.setItem("sprouts-net-name", n);
    // The help a first visit opens would cover the menus.
    localStorage.setItem("sprouts.helpSeen", "1");
  }, name);
  const page = await context.newPage();
  page.on("pageerror", e => { throw e; });
  await page.goto(url);
  return page;
}

/** Each spot's lives, by spot: the same on both sides (spot numbers agree, the pictures not). */
const lives = st => st.spots.map(s => s.id + ":" + s.lives).join(" ");

const net = page => page.evaluate(() => ({ net: window.sprouts.net, state: window.sprouts.state }));

/** Waits until both pages show the same game at `k` moves (or any, when k is null), both seated,
 * the other side there, nothing waiting for an ack. */
async function inStep(pages, k = null, timeout = 15000) {
  for (const p of pages) {
    await p.waitForFunction(k => {
      const S = window.sprouts;
      return S.net && S.net.active && S.net.link === "up" && S.net.peer_name && !S.net.waiting &&
        S.state && !S.state.busy && (k === null || S.state.k === k);
    }, k, { timeout }).catch(async e => {
      const seen = await Promise.all(pages.map(q => q.evaluate(() => ({
        net: window.sprouts.net && Object.assign({}, window.sprouts.net, { back: undefined }),
        k: window.sprouts.state && window.sprouts.state.k, log: window.sprouts.log.slice(-12),
      })).catch(x => String(x))));
      throw new Error(`not in step at ${k} moves: ${e.message}\n${JSON.stringify(seen, null, 1)}`);
    });
  }
  const [a, b] = await Promise.all(pages.map(net));
  assert.equal(a.state.k, b.state.k, "both sides have played the same number of moves");
  return [a, b];
}

/** The side whose turn it is makes a move: a click move between two spots with lives (the
 * shortest way), trying pairs until the router draws one. */
async function move(page) {
  const ok = await page.evaluate(async () => {
    const S = window.sprouts;
    const alive = S.state.spots.filter(s => s.lives > 0);
    const pairs = [];
    for (const a of alive) for (const b of alive) if (a.id < b.id || (a.id === b.id && a.lives >= 2)) pairs.push([a.id, b.id]);
    for (const [a, b] of pairs) {
      const e = S.errors.length, r = S.refusals.length, k = S.state.k;
      send({ type: "draw", k, from: a, to: b });
      const done = await new Promise(res => {
        const t = setInterval(() => {
          if (S.errors.length > e || S.refusals.length > r) { clearInterval(t); res(false); }
          else if (S.state.k !== k && !S.state.busy) { clearInterval(t); res(true); }
        }, 20);
      });
      if (done) return true;
    }
    return false;
  });
  assert.ok(ok, "some move could be drawn");
}

/** The page whose person is to move. */
async function mover(pages) {
  for (const p of pages) if ((await net(p)).net.my_turn) return p;
  throw new Error("neither side may move");
}

test("two browsers play a whole game through the relay: undo, a reload of each side, the server restarted", { timeout: 60000 }, async () => {
  const t0 = Date.now();
  const step = s => process.env.NET_TRACE && console.error(`step ${Date.now() - t0} ms: ${s}`);
  server = await serve(0);
  step("served");
  browser = await H.launch();
  const host = await player("Alice", server.url);
  await host.waitForFunction(() => window.sprouts.state);
  await host.evaluate(() => window.sprouts.netHost("Alice", 4, "normal"));
  await host.waitForFunction(() => window.sprouts.net && window.sprouts.net.room);
  const room = (await net(host)).net.room;
  step("room " + room);
  assert.match(room, /^[0-9a-f]{32}$/);
  // The Net menu shows the code and the link.
  await host.click("#b-net");
  assert.equal(await host.textContent("#net-code-shown"), room);
  assert.equal(await host.inputValue("#net-link"), server.url + "?join=" + room);
  await host.keyboard.press("Escape");

  const guest = await player("Bob", server.url + "?join=" + room);
  step("guest opened");
  const pages = [host, guest];
  let [h, g] = await inStep(pages, 0);
  assert.equal(h.net.peer_name, "Bob");
  assert.equal(g.net.peer_name, "Alice");
  assert.equal(h.net.role, "host");
  assert.equal(g.net.role, "guest");
  assert.ok(h.net.my_turn && !g.net.my_turn, "the host moves first");
  assert.match(await host.textContent("#status"), /^Net \(host\): playing Bob · your turn/);
  assert.match(await guest.textContent("#status"), /^Net \(guest\): playing Alice · Alice's turn/);
  // Each side drew its own picture of the same position.
  assert.equal(h.state.spots.length, 4);

  // Two moves, then the guest takes back the last one (its own... or the host's: whoever made it).
  step("first moves");
  await move(host); await inStep(pages, 1);
  await move(guest); await inStep(pages, 2);
  await guest.evaluate(() => send({ type: "undo", k: window.sprouts.state.k }));
  [h, g] = await inStep(pages, 1);
  assert.equal(lives(h.state), lives(g.state), "the same position on both sides after the undo");
  assert.ok(g.net.my_turn, "the guest moves again");
  assert.ok((await host.evaluate(() => window.sprouts.log)).some(l => /taken back \(guest\)/.test(l)));
  assert.ok((await guest.evaluate(() => window.sprouts.stats.netWaits || 0)) > 0, "the guest's page was greyed while its undo waited for the ack");

  await move(guest); await inStep(pages, 2);
  // A reload of each side: the page comes back to its seat and its game.
  step("guest reload");
  await guest.reload();
  [h, g] = await inStep(pages, 2);
  assert.equal(g.net.role, "guest");
  await move(await mover(pages)); await inStep(pages, 3);
  step("host reload");
  await host.reload();
  [h, g] = await inStep(pages, 3);
  assert.equal(h.net.role, "host");

  // The server (and the relay in it) stopped and started again on the same port and store: both
  // pages come back by themselves and go on with the same game.
  const before = h.state.glop;
  step("server restart");
  await H.stopServerAndWait(server);
  server = await serve(server.port);
  [h, g] = await inStep(pages, 3);
  assert.equal(h.state.glop, before);
  assert.equal(g.state.glop, before);

  step("to the end");
  // To the end of the game.
  let guard = 0;
  for (;;) {
    const [a] = await inStep(pages);
    if (a.state.over) break;
    assert.ok(guard++ < 20, "a 4-spot game lasts at most 11 moves");
    await move(await mover(pages));
  }
  step("game over");
  [h, g] = await inStep(pages);
  assert.ok(h.state.over && g.state.over);
  assert.equal(h.state.winner, g.state.winner);
  assert.equal(lives(h.state), lives(g.state));
  assert.ok(h.state.k >= 8 && h.state.k <= 11, `a 4-spot game lasts 8 to 11 moves, this one ${h.state.k}`);
});
