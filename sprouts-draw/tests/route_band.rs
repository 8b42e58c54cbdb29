//! Whole random games (8 spots) whose earlier curves can leave no room for a later move: a
//! corridor between two curves drawn hugging each other, a lens cut off with no room for the
//! move inside it. Every move is drawn and reads back to the intended position. The games are
//! named by their moves in words, with the seeds named as the router draws them (a loop at a
//! seed encloses the move's own cluster of interchangeable seeds, spec 5.9).

use sprouts_draw::{Board, Settings, WorldSize};

/// Plays the moves named by `words` in turn on a fresh 8-spot board of the classification's
/// size, drawing each with `Board::draw_move`.
fn plays_to_the_end(words: &[&str]) {
    let mut board =
        Board::new(8, WorldSize::new(2560.0, 1383.0), Settings::default()).expect("a board");
    for (k, w) in words.iter().enumerate() {
        let pos = board.position().clone();
        let mv = pos
            .moves()
            .find(|m| m.describe(&pos) == *w)
            .unwrap_or_else(|| panic!("move {k}, {w}, is not legal here"));
        let intended = pos.play(&mv).expect("a legal move");
        board
            .draw_move(&mv, &mut |_| {})
            .unwrap_or_else(|e| panic!("move {k}, {w}: {}", e.detail()));
        let got = board.position();
        assert!(
            got.game_key() == intended.game_key()
                || got.canonical_unreduced() == intended.canonical_unreduced(),
            "move {k}, {w}, drew another move"
        );
    }
}

/// A game whose second move, a loop from spot 1 round spots 5 and 7 and the first loop, makes
/// a long loop whose two strands must keep room between them: the curves later drawn inside it
/// run along it, and `20 -> 12`, the 19th move, needs a way between them.
#[test]
fn a_long_loop_leaves_room_inside_it() {
    plays_to_the_end(&[
        "6 -> 6 enclosing 1, 5, 7, 8",
        "1 -> 1 enclosing 6-9, 5, 7",
        "4 -> 4 enclosing 2, 3, 9-6",
        "10 -> 8",
        "2 -> 2 enclosing 3",
        "6 -> 9 enclosing 7",
        "5 -> 5 enclosing nothing",
        "1 -> 8 enclosing nothing",
        "2 -> 13 enclosing 3",
        "17 -> 3",
        "7 -> 7 enclosing nothing",
        "16 -> 8 enclosing nothing",
        "14 -> 19",
        "3 -> 18 enclosing nothing",
        "3 -> 22 enclosing nothing",
        "21 -> 7 enclosing nothing",
        "11 -> 4 enclosing nothing",
        "15 -> 5 enclosing nothing",
        "20 -> 12 enclosing nothing",
    ]);
}

/// A game whose 15th move, `21 -> 7`, drawn beside the curve from 7 to 21, cuts off a lens
/// whose spot 7 and new spot 23 each keep a life: the move inside it, `7 -> 23`, needs room for
/// its own new spot, which the side of a curve left without room for a new spot's disc gets by
/// bulging the curve away from it.
#[test]
fn a_lens_cut_off_beside_a_curve_leaves_room_for_the_move_inside_it() {
    plays_to_the_end(&[
        "4 -> 4 enclosing 2, 3",
        "9 -> 4 enclosing 1, 5, 6, 7",
        "5 -> 5 enclosing 9-4-10",
        "10 -> 8",
        "1 -> 11",
        "12 -> 8 enclosing nothing",
        "6 -> 6 enclosing 7",
        "3 -> 3 enclosing nothing",
        "3 -> 16 enclosing nothing",
        "5 -> 13 enclosing nothing",
        "2 -> 2 enclosing nothing",
        "14 -> 8 enclosing nothing",
        "15 -> 7",
        "2 -> 19 enclosing nothing",
        "21 -> 7 enclosing nothing",
        "7 -> 23 enclosing nothing",
    ]);
}

/// A game whose 10th move, `13 -> 6`, cuts off a lens between spots 6, 13 and its new spot
/// 18; its 17th, `6 -> 18`, is drawn inside the lens.
const LENS_GAME: [&str; 17] = [
    "3 -> 3 enclosing 1, 2, 4, 5, 6",
    "3 -> 9 enclosing 1",
    "2 -> 2 enclosing 5, 6",
    "5 -> 5 enclosing 6",
    "12 -> 6",
    "8 -> 8 enclosing 7",
    "2 -> 4",
    "14 -> 8 enclosing nothing",
    "15 -> 4 enclosing 9-3-10",
    "13 -> 6 enclosing nothing",
    "1 -> 1 enclosing nothing",
    "10 -> 19",
    "20 -> 1 enclosing nothing",
    "7 -> 7 enclosing nothing",
    "7 -> 22 enclosing nothing",
    "4 -> 17 enclosing nothing",
    "6 -> 18 enclosing nothing",
];

/// [`LENS_GAME`]: the bulge that makes room for the lens's new spot must go as far as the room
/// needs (the new spot moves out with the curve), so that `6 -> 18` has room for its own.
#[test]
#[ignore = "its last move, `6 -> 18` inside the lens, is refused: the certificate finds no room for the new spot's disc (0.00 px of the 3.60 px needed) and the bulge does not make it"]
fn a_lens_is_bulged_as_far_as_its_room_needs() {
    plays_to_the_end(&LENS_GAME);
}

/// The lens of `13 -> 6` in [`LENS_GAME`] is widened for a later move only where that makes no
/// hook: a push by 17 px on a curve of some 70 px turned it 146 degrees within 16 px just past
/// its spot; the picture keeps no sharp start.
#[test]
fn a_lens_is_widened_without_a_hook() {
    let words = &LENS_GAME[..10];
    let mut board =
        Board::new(8, WorldSize::new(2560.0, 1383.0), Settings::default()).expect("a board");
    for w in words {
        let pos = board.position().clone();
        let mv = pos.moves().find(|m| m.describe(&pos) == *w).expect("legal");
        board.draw_move(&mv, &mut |_| {}).expect("drawn");
        let q = sprouts_draw::PictureQuality::of_board(&board);
        assert_eq!(q.sharp_starts, 0, "after {w}: {q:?}");
    }
}
