
// ---------- games ----------
function worldSize() {
  const r = $("wrap").getBoundingClientRect();
  // Less the view's margin (computeView), so that the picture is drawn at scale 1 at first.
  const m = Math.min(12, r.width / 20, r.height / 20);
  return { width: Math.max(100, Math.round(r.width - 2 * m)), height: Math.max(100, Math.round(r.height - 2 * m)) };
}
function defaultGame() {
  return { spots: 5, convention: "normal", players: [{ kind: "human" }, { kind: "computer", spec: "random" }], first: 0 };
}
function newGame(g) {
  const w = worldSize();
  resetInput();
  send({ type: "new_game", spots: g.spots, position: g.position || null, convention: g.convention, players: g.players, first: g.first, width: w.width, height: w.height });
}
function resetInput() { S.press = null; S.armed = null; S.lit = []; S.litFrom = null; S.marks = []; }

function fillKinds(i) {
  const sel = $("p" + i + "-kind");
  for (const [k, v] of Object.entries(KINDS)) sel.add(new Option(v.label, k));
  const upd = () => {
    const k = KINDS[sel.value], human = $("p" + i + "-who").value === "human";
    sel.disabled = human;
    $("p" + i + "-str").hidden = human || k.def === null;
    $("p" + i + "-unit").textContent = human ? "" : k.unit;
    if (k.def !== null) $("p" + i + "-str").value = k.def;
    if (k.max) $("p" + i + "-str").max = k.max; else $("p" + i + "-str").removeAttribute("max");
  };
  sel.onchange = upd; $("p" + i + "-who").onchange = upd; upd();
}
fillKinds(0); fillKinds(1);
function playerFromDialog(i) {
  if ($("p" + i + "-who").value === "human") return { kind: "human" };
  const k = KINDS[$("p" + i + "-kind").value];
  return { kind: "computer", spec: k.spec(parseFloat($("p" + i + "-str").value) || k.def) };
}
$("b-new").onclick = () => $("d-new").showModal();
$("f-new").onsubmit = ev => {
  if (ev.submitter && ev.submitter.value !== "ok") return;
  newGame({
    spots: parseInt($("n-spots").value, 10), position: $("n-position").value.trim(), convention: $("n-conv").value,
    players: [playerFromDialog(0), playerFromDialog(1)], first: parseInt($("n-first").value, 10),
  });
};
$("b-settings").onclick = () => {
  if (!S.state) return;
  const s = S.state.settings;
  $("s-d0").value = s.min_clearance; $("s-D").value = s.comfort_distance; $("s-lambda").value = s.room_vs_length;
  $("d-settings").showModal();
};
$("f-settings").onsubmit = ev => {
  if (ev.submitter && ev.submitter.value !== "ok") return;
  send({ type: "settings", settings: { min_clearance: parseFloat($("s-d0").value), comfort_distance: parseFloat($("s-D").value), room_vs_length: parseFloat($("s-lambda").value) } });
};
$("b-undo").onclick = () => S.state && (resetInput(), send({ type: "undo", k: S.state.k }));
$("b-redo").onclick = () => S.state && (resetInput(), send({ type: "redo", k: S.state.k }));
$("b-redraw").onclick = () => S.state && (resetInput(), send({ type: "redraw", k: S.state.k }));
$("b-pause").onclick = () => S.state && send({ type: "pause", paused: !S.state.paused });
$("b-save").onclick = () => send({ type: "save" });
$("b-savelog").onclick = () => send({ type: "save_log" });
$("b-log").onclick = () => { $("log").classList.toggle("hidden"); resize(); };
$("b-load").onclick = () => $("file").click();
$("file").onchange = async () => {
  const f = $("file").files[0];
  if (!f) return;
  loadText(await f.text());
  $("file").value = "";
};
function loadText(text) { resetInput(); send({ type: "load", json: text }); }
S.loadText = loadText;

function refreshUi() {
  const st = S.state;
  setStatus(st.status, false);
  // The refusal line: the server's last refusal; an error stays until the game moves on.
  if (st.refusal) setRefusal(refusalWords(st.refusal));
  else if (S.shownK !== st.k || S.shownGame !== st.game) setRefusal("");
  S.shownK = st.k; S.shownGame = st.game;
  $("b-undo").disabled = !st.can_undo;
  $("b-redo").disabled = !st.can_redo;
  $("b-redraw").disabled = st.busy;
  const computers = st.players.some(p => p.kind === "computer");
  $("b-pause").disabled = !computers || st.over;
  $("b-pause").textContent = st.paused ? "Resume" : "Pause";
}
