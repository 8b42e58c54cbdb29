// ---------- input (spec 3.1) ----------
function dist(a, b) { return Math.hypot(a[0] - b[0], a[1] - b[1]); }
function nearestSpot(p, filter) {
  let best = null, bd = Infinity;
  for (const s of S.state.spots) {
    if (!filter(s)) continue;
    const d = dist(p, [s.x, s.y]);
    if (d < bd) { bd = d; best = s; }
  }
  return best;
}
function canPlay() { const st = S.state; return st && !st.over && st.human_to_move && !st.busy; }
function eventWorld(ev) { const r = canvas.getBoundingClientRect(); computeView(); return toWorld(ev.clientX - r.left, ev.clientY - r.top); }
function toggleMark(p) {
  const s = nearestSpot(p, () => true);
  if (!s) return;
  const i = S.marks.indexOf(s.id);
  if (i >= 0) S.marks.splice(i, 1); else S.marks.push(s.id);
  draw();
}
canvas.addEventListener("contextmenu", ev => { ev.preventDefault(); if (S.state) toggleMark(eventWorld(ev)); });
let lastReach = 0;
canvas.addEventListener("pointerdown", ev => {
  if (!S.state || ev.button !== 0) return;
  const p = eventWorld(ev);
  if (ev.shiftKey) { toggleMark(p); return; }
  if (!canPlay()) return;
  if (S.armed) { // the second click of a click move
    const spot = destination(p, S.armed.from, true);
    const a = S.armed; S.armed = null;
    // A click on the spot's disc names no side of it: any side facing the region (the router's).
    const toSide = spot && dist(p, [spot.x, spot.y]) > spot.r ? p : null;
    if (spot) request({ from: a.from, to: spot.id, stroke: [], from_side: a.side, to_side: toSide, marks: S.marks.slice() });
    else { S.lit = []; draw(); }
    return;
  }
  const s = nearestSpot(p, s => s.lives > 0);
  if (!s) return;
  canvas.setPointerCapture(ev.pointerId);
  S.press = { from: s.id, points: [p], length: 0 };
  S.lit = []; S.litFrom = null;
  send({ type: "reach", k: S.state.k, from: s.id, toward: p });
  lastReach = performance.now();
  draw();
});
canvas.addEventListener("pointermove", ev => {
  if (!S.press) return;
  const p = eventWorld(ev), pts = S.press.points;
  S.press.length += dist(p, pts[pts.length - 1]);
  pts.push(p);
  // The lit destinations follow the side under the pointer near the start.
  const s = S.state.spots.find(x => x.id === S.press.from);
  if (s && !S.press.sided && dist(p, [s.x, s.y]) > 3 * s.r + 6) {
    S.press.sided = true;
    lastReach = performance.now();
    send({ type: "reach", k: S.state.k, from: S.press.from, toward: p });
  }
  draw();
});
canvas.addEventListener("pointerup", ev => {
  if (!S.press) return;
  const p = eventWorld(ev), press = S.press;
  S.press = null;
  press.points.push(p);
  const start = S.state.spots.find(x => x.id === press.from);
  const r = start ? start.r : 5;
  const dStart = start ? dist(p, [start.x, start.y]) : 0;
  // Released nearer the start than any destination: a click (the destination comes with a
  // second click), unless a long stroke came back to its start (a loop drawn by hand).
  let dest = destination(p, press.from, false);
  const loop = press.length > 8 * r + 40 && dStart <= 2.5 * r + 6 && S.lit.includes(press.from);
  if (loop) dest = start;
  else if (!dest || dist(p, [dest.x, dest.y]) >= dStart) {
    // The side: where the press was off the spot's centre; a press on the very centre names
    // none (the router takes any side facing the destination).
    S.armed = { from: press.from, side: press.points.find(q => dist(q, [start.x, start.y]) > 1e-6) || null };
    draw();
    return;
  }
  const side = press.points.find(q => dist(q, [start.x, start.y]) > r) || p;
  // The side at the destination: the last stroke point off its disc (a release on the spot's
  // centre says nothing about which of its sides the stroke came in by).
  const rd = dest.r || 5, off = press.points.filter(q => dist(q, [dest.x, dest.y]) > rd);
  const toSide = off.length ? off[off.length - 1] : p;
  request({ from: press.from, to: dest.id, stroke: press.points, from_side: side, to_side: toSide, marks: S.marks.slice() });
});
canvas.addEventListener("pointercancel", () => { S.press = null; draw(); });
// The destination of a release at p: the spot whose disc it is on or next to (even if not lit,
// so that the refusal says why), else the nearest lit destination.
function destination(p, from, allowStart) {
  const live = s => s.lives > 0 && (s.id !== from || allowStart);
  const near = nearestSpot(p, live);
  if (near && dist(p, [near.x, near.y]) <= 2.5 * near.r + 6) return near;
  const lit = nearestSpot(p, s => S.lit.includes(s.id) && live(s));
  return lit || near;
}
function request(r) {
  S.lastRequest = r; S.marks = []; S.lit = []; S.litFrom = null;
  send(Object.assign({ type: "draw", k: S.state.k }, r));
  draw();
}
window.addEventListener("keydown", ev => {
  if (document.querySelector("dialog[open]")) return;
  if (ev.key === " ") { ev.preventDefault(); send({ type: "stop" }); }
  else if (ev.key === "Enter") {
    // The last refused move drawn the shortest way, without marks.
    if (S.lastRequest && canPlay()) request(Object.assign({}, S.lastRequest, { stroke: [], marks: [] }));
  } else if (ev.key === "Escape") { resetInput(); draw(); }
  else if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z" && !ev.shiftKey) { ev.preventDefault(); $("b-undo").click(); }
  else if ((ev.ctrlKey || ev.metaKey) && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) { ev.preventDefault(); $("b-redo").click(); }
  else if (ev.key === "q" || ev.key === "Q") { if (S.state) addLog("Drawing area is " + S.state.width + " x " + S.state.height); }
});

