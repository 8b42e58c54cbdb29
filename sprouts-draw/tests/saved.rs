//! Saved games: a game reloads exactly; a corrupt or tampered file is refused with a clear error
//! and changes nothing.

mod common;

use common::{star_picture, star_position};
use proptest::prelude::*;
use sprouts_draw::testing::GridDrawer;
use sprouts_draw::{
    AnalyseError, Board, BoardError, CurveId, Drawing, DrawingError, DrawnSpot, LoadError,
    Settings, TransactionError, WorldSize,
};
use sprouts_geom::{CubicBez, Cut, Point, Spline};
use sprouts_topo::{Move, Position, SpotId};

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
/// larger than [`sprouts_draw::MAX_WORLD_SIDE`], are refused before any geometry, by the rules
/// every board keeps.
#[test]
fn curves_far_outside_and_huge_areas_are_refused_at_once() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus/saved_game_load/curve_far_outside.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let start = std::time::Instant::now();
    let err = refused(&text);
    assert!(first_curve_outside(&err), "{err}");
    assert!(start.elapsed() < std::time::Duration::from_secs(5));

    let mut json: serde_json::Value = serde_json::from_str(&game(5, 2, 1).to_json()).unwrap();
    json["world"]["width"] = serde_json::json!(1.0e7);
    assert!(matches!(
        refused(&json.to_string()),
        LoadError::Drawing(DrawingError::WorldTooLarge { .. })
    ));
}

/// Two spots 200 px apart in a 400 x 300 area, and the move joining them.
fn two_spots() -> (Board, Move) {
    let spot = |n: u32, x: f64| DrawnSpot {
        id: SpotId::new(n).unwrap(),
        centre: Point::new(x, 150.0),
        radius: 5.0,
    };
    let drawing = Drawing::from_parts(
        WorldSize::new(400.0, 300.0),
        vec![spot(1, 100.0), spot(2, 300.0)],
        Vec::new(),
    )
    .unwrap();
    let board = Board::from_game(Position::new(2), &[], drawing, Settings::default()).unwrap();
    let pos = board.position().clone();
    let mv = pos.moves().find(|m| m.describe(&pos) == "1 -> 2").unwrap();
    (board, mv)
}

/// The move's curve from spot 1 to spot 2 with the given inner control points, cut in two.
fn joining(p1: Point, p2: Point) -> Option<Cut> {
    let curve = CubicBez::new(Point::new(100.0, 150.0), p1, p2, Point::new(300.0, 150.0));
    Spline::from_cubic(curve, 200.0)
        .ok()?
        .cut_near_middle(1e-6)
        .ok()
}

/// Plays the cut curve as the board's move.
fn play_cut(board: &mut Board, mv: &Move, cut: &Cut) -> Result<(), TransactionError<DrawingError>> {
    board.play(mv, |d, ctx| {
        d.add_move_curves(
            (ctx.from, ctx.new_spot, ctx.to),
            cut.first.clone(),
            cut.second.clone(),
            ctx.move_index,
            ctx.spot_radius,
        )
        .map(|_| ())
    })
}

/// A saved game of the move drawn as the cut curve, written without a board: the file of a
/// straight move with the curves and the new spot replaced.
fn saved_with(board: &Board, mv: &Move, cut: &Cut) -> String {
    let mut straight = board.clone();
    let line = Spline::from_cubic(
        CubicBez::line(Point::new(100.0, 150.0), Point::new(300.0, 150.0)),
        200.0,
    )
    .unwrap();
    straight.play_spline(mv, &line).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&straight.to_json()).unwrap();
    json["curves"][0]["spline"] = serde_json::to_value(&cut.first).unwrap();
    json["curves"][1]["spline"] = serde_json::to_value(&cut.second).unwrap();
    json["spots"][2]["x"] = serde_json::json!(cut.point.x);
    json["spots"][2]["y"] = serde_json::json!(cut.point.y);
    json.to_string()
}

/// A curve that stays well inside the drawing area though its control points lie more than
/// the area's size outside it is accepted, and the game reloads.
#[test]
fn a_curve_inside_with_control_points_far_outside_is_accepted_and_reloads() {
    let (mut board, mv) = two_spots();
    let (p1, p2) = (Point::new(-500.0, 60.0), Point::new(900.0, 60.0));
    let world = board.drawing().world();
    let m = world.margin();
    assert!(p1.x < -m && p2.x > world.width + m);
    let cut = joining(p1, p2).unwrap();
    play_cut(&mut board, &mv, &cut).expect("the board accepts the curve");
    let text = board.to_json();
    let again = Board::from_json(&text).expect("the game reloads");
    assert_eq!(again.to_json(), text);
    assert_eq!(
        Board::from_json(&saved_with(&two_spots().0, &mv, &cut))
            .unwrap()
            .to_json(),
        text
    );
}

/// A curve reaching more than the area's size outside it is refused by the board with the
/// reason, leaving it byte for byte as it was, and refused by a load the same way.
#[test]
fn a_curve_far_outside_is_refused_by_board_and_load_alike() {
    let (mut board, mv) = two_spots();
    let cut = joining(Point::new(-3000.0, 60.0), Point::new(900.0, 60.0)).unwrap();
    let before = board.to_json();
    let err = play_cut(&mut board, &mv, &cut).expect_err("the curve is refused");
    assert!(
        matches!(
            err,
            TransactionError::Picture(AnalyseError::CurveOutside {
                curve: CurveId(0),
                ..
            })
        ),
        "{err}"
    );
    assert_eq!(board.to_json(), before);
    let err = refused(&saved_with(&board, &mv, &cut));
    assert!(first_curve_outside(&err), "{err}");
}

/// Whether a load was refused for its first curve lying too far outside the drawing area.
fn first_curve_outside(err: &LoadError) -> bool {
    matches!(
        err,
        LoadError::Board(BoardError::Picture(AnalyseError::CurveOutside {
            curve: CurveId(0),
            ..
        }))
    )
}

/// Whether an error is the refusal of a curve lying too far outside the drawing area.
fn outside(e: &AnalyseError) -> bool {
    matches!(e, AnalyseError::CurveOutside { .. })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Board and load apply one rule. A move's curve with inner control points anywhere from
    /// inside the drawing area to many times its size outside: the board accepts it exactly
    /// when a saved game holding it loads, and then the game reloads exactly; refused, the
    /// board is unchanged byte for byte, and both refuse it for lying too far outside exactly
    /// when the world does not hold one of its two curves.
    #[test]
    fn board_and_load_agree_on_every_curve(
        x1 in -3000.0..3400.0f64,
        y1 in -3000.0..3300.0f64,
        x2 in -3000.0..3400.0f64,
        y2 in -3000.0..3300.0f64,
        scale in prop::sample::select(vec![0.05, 0.2, 0.3, 0.4, 0.5, 1.0]),
    ) {
        // Control points near the curve's ends, or anywhere out to ten area sizes, often where
        // the curve stays inside the widened area and they do not.
        let near = |x: f64, y: f64, at: f64| Point::new(at + scale * (x - at), 150.0 + scale * (y - 150.0));
        let (p1, p2) = (near(x1, y1, 100.0), near(x2, y2, 300.0));
        let Some(cut) = joining(p1, p2) else {
            return Err(TestCaseError::reject("the curve cannot be cut"));
        };
        let (mut board, mv) = two_spots();
        let before = board.to_json();
        let text = saved_with(&board, &mv, &cut);
        let world = board.drawing().world();
        let held = world.holds_curve(&cut.first) && world.holds_curve(&cut.second);
        let played = play_cut(&mut board, &mv, &cut);
        let loaded = Board::from_json(&text);
        match (&played, &loaded) {
            (Ok(()), Ok(again)) => {
                prop_assert!(held);
                let saved = board.to_json();
                prop_assert_eq!(&again.to_json(), &saved);
                prop_assert_eq!(Board::from_json(&saved).unwrap().to_json(), saved);
            }
            (Err(e), Err(l)) => {
                prop_assert_eq!(board.to_json(), before);
                let by_board = matches!(e, TransactionError::Picture(a) if outside(a));
                let by_load =
                    matches!(l, LoadError::Board(BoardError::Picture(a)) if outside(a));
                prop_assert_eq!(by_board, !held, "{}", e);
                prop_assert_eq!(by_load, !held, "{}", l);
            }
            _ => prop_assert!(false, "the board says {:?}, the load {:?}", played.err(), loaded.err()),
        }
    }
}
