//! A load test of `sprouts relay` on loopback: 500 rooms at once, each a host and a guest
//! playing a computer game through the relay (1,000 connections). It reports the relay's
//! memory (its own process, read from `/proc`) and the round trip of every move (sent by one
//! side, acknowledged by the other: two passes through the relay, each written to its store
//! before it is passed on).
//!
//! Bounded in count (500 rooms, one game each) and time (each client gives up after two
//! minutes). Ignored by default (it takes about a minute on two cores); run it with
//!
//! ```text
//! cargo test -p sprouts-cli --test relay_load -- --ignored --nocapture
//! ```
//!
//! (`ROOMS=N` changes the number of rooms.)

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sprouts::Seat;
use sprouts_net::client::{ClientConfig, Script, Target, play};
use sprouts_net::peer::{Drawing, PeerConfig, Role, Timing};
use tokio::sync::oneshot;

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A field of `/proc/PID/status` in kB.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a load test of about a minute; run it by name with --ignored"]
async fn five_hundred_rooms_at_once() {
    let rooms: u64 = std::env::var("ROOMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let dir = std::env::temp_dir().join(format!("sprouts-relay-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("relay.redb");
    let _ = std::fs::remove_file(&db);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprouts"))
        .args(["relay", "--port", "0", "--db", db.to_str().unwrap()])
        .args(["--max-rooms", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the relay runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let relay = Running(child);
    let pid = relay.0.id();
    let url = line[line.find("ws://").unwrap()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    let idle_kb = status_kb(pid, "VmRSS").unwrap_or(0);
    let timing = Timing {
        heartbeat: Duration::from_secs(1),
        silence: Duration::from_secs(10),
        resend: Duration::from_secs(1),
    };
    let config = move |role, target, seed: u64| ClientConfig {
        url: url.clone(),
        target,
        peer: PeerConfig {
            role,
            name: format!("{role}"),
            player: Seat::computer("random", seed).unwrap(),
            drawing: Drawing::Positions,
            timing,
            seed,
        },
        script: Script {
            games: 1,
            spots: 8,
            ..Script::default()
        },
        faults: None,
        tick: Duration::from_millis(100),
        deadline: Duration::from_secs(120),
    };
    let started = Instant::now();
    let mut tasks = Vec::new();
    for r in 0..rooms {
        let (tx, rx) = oneshot::channel();
        let mut tx = Some(tx);
        let host = tokio::spawn(play(
            config(Role::Host, Target::Create, 2 * r + 1),
            move |code| {
                if let Some(t) = tx.take() {
                    let _ = t.send(code);
                }
            },
            |_| {},
        ));
        let guest_config = config.clone();
        let guest = tokio::spawn(async move {
            let code = rx.await.expect("a room");
            play(
                guest_config(Role::Guest, Target::Join(code), 2 * r + 2),
                |_| {},
                |_| {},
            )
            .await
        });
        tasks.push((host, guest));
    }
    // Peak memory, sampled while the games run.
    let sampler = tokio::spawn(async move {
        let mut peak = 0;
        for _ in 0..1200 {
            peak = peak.max(status_kb(pid, "VmRSS").unwrap_or(0));
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        peak
    });
    let mut trips = Vec::new();
    let mut moves = 0usize;
    for (h, g) in tasks {
        let h = h.await.unwrap().expect("the host finishes");
        let g = g.await.unwrap().expect("the guest finishes");
        assert_eq!(h.games.len(), 1);
        assert!(sprouts_net::peer::same_game(&h.games[0], &g.games[0]));
        assert_eq!(h.stats.divergences + g.stats.divergences, 0);
        moves += h.games[0].moves.len();
        trips.extend(h.round_trips);
        trips.extend(g.round_trips);
    }
    let elapsed = started.elapsed();
    sampler.abort();
    let hwm = status_kb(pid, "VmHWM").unwrap_or(0);
    trips.sort();
    eprintln!(
        "{rooms} rooms ({} connections), {moves} moves, {} acknowledged actions in {:.1} s",
        2 * rooms,
        trips.len(),
        elapsed.as_secs_f64()
    );
    eprintln!("relay memory: {} kB idle, {} kB peak (VmHWM)", idle_kb, hwm);
    eprintln!(
        "action round trip (sent -> acknowledged, two passes through the relay): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&trips, 0.5).as_secs_f64() * 1e3,
        percentile(&trips, 0.99).as_secs_f64() * 1e3,
        trips.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    let _ = std::fs::remove_file(&db);
}
