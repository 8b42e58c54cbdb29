//! The Nairn–Peters–Lutterkort bound, the chord bound and refined polygons against dense
//! sampling, on random cubics including near-degenerate ones.

mod common;

use proptest::prelude::*;
use sprouts_geom::{CubicBez, Point, Spline, refined_polygon};

/// The control polygon parametrised at the Greville abscissae `i/3`.
fn greville(c: &CubicBez, t: f64) -> Point {
    let pts = c.points();
    let x = (3.0 * t).clamp(0.0, 3.0);
    let i = (x.floor() as usize).min(2);
    let s = x - i as f64;
    pts[i] + (pts[i + 1] - pts[i]) * s
}

/// Checks both bounds of a cubic at 2001 parameters, with a relative slack for rounding.
#[track_caller]
fn check_bounds(c: &CubicBez) {
    let npl = c.npl_bound();
    let tight = c.npl_bound_tight();
    let chord = c.chord_bound();
    assert!(tight <= npl * (1.0 + 1e-15), "tight {tight} > npl {npl}");
    let slack = 1e-12 * c.max_abs_coord().max(f64::MIN_POSITIVE);
    let mut worst_greville: f64 = 0.0;
    for i in 0..=2000 {
        let t = f64::from(i) / 2000.0;
        let p = c.eval(t);
        let g = (p - greville(c, t)).norm();
        worst_greville = worst_greville.max(g);
        assert!(
            g <= tight + slack,
            "Greville deviation {g} > tight bound {tight} at t = {t}, {c:?}"
        );
        let l = c.p0 + (c.p3 - c.p0) * t;
        let d = (p - l).norm();
        assert!(
            d <= chord + slack,
            "chord deviation {d} > {chord} at t = {t}, {c:?}"
        );
    }
}

#[test]
fn bounds_hold_on_many_random_cubics() {
    let mut rng = common::rng(0x6e70_6c31);
    for _ in 0..4000 {
        check_bounds(&common::cubic(&mut rng));
    }
}

#[test]
fn the_npl_constant_is_attained() {
    // Δ²b0 = Δ²b1 in the same direction: the deviation at t = 1/3 is exactly ⅓ |Δ²b|
    // (β₀ + β₁ = ⅓ there), so the constant cannot be lowered.
    let c = CubicBez::new(
        Point::new(0.0, 0.0),
        Point::new(1.0, 0.0),
        Point::new(2.0, 3.0),
        Point::new(3.0, 9.0),
    );
    let [s0, s1] = c.second_differences();
    assert_eq!(s0, s1);
    let dev = (c.eval(1.0 / 3.0) - greville(&c, 1.0 / 3.0)).norm();
    assert!(
        (dev - c.npl_bound()).abs() < 1e-12,
        "{dev} vs {}",
        c.npl_bound()
    );
}

#[test]
fn the_chord_needs_a_larger_constant_than_one_third() {
    // A symmetric arch: its distance to the chord exceeds ⅓ max |Δ²b|, so the control-polygon
    // constant would be wrong for the chord; ¾ holds.
    let c = CubicBez::new(
        Point::new(0.0, 0.0),
        Point::new(0.0, 3.0),
        Point::new(3.0, 3.0),
        Point::new(3.0, 0.0),
    );
    let max_dev = (0..=1000)
        .map(|i| {
            let t = f64::from(i) / 1000.0;
            (c.eval(t) - (c.p0 + (c.p3 - c.p0) * t)).norm()
        })
        .fold(0.0, f64::max);
    assert!(max_dev > c.npl_bound(), "{max_dev} vs {}", c.npl_bound());
    assert!(max_dev <= c.chord_bound());
}

/// Checks the refined polygon's guarantee leg by leg: the curve over each leg's span stays
/// within the leg's bound of the point running along the leg.
#[track_caller]
fn check_refined(s: &Spline, eps: f64, max_leg: f64) {
    let poly = refined_polygon(s, eps, max_leg).expect("refinable");
    assert!(poly.eps() <= eps, "eps {} > {eps}", poly.eps());
    assert_eq!(poly.points().len(), poly.n_legs() + 1);
    assert_eq!(poly.n_legs() % 3, 0);
    assert_eq!(poly.points()[0], s.start());
    assert_eq!(*poly.points().last().unwrap(), s.end());
    let slack = 1e-12 * 1e3;
    for j in 0..poly.n_legs() {
        let (a, b) = poly.leg(j);
        assert!((b - a).norm() <= max_leg, "leg {j} too long");
        let span = poly.leg_span(j);
        let bez = &s.pieces()[span.piece].bez;
        for k in 0..=20 {
            let f = f64::from(k) / 20.0;
            let p = bez.eval(span.t0 + (span.t1 - span.t0) * f);
            let l = a + (b - a) * f;
            assert!(
                (p - l).norm() <= poly.leg_eps(j) + slack,
                "leg {j}: deviation {} > {}",
                (p - l).norm(),
                poly.leg_eps(j)
            );
        }
    }
}

#[test]
fn refined_polygons_keep_their_promise() {
    let mut rng = common::rng(7);
    for n in 1..12 {
        for &(eps, max_leg) in &[(0.5, 20.0), (0.1, f64::INFINITY), (2.0, 5.0)] {
            check_refined(&common::spline(&mut rng, n), eps, max_leg);
        }
    }
}

#[test]
fn refined_polygon_rejects_bad_arguments() {
    let s = common::spline(&mut common::rng(1), 3);
    assert!(refined_polygon(&s, 0.0, 1.0).is_err());
    assert!(refined_polygon(&s, f64::NAN, 1.0).is_err());
    assert!(refined_polygon(&s, 1.0, 0.0).is_err());
    assert!(refined_polygon(&s, 1.0, f64::NAN).is_err());
    // A bound far below what rounding allows at this scale cannot be certified.
    assert!(matches!(
        refined_polygon(&s, 1e-300, f64::INFINITY),
        Err(sprouts_geom::RefineError::Unreachable { .. }
            | sprouts_geom::RefineError::TooManyLegs { .. })
    ));
}

fn arb_cubic() -> impl Strategy<Value = CubicBez> {
    let coord = prop_oneof![
        -1000.0..1000.0f64,
        (-4i32..4).prop_map(f64::from),
        Just(0.0),
    ];
    let pt = (coord.clone(), coord).prop_map(|(x, y)| Point::new(x, y));
    (pt.clone(), pt.clone(), pt.clone(), pt).prop_map(|(a, b, c, d)| CubicBez::new(a, b, c, d))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn bounds_hold_for_proptest_cubics(c in arb_cubic()) {
        check_bounds(&c);
    }

    #[test]
    fn halving_divides_the_bound_by_four(c in arb_cubic()) {
        // The halves' second differences are Δ²b0/4, (Δ²b0 + Δ²b1)/8 and Δ²b1/4, so the bound
        // shrinks at least fourfold: the refinement in `refined_polygon` terminates.
        let (a, b) = c.split(0.5);
        let want = c.npl_bound() / 4.0;
        prop_assert!(a.npl_bound() <= want * (1.0 + 1e-12) + 1e-12);
        prop_assert!(b.npl_bound() <= want * (1.0 + 1e-12) + 1e-12);
        let [s0, _] = c.second_differences();
        let [a0, _] = a.second_differences();
        prop_assert!((a0 - s0 / 4.0).norm() <= 1e-9 * (1.0 + s0.norm()));
    }
}
