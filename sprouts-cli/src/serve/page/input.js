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
// A right-click marks. A finger's long press, which the browser may also report as a context
// menu, is the hold's below: the menu ends the hold at once (one mark, not two).
canvas.addEventListener("contextmenu", ev => {
  ev.preventDefault();
  if (S.hold) { S.hold.fire(); return; }
  if (S.state && ev.pointerType !== "touch" && touches.size === 0) toggleMark(eventWorld(ev));
});
// A finger held still (within 8 screen pixels) for HOLD_MS on a spot marks it, or unmarks it:
// the touch screen's right-click. A spot with no life can be marked too (it can be enclosed).
const HOLD_MS = 550;
function holdToMark(s, ev, press) {
  const hold = { id: ev.pointerId, spot: s, at: [ev.clientX, ev.clientY], moved: false, done: false, press };
  hold.fire = () => {
    if (S.hold !== hold || hold.moved || hold.done) return;
    hold.done = true;
    if (press && S.press === press) { S.press = null; S.lit = []; S.litFrom = null; }
    toggleMark([s.x, s.y]);
  };
  S.hold = hold;
  setTimeout(hold.fire, HOLD_MS);
}
let lastReach = 0;
// How near a press must be to a spot to take it (world units): its disc and a margin, at least
// 22 screen pixels so that a finger can take a small spot; a press farther away takes nothing.
function reachOf(s) { return Math.max(2.5 * s.r + 6, 22 / (S.view.s || 1)); }
function spotNear(p, filter) {
  const s = nearestSpot(p, filter);
  return s && dist(p, [s.x, s.y]) <= reachOf(s) ? s : null;
}
// Two fingers on the canvas: pinch to zoom the picture (and pan with them).
const touches = new Map();
function pinchStart() {
  const [a, b] = [...touches.values()];
  computeView();
  const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  S.hold = null;
  S.pinch = { d: Math.max(1, dist(a, b)), k: S.zoom && S.state && S.zoom.game === S.state.game ? S.zoom.k : 1, world: toWorld(mid[0], mid[1]), s0: S.view.s };
  S.press = null; S.armed = null; S.lit = [];
}
function pinchMove() {
  const [a, b] = [...touches.values()], pz = S.pinch, st = S.state;
  if (!st) return;
  const k = Math.min(8, Math.max(1, pz.k * dist(a, b) / pz.d));
  const r = $("wrap").getBoundingClientRect();
  const fit = pz.s0 / pz.k, s = fit * k, mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  // The world point under the fingers' midpoint stays under it.
  S.zoom = k <= 1.001 ? null : { game: st.game, k, cx: pz.world[0] + (r.width / 2 - mid[0]) / s, cy: pz.world[1] + (r.height / 2 - mid[1]) / s };
  draw();
}
function canvasPoint(ev) { const r = canvas.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }
canvas.addEventListener("pointerdown", ev => {
  if (ev.pointerType === "touch") {
    touches.set(ev.pointerId, canvasPoint(ev));
    if (touches.size === 2) { pinchStart(); draw(); return; }
    if (touches.size > 2) return;
  }
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
  // Only a press on or next to a spot starts a move; anywhere else, nothing happens.
  const s = spotNear(p, () => true);
  if (!s) return;
  const touch = ev.pointerType === "touch";
  if (s.lives === 0) {
    // A finger may be about to mark it; a press that lets go sooner is told why nothing starts.
    if (touch) holdToMark(s, ev, null);
    else setRefusal(noLife(s));
    return;
  }
  try { canvas.setPointerCapture(ev.pointerId); } catch (e) { /* a pointer the browser does not track */ }
  S.press = { from: s.id, points: [p], length: 0 };
  S.lit = []; S.litFrom = null;
  if (touch) holdToMark(s, ev, S.press);
  send({ type: "reach", k: S.state.k, from: s.id, toward: p });
  lastReach = performance.now();
  draw();
});
function noLife(s) { return `Spot ${s.id} has no life left: start from a spot that has one.`; }
canvas.addEventListener("pointermove", ev => {
  if (ev.pointerType === "touch" && touches.has(ev.pointerId)) {
    touches.set(ev.pointerId, canvasPoint(ev));
    if (touches.size === 2 && S.pinch) { pinchMove(); return; }
  }
  const h = S.hold;
  if (h && h.id === ev.pointerId && Math.hypot(ev.clientX - h.at[0], ev.clientY - h.at[1]) > 8) h.moved = true;
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
function endTouch(ev) {
  if (ev.pointerType !== "touch") return false;
  const pinching = !!S.pinch;
  touches.delete(ev.pointerId);
  if (touches.size < 2) S.pinch = null;
  return pinching;
}
canvas.addEventListener("pointerup", ev => {
  if (endTouch(ev)) return;
  const h = S.hold && S.hold.id === ev.pointerId ? S.hold : null;
  if (h) {
    S.hold = null;
    if (h.done) return; // the hold marked a spot: the finger lifting plays nothing
    if (!h.press) { setRefusal(noLife(h.spot)); return; }
  }
  if (!S.press) return;
  const p = eventWorld(ev), press = S.press;
  S.press = null;
  press.points.push(p);
  const start = S.state.spots.find(x => x.id === press.from);
  const r = start ? start.r : 5;
  const dStart = start ? dist(p, [start.x, start.y]) : 0;
  const grab = start ? reachOf(start) : 20;
  // A short press is a click: the spot is armed and the destination comes with a second click.
  // Anything longer is a stroke: it is sent as a move or refused, and never arms a spot.
  const clickish = press.length < Math.max(2 * grab, 4 * r + 12);
  if (clickish && dStart <= grab) {
    // The side: where the press was off the spot's centre; a press on the very centre names
    // none (the router takes any side facing the destination).
    S.armed = { from: press.from, side: press.points.find(q => dist(q, [start.x, start.y]) > 1e-6) || null };
    draw();
    return;
  }
  // A stroke that came back to its start is a loop drawn by hand; else it goes to the spot it
  // ends on or next to (even one with no life left, so that the refusal names it).
  const dest = dStart <= grab ? start : destination(p, press.from, false);
  if (!dest) {
    S.lit = []; S.litFrom = null;
    setRefusal(`The curve from spot ${press.from} ended away from any spot: end it on the spot you want to reach.`);
    draw();
    return;
  }
  // The sides: the first and last points of the stroke clear of the end spots by the minimum
  // clearance (the router's stroke starts there too); a short stroke falls back to the first
  // and last points off the discs.
  const d0 = (S.state.settings && S.state.settings.min_clearance) || 6;
  const sideAt = (s, pts) => pts.find(q => dist(q, [s.x, s.y]) > s.r + d0 + 1) || pts.find(q => dist(q, [s.x, s.y]) > s.r) || p;
  const side = sideAt(start, press.points);
  const toSide = sideAt(dest, press.points.slice().reverse());
  request({ from: press.from, to: dest.id, stroke: press.points, from_side: side, to_side: toSide, marks: S.marks.slice() });
});
canvas.addEventListener("pointercancel", ev => { endTouch(ev); S.press = null; S.hold = null; draw(); });
// The destination of a release at p: the spot whose disc it is on or next to (any spot, so that
// a refusal names the spot aimed at), else nothing.
function destination(p, from, allowStart) {
  return spotNear(p, s => s.id !== from || allowStart);
}
function request(r) {
  S.lastRequest = r; S.marks = []; S.lit = []; S.litFrom = null;
  send(Object.assign({ type: "draw", k: S.state.k }, r));
  draw();
}
window.addEventListener("keydown", ev => {
  if (document.querySelector("dialog[open]:not(#d-over)")) return;
  // Enter on a control, and Space in a box or a list, are that control's; Space anywhere else
  // (a button just clicked too) stops the computer.
  const control = sel => ev.target.closest && ev.target.closest(sel);
  if ((ev.key === "Enter" && control("input, select, textarea, button, a")) || (ev.key === " " && control("input, select, textarea"))) return;
  if (ev.key === " ") { ev.preventDefault(); send({ type: "stop" }); }
  else if (ev.key === "Enter") {
    // The last refused move drawn the shortest way, without marks.
    if (S.lastRequest && canPlay()) request(Object.assign({}, S.lastRequest, { stroke: [], marks: [] }));
  } else if (ev.key === "Escape") { resetInput(); draw(); }
  else if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z" && !ev.shiftKey) { ev.preventDefault(); $("b-undo").click(); }
  else if ((ev.ctrlKey || ev.metaKey) && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) { ev.preventDefault(); $("b-redo").click(); }
  else if (ev.key === "q" || ev.key === "Q") { if (S.state) addLog("Drawing area is " + S.state.width + " x " + S.state.height); }
});

