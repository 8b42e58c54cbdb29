// ---------- the analysis board ----------
// An Analyse button and a panel: the server sends the position's parts, their nimbers, the
// outcome and every move's verdict as they are found; the winning moves are lit on the picture
// (a green line from spot to spot, a ring for a loop). "unknown" is what the budget left open.
S.analysis = null;
(function () {
  const header = document.querySelector("header");
  const button = document.createElement("button");
  button.id = "b-analyse"; button.textContent = "Analyse";
  button.title = "The analysis board: parts, nimbers, outcome and every move's verdict";
  header.insertBefore(button, $("b-settings"));
  const panel = document.createElement("div");
  panel.id = "analysis"; panel.hidden = true;
  panel.style.cssText = "width:320px;overflow:auto;border-left:1px solid #ddd;font:12px/1.35 ui-monospace,monospace;padding:6px;background:#f6fbf6";
  document.querySelector("main").appendChild(panel);
  button.onclick = () => {
    if (!S.state) return;
    if (!panel.hidden && S.analysis && S.analysis.k === S.state.k && S.analysis.game === S.state.game) { panel.hidden = true; S.analysis = null; draw(); return; }
    S.analysis = { game: S.state.game, k: S.state.k, done: false, parts: [], moves: [], outcome: null };
    panel.hidden = false; showAnalysis(); resize();
    send({ type: "analyse", k: S.state.k, seconds: 5 });
  };
})();

function onAnalysis(m) {
  const a = S.analysis;
  if (!a || a.game !== m.game || a.k !== m.k) return;
  const e = m.event;
  switch (e.step) {
    case "started":
      Object.assign(a, { canonical: e.canonical, lower: e.lower, upper: e.upper });
      a.parts = e.parts.map(land => ({ land, nimber: null, known: false }));
      a.moves = e.moves.map(mv => Object.assign({ nimber: null, winning: null, known: false }, mv));
      break;
    case "part": Object.assign(a.parts[e.index], { nimber: e.nimber, known: true }); break;
    case "outcome": a.outcome = { nimber: e.nimber, wins: e.wins }; break;
    case "move": Object.assign(a.moves[e.index], { nimber: e.nimber, winning: e.winning, known: true }); break;
    case "done": a.done = true; a.nodes = e.nodes; break;
  }
  showAnalysis(); draw();
}

function showAnalysis() {
  const a = S.analysis, panel = $("analysis");
  if (!a) { panel.textContent = ""; return; }
  const val = (x, known) => known === false ? "…" : x === null || x === undefined ? "unknown" : String(x);
  const lines = ["Analysis (" + (a.done ? "done" : "working…") + ")"];
  if (a.canonical !== undefined) {
    lines.push("position: " + a.canonical, "moves left: " + a.lower + " to " + a.upper, "parts:");
    for (const p of a.parts) lines.push("  " + p.land + "  nimber " + val(p.nimber, p.known));
    const o = a.outcome;
    lines.push("verdict: " + (!o ? "…" : o.wins === null ? "unknown" : (o.wins ? "the player to move wins" : "the player to move loses") + (o.nimber === null ? "" : " (nimber " + o.nimber + ")")));
    lines.push("moves:");
    for (const mv of a.moves) {
      const v = !mv.known ? "…" : mv.winning === null ? "unknown" : mv.winning ? "WINNING" : "losing";
      lines.push("  " + mv.words + ": " + v + (mv.nimber === null ? "" : " (to nimber " + mv.nimber + ")"));
    }
  }
  if (a.done) lines.push("searched " + a.nodes + " nodes");
  panel.textContent = lines.join("\n");
  panel.style.whiteSpace = "pre-wrap";
}

// The winning moves over the picture, drawn after everything else.
const drawWithoutAnalysis = draw;
draw = function () {
  drawWithoutAnalysis();
  const a = S.analysis, st = S.state;
  if (!a || !st || a.game !== st.game || a.k !== st.k) return;
  const pic = S.pic || picOf(st), byId = new Map(pic.spots.map(s => [s.id, s]));
  const px = 1 / S.view.s;
  ctx.save();
  ctx.strokeStyle = "rgba(46, 160, 67, 0.75)"; ctx.lineWidth = 4 * px; ctx.setLineDash([8 * px, 5 * px]);
  for (const mv of a.moves) {
    if (mv.winning !== true) continue;
    const s = byId.get(mv.from), t = byId.get(mv.to);
    if (!s || !t) continue;
    ctx.beginPath();
    if (mv.from === mv.to) ctx.arc(s.x, s.y, s.r + 12 * px, 0, 2 * Math.PI);
    else { ctx.moveTo(s.x, s.y); ctx.lineTo(t.x, t.y); }
    ctx.stroke();
  }
  ctx.restore();
};

const onMessageWithoutAnalysis = onMessage;
onMessage = function (m) {
  if (m.type === "analysis") onAnalysis(m);
  else onMessageWithoutAnalysis(m);
};
