
// ---------- keeping the game: the page's storage, reload and server restart ----------
// After every change of the game the page asks for its record (`snapshot`) and keeps it in
// localStorage; when a session opens (a reload, or the server back after a restart) the kept
// game is loaded again, players, convention, settings, history and log with it.
const KEEP_KEY = "sprouts.lastGame";
const KEEP_MAX = 2_000_000; // characters: a record larger than this is not kept
function keptGame() {
  try { const t = localStorage.getItem(KEEP_KEY); return t ? JSON.parse(t) : null; } catch (e) { return null; }
}
S.keptGame = keptGame;
S.on("snapshot", m => {
  if (m.json.length > KEEP_MAX) return;
  try { localStorage.setItem(KEEP_KEY, JSON.stringify({ k: m.k, over: m.over, json: m.json, at: Date.now() })); } catch (e) { /* storage full or off: the game is not kept */ }
});
// Asks for a snapshot when a state shows a game at rest that differs from the one kept.
S.on("state", st => {
  // A network game is kept by net.js (its seat in the room), not as a game of this page's own.
  if (st.busy || S.resuming || sessionStorage.getItem(NET_KEY)) return;
  const key = st.game + ":" + st.k + ":" + st.moves.length + ":" + st.over + ":" + JSON.stringify(st.settings) + ":" + JSON.stringify(st.players);
  if (key === S.keptKey) return;
  S.keptKey = key;
  send({ type: "snapshot" });
});
// On a new session: the kept game if there is one (it is loaded; New game starts afresh).
S.resume = () => {
  const kept = keptGame();
  if (!kept || kept.over) return false;
  S.resuming = true;
  loadText(kept.json);
  showNotice(`Your last game was resumed (${kept.k} move${kept.k === 1 ? "" : "s"} played).`, "Start a new game instead", () => $("b-new").click());
  return true;
};
S.on("state", () => { S.resuming = false; });
S.on("error", () => { if (S.resuming) { S.resuming = false; if (!S.state) newGame(defaultGame()); } });
function showNotice(text, action, fn) {
  const el = $("notice");
  el.textContent = text;
  if (action) {
    const b = document.createElement("button");
    b.textContent = action;
    b.onclick = () => { el.hidden = true; fn(); };
    el.appendChild(b);
  }
  const close = document.createElement("button");
  close.textContent = "×"; close.title = "Close"; close.setAttribute("aria-label", "Close");
  close.onclick = () => { el.hidden = true; };
  el.appendChild(close);
  el.hidden = false;
}
S.showNotice = showNotice;
