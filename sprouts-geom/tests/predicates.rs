//! Exact predicates against exact integer arithmetic, on small-integer inputs and on
//! near-degenerate floating-point inputs that are exact binary fractions.

use proptest::prelude::*;
use sprouts_geom::certified::{
    self, Orientation, PointLocation, Tube, Verdict, area_sign, orient, point_in_polygon,
    segments_intersect,
};
use sprouts_geom::{Point, signed_area};

/// Exact orientation sign in integers (positive: counter-clockwise with y up).
fn orient_i(a: (i64, i64), b: (i64, i64), c: (i64, i64)) -> i128 {
    let (ax, ay, bx, by, cx, cy) = (
        i128::from(a.0),
        i128::from(a.1),
        i128::from(b.0),
        i128::from(b.1),
        i128::from(c.0),
        i128::from(c.1),
    );
    ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)).signum()
}

fn on_seg_i(p: (i64, i64), a: (i64, i64), b: (i64, i64)) -> bool {
    orient_i(a, b, p) == 0
        && p.0 >= a.0.min(b.0)
        && p.0 <= a.0.max(b.0)
        && p.1 >= a.1.min(b.1)
        && p.1 <= a.1.max(b.1)
}

fn intersect_i(a0: (i64, i64), a1: (i64, i64), b0: (i64, i64), b1: (i64, i64)) -> bool {
    let d1 = orient_i(b0, b1, a0);
    let d2 = orient_i(b0, b1, a1);
    let d3 = orient_i(a0, a1, b0);
    let d4 = orient_i(a0, a1, b1);
    (d1 * d2 < 0 && d3 * d4 < 0)
        || on_seg_i(a0, b0, b1)
        || on_seg_i(a1, b0, b1)
        || on_seg_i(b0, a0, a1)
        || on_seg_i(b1, a0, a1)
}

/// Squared distance from p to segment [a, b] as an exact rational `num / den`.
fn dist2_point_seg_i(p: (i64, i64), a: (i64, i64), b: (i64, i64)) -> (i128, i128) {
    let (px, py) = (i128::from(p.0), i128::from(p.1));
    let (ax, ay) = (i128::from(a.0), i128::from(a.1));
    let (bx, by) = (i128::from(b.0), i128::from(b.1));
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    let dot = (px - ax) * dx + (py - ay) * dy;
    if len2 == 0 || dot <= 0 {
        return ((px - ax).pow(2) + (py - ay).pow(2), 1);
    }
    if dot >= len2 {
        return ((px - bx).pow(2) + (py - by).pow(2), 1);
    }
    let cross = dx * (py - ay) - dy * (px - ax);
    (cross * cross, len2)
}

fn pt(p: (i64, i64), scale: f64) -> Point {
    Point::new(p.0 as f64 * scale, p.1 as f64 * scale)
}

fn small() -> impl Strategy<Value = (i64, i64)> {
    (-6i64..=6, -6i64..=6)
}

/// Coordinates that are exact binary fractions around a large offset: near-degenerate in
/// floating point, exact in integers after scaling by 2^20.
fn fine() -> impl Strategy<Value = (i64, i64)> {
    let c = prop_oneof![
        (1i64 << 30)..(1i64 << 30) + 8,
        -(1i64 << 31)..-(1i64 << 31) + 8
    ];
    (c.clone(), c)
}

#[track_caller]
fn check_segment_pair(a0: (i64, i64), a1: (i64, i64), b0: (i64, i64), b1: (i64, i64), scale: f64) {
    let (p0, p1, q0, q1) = (pt(a0, scale), pt(a1, scale), pt(b0, scale), pt(b1, scale));
    let want = intersect_i(a0, a1, b0, b1);
    assert_eq!(segments_intersect(p0, p1, q0, q1), want);
    // Symmetric under swapping the segments and the end points.
    assert_eq!(segments_intersect(q0, q1, p0, p1), want);
    assert_eq!(segments_intersect(p1, p0, q1, q0), want);
    let v = certified::segment_segment(p0, p1, q0, q1);
    assert_eq!(v, certified::segment_segment(q1, q0, p0, p1));
    match v {
        Verdict::Intersect => assert!(want),
        Verdict::Apart(lb) => {
            assert!(!want);
            // The exact distance is the least end point-segment distance.
            let cands = [
                dist2_point_seg_i(a0, b0, b1),
                dist2_point_seg_i(a1, b0, b1),
                dist2_point_seg_i(b0, a0, a1),
                dist2_point_seg_i(b1, a0, a1),
            ];
            let exact = cands
                .iter()
                .map(|&(n, d)| (n as f64 / d as f64).sqrt() * scale)
                .fold(f64::INFINITY, f64::min);
            assert!(
                lb <= exact * (1.0 + 1e-12),
                "lower bound {lb} above exact {exact}"
            );
            assert!(
                exact - lb <= 1e-9 * (1.0 + exact),
                "bound {lb} far below {exact}"
            );
        }
        Verdict::Uncertain => panic!("segment verdicts are never uncertain"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, .. ProptestConfig::default() })]

    #[test]
    fn orientation_is_exact(a in small(), b in small(), c in small()) {
        let want = match orient_i(a, b, c) {
            1 => Orientation::Clockwise,
            -1 => Orientation::CounterClockwise,
            _ => Orientation::Collinear,
        };
        prop_assert_eq!(orient(pt(a, 1.0), pt(b, 1.0), pt(c, 1.0)), want);
        prop_assert_eq!(orient(pt(b, 1.0), pt(a, 1.0), pt(c, 1.0)), want.reversed());
        prop_assert_eq!(orient(pt(b, 1.0), pt(c, 1.0), pt(a, 1.0)), want);
    }

    #[test]
    fn orientation_is_exact_near_degenerate(a in fine(), b in fine(), c in fine()) {
        let s = 1.0 / f64::from(1u32 << 20);
        let want = match orient_i(a, b, c) {
            1 => Orientation::Clockwise,
            -1 => Orientation::CounterClockwise,
            _ => Orientation::Collinear,
        };
        prop_assert_eq!(orient(pt(a, s), pt(b, s), pt(c, s)), want);
    }

    #[test]
    fn segment_predicates_are_exact(a0 in small(), a1 in small(), b0 in small(), b1 in small()) {
        check_segment_pair(a0, a1, b0, b1, 1.0);
        check_segment_pair(a0, a1, b0, b1, 0.125);
    }

    #[test]
    fn point_in_polygon_is_exact(
        poly in prop::collection::vec(small(), 3..9),
        p in small(),
    ) {
        let pts: Vec<Point> = poly.iter().map(|&q| pt(q, 1.0)).collect();
        let n = poly.len();
        let on = (0..n).any(|i| on_seg_i(p, poly[i], poly[(i + 1) % n]));
        // Winding number in integers.
        let mut wn = 0;
        for i in 0..n {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            if a.1 <= p.1 {
                if b.1 > p.1 && orient_i(a, b, p) > 0 { wn += 1; }
            } else if b.1 <= p.1 && orient_i(a, b, p) < 0 { wn -= 1; }
        }
        let want = if on { PointLocation::OnBoundary } else if wn != 0 { PointLocation::Inside } else { PointLocation::Outside };
        prop_assert_eq!(point_in_polygon(pt(p, 1.0), &pts), want);
    }

    #[test]
    fn area_sign_is_exact(poly in prop::collection::vec(fine(), 3..12)) {
        let s = 1.0 / f64::from(1u32 << 20);
        let pts: Vec<Point> = poly.iter().map(|&q| pt(q, s)).collect();
        let n = poly.len();
        let twice: i128 = (0..n)
            .map(|i| {
                let (a, b) = (poly[i], poly[(i + 1) % n]);
                i128::from(a.0) * i128::from(b.1) - i128::from(b.0) * i128::from(a.1)
            })
            .sum();
        let want = match twice.signum() {
            1 => Orientation::Clockwise,
            -1 => Orientation::CounterClockwise,
            _ => Orientation::Collinear,
        };
        prop_assert_eq!(area_sign(&pts), want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    #[test]
    fn cmp_around_is_the_atan2_order(c in small(), p in small(), q in small()) {
        use std::cmp::Ordering;
        let angle = |x: (i64, i64)| ((x.1 - c.1) as f64).atan2((x.0 - c.0) as f64).rem_euclid(std::f64::consts::TAU);
        let got = certified::cmp_around(pt(c, 1.0), pt(p, 1.0), pt(q, 1.0));
        prop_assert_eq!(certified::cmp_around(pt(c, 1.0), pt(q, 1.0), pt(p, 1.0)), got.reverse());
        let want = match (p == c, q == c) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            // Same direction exactly: equal; otherwise atan2 of small integers is accurate
            // enough to order different directions.
            _ if orient_i(c, p, q) == 0 && (p.0 - c.0) * (q.0 - c.0) + (p.1 - c.1) * (q.1 - c.1) > 0 => Ordering::Equal,
            _ => angle(p).total_cmp(&angle(q)),
        };
        prop_assert_eq!(got, want);
    }
}

#[test]
fn area_sign_decides_what_floating_point_gets_wrong() {
    // A sliver triangle far from the origin whose float shoelace sum cancels to the wrong sign
    // or to zero; the exact sign is that of the integer computation.
    let s = 1.0 / f64::from(1u32 << 20);
    let o = 1i64 << 32;
    let tri = [(o, o), (o + 3, o + 1), (o + 6, o + 2 + 1)];
    let pts: Vec<Point> = tri.iter().map(|&q| pt(q, s)).collect();
    let twice: i128 = (0..3)
        .map(|i| {
            let (a, b) = (tri[i], tri[(i + 1) % 3]);
            i128::from(a.0) * i128::from(b.1) - i128::from(b.0) * i128::from(a.1)
        })
        .sum();
    assert_eq!(twice.signum(), 1);
    assert_eq!(area_sign(&pts), Orientation::Clockwise);
    assert!(signed_area(&pts) > 0.0);
}

#[test]
fn screen_orientation_convention() {
    // Top left, top right, bottom left of a screen: clockwise as seen.
    let tri = [
        Point::new(0.0, 0.0),
        Point::new(10.0, 0.0),
        Point::new(0.0, 10.0),
    ];
    assert_eq!(orient(tri[0], tri[1], tri[2]), Orientation::Clockwise);
    assert_eq!(area_sign(&tri), Orientation::Clockwise);
    assert!(signed_area(&tri) > 0.0);
    assert_eq!(
        certified::winding_number(Point::new(2.0, 2.0), &tri),
        Some(1)
    );
}

#[test]
fn polylines_are_decided_exactly() {
    let sq = [
        Point::new(0.0, 0.0),
        Point::new(10.0, 0.0),
        Point::new(10.0, 10.0),
        Point::new(0.0, 10.0),
        Point::new(0.0, 0.0),
    ];
    let inside = [Point::new(2.0, 2.0), Point::new(8.0, 3.0)];
    let crossing = [Point::new(5.0, 5.0), Point::new(15.0, 5.0)];
    let touching = [Point::new(10.0, 5.0), Point::new(15.0, 5.0)];
    let v = certified::polyline_polyline(&sq, &inside).unwrap();
    assert!(
        matches!(v, Verdict::Apart(lb) if (lb - 2.0).abs() < 1e-9),
        "{v:?}"
    );
    assert_eq!(
        certified::polyline_polyline(&sq, &crossing).unwrap(),
        Verdict::Intersect
    );
    assert_eq!(
        certified::polyline_polyline(&touching, &sq).unwrap(),
        Verdict::Intersect
    );
    assert!(certified::polyline_polyline(&[], &sq).is_err());
}

#[test]
fn tubes_check_their_input() {
    let pts = [Point::new(0.0, 0.0), Point::new(1.0, 0.0)];
    assert!(Tube::exact(&[]).is_err());
    assert!(Tube::uniform(&pts, -1.0).is_err());
    assert!(Tube::per_leg(&pts, &[1.0, 2.0]).is_err());
    assert!(Tube::per_leg(&pts, &[f64::NAN]).is_err());
    assert!(Tube::exact(&[Point::new(f64::NAN, 0.0)]).is_err());
    let one = [Point::new(0.5, 3.0)];
    let v = certified::verdict(
        Tube::exact(&pts).unwrap(),
        Tube::uniform(&one, 1.0).unwrap(),
    );
    assert!(matches!(v, Verdict::Apart(lb) if (lb - 2.0).abs() < 1e-9));
}
