//! Whole random games (8 spots, the refusal classification's per-game seeds) whose earlier
//! curves used to leave no room for a later move: every move is drawn now and reads back to
//! the intended position. Before the band converged to the middle of its room, such a game
//! stopped at a `NoPath` refusal (a corridor between two curves drawn hugging each other).

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

/// Game 1 of the 8-spot classification: its second move, a loop from spot 1 round spot 8
/// 1,200 px away, relaxed to two strands 40 px apart (the band felt its own far parts only up
/// to `D`), and the curves later drawn inside it ran along it; `20 -> 12`, the 19th move, had
/// no way (widest 2.6 px). Drawn to the end now.
#[test]
#[ignore = "the recorded words stop fitting the drawn position (a later move is not legal there): loops at seeds are drawn by the barrier trees round the move's own cluster, so the game must be recorded again"]
fn a_long_loop_leaves_room_inside_it() {
    plays_to_the_end(&[
        "6 -> 6 enclosing 1, 2, 3, 4",
        "1 -> 1 enclosing 6-9, 5, 8",
        "4 -> 4 enclosing 2, 3, 9-6",
        "10 -> 8",
        "2 -> 2 enclosing 3",
        "6 -> 9 enclosing 10-1, 5",
        "7 -> 7 enclosing nothing",
        "1 -> 8 enclosing nothing",
        "2 -> 13 enclosing 3",
        "17 -> 3",
        "5 -> 5 enclosing 9-6-14",
        "16 -> 8 enclosing nothing",
        "14 -> 19",
        "3 -> 18 enclosing nothing",
        "3 -> 22 enclosing nothing",
        "21 -> 5 enclosing nothing",
        "7 -> 15 enclosing nothing",
        "11 -> 4 enclosing nothing",
        "20 -> 12 enclosing nothing",
    ]);
}

/// Game 88 of the 8-spot classification: its 15th move, `21 -> 7`, drawn beside the curve
/// from 7 to 21, cut off a lens 25 px long whose spot 7 and new spot 23 each kept a life, and
/// the move inside it, `7 -> 23`, had no room for its own new spot (the certificate refused
/// its disc, 0.00 px against 3.6). Drawn to the end once a side of a curve left without room
/// for a new spot's disc is widened by bulging the curve away from it.
#[test]
#[ignore = "the recorded words stop fitting the drawn position (a later move is not legal there): loops at seeds are drawn by the barrier trees round the move's own cluster, so the game must be recorded again"]
fn a_lens_cut_off_beside_a_curve_leaves_room_for_the_move_inside_it() {
    plays_to_the_end(&[
        "4 -> 4 enclosing 2, 3",
        "9 -> 4 enclosing 1, 5, 6, 7",
        "5 -> 5 enclosing 9-4-10",
        "10 -> 8",
        "11 -> 1",
        "12 -> 8 enclosing nothing",
        "6 -> 6 enclosing 5-11-13-1",
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

/// Game 61 of the 8-spot classification: its 10th move, `13 -> 5`, cut off a lens between
/// spots 5, 13 and its new spot 18 with a disc 1.5 px short of the room a new spot needs
/// (with its pixel to spare); a bulge by what it lacked gained less than a pixel (the new
/// spot moves out with the curve), one of 12 px gave it room. `5 -> 18`, the 17th move, was
/// refused before (the new spot's disc 0.33 px from its spots, 3.6 needed).
#[test]
#[ignore = "the recorded words stop fitting the drawn position (a later move is not legal there): loops at seeds are drawn by the barrier trees round the move's own cluster, so the game must be recorded again"]
fn a_lens_is_bulged_as_far_as_its_room_needs() {
    plays_to_the_end(&[
        "3 -> 3 enclosing 1, 2, 4, 5, 6",
        "9 -> 3 enclosing 6",
        "2 -> 2 enclosing 1, 5",
        "1 -> 1 enclosing 5",
        "12 -> 5",
        "8 -> 8 enclosing 7",
        "2 -> 4",
        "14 -> 8 enclosing nothing",
        "4 -> 15 enclosing 3-9-10",
        "13 -> 5 enclosing nothing",
        "6 -> 6 enclosing 9-3-10",
        "10 -> 19",
        "6 -> 20 enclosing nothing",
        "7 -> 7 enclosing nothing",
        "7 -> 22 enclosing nothing",
        "4 -> 17 enclosing nothing",
        "5 -> 18 enclosing nothing",
    ]);
}
