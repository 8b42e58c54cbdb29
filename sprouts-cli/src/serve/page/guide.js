
// ---------- guidance: menu, help, game over, thinking, pace, sound, play by keys ----------
// The compact toolbar of a narrow screen: one Menu button opens the tools.
$("b-menu").onclick = () => {
  const open = document.querySelector("header").classList.toggle("open");
  $("b-menu").setAttribute("aria-expanded", String(open));
  resize();
};
// A tool chosen from the open menu closes it (dialogs open above).
$("tools").addEventListener("click", ev => {
  if (ev.target.tagName === "BUTTON" && document.querySelector("header.open")) {
    document.querySelector("header").classList.remove("open");
    $("b-menu").setAttribute("aria-expanded", "false");
    resize();
  }
});

// Help: shown on the first visit, and from the Help button.
$("b-help").onclick = () => $("d-help").showModal();
function firstVisitHelp() {
  let seen = false;
  try { seen = localStorage.getItem("sprouts.helpSeen") === "1"; localStorage.setItem("sprouts.helpSeen", "1"); } catch (e) { seen = true; }
  if (!seen) $("d-help").showModal();
}

// The game-over panel, once per finished game, with Play again (the same players and rules).
S.on("state", st => {
  const id = st.game + ":" + st.k;
  if (!st.over || st.busy) { S.overShown = null; if ($("d-over").open) $("d-over").close(); return; }
  if (S.overShown === id || S.resuming) return;
  S.overShown = id;
  const w = st.winner, kind = p => p.kind === "human" ? "" : " (the computer)";
  $("over-text").textContent = `${COLOURS[w]}${kind(st.players[w])} wins after ${st.k} moves. ${st.status}`;
  // Not modal: the toolbar (Undo, Save, New game) stays at hand beside it.
  if (!$("d-over").open) $("d-over").show();
  chime(660, 0.25);
});
$("b-again").onclick = () => {
  const st = S.state;
  newGame({ spots: st.start_spots, convention: st.convention, players: st.players, first: st.first });
};

// The thinking indicator: who is thinking, for how long, and Stop.
function thinking() {
  const st = S.state, el = $("thinking");
  const on = st && st.busy && !st.human_to_move && !st.over;
  if (!on) { el.hidden = true; S.thinkSince = null; return; }
  if (!S.thinkSince || S.thinkK !== st.k) { S.thinkSince = performance.now(); S.thinkK = st.k; }
  const secs = (performance.now() - S.thinkSince) / 1000;
  $("thinking-text").textContent = `${COLOURS[st.to_move]} is thinking… ${secs.toFixed(1)} s`;
  el.hidden = false;
}
S.on("state", thinking);
setInterval(() => { if (S.thinkSince) thinking(); }, 200);
$("b-stop").onclick = () => send({ type: "stop" });

// The pace of a game between computers, kept with the page.
function sendPace() { send({ type: "pace", ms: parseInt($("pace").value, 10) || 0 }); }
$("pace").onchange = () => { try { localStorage.setItem("sprouts.pace", $("pace").value); } catch (e) { /* not kept */ } sendPace(); };
try { const p = localStorage.getItem("sprouts.pace"); if (p !== null) $("pace").value = p; } catch (e) { /* default */ }
S.on("welcome", () => setTimeout(sendPace, 0));

// An optional short sound on every move.
let audio = null;
function chime(freq, secs) {
  if (!$("sound").checked) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = freq; g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + secs);
    o.connect(g); g.connect(audio.destination); o.start(); o.stop(audio.currentTime + secs);
  } catch (e) { /* no sound on this browser */ }
}
$("sound").onchange = () => { try { localStorage.setItem("sprouts.sound", $("sound").checked ? "1" : "0"); } catch (e) { /* not kept */ } };
try { $("sound").checked = localStorage.getItem("sprouts.sound") === "1"; } catch (e) { /* off */ }
S.on("state", st => {
  if (S.soundK !== undefined && st.game === S.soundGame && st.k > S.soundK) chime(st.to_move === 0 ? 520 : 440, 0.12);
  S.soundK = st.k; S.soundGame = st.game;
});

// Play by keys: the source spot, the destination and the spots to enclose chosen from lists.
$("b-keys").onclick = () => {
  const f = $("keyplay");
  f.hidden = !f.hidden;
  $("b-keys").setAttribute("aria-expanded", String(!f.hidden));
  fillKeyplay(); resize();
  if (!f.hidden) $("k-from").focus();
};
function fillKeyplay() {
  const st = S.state, f = $("keyplay");
  if (!st || f.hidden) return;
  const live = st.spots.filter(s => s.lives > 0);
  const fill = (sel, spots, keep) => {
    const old = sel.value;
    sel.textContent = "";
    for (const s of spots) sel.add(new Option(`spot ${s.id} (${s.lives} ${s.lives === 1 ? "life" : "lives"})`, String(s.id)));
    if (keep && spots.some(s => String(s.id) === old)) sel.value = old;
  };
  fill($("k-from"), live, true);
  fill($("k-to"), live, true);
  const box = $("k-enclose");
  box.querySelectorAll("label").forEach(l => l.remove());
  for (const s of st.spots) {
    const l = document.createElement("label"), c = document.createElement("input");
    c.type = "checkbox"; c.value = String(s.id);
    l.append(c, ` ${s.id}`);
    box.appendChild(l);
  }
  $("k-play").disabled = !canPlay() || !live.length;
}
S.on("state", fillKeyplay);
$("keyplay").onsubmit = ev => {
  ev.preventDefault();
  if (!canPlay()) return;
  const marks = [...$("k-enclose").querySelectorAll("input:checked")].map(c => parseInt(c.value, 10));
  request({ from: parseInt($("k-from").value, 10), to: parseInt($("k-to").value, 10), stroke: [], from_side: null, to_side: null, marks });
};
firstVisitHelp();
