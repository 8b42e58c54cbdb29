// ---------- the campaign: positions to win against the perfect player ----------
// The Campaign menu lists the levels (from `GET /campaign`), grade by grade, with the ones
// won ticked. Starting a level loads its game record (`GET /campaign/level/N`: the picture of
// the position, you as Blue to move against the perfect player) like a saved game. When the
// game ends the page says whether the level was won; a win is kept in this browser's storage
// and sent to the server with the game's record (`POST /campaign/won`), which replays it and
// keeps the levels won in its data directory. Hint (the existing button) lights the winning
// moves.
const CAMPAIGN_KEY = "sprouts.campaign";
S.campaign = { levels: [], won: new Set(), kept: false, active: null, pending: null, sent: null };

(function campaignMenu() {
  const button = addMenu($("menus"),
    "#d-campaign { max-width: 40em; }" +
    "#campaign-levels { max-height: 60vh; overflow: auto; }" +
    "#campaign-levels h3 { margin: 8px 0 4px; font-size: 14px; }" +
    "#campaign-levels button { min-width: 4.5em; margin: 2px; }" +
    "#campaign-levels button.won { background: #c8e6c9; }" +
    "#campaign-info { margin-left: 8px; color: #2e7d32; }",
    { id: "b-campaign", label: "Campaign", title: "Positions from real games to win against the perfect player", info: "campaign-info" });
  const dialog = document.createElement("dialog");
  dialog.id = "d-campaign";
  dialog.setAttribute("aria-labelledby", "campaign-title");
  dialog.innerHTML =
    '<form method="dialog"><h2 id="campaign-title">Campaign</h2>' +
    '<p>Each level is a position from a game the computer played. You (Blue) move first and can win: ' +
    'win it against the perfect player. Hint lights the winning moves.</p>' +
    '<p id="campaign-progress"></p><div id="campaign-levels"></div>' +
    '<div class="buttons"><button value="cancel" formnovalidate>Close</button></div></form>';
  document.body.appendChild(dialog);
  button.onclick = () => { campaignFetch(); campaignDialog(); dialog.showModal(); };
  try {
    const kept = JSON.parse(localStorage.getItem(CAMPAIGN_KEY) || "{}");
    for (const n of kept.won || []) S.campaign.won.add(n);
    if (kept.active) S.campaign.stored = kept.active;
  } catch (e) { /* a bad entry is replaced */ }
  campaignFetch();
})();

function campaignSave() {
  const c = S.campaign;
  try {
    localStorage.setItem(CAMPAIGN_KEY, JSON.stringify({ won: [...c.won].sort((a, b) => a - b), active: c.active ? c.active.level : null }));
  } catch (e) { /* storage off: progress stays on the server */ }
}

/** The levels and the server's progress, merged with this browser's. */
function campaignFetch() {
  return fetch("/campaign", { cache: "no-store" }).then(r => r.json()).then(m => {
    const c = S.campaign;
    c.levels = m.levels || []; c.kept = !!m.kept;
    for (const n of m.won || []) c.won.add(n);
    campaignSave(); campaignDialog(); campaignInfo();
  }).catch(() => {});
}

function campaignDialog() {
  const c = S.campaign, box = $("campaign-levels");
  $("campaign-progress").textContent = c.levels.length
    ? `${c.won.size} of ${c.levels.length} levels won` + (c.kept ? " (kept in this browser and on the server)." : " (kept in this browser).")
    : "Loading the levels…";
  box.textContent = "";
  let grade = null;
  for (const l of c.levels) {
    if (l.grade !== grade) {
      grade = l.grade;
      const h = document.createElement("h3");
      h.textContent = "Grade " + grade;
      box.appendChild(h);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.level = l.number;
    b.textContent = (c.won.has(l.number) ? "✓ " : "") + l.number;
    b.className = c.won.has(l.number) ? "won" : "";
    b.title = `Level ${l.number}: ${l.spots} spots, ${l.winning_moves} of ${l.moves} moves win, the game lasts ${l.win_length} more moves with best play`;
    b.onclick = () => { $("d-campaign").close(); campaignStart(l.number); };
    box.appendChild(b);
  }
}

function campaignInfo() {
  const c = S.campaign, a = c.active;
  $("b-campaign").textContent = c.levels.length ? `Campaign (${c.won.size}/${c.levels.length})` : "Campaign";
  $("campaign-info").textContent = a ? `Level ${a.level}: win against the perfect player` : "";
}

/** Starts level `n`: its game record is loaded like a saved game. */
function campaignStart(n) {
  return fetch("/campaign/level/" + n, { cache: "no-store" }).then(r => {
    if (!r.ok) throw new Error("level " + n + " is not on this server");
    return r.text();
  }).then(json => {
    S.campaign.pending = n;
    S.loadText(json);
  }).catch(e => setRefusal(errorWords(String(e.message || e))));
}
S.campaignStart = campaignStart;

// A game kept by the page (keep.js) that was a level's comes back as that level.
(function () {
  const resume = S.resume;
  S.resume = welcome => {
    const r = resume(welcome);
    if (r && S.campaign.stored) S.campaign.pending = S.campaign.stored;
    return r;
  };
})();

S.on("state", st => {
  const c = S.campaign;
  if (!c.active || c.active.game !== st.game) {
    // A new game: a level's when one was being started, else not a level.
    c.active = c.pending !== null ? { level: c.pending, game: st.game, over: false } : null;
    c.pending = null;
    campaignSave(); campaignInfo();
  }
  const a = c.active;
  if (!a || !st.over || a.over) return;
  a.over = true;
  if (st.winner === 0) {
    c.won.add(a.level);
    campaignSave(); campaignInfo();
    const next = c.levels.find(l => l.number > a.level && !c.won.has(l.number));
    showNotice(`Level ${a.level} won!`, next ? `Next: level ${next.number}` : null, () => next && campaignStart(next.number));
  } else {
    const level = a.level;
    showNotice(`Level ${level} lost: the perfect player won.`, "Try again", () => campaignStart(level));
  }
});

// The won game's record goes to the server, which checks it and keeps the level.
S.on("snapshot", m => {
  const a = S.campaign.active;
  if (!a || m.game !== a.game || !m.over || S.campaign.sent === a.game || !S.campaign.won.has(a.level)) return;
  S.campaign.sent = a.game;
  fetch("/campaign/won", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ level: a.level, record: m.json }) })
    .then(r => r.json()).then(r => {
      if (r.error) { addLog("campaign: the server did not keep the level: " + r.error); return; }
      for (const n of r.won || []) S.campaign.won.add(n);
      S.campaign.kept = !!r.kept;
      campaignSave(); campaignInfo();
    }).catch(() => {});
});
