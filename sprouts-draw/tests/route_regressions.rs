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

/// A move between spots 3 and 25 of an 8-spot game (its 19th move), 35 px apart in a pocket:
/// the new spot was placed by the grid's room less a cell, which ruled out every place in the
/// middle and picked the least bad, whose disc came 3.53 px from spot 25 (3.6 needed); drawn
/// once the places are judged by the certificate's own test of the disc, at the point where
/// the spline is cut (refused by the certificate before).
#[test]
fn the_new_spot_is_placed_by_the_certificates_own_test() {
    let saved = include_str!("data/new_spot_by_the_certificates_test.json");
    let drawn = draws(saved, 2, "3 -> 25 enclosing nothing");
    assert!(drawn.clearance >= 0.6 * 6.0, "{}", drawn.clearance);
}

/// A move from spot 3 to spot 17 of a 7-spot game (its 13th move), 300 px along a corridor about 12 px wide
/// that widens only near its ends: no place in the middle half of the curve has room for the
/// new spot's disc; drawn once the rest of the curve is looked at when the middle half has
/// none (refused by the certificate before, the disc 0.77 px short).
#[test]
fn the_new_spot_goes_beyond_the_middle_half_when_that_has_no_room() {
    let saved = include_str!("data/new_spot_beyond_the_middle_half.json");
    let drawn = draws(saved, 1, "3 -> 17 enclosing nothing");
    assert!(drawn.clearance >= 0.6 * 6.0, "{}", drawn.clearance);
}

/// A loop at spot 2 (one curve) of a 7-spot game (its 16th move), where the loop's wall was turned from the
/// bisector to the direction with more room but no longer than `5 d0`: the grid kept the
/// wall along the bisector while the loop's ends were sorted by the new direction, and the
/// route was a loop of a few pixels round nothing, with no room for the new spot (refused by
/// the certificate before); drawn once the turned wall is built in the grid.
#[test]
fn a_loop_wall_turned_from_the_bisector_is_built_where_its_ends_are_sorted() {
    let saved = include_str!("data/loop_wall_turned.json");
    let drawn = draws(saved, 0, "2 -> 2 enclosing nothing");
    assert!(drawn.clearance >= 0.6 * 6.0, "{}", drawn.clearance);
}
