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

/// `--draw --svg DIR` on a crowded area: every refused move leaves its picture (naming the
/// move), the saved game where it was refused, and the move's index; the saved game loads,
/// the index names the move the picture names, and drawing that move on the loaded board is
/// refused again (the files reproduce the refusal).
#[test]
fn selfplay_writes_the_picture_of_each_refused_move() {
    let dir = std::env::temp_dir().join(format!("sprouts-selfplay-refused-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = sprouts(&[
        "selfplay",
        "--spots",
        "5",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        "3",
        "--seed",
        "2",
        "--draw",
        "--json",
        "--area",
        "400x250",
        // Without the relaxing rung, which draws these moves: the refusals are what is tested.
        "--room",
        "none",
        "--svg",
        dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let refused = summary["moves_refused"].as_u64().unwrap();
    assert!(refused > 0, "a 400 x 250 area refuses some move: {summary}");
    assert!(summary["moves_drawn_as_equivalent"].is_u64(), "{summary}");
    assert!(
        summary["games_drawn_without_equivalent"].is_u64(),
        "{summary}"
    );
    // Each move drawn as an equivalent says so in its game's moves (three of them with this
    // seed when written).
    let drawn_as = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|g| g["moves"].as_array().cloned())
        .flatten()
        .filter(|m| m.get("drawn_as").is_some())
        .count() as u64;
    assert_eq!(
        Some(drawn_as),
        summary["moves_drawn_as_equivalent"].as_u64(),
        "{stderr}"
    );
    let mut pictures = 0;
    for g in 1..=3 {
        let svg = dir.join(format!("game-{g}-refused.svg"));
        let Ok(svg) = std::fs::read_to_string(&svg) else {
            continue;
        };
        pictures += 1;
        let png = std::fs::read(dir.join(format!("game-{g}-refused.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "the PNG beside it");
        let saved = std::fs::read_to_string(dir.join(format!("game-{g}-refused.json"))).unwrap();
        let k: usize = std::fs::read_to_string(dir.join(format!("game-{g}-refused.move")))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let mut board = sprouts_draw::Board::from_json(&saved).expect("the saved game loads");
        let pos = board.position().clone();
        let mv = pos.moves().nth(k).expect("the index names a move");
        let words = mv.describe(&pos);
        let named = format!("game {g} move ");
        let line = stderr
            .lines()
            .find(|l| l.starts_with(&named) && l.contains("was not drawn"))
            .expect("the refusal is reported");
        assert!(
            line.contains(&format!(": {words} was not drawn")),
            "{line} / {words}"
        );
        let escaped = words.replace('>', "&gt;");
        assert!(
            svg.contains(&format!("{escaped} was not drawn</text>")),
            "the picture names the move"
        );
        assert!(
            svg.contains("stroke=\"red\""),
            "the move's spots are ringed"
        );
        assert_eq!(board.analysis().position().game_key(), pos.game_key());
        assert!(
            board.draw_move(&mv, &mut |_| {}).is_err(),
            "the saved game reproduces the refusal of {words}"
        );
    }
    // A game stops being drawn at its first refusal: one picture per refused move.
    assert_eq!(pictures, refused, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_refuses_a_bad_area() {
    for area in ["400", "50x300", "400xwide"] {
        let out = sprouts(&[
            "selfplay", "--spots", "3", "--p1", "random", "--p2", "random", "--draw", "--area",
            area,
        ]);
        assert!(!out.status.success(), "{area}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--area"), "{err}");
    }
}
