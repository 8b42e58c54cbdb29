//! `sprouts selfplay`, run as a user runs it.

mod common;
use common::sprouts;

#[test]
fn selfplay_prints_games_and_a_summary() {
    let args = [
        "selfplay",
        "--spots",
        "4",
        "--p1",
        "parity-fast:depth=2",
        "--p2",
        "random",
        "--games",
        "3",
        "--seed",
        "5",
    ];
    let out = sprouts(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("# game ").count(), 6, "{text}");
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("# 3 games: p1 (parity-fast:depth=2) won "),
        "{last}"
    );
    // The same seed plays the same games (times aside).
    let moves = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("# 3 games"))
            .map(|l| l.split(" [").next().unwrap().to_string())
            .collect()
    };
    let again = String::from_utf8(sprouts(&args).stdout).unwrap();
    assert_eq!(moves(&again), moves(&text));
}

#[test]
fn selfplay_json_has_one_object_per_game_and_a_summary() {
    let out = sprouts(&[
        "selfplay",
        "--spots",
        "3",
        "--p1",
        "random",
        "--p2",
        "montecarlo:5",
        "--games",
        "4",
        "--json",
        "--alternate",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    assert_eq!(lines.len(), 5);
    let mut wins = [0u64; 2];
    let mut moves = 0;
    for (g, game) in lines[..4].iter().enumerate() {
        assert_eq!(game["game"], g as u64 + 1);
        assert_eq!(game["first"], if g % 2 == 0 { 1 } else { 2 });
        let length = game["length"].as_u64().unwrap();
        // A 3-spot game lasts 6 to 8 moves.
        assert!((6..=8).contains(&length));
        assert_eq!(game["moves"].as_array().unwrap().len() as u64, length);
        wins[game["winner"].as_u64().unwrap() as usize - 1] += 1;
        moves += length;
    }
    let summary = &lines[4];
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["wins"][0].as_u64().unwrap(), wins[0]);
    assert_eq!(summary["wins"][1].as_u64().unwrap(), wins[1]);
    assert_eq!(summary["mean_moves"].as_f64().unwrap(), moves as f64 / 4.0);
    assert_eq!(
        summary["mean_seconds_per_move"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn selfplay_refuses_bad_players() {
    let out = sprouts(&[
        "selfplay", "--spots", "3", "--p1", "wizard", "--p2", "random",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("unknown player"), "{err}");
    let out = sprouts(&[
        "selfplay", "--spots", "0", "--p1", "random", "--p2", "random",
    ]);
    assert!(!out.status.success());
}
