// Starts `sprouts serve` on a free port and Debian's chromium, and drives the page with the mouse.
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");
const fs = require("node:fs");
const net = require("node:net");
const { chromium } = require("playwright-core");

const ROOT = path.resolve(__dirname, "..");
const ARTIFACTS = path.join(__dirname, "artifacts");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

/**
 * Starts the server (`sprouts serve --port 0`, or `port`) and resolves with its URL. The binary is
 * `SPROUTS_BIN` when that is set (the test script passes the one it has just built), otherwise it
 * is built and run by `cargo run --release`. The server keeps its games in the directory `data`,
 * or none (`--no-data`) when it is not given, so that a test's fresh page starts a fresh game.
 */
function startServer({ data, port = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const serve = ["serve", "--port", String(port)].concat(data ? ["--data", data] : ["--no-data"]);
    const [program, args] = process.env.SPROUTS_BIN
      ? [process.env.SPROUTS_BIN, serve]
      : ["cargo", ["run", "--release", "--quiet", "-p", "sprouts-cli", "--bin", "sprouts", "--", ...serve]];
    const child = spawn(program, args, {
      cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], detached: false,
    });
    let out = "", err = "";
    const timer = setTimeout(() => reject(new Error("the server did not start in 15 minutes:\n" + err)), 15 * 60 * 1000);
    child.stdout.on("data", d => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) { clearTimeout(timer); resolve({ url: m[0], child, stderr: () => err }); }
    });
    child.stderr.on("data", d => { err += d; if (process.env.SPROUTS_SERVER_LOG) process.stderr.write(d); });
    child.on("exit", code => { clearTimeout(timer); reject(new Error("the server exited with " + code + ":\n" + err)); });
  });
}

function stopServer(server) {
  if (server && server.child && server.child.exitCode === null) server.child.kill("SIGINT");
}

/** A port free on the loopback interface when asked (for a server restarted on the same port). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on("error", reject);
  });
}

/** The server on exactly `port` (see `startServer`), keeping its games in `data` if given. */
async function startServerOn(port, data) {
  const server = await startServer({ port, data });
  if (!server.url.endsWith(":" + port + "/")) { stopServer(server); throw new Error(`the port ${port} was taken`); }
  return server;
}

/** Stops the server and resolves once it has exited, so that its port is free again. */
function stopServerAndWait(server) {
  return new Promise(resolve => {
    if (server.child.exitCode !== null) return resolve();
    server.child.removeAllListeners("exit");
    server.child.on("exit", () => resolve());
    server.child.kill("SIGINT");
  });
}

async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * Registers the file's `before` and `after` hooks: one server and one browser for all the file's
 * tests. Returns the shared environment; `env.open(viewport)` opens a page on the server.
 */
function useServerAndBrowser() {
  const { before, after } = require("node:test");
  const env = {
    server: null,
    browser: null,
    open: (viewport, options) => openPage(env.browser, env.server.url, viewport, options),
  };
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
  }, { timeout: 16 * 60 * 1000 });
  after(async () => {
    if (env.browser) await env.browser.close();
    stopServer(env.server);
  });
  return env;
}

/** A new page on the server, with the welcome and the first state received. */
async function openPage(browser, url, viewport = { width: 900, height: 650 }, options = {}) {
  const context = await browser.newContext(Object.assign({ viewport, acceptDownloads: true }, options.context || {}));
  // The help shown on a first visit is opened only by the tests that look at it.
  if (!options.firstVisit) await context.addInitScript(() => { try { localStorage.setItem("sprouts.helpSeen", "1"); } catch (e) { /* none */ } });
  const page = await context.newPage();
  page.on("pageerror", e => { throw e; });
  await page.goto(url);
  await page.waitForFunction(() => window.sprouts && window.sprouts.state);
  return page;
}

/** Starts a game through the New game dialog. `players` are [blue, red], each "human" or a
 * computer kind ("random", ...). */
async function newGame(page, { spots, players = ["human", "human"], first = 0, convention = "normal" }) {
  // On a narrow screen the tools are in the Menu.
  if (await page.isVisible("#b-menu")) await page.click("#b-menu");
  await page.click("#b-new");
  await page.fill("#n-spots", String(spots));
  await page.selectOption("#n-conv", convention);
  for (let i = 0; i < 2; i++) {
    if (players[i] === "human") await page.selectOption(`#p${i}-who`, "human");
    else {
      await page.selectOption(`#p${i}-who`, "computer");
      await page.selectOption(`#p${i}-kind`, players[i]);
    }
  }
  await page.selectOption("#n-first", String(first));
  const before = await page.evaluate(() => window.sprouts.log.length);
  await page.click("#n-start");
  await page.waitForFunction(b => window.sprouts.log.slice(b).some(l => l.startsWith("game ")), before);
  await page.waitForFunction(() => window.sprouts.state.k === 0 || window.sprouts.state.busy || true);
}

const state = page => page.evaluate(() => window.sprouts.state);

/** The screen point of a world point. */
const screen = (page, x, y) => page.evaluate(([x, y]) => window.sprouts.toScreen(x, y), [x, y]);

/** Waits until the page is idle at a person's turn or the game is over; returns the state. */
async function waitIdle(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const s = window.sprouts.state;
    return s && !s.busy && (s.over || s.human_to_move || s.paused);
  }, null, { timeout });
  return state(page);
}

/** Presses at world point `a`, moves through `via` (world points) in small steps, releases at
 * the last one. Waits for the server's answer (a new state or a refusal or an error). */
async function stroke(page, points, { steps = 6 } = {}) {
  const counts = await page.evaluate(() => [window.sprouts.refusals.length, window.sprouts.errors.length, window.sprouts.state.k]);
  const [x0, y0] = await screen(page, ...points[0]);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  let prev = [x0, y0];
  for (const p of points.slice(1)) {
    const [x, y] = await screen(page, ...p);
    for (let s = 1; s <= steps; s++) {
      await page.mouse.move(prev[0] + (x - prev[0]) * s / steps, prev[1] + (y - prev[1]) * s / steps);
    }
    prev = [x, y];
  }
  await page.mouse.up();
  return counts;
}

/** Waits for the answer to a move request made when the counts were `counts`. */
async function answer(page, counts, timeout = 60000) {
  await page.waitForFunction(([r, e, k]) => {
    const S = window.sprouts;
    return S.refusals.length > r || S.errors.length > e || (S.state.k !== k && !S.state.busy);
  }, counts, { timeout });
  return page.evaluate(([r, e]) => ({ refusal: window.sprouts.refusals[r] || null, error: window.sprouts.errors[e] || null, state: window.sprouts.state }), counts);
}

/** Presses on spot `from`, waits for the lit destinations, and returns them. */
async function lit(page, from) {
  const st = await state(page);
  const s = st.spots.find(x => x.id === from);
  const [x, y] = await screen(page, s.x + 0.01, s.y + 0.01);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.waitForFunction(f => window.sprouts.litFrom === f, from, { timeout: 20000 }).catch(() => {});
  const spots = await page.evaluate(() => window.sprouts.lit.slice());
  return spots;
}

function artifact(name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}

module.exports = { startServer, stopServer, freePort, startServerOn, stopServerAndWait, launch, useServerAndBrowser, openPage, newGame, state, screen, waitIdle, stroke, answer, lit, artifact, ROOT };
