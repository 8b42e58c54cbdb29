// ---------- connection ----------
function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL }));
  ws.onmessage = ev => onMessage(JSON.parse(ev.data));
  ws.onclose = () => setStatus("Disconnected from the server: reload the page once it runs again.", true);
}
function send(msg) {
  if (!S.ws || S.ws.readyState !== 1) return;
  msg.session = S.session;
  S.ws.send(JSON.stringify(msg));
}
function onMessage(m) {
  switch (m.type) {
    case "welcome":
      S.session = m.session;
      if (!S.state && !netResume()) newGame(defaultGame());
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
    case "refused": S.refusals.push(m.reason); break;
    case "error": S.errors.push(m.message); addLog("error: " + m.message); setStatus("Error: " + m.message, true); break;
    case "log": addLog(m.line); break;
    case "saved": S.lastSaved = m.json; download("sprouts-game.json", m.json, "application/json"); break;
    case "net": onNet(m); break;
    case "log_text": S.lastLogText = m.text; download("sprouts-log.txt", m.text, "text/plain"); break;
  }
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
