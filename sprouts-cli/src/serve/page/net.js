// ---------- network play (the Net menu) ----------
// Host: a room on this server's relay, its code and a link to give the other player. Join: the
// code typed in, or the link `?join=CODE` opened. The server's session plays the page's side
// through the relay; the page shows the connection's state, the other player's name, and greys
// the board while its action waits for the other side's ack. A page keeps its seat (and the game
// at the last settled action) in sessionStorage, so a reload, or a restart of the server, comes
// back to the same game.
const NET_KEY = "sprouts-net";
S.net = null;

(function netMenu() {
  const button = addMenu(document.querySelector("header"),
    "#wrap.net-wait { opacity: .45; pointer-events: none; }" +
    "#wrap.net-idle { pointer-events: none; }" +
    "#net-info { margin-left: 8px; color: #555; }" +
    "#d-net input[type=text] { width: 24em; font: 12px ui-monospace, monospace; }" +
    "#d-net section { border-top: 1px solid #ddd; margin-top: 8px; padding-top: 6px; }",
    { id: "b-net", label: "Net", title: "Play another person over the network", info: "net-info" });
  const dialog = document.createElement("dialog");
  dialog.id = "d-net";
  dialog.innerHTML =
    '<form method="dialog" id="f-net"><h2>Network play</h2>' +
    '<label>Your name <input id="net-name" type="text" maxlength="40" value=""></label>' +
    '<section id="net-start"><b>Host</b> a game and give the other player its code or link' +
    '<label>Spots <input id="net-spots" type="number" min="1" max="200" value="5"></label>' +
    '<label>Play <select id="net-conv"><option value="normal">normal</option><option value="misere">misère</option></select></label>' +
    '<div class="buttons"><button id="net-host" value="host">Host</button></div>' +
    '<b>Join</b> a game: the code the host gave' +
    '<label><input id="net-code" type="text" placeholder="32 hex digits"></label>' +
    '<div class="buttons"><button id="net-join" value="join">Join</button></div></section>' +
    '<section id="net-room" hidden><div>Room <code id="net-code-shown"></code></div>' +
    '<div>Link: <input id="net-link" type="text" readonly></div>' +
    '<div id="net-state"></div>' +
    '<div class="buttons"><button id="net-leave" value="leave">Leave</button></div></section>' +
    '<div class="buttons"><button value="cancel" formnovalidate>Close</button></div></form>';
  document.body.appendChild(dialog);
  button.onclick = () => { netDialog(); dialog.showModal(); };
  $("f-net").onsubmit = ev => {
    const what = ev.submitter && ev.submitter.value;
    const name = $("net-name").value.trim();
    if (name) localStorage.setItem(NET_KEY + "-name", name);
    if (what === "host") netHost(name, parseInt($("net-spots").value, 10) || 5, $("net-conv").value);
    else if (what === "join") netJoin(name, $("net-code").value.trim(), null);
    else if (what === "leave") netLeave();
  };
  $("net-name").value = localStorage.getItem(NET_KEY + "-name") || "";
  // A server that went away (restarted) while a network game is on: the page comes back by
  // itself once the server answers again, and rejoins its seat.
  setInterval(() => {
    if (!sessionStorage.getItem(NET_KEY) || !S.ws || S.ws.readyState !== 3) return;
    fetch("/", { cache: "no-store" }).then(r => { if (r.ok) location.reload(); }).catch(() => {});
  }, 1000);
})();

function netName() { return $("net-name").value.trim() || localStorage.getItem(NET_KEY + "-name") || ""; }
function netHost(name, spots, convention) {
  const w = worldSize();
  resetInput();
  send({ type: "net_host", name, spots, convention, width: w.width, height: w.height });
}
function netJoin(name, room, back) {
  const w = worldSize();
  resetInput();
  send({ type: "net_join", name, room, back, width: w.width, height: w.height });
}
function netLeave() {
  sessionStorage.removeItem(NET_KEY);
  send({ type: "net_leave" });
}
S.netHost = netHost; S.netJoin = netJoin; S.netLeave = netLeave;

/** On the server's welcome: back to the room this page was in, or into the room of the link
 * `?join=CODE`. True when the page goes into a network game (and starts no local one). */
function netResume() {
  const kept = sessionStorage.getItem(NET_KEY);
  if (kept) {
    try {
      const k = JSON.parse(kept);
      netJoin(k.name || netName(), k.room, k.back);
      return true;
    } catch (e) { sessionStorage.removeItem(NET_KEY); }
  }
  const code = new URLSearchParams(location.search).get("join");
  if (code) {
    netJoin(netName(), code, null);
    return true;
  }
  return false;
}

function netLink(room) { return location.origin + location.pathname + "?join=" + room; }

/** A `net` message: where the network game stands. */
function onNet(m) {
  S.net = m;
  if (m.waiting) S.stats.netWaits = (S.stats.netWaits || 0) + 1;
  if (!m.active) {
    sessionStorage.removeItem(NET_KEY);
  } else if (m.room && m.back) {
    // The game kept is the last settled one: an action waiting for its ack is not kept.
    let back = m.back;
    if (!back.kept) {
      try {
        const old = JSON.parse(sessionStorage.getItem(NET_KEY) || "null");
        if (old && old.room === m.room && old.back && old.back.kept) back = Object.assign({}, back, { kept: old.back.kept });
      } catch (e) { /* a bad entry is replaced */ }
    }
    sessionStorage.setItem(NET_KEY, JSON.stringify({ room: m.room, name: netName(), back }));
  }
  const wrap = $("wrap");
  wrap.classList.toggle("net-wait", !!(m.active && m.waiting));
  wrap.classList.toggle("net-idle", !!(m.active && !m.waiting && !m.my_turn));
  $("net-info").textContent = !m.active ? "" :
    (m.peer_name ? "vs " + m.peer_name : "") + (m.room ? " · room " + m.room.slice(0, 8) + "…" : "") + " · " + m.link;
  $("b-redo").hidden = !!m.active;
  $("b-pause").hidden = !!m.active;
  netDialog();
}

function netDialog() {
  const m = S.net, on = !!(m && m.active);
  $("net-start").hidden = on;
  $("net-room").hidden = !on;
  if (on) {
    $("net-code-shown").textContent = m.room || "(opening…)";
    $("net-link").value = m.room ? netLink(m.room) : "";
    $("net-state").textContent = m.status;
  }
}
