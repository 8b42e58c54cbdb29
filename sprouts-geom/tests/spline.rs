//! Spline editing never changes the curve: refinement, cuts, joins and knot removal, sampled
//! before and after; arc length against kurbo; invariants checked at the door.

mod common;

use proptest::prelude::*;
use sprouts_geom::approx::{self, arc_length};
use sprouts_geom::{
    CubicBez, EndCondition, Piece, Point, Snap, Spline, SplineError, SplineParam, interpolate,
};

/// Asserts that `b` traces `a` over `a`'s global parameters `[u0, u0 + b.param_length()]`.
#[track_caller]
fn check_same_curve(a: &Spline, b: &Spline, u0: f64) {
    let tol = 1e-9 * (1.0 + a.param_length());
    let len = b.param_length();
    for i in 0..=400 {
        let u = len * f64::from(i) / 400.0;
        let (p, q) = (a.eval_global(u0 + u), b.eval_global(u));
        assert!(
            (p - q).norm() <= tol,
            "curves differ at u = {u}: {p} vs {q}"
        );
    }
}

fn smooth_spline(seed: u64, n: usize) -> Spline {
    let mut rng = common::rng(seed);
    let pts: Vec<Point> = (0..=n)
        .map(|i| Point::new(40.0 * i as f64, 0.0) + common::point(&mut rng, 30.0).coords)
        .collect();
    interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).unwrap()
}

#[test]
fn refine_keeps_curve_and_smoothness() {
    let s = smooth_spline(1, 6);
    let mut r = s.clone();
    r.refine(2, 0.3).unwrap();
    r.refine(0, 0.9).unwrap();
    assert_eq!(r.n_pieces(), s.n_pieces() + 2);
    assert!((r.param_length() - s.param_length()).abs() < 1e-9);
    check_same_curve(&s, &r, 0.0);
    for k in 1..r.n_pieces() {
        let c = r.continuity(k);
        assert!(c.first_derivative_gap < 1e-9, "C1 at {k}: {c:?}");
        assert!(c.second_derivative_gap < 1e-9, "C2 at {k}: {c:?}");
    }
    assert!(r.refine(0, 0.0).is_err());
    assert!(r.refine(0, 1.0).is_err());
    assert!(r.refine(99, 0.5).is_err());
}

#[test]
fn cut_halves_trace_the_curve_and_join_back() {
    let s = smooth_spline(2, 5);
    let at = SplineParam { piece: 2, t: 0.4 };
    let cut = s.cut_at(at, Snap::Never).unwrap();
    assert!(!cut.snapped);
    assert_eq!(cut.first.end(), cut.second.start());
    assert_eq!(cut.point, s.eval(at));
    check_same_curve(&s, &cut.first, 0.0);
    check_same_curve(&s, &cut.second, s.global_param(at));
    let joined = Spline::join(&cut.first, &cut.second).unwrap();
    assert_eq!(joined.n_pieces(), s.n_pieces() + 1);
    check_same_curve(&s, &joined, 0.0);
    // The knot at the cut is redundant: removing it gives back the original pieces.
    let mut back = joined.clone();
    assert!(back.remove_knot(3, 1e-9).unwrap());
    assert_eq!(back.n_pieces(), s.n_pieces());
    for (p, q) in back.pieces().iter().zip(s.pieces()) {
        assert!((p.h - q.h).abs() < 1e-9);
        for (x, y) in p.bez.points().iter().zip(q.bez.points().iter()) {
            assert!((x - y).norm() < 1e-9);
        }
    }
    // A genuine knot of an interpolating spline is not removable.
    let mut genuine = s.clone();
    assert!(!genuine.remove_knot(2, 1e-6).unwrap());
    assert_eq!(genuine, s);
}

#[test]
fn recut_slides_the_cut_without_changing_the_curve() {
    let s = smooth_spline(8, 5);
    let total = arc_length(&s, 1e-9).unwrap();
    let cut = s.cut_near_middle(1e-6).unwrap();
    let mut first = cut.first;
    let mut second = cut.second;
    // Slide back and forth; knots made by earlier cuts are merged away, so the piece count
    // stays bounded.
    for (k, frac) in [0.3, 0.62, 0.45, 0.8, 0.5].into_iter().enumerate() {
        let target = frac * total;
        let next = Spline::recut(&first, &second, target, Snap::Parameter(1.0), 1e-6).unwrap();
        assert_eq!(next.first.end(), next.second.start());
        let joined = Spline::join(&next.first, &next.second).unwrap();
        check_same_curve(&s, &joined, 0.0);
        assert!(
            joined.n_pieces() <= s.n_pieces() + 1,
            "step {k}: {} pieces",
            joined.n_pieces()
        );
        if !next.snapped {
            let got = arc_length(&next.first, 1e-9).unwrap();
            assert!((got - target).abs() < 1e-5);
        }
        first = next.first;
        second = next.second;
    }
}

#[test]
fn snapping_to_knots() {
    let s = smooth_spline(3, 4);
    let h = s.pieces()[1].h;
    // Within 15% of the piece's start knot: snap there.
    let near = SplineParam { piece: 1, t: 0.1 };
    let cut = s.cut_at(near, Snap::FractionOfPiece(0.15)).unwrap();
    assert!(cut.snapped);
    assert_eq!(cut.at, SplineParam { piece: 1, t: 0.0 });
    assert_eq!(cut.first.n_pieces() + cut.second.n_pieces(), s.n_pieces());
    // Within 15% of the end knot: snap to the next piece's start.
    let cut = s
        .cut_at(
            SplineParam { piece: 1, t: 0.9 },
            Snap::FractionOfPiece(0.15),
        )
        .unwrap();
    assert_eq!(cut.at, SplineParam { piece: 2, t: 0.0 });
    // Farther: split.
    let cut = s
        .cut_at(
            SplineParam { piece: 1, t: 0.2 },
            Snap::FractionOfPiece(0.15),
        )
        .unwrap();
    assert!(!cut.snapped);
    // Absolute parameter distance (a pixel when sliding).
    let t = 0.5 / h;
    let cut = s
        .cut_at(SplineParam { piece: 1, t }, Snap::Parameter(1.0))
        .unwrap();
    assert!(cut.snapped);
    // The spline's own ends are never snapped to, and cutting there is refused.
    let cut = s
        .cut_at(
            SplineParam { piece: 0, t: 0.05 },
            Snap::FractionOfPiece(0.15),
        )
        .unwrap();
    assert!(!cut.snapped);
    assert_eq!(
        s.cut_at(SplineParam { piece: 0, t: 0.0 }, Snap::Never),
        Err(SplineError::CutAtEnd)
    );
    let last = s.n_pieces() - 1;
    assert_eq!(
        s.cut_at(
            SplineParam {
                piece: last,
                t: 1.0
            },
            Snap::Never
        ),
        Err(SplineError::CutAtEnd)
    );
}

#[test]
fn cut_near_middle_follows_the_rule() {
    for seed in 0..60 {
        let s = smooth_spline(100 + seed, 1 + (seed as usize % 6));
        let total = arc_length(&s, 1e-9).unwrap();
        let cut = s.cut_near_middle(1e-6).unwrap();
        let first = arc_length(&cut.first, 1e-9).unwrap();
        let second = arc_length(&cut.second, 1e-9).unwrap();
        assert!((first + second - total).abs() < 1e-6);
        // Where exactly half the arc length is reached.
        let half = approx::param_at_arc_length(&s, 0.5 * total, 1e-9).unwrap();
        let h = s.pieces()[half.piece].h;
        let u_half = s.global_param(half);
        let knots = s.knots();
        let inner = &knots[1..knots.len() - 1];
        let piece_knots = [
            s.global_param(SplineParam {
                piece: half.piece,
                t: 0.0,
            }),
            s.global_param(SplineParam {
                piece: half.piece,
                t: 1.0,
            }),
        ];
        let near_knot = piece_knots
            .iter()
            .filter(|k| inner.iter().any(|x| (x - *k).abs() < 1e-9))
            .any(|k| (k - u_half).abs() <= 0.15 * h - 1e-6);
        if cut.snapped {
            let u_cut = s.global_param(cut.at);
            assert!(
                inner.iter().any(|k| (k - u_cut).abs() < 1e-9),
                "snapped to a knot"
            );
            assert!(
                (u_cut - u_half).abs() <= 0.15 * h + 1e-6,
                "within 15% of the piece"
            );
        } else {
            assert!(!near_knot, "seed {seed}: a knot within 15% was not used");
            assert!(
                (first - 0.5 * total).abs() < 1e-5,
                "seed {seed}: cut at half length"
            );
        }
    }
}

#[test]
fn arc_length_against_kurbo() {
    let mut rng = common::rng(5);
    for _ in 0..500 {
        let c = common::cubic(&mut rng);
        if c.max_abs_coord() > 1e5 || c.max_abs_coord() < 1e-2 {
            continue;
        }
        let p = |q: Point| kurbo::Point::new(q.x, q.y);
        let k = kurbo::CubicBez::new(p(c.p0), p(c.p1), p(c.p2), p(c.p3));
        let want = kurbo::ParamCurveArclen::arclen(&k, 1e-9);
        let acc = 1e-6 * (1.0 + want);
        let got = approx::cubic_arc_length(&c, acc);
        assert!(
            (got - want).abs() <= 2.0 * acc,
            "arc length {got} vs kurbo {want} for {c:?}"
        );
        assert!(got >= c.chord_length() - 1e-9 && got <= c.polygon_length() + 1e-9);
    }
}

/// A piece's bounds against kurbo's extremes, and against a dense sampling: every sample
/// inside, the box touched.
#[test]
fn cubic_bounds_against_kurbo() {
    let mut rng = common::rng(6);
    for _ in 0..2000 {
        let c = common::cubic(&mut rng);
        if c.max_abs_coord() > 1e5 {
            continue;
        }
        let (lo, hi) = c.bounds();
        let p = |q: Point| kurbo::Point::new(q.x, q.y);
        let k = kurbo::CubicBez::new(p(c.p0), p(c.p1), p(c.p2), p(c.p3));
        let want = kurbo::ParamCurveExtrema::bounding_box(&k);
        let tol = 1e-9 * (1.0 + c.max_abs_coord());
        for (got, want) in [
            (lo.x, want.x0),
            (lo.y, want.y0),
            (hi.x, want.x1),
            (hi.y, want.y1),
        ] {
            assert!((got - want).abs() <= tol, "{got} vs kurbo {want} for {c:?}");
        }
        let (clo, chi) = (lo.coords.add_scalar(-tol), hi.coords.add_scalar(tol));
        for i in 0..=200 {
            let q = c.eval(f64::from(i) / 200.0).coords;
            assert!(
                q >= clo && q <= chi,
                "{q:?} outside {lo:?}..{hi:?} for {c:?}"
            );
        }
    }
    // A piece bulging past its ends on both axes.
    let c = CubicBez::new(
        Point::new(0.0, 0.0),
        Point::new(-3.0, 6.0),
        Point::new(9.0, 6.0),
        Point::new(6.0, 0.0),
    );
    let (lo, hi) = c.bounds();
    assert!(
        lo.x < -0.4 && hi.x > 6.4 && hi.y == c.eval(0.5).y && lo.y == 0.0,
        "{lo:?} {hi:?}"
    );
}

#[test]
fn param_at_arc_length_inverts_arc_length() {
    let s = smooth_spline(9, 5);
    let total = arc_length(&s, 1e-9).unwrap();
    for i in 1..20 {
        let target = total * f64::from(i) / 20.0;
        let at = approx::param_at_arc_length(&s, target, 1e-6).unwrap();
        let cut = s.cut_at(at, Snap::Never).unwrap();
        let got = arc_length(&cut.first, 1e-9).unwrap();
        assert!((got - target).abs() <= 1e-6, "{got} vs {target}");
    }
    assert!(approx::param_at_arc_length(&s, 0.0, 1e-6).is_err());
    assert!(approx::param_at_arc_length(&s, total * 2.0, 1e-6).is_err());
    assert!(approx::param_at_arc_length(&s, 1.0, 0.0).is_err());
}

#[test]
fn invariants_are_checked_at_the_door() {
    let a = Point::new(0.0, 0.0);
    let b = Point::new(10.0, 0.0);
    let c = Point::new(20.0, 0.0);
    let good = Piece::new(CubicBez::line(a, b), 10.0);
    assert_eq!(Spline::new(vec![]), Err(SplineError::Empty));
    assert!(matches!(
        Spline::new(vec![good, Piece::new(CubicBez::line(c, a), 10.0)]),
        Err(SplineError::Gap { piece: 0, .. })
    ));
    for h in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            Spline::new(vec![Piece::new(CubicBez::line(a, b), h)]),
            Err(SplineError::BadParameterLength { piece: 0, .. })
        ));
    }
    let nan = Point::new(f64::NAN, 0.0);
    assert_eq!(
        Spline::new(vec![Piece::new(CubicBez::new(a, nan, b, b), 1.0)]),
        Err(SplineError::NonFinitePoint { piece: 0 })
    );
    assert!(
        Spline::join(
            &Spline::new(vec![good]).unwrap(),
            &Spline::from_cubic(CubicBez::line(c, a), 1.0).unwrap()
        )
        .is_err()
    );
}

#[test]
fn control_bounds_contain_the_curve() {
    let mut rng = common::rng(6);
    for n in 1..6 {
        let s = common::spline(&mut rng, n);
        let (lo, hi) = s.control_bounds();
        for i in 0..=500 {
            let p = s.eval_global(s.param_length() * f64::from(i) / 500.0);
            assert!(p.x >= lo.x && p.y >= lo.y && p.x <= hi.x && p.y <= hi.y);
        }
    }
}

#[test]
fn reversed_traces_backwards() {
    let s = smooth_spline(4, 4);
    let r = s.reversed();
    let len = s.param_length();
    for i in 0..=100 {
        let u = len * f64::from(i) / 100.0;
        assert!((s.eval_global(u) - r.eval_global(len - u)).norm() < 1e-9);
    }
    assert_eq!(
        r.start_direction().unwrap().normalize(),
        -s.end_direction().unwrap().normalize()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn random_cuts_and_refinements_keep_the_curve(
        seed in 0u64..1000,
        n in 1usize..8,
        piece_frac in 0.0f64..1.0,
        t in 0.001f64..0.999,
    ) {
        let s = common::spline(&mut common::rng(seed), n);
        let piece = ((piece_frac * n as f64) as usize).min(n - 1);
        let at = SplineParam { piece, t };
        let cut = s.cut_at(at, Snap::Never).unwrap();
        check_same_curve(&s, &cut.first, 0.0);
        check_same_curve(&s, &cut.second, s.global_param(at));
        let mut r = s.clone();
        r.refine(piece, t).unwrap();
        check_same_curve(&s, &r, 0.0);
        let joined = Spline::join(&cut.first, &cut.second).unwrap();
        prop_assert_eq!(joined, r);
    }
}
