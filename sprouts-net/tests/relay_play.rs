//! Two library clients play through a relay on loopback with faults of every kind: frames
//! dropped, duplicated, delayed and so reordered on either side, connections cut, programs
//! restarted in the middle of a game, and the relay itself stopped and started again on its
//! store. Every game is finished, both sides hold the same games, move for move, and no
//! divergence was ever seen where no program restarted. (A restarted program's last action
//! may still be in flight, held back by a fault, when the new program has taken the game back
//! and acted in its place: the two actions then diverge, which is seen and repaired.)

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sprouts::draw::{Settings, WorldSize};
use sprouts::{GameRecord, Seat};
use sprouts_net::client::{ClientConfig, Faults, Outcome, Script, Target, play};
use sprouts_net::peer::{Drawing, PeerConfig, Role, Timing, same_game};
use sprouts_net::relay::RelayConfig;
use sprouts_net::relay::server::RelayServer;
use tokio::sync::{Mutex, oneshot};

/// Quick clocks, so that the faults are recovered from in a fraction of a second.
fn timing() -> Timing {
    Timing {
        heartbeat: Duration::from_millis(150),
        silence: Duration::from_millis(1200),
        resend: Duration::from_millis(250),
    }
}

fn faults(seed: u64) -> Faults {
    Faults {
        drop: 0.05,
        duplicate: 0.05,
        delay: 0.10,
        max_delay: Duration::from_millis(150),
        cuts_per_second: 0.15,
        restart: 0.3,
        seed,
    }
}

fn side(role: Role, seed: u64, drawing: Drawing) -> PeerConfig {
    PeerConfig {
        role,
        name: format!("{role} {seed}"),
        player: Seat::computer("random", seed).expect("a player"),
        drawing,
        timing: timing(),
        seed,
    }
}

/// Plays one room: a host that creates it and a guest that joins it with its code.
async fn room(
    url: String,
    seed: u64,
    script: Script,
    drawing: Drawing,
    with_faults: bool,
) -> (Outcome, Outcome) {
    let (code_tx, code_rx) = oneshot::channel();
    let mut code_tx = Some(code_tx);
    let config = |role, target, s| ClientConfig {
        url: url.clone(),
        target,
        peer: side(role, s, drawing.clone()),
        script: script.clone(),
        faults: with_faults.then(|| faults(s)),
        tick: Duration::from_millis(20),
        deadline: Duration::from_secs(50),
    };
    let host = tokio::spawn(play(
        config(Role::Host, Target::Create, seed),
        move |code| {
            if let Some(tx) = code_tx.take() {
                let _ = tx.send(code);
            }
        },
        |_| {},
    ));
    let code = code_rx.await.expect("the host gets a room");
    let guest = tokio::spawn(play(
        config(Role::Guest, Target::Join(code), seed + 1000),
        |_| {},
        |_| {},
    ));
    let host = host.await.expect("no panic").expect("the host finishes");
    let guest = guest.await.expect("no panic").expect("the guest finishes");
    (host, guest)
}

#[track_caller]
fn check_same_games(host: &Outcome, guest: &Outcome, games: usize) {
    assert_eq!(host.games.len(), games, "host's games");
    assert_eq!(guest.games.len(), games, "guest's games");
    for (i, (h, g)) in host.games.iter().zip(&guest.games).enumerate() {
        assert!(same_game(h, g), "game {i}: {:?}\n{:?}", h.moves, g.moves);
        let game = GameRecord::into_game(h.clone()).expect("a record that replays");
        assert!(game.is_over(), "game {i} is finished");
    }
    if host.restarts + guest.restarts == 0 {
        assert_eq!(host.stats.divergences + guest.stats.divergences, 0);
    }
}

/// 100 position-only games of 3 to 5 spots in ten rooms at once, with every kind of fault and
/// the relay restarted twice on its store while they play.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_games_through_faults_and_relay_restarts() {
    let dir = std::env::temp_dir().join(format!("sprouts-relay-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("relay.redb");
    let _ = std::fs::remove_file(&db);
    let server = RelayServer::start(
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        Some(&db),
        RelayConfig::default(),
    )
    .await
    .expect("the relay starts");
    let addr = server.addr();
    let url = server.url();
    let server = Arc::new(Mutex::new(Some(server)));
    let started = Instant::now();
    let restarter = {
        let server = Arc::clone(&server);
        let db = db.clone();
        tokio::spawn(async move {
            for _ in 0..2 {
                tokio::time::sleep(Duration::from_millis(2500)).await;
                let old = server.lock().await.take().expect("running");
                old.stop().await;
                tokio::time::sleep(Duration::from_millis(300)).await;
                let new = RelayServer::start(addr, Some(&db), RelayConfig::default())
                    .await
                    .expect("the relay starts again on its store");
                *server.lock().await = Some(new);
            }
        })
    };
    let rooms: Vec<_> = (0..10u64)
        .map(|r| {
            let script = Script {
                games: 10,
                spots: 3 + (r % 3) as u32,
                undo_chance: 0.08,
                max_undos_per_game: 2,
                ..Script::default()
            };
            tokio::spawn(room(
                url.clone(),
                100 * r + 1,
                script,
                Drawing::Positions,
                true,
            ))
        })
        .collect();
    let mut totals = (0u64, 0u64, 0u64, 0usize);
    for r in rooms {
        let (host, guest) = r.await.expect("no panic");
        check_same_games(&host, &guest, 10);
        for o in [&host, &guest] {
            totals.0 += o.stats.retransmits;
            totals.1 += o.connections;
            totals.2 += o.restarts;
            totals.3 += o.round_trips.len();
        }
    }
    restarter.await.expect("restarts done");
    eprintln!(
        "100 games in {:.1} s: {} retransmits, {} connections, {} restarts, {} acknowledged actions",
        started.elapsed().as_secs_f64(),
        totals.0,
        totals.1,
        totals.2,
        totals.3
    );
    // The faults did happen.
    assert!(totals.1 > 40, "connections: {}", totals.1);
    assert!(totals.0 > 0);
    if let Some(s) = server.lock().await.take() {
        s.stop().await;
    }
    let _ = std::fs::remove_file(&db);
}

/// A few drawn games: each side draws the other's moves with its own ladder, in drawing areas
/// of different sizes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drawn_games_through_the_relay() {
    let server = RelayServer::start(
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        None,
        RelayConfig::default(),
    )
    .await
    .expect("the relay starts");
    let script = Script {
        games: 2,
        spots: 3,
        ..Script::default()
    };
    let drawing = Drawing::Pictures {
        world: WorldSize::new(600.0, 400.0),
        settings: Settings::default(),
    };
    let (host, guest) = room(server.url(), 7, script, drawing, false).await;
    check_same_games(&host, &guest, 2);
    server.stop().await;
}
