
// ---------- view: uniform scale, centred, sharp on dense screens (spec 4.2) ----------
function resize() {
  const r = $("wrap").getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(r.width * dpr));
  canvas.height = Math.max(1, Math.round(r.height * dpr));
  draw();
}
window.addEventListener("resize", resize);
// The drawing area also changes when a line above it (a verdict, a notice) or a panel beside it
// comes or goes.
if (window.ResizeObserver) new ResizeObserver(() => resize()).observe($("wrap"));
function computeView() {
  const r = $("wrap").getBoundingClientRect(), st = S.state;
  if (!st) return S.view = { s: 1, ox: 0, oy: 0 };
  // A margin round the drawing area, so that a spot on its edge is drawn whole.
  const m = Math.min(12, r.width / 20, r.height / 20);
  const s = Math.max(1e-3, Math.min((r.width - 2 * m) / st.width, (r.height - 2 * m) / st.height));
  // Pinch zoom (input.js): the fitted scale times z, the world point (cx, cy) at the centre.
  const z = S.zoom;
  if (z && z.game === st.game) {
    const sz = s * z.k;
    return S.view = { s: sz, ox: r.width / 2 - z.cx * sz, oy: r.height / 2 - z.cy * sz };
  }
  return S.view = { s, ox: (r.width - st.width * s) / 2, oy: (r.height - st.height * s) / 2 };
}
function toWorld(cx, cy) { const v = S.view; return [(cx - v.ox) / v.s, (cy - v.oy) / v.s]; }
function toScreen(x, y) {
  const v = computeView(), r = canvas.getBoundingClientRect();
  return [r.left + v.ox + x * v.s, r.top + v.oy + y * v.s];
}
S.toScreen = toScreen;

// ---------- animation: the band relaxing, then the picture moving to its new places ----------
const FRAME_MS = 33, FRAMES_MAX_MS = 1200, TWEEN_MS = 650;
function picOf(st) { return { game: st.game, width: st.width, height: st.height, spots: st.spots, curves: st.curves, k: st.k, curve_moves: st.curve_moves }; }
// A new state's picture: shown after the queued frames of the curve being drawn; if the spots
// moved (the picture drawn afresh by Redraw or by the computer's ladder), it glides there. When
// the page is behind by a move or more (computers playing fast), the earlier moves' frames are
// dropped and their pictures shown at once, so that the picture keeps up with the game.
function showPicture(st) {
  const last = S.queue.map(x => !!x.pic).lastIndexOf(true);
  if (last >= 0) S.queue = S.queue.filter((x, i) => i > last || x.pic);
  S.queue.push({ pic: picOf(st) });
  play();
}
function startTween(next) {
  const old = S.tween ? tweenPic(S.tween, 1) : S.pic;
  S.anim = null;
  S.tween = null;
  if (old && sameSpots(old, next) && spotsMoved(old, next) && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
    S.tween = { from: old, to: next, t0: performance.now() };
    S.stats.tweens++;
    requestAnimationFrame(tick);
  }
  S.pic = next;
  draw();
}
// The same game's picture one move on or back (every old spot still there, or every new one
// already there when a move is undone; the world unchanged).
function sameSpots(a, b) {
  if (a.game !== b.game || a.width !== b.width || a.height !== b.height || Math.abs(a.k - b.k) > 1) return false;
  const inB = new Set(b.spots.map(s => s.id)), inA = new Set(a.spots.map(s => s.id));
  return a.spots.every(s => inB.has(s.id)) || b.spots.every(s => inA.has(s.id));
}
function spotsMoved(a, b) {
  const at = new Map(a.spots.map(s => [s.id, s]));
  return b.spots.some(s => { const o = at.get(s.id); return o && Math.hypot(o.x - s.x, o.y - s.y) > 0.5; });
}
const lerp = (a, b, t) => a + (b - a) * t;
const ease = t => t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
// The picture at time t of a tween: spots at eased places; a curve with as many pieces before
// and after morphs piece by piece, any other is cross-faded (old out, new in); a spot that is
// gone (an undone move) fades out.
function tweenPic(tw, t) {
  const e = ease(Math.min(1, Math.max(0, t)));
  const at = new Map(tw.from.spots.map(s => [s.id, s]));
  const spots = tw.to.spots.map(s => {
    const o = at.get(s.id);
    return o ? Object.assign({}, s, { x: lerp(o.x, s.x, e), y: lerp(o.y, s.y, e), r: lerp(o.r, s.r, e) }) : Object.assign({}, s, { alpha: e });
  });
  const kept = new Set(tw.to.spots.map(s => s.id));
  for (const o of tw.from.spots) if (!kept.has(o.id)) spots.push(Object.assign({}, o, { alpha: 1 - e }));
  const curves = [], fading = [];
  tw.to.curves.forEach((c, i) => {
    const o = tw.from.curves[i];
    if (o && o.length === c.length) curves.push(c.map((p, j) => p.map((v, q) => lerp(o[j][q], v, e))));
    else { curves.push(Object.assign(c.slice(), { alpha: e })); if (o) fading.push(Object.assign(o.slice(), { alpha: 1 - e })); }
  });
  for (let i = tw.to.curves.length; i < tw.from.curves.length; i++) fading.push(Object.assign(tw.from.curves[i].slice(), { alpha: 1 - e }));
  return { game: tw.to.game, width: tw.to.width, height: tw.to.height, k: tw.to.k, spots, curves: curves.concat(fading), curve_moves: tw.to.curve_moves };
}
function tick() {
  if (!S.tween) return;
  const t = (performance.now() - S.tween.t0) / TWEEN_MS;
  if (t >= 1) { S.tween = null; draw(); return; }
  draw();
  requestAnimationFrame(tick);
}
// The polylines of the curve being relaxed, each shown for a frame (a long queue is thinned so
// that it plays in at most FRAMES_MAX_MS), and the pictures of the states between them.
let playing = false;
function play() {
  if (playing) return;
  playing = true;
  const step = () => {
    const frames = S.queue.filter(x => x.frame).length, budget = Math.max(1, Math.floor(FRAMES_MAX_MS / FRAME_MS));
    if (frames > budget) {
      const keep = Math.ceil(frames / budget);
      let j = 0;
      S.queue = S.queue.filter(x => x.pic || j++ % keep === 0);
    }
    while (S.queue.length && S.queue[0].pic) startTween(S.queue.shift().pic);
    if (!S.queue.length) { playing = false; S.anim = null; draw(); return; }
    S.anim = S.queue.shift().frame;
    S.stats.framesShown++;
    draw();
    setTimeout(step, FRAME_MS);
  };
  step();
}
S.settled = () => !S.queue.length && !S.anim && !S.tween;

function draw() {
  const dpr = window.devicePixelRatio || 1, st = S.state;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = "#e9e9e6"; ctx.fillRect(0, 0, canvas.width, canvas.height);
  if (!st) return;
  const v = computeView();
  ctx.setTransform(dpr * v.s, 0, 0, dpr * v.s, dpr * v.ox, dpr * v.oy);
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, st.width, st.height);
  const pic = S.tween ? tweenPic(S.tween, (performance.now() - S.tween.t0) / TWEEN_MS) : (S.pic || picOf(st));
  const px = 1 / v.s; // one screen pixel in world units
  ctx.lineCap = "round"; ctx.lineJoin = "round";
  // Each curve in the colour of the player who drew it; the last move's wider, over a halo.
  const last = pic.k - 1, owner = moveOwner(st);
  pic.curves.forEach((c, i) => {
    if (!c.length) return;
    const mv = pic.curve_moves ? pic.curve_moves[i] : null;
    const alpha = c.alpha === undefined ? 1 : c.alpha;
    const path = () => { ctx.beginPath(); ctx.moveTo(c[0][0], c[0][1]); for (const p of c) ctx.bezierCurveTo(p[2], p[3], p[4], p[5], p[6], p[7]); };
    if (mv === last && mv !== null && mv >= 0) {
      ctx.globalAlpha = 0.35 * alpha; ctx.strokeStyle = "#ffd600"; ctx.lineWidth = Math.max(7, 7 * px);
      path(); ctx.stroke();
    }
    ctx.globalAlpha = alpha;
    ctx.strokeStyle = mv === null || mv === undefined ? "#222" : PLAYER_COLOUR[owner(mv)];
    ctx.lineWidth = mv === last ? Math.max(2.6, 2.6 * px) : Math.max(1.6, 1.6 * px);
    path(); ctx.stroke();
  });
  ctx.globalAlpha = 1;
  if (S.anim && S.anim.length > 1) polyline(S.anim, "#1565c0", 2 * px, [6 * px, 4 * px]);
  if (S.press && S.press.points.length > 1) polyline(S.press.points, "#888", 2 * px, []);
  const byId = new Map(pic.spots.map(s => [s.id, s]));
  for (const id of S.lit) {
    const s = byId.get(id); if (!s) continue;
    ctx.beginPath(); ctx.arc(s.x, s.y, s.r + 6 * px + 3, 0, 2 * Math.PI);
    ctx.fillStyle = "rgba(255, 214, 0, 0.55)"; ctx.fill();
  }
  for (const s of pic.spots) {
    ctx.globalAlpha = s.alpha === undefined ? 1 : s.alpha;
    ctx.beginPath(); ctx.arc(s.x, s.y, s.r, 0, 2 * Math.PI);
    ctx.fillStyle = LIVES_COLOUR[Math.min(3, s.lives)]; ctx.fill();
    // A spot made by a move: ringed in its player's colour (the last move's ringed wider).
    const made = st.start_spots !== undefined && s.id > st.start_spots ? s.id - st.start_spots - 1 : null;
    ctx.lineWidth = (made === last ? 2.5 : 1.2) * px;
    ctx.strokeStyle = made === null ? "#424242" : PLAYER_COLOUR[owner(made)];
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  for (const id of S.marks) {
    const s = byId.get(id); if (!s) continue;
    ctx.beginPath(); ctx.arc(s.x, s.y, s.r + 5, 0, 2 * Math.PI);
    ctx.setLineDash([3, 3]); ctx.strokeStyle = "#d81b60"; ctx.lineWidth = 2 * px; ctx.stroke(); ctx.setLineDash([]);
  }
  const from = S.press ? S.press.from : S.armed ? S.armed.from : null;
  if (from !== null && byId.get(from)) {
    const s = byId.get(from);
    ctx.beginPath(); ctx.arc(s.x, s.y, s.r + 4, 0, 2 * Math.PI);
    ctx.strokeStyle = "#000"; ctx.lineWidth = 2 * px; ctx.stroke();
  }
  ctx.fillStyle = "#444"; ctx.font = `${Math.max(9, 11 * px)}px system-ui, sans-serif`;
  for (const s of pic.spots) ctx.fillText(String(s.id), s.x + s.r + 2, s.y - s.r - 1);
}
// Which player made move i: the one who moved first, then in turn.
function moveOwner(st) { const f = st.first || 0; return i => (f + i) % 2; }
function polyline(pts, colour, width, dash) {
  ctx.beginPath(); ctx.moveTo(pts[0][0], pts[0][1]);
  for (const p of pts) ctx.lineTo(p[0], p[1]);
  ctx.setLineDash(dash); ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.stroke(); ctx.setLineDash([]);
}

