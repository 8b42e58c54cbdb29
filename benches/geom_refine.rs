//! Refined control polygon of a 10-piece spline (the certificate's basis), asserted then timed.

use criterion::{Criterion, criterion_group, criterion_main};
use sprouts_geom::refined_polygon;

#[path = "geom_common.rs"]
mod geom_common;

/// The drawing layer's working bound and leg length, in pixels.
const EPS: f64 = 0.25;
const MAX_LEG: f64 = 16.0;
/// Legs of the refined polygon of the bench spline: a behaviour checksum.
const LEGS: usize = 159;

fn bench(c: &mut Criterion) {
    let spline = geom_common::wave_spline(0.0);
    let poly = refined_polygon(&spline, EPS, MAX_LEG).expect("refinable");
    assert!(poly.eps() <= EPS);
    assert_eq!(poly.n_legs(), LEGS, "refinement changed");
    c.bench_function("geom/refined_polygon_10_pieces", |b| {
        b.iter(|| refined_polygon(std::hint::black_box(&spline), EPS, MAX_LEG).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
