//! Fitting meets its tolerance and its end directions; interpolation passes through its points
//! and is C² where it must be, checked against a dense solve of the continuity equations.

mod common;

use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use rand::Rng;
use sprouts_geom::approx::nearest;
use sprouts_geom::{
    EndCondition, FitError, InterpolateError, Join, Point, Spline, Vector, fit_clamped, interpolate,
};

/// Checks a fit: end points, end directions, C² at every knot, and every point within the
/// tolerance of the curve (measured independently, by nearest point).
#[track_caller]
fn check_fit(points: &[Point], d0: Vector, d1: Vector, tol: f64) -> Spline {
    let fit = fit_clamped(points, d0, d1, tol).expect("fit");
    let s = &fit.spline;
    assert!(fit.max_error <= tol);
    assert_eq!(s.start(), points[0]);
    assert_eq!(s.end(), *points.last().unwrap());
    let (a, b) = (s.start_direction().unwrap(), s.end_direction().unwrap());
    assert!(
        a.normalize().dot(&d0.normalize()) > 1.0 - 1e-9,
        "start direction {a} vs {d0}"
    );
    assert!(
        b.normalize().dot(&d1.normalize()) > 1.0 - 1e-9,
        "end direction {b} vs {d1}"
    );
    for k in 1..s.n_pieces() {
        let c = s.continuity(k);
        let scale = s
            .deriv(sprouts_geom::SplineParam { piece: k, t: 0.0 })
            .norm()
            + 1.0;
        assert!(c.first_derivative_gap <= 1e-7 * scale, "C1 at {k}: {c:?}");
        assert!(c.second_derivative_gap <= 1e-6 * scale, "C2 at {k}: {c:?}");
    }
    for (j, q) in points.iter().enumerate() {
        let d = nearest(s, *q, 1e-6).unwrap().distance;
        assert!(d <= tol + 1e-6, "point {j} is {d} from the curve");
    }
    fit.spline
}

/// A wiggly polyline: a random smooth curve sampled every few pixels, plus hand jitter.
fn wiggly(rng: &mut impl Rng, n: usize, jitter: f64) -> Vec<Point> {
    let k = rng.random_range(1..5);
    let amps: Vec<f64> = (0..k).map(|_| rng.random_range(-60.0..60.0)).collect();
    (0..n)
        .map(|i| {
            let x = i as f64 * 3.0;
            let y: f64 = amps
                .iter()
                .enumerate()
                .map(|(f, a)| a * (x / 100.0 * (f + 1) as f64).sin())
                .sum();
            Point::new(x, y) + common::point(rng, jitter).coords
        })
        .collect()
}

#[test]
fn fits_meet_tolerance_and_directions() {
    let mut rng = common::rng(31);
    for _ in 0..60 {
        let n = rng.random_range(5..250);
        let pts = wiggly(&mut rng, n, 0.7);
        let n = pts.len();
        let d0 = pts[1] - pts[0];
        let d1 = pts[n - 1] - pts[n - 2];
        check_fit(&pts, d0, d1, 1.5);
    }
}

/// Found by `proptest_fits`: the worst point sits on a knot between two intervals without inner
/// data, so no interval with an error above the tolerance can be split there; the fit splits the
/// nearest splittable interval rather than give up (at 1.62 px).
#[test]
fn regression_worst_point_on_a_knot() {
    let mut rng = common::rng(5603);
    let pts = wiggly(&mut rng, 86, 1.6674866249318931);
    let d0 = common::point(&mut rng, 1.0).coords + Vector::new(3.0, 0.0);
    let d1 = common::point(&mut rng, 1.0).coords + Vector::new(3.0, 0.0);
    check_fit(&pts, d0, d1, 1.5);
}

#[test]
fn directions_are_imposed_even_against_the_data() {
    let pts: Vec<Point> = (0..40)
        .map(|i| Point::new(f64::from(i) * 5.0, 0.0))
        .collect();
    // Leave upwards and arrive from below, across a straight run of points.
    let s = check_fit(&pts, Vector::new(0.0, -1.0), Vector::new(0.0, 1.0), 1.5);
    assert!(s.n_pieces() > 1);
}

#[test]
fn a_straight_run_is_one_piece() {
    let pts: Vec<Point> = (0..50)
        .map(|i| Point::new(f64::from(i) * 4.0, f64::from(i) * 2.0))
        .collect();
    let d = Vector::new(2.0, 1.0);
    let s = check_fit(&pts, d, d, 1.5);
    assert_eq!(s.n_pieces(), 1);
}

#[test]
fn two_points_give_one_piece_with_the_imposed_directions() {
    let pts = [Point::new(10.0, 10.0), Point::new(110.0, 10.0)];
    let s = check_fit(&pts, Vector::new(1.0, 1.0), Vector::new(1.0, -1.0), 1.5);
    assert_eq!(s.n_pieces(), 1);
}

#[test]
fn fit_rejects_bad_input() {
    let p = Point::new(1.0, 1.0);
    let q = Point::new(5.0, 1.0);
    let d = Vector::new(1.0, 0.0);
    assert_eq!(fit_clamped(&[p], d, d, 1.5), Err(FitError::TooFewPoints(1)));
    assert_eq!(
        fit_clamped(&[p, p, p], d, d, 1.5),
        Err(FitError::ZeroLength)
    );
    assert!(matches!(
        fit_clamped(&[p, q], Vector::zeros(), d, 1.5),
        Err(FitError::BadDirection { which: "start", .. })
    ));
    assert!(matches!(
        fit_clamped(&[p, q], d, Vector::new(f64::NAN, 0.0), 1.5),
        Err(FitError::BadDirection { which: "end", .. })
    ));
    assert_eq!(
        fit_clamped(&[p, q], d, d, 0.0),
        Err(FitError::BadTolerance(0.0))
    );
    assert_eq!(
        fit_clamped(&[p, Point::new(f64::INFINITY, 0.0)], d, d, 1.0),
        Err(FitError::NonFinitePoint { index: 1 })
    );
}

#[test]
fn an_unreachable_tolerance_returns_the_best_fit() {
    // Three points and a tolerance below what rounding can reach at this scale: once the only
    // inner point has a knot, nothing is left to split.
    let pts = [
        Point::new(0.0, 0.0),
        Point::new(5e7, 3e7),
        Point::new(1e8, 0.0),
    ];
    match fit_clamped(&pts, Vector::new(0.0, 1.0), Vector::new(1.0, 1.0), 1e-300) {
        Err(FitError::ToleranceNotMet {
            best, max_error, ..
        }) => {
            assert!(max_error > 1e-300);
            assert_eq!(best.start(), pts[0]);
        }
        other => panic!("expected ToleranceNotMet, got {other:?}"),
    }
}

/// Interpolation by a dense solve of the continuity equations on the Bézier control points,
/// independent of the Hermite/tridiagonal formulation.
fn interpolate_dense(
    points: &[Point],
    start: EndCondition,
    end: EndCondition,
    joins: &[(usize, Vector)],
) -> Vec<[Point; 4]> {
    let n = points.len() - 1; // pieces
    let h: Vec<f64> = points.windows(2).map(|w| (w[1] - w[0]).norm()).collect();
    // Unknowns per piece: b1, b2 (x and y solved separately, same matrix).
    let k = 2 * n;
    let mut rows: Vec<(Vec<f64>, [f64; 2])> = Vec::new();
    let col = |piece: usize, which: usize| 2 * piece + which;
    let b0 = |i: usize| points[i];
    let b3 = |i: usize| points[i + 1];
    let mut push = |coeffs: Vec<(usize, f64)>, rhs: Vector| {
        let mut r = vec![0.0; k];
        for (c, v) in coeffs {
            r[c] += v;
        }
        rows.push((r, [rhs.x, rhs.y]));
    };
    match start {
        // 3 (b1 - b0) / h = v
        EndCondition::Tangent(v) => {
            push(vec![(col(0, 0), 3.0 / h[0])], v + 3.0 / h[0] * b0(0).coords)
        }
        // b0 - 2 b1 + b2 = 0
        EndCondition::Natural => push(vec![(col(0, 0), -2.0), (col(0, 1), 1.0)], -b0(0).coords),
    }
    match end {
        EndCondition::Tangent(v) => push(
            vec![(col(n - 1, 1), -3.0 / h[n - 1])],
            v - 3.0 / h[n - 1] * b3(n - 1).coords,
        ),
        EndCondition::Natural => push(
            vec![(col(n - 1, 0), 1.0), (col(n - 1, 1), -2.0)],
            -b3(n - 1).coords,
        ),
    }
    for i in 1..n {
        let (hl, hr) = (h[i - 1], h[i]);
        let q = points[i].coords;
        match joins.iter().find(|j| j.0 == i) {
            Some(&(_, m)) => {
                // Both sides have derivative m: 3 (q - b2_l) / hl = m, 3 (b1_r - q) / hr = m.
                push(vec![(col(i - 1, 1), -3.0 / hl)], m - 3.0 / hl * q);
                push(vec![(col(i, 0), 3.0 / hr)], m + 3.0 / hr * q);
            }
            None => {
                // C¹: 3 (q - b2_l) / hl = 3 (b1_r - q) / hr.
                push(
                    vec![(col(i - 1, 1), -3.0 / hl), (col(i, 0), -3.0 / hr)],
                    -(3.0 / hl + 3.0 / hr) * q,
                );
                // C²: 6 (b1_l - 2 b2_l + q) / hl² = 6 (q - 2 b1_r + b2_r) / hr².
                push(
                    vec![
                        (col(i - 1, 0), 1.0 / (hl * hl)),
                        (col(i - 1, 1), -2.0 / (hl * hl)),
                        (col(i, 0), 2.0 / (hr * hr)),
                        (col(i, 1), -1.0 / (hr * hr)),
                    ],
                    q * (1.0 / (hr * hr) - 1.0 / (hl * hl)),
                );
            }
        }
    }
    assert_eq!(rows.len(), k);
    let a = DMatrix::from_fn(k, k, |r, c| rows[r].0[c]);
    let lu = a.lu();
    let sol: Vec<DVector<f64>> = (0..2)
        .map(|d| {
            lu.solve(&DVector::from_fn(k, |r, _| rows[r].1[d]))
                .expect("regular")
        })
        .collect();
    (0..n)
        .map(|i| {
            let p = |c: usize| Point::new(sol[0][c], sol[1][c]);
            [points[i], p(col(i, 0)), p(col(i, 1)), points[i + 1]]
        })
        .collect()
}

#[track_caller]
fn check_interpolation(points: &[Point], start: EndCondition, end: EndCondition, joins: &[Join]) {
    let s = interpolate(points, start, end, joins).unwrap();
    assert_eq!(s.n_pieces(), points.len() - 1);
    for (i, piece) in s.pieces().iter().enumerate() {
        assert_eq!(piece.bez.p0, points[i]);
        assert_eq!(piece.bez.p3, points[i + 1]);
        assert!((piece.h - (points[i + 1] - points[i]).norm()).abs() < 1e-12);
    }
    // Bessel's tangent where none is given: the derivative at q_i of the parabola through
    // q_{i-1}, q_i, q_{i+1} at chord-length parameters.
    let bessel = |i: usize| -> Vector {
        let (h0, h1) = (
            (points[i] - points[i - 1]).norm(),
            (points[i + 1] - points[i]).norm(),
        );
        let (d0, d1) = (
            (points[i] - points[i - 1]) / h0,
            (points[i + 1] - points[i]) / h1,
        );
        (h1 * d0 + h0 * d1) / (h0 + h1)
    };
    let dense_joins: Vec<(usize, Vector)> = joins
        .iter()
        .map(|j| (j.index, j.tangent.unwrap_or_else(|| bessel(j.index))))
        .collect();
    let want = interpolate_dense(points, start, end, &dense_joins);
    let scale = 1.0 + points.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
    for (piece, w) in s.pieces().iter().zip(&want) {
        for (x, y) in piece.bez.points().iter().zip(w) {
            assert!(
                (x - y).norm() <= 1e-8 * scale,
                "control point {x} vs dense {y}"
            );
        }
    }
    for k in 1..s.n_pieces() {
        let c = s.continuity(k);
        assert!(c.first_derivative_gap <= 1e-9 * scale, "C1 at {k}");
        if !joins.iter().any(|j| j.index == k) {
            assert!(c.second_derivative_gap <= 1e-8 * scale, "C2 at {k}: {c:?}");
        }
    }
    if let EndCondition::Tangent(v) = start {
        assert!((s.deriv(sprouts_geom::SplineParam { piece: 0, t: 0.0 }) - v).norm() < 1e-9);
    }
    if let EndCondition::Natural = end {
        let last = s.n_pieces() - 1;
        assert!(
            s.deriv2(sprouts_geom::SplineParam {
                piece: last,
                t: 1.0
            })
            .norm()
                < 1e-9 * scale
        );
    }
}

#[test]
fn interpolation_matches_the_dense_solve() {
    let mut rng = common::rng(77);
    for case in 0..200 {
        let n = rng.random_range(2..14);
        let pts: Vec<Point> = (0..n).map(|_| common::point(&mut rng, 300.0)).collect();
        let start = if case % 2 == 0 {
            EndCondition::Tangent(common::point(&mut rng, 2.0).coords)
        } else {
            EndCondition::Natural
        };
        let end = if case % 3 == 0 {
            EndCondition::Natural
        } else {
            EndCondition::Tangent(common::point(&mut rng, 2.0).coords)
        };
        let mut joins: Vec<Join> = Vec::new();
        for index in 1..n - 1 {
            if rng.random_bool(0.25) {
                let tangent = rng
                    .random_bool(0.5)
                    .then(|| common::point(&mut rng, 2.0).coords);
                joins.push(Join { index, tangent });
            }
        }
        check_interpolation(&pts, start, end, &joins);
    }
}

#[test]
fn joins_are_c1_but_not_c2() {
    let pts = [
        Point::new(0.0, 0.0),
        Point::new(50.0, 60.0),
        Point::new(100.0, 0.0),
        Point::new(150.0, 80.0),
        Point::new(200.0, 0.0),
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
    let c = s.continuity(2);
    assert!(c.first_derivative_gap < 1e-9);
    assert!(
        c.second_derivative_gap > 1e-3,
        "a join is free to break C²: {c:?}"
    );
}

#[test]
fn interpolation_rejects_bad_input() {
    let p = Point::new(0.0, 0.0);
    let q = Point::new(1.0, 0.0);
    let nat = EndCondition::Natural;
    assert_eq!(
        interpolate(&[p], nat, nat, &[]),
        Err(InterpolateError::TooFewPoints(1))
    );
    assert_eq!(
        interpolate(&[p, q, q], nat, nat, &[]),
        Err(InterpolateError::RepeatedPoint { index: 1 })
    );
    assert_eq!(
        interpolate(
            &[p, q],
            nat,
            nat,
            &[Join {
                index: 1,
                tangent: None
            }]
        ),
        Err(InterpolateError::BadJoin {
            index: 1,
            n_points: 2
        })
    );
    assert_eq!(
        interpolate(&[p, Point::new(f64::NAN, 1.0)], nat, nat, &[]),
        Err(InterpolateError::NonFinite { index: 1 })
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn proptest_fits(seed in 0u64..10_000, n in 2usize..120, jitter in 0.0f64..2.0) {
        let mut rng = common::rng(seed);
        let pts = wiggly(&mut rng, n, jitter);
        let d0 = common::point(&mut rng, 1.0).coords + Vector::new(3.0, 0.0);
        let d1 = common::point(&mut rng, 1.0).coords + Vector::new(3.0, 0.0);
        check_fit(&pts, d0, d1, 1.5);
    }
}
