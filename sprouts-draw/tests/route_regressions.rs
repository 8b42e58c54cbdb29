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

/// A loop at spot 3 of an 8-spot game: the band's relaxed route (a hairpin round the tip of
/// the loop's thin wall) fits a spline that turns back on itself in a cusp far below the pixel
/// near the middle, which the clearance certificate (the curve against the others) passed and
/// the picture refused. Drawn once the new curve is
/// certified simple before it is played, so that the route as found is fitted instead
/// (before, the move was refused: "curve c19 crosses or touches itself").
#[test]
fn a_loop_whose_fit_would_cross_itself_is_fitted_again() {
    let saved = include_str!("data/loop_that_would_cross_itself.json");
    draws(saved, 12, "3 -> 3 enclosing nothing");
}

/// A loop at spot 1 of an 8-spot game: the fitted curve turns back on itself in a cusp where
/// it is cut for the new spot, so that its two halves touch (before: "curves c16 and c17
/// touch"); drawn since, as above.
#[test]
fn a_loop_whose_halves_would_touch_is_fitted_again() {
    let saved = include_str!("data/loop_whose_halves_would_touch.json");
    draws(saved, 36, "1 -> 1 enclosing nothing");
}

/// A move from spot 8 to spot 10 of an 8-spot game (its 22nd move) that must enclose nothing:
/// the straight way between them puts the loop through spots 13 and 6 on the wrong side, and
/// the way round that loop passes a corridor narrower than `2 d0`, so at the clearance `d0`
/// every route the search found sorted the loop wrongly (before: "no candidate route within
/// seven rays put every boundary on its side"); drawn once a wrong enclosure, like a missing
/// way, is tried again at the tight clearances.
#[test]
fn a_way_round_a_loop_through_a_narrow_corridor_is_found_at_a_tight_clearance() {
    let saved = include_str!("data/way_round_a_loop_through_a_narrow_corridor.json");
    draws(saved, 21, "8 -> 10 enclosing nothing");
}

/// A move from spot 6 to spot 13 of an 8-spot game that must enclose one of two seeds (2 and
/// 7, interchangeable): the nearest-cluster rule picks seed 2, which lies on the far side of
/// the curve through 13 and 11, where no way from 6 goes round it to 13's side, so every
/// candidate sorted it wrongly (before: "no candidate route within seven rays put every
/// boundary on its side", at every clearance); drawn, enclosing seed 7 (the same game), once a
/// move refused for its enclosure tries the other choices of its interchangeable boundaries.
#[test]
fn an_interchangeable_seed_easier_to_enclose_is_tried_when_the_first_cannot_be() {
    let saved = include_str!("data/an_interchangeable_seed_easier_to_enclose.json");
    draws(saved, 41, "6 -> 13 enclosing 2");
}

/// A move inside a lens (spots 7 and 12 of a 7-spot game, 24 px apart, joined by two curves
/// that leave about 20 px between them): the curve fits, but no place along it has room for
/// the new spot's disc and its clearance. The refusal says that it is the new spot that has
/// no room (for the making of room), and the board stays as it was.
#[test]
fn a_move_with_no_room_for_its_new_spot_is_refused_saying_so() {
    // The move asked's refusal (`12 -> 7`, the same game, is refused for the same reason).
    let saved = include_str!("data/no_room_for_the_new_spot_in_a_lens.json");
    refused_for_its_new_spot(saved, 7, "7 -> 12 enclosing nothing");
}

/// Draws move `k` of a saved game, which must be `words`, and asserts that it is refused
/// because its new spot has no room (the move asked's refusal, saying so), the board
/// unchanged.
fn refused_for_its_new_spot(saved: &str, k: usize, words: &str) {
    let mut board = Board::from_json(saved).expect("the saved game loads");
    let pos = board.position().clone();
    let mv = pos.moves().nth(k).expect("the move");
    assert_eq!(mv.describe(&pos), words);
    let before = board.to_json();
    match board.draw_move(&mv, &mut |_| {}) {
        Err(e)
            if matches!(
                e.of_the_move_asked(),
                sprouts_draw::Refusal::Certificate { new_spot: true, .. }
            ) =>
        {
            assert!(e.to_string().contains("no room for the new spot"), "{e}");
        }
        other => panic!("{words}: {:?}", other.map(|d| d.clearance)),
    }
    assert_eq!(board.to_json(), before);
}

/// A move inside a triangle of three spots some 22 px apart (spots 7, 23 and 21 of an 8-spot
/// game): no curve inside it has room for its new spot, and there is no equivalent move. The
/// spot's terminal cells reached past the triangle's far side (a corner's angle is not its
/// region), the route's first leg crossed a curve, and the refusal was a certificate at 0 px
/// along the curve; with the cells kept in the corner's region the refusal says that it is the
/// new spot that has no room, and the board stays as it was.
#[test]
fn a_move_inside_a_small_triangle_is_refused_for_its_new_spot() {
    let saved = include_str!("data/move_inside_a_small_triangle.json");
    refused_for_its_new_spot(saved, 6, "7 -> 23 enclosing nothing");
}

/// A loop at spot 4 of an 8-spot game between parity players (its 10th move) round seed 5,
/// some 1,300 px away along corridors 20 to 30 px wide: the walls from the spot to the seed,
/// along ways that keep `3 d0` from everything, found no way (the widest way there keeps
/// 10.8 px, and `3 d0` is 18 px, 11.2 px at the tightest clearance), and no route the parity
/// search found without them was a curve with the seed inside; drawn once the
/// thin wall, the last try, follows a way that keeps `1.5 d0` when the wide one is shut
/// (refused as a wrong enclosure before).
#[test]
fn a_loop_round_a_far_seed_along_a_corridor_has_a_thin_wall() {
    let saved = include_str!("data/loop_round_a_far_seed_along_a_corridor.json");
    draws(saved, 10, "4 -> 4 enclosing 5");
}

/// A loop at spot 3 of an 8-spot game (its second move) that must go round spot 1, in the
/// corner of the first loop: a band resampled at equal spacing (about 30 px on so long a
/// loop) cut the corner round spot 1 between its vertices, and the curve kept only 20 px from
/// it; sampled at half the room where the room is small, the loop keeps more than 22 px (the
/// pocket left round spot 1 is where the game's later moves must go). Measured from spot 1's
/// disc to the route: 33.7 px since a seed's barrier weighs more for its lives (the loop's
/// least clearance, to another curve, is then 21.2 px).
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
    let one = board
        .drawing()
        .spot(sprouts_topo::SpotId::new(1).unwrap())
        .expect("spot 1");
    let room = drawn
        .route
        .windows(2)
        .map(|w| sprouts_geom::point_segment_distance(one.centre, w[0], w[1]))
        .fold(f64::INFINITY, f64::min)
        - one.radius;
    assert!(room > 22.0, "{room}");
}

/// A move between spots 2 and 19 of an 8-spot game (its 14th move), 25 px apart: the curve
/// between them passes the certificate, but no place along it has room for the new spot's
/// disc (it came 2.06 px from spot 2's, 3.6 needed), and the bow out to `D / 2` from both
/// spots meets a curve; drawn once the curve is bulged sideways where the disc fits with a
/// pixel to spare (refused by the certificate's test of the new spot before).
#[test]
fn a_curve_bulges_to_make_room_for_its_new_spot() {
    let saved = include_str!("data/new_spot_beside_two_close_spots.json");
    let drawn = draws(saved, 1, "2 -> 19 enclosing nothing");
    assert!(drawn.clearance >= 0.6 * 6.0, "{}", drawn.clearance);
}

/// A move between spots 3 and 19 of an 8-spot game (its 17th move), along a corridor between
/// two curves: the spline fitted within 1.5 px of the route came 3.39 px from a curve (3.6
/// needed); drawn once a curve refused by the certificate is fitted again within 0.5 px
/// (refused before).
#[test]
fn a_curve_refused_by_the_certificate_is_fitted_again_more_closely() {
    let saved = include_str!("data/curve_fitted_again_more_closely.json");
    let drawn = draws(saved, 3, "3 -> 19 enclosing nothing");
    assert!(drawn.clearance >= 0.6 * 6.0, "{}", drawn.clearance);
}

/// A loop enclosing nothing at spot 6 of an 8-spot game (its 19th move), in a pocket: the
/// band pulled it tight, a lens about 19 px long and 10 px wide, and the move inside it
/// later, between spot 6 and the loop's new spot 27, had no room for its own new spot
/// (refused by the certificate's test of the disc). A loop with nothing inside now keeps the
/// route as found when the relaxed one leaves no room inside for such a move; both moves
/// are drawn (the second was refused before).
#[test]
fn an_empty_loop_leaves_room_for_the_move_inside_it() {
    let saved = include_str!("data/empty_loop_in_a_pocket.json");
    let mut board = Board::from_json(saved).expect("the saved game loads");
    let pos = board.position().clone();
    let mv = pos.moves().next().expect("the loop");
    assert_eq!(mv.describe(&pos), "6 -> 6 enclosing nothing");
    board
        .draw_move(&mv, &mut |_| {})
        .unwrap_or_else(|e| panic!("the loop: {}", e.detail()));
    let after = board.to_json();
    let pos = board.position().clone();
    let inside: Vec<usize> = pos
        .moves()
        .enumerate()
        .filter(|(_, m)| m.describe(&pos) == "6 -> 27 enclosing nothing")
        .map(|(k, _)| k)
        .collect();
    assert!(!inside.is_empty());
    for k in inside {
        draws(&after, k, "6 -> 27 enclosing nothing");
    }
}

/// A loop at seed 7 of an 8-spot game that must go round seed 8 (enclosing the boundary of
/// spots 13 and 1, or else the seed), and seed 8 lies in a pocket whose mouth is some 5 px
/// wide: no way sorts the boundaries. The refusal names the widest way that does, its
/// clearance (2.49 px, 6 needed) and the curve at its narrowest, as a refusal with no way
/// at all does (it said "no candidate route within seven rays" before), and the board stays
/// as it was (the move asked alone, `draw_move_strict`; `draw_move` then tries moves giving
/// the same game).
#[test]
fn a_wrong_enclosure_through_a_narrow_mouth_names_the_widest_way() {
    let saved = include_str!("data/loop_round_a_seed_through_a_narrow_mouth.json");
    let mut board = Board::from_json(saved).expect("the saved game loads");
    let pos = board.position().clone();
    let mv = pos.moves().nth(11).expect("the move");
    assert_eq!(mv.describe(&pos), "7 -> 7 enclosing 13-1");
    let before = board.to_json();
    match board.draw_move_strict(&mv, &mut |_| {}) {
        Err(
            e @ sprouts_draw::Refusal::WrongEnclosure {
                widest: Some(w),
                needed,
                ..
            },
        ) => {
            assert!(w > 1.0 && w < 0.6 * needed, "{}", e.detail());
            assert!(e.to_string().contains("too narrow (at curves"), "{e}");
            assert!(e.detail().contains("clearance 2.49 px"), "{}", e.detail());
        }
        other => panic!("{:?}", other.map(|d| d.clearance)),
    }
    assert_eq!(board.to_json(), before);
}

/// A loop at seed 3 of an 8-spot game round the whole of the component of spots 7 and 9:
/// the shortest way's two strands leave and come back to the seed through neighbouring
/// cells, and the shortcut that straightens it cut one strand's corner within a pixel of the
/// other, so that the fitted curve, with its ports, crossed itself (refused by the picture's
/// check, "curves c16 and c17 cross"); drawn once a shortcut that comes closer than `d0` to
/// the route's own other strand (closer than the cells kept them) is not taken.
#[test]
fn a_loop_strand_is_not_pulled_against_its_other_strand() {
    let saved = include_str!("data/loop_strand_pulled_against_the_other.json");
    draws(saved, 2, "3 -> 3 enclosing 7-9");
}

/// Game 17 of the 8-spot classify run (`route_games`, per-game seeds), every move drawn from
/// the start: its first move, a loop round four seeds, now keeps about 85 px from them instead
/// of 55, and the bundle of curves drawn later round the same seeds has the room it needs. With
/// the band's length weighted as much as its barrier (`λ` 1, not 3), the game's 13th move
/// (`17 -> 19 enclosing nothing`) had no way: widest 2.9 px against 6. (From the move after the
/// first on, the board as this version draws it is drawn to the end by both.)
#[test]
fn a_first_loop_that_keeps_its_distance_leaves_room_for_the_bundle_after_it() {
    draws_to_the_end(
        &[
            403, 141, 40, 85, 57, 21, 0, 8, 8, 17, 10, 3, 4, 3, 1, 0, 3, 1,
        ],
        false,
    );
}

/// Game 2 of the 8-spot `classify` run (`ROUTE_GAME_SEEDS=1`), drawn from the start, the move
/// asked only: with the regions' pressure it is drawn to the end. Without it (the band's `μ`
/// 0) the curves round seed 5 were drawn each round the last, since their ends were on the
/// earlier ones, and squeezed between them and the seed; spot 17, on one of them, was left
/// between two strands about `d0` apart, and the 13th move (`17 -> 18`) had no way: widest
/// 2.9 px against 6.
#[test]
fn the_regions_pressure_leaves_room_round_a_seed_for_the_curves_drawn_there_later() {
    draws_to_the_end(
        &[
            878, 126, 14, 3, 56, 21, 5, 21, 10, 11, 7, 15, 1, 1, 0, 1, 2, 0, 1,
        ],
        true,
    );
}

/// Plays an 8-spot game on the default 2560 x 1383 board, the `k`-th listed move each time,
/// drawing every move (only the move asked if `strict`, else with its equivalents), and
/// asserts each reads back to its child and the game ends.
fn draws_to_the_end(moves: &[usize], strict: bool) {
    use sprouts_draw::{Settings, WorldSize};
    let mut board = Board::new(8, WorldSize::new(2560.0, 1383.0), Settings::default()).unwrap();
    for (n, &k) in moves.iter().enumerate() {
        let pos = board.position().clone();
        let mv = pos.moves().nth(k).expect("the move");
        let intended = pos.play(&mv).expect("a legal move");
        let words = mv.describe(&pos);
        let drawn = if strict {
            board.draw_move_strict(&mv, &mut |_| {})
        } else {
            board.draw_move(&mv, &mut |_| {})
        };
        drawn.unwrap_or_else(|e| panic!("move {n}, {words}: {}", e.detail()));
        let got = board.position();
        assert!(
            got.game_key() == intended.game_key()
                || got.canonical_unreduced() == intended.canonical_unreduced(),
            "move {n}, {words} drew another move"
        );
    }
    assert_eq!(board.position().moves().count(), 0, "the game is over");
}
