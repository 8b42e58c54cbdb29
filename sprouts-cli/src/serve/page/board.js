// ---------- the analysis board ----------
// A panel beside the picture, closed until asked for (against the computer it gives the game
// away): the position's parts and their nimbers, the outcome, the bounds on the moves left, and
// every move's verdict with the nimber of the position it leads to, filled in as the server's
// one analysis of the position (verdict.js) finds them. "unknown" is what the budget left
// open, never a guess. The winning moves are lit on the picture, each with the nimber of the
// position it leads to; the move under the pointer in the list is lit too.
S.board = { open: false, seconds: 10, hover: null };
(function () {
  const button = document.createElement("button");
  button.id = "b-board"; button.textContent = "Analysis board";
  button.title = "The position's parts, nimbers, outcome and every move's verdict, by the solver within a budget";
  button.setAttribute("aria-expanded", "false"); button.setAttribute("aria-controls", "board-panel");
  $("menus").appendChild(button);
  const panel = document.createElement("section");
  panel.id = "board-panel"; panel.hidden = true; panel.setAttribute("aria-label", "Analysis board");
  panel.innerHTML = '<div class="bp-head"><b>Analysis board</b> <label>budget <select id="bp-seconds">' +
    [2, 10, 30, 120].map(s => `<option value="${s}"${s === S.board.seconds ? " selected" : ""}>${s} s</option>`).join("") +
    '</select></label> <button id="bp-close" title="Close the analysis board" aria-label="Close">×</button></div>' +
    '<div id="bp-summary" aria-live="polite"></div><table id="bp-moves"><thead><tr><th>move</th><th>leads to</th><th>verdict</th></tr></thead><tbody></tbody></table>';
  document.querySelector("main").appendChild(panel);
  const setOpen = open => {
    S.board.open = open; panel.hidden = !open; button.setAttribute("aria-expanded", String(open));
    resize();
    if (open) refreshAnalysis();
    showBoard();
  };
  S.board.setOpen = setOpen;
  button.onclick = () => setOpen(!S.board.open);
  $("bp-close").onclick = () => setOpen(false);
  $("bp-seconds").onchange = () => { S.board.seconds = Number($("bp-seconds").value); refreshAnalysis(); showBoard(); };
  const rows = panel.querySelector("tbody");
  rows.addEventListener("mouseover", ev => { const tr = ev.target.closest("tr"); const i = tr ? Number(tr.dataset.i) : null; if (i !== S.board.hover) { S.board.hover = i; draw(); } });
  rows.addEventListener("mouseleave", () => { S.board.hover = null; draw(); });
})();
S.wantAnalysis(() => S.board.open ? S.board.seconds : 0);
S.on("analysis", () => { if (S.board.open) showBoard(); draw(); });
S.on("state", () => { if (S.board.open) showBoard(); });

// A value the analysis may not have settled: "…" while it runs, "unknown" once it is over.
function boardValue(known, value, done) { return !known ? (done ? "unknown" : "…") : value === null || value === undefined ? "unknown" : String(value); }
function boardVerdict(mv, done) { return !mv.known ? (done ? "unknown" : "…") : mv.winning === null ? "unknown" : mv.winning ? "winning" : "losing"; }
// The analysis of the position in play, if there is one.
function boardAnalysis() { const st = S.state, a = S.analysis; return st && a && a.key === analysisKey(st) ? a : null; }

function showBoard() {
  const st = S.state, a = boardAnalysis(), sum = $("bp-summary"), body = $("bp-moves").tBodies[0];
  if (!S.board.open) return;
  const lines = [];
  if (!st) lines.push("No game.");
  else if (st.over) lines.push("The game is over: nothing to analyse.");
  else if (!a) lines.push(st.busy ? "Waiting for the move in progress…" : "Asking the server…");
  else if (!a.started) lines.push("Working (within " + a.seconds + " s)…");
  else {
    lines.push("Position: " + a.canonical);
    lines.push("Moves left: at least " + a.lower + ", at most " + a.upper);
    if (a.misere) lines.push("Misère play: nimbers do not decide the outcome; verdicts by the misère solver.");
    lines.push("Parts (" + a.parts.length + "):");
    for (const p of a.parts) lines.push("  " + p.land + (a.misere ? "" : "  nimber " + boardValue(p.known, p.nimber, a.done)));
    const o = a.outcome;
    lines.push("Outcome: " + (!o ? (a.done ? "unknown" : "…") : o.wins === null ? "unknown within " + a.seconds + " s" :
      (o.wins ? "the player to move wins" : "the player to move loses") + (o.nimber === null ? "" : " (nimber " + o.nimber + ")")));
    const wins = a.moves.filter(m => m.winning === true).length, open = a.moves.filter(m => m.winning === null).length;
    lines.push("Moves: " + a.moveCount + (a.moveCount > a.moves.length ? " (the first " + a.moves.length + " listed)" : "") +
      "; " + wins + " winning" + (open ? ", " + open + (a.done ? " unknown" : " to go") : ""));
    lines.push(a.done ? "Done in " + a.elapsed.toFixed(1) + " s" + (a.complete ? "." : ": the budget ran out, raise it for more.") : "Working (within " + a.seconds + " s)…");
  }
  sum.textContent = lines.join("\n");
  const moves = a && a.started ? a.moves : [];
  // The rows are rebuilt only when the moves listed change; their cells as verdicts come.
  if (body.dataset.key !== (a ? a.key + ":" + a.seconds : "")) {
    body.dataset.key = a ? a.key + ":" + a.seconds : "";
    body.textContent = "";
    moves.forEach((mv, i) => {
      const tr = body.insertRow(); tr.dataset.i = i;
      for (let c = 0; c < 3; c++) tr.insertCell();
      tr.cells[0].textContent = mv.words;
    });
  }
  if (body.rows.length !== moves.length) { body.dataset.key = ""; return showBoard(); }
  moves.forEach((mv, i) => {
    const tr = body.rows[i], v = boardVerdict(mv, a.done);
    tr.cells[1].textContent = mv.child + (a.misere ? "" : " (nimber " + boardValue(mv.known, mv.nimber, a.done) + ")");
    tr.cells[2].textContent = v;
    tr.className = v === "winning" ? "win" : v === "unknown" ? "unknown" : "";
  });
}

// The winning moves over the picture (a green dashed line, or a ring for a loop, with the nimber
// of the position it leads to), and the move under the pointer in the list.
const drawWithoutBoard = draw;
draw = function () {
  drawWithoutBoard();
  const a = S.board.open ? boardAnalysis() : null, st = S.state;
  if (!a || !a.started || !st) return;
  const pic = S.pic || picOf(st), byId = new Map(pic.spots.map(s => [s.id, s]));
  const px = 1 / S.view.s;
  const mark = (mv, colour, label) => {
    const s = byId.get(mv.from), t = byId.get(mv.to);
    if (!s || !t) return;
    ctx.strokeStyle = colour; ctx.lineWidth = 4 * px; ctx.setLineDash([8 * px, 5 * px]);
    ctx.beginPath();
    let lx, ly;
    if (mv.from === mv.to) { const r = s.r + 12 * px; ctx.arc(s.x, s.y, r, 0, 2 * Math.PI); lx = s.x + r; ly = s.y + r; }
    else { ctx.moveTo(s.x, s.y); ctx.lineTo(t.x, t.y); lx = (s.x + t.x) / 2; ly = (s.y + t.y) / 2; }
    ctx.stroke(); ctx.setLineDash([]);
    if (label !== null) {
      ctx.font = `bold ${Math.max(10, 12 * px)}px system-ui, sans-serif`;
      ctx.lineWidth = 3 * px; ctx.strokeStyle = "#fff"; ctx.strokeText(label, lx + 3 * px, ly - 3 * px);
      ctx.fillStyle = "#1b5e20"; ctx.fillText(label, lx + 3 * px, ly - 3 * px);
    }
  };
  ctx.save();
  for (const mv of a.moves) if (mv.winning === true) mark(mv, "rgba(46, 160, 67, 0.75)", mv.nimber === null ? "wins" : "→ " + mv.nimber);
  const h = S.board.hover !== null ? a.moves[S.board.hover] : null;
  if (h) mark(h, "rgba(255, 111, 0, 0.85)", null);
  ctx.restore();
};
