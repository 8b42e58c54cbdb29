// ---------- the editor: a position drawn by hand ----------
// "Edit a position" in the New game dialog opens the editor over the picture: a click on empty
// space places a spot, a drag from a spot to a spot draws a curve (with "add the middle spot",
// the curve is a move's: two curves through a new spot at its middle; without it the curve is
// bare, and a click on a bare curve puts a spot on it). Start sends the picture to the server
// (`edited_game`), which reads the position off it from scratch and starts the game, or
// answers `picture_refused` with the reason: the editor stays, its picture as it was, with the
// spots and curves the reason names marked in red.
S.editor = null;

(function editorSetup() {
  const css = document.createElement("style");
  css.textContent =
    "#editor { position: absolute; inset: 0; z-index: 3; background: #fff; display: flex; flex-direction: column; }" +
    "#editor[hidden] { display: none; }" +
    "#ed-bar { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; padding: 4px 8px; background: #f8fbff; border-bottom: 1px solid #ddd; }" +
    "#ed-bar button { font: inherit; }" +
    "#ed-wrap { flex: 1; position: relative; min-height: 0; }" +
    "#ed-canvas { position: absolute; inset: 0; width: 100%; height: 100%; touch-action: none; }";
  document.head.appendChild(css);
  const box = document.createElement("div");
  box.id = "editor"; box.hidden = true;
  box.innerHTML =
    '<div id="ed-bar"><b>Edit a position</b>' +
    '<label title="Each curve drawn is a move: two curves through a new spot at its middle"><input id="ed-middle" type="checkbox" checked> add the middle spot</label>' +
    '<label title="Start from any picture the rules can read, even one no game reaches"><input id="ed-any" type="checkbox"> any valid position (not necessarily reachable)</label>' +
    '<button id="ed-undo" type="button">Undo</button> <button id="ed-clear" type="button">Clear</button>' +
    '<button id="ed-start" type="button">Start</button> <button id="ed-cancel" type="button">Cancel</button>' +
    '<span id="ed-info"></span></div>' +
    '<div id="ed-wrap"><canvas id="ed-canvas" aria-label="The picture being edited"></canvas></div>';
  $("wrap").appendChild(box);
  const entry = document.createElement("button");
  entry.id = "n-edit"; entry.type = "button"; entry.textContent = "Edit a position";
  entry.title = "Draw the start by hand: place spots and draw curves";
  const buttons = $("f-new").querySelector(".buttons");
  buttons.insertBefore(entry, buttons.firstChild);
  entry.onclick = () => {
    const opts = { convention: $("n-conv").value, players: [playerFromDialog(0), playerFromDialog(1)], first: parseInt($("n-first").value, 10) };
    $("d-new").close();
    editorOpen(opts);
  };
  $("ed-undo").onclick = () => { const E = S.editor; if (E && E.undo.length) { Object.assign(E, E.undo.pop()); E.marks = null; edDraw(); } };
  $("ed-clear").onclick = () => { const E = S.editor; if (E) { edKeep(); E.spots = []; E.curves = []; E.marks = null; edDraw(); } };
  $("ed-cancel").onclick = () => editorClose();
  $("ed-start").onclick = () => editorStart();
  const c = $("ed-canvas");
  c.addEventListener("pointerdown", edDown);
  c.addEventListener("pointermove", edMove);
  c.addEventListener("pointerup", edUp);
  window.addEventListener("resize", () => S.editor && edDraw());
})();

function editorOpen(opts) {
  S.editor = { opts, world: worldSize(), spots: [], curves: [], undo: [], press: null, marks: null, pending: null };
  $("editor").hidden = false;
  setRefusal("");
  setStatus("Editing a position: Start plays from it, Cancel goes back to the game", false);
  $("ed-info").textContent = "Click to place a spot; drag from a spot to a spot to draw a curve.";
  edDraw();
}
S.editorOpen = editorOpen;
// Closed with `st`, the state of the game the picture started; without, the game shown before.
function editorClose(st) {
  S.editor = null; $("editor").hidden = true;
  const now = st || S.state;
  if (now) setStatus(now.status, false);
}
// Before each edit: the last refusal speaks of a picture that is about to change.
function edKeep() { const E = S.editor; setRefusal(""); E.undo.push({ spots: E.spots.map(p => p.slice()), curves: E.curves.map(c => ({ from: c.from, to: c.to, points: c.points.map(p => p.slice()) })) }); }
function edView() {
  const c = $("ed-canvas"), r = c.getBoundingClientRect(), w = S.editor.world;
  const m = Math.min(12, r.width / 20, r.height / 20);
  const s = Math.max(1e-3, Math.min((r.width - 2 * m) / w.width, (r.height - 2 * m) / w.height));
  return { s, ox: (r.width - w.width * s) / 2, oy: (r.height - w.height * s) / 2, r };
}
function edWorld(ev) { const v = edView(); return [(ev.clientX - v.r.left - v.ox) / v.s, (ev.clientY - v.r.top - v.oy) / v.s]; }
const ED_RADIUS = 5;
function edSpotAt(p) {
  const E = S.editor;
  let best = -1, bd = Infinity;
  E.spots.forEach((q, i) => { const d = dist(p, q); if (d < bd) { bd = d; best = i; } });
  return best >= 0 && bd <= 14 ? best + 1 : null;
}
function edCurvePath(c) { const E = S.editor; return [E.spots[c.from - 1]].concat(c.points, [E.spots[c.to - 1]]); }
// The curve and the point on it nearest to p (within 6 world pixels), for a click that puts a
// spot on a bare curve.
function edCurveAt(p) {
  const E = S.editor;
  let best = null;
  E.curves.forEach((c, i) => {
    const path = edCurvePath(c);
    for (let k = 1; k < path.length; k++) {
      const a = path[k - 1], b = path[k], dx = b[0] - a[0], dy = b[1] - a[1], l = dx * dx + dy * dy;
      const t = l ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l)) : 0;
      const q = [a[0] + t * dx, a[1] + t * dy], d = dist(p, q);
      if (d <= 6 && (!best || d < best.d)) best = { i, k, q, d };
    }
  });
  return best;
}
// Curve i cut at the point q of its leg k: a new spot there and two curves.
function edSplit(i, k, q) {
  const E = S.editor, c = E.curves[i];
  E.spots.push(q.slice());
  const z = E.spots.length;
  const inner = c.points;
  // Leg k runs from path point k - 1 to k; the path's points 1..n are c.points.
  E.curves.splice(i, 1, { from: c.from, to: z, points: inner.slice(0, k - 1) }, { from: z, to: c.to, points: inner.slice(k - 1) });
}
function edDown(ev) {
  const E = S.editor;
  if (!E || ev.button !== 0) return;
  const p = edWorld(ev), s = edSpotAt(p);
  E.marks = null;
  if (s) {
    try { $("ed-canvas").setPointerCapture(ev.pointerId); } catch (e) { /* untracked pointer */ }
    E.press = { from: s, points: [p] };
    return;
  }
  const hit = edCurveAt(p);
  edKeep();
  if (hit) edSplit(hit.i, hit.k, hit.q);
  else E.spots.push(p);
  edDraw();
}
function edMove(ev) {
  const E = S.editor;
  if (!E || !E.press) return;
  const p = edWorld(ev), pts = E.press.points;
  if (dist(p, pts[pts.length - 1]) >= 3) { pts.push(p); edDraw(); }
}
function edUp(ev) {
  const E = S.editor;
  if (!E || !E.press) return;
  const press = E.press;
  E.press = null;
  const p = edWorld(ev);
  press.points.push(p);
  const to = edSpotAt(p);
  const length = press.points.reduce((acc, q, i) => i ? acc + dist(q, press.points[i - 1]) : 0, 0);
  if (!to || length < 20) { edDraw(); return; }
  const inner = press.points.filter(q => dist(q, E.spots[press.from - 1]) > ED_RADIUS && dist(q, E.spots[to - 1]) > ED_RADIUS);
  edKeep();
  if ($("ed-middle").checked) {
    // The middle by length along the stroke becomes the move's new spot.
    const path = [E.spots[press.from - 1]].concat(inner, [E.spots[to - 1]]);
    let total = 0;
    for (let k = 1; k < path.length; k++) total += dist(path[k], path[k - 1]);
    let run = 0, k = 1;
    for (; k < path.length; k++) { const d = dist(path[k], path[k - 1]); if (run + d >= total / 2) break; run += d; }
    const a = path[k - 1], b = path[k], t = (total / 2 - run) / (dist(a, b) || 1);
    E.curves.push({ from: press.from, to, points: inner });
    edSplit(E.curves.length - 1, k, [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
  } else E.curves.push({ from: press.from, to, points: inner });
  edDraw();
}
function editorStart() {
  const E = S.editor;
  if (!E || !S.state) return;
  E.pending = S.state.game;
  $("ed-info").textContent = "Checking the picture…";
  send({
    type: "edited_game", any_valid: $("ed-any").checked, convention: E.opts.convention, players: E.opts.players, first: E.opts.first,
    picture: { width: E.world.width, height: E.world.height, spots: E.spots, curves: E.curves },
  });
}
S.on("picture_refused", m => {
  const E = S.editor;
  if (!E) return;
  E.pending = null; E.marks = { spots: m.spots, curves: m.curves };
  $("ed-info").textContent = "";
  setRefusal("The picture cannot start a game: " + m.reason + ".");
  edDraw();
});
S.on("state", st => { const E = S.editor; if (E && E.pending !== null && st.game !== E.pending) editorClose(st); });
function edDraw() {
  const E = S.editor, c = $("ed-canvas");
  if (!E) return;
  const dpr = window.devicePixelRatio || 1, v = edView(), g = c.getContext("2d");
  c.width = Math.max(1, Math.round(v.r.width * dpr)); c.height = Math.max(1, Math.round(v.r.height * dpr));
  g.setTransform(1, 0, 0, 1, 0, 0); g.fillStyle = "#e9e9e6"; g.fillRect(0, 0, c.width, c.height);
  g.setTransform(dpr * v.s, 0, 0, dpr * v.s, dpr * v.ox, dpr * v.oy);
  g.fillStyle = "#fff"; g.fillRect(0, 0, E.world.width, E.world.height);
  g.lineCap = "round"; g.lineJoin = "round";
  const marked = E.marks || { spots: [], curves: [] };
  const line = (pts, colour, w) => { g.beginPath(); g.moveTo(pts[0][0], pts[0][1]); for (const q of pts) g.lineTo(q[0], q[1]); g.strokeStyle = colour; g.lineWidth = w; g.stroke(); };
  E.curves.forEach((cv, i) => line(edCurvePath(cv), marked.curves.includes(i) ? "#d50000" : "#222", marked.curves.includes(i) ? 3 : 1.6));
  if (E.press && E.press.points.length > 1) line(E.press.points, "#888", 2);
  const ends = new Array(E.spots.length).fill(0);
  for (const cv of E.curves) { ends[cv.from - 1]++; ends[cv.to - 1]++; }
  E.spots.forEach((q, i) => {
    g.beginPath(); g.arc(q[0], q[1], ED_RADIUS, 0, 2 * Math.PI);
    g.fillStyle = LIVES_COLOUR[Math.max(0, Math.min(3, 3 - ends[i]))]; g.fill();
    g.lineWidth = marked.spots.includes(i + 1) ? 3 : 1.2; g.strokeStyle = marked.spots.includes(i + 1) ? "#d50000" : "#424242"; g.stroke();
    g.fillStyle = "#444"; g.font = "11px system-ui, sans-serif"; g.fillText(String(i + 1), q[0] + ED_RADIUS + 2, q[1] - ED_RADIUS - 1);
  });
}
// The screen point of an editor world point (for tests).
S.editorToScreen = (x, y) => { const v = edView(); return [v.r.left + v.ox + x * v.s, v.r.top + v.oy + y * v.s]; };
