//! Least-squares clamped fit of a 200-point polyline to 1.5 pixels, asserted then timed.

use criterion::{Criterion, criterion_group, criterion_main};
use sprouts_geom::{DRAWING_FIT_TOLERANCE, fit_clamped};

#[path = "geom_common.rs"]
mod geom_common;

/// Pieces of the bench fit: a behaviour checksum.
const PIECES: usize = 23;

fn bench(c: &mut Criterion) {
    let pts = geom_common::polyline_200();
    let (d0, d1) = (pts[1] - pts[0], pts[199] - pts[198]);
    let fit = fit_clamped(&pts, d0, d1, DRAWING_FIT_TOLERANCE).expect("fits");
    assert!(fit.max_error <= DRAWING_FIT_TOLERANCE);
    assert_eq!(fit.spline.n_pieces(), PIECES, "fitting changed");
    c.bench_function("geom/fit_200_points", |b| {
        b.iter(|| fit_clamped(std::hint::black_box(&pts), d0, d1, DRAWING_FIT_TOLERANCE).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
