//! The campaign built into the program: every level proved again, its numbering and grading,
//! the generator's determinism, and the server's campaign routes (the list, a level's record,
//! a win checked and kept in the data directory, a loss and a foreign page refused).

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::Value;
use sprouts::Limits;
use sprouts::ai::analysis::analyse_board;
use sprouts::ai::solver::{Solver, SolverConfig};
use sprouts::campaign::{Campaign, GRADES, GenerateOptions, Level, difficulty, generate};

mod server;

const FILE: &str = include_str!("../data/campaign.json");

fn built_in() -> Campaign {
    Campaign::from_json(FILE).expect("the built-in campaign reads")
}

#[test]
fn every_level_is_proved_again() {
    let c = built_in();
    assert!(c.levels.len() >= 150, "{} levels", c.levels.len());
    let mut forms = std::collections::HashSet::new();
    for (i, l) in c.levels.iter().enumerate() {
        assert_eq!(l.number as usize, i + 1, "levels are numbered in order");
        assert!((1..=GRADES).contains(&l.grade));
        assert!(
            forms.insert(l.canonical.clone()),
            "level {} repeats",
            l.number
        );
        assert!(l.proof.winning_moves >= 1 && l.proof.winning_moves < l.proof.moves);
        if let Some(prev) = i.checked_sub(1).map(|p| &c.levels[p]) {
            assert!(prev.grade <= l.grade, "grades never go down");
            assert!(difficulty(&prev.proof) <= difficulty(&l.proof));
        }
        l.check()
            .unwrap_or_else(|e| panic!("level {}: {e}", l.number));
    }
    // Every grade has levels.
    for g in 1..=GRADES {
        assert!(c.levels.iter().any(|l| l.grade == g), "grade {g} is empty");
    }
}

#[test]
fn a_changed_level_is_caught() {
    let c = built_in();
    let mut l = c.levels[10].clone();
    l.proof.winning_moves += 1;
    assert!(l.check().is_err(), "a wrong winning-move count passes");
    let mut l = c.levels[20].clone();
    l.proof.win_length += 2;
    assert!(l.check().is_err(), "a wrong win length passes");
    let mut l = c.levels[30].clone();
    l.record = c.levels[31].record.clone();
    assert!(l.check().is_err(), "another level's picture passes");
}

#[test]
fn the_generator_is_deterministic() {
    let options = GenerateOptions {
        seed: 77,
        count: 3,
        ..GenerateOptions::default()
    };
    let a = generate(&options, &mut |_, _| {}).expect("a campaign");
    let b = generate(&options, &mut |_, _| {}).expect("a campaign");
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(a.levels.len(), 3);
    let again = Campaign::from_json(&a.to_json()).expect("it reads back");
    assert_eq!(again, a);
    for l in &a.levels {
        l.check().expect("a generated level proves");
    }
}

/// Plays a level to its end with the person choosing, by the solver, a winning move (`win`)
/// or a losing one; returns the game record's JSON and the winner.
fn play_level(l: &Level, win: bool) -> (String, Option<usize>) {
    let mut game = l.game().expect("the level loads");
    game.drop_picture();
    let solver = Solver::new(SolverConfig {
        threads: 1,
        ..SolverConfig::default()
    })
    .expect("a solver");
    while !game.is_over() {
        if game.human_to_move() {
            let report = analyse_board(game.position(), &solver, &Limits::none(), &mut |_| {});
            // After a losing first move the person may have no winning move: any will do.
            let mv = report
                .moves
                .iter()
                .find(|m| m.winning == Some(win))
                .or_else(|| report.moves.first())
                .expect("a move")
                .mv
                .clone();
            game.play_move(&mv).expect("a legal move");
        } else {
            game.computer_step(&Limits::none())
                .expect("the computer moves");
        }
    }
    (game.record().to_json(), game.winner())
}

/// An HTTP request to the server at `host` (`127.0.0.1:PORT`); the status and the body.
fn http(host: &str, method: &str, path: &str, body: Option<&str>, origin: &str) -> (u16, String) {
    let mut s = TcpStream::connect(host).expect("the server answers");
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).expect("the request is sent");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("an answer");
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn the_server_lists_levels_and_keeps_the_wins_it_checked() {
    let dir = std::env::temp_dir().join(format!("sprouts-campaign-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.to_string_lossy().into_owned();
    let (srv, _) = server::start_with(&["serve", "--port", "0", "--data", &data], None);
    let host = srv
        .url
        .trim_start_matches("ws://")
        .trim_end_matches("/ws")
        .to_owned();
    let own = format!("http://{host}");
    let c = built_in();

    let (status, body) = http(&host, "GET", "/campaign", None, &own);
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        list["levels"].as_array().map(Vec::len),
        Some(c.levels.len())
    );
    assert_eq!(list["won"], serde_json::json!([]));
    assert_eq!(list["kept"], true);

    let (status, body) = http(&host, "GET", "/campaign/level/3", None, &own);
    assert_eq!(status, 200);
    let record = sprouts::GameRecord::from_json(&body).expect("a game record");
    assert_eq!(record, c.levels[2].record);
    let (status, _) = http(&host, "GET", "/campaign/level/99999", None, &own);
    assert_eq!(status, 404);

    let level = &c.levels[2];
    let send = |json: &str, origin: &str| {
        let body = serde_json::json!({"level": level.number, "record": json}).to_string();
        http(&host, "POST", "/campaign/won", Some(&body), origin)
    };
    let (lost, winner) = play_level(level, false);
    assert_eq!(
        winner,
        Some(1),
        "a losing first move loses to the perfect player"
    );
    let (status, body) = send(&lost, &own);
    assert_eq!(status, 422, "{body}");
    assert!(!dir.join("campaign-progress.json").exists());

    let (won, winner) = play_level(level, true);
    assert_eq!(winner, Some(0), "the solver's moves win");
    let (status, body) = send(&won, "https://evil.example");
    assert_eq!(status, 403, "{body}");
    // Another level's win is not this one's.
    let other = serde_json::json!({"level": 4, "record": won}).to_string();
    let (status, _) = http(&host, "POST", "/campaign/won", Some(&other), &own);
    assert_eq!(status, 422);
    let (status, body) = send(&won, &own);
    assert_eq!(status, 200, "{body}");
    let kept: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("campaign-progress.json")).expect("the progress file"),
    )
    .expect("JSON");
    assert_eq!(kept["won"], serde_json::json!([level.number]));
    let (_, body) = http(&host, "GET", "/campaign", None, &own);
    let list: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(list["won"], serde_json::json!([level.number]));
    drop(srv);
    let _ = std::fs::remove_dir_all(&dir);
}
