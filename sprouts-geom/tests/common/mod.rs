//! Shared generators for the integration tests: random cubics and splines biased towards the
//! degenerate cases (collinear control points, cusps, loops, coincident points, tiny and huge
//! scales), from a seeded generator so that failures reproduce.

#![allow(dead_code, reason = "each test file uses a different subset")]

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_geom::{CubicBez, Piece, Point, Spline, Vector};

pub(crate) fn rng(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

pub(crate) fn point(rng: &mut impl Rng, scale: f64) -> Point {
    Point::new(
        rng.random_range(-1.0..1.0) * scale,
        rng.random_range(-1.0..1.0) * scale,
    )
}

/// A random cubic of one of several shapes, at a random scale from 1e-3 to 1e6 around a random
/// offset.
pub(crate) fn cubic(rng: &mut impl Rng) -> CubicBez {
    let scale = 10f64.powf(rng.random_range(-3.0..6.0));
    let spread = scale * rng.random_range(0.0..10.0);
    let offset = point(rng, spread);
    let shape = rng.random_range(0..7);
    let c = match shape {
        // General position.
        0 => CubicBez::new(
            point(rng, 1.0),
            point(rng, 1.0),
            point(rng, 1.0),
            point(rng, 1.0),
        ),
        // Collinear control points, in any order along the line (the curve doubles back).
        1 => {
            let (a, d) = (point(rng, 1.0), point(rng, 1.0).coords);
            let [p0, p1, p2, p3] = [0; 4].map(|_| a + d * rng.random_range(-1.5..1.5));
            CubicBez::new(p0, p1, p2, p3)
        }
        // A cusp: b1 - b0, b2 - b1, b3 - b2 with the middle one the negated sum of the others'
        // halves gives a zero derivative inside.
        2 => {
            let b0 = point(rng, 1.0);
            let u = point(rng, 1.0).coords;
            let v = point(rng, 1.0).coords;
            // p'(t) vanishes at t = 1/2 when (b1 - b0) + 2 (b2 - b1) + (b3 - b2) = 0.
            let b1 = b0 + u;
            let b2 = b1 + v;
            let b3 = b2 - u - 2.0 * v;
            CubicBez::new(b0, b1, b2, b3)
        }
        // A loop: the inner control points crossed over.
        3 => CubicBez::new(
            Point::new(0.0, 0.0),
            Point::new(1.5, 1.0),
            Point::new(-0.5, 1.0),
            Point::new(1.0, 0.0),
        ),
        // Coincident end and inner points.
        4 => {
            let a = point(rng, 1.0);
            let b = point(rng, 1.0);
            CubicBez::new(a, a, b, b)
        }
        // Nearly straight: a line plus a tiny bump.
        5 => {
            let c = CubicBez::line(point(rng, 1.0), point(rng, 1.0));
            let bump = Vector::new(rng.random_range(-1e-6..1e-6), rng.random_range(-1e-6..1e-6));
            CubicBez::new(c.p0, c.p1 + bump, c.p2 - bump, c.p3)
        }
        // All four points equal.
        _ => {
            let a = point(rng, 1.0);
            CubicBez::new(a, a, a, a)
        }
    };
    let map = |p: Point| offset + p.coords * scale;
    CubicBez::new(map(c.p0), map(c.p1), map(c.p2), map(c.p3))
}

/// A random C⁰ spline of `n` pieces at pixel scale (control points within a 1000 px square).
pub(crate) fn spline(rng: &mut impl Rng, n: usize) -> Spline {
    let mut pieces = Vec::with_capacity(n);
    let mut start = point(rng, 500.0);
    for _ in 0..n {
        let b = CubicBez::new(
            start,
            start + point(rng, 60.0).coords,
            start + point(rng, 120.0).coords,
            start + point(rng, 120.0).coords,
        );
        pieces.push(Piece::new(b, rng.random_range(1.0..150.0)));
        start = b.p3;
    }
    Spline::new(pieces).expect("pieces join")
}
