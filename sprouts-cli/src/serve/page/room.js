
// ---------- the Room menu (spec 4.1): making room by hand, and which steps are automatic ----------
// M, A, R, Z and • change the picture, never the position: M slides spots, moves seeds and
// pushes curves apart round the way of a move that found no room, A relaxes the curves with the
// spots kept, R relaxes everything, Z draws the picture afresh, • (key .) afresh with spots
// drawn smaller where there is no room. Pressed while a person's move waits for room, a step
// makes room for that move and draws it (the checked steps above it follow); otherwise A, R, Z
// and • change the picture alone, and M has nothing to make room for. Each runs on the server
// as a job (Space stops it) and is a step of the history (Undo puts it back). The boxes say
// which steps are taken by themselves when a move finds no room: one row for a person's moves,
// one for the computer's. Heroic (spec 4.7) keeps a person's curves exactly as drawn: the
// person's row is then off and greyed, and the computer takes no M.
const ROOM_KEY = "sprouts.roomBoxes";
const ROOM_STEPS = [["M", "m", "M: slide spots along their curves, move seeds, push curves apart"], ["A", "a", "A: relax the curves, spots kept"], ["R", "r", "R: relax the whole picture"], ["Z", "z", "Z: draw the picture afresh"], [".", "dot", "•: afresh, with spots drawn smaller where there is no room"]];
const ROOM_DEFAULTS = { human: { m: false, a: false, r: true, z: false, dot: false }, computer: { m: false, a: false, r: true, z: true, dot: true }, heroic: false };
function roomBoxes() {
  try {
    const kept = JSON.parse(localStorage.getItem(ROOM_KEY) || "null");
    if (kept && kept.human && kept.computer) {
      for (const who of ["human", "computer"]) if (!("m" in kept[who])) kept[who].m = false;
      kept.heroic = !!kept.heroic;
      return kept;
    }
  } catch (e) { /* storage off or spoilt: the defaults */ }
  return JSON.parse(JSON.stringify(ROOM_DEFAULTS));
}
(function roomMenu() {
  const style = document.createElement("style");
  style.textContent = "#room{position:relative;display:inline-block}#room summary{cursor:pointer}#room .room-panel{position:absolute;z-index:20;background:#fff;border:1px solid #bbb;border-radius:4px;padding:6px 8px;white-space:nowrap;box-shadow:0 2px 6px rgba(0,0,0,.2)}#room .room-panel div{margin:3px 0}#room .room-note{color:#666;font-size:90%}#room label{display:inline-block;margin-right:6px}@media (max-width:600px){#room{display:block}#room .room-panel{position:static;white-space:normal;box-shadow:none}}";
  document.head.appendChild(style);
  const menu = document.createElement("details");
  menu.id = "room";
  menu.className = "tool";
  const summary = document.createElement("summary");
  summary.textContent = "Room";
  summary.title = "Make room for moves: M, A, R, Z and . (keys), and the steps taken by themselves";
  menu.appendChild(summary);
  const panel = document.createElement("div");
  panel.className = "room-panel";
  const now = document.createElement("div");
  now.textContent = "Now: ";
  for (const [step, , title] of ROOM_STEPS) {
    const b = document.createElement("button");
    b.id = "b-room-" + (step === "." ? "dot" : step.toLowerCase());
    b.textContent = step === "." ? "•" : step;
    b.title = title + " (key " + step + ")";
    b.onclick = () => roomStep(step);
    now.appendChild(b);
  }
  panel.appendChild(now);
  const boxes = roomBoxes();
  for (const [who, label] of [["human", "For my moves:"], ["computer", "For the computer's moves:"]]) {
    const row = document.createElement("div");
    row.textContent = label + " ";
    for (const [step, field, title] of ROOM_STEPS) {
      const l = document.createElement("label");
      l.title = title;
      const c = document.createElement("input");
      c.type = "checkbox";
      c.id = "room-" + who + "-" + field;
      c.checked = !!boxes[who][field];
      c.onchange = () => { const b = roomBoxes(); b[who][field] = c.checked; saveRoomBoxes(b); };
      l.appendChild(c);
      l.appendChild(document.createTextNode(" " + (step === "." ? "•" : step) + " "));
      row.appendChild(l);
    }
    panel.appendChild(row);
  }
  const heroicRow = document.createElement("div");
  const heroicLabel = document.createElement("label");
  heroicLabel.title = "Heroic: your curves are kept exactly as you draw them (they must not touch or cross anything); nothing is moved for your moves";
  const heroic = document.createElement("input");
  heroic.type = "checkbox";
  heroic.id = "room-heroic";
  heroic.checked = boxes.heroic;
  heroic.onchange = () => { const b = roomBoxes(); b.heroic = heroic.checked; saveRoomBoxes(b); greyHumanRow(b.heroic); };
  heroicLabel.appendChild(heroic);
  heroicLabel.appendChild(document.createTextNode(" Heroic: my curves exactly as drawn"));
  heroicRow.appendChild(heroicLabel);
  panel.appendChild(heroicRow);
  const note = document.createElement("div");
  note.className = "room-note";
  note.textContent = "Pressed while a move waits for room, a step makes room for it and draws it.";
  panel.appendChild(note);
  menu.appendChild(panel);
  $("menus").appendChild(menu);
  greyHumanRow(boxes.heroic);
})();
// Heroic mode greys the person's row: nothing is done by itself for a person's moves.
function greyHumanRow(on) {
  for (const [, field] of ROOM_STEPS) {
    const c = document.getElementById("room-human-" + field);
    if (c) { c.disabled = on; c.parentElement.style.opacity = on ? "0.45" : ""; }
  }
}
function saveRoomBoxes(b) {
  try { localStorage.setItem(ROOM_KEY, JSON.stringify(b)); } catch (e) { /* storage off: kept for this session only */ }
  sendRoomBoxes(b);
}
function sendRoomBoxes(b) { send({ type: "room_boxes", human: b.human, computer: b.computer, heroic: !!b.heroic }); }
// A step on the present picture now.
function roomStep(step) {
  const st = S.state;
  if (!st) return;
  if (st.busy) { setRefusal("Busy: wait for the move, or press Space to stop it."); return; }
  setRefusal("");
  send({ type: "room", k: st.k, step });
}
S.roomStep = roomStep;
// A new session (a reload, a server restart) is told the boxes.
S.on("welcome", () => sendRoomBoxes(roomBoxes()));
window.addEventListener("keydown", ev => {
  if (document.querySelector("dialog[open]") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  const key = ev.key === "." ? "." : ev.key.toUpperCase();
  if (["M", "A", "R", "Z", "."].includes(key) && ev.key.length === 1) { ev.preventDefault(); roomStep(key); }
});
