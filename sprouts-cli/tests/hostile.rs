//! Hostile clients against `sprouts serve` on loopback: while each attack runs, another page
//! (opened before it, playing a small game) pings the server and asks it small questions, and
//! the server's resident memory is read from `/proc`. Every attack must leave the server up,
//! the other page answered within [`P99_BOUND`] at the 99th percentile, and the server's peak
//! resident memory under [`RSS_BOUND_KB`].
//!
//! The attacks run one at a time (they share the machine's two cores with nothing else of this
//! binary's), each for [`ATTACK`]; the figures measured are printed (`--nocapture`) and listed in
//! `docs/limits.md`.

mod server;

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::{Mutex, oneshot};
use tokio_tungstenite::tungstenite::Message;

use server::{Page, Server, WAIT, new_game, start};

/// How long each attack runs while the other page is measured.
const ATTACK: Duration = Duration::from_secs(4);

/// The bound on the 99th percentile of the other page's answers (a ping's pong, a small
/// request's answer) while an attack runs. The aim is 100 ms (measured at most 89 ms on the
/// 2-core development machine, shared and loaded, see `docs/limits.md`); the bound leaves room
/// for a busier test machine.
const P99_BOUND: Duration = Duration::from_millis(250);

/// The bound on the server's peak resident memory (`VmHWM`) over the whole attack, in KiB
/// (measured at most 423 MB, four 200-spot games between computers at once).
const RSS_BOUND_KB: u64 = 1024 * 1024;

/// One attack at a time in this binary.
static SERIAL: Mutex<()> = Mutex::const_new(());

/// A field of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`), if the system has it.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line[field.len() + 1..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// The `q`-quantile (0 to 1) of `times`, sorted in place.
fn quantile(times: &mut [Duration], q: f64) -> Duration {
    times.sort_unstable();
    let i = ((times.len() as f64 - 1.0) * q).round() as usize;
    times[i]
}

/// What the other page measured during one attack.
struct Measured {
    pings: Vec<Duration>,
    requests: Vec<Duration>,
}

/// Measures `page` until `stop` fires: a WebSocket ping, then a small request (`save_log`),
/// every 20 ms, each timed from sending to its answer.
async fn probe(page: &mut Page, mut stop: oneshot::Receiver<()>) -> Measured {
    let mut m = Measured {
        pings: Vec::new(),
        requests: Vec::new(),
    };
    let mut n = 0u64;
    while stop.try_recv().is_err() {
        n += 1;
        m.pings.push(page.ping(&n.to_le_bytes()).await);
        let t = Instant::now();
        page.send(json!({"type": "save_log"})).await;
        let (log, _) = page.until(|v| v["type"] == "log_text").await;
        m.requests.push(t.elapsed());
        assert!(log["text"].as_str().is_some_and(|t| t.contains("spots")));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    m
}

/// The other page, on a thread and an async runtime of its own (so that the attackers' work in
/// this process does not delay its measures): opens a page with a 3-spot game between people,
/// says when it is ready, measures until `stop` fires, then checks that the game still plays.
fn other_page(
    server: &Server,
    ready: oneshot::Sender<()>,
    stop: oneshot::Receiver<()>,
) -> std::thread::JoinHandle<Measured> {
    let url = server.url.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let mut page = Page::open_url(&url).await;
            let human = json!({"kind": "human"});
            page.send(new_game(3, human.clone(), human)).await;
            page.idle().await;
            let _ = ready.send(());
            let measured = probe(&mut page, stop).await;
            // The other page still plays: a move, drawn and answered.
            page.send(json!({"type": "draw", "k": 0, "from": 1, "to": 2}))
                .await;
            let (st, _) = page
                .until(|m| m["type"] == "state" && m["busy"] == false && m["k"] == 1)
                .await;
            assert_eq!(st["moves"][0], "1 -> 2");
            measured
        })
    })
}

/// Starts a server and the other page ([`other_page`]), runs `attack` (given the server's
/// WebSocket address) for [`ATTACK`] while the other page is measured, then checks the bounds
/// and that the server is up.
async fn under_attack<F, Fut>(name: &str, attack: F)
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let _one = SERIAL.lock().await;
    let mut server = start();
    let pid = server.child.id();
    let (ready, is_ready) = oneshot::channel();
    let (stop, stopped) = oneshot::channel();
    let other = other_page(&server, ready, stopped);
    is_ready.await.expect("the other page opens");
    let idle_kb = status_kb(pid, "VmRSS");

    let attacking = tokio::spawn(attack(server.url.clone()));
    let mut rss_max = 0u64;
    let until = Instant::now() + ATTACK;
    while Instant::now() < until {
        rss_max = rss_max.max(status_kb(pid, "VmRSS").unwrap_or(0));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.send(()).expect("the other page measures");
    let peak_kb = status_kb(pid, "VmHWM").unwrap_or(rss_max);
    let mut m = tokio::task::spawn_blocking(move || other.join())
        .await
        .expect("joined")
        .expect("the other page was answered and still plays");
    attacking.abort();
    let _ = attacking.await;
    assert!(
        server
            .child
            .try_wait()
            .expect("the server's state")
            .is_none(),
        "{name}: the server died"
    );

    let pings = m.pings.len();
    let requests = m.requests.len();
    let ping50 = quantile(&mut m.pings, 0.5);
    let ping99 = quantile(&mut m.pings, 0.99);
    let ping_max = *m.pings.last().expect("pings");
    let req50 = quantile(&mut m.requests, 0.5);
    let req99 = quantile(&mut m.requests, 0.99);
    let req_max = *m.requests.last().expect("requests");
    eprintln!(
        "{name}: {pings} pings p50 {ping50:.1?} p99 {ping99:.1?} max {ping_max:.1?}; \
         {requests} requests p50 {req50:.1?} p99 {req99:.1?} max {req_max:.1?}; \
         RSS idle {} KiB, max seen {rss_max} KiB, peak {peak_kb} KiB",
        idle_kb.unwrap_or(0)
    );
    assert!(pings >= 20, "{name}: only {pings} pings in {ATTACK:?}");
    assert!(
        ping99 <= P99_BOUND && req99 <= P99_BOUND,
        "{name}: the other page waited {ping99:?} (ping) and {req99:?} (request) at p99"
    );
    if idle_kb.is_some() {
        assert!(
            peak_kb <= RSS_BOUND_KB,
            "{name}: the server's resident memory reached {peak_kb} KiB"
        );
    }
    drop(server);
}

/// Opens an attacker's page on `url` and says hello; `None` if the server refuses it.
async fn attacker(url: &str) -> Option<Page> {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.ok()?;
    ws.send(Message::Text(
        json!({"type": "hello", "protocol": 1}).to_string().into(),
    ))
    .await
    .ok()?;
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next()).await.ok()??.ok()?;
        if let Message::Text(t) = frame {
            let welcome: Value = serde_json::from_str(t.as_str()).ok()?;
            let session = welcome["session"].as_str()?.to_string();
            return Some(Page { ws, session });
        }
    }
}

/// Reads and drops whatever comes on `rx` (a page's connection, or its reading half), so that
/// its socket never backs up; ends when the connection does.
fn drain<S>(mut rx: S) -> tokio::task::JoinHandle<()>
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>>
        + Unpin
        + Send
        + 'static,
{
    tokio::spawn(async move { while let Some(Ok(_)) = rx.next().await {} })
}

/// Waits for every attacker task (they end only when aborted, or when refused).
async fn join_all(attackers: Vec<tokio::task::JoinHandle<()>>) {
    for a in attackers {
        let _ = a.await;
    }
}

/// Sends the messages `make` writes for a new attacker page's session, as fast as the socket
/// takes them, draining its answers meanwhile; stops at the first refused write (a closed
/// connection), then holds the connection (and the work it asked for) until aborted.
async fn send_all(url: String, make: impl FnOnce(&str) -> Vec<String>) {
    let Some(page) = attacker(&url).await else {
        return;
    };
    let msgs = make(&page.session);
    let (mut tx, rx) = page.ws.split();
    let reader = drain(rx);
    for m in msgs {
        if tx.send(Message::Text(m.into())).await.is_err() {
            break;
        }
    }
    let _ = reader.await;
}

/// Games far too big for the page (a million spots: refused) and the biggest allowed (200
/// spots) between the strongest computers, on four pages at once, each game restarted again
/// and again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_new_games() {
    under_attack("huge new_game", |url| async move {
        let mut attackers = Vec::new();
        let specs = ["perfect", "montecarlo", "parity-sharp", "perfect"];
        for spec in specs {
            attackers.push(tokio::spawn(send_all(url.clone(), move |sid| {
                let computer = json!({"kind": "computer", "spec": spec});
                (0..50)
                    .map(|i| {
                        let spots = if i % 2 == 0 { 1_000_000 } else { 200 };
                        let mut m = new_game(spots, computer.clone(), computer.clone());
                        m["session"] = json!(sid);
                        m["convention"] = json!(if i % 4 == 1 { "misere" } else { "normal" });
                        m.to_string()
                    })
                    .collect()
            })));
        }
        join_all(attackers).await;
    })
    .await;
}

/// Thousands of `reach` questions on a 200-spot game, from four pages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reach_floods() {
    under_attack("reach flood", |url| async move {
        let mut attackers = Vec::new();
        for _ in 0..4 {
            let url = url.clone();
            attackers.push(tokio::spawn(async move {
                let Some(mut page) = attacker(&url).await else {
                    return;
                };
                let human = json!({"kind": "human"});
                page.send(new_game(200, human.clone(), human)).await;
                let st = page.idle().await;
                let spots = st["spots"].as_array().cloned().unwrap_or_default();
                let (mut tx, rx) = page.ws.split();
                let reader = drain(rx);
                for i in 0..5_000usize {
                    let s = &spots[i % spots.len()];
                    let toward = [
                        s["x"].as_f64().unwrap_or(0.0) + 20.0,
                        s["y"].as_f64().unwrap_or(0.0),
                    ];
                    let m = json!({"type": "reach", "session": page.session, "k": 0,
                                   "from": i % spots.len() + 1, "toward": toward});
                    if tx.send(Message::Text(m.to_string().into())).await.is_err() {
                        break;
                    }
                }
                let _ = reader.await;
            }));
        }
        join_all(attackers).await;
    })
    .await;
}

/// Two hundred connections that send part of a request's headers and stop, and more opened
/// all the time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_headers() {
    under_attack("half-sent headers", |url| async move {
        let addr = url
            .trim_start_matches("ws://")
            .trim_end_matches("/ws")
            .to_owned();
        let mut held = Vec::new();
        loop {
            for _ in 0..20 {
                if let Ok(mut s) = TcpStream::connect(&addr).await {
                    let _ = s
                        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-")
                        .await;
                    held.push(s);
                }
            }
            if held.len() > 200 {
                held.drain(..20);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
}

/// Messages as big as the server takes (4 MiB: a player spec padded with spaces, a stroke of
/// 100,000 points) and bigger (refused undecoded), sent again and again from four pages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn big_messages() {
    under_attack("big messages", |url| async move {
        let mut attackers = Vec::new();
        for kind in 0..4 {
            let url = url.clone();
            attackers.push(tokio::spawn(async move {
                // The message, written once (`SID` stands for each page's session id).
                let msg = match kind {
                    0 => {
                        let spec = format!("random{}", " ".repeat(4_000_000));
                        json!({"type": "players", "session": "SID",
                               "players": [{"kind": "computer", "spec": spec}, {"kind": "human"}]})
                    }
                    1 | 2 => {
                        let stroke: Vec<[f64; 2]> = (0..100_000)
                            .map(|i| {
                                let t = f64::from(i) / 100_000.0;
                                [100.0 + 600.0 * t, 300.0 + 200.0 * (t * 40.0).sin()]
                            })
                            .collect();
                        json!({"type": "draw", "session": "SID", "k": 0, "from": 1, "to": 2,
                               "stroke": stroke})
                    }
                    _ => json!({"type": "save_log", "session": "SID", "pad": "x".repeat(5 << 20)}),
                }
                .to_string();
                loop {
                    let Some(page) = attacker(&url).await else {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    let human = json!({"kind": "human"});
                    let mut game = new_game(20, human.clone(), human);
                    game["session"] = json!(page.session);
                    let text = msg.replacen("SID", &page.session, 1);
                    let (mut tx, rx) = page.ws.split();
                    let reader = drain(rx);
                    let _ = tx.send(Message::Text(game.to_string().into())).await;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    for _ in 0..20 {
                        if tx.send(Message::Text(text.clone().into())).await.is_err() {
                            break;
                        }
                    }
                    reader.abort();
                }
            }));
        }
        join_all(attackers).await;
    })
    .await;
}

/// Four hundred sockets at once, most of them opening a page and holding it (past the caps on
/// connections and pages), others opened and dropped again and again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_sockets() {
    under_attack("many sockets", |url| async move {
        let mut held = Vec::new();
        for _ in 0..300 {
            if let Some(page) = attacker(&url).await {
                held.push(drain(page.ws));
            }
        }
        loop {
            let mut batch = Vec::new();
            for _ in 0..100 {
                if let Ok(s) =
                    TcpStream::connect(url.trim_start_matches("ws://").trim_end_matches("/ws"))
                        .await
                {
                    batch.push(s);
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            drop(batch);
        }
    })
    .await;
}
