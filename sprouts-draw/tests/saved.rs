//! Saved games: a game reloads exactly; a corrupt or tampered file is refused with a clear error
//! and changes nothing.

mod common;

use common::{star_picture, star_position};
use sprouts_draw::testing::GridDrawer;
use sprouts_draw::{Board, BoardError, LoadError, Settings};

fn game(seed: u64, n: u32, moves: usize) -> Board {
    let mut drawer = GridDrawer::new(60, 45, 8.0, seed);
    let settings = Settings {
        spot_radius: 2.0,
        ..Settings::default()
    };
    let mut board = drawer.new_board(n, settings).unwrap();
    for _ in 0..moves {
        if drawer.random_move(&mut board, 60).unwrap().is_none() {
            break;
        }
    }
    board
}

#[test]
fn games_reload_exactly() {
    for seed in 0..20 {
        let board = game(seed, 1 + (seed % 5) as u32, 8);
        let text = board.to_json();
        let again = Board::from_json(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(
            again.to_json(),
            text,
            "seed {seed}: the file is a fixed point"
        );
        assert_eq!(again.drawing(), board.drawing());
        assert_eq!(again.position(), board.position());
        assert_eq!(again.moves(), board.moves());
        assert_eq!(again.settings(), board.settings());
    }
}

#[test]
fn custom_starts_reload_exactly() {
    let board = Board::from_game(
        star_position(),
        &[],
        star_picture(false),
        Settings::default(),
    )
    .unwrap();
    let text = board.to_json();
    assert!(text.contains("\"position\""), "{text}");
    let again = Board::from_json(&text).unwrap();
    assert_eq!(again.to_json(), text);
    assert_eq!(again.start(), board.start());
}

/// Loads a tampered text into a board, checks that the board is unchanged, and returns the error.
#[track_caller]
fn refused(text: &str) -> LoadError {
    let mut board = game(3, 3, 4);
    let before = board.to_json();
    let err = board.load_json(text).expect_err("the file must be refused");
    assert_eq!(board.to_json(), before, "a refused load changes nothing");
    err
}

#[test]
fn corrupt_and_tampered_files_are_refused() {
    let board = game(11, 3, 6);
    let text = board.to_json();
    assert!(
        board.moves().len() >= 3,
        "the game has moves to tamper with"
    );

    // Not JSON, truncated, another format, another version, an unknown field.
    assert!(matches!(refused("hello"), LoadError::Json(_)));
    assert!(matches!(
        refused(&text[..text.len() / 2]),
        LoadError::Json(_)
    ));
    let other = text.replacen("\"sprouts-game\"", "\"chess-game\"", 1);
    assert!(matches!(refused(&other), LoadError::Format(f) if f == "chess-game"));
    let v2 = text.replacen("\"version\": 1", "\"version\": 2", 1);
    assert!(matches!(
        refused(&v2),
        LoadError::Version {
            found: 2,
            supported: 1
        }
    ));
    let extra = text.replacen("\"version\": 1", "\"version\": 1, \"cheat\": true", 1);
    let err = refused(&extra);
    assert!(err.to_string().contains("cheat"), "{err}");

    // A move's words that do not say what its notation does.
    let words = &board.moves()[1].words;
    let wrong = text.replacen(
        &format!("\"words\": \"{words}\""),
        "\"words\": \"9 -> 9 enclosing 1\"",
        1,
    );
    assert!(matches!(refused(&wrong), LoadError::Words { index: 1, .. }));

    // A move whose result was changed: no legal move makes it.
    let n = board.moves()[2].notation.to_string();
    let (head, key) = n.split_once('@').unwrap();
    let bumped = key.replacen(":1", ":2", 1);
    assert_ne!(bumped, key);
    let tampered = text.replacen(&n, &format!("{head}@{bumped}"), 1);
    let err = refused(&tampered);
    assert!(
        matches!(
            err,
            LoadError::Board(BoardError::IllegalMove { index: 2, .. })
                | LoadError::Notation { index: 2, .. }
        ),
        "{err}"
    );

    // A move removed: the picture shows a position the moves no longer make.
    let last = board.moves().len() - 1;
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut fewer = json.clone();
    fewer["moves"].as_array_mut().unwrap().truncate(last);
    let err = refused(&fewer.to_string());
    assert!(
        matches!(err, LoadError::Board(BoardError::Mismatch(_))),
        "{err}"
    );

    // A spot moved off its curves.
    let mut moved = json.clone();
    let spot = moved["spots"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["id"] == 4)
        .unwrap();
    spot["x"] = serde_json::json!(spot["x"].as_f64().unwrap() + 0.5);
    let err = refused(&moved.to_string());
    assert!(
        matches!(
            err,
            LoadError::Board(BoardError::Picture(
                sprouts_draw::AnalyseError::CurveOffSpot { .. }
            ))
        ),
        "{err}"
    );

    // A curve that names a spot the picture does not have, a spot 0, bad settings.
    let mut unknown = json.clone();
    unknown["curves"][0]["to"] = serde_json::json!(999);
    assert!(matches!(
        refused(&unknown.to_string()),
        LoadError::Drawing(_)
    ));
    let mut zero = json.clone();
    zero["spots"][0]["id"] = serde_json::json!(0);
    assert!(matches!(refused(&zero.to_string()), LoadError::SpotZero));
    let mut settings = json.clone();
    settings["settings"]["min_clearance"] = serde_json::json!(-1.0);
    assert!(matches!(
        refused(&settings.to_string()),
        LoadError::Board(BoardError::BadSettings(_))
    ));
    let mut huge = json;
    huge["start"] = serde_json::json!({ "spots": 4_000_000_000u32 });
    assert!(matches!(refused(&huge.to_string()), LoadError::Start(_)));
}

/// The named seeds of the `saved_game_load` fuzz target, replayed: the games load and reload to
/// the same text, the tampered ones are refused.
#[test]
fn the_fuzz_seeds_load_or_are_refused() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/saved_game_load");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        // The named seeds; a fuzzing run adds files named by their hashes beside them.
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    let mut loaded = Vec::new();
    for path in &names {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match Board::from_json(&text) {
            Ok(board) => {
                let saved = board.to_json();
                assert_eq!(Board::from_json(&saved).unwrap().to_json(), saved, "{name}");
                loaded.push(name);
            }
            Err(e) => assert!(!e.to_string().is_empty(), "{name}"),
        }
    }
    assert_eq!(
        loaded,
        ["three_spots_four_moves.json", "two_spots_one_move.json"]
    );
}

/// Found by the `saved_game_load` fuzz target: control points millions of pixels outside a
/// 320 x 240 area made the loader's certified checks run for minutes. Such curves, and areas
/// larger than [`sprouts_draw::MAX_WORLD_SIDE`], are refused before any geometry.
#[test]
fn curves_far_outside_and_huge_areas_are_refused_at_once() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus/saved_game_load/curve_far_outside.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let start = std::time::Instant::now();
    assert!(matches!(
        refused(&text),
        LoadError::CurveOutside {
            index: 0,
            from: 1,
            to: 3
        }
    ));
    assert!(start.elapsed() < std::time::Duration::from_secs(5));

    let mut json: serde_json::Value = serde_json::from_str(&game(5, 2, 1).to_json()).unwrap();
    json["world"]["width"] = serde_json::json!(1.0e7);
    assert!(matches!(
        refused(&json.to_string()),
        LoadError::WorldTooLarge { .. }
    ));
}
