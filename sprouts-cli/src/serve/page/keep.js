
// ---------- keeping the game: the page's storage, reload and server restart ----------
// After every change of the game the page asks for its record (`snapshot`) and keeps it in
// localStorage; the server keeps its own copy on disk. Both copies carry the game's id and the
// server's time stamp of the state they hold. When a session opens (a reload, a new browser,
// or the server back after a restart) the newer of the page's copy and the server's last kept
// game is loaded again, players, convention, settings, history and log with it.
const KEEP_KEY = "sprouts.lastGame";
const KEEP_MAX = 2_000_000; // characters: a record larger than this is not kept
function keptGame() {
  try { const t = localStorage.getItem(KEEP_KEY); return t ? JSON.parse(t) : null; } catch (e) { return null; }
}
S.keptGame = keptGame;
S.on("snapshot", m => {
  if (m.json.length > KEEP_MAX) return;
  try { localStorage.setItem(KEEP_KEY, JSON.stringify({ k: m.k, over: m.over, json: m.json, id: m.id, at: m.at })); } catch (e) { /* storage full or off: the game is not kept */ }
});
// Asks for a snapshot when a state shows a game at rest that differs from the one kept (the
// game just resumed too, so that the page's copy is the game it shows).
function askSnapshot(st) {
  // A network game is kept by net.js (its seat in the room), not as a game of this page's own.
  if (st.busy || S.resuming || sessionStorage.getItem(NET_KEY)) return;
  const key = st.game + ":" + st.k + ":" + st.moves.length + ":" + st.over + ":" + JSON.stringify(st.settings) + ":" + JSON.stringify(st.players);
  if (key === S.keptKey) return;
  S.keptKey = key;
  send({ type: "snapshot" });
}
S.on("state", askSnapshot);
// On a new session: the newer kept game, if it is not over (it is loaded; New game starts
// afresh). The page's copy and the server's (`welcome.kept`) are compared by the server's
// stamps; a page copy without an id (kept by an older page) counts as the older.
S.resume = welcome => {
  const local = keptGame(), server = welcome && welcome.kept;
  const localAt = local && local.id && typeof local.at === "number" ? local.at : 0;
  const fromServer = !!server && (!local || server.at > localAt);
  const kept = fromServer ? server : local;
  if (!kept || kept.over) return false;
  S.resuming = true;
  S.resumedFrom = fromServer ? "server" : "page";
  resetInput();
  if (fromServer) send({ type: "resume_kept", id: server.id });
  else send(Object.assign({ type: "load", json: local.json }, local.id ? { kept: local.id } : {}));
  showNotice(`Your last game was resumed (${kept.k} move${kept.k === 1 ? "" : "s"} played).`, "Start a new game instead", () => $("b-new").click());
  return true;
};
S.on("state", st => { if (S.resuming) { S.resuming = false; askSnapshot(st); } });
S.on("error", () => { if (S.resuming) { S.resuming = false; $("notice").hidden = true; if (!S.state) newGame(defaultGame()); } });
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
