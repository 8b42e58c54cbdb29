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
