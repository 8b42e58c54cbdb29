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
