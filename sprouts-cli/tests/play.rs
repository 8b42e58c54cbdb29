//! `sprouts relay` and `sprouts play` as a user runs them, on loopback: two programs play
//! through a relay started on its own, and `sprouts serve` answers on `/relay` too.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

/// A child process, killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `sprouts ARGS` and returns it with the first line it printed.
fn start(args: &[&str]) -> (Running, String, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprouts"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the sprouts binary runs");
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    out.read_line(&mut line).expect("a first line");
    (Running(child), line, out)
}

fn url_in(line: &str) -> String {
    let start = line.find("ws://").expect("an address");
    line[start..].split_whitespace().next().unwrap().to_owned()
}

#[test]
fn two_programs_play_through_a_relay() {
    let dir = std::env::temp_dir().join(format!("sprouts-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("relay.redb");
    let _ = std::fs::remove_file(&db);
    let (_relay, line, _) = start(&["relay", "--port", "0", "--db", db.to_str().unwrap()]);
    assert!(
        line.starts_with("relay listening at ws://127.0.0.1:"),
        "{line}"
    );
    let url = url_in(&line);
    let (mut host, first, mut host_out) = start(&[
        "play", "--host", "--relay", &url, "--p1", "random", "--spots", "4", "--games", "2",
        "--seed", "3",
    ]);
    let code = first
        .strip_prefix("room ")
        .expect("the room's code")
        .trim()
        .to_owned();
    assert_eq!(code.len(), 32);
    let guest = Command::new(env!("CARGO_BIN_EXE_sprouts"))
        .args([
            "play",
            "--join",
            &code,
            "--relay",
            &url,
            "--p1",
            "parity-fast:0.2s",
            "--seed",
            "4",
        ])
        .output()
        .expect("the guest runs");
    assert!(
        guest.status.success(),
        "{}",
        String::from_utf8_lossy(&guest.stderr)
    );
    let guest_text = String::from_utf8_lossy(&guest.stdout).into_owned();
    assert!(host.0.wait().expect("the host ends").success());
    let mut host_text = String::new();
    host_out.read_to_string(&mut host_text).unwrap();
    // Both print the same two games, and the moves as they were played.
    let summary = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("game "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(summary(&guest_text).len(), 2, "{guest_text}");
    assert_eq!(
        summary(&host_text),
        summary(&guest_text),
        "{host_text}\n{guest_text}"
    );
    assert!(guest_text.contains("move 1 ("), "{guest_text}");
    // A code that names no room is refused with a message.
    let bad = Command::new(env!("CARGO_BIN_EXE_sprouts"))
        .args([
            "play",
            "--join",
            &"0".repeat(32),
            "--relay",
            &url,
            "--p1",
            "random",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("no room"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    let _ = std::fs::remove_file(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_carries_the_relay() {
    let (_server, line, _) = start(&["serve", "--port", "0", "--no-data"]);
    let start = line.find("http://").expect("an address") + "http://".len();
    let end = line[start..].find('/').expect("a path") + start;
    let url = format!("ws://{}/relay", &line[start..end]);
    let (mut ws, _) = connect_async(url.as_str())
        .await
        .expect("the relay answers");
    ws.send(Message::Text(r#"{"op":"create"}"#.into()))
        .await
        .unwrap();
    let reply = ws.next().await.expect("a reply").expect("a frame");
    let text = reply.into_text().unwrap();
    assert!(
        text.contains(r#""op":"joined""#) && text.contains(r#""seat":"host""#),
        "{text}"
    );
    ws.send(Message::Text(r#"{"op":"send","data":"x"}"#.into()))
        .await
        .unwrap();
    ws.send(Message::Text(r#"{"op":"join","room":"nope"}"#.into()))
        .await
        .unwrap();
    let reply = ws
        .next()
        .await
        .expect("a reply")
        .expect("a frame")
        .into_text()
        .unwrap();
    assert!(reply.contains(r#""code":"already_joined""#), "{reply}");
}
