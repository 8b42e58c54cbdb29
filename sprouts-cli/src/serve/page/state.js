const PROTOCOL = 1;
const KINDS = {
  random: { label: "Random", unit: "", def: null, spec: () => "random" },
  montecarlo: { label: "Monte Carlo", unit: "playouts", def: 200, max: 100000, spec: v => "montecarlo:" + Math.min(100000, Math.max(1, Math.round(v))) },
  "parity-fast": { label: "Parity fast", unit: "s a move", def: 2, spec: v => "parity-fast:" + v + "s" },
  "parity-sharp": { label: "Parity sharp", unit: "s a move", def: 2, spec: v => "parity-sharp:" + v + "s" },
  perfect: { label: "Perfect", unit: "s a move", def: 5, spec: v => "perfect:" + v + "s" },
};
// Spots are filled by their lives (no life: light grey, then yellow, violet, green), never in
// the players' blue and red, which colour the curves and rings of the spots each player made.
const LIVES_COLOUR = ["#bdbdbd", "#f9a825", "#8e24aa", "#2e7d32"];
const COLOURS = ["Blue", "Red"];
const PLAYER_COLOUR = ["#1565c0", "#c62828"];

const $ = id => document.getElementById(id);
const canvas = $("board"), ctx = canvas.getContext("2d");
const S = window.sprouts = {
  ws: null, session: null, state: null, lit: [], litFrom: null, marks: [], press: null, armed: null,
  anim: null, lastRequest: null, errors: [], refusals: [], log: [], lastSaved: null, lastLogText: null,
  view: { s: 1, ox: 0, oy: 0 },
  // What the canvas shows: the picture (spots and curves) of the last state once the frames of
  // the curve being drawn have been played and the move from the old picture is over.
  pic: null, queue: [], tween: null,
  // Counters for the tests: animation frames received and shown, pictures moved smoothly.
  stats: { framesIn: 0, framesShown: 0, tweens: 0 },
  // Hooks for the page's features: S.on(type, fn) calls fn(message) after the page has handled
  // every server message of that type ("state", "log", ...; "*" for all), so that a feature in
  // its own script follows the game without editing the others.
  hooks: {},
  // The pinch zoom of the picture: scale and the world point at the view's centre (null: fit).
  zoom: null,
};
S.on = (type, fn) => { (S.hooks[type] = S.hooks[type] || []).push(fn); };
// A feature's menu: its style sheet added to the page, and its button (`id`, `label`, `title`)
// with a span for its information (`info`, an id) after it, both appended to `parent`.
function addMenu(parent, css, { id, label, title, info }) {
  const style = document.createElement("style");
  style.textContent = css;
  document.head.appendChild(style);
  const button = document.createElement("button");
  button.id = id; button.textContent = label; button.title = title;
  const span = document.createElement("span");
  span.id = info;
  parent.appendChild(button); parent.appendChild(span);
  return button;
}

