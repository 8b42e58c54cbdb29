//! Moves between near neighbours (spec 3.3): a spot and the next spot along its own curve,
//! so close that the neighbourhoods kept free of the barrier trees round them overlap.

use sprouts_draw::{Board, Settings, WorldSize};
use sprouts_geom::{EndCondition, Point, interpolate};
use sprouts_topo::SpotId;

fn s(n: u32) -> SpotId {
    SpotId::new(n).expect("a spot")
}

/// Three seeds; seed 2 moved to `gap` px right of seed 1, then `1 -> 2` drawn straight, its
/// new spot 4 half way: spots 1 and 4 are `gap / 2` apart along 1's only curve.
fn neighbours(gap: f64) -> Board {
    let mut board = Board::new(3, WorldSize::new(600.0, 400.0), Settings::default()).unwrap();
    let c1 = board.drawing().spot(s(1)).unwrap().centre;
    board
        .rearrange("slide", |d| {
            d.set_spot_centre(s(2), c1 + sprouts_geom::Vector::new(gap, 0.0))
        })
        .unwrap();
    let pos = board.position().clone();
    let mv = pos.moves().find(|m| m.describe(&pos) == "1 -> 2").unwrap();
    let pts: Vec<Point> = (0..=4)
        .map(|k| c1 + sprouts_geom::Vector::new(gap * f64::from(k) / 4.0, 0.0))
        .collect();
    let spline = interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).unwrap();
    board.play_spline(&mv, &spline).unwrap();
    board
}

/// Every move from spot 1 to its neighbour 4 (both corners of 4, enclosing seed 3 or not),
/// 14 to 40 px apart, is drawn and reads back to the intended position. Up to 30 px apart the
/// barrier trees keep clear of both spots' neighbourhoods, which overlap, and the moves that
/// go round the far side are found by the parity search (spec 3.3: one bit per ray), leaving
/// spot 1 away from 4 rather than out along the gap between them.
#[test]
fn every_move_between_near_neighbours_is_drawn() {
    for gap in [28.0, 40.0, 60.0, 80.0] {
        let board = neighbours(gap);
        let pos = board.position().clone();
        let moves: Vec<_> = pos.moves().filter(|m| m.spots() == (s(1), s(4))).collect();
        assert!(moves.len() >= 2, "{}", moves.len());
        for mv in moves {
            let words = mv.describe(&pos);
            let mut b = board.clone();
            let intended = pos.play(&mv).unwrap();
            let drawn = b
                .draw_move(&mv, &mut |_| {})
                .unwrap_or_else(|e| panic!("gap {gap}: {words}: {}", e.detail()));
            assert_eq!(b.position().game_key(), intended.game_key(), "{words}");
            // The new curve leaves spot 1 on the side away from 4 or off the line between
            // them, never along the gap towards 4 (it would run out and back along it).
            let (c1, c4) = (
                b.drawing().spot(s(1)).unwrap().centre,
                b.drawing().spot(s(4)).unwrap().centre,
            );
            let u = (c4 - c1).normalize();
            let first = drawn
                .route
                .iter()
                .find(|p| (**p - c1).norm() > 8.0)
                .expect("a route leaving spot 1");
            let along = (*first - c1).normalize().dot(&u);
            assert!(
                along < 0.9,
                "gap {gap}: {words}: leaves along the gap ({along:.2})"
            );
        }
    }
}

/// Move `4 -> 11 enclosing 7` of an 8-spot random game (its 7th move): 11 is the next spot
/// along 4's curve, 27 px away, and the curve must go round seed 7 at the far end of a
/// corridor. The parity search's shortest way ran out and back along the same cells of the
/// corridor, which is no curve, and the move was refused (`WrongEnclosure`); drawn once the
/// cells a route uses twice are walled off and the search made again (the route's two strands
/// then keep to the two sides of the wall).
#[test]
fn a_way_out_and_back_along_a_corridor_is_split_by_a_wall() {
    let saved = include_str!("data/out_and_back_along_a_corridor_from_a_neighbour.json");
    let mut board = Board::from_json(saved).expect("the saved game loads");
    let pos = board.position().clone();
    let mv = pos.moves().nth(13).expect("the move");
    assert_eq!(mv.describe(&pos), "4 -> 11 enclosing 7");
    let intended = pos.play(&mv).expect("legal");
    board
        .draw_move(&mv, &mut |_| {})
        .unwrap_or_else(|e| panic!("{}", e.detail()));
    let got = board.position();
    assert!(
        got.game_key() == intended.game_key()
            || got.canonical_unreduced() == intended.canonical_unreduced()
    );
}
