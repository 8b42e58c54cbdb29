//! Certified simplicity of a single curve against dense sampling.

mod common;

use rand::Rng;
use sprouts_geom::certified::{Simplicity, segments_intersect, simplicity};
use sprouts_geom::{CubicBez, EndCondition, Point, Spline, interpolate, refined_polygon};

/// Whether a dense sample polyline of the spline crosses itself (non-adjacent segments meet).
fn sampled_self_crossing(s: &Spline, per_piece: usize, closed: bool) -> bool {
    let mut pts = Vec::new();
    for piece in s.pieces() {
        for i in 0..per_piece {
            pts.push(piece.bez.eval(i as f64 / per_piece as f64));
        }
    }
    pts.push(s.end());
    let n = pts.len() - 1;
    for i in 0..n {
        for j in i + 2..n {
            if closed && i == 0 && j == n - 1 {
                continue;
            }
            if segments_intersect(pts[i], pts[i + 1], pts[j], pts[j + 1]) {
                return true;
            }
        }
    }
    false
}

/// Refines until the verdict is decided (or gives up), returning it.
fn decide(s: &Spline, closed: bool) -> Simplicity {
    let mut eps = 4.0;
    loop {
        let poly = refined_polygon(s, eps, 20.0).unwrap();
        let v = simplicity(&poly, closed);
        if v != Simplicity::Uncertain || eps < 1e-3 {
            return v;
        }
        eps /= 4.0;
    }
}

#[test]
fn a_loop_crosses_itself_and_an_s_curve_does_not() {
    let p = |x: f64, y: f64| Point::new(100.0 * x, 100.0 * y);
    let looped = Spline::from_cubic(
        CubicBez::new(p(0.0, 0.0), p(1.5, 1.0), p(-0.5, 1.0), p(1.0, 0.0)),
        150.0,
    )
    .unwrap();
    assert_eq!(decide(&looped, false), Simplicity::SelfIntersecting);
    let s_curve = Spline::from_cubic(
        CubicBez::new(p(0.0, 0.0), p(1.0, 1.0), p(0.0, 1.0), p(1.0, 2.0)),
        250.0,
    )
    .unwrap();
    assert_eq!(decide(&s_curve, false), Simplicity::Simple);
}

#[test]
fn a_closed_loop_at_a_spot() {
    // A loop leaving a spot to the right and coming back from below.
    let pts = [
        Point::new(0.0, 0.0),
        Point::new(60.0, -20.0),
        Point::new(80.0, 40.0),
        Point::new(30.0, 70.0),
        Point::new(0.0, 0.0),
    ];
    let s = interpolate(
        &pts,
        EndCondition::Tangent(sprouts_geom::Vector::new(1.0, -0.3)),
        EndCondition::Tangent(sprouts_geom::Vector::new(-0.4, -1.0)),
        &[],
    )
    .unwrap();
    assert_eq!(decide(&s, true), Simplicity::Simple);
    // As an open curve its ends meet: never certified simple.
    assert_ne!(decide(&s, false), Simplicity::Simple);
}

#[test]
fn random_curves_against_sampling() {
    let mut rng = common::rng(404);
    let mut counts = [0usize; 3];
    for _ in 0..150 {
        let n = rng.random_range(1..4);
        let s = common::spline(&mut rng, n);
        match decide(&s, false) {
            Simplicity::Simple => {
                counts[0] += 1;
                assert!(
                    !sampled_self_crossing(&s, 400, false),
                    "certified simple but crosses: {s:?}"
                );
            }
            Simplicity::SelfIntersecting => {
                counts[1] += 1;
                assert!(
                    sampled_self_crossing(&s, 400, false),
                    "certified crossing not found: {s:?}"
                );
            }
            Simplicity::Uncertain => counts[2] += 1,
        }
    }
    // Both decided verdicts occur, and refinement decides nearly every case (the undecided
    // ones touch themselves tangentially or have cusps).
    assert!(counts[0] > 0 && counts[1] > 0, "verdict counts {counts:?}");
    assert!(
        counts[2] * 10 <= counts.iter().sum::<usize>(),
        "verdict counts {counts:?}"
    );
}
