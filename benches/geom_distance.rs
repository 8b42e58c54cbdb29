//! Certified distance between two 10-piece splines 40 pixels apart, asserted then timed (with
//! and without building the refined polygons).

use criterion::{Criterion, criterion_group, criterion_main};
use sprouts_geom::certified::{Verdict, verdict};
use sprouts_geom::refined_polygon;

#[path = "geom_common.rs"]
mod geom_common;

const EPS: f64 = 0.25;
const MAX_LEG: f64 = 16.0;

fn bench(c: &mut Criterion) {
    let a = geom_common::wave_spline(0.0);
    let b = geom_common::wave_spline(40.0);
    let pa = refined_polygon(&a, EPS, MAX_LEG).unwrap();
    let pb = refined_polygon(&b, EPS, MAX_LEG).unwrap();
    // One curve is the other moved down 40 px; where the wave is steep they come closer than
    // 40 px. Dense sampling bounds the distance from above; the certified bound is below it
    // and loses at most 4 eps.
    let sample = |s: &sprouts_geom::Spline| -> Vec<sprouts_geom::Point> {
        (0..=20_000)
            .map(|i| s.eval_global(s.param_length() * f64::from(i) / 20_000.0))
            .collect()
    };
    let (sa, sb) = (sample(&a), sample(&b));
    let upper = sa
        .iter()
        .map(|p| {
            sb.iter()
                .map(|q| (p - q).norm())
                .fold(f64::INFINITY, f64::min)
        })
        .fold(f64::INFINITY, f64::min);
    match verdict(pa.tube(), pb.tube()) {
        Verdict::Apart(lb) => assert!(
            lb <= upper && upper - lb <= 4.0 * EPS + 0.05,
            "lower bound {lb}, sampled distance {upper}"
        ),
        other => panic!("expected Apart, got {other:?}"),
    }
    c.bench_function("geom/distance_10_pieces", |bch| {
        bch.iter(|| verdict(std::hint::black_box(pa.tube()), pb.tube()))
    });
    c.bench_function("geom/refine_and_distance_10_pieces", |bch| {
        bch.iter(|| {
            let pa = refined_polygon(std::hint::black_box(&a), EPS, MAX_LEG).unwrap();
            let pb = refined_polygon(&b, EPS, MAX_LEG).unwrap();
            verdict(pa.tube(), pb.tube())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
