//! `sprouts serve` over a real WebSocket on loopback: the binary is started on a free port and
//! spoken to as the page speaks to it (JSON text frames), with tokio-tungstenite.

mod server;

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use server::{Page, WAIT, handshake_status, new_game, start, start_with};

/// A port taken (by a listener held here) makes the server take the next free one, and say
/// which; `--open` runs the system's opener (`xdg-open`, here a script that writes down what
/// it was given) with the page's address.
#[cfg(unix)]
#[test]
fn a_taken_port_gives_the_next_one_and_open_opens_the_page() {
    use std::os::unix::fs::PermissionsExt;

    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = held.local_addr().expect("an address").port();
    let dir = std::env::temp_dir().join(format!("sprouts-serve-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let opened = dir.join("opened");
    let script = dir.join("xdg-open");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$1\" > '{}'\n", opened.display()),
    )
    .expect("the script is written");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("executable");
    let asked = port.to_string();
    let (server, line) = start_with(&["serve", "--port", &asked, "--open"], Some(&dir));
    let given: u16 = server
        .url
        .trim_start_matches("ws://127.0.0.1:")
        .trim_end_matches("/ws")
        .parse()
        .expect("a port in the address");
    assert!(
        given > port && given < port.saturating_add(50),
        "asked {port} (taken), got {given}: {line}"
    );
    let deadline = Instant::now() + WAIT;
    let text = loop {
        if let Ok(t) = std::fs::read_to_string(&opened)
            && t.ends_with('\n')
        {
            break t;
        }
        assert!(Instant::now() < deadline, "the browser was not opened");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(text.trim(), format!("http://127.0.0.1:{given}/"));
    drop(server);
    drop(held);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_a_websocket_with_bad_messages_refused() {
    let server = start();
    let mut page = Page::open(&server).await;
    let human = json!({"kind": "human"});
    let random = json!({"kind": "computer", "spec": "random"});

    page.send(new_game(3, human.clone(), human.clone())).await;
    let st = page.idle().await;
    assert_eq!(st["k"], 0);
    assert_eq!(st["spots"].as_array().map(Vec::len), Some(3));
    assert!(st["status"].as_str().unwrap().starts_with("Blue to move"));

    // Which spots a press on spot 1 reaches.
    let s1 = &st["spots"][0];
    let toward = [s1["x"].as_f64().unwrap() + 30.0, s1["y"].as_f64().unwrap()];
    page.send(json!({"type": "reach", "k": 0, "from": 1, "toward": toward}))
        .await;
    let (lit, _) = page.until(|m| m["type"] == "reachable").await;
    assert_eq!(lit["from"], 1);
    assert!(
        lit["spots"].as_array().unwrap().contains(&json!(2)),
        "{lit}"
    );

    // A human move by request (a click move: the router's way).
    page.send(json!({"type": "draw", "k": 0, "from": 1, "to": 2}))
        .await;
    let (st, before) = page
        .until(|m| m["type"] == "state" && m["busy"] == false && m["k"] == 1)
        .await;
    assert_eq!(st["moves"][0], "1 -> 2");
    assert!(
        before.iter().any(|m| m["type"] == "log"
            && m["line"]
                .as_str()
                .unwrap()
                .starts_with("move 1 (Blue): 1 -> 2")),
        "{before:?}"
    );
    assert_eq!(st["curves"].as_array().map(Vec::len), Some(2));

    // Red becomes the computer: it moves at once.
    page.send(json!({"type": "players", "players": [human.clone(), random.clone()]}))
        .await;
    let (st, before) = page
        .until(|m| m["type"] == "state" && m["busy"] == false && m["k"] == 2)
        .await;
    assert!(st["human_to_move"].as_bool().unwrap());
    assert!(
        before
            .iter()
            .any(|m| m["type"] == "log" && m["line"].as_str().unwrap().starts_with("move 2 (Red)")),
        "{before:?}"
    );

    // Bad messages: each answered by one error, the game unchanged.
    page.rejected("{not json", "not JSON").await;
    page.rejected(r#"{"type":"fly"}"#, "unknown message type")
        .await;
    page.rejected(
        r#"{"type":"undo","session":"0000000000000000","k":2}"#,
        "another session",
    )
    .await;
    let sid = page.session.clone();
    page.rejected(
        &json!({"type": "undo", "session": sid, "k": 1}).to_string(),
        "stale position",
    )
    .await;
    page.rejected(
        &json!({"type": "draw", "session": sid, "k": 2, "from": 1, "to": 99}).to_string(),
        "there is no spot 99",
    )
    .await;
    page.rejected(
        &json!({"type": "hello", "protocol": 1}).to_string(),
        "already",
    )
    .await;
    let before = page.saved().await;
    page.ws
        .send(Message::Binary(vec![1u8, 2, 3].into()))
        .await
        .expect("sent");
    let m = page.next().await;
    assert_eq!(m["type"], "error");
    assert_eq!(page.saved().await, before);

    // Undo against the computer goes back to the person's turn (two moves), redo forward.
    page.send(json!({"type": "undo", "k": 2})).await;
    let st = page.idle().await;
    assert_eq!(st["k"], 0);
    assert_eq!(st["can_redo"], true);
    page.send(json!({"type": "redo", "k": 0})).await;
    let st = page.idle().await;
    assert_eq!(st["k"], 2);

    // Save, then load it in another page: the same game; the first page's game is untouched by
    // the second's.
    let saved = page.saved().await;
    let mut other = Page::open(&server).await;
    other.send(new_game(4, human.clone(), human.clone())).await;
    other.idle().await;
    other.send(json!({"type": "load", "json": saved})).await;
    let loaded = other.idle().await;
    assert_eq!(loaded["k"], 2);
    assert_eq!(loaded["glop"], st["glop"]);
    assert_eq!(loaded["curves"], st["curves"]);
    assert_eq!(loaded["moves"], st["moves"]);
    // The same game (the log, for people, tells what each page did and is left out).
    let game = |json: &str| {
        let mut v: Value = serde_json::from_str(json).expect("a record");
        v.as_object_mut().expect("an object").remove("log");
        v
    };
    assert_eq!(game(&other.saved().await), game(&saved));
    assert_eq!(page.saved().await, saved);
    // The other page's session id does not work on this connection.
    let other_sid = other.session.clone();
    page.rejected(
        &json!({"type": "undo", "session": other_sid, "k": 2}).to_string(),
        "another session",
    )
    .await;
}

/// While the computer thinks a long time, the connection answers at once (a WebSocket ping, a
/// save of the log), and `stop` (Space) ends the thinking with the move found so far.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_answers_during_a_long_think_and_stop_ends_it() {
    let server = start();
    let mut page = Page::open(&server).await;
    let human = json!({"kind": "human"});
    let slow = json!({"kind": "computer", "spec": "montecarlo:120s"});
    page.send(new_game(8, slow, human)).await;
    let (st, _) = page
        .until(|m| m["type"] == "state" && m["busy"] == true)
        .await;
    assert_eq!(st["k"], 0);
    assert!(
        st["status"].as_str().unwrap().contains("is thinking"),
        "{st}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;

    // A ping frame: the pong comes while the computer thinks.
    let pong = page.ping(b"are you there").await;
    // A message: answered while the computer thinks.
    let t = Instant::now();
    page.send(json!({"type": "save_log"})).await;
    let (log, _) = page.until(|m| m["type"] == "log_text").await;
    let answered = t.elapsed();
    assert!(log["text"].as_str().unwrap().contains("game 1: 8 spots"));
    assert!(
        pong < Duration::from_secs(5) && answered < Duration::from_secs(5),
        "answers in {pong:?} and {answered:?} while the computer thinks for up to 120 s"
    );

    // Space: the computer stops and plays what it has; the person is to move.
    let t = Instant::now();
    page.send(json!({"type": "stop"})).await;
    let st = page.idle().await;
    let stopped = t.elapsed();
    assert_eq!(st["k"], 1, "{st}");
    assert_eq!(st["human_to_move"], true);
    assert!(
        stopped < Duration::from_secs(30),
        "the stop took {stopped:?}: the 120 s think did not end"
    );
}

/// Other web sites cannot drive the game: a WebSocket from a foreign `Origin`, or through a
/// foreign `Host` name (DNS rebinding), is refused with 403; the server's own origin under
/// its loopback names, and an origin allowed with `--allow-origin`, are accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origins_and_hosts_are_refused() {
    let (server, _) = start_with(
        &[
            "serve",
            "--port",
            "0",
            "--allow-origin",
            "https://sprouts.example.org",
        ],
        None,
    );
    let port = server
        .url
        .trim_start_matches("ws://127.0.0.1:")
        .trim_end_matches("/ws")
        .to_owned();
    let own = format!("http://127.0.0.1:{port}");
    let localhost = format!("http://localhost:{port}");
    assert_eq!(handshake_status(&server, &[("origin", &own)]).await, None);
    assert_eq!(
        handshake_status(&server, &[("origin", &localhost)]).await,
        None
    );
    assert_eq!(
        handshake_status(&server, &[("origin", "https://sprouts.example.org")]).await,
        None
    );
    assert_eq!(
        handshake_status(&server, &[("origin", "https://evil.example")]).await,
        Some(403)
    );
    let foreign_host = format!("rebound.example:{port}");
    assert_eq!(
        handshake_status(&server, &[("host", &foreign_host)]).await,
        Some(403)
    );
    // The server still serves its own pages.
    let page = Page::open(&server).await;
    assert!(!page.session.is_empty());
}

/// A client that sends part of a request's headers and stops is disconnected after the header
/// timeout, and connections past the cap are closed at once; the server keeps answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_time_out_and_connections_are_capped() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (server, _) = start_with(
        &[
            "serve",
            "--port",
            "0",
            "--header-timeout",
            "1",
            "--max-connections",
            "3",
        ],
        None,
    );
    let addr = server
        .url
        .trim_start_matches("ws://")
        .trim_end_matches("/ws")
        .to_owned();
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut s = TcpStream::connect(&addr).await.expect("connects");
        s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .await
            .expect("written");
        held.push(s);
    }
    // Past the cap: closed without an answer.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut extra = TcpStream::connect(&addr).await.expect("the OS accepts");
    let mut buf = [0u8; 64];
    let n = tokio::time::timeout(WAIT, extra.read(&mut buf))
        .await
        .expect("closed in time")
        .unwrap_or(0);
    assert_eq!(n, 0, "a connection past the cap gets nothing");
    // The half-sent requests are dropped after the timeout (1 s): each read ends.
    for mut s in held {
        let r = tokio::time::timeout(WAIT, s.read(&mut buf))
            .await
            .expect("the server ends the connection in time");
        // Hyper may answer 408 before closing; either way the connection ends.
        if let Ok(n) = r
            && n > 0
        {
            assert!(buf.starts_with(b"HTTP/1.1 408"), "{:?}", &buf[..n]);
        }
    }
    // With the slots free again, a page opens.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let page = Page::open(&server).await;
    assert!(!page.session.is_empty());
}

/// A page flooding the server gets "too many messages" and its extra messages are dropped;
/// another page is answered meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_messages_is_limited_and_others_are_answered() {
    let server = start();
    let mut flooder = Page::open(&server).await;
    for _ in 0..1000 {
        flooder.send(json!({"type": "stop"})).await;
    }
    let (m, _) = flooder
        .until(|m| {
            m["type"] == "error"
                && m["message"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("too many messages"))
        })
        .await;
    assert!(m["message"].as_str().unwrap().contains("a second"));
    let started = Instant::now();
    let other = Page::open(&server).await;
    assert!(!other.session.is_empty());
    eprintln!(
        "another page was answered in {:.3} s during the flood",
        started.elapsed().as_secs_f64()
    );
}
