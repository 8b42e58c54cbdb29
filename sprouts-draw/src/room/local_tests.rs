//! Tests of M: slides keep every curve's shape and move spots to more room, seeds move away
//! from what crowds them, pushes widen the room round a ghost and leave curves far from it
//! exactly as they were, the position never changes, refusals leave the board byte-identical,
//! and random pictures pushed never cross nor leave the window.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use sprouts_geom::{CubicBez, Point, Spline};
use sprouts_topo::SpotId;

use super::push::push_drawing;
use super::*;
use crate::testing::GridDrawer;
use crate::{Board, WorldSize};

fn never() -> AtomicBool {
    AtomicBool::new(false)
}

fn id(n: u32) -> SpotId {
    SpotId::new(n).unwrap()
}

/// A board of `seeds` seeds at `at`, and each move `(a, b)` drawn as the straight line between
/// the centres of `a` and `b` (its new spot at the middle).
fn straight_board(at: &[Point], moves: &[(u32, u32)]) -> Board {
    let mut b = Board::new(
        at.len() as u32,
        WorldSize::new(400.0, 300.0),
        Settings::default(),
    )
    .unwrap();
    b.rearrange("place", |d| {
        for (k, &p) in at.iter().enumerate() {
            d.set_spot_centre(id(k as u32 + 1), p)?;
        }
        Ok::<_, crate::DrawingError>(())
    })
    .unwrap();
    for &(from, to) in moves {
        let pos = b.position().clone();
        let mv = pos
            .moves()
            .find(|m| m.describe(&pos) == format!("{from} -> {to}"))
            .unwrap();
        let (p, q) = (
            b.drawing().spot(id(from)).unwrap().centre,
            b.drawing().spot(id(to)).unwrap().centre,
        );
        let line = Spline::from_cubic(CubicBez::line(p, q), (q - p).norm()).unwrap();
        b.play_spline(&mv, &line).unwrap();
    }
    b
}

/// The distance from `p` to the segment `a b`.
fn off(p: Point, a: Point, b: Point) -> f64 {
    sprouts_geom::point_segment_distance(p, a, b)
}

#[test]
fn a_spot_slides_along_its_curve_away_from_a_seed_and_the_curve_keeps_its_shape() {
    // 1 -> 2 along y = 150; its spot 4 at (200, 150); seed 3 just above it.
    let (a, c) = (Point::new(50.0, 150.0), Point::new(350.0, 150.0));
    let mut b = straight_board(&[a, c, Point::new(200.0, 135.0)], &[(1, 2)]);
    let key = b.position().game_key();
    let before = b.to_json();
    let steps = b.undo_steps().count();
    let z = b.drawing().spot(id(4)).unwrap().centre;
    assert!((z - Point::new(200.0, 150.0)).norm() < 1e-6);
    let r = b.slide_spots(Some(&[id(4)])).expect("slid");
    assert_eq!(b.position().game_key(), key, "the position is kept");
    assert_eq!(b.undo_steps().count(), steps + 1, "one undo step");
    assert_eq!(r.moved.len(), 1, "{r:?}");
    let m = &r.moved[0];
    assert!(!m.seed && m.room.1 >= m.room.0 + 1.0, "{m:?}");
    let z2 = b.drawing().spot(id(4)).unwrap().centre;
    assert!((z2 - z).norm() > 6.0, "it moved: {z2:?}");
    assert!(off(z2, a, c) < 1e-6, "still on the line: {z2:?}");
    // The two curves still trace the line from 1 to 2, meeting at the spot.
    let d = b.drawing();
    let (c0, c1) = (&d.curves()[0].spline, &d.curves()[1].spline);
    assert_eq!(c0.end(), z2);
    assert_eq!(c1.start(), z2);
    for s in [c0, c1] {
        for k in 0..=20 {
            let p = s.eval_global(s.param_length() * k as f64 / 20.0);
            assert!(off(p, a, c) < 1e-6, "{p:?}");
        }
    }
    b.undo().unwrap();
    assert_eq!(b.to_json(), before, "undo puts it back");
}

#[test]
fn a_seed_moves_away_from_a_curve_in_its_region() {
    let (a, c) = (Point::new(50.0, 150.0), Point::new(350.0, 150.0));
    let mut b = straight_board(&[a, c, Point::new(120.0, 140.0)], &[(1, 2)]);
    let key = b.position().game_key();
    let r = b.slide_spots(Some(&[id(3)])).expect("moved");
    assert_eq!(b.position().game_key(), key);
    let m = &r.moved[0];
    assert!(m.seed && m.room.1 > m.room.0 + 10.0, "{m:?}");
    let p = b.drawing().spot(id(3)).unwrap().centre;
    assert!(off(p, a, c) > 20.0, "{p:?}");
    assert!(p.y < 150.0, "the seed stays on its side: {p:?}");
}

#[test]
fn a_slide_with_nothing_to_gain_leaves_the_board_byte_identical() {
    // A lone seed in the middle of the window and spots far apart: no room to gain.
    let mut b = straight_board(
        &[
            Point::new(100.0, 150.0),
            Point::new(300.0, 150.0),
            Point::new(200.0, 60.0),
        ],
        &[],
    );
    let json = b.to_json();
    let steps = b.undo_steps().count();
    for only in [None, Some(&[id(1), id(2), id(3)][..]), Some(&[id(9)][..])] {
        let r = b.slide_spots(only);
        assert!(
            matches!(r, Err(TransactionError::Edit(LocalError::NoGain))),
            "{r:?}"
        );
        assert_eq!(b.to_json(), json);
        assert_eq!(b.undo_steps().count(), steps);
    }
}

/// Two parallel moves 20 px apart and a ghost between them.
fn two_lines() -> (Board, Vec<Point>) {
    let b = straight_board(
        &[
            Point::new(50.0, 140.0),
            Point::new(350.0, 140.0),
            Point::new(50.0, 160.0),
            Point::new(350.0, 160.0),
            Point::new(200.0, 40.0),
        ],
        &[(1, 2), (3, 4)],
    );
    let ghost: Vec<Point> = (0..=60)
        .map(|k| Point::new(60.0 + 4.7 * k as f64, 150.0))
        .collect();
    (b, ghost)
}

#[test]
fn a_push_widens_the_room_round_the_ghost_and_keeps_the_position() {
    let (mut b, ghost) = two_lines();
    let key = b.position().game_key();
    let before = b.to_json();
    let old = b.drawing().clone();
    let r = b
        .push_curves(&ghost, &RelaxOptions::default(), &never())
        .expect("pushed");
    assert_eq!(b.position().game_key(), key);
    assert_eq!(r.curves.len(), 4, "both moves' curves: {r:?}");
    assert!(r.ghost_room.1 > r.ghost_room.0 + 3.0, "{r:?}");
    // The two moves' spots rode along, away from the ghost.
    let (s6, s7) = (
        b.drawing().spot(id(6)).unwrap().centre,
        b.drawing().spot(id(7)).unwrap().centre,
    );
    assert!(s6.y < 140.0 && s7.y > 160.0, "{s6:?} {s7:?}");
    // The seeds and the moves' end spots stayed.
    for k in 1..=5 {
        assert_eq!(
            b.drawing().spot(id(k)).unwrap().centre,
            old.spot(id(k)).unwrap().centre
        );
    }
    b.undo().unwrap();
    assert_eq!(b.to_json(), before);
}

#[test]
fn a_push_leaves_curves_far_from_the_ghost_exactly_as_they_were() {
    let (b, _) = two_lines();
    // A short ghost above the upper line only: the lower line (20 px farther) is not moved.
    let ghost: Vec<Point> = (0..=40)
        .map(|k| Point::new(100.0 + 5.0 * k as f64, 132.0))
        .collect();
    let (d, r) = push_drawing(
        b.drawing(),
        b.settings(),
        &ghost,
        &RelaxOptions::default(),
        &never(),
    )
    .expect("pushed");
    assert_eq!(r.curves.len(), 2, "{r:?}");
    for c in 2..4 {
        assert_eq!(d.curves()[c], b.drawing().curves()[c], "curve {c} kept");
    }
    assert_ne!(d.curves()[0], b.drawing().curves()[0]);
}

#[test]
fn a_refused_push_leaves_the_board_byte_identical() {
    let (mut b, ghost) = two_lines();
    let json = b.to_json();
    let steps = b.undo_steps().count();
    let far: Vec<Point> = (0..=40)
        .map(|k| Point::new(100.0 + 5.0 * k as f64, 260.0))
        .collect();
    let crossing: Vec<Point> = (0..=40)
        .map(|k| Point::new(200.0 + 0.5, 100.0 + 2.5 * k as f64))
        .collect();
    let bad = RelaxOptions {
        rounds: 0,
        ..RelaxOptions::default()
    };
    let tries: Vec<(Vec<Point>, RelaxOptions)> = vec![
        (Vec::new(), RelaxOptions::default()),
        (ghost[..3].to_vec(), RelaxOptions::default()),
        (far, RelaxOptions::default()),
        (crossing, RelaxOptions::default()),
        (ghost, bad),
    ];
    for (g, o) in tries {
        let r = b.push_curves(&g, &o, &never());
        assert!(matches!(r, Err(TransactionError::Edit(_))), "{r:?}");
        assert_eq!(b.to_json(), json);
        assert_eq!(b.undo_steps().count(), steps);
    }
}

/// A board with random moves drawn by the grid drawer (lattice polylines, crowded).
fn grid_board(n: u32, moves: usize, seed: u64) -> Board {
    let mut g = GridDrawer::new(40, 24, 20.0, seed).smooth().with_reach(8);
    let mut b = g.new_board(n, Settings::default()).unwrap();
    for _ in 0..moves {
        if g.random_move(&mut b, 20).unwrap().is_none() {
            break;
        }
    }
    b
}

/// Whether any two curves of the picture cross or touch, sampled finely: the slow reference,
/// every pair of legs, except legs with an end inside a spot's disc (curves meet at their
/// spots' centres, and the sampled legs of two curves leaving one spot may touch inside its
/// disc; the analysis checks the discs exactly).
fn curves_meet(d: &crate::Drawing) -> bool {
    let net = Net::of_drawing(d, 2.0).unwrap();
    let in_disc = |p: Point| d.spots().iter().any(|s| (p - s.centre).norm() <= s.radius);
    for (i, &(a, b)) in net.segs.iter().enumerate() {
        if in_disc(net.pts[a]) || in_disc(net.pts[b]) {
            continue;
        }
        for &(c, e) in &net.segs[i + 1..] {
            if a == c || a == e || b == c || b == e {
                continue;
            }
            if in_disc(net.pts[c]) || in_disc(net.pts[e]) {
                continue;
            }
            let (p, q, r, s) = (net.pts[a], net.pts[b], net.pts[c], net.pts[e]);
            if legs_meet(p, q, r, s) {
                return true;
            }
        }
    }
    false
}

/// Whether the legs `pq` and `rs` share a point. Orientations within rounding of zero count as
/// zero; two legs on one line (a straight stretch of a curve sampled into legs) meet only where
/// their extents along that line overlap.
pub(super) fn legs_meet(p: Point, q: Point, r: Point, s: Point) -> bool {
    let orient = |a: Point, b: Point, c: Point| {
        let o = (b - a).perp(&(c - a));
        let scale = (b - a).norm() * (c - a).norm();
        if o.abs() <= 1e-9 * scale { 0.0 } else { o }
    };
    let (o1, o2) = (orient(r, s, p), orient(r, s, q));
    let (o3, o4) = (orient(p, q, r), orient(p, q, s));
    if o1 == 0.0 && o2 == 0.0 && o3 == 0.0 && o4 == 0.0 {
        let dir = q - p;
        let along = |x: Point| (x - p).dot(&dir);
        let (lo, hi) = (along(r).min(along(s)), along(r).max(along(s)));
        return lo <= dir.dot(&dir) && hi >= 0.0;
    }
    o1 * o2 <= 0.0 && o3 * o4 <= 0.0
}

#[test]
fn legs_meet_sees_crossings_touches_and_collinear_gaps() {
    let p = |x: f64, y: f64| Point::new(x, y);
    // A crossing, a touch at an end, and two legs apart.
    assert!(legs_meet(
        p(0.0, 0.0),
        p(2.0, 2.0),
        p(0.0, 2.0),
        p(2.0, 0.0)
    ));
    assert!(legs_meet(
        p(0.0, 0.0),
        p(2.0, 0.0),
        p(1.0, 0.0),
        p(1.0, 3.0)
    ));
    assert!(!legs_meet(
        p(0.0, 0.0),
        p(2.0, 0.0),
        p(0.0, 1.0),
        p(2.0, 1.0)
    ));
    // On one line: apart, overlapping, end to end.
    assert!(!legs_meet(
        p(376.0, 390.0),
        p(378.0, 390.0),
        p(380.0, 390.0),
        p(382.0, 390.0)
    ));
    assert!(legs_meet(
        p(0.0, 0.0),
        p(2.0, 0.0),
        p(1.0, 0.0),
        p(3.0, 0.0)
    ));
    assert!(legs_meet(
        p(0.0, 0.0),
        p(2.0, 0.0),
        p(2.0, 0.0),
        p(3.0, 0.0)
    ));
    // On one slanted line, as sampled points of a straight curve are.
    let (a, dir) = (
        p(588.105442045038, 261.80754603470416),
        sprouts_geom::Vector::new(-1.0897, 1.3717),
    );
    assert!(!legs_meet(a, a + dir, a + 2.0 * dir, a + 3.0 * dir));
}

fn inside(d: &crate::Drawing) -> bool {
    let w = d.world();
    d.spots().iter().all(|s| {
        s.centre.x - s.radius >= 0.0
            && s.centre.y - s.radius >= 0.0
            && s.centre.x + s.radius <= w.width
            && s.centre.y + s.radius <= w.height
    }) && d.curves().iter().all(|c| w.holds_curve(&c.spline))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random grid pictures: every slide and every push along a random curve's own polyline
    /// (moved off it by a few pixels) keeps the position, crosses nothing and stays in the
    /// window; a refused one changes nothing.
    #[test]
    fn random_pictures_slid_and_pushed_never_cross(seed in 0u64..1000, n in 2u32..7, moves in 1usize..10, pick in 0usize..100, side in -4.0f64..4.0) {
        let mut b = grid_board(n, moves, seed);
        let key = b.position().game_key();
        prop_assume!(!curves_meet(b.drawing()));
        let json = b.to_json();
        match b.slide_spots(None) {
            Ok(_) => {
                prop_assert_eq!(b.position().game_key(), key.clone());
                prop_assert!(!curves_meet(b.drawing()));
                prop_assert!(inside(b.drawing()));
            }
            Err(_) => prop_assert_eq!(b.to_json(), json.clone()),
        }
        let d = b.drawing().clone();
        prop_assume!(!d.curves().is_empty());
        let c = &d.curves()[pick % d.curves().len()];
        let ghost: Vec<Point> = (0..=50)
            .map(|k| {
                let u = c.spline.param_length() * k as f64 / 50.0;
                let p = c.spline.eval_global(u);
                let t = c.spline.deriv(c.spline.locate(u));
                let n = if t.norm() > 0.0 { sprouts_geom::Vector::new(-t.y, t.x) / t.norm() } else { t };
                p + side * n
            })
            .collect();
        let json = b.to_json();
        let opts = RelaxOptions { rounds: 2, iterations: 30, ..RelaxOptions::default() };
        match b.push_curves(&ghost, &opts, &never()) {
            Ok(_) => {
                prop_assert_eq!(b.position().game_key(), key);
                prop_assert!(!curves_meet(b.drawing()));
                prop_assert!(inside(b.drawing()));
            }
            Err(_) => prop_assert_eq!(b.to_json(), json),
        }
    }
}

/// The computer's ladder on crowded grid pictures: wherever the router refuses a move for
/// lack of room, M (alone of the Room rungs) either draws it in one undo step with the
/// position the move makes, or changes nothing.
#[test]
fn m_on_the_ladder_draws_in_one_step_or_changes_nothing() {
    let opts = crate::LadderOptions {
        equivalents: false,
        local: true,
        adjust: false,
        rearrange: false,
        fresh: false,
        smaller_spots: false,
        ..crate::LadderOptions::default()
    };
    let stop = never();
    let (mut tried, mut drawn_by_m) = (0, 0);
    for seed in 0..8 {
        let b = grid_board(8, 14, seed);
        let before = b.to_json();
        let steps = b.undo_steps().count();
        let pos = b.position().clone();
        for mv in pos.moves().take(60) {
            let mut c = b.clone();
            if c.draw_move_strict(&mv, &mut |_| {}).is_ok() {
                continue;
            }
            tried += 1;
            let mut c = b.clone();
            match c.draw_computer_move(&mv, &opts, &stop, &mut |_| {}) {
                Ok(report) => {
                    if matches!(report.rung, crate::Rung::Local { .. }) {
                        drawn_by_m += 1;
                    }
                    assert_eq!(c.undo_steps().count(), steps + 1, "one undo step");
                    assert_eq!(
                        c.position().game_key(),
                        pos.play(&report.mv).unwrap().game_key()
                    );
                    c.undo().unwrap();
                    assert_eq!(c.to_json(), before, "undo takes back change and move");
                }
                Err(_) => assert_eq!(c.to_json(), before, "a refused ladder changes nothing"),
            }
            if tried >= 3 {
                break;
            }
        }
    }
    eprintln!("{tried} moves refused by the router went up the ladder; M drew {drawn_by_m}");
}
