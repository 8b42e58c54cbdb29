// ---------- connection ----------
function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL }));
  ws.onmessage = ev => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null; S.session = null;
    // The server went away (a restart, the network): try again, less often as time goes on;
    // the game comes back from the page's storage (keep.js) once a new session is open.
    S.retries = (S.retries || 0) + 1;
    const wait = Math.min(5000, 500 * S.retries);
    setStatus("The connection to the server was lost: trying again…", true);
    setTimeout(connect, wait);
  };
}
function send(msg) {
  if (!S.ws || S.ws.readyState !== 1) return;
  msg.session = S.session;
  S.ws.send(JSON.stringify(msg));
}
function onMessage(m) {
  switch (m.type) {
    case "welcome":
      S.session = m.session; S.retries = 0;
      // A network game this tab was in (net.js), else the last game kept by the page (keep.js),
      // else a new game.
      if (!netResume() && !(S.resume && S.resume(m))) newGame(defaultGame());
      break;
    case "state":
      S.state = m;
      if (S.litFrom !== null && (!S.press && !S.armed)) { S.lit = []; S.litFrom = null; }
      refreshUi(); showPicture(m);
      break;
    case "reachable":
      if ((S.press && S.press.from === m.from) || (S.armed && S.armed.from === m.from)) { S.lit = m.spots; S.litFrom = m.from; draw(); }
      break;
    case "animate": S.stats.framesIn++; S.queue.push({ frame: m.points }); play(); break;
    case "refused": S.refusals.push(m.reason); setRefusal(refusalWords(m.reason)); break;
    case "error": S.errors.push(m.message); addLog("error: " + m.message); setRefusal(errorWords(m.message)); break;
    case "log": addLog(m.line); break;
    case "saved": S.lastSaved = m.json; download("sprouts-game.json", m.json, "application/json"); break;
    case "net": onNet(m); break;
    case "log_text": S.lastLogText = m.text; download("sprouts-log.txt", m.text, "text/plain"); break;
  }
  for (const fn of (S.hooks[m.type] || []).concat(S.hooks["*"] || [])) fn(m);
}
// The line under the status for what went wrong: plain words, whose turn stays above it.
function setRefusal(text) {
  const el = $("refusal");
  el.textContent = text || "";
  el.hidden = !text;
}
// A refused move in words, naming the spots the player aimed at.
function refusalWords(reason) {
  const r = S.lastRequest, what = r ? (r.from === r.to ? `a loop at spot ${r.from}` : `a curve from spot ${r.from} to spot ${r.to}`) : "that move";
  return `Could not draw ${what}: ${reason}. Try another way round, or press Enter to draw it the shortest way.`;
}
// A message the server refused, in words: its own words, with a capital and a full stop.
function errorWords(message) {
  const t = String(message).replace(/^not a legal move: /, "that move is not allowed: ");
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}
function addLog(line) {
  S.log.push(line);
  const el = $("log");
  el.textContent += line + "\n";
  el.scrollTop = el.scrollHeight;
}
function setStatus(text, bad) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("refused", !!bad);
  el.title = text;
}
function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  // The browser reads the blob after the click, later on a busy machine: revoking it too soon
  // makes the download fail. Kept a minute.
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}
