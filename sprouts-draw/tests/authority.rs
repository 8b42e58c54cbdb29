//! The authority check: every operation on a board is kept only if the picture reads back to the
//! position it should be; otherwise it is refused and the board is left exactly as it was
//! (compared through its saved form, byte for byte).

mod common;

use common::{expected, s, star_picture, star_position, through, with_loops};
use sprouts_draw::testing::GridDrawer;
use sprouts_draw::{
    AnalyseError, Board, CurveId, Drawing, DrawingError, Settings, StepKind, TransactionError,
    WorldSize,
};
use sprouts_geom::Point;
use sprouts_topo::Position;

fn star_board() -> Board {
    Board::from_game(
        star_position(),
        &[],
        star_picture(false),
        Settings::default(),
    )
    .unwrap()
}

/// A loop at 1 through 2 round seed 3, and seed 4 outside.
fn loop_board() -> Board {
    let d = with_loops(
        &[
            (1, 100.0, 300.0),
            (2, 500.0, 300.0),
            (3, 300.0, 300.0),
            (4, 560.0, 560.0),
        ],
        &[(1, 2, 300.0, 300.0, 200.0)],
        &[],
    );
    let start = expected(&[&[&[1, 2], &[4]], &[&[2, 1], &[3]]]);
    Board::from_game(start, &[], d, Settings::default()).unwrap()
}

/// Runs a refused operation and checks that nothing changed.
#[track_caller]
fn refused<E: std::fmt::Debug>(
    board: &mut Board,
    op: impl FnOnce(&mut Board) -> Result<(), TransactionError<E>>,
) -> TransactionError<E> {
    let before = board.to_json();
    let drawing = board.drawing().clone();
    let undo = board.undo_steps().count();
    let err = op(board).expect_err("the operation must be refused");
    assert_eq!(
        board.to_json(),
        before,
        "the board must be restored byte for byte"
    );
    assert_eq!(board.drawing(), &drawing);
    assert_eq!(board.undo_steps().count(), undo, "a refusal is not a step");
    err
}

#[test]
fn two_curves_swapped_at_a_spot_are_refused() {
    let mut board = star_board();
    let swapped = star_picture(true);
    // The swapped picture is a valid picture, of another position.
    let other = sprouts_draw::analyse(&swapped).unwrap();
    assert_ne!(other.position().game_key(), board.position().game_key());
    let err = refused(&mut board, |b| {
        b.rearrange("swap 9 and 10", |d| -> Result<(), DrawingError> {
            *d = swapped.clone();
            Ok(())
        })
    });
    match err {
        TransactionError::Mismatch(m) => {
            assert!(
                m.differences.iter().any(|d| d.contains("7-8-7-10-7-9")
                    || d.contains("7-9-7-10-7-8")
                    || d.contains("7-8-7-9-7-10")),
                "{m}"
            );
        }
        other => panic!("expected a mismatch, got {other}"),
    }
}

#[test]
fn a_curve_pushed_across_a_spot_is_refused() {
    let mut board = loop_board();
    // The loop shrunk to the left half: seed 3 ends up outside it.
    let err = refused(&mut board, |b| {
        b.rearrange("push", |d| {
            d.set_spline(
                CurveId(0),
                through(&[(100.0, 300.0), (150.0, 250.0), (250.0, 300.0)]),
            )?;
            d.set_spot_centre(s(2), Point::new(250.0, 300.0))?;
            d.set_spline(
                CurveId(1),
                through(&[(250.0, 300.0), (150.0, 350.0), (100.0, 300.0)]),
            )
        })
    });
    match err {
        TransactionError::Mismatch(m) => {
            let text = m.to_string();
            assert!(
                text.contains("region [1-2 . 3 . 4] should not be there")
                    || text.contains("[2-1 . 3 . 4]"),
                "{text}"
            );
        }
        other => panic!("expected a mismatch, got {other}"),
    }
}

#[test]
fn a_curve_through_a_spot_is_refused() {
    let mut board = loop_board();
    let err = refused(&mut board, |b| {
        b.rearrange("through", |d| {
            d.set_spline(
                CurveId(0),
                through(&[(100.0, 300.0), (300.0, 300.0), (500.0, 300.0)]),
            )
        })
    });
    match err {
        TransactionError::Picture(AnalyseError::CurveThroughSpot { curve, spot }) => {
            assert_eq!((curve, spot), (CurveId(0), s(3)));
        }
        other => panic!("expected a curve through spot 3, got {other}"),
    }
    // Crossing curves are named.
    let err = refused(&mut board, |b| {
        b.rearrange("cross", |d| {
            d.set_spline(
                CurveId(0),
                through(&[(100.0, 300.0), (300.0, 600.0), (500.0, 300.0)]),
            )
        })
    });
    assert!(
        matches!(
            err,
            TransactionError::Picture(AnalyseError::CurvesCross {
                a: CurveId(0),
                b: CurveId(1)
            })
        ),
        "{err}"
    );
}

#[test]
fn a_failed_edit_changes_nothing() {
    let mut board = loop_board();
    let err = refused(&mut board, |b| {
        b.rearrange("half done", |d| {
            d.set_spot_centre(s(3), Point::new(1.0, 1.0))?;
            Err(DrawingError::NoSuchSpot(s(99)))
        })
    });
    assert!(matches!(
        err,
        TransactionError::Edit(DrawingError::NoSuchSpot(_))
    ));
}

#[test]
fn rearrangements_that_keep_the_position_are_kept_and_undone() {
    let mut board = loop_board();
    let before = board.to_json();
    board
        .rearrange("slide", |d| {
            d.set_spot_centre(s(3), Point::new(320.0, 280.0))
        })
        .unwrap();
    let after = board.to_json();
    assert_ne!(after, before);
    assert_eq!(
        board.undo(),
        Some(vec![StepKind::Rearrange("slide".to_owned())])
    );
    assert_eq!(board.to_json(), before);
    assert!(board.can_redo());
    board.redo().unwrap();
    assert_eq!(board.to_json(), after);
    assert_eq!(board.redo(), None);
}

/// Three seeds laid out by `Drawing::with_seeds`: 1 at (150, 100), 2 at (450, 100), 3 at
/// (300, 300).
fn three_seeds() -> Board {
    Board::new(3, WorldSize::new(600.0, 400.0), Settings::default()).unwrap()
}

fn find_move(p: &Position, words: &str) -> sprouts_topo::Move {
    p.moves()
        .find(|m| m.describe(p) == words)
        .unwrap_or_else(|| panic!("no move `{words}`"))
}

/// A loop at 1 round seed 2 (not round seed 3); `r` scales it vertically.
fn loop_round_2(r: f64) -> sprouts_geom::Spline {
    through(&[
        (150.0, 100.0),
        (250.0, 100.0 - r),
        (450.0, 100.0 - 1.1 * r),
        (540.0, 100.0),
        (450.0, 100.0 + 1.1 * r),
        (250.0, 100.0 + r),
        (150.0, 100.0),
    ])
}

#[test]
fn moves_are_kept_only_as_intended() {
    let mut board = three_seeds();
    for (n, x, y) in [(1, 150.0, 100.0), (2, 450.0, 100.0), (3, 300.0, 300.0)] {
        assert_eq!(board.drawing().spot(s(n)).unwrap().centre, Point::new(x, y));
    }
    let p = board.position().clone();
    // A loop round seed 2 is not the move "enclosing nothing" (nor its mirror image).
    let nothing = find_move(&p, "1 -> 1 enclosing nothing");
    let err = refused(&mut board, |b| {
        b.play_spline(&nothing, &loop_round_2(80.0)).map(|_| ())
    });
    assert!(matches!(err, TransactionError::Mismatch(_)), "{err}");
    // It is the move enclosing 2.
    let around = find_move(&p, "1 -> 1 enclosing 2");
    board.play_spline(&around, &loop_round_2(80.0)).unwrap();
    assert_eq!(board.moves().len(), 1);
    assert_eq!(board.moves()[0].words, "1 -> 1 enclosing 2");
    assert_eq!(
        board.position().game_key(),
        p.play(&around).unwrap().game_key()
    );
    // The move's two curves remember they were one spline while spot 3 has only them.
    assert_eq!(
        board.drawing().move_pair(CurveId(0)),
        Some((CurveId(0), CurveId(1)))
    );
    // Not a legal move any more: refused as illegal.
    let err = refused(&mut board, |b| {
        b.play_spline(&around, &loop_round_2(60.0)).map(|_| ())
    });
    assert!(matches!(err, TransactionError::Illegal(_)), "{err}");
}

#[test]
fn a_rearrangement_and_its_move_are_one_step() {
    let mut board = three_seeds();
    let start = board.to_json();
    let p = board.position().clone();
    let around = find_move(&p, "1 -> 1 enclosing 2");
    board
        .in_one_step(|b| -> Result<(), String> {
            b.rearrange("make room", |d| {
                d.set_spot_centre(s(2), Point::new(440.0, 110.0))
            })
            .map_err(|e| e.to_string())?;
            b.play_spline(&around, &loop_round_2(60.0))
                .map_err(|e| e.to_string())?;
            Ok(())
        })
        .unwrap();
    let steps: Vec<Vec<StepKind>> = board.undo_steps().map(<[_]>::to_vec).collect();
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].len(), 2);
    assert!(matches!(steps[0][1], StepKind::Move(_)));
    board.undo().unwrap();
    assert_eq!(board.to_json(), start);

    // A group whose move fails leaves nothing behind, not even its rearrangement.
    let nothing = find_move(&p, "1 -> 1 enclosing nothing");
    let res = board.in_one_step(|b| -> Result<(), String> {
        b.rearrange("make room", |d| {
            d.set_spot_centre(s(2), Point::new(440.0, 110.0))
        })
        .map_err(|e| e.to_string())?;
        b.play_spline(&nothing, &loop_round_2(60.0))
            .map_err(|e| e.to_string())?;
        Ok(())
    });
    assert!(res.is_err());
    assert_eq!(board.to_json(), start);
    assert!(!board.can_undo());
    assert!(board.can_redo(), "the redo stack survives a failed group");
}

#[test]
fn undo_and_redo_restore_every_step_exactly() {
    let mut drawer = GridDrawer::new(60, 45, 8.0, 7);
    let settings = Settings {
        spot_radius: 2.0,
        ..Settings::default()
    };
    let mut board = drawer.new_board(4, settings).unwrap();
    let mut states = vec![board.to_json()];
    for _ in 0..6 {
        if drawer.random_move(&mut board, 60).unwrap().is_none() {
            break;
        }
        states.push(board.to_json());
    }
    assert!(states.len() >= 4, "moves were drawn");
    for k in (0..states.len() - 1).rev() {
        board.undo().unwrap();
        assert_eq!(board.to_json(), states[k]);
    }
    assert!(board.undo().is_none());
    for state in &states[1..] {
        board.redo().unwrap();
        assert_eq!(&board.to_json(), state);
    }
    // A new operation after undoing forgets what could be redone.
    board.undo().unwrap();
    drawer.random_move(&mut board, 60).unwrap().unwrap();
    assert!(!board.can_redo());
    let _ = Drawing::new(WorldSize::new(1.0, 1.0)).unwrap();
}
