// ---------- the one analysis of the position: who is winning, the hint, the analysis board ----------
// The server analyses a position once (the analysis board of sprouts_ai: the parts and their
// nimbers, the outcome, the bounds, every move's verdict), within a budget, on a background job,
// and sends each step as it is found. "Who is winning", the Hint and the board (board.js) all
// read that one analysis, S.analysis; a feature that wants it registers how many seconds it
// wants with S.wantAnalysis(fn) and the largest wish is asked for. An answer for a position the
// game has left is dropped. All of it is off until asked for: against the computer it would
// give the game away.
const VERDICT_SECONDS = 2;
S.analysis = null;
S.analysisWishes = [];
S.wantAnalysis = fn => S.analysisWishes.push(fn);
function analysisKey(st) { return st.game + ":" + st.k; }
// Asks for the analysis of the position in play if a feature wants one and none with at least
// that budget is out or done for it.
function refreshAnalysis() {
  const st = S.state;
  if (!st || st.over || st.busy) return;
  const seconds = Math.max(0, ...S.analysisWishes.map(fn => fn() || 0));
  if (!seconds) return;
  const a = S.analysis, key = analysisKey(st);
  if (a && a.key === key && a.seconds >= seconds) return;
  S.analysis = { key, game: st.game, k: st.k, seconds, started: false, misere: false, parts: [], moves: [], outcome: null, done: false, complete: false };
  send({ type: "analyse", k: st.k, seconds });
}
S.refreshAnalysis = refreshAnalysis;
// One step of the analysis into S.analysis.
S.on("analysis", m => {
  const a = S.analysis;
  if (!a || a.game !== m.game || a.k !== m.k) return;
  const e = m.event;
  switch (e.step) {
    case "started":
      Object.assign(a, { started: true, misere: e.misere, canonical: e.canonical, lower: e.lower, upper: e.upper, moveCount: e.move_count });
      a.parts = e.parts.map(land => ({ land, nimber: null, known: false }));
      a.moves = e.moves.map(mv => Object.assign({ nimber: null, winning: null, known: false }, mv));
      break;
    case "part": Object.assign(a.parts[e.index], { nimber: e.nimber, known: true }); break;
    case "outcome": a.outcome = { nimber: e.nimber, wins: e.wins, words: e.words }; break;
    case "move": Object.assign(a.moves[e.index], { nimber: e.nimber, winning: e.winning, known: true }); break;
    case "done": Object.assign(a, { done: true, complete: e.complete, nodes: e.nodes, elapsed: e.seconds }); break;
  }
  showVerdict();
});

// "Who is winning" (a box) and the Hint (a button, for the position it was pressed in).
S.wantAnalysis(() => ($("who").checked || (S.state && S.hintAsked === analysisKey(S.state))) ? VERDICT_SECONDS : 0);
$("who").onchange = () => { if ($("who").checked) refreshAnalysis(); showVerdict(); };
$("b-hint").onclick = () => { if (!S.state) return; S.hintAsked = analysisKey(S.state); refreshAnalysis(); showVerdict(); };
S.on("state", st => {
  $("b-hint").disabled = st.over || !st.human_to_move;
  refreshAnalysis();
  showVerdict();
});
// The verdict line, and for a hint the winning moves in words with their spots lit.
function showVerdict() {
  const st = S.state, a = S.analysis, el = $("verdict");
  const key = st && analysisKey(st);
  const hint = !!st && S.hintAsked === key;
  const current = !!st && !st.over && a && a.key === key;
  if (!current || !($("who").checked || hint)) {
    el.hidden = true;
    if (S.hintLit && S.hintLit !== key) { S.hintLit = null; if (S.litFrom === null) { S.lit = []; draw(); } }
    return;
  }
  let text = "Who is winning: " + (a.outcome ? a.outcome.words : "thinking…") + ".";
  if (hint && a.started) {
    const wins = a.moves.filter(mv => mv.winning === true);
    const open = a.moves.some(mv => mv.winning === null);
    // A long list is cut: the spots are lit and the analysis board lists every move.
    const SHOWN = 6;
    const words = wins.slice(0, SHOWN).map(w => w.words);
    if (wins.length > SHOWN) words.push("and " + (wins.length - SHOWN) + " more (the Analysis board lists every move)");
    text += words.length ? " Winning moves: " + words.join("; ") + (open ? (a.done ? " (perhaps more: not all were decided in time)." : "…") : ".")
      : !a.done ? " Looking for winning moves…" : open ? " No winning move found in time." : " No move wins.";
    // The spots of the winning moves light up.
    if (wins.length) { S.lit = [...new Set(wins.flatMap(w => [w.from, w.to]))]; S.litFrom = null; S.hintLit = key; draw(); }
  }
  el.textContent = text;
  el.hidden = false;
}
