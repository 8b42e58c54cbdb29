//! Moves from real games (random games drawn to their first refusal, as the refusal
//! classification of `route_games` plays them, saved before the move) that the router once
//! refused, drawn now and reading back to the intended position.

use sprouts_draw::Board;

/// Draws move number `k` of the saved game's position (in `Position::moves` order), which must
/// read `words`, and checks that the board then holds the intended position.
fn draws(saved: &str, k: usize, words: &str) -> sprouts_draw::DrawnMove {
    let mut board = Board::from_json(saved).expect("the saved game loads");
    let pos = board.position().clone();
    let mv = pos.moves().nth(k).expect("the move");
    assert_eq!(mv.describe(&pos), words);
    let intended = pos.play(&mv).expect("a legal move");
    let drawn = board
        .draw_move(&mv, &mut |_| {})
        .unwrap_or_else(|e| panic!("{words}: {}", e.detail()));
    let got = board.position();
    assert!(
        got.game_key() == intended.game_key()
            || got.canonical_unreduced() == intended.canonical_unreduced(),
        "{words} drew another move"
    );
    drawn
}

/// A loop at spot 1 of a 6-spot game (its 11th move), in a pocket where the loop wall of
/// `5 d0` leaves no way round it and no longer wall fits (`3 d0` of room nowhere along it):
/// drawn once the wall is shortened there too (left at `5 d0`, the move had no way: widest
/// 2.7 px against 6).
#[test]
fn a_loop_in_a_pocket_has_its_short_wall_shortened() {
    let saved = include_str!("data/loop_in_a_pocket.json");
    draws(saved, 5, "1 -> 1 enclosing nothing");
}

/// A move between spots 5 and 19 of a 7-spot game (its 13th move): where the curve has the
/// most room near its middle, the new spot's disc fails the certificate (the widest place by
/// the grid, not by the certificate); drawn once the new spot goes, among the places where its
/// disc passes, to the one with the most room (placed by room alone, the move was refused by
/// the certificate).
#[test]
fn the_new_spot_goes_where_its_disc_passes_the_certificate() {
    let saved = include_str!("data/new_spot_off_the_middle.json");
    let drawn = draws(saved, 6, "5 -> 19 enclosing nothing");
    assert!(drawn.clearance >= 0.6 * 6.0, "{}", drawn.clearance);
}

/// A loop at spot 3 of an 8-spot game (its second move) that must go round spot 1, in the
/// corner of the first loop: a band resampled at equal spacing (about 30 px on so long a
/// loop) cut the corner round spot 1 between its vertices, and the curve kept only 20 px from
/// it; sampled at half the room where the room is small, the loop keeps more than 22 px (the
/// pocket left round spot 1 is where the game's later moves must go).
#[test]
fn a_long_loop_keeps_its_room_round_a_spot_it_bends_round() {
    let saved = include_str!("data/loop_round_a_spot_in_a_corner.json");
    let board = Board::from_json(saved).expect("the saved game loads");
    let pos = board.position().clone();
    let k = pos
        .moves()
        .position(|m| m.describe(&pos) == "3 -> 3 enclosing 5-9, 2, 7")
        .expect("the move");
    let drawn = draws(saved, k, "3 -> 3 enclosing 5-9, 2, 7");
    assert!(drawn.clearance > 22.0, "{}", drawn.clearance);
}
