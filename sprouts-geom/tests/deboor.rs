//! De Boor points: round trips with Bézier form, locality, and refusal of non-C² splines.

mod common;

use rand::Rng;
use sprouts_geom::{DeBoor, EndCondition, Join, Point, Spline, SplineError, interpolate};

#[track_caller]
fn assert_close(a: &Spline, b: &Spline, tol: f64) {
    assert_eq!(a.n_pieces(), b.n_pieces());
    for (p, q) in a.pieces().iter().zip(b.pieces()) {
        assert!((p.h - q.h).abs() <= tol);
        for (x, y) in p.bez.points().iter().zip(q.bez.points().iter()) {
            assert!((x - y).norm() <= tol, "{x} vs {y}");
        }
    }
}

#[test]
fn random_de_boor_points_round_trip() {
    let mut rng = common::rng(11);
    for _ in 0..200 {
        let k = rng.random_range(1..12);
        let h: Vec<f64> = (0..k).map(|_| rng.random_range(0.5..80.0)).collect();
        let pts: Vec<Point> = (0..k + 3).map(|_| common::point(&mut rng, 400.0)).collect();
        let d = DeBoor::new(h.clone(), pts.clone()).unwrap();
        let s = d.to_spline();
        assert_eq!(s.n_pieces(), k);
        assert_eq!(s.start(), pts[0]);
        assert_eq!(s.end(), pts[k + 2]);
        for j in 1..k {
            let c = s.continuity(j);
            assert!(
                c.first_derivative_gap < 1e-8 && c.second_derivative_gap < 1e-8,
                "{c:?}"
            );
        }
        let back = s.to_de_boor(1e-8).unwrap();
        assert_eq!(back.h(), &h[..]);
        for (x, y) in back.points().iter().zip(&pts) {
            assert!((x - y).norm() < 1e-8, "{x} vs {y}");
        }
    }
}

#[test]
fn interpolated_and_refined_splines_have_de_boor_points() {
    let mut rng = common::rng(12);
    for _ in 0..50 {
        let n = rng.random_range(2..10);
        let pts: Vec<Point> = (0..n)
            .map(|i| Point::new(50.0 * i as f64, 0.0) + common::point(&mut rng, 40.0).coords)
            .collect();
        let s = interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).unwrap();
        let d = s.to_de_boor(1e-8).unwrap();
        assert_close(&d.to_spline(), &s, 1e-8);
        // Halving a piece keeps the spline C², so it still has de Boor points (one more).
        let mut r = s.clone();
        r.refine(0, 0.5).unwrap();
        let dr = r.to_de_boor(1e-8).unwrap();
        assert_eq!(dr.points().len(), d.points().len() + 1);
        assert_close(&dr.to_spline(), &r, 1e-8);
    }
}

#[test]
fn moving_one_point_changes_at_most_four_pieces() {
    let h = vec![10.0; 8];
    let pts: Vec<Point> = (0..11)
        .map(|i| Point::new(10.0 * f64::from(i), 0.0))
        .collect();
    let d = DeBoor::new(h, pts).unwrap();
    let before = d.to_spline();
    let mut moved = d.clone();
    moved.points_mut()[5].y += 7.0;
    let after = moved.to_spline();
    let changed: Vec<usize> = (0..8)
        .filter(|&j| before.pieces()[j] != after.pieces()[j])
        .collect();
    assert_eq!(changed, vec![2, 3, 4, 5]);
}

#[test]
fn c1_joins_have_no_de_boor_points() {
    let pts = [
        Point::new(0.0, 0.0),
        Point::new(50.0, 60.0),
        Point::new(100.0, 0.0),
        Point::new(150.0, 80.0),
    ];
    let s = interpolate(
        &pts,
        EndCondition::Natural,
        EndCondition::Natural,
        &[Join {
            index: 2,
            tangent: None,
        }],
    )
    .unwrap();
    assert!(matches!(
        s.to_de_boor(1e-6),
        Err(SplineError::NotC2 { knot: 2, .. })
    ));
    assert!(DeBoor::new(vec![], vec![]).is_err());
    assert!(DeBoor::new(vec![1.0], vec![Point::origin(); 3]).is_err());
    assert!(DeBoor::new(vec![0.0], vec![Point::origin(); 4]).is_err());
}
