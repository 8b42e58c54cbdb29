//! Certified predicates of `sprouts-geom` against exact integer arithmetic and against
//! themselves: orientation (antisymmetry, cyclic symmetry), angular order around a point,
//! segment intersection, certified
//! segment distances (symmetry, lower bounds), point in polygon, area sign, and the symmetry
//! and soundness of curve verdicts.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sprouts_geom::certified::{
    self, Orientation, PointLocation, Verdict, area_sign, cmp_around, orient, point_in_polygon,
    segments_intersect,
};
use sprouts_geom::{CubicBez, Point, Spline, refined_polygon};

#[derive(Debug, Arbitrary)]
struct Input {
    /// Small integer coordinates; with `offset` they sit far from the origin, where
    /// floating-point evaluation of the predicates would cancel.
    coords: [(i8, i8); 8],
    offset: bool,
    /// Exponent of a power-of-two scale (keeps every coordinate exact).
    scale_exp: i8,
    /// The bound for the curve verdict, in 1/16 of the scale.
    eps_sixteenths: u8,
}

type Ip = (i64, i64);

fn orient_i(a: Ip, b: Ip, c: Ip) -> i128 {
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

fn on_seg_i(p: Ip, a: Ip, b: Ip) -> bool {
    orient_i(a, b, p) == 0
        && p.0 >= a.0.min(b.0)
        && p.0 <= a.0.max(b.0)
        && p.1 >= a.1.min(b.1)
        && p.1 <= a.1.max(b.1)
}

fn intersect_i(a0: Ip, a1: Ip, b0: Ip, b1: Ip) -> bool {
    let (d1, d2) = (orient_i(b0, b1, a0), orient_i(b0, b1, a1));
    let (d3, d4) = (orient_i(a0, a1, b0), orient_i(a0, a1, b1));
    (d1 * d2 < 0 && d3 * d4 < 0)
        || on_seg_i(a0, b0, b1)
        || on_seg_i(a1, b0, b1)
        || on_seg_i(b0, a0, a1)
        || on_seg_i(b1, a0, a1)
}

/// Exact squared distance from p to [a, b] as a float (exact rational, then one rounding).
fn dist2_i(p: Ip, a: Ip, b: Ip) -> f64 {
    let (px, py, ax, ay, bx, by) = (
        i128::from(p.0),
        i128::from(p.1),
        i128::from(a.0),
        i128::from(a.1),
        i128::from(b.0),
        i128::from(b.1),
    );
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    let dot = (px - ax) * dx + (py - ay) * dy;
    if len2 == 0 || dot <= 0 {
        return ((px - ax).pow(2) + (py - ay).pow(2)) as f64;
    }
    if dot >= len2 {
        return ((px - bx).pow(2) + (py - by).pow(2)) as f64;
    }
    let cross = dx * (py - ay) - dy * (px - ax);
    (cross * cross) as f64 / len2 as f64
}

fn to_orientation(sign: i128) -> Orientation {
    match sign {
        1 => Orientation::Clockwise,
        -1 => Orientation::CounterClockwise,
        _ => Orientation::Collinear,
    }
}

fuzz_target!(|input: Input| {
    let base: i64 = if input.offset { 1 << 40 } else { 0 };
    let ip: Vec<Ip> = input
        .coords
        .iter()
        .map(|&(x, y)| (base + i64::from(x), base + i64::from(y)))
        .collect();
    let scale = 2f64.powi(i32::from(input.scale_exp.clamp(-20, 20)));
    let p: Vec<Point> = ip
        .iter()
        .map(|&(x, y)| Point::new(x as f64 * scale, y as f64 * scale))
        .collect();

    // Orientation: exact, antisymmetric, cyclic.
    let o = orient(p[0], p[1], p[2]);
    assert_eq!(o, to_orientation(orient_i(ip[0], ip[1], ip[2])));
    assert_eq!(orient(p[1], p[0], p[2]), o.reversed());
    assert_eq!(orient(p[1], p[2], p[0]), o);

    // Angular order around p[0]: antisymmetric and exact (half-plane by exact comparisons,
    // then the sign of the cross product).
    let c = cmp_around(p[0], p[1], p[2]);
    assert_eq!(cmp_around(p[0], p[2], p[1]), c.reverse());
    let half = |q: Ip| -> Option<u8> {
        let (dx, dy) = (q.0 - ip[0].0, q.1 - ip[0].1);
        if (dx, dy) == (0, 0) {
            None
        } else if dy > 0 || (dy == 0 && dx > 0) {
            Some(0)
        } else {
            Some(1)
        }
    };
    let want = match (half(ip[1]), half(ip[2])) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some(a), Some(b)) if a != b => a.cmp(&b),
        _ => 0.cmp(&orient_i(ip[0], ip[1], ip[2])),
    };
    assert_eq!(c, want);

    // Segment intersection: exact and symmetric.
    let want = intersect_i(ip[0], ip[1], ip[2], ip[3]);
    assert_eq!(segments_intersect(p[0], p[1], p[2], p[3]), want);
    assert_eq!(segments_intersect(p[2], p[3], p[1], p[0]), want);

    // Certified segment distance: symmetric bit for bit, a true lower bound, and tight.
    let v = certified::segment_segment(p[0], p[1], p[2], p[3]);
    assert_eq!(v, certified::segment_segment(p[3], p[2], p[0], p[1]));
    match v {
        Verdict::Intersect => assert!(want),
        Verdict::Apart(lb) => {
            assert!(!want);
            let exact = [
                dist2_i(ip[0], ip[2], ip[3]),
                dist2_i(ip[1], ip[2], ip[3]),
                dist2_i(ip[2], ip[0], ip[1]),
                dist2_i(ip[3], ip[0], ip[1]),
            ]
            .into_iter()
            .fold(f64::INFINITY, f64::min)
            .sqrt()
                * scale;
            assert!(lb <= exact * (1.0 + 1e-12), "{lb} above {exact}");
        }
        Verdict::Uncertain => panic!("segment verdicts are decided"),
    }

    // Point in polygon (the first six points, possibly self-intersecting) by winding number.
    let poly = &ip[..6];
    let q = ip[6];
    let on = (0..6).any(|i| on_seg_i(q, poly[i], poly[(i + 1) % 6]));
    let mut wn = 0;
    for i in 0..6 {
        let (a, b) = (poly[i], poly[(i + 1) % 6]);
        if a.1 <= q.1 {
            if b.1 > q.1 && orient_i(a, b, q) > 0 {
                wn += 1;
            }
        } else if b.1 <= q.1 && orient_i(a, b, q) < 0 {
            wn -= 1;
        }
    }
    let want = if on {
        PointLocation::OnBoundary
    } else if wn != 0 {
        PointLocation::Inside
    } else {
        PointLocation::Outside
    };
    assert_eq!(point_in_polygon(p[6], &p[..6]), want);

    // Area sign, exact.
    let twice: i128 = (0..6)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % 6]);
            i128::from(a.0) * i128::from(b.1) - i128::from(b.0) * i128::from(a.1)
        })
        .sum();
    assert_eq!(area_sign(&p[..6]), to_orientation(twice.signum()));

    // Curve verdicts: symmetric, and sound against sampling.
    let a = CubicBez::new(p[0], p[1], p[2], p[3]);
    let b = CubicBez::new(p[4], p[5], p[6], p[7]);
    let eps = f64::from(input.eps_sixteenths.max(1)) / 16.0 * scale;
    let (Ok(sa), Ok(sb)) = (Spline::from_cubic(a, 1.0), Spline::from_cubic(b, 1.0)) else {
        return;
    };
    let (Ok(pa), Ok(pb)) = (
        refined_polygon(&sa, eps, f64::INFINITY),
        refined_polygon(&sb, eps, f64::INFINITY),
    ) else {
        return;
    };
    let v = certified::verdict(pa.tube(), pb.tube());
    assert_eq!(v, certified::verdict(pb.tube(), pa.tube()));
    if let Verdict::Apart(lb) = v {
        let n = 64;
        for i in 0..=n {
            let x = a.eval(f64::from(i) / f64::from(n));
            for j in 0..=n {
                let y = b.eval(f64::from(j) / f64::from(n));
                assert!(lb <= (x - y).norm(), "bound {lb} above a sampled distance");
            }
        }
    }
});
