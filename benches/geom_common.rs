//! Fixed inputs shared by the geometry benches (included by each `geom_*` bench file).

#![allow(dead_code, reason = "each bench uses a different subset")]

use sprouts_geom::{EndCondition, Point, Spline, interpolate};

/// A 10-piece C² spline across a 1000-pixel window: natural interpolation through 11 points
/// of a wave, shifted down by `dy`.
pub(crate) fn wave_spline(dy: f64) -> Spline {
    let pts: Vec<Point> = (0..=10)
        .map(|i| {
            let x = 50.0 + 90.0 * f64::from(i);
            Point::new(x, 300.0 + dy + 120.0 * (x / 110.0).sin())
        })
        .collect();
    interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).expect("distinct points")
}

/// A hand-drawn-looking polyline of 200 points: a wave sampled every 3 pixels with a
/// deterministic jitter of up to 0.7 pixels.
pub(crate) fn polyline_200() -> Vec<Point> {
    (0..200)
        .map(|i| {
            let x = 3.0 * f64::from(i);
            let jitter = 0.7 * ((f64::from(i) * 12.9898).sin() * 43_758.545).fract();
            Point::new(
                x,
                60.0 * (x / 40.0).sin() + 25.0 * (x / 97.0).cos() + jitter,
            )
        })
        .collect()
}
