
// ---------- who is winning: the solver's verdict and, on request, the winning moves ----------
// Both are off until asked for (the checkbox, the Hint button): against the computer they
// would give the game away. The answer comes from a background job on the server, within a
// small budget; one for a position the game has left is not shown.
function askVerdict(hint) {
  const st = S.state;
  if (!st || st.over || st.busy) return;
  S.hintAsked = hint ? st.game + ":" + st.k : S.hintAsked;
  send({ type: "analyse", k: st.k, hint });
}
$("who").onchange = () => { if ($("who").checked) askVerdict(false); else $("verdict").hidden = true; };
$("b-hint").onclick = () => askVerdict(true);
S.on("state", st => {
  if (st.over || (S.verdictFor && S.verdictFor !== st.game + ":" + st.k)) $("verdict").hidden = true;
  $("b-hint").disabled = st.over || !st.human_to_move;
  const key = st.game + ":" + st.k;
  if (S.hintLit && S.hintLit !== key) { S.hintLit = null; if (S.litFrom === null) S.lit = []; }
  if ($("who").checked && !st.busy && !st.over && S.askedFor !== key) { S.askedFor = key; askVerdict(false); }
});
S.on("analysis", m => {
  const st = S.state;
  if (!st || m.game !== st.game || m.k !== st.k) return;
  S.verdictFor = m.game + ":" + m.k;
  let text = "Who is winning: " + m.verdict + ".";
  if (m.winning) {
    const words = m.winning.map(w => w.words);
    text += words.length ? " Winning moves: " + words.join("; ") + (m.complete ? "." : " (perhaps more).")
      : m.complete ? " No move wins." : " No winning move found in time.";
    // The spots of the winning moves light up.
    S.lit = [...new Set(m.winning.flatMap(w => [w.from, w.to]))]; S.litFrom = null; S.hintLit = S.verdictFor; draw();
  }
  S.lastAnalysis = m;
  $("verdict").textContent = text;
  $("verdict").hidden = false;
});
