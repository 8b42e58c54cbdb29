//! Certified spline geometry for drawing Sprouts: the geometric vocabulary of `sprouts-draw`.
//!
//! `sprouts-geom` is one of the two leaf crates of the workspace (with `sprouts-topo`); it
//! knows nothing about Sprouts rules. It provides:
//!
//! - points and vectors ([`Point`], [`Vector`]: nalgebra's), cubic Bézier pieces
//!   ([`CubicBez`]) and splines ([`Spline`]): piecewise cubic, C² with respect to a parameter
//!   length `h` stored with each piece;
//! - local editing that never changes the curve: [`Spline::refine`], cuts
//!   ([`Spline::cut_at`], [`Spline::cut_near_middle`]), [`Spline::join`],
//!   [`Spline::remove_knot`], [`Spline::recut`]; de Boor points of C² splines ([`DeBoor`]);
//! - the Nairn–Peters–Lutterkort bound ([`CubicBez::npl_bound`]) and [`refined_polygon`],
//!   the basis of every certificate;
//! - [`certified`]: exact orientation, angular order, segment and polygon predicates, verdicts
//!   ([`certified::Verdict`]) on the distance between curves and on a curve's simplicity;
//!   topological decisions are made only from this module;
//! - [`approx`]: arc length, parameter at an arc length, nearest point, each with an explicit
//!   accuracy;
//! - a uniform spatial grid of segments ([`SegmentGrid`]);
//! - least-squares fitting of a polyline ([`fit_clamped`]) and interpolation through points
//!   ([`interpolate`]);
//! - SVG path data ([`Spline::svg_path`]) and, with the default `serde` feature, a stable serde
//!   representation of splines.
//!
//! # Example: two curves, certified apart
//! ```
//! use sprouts_geom::{certified, fit_clamped, refined_polygon, Point, Vector};
//!
//! let arc: Vec<Point> = (0..=40)
//!     .map(|i| {
//!         let a = std::f64::consts::PI * f64::from(i) / 40.0;
//!         Point::new(100.0 - 80.0 * a.cos(), 100.0 - 80.0 * a.sin())
//!     })
//!     .collect();
//! let fit = fit_clamped(&arc, Vector::new(0.0, -1.0), Vector::new(0.0, 1.0), 1.5).unwrap();
//! assert!(fit.max_error <= 1.5);
//!
//! let line = sprouts_geom::Spline::from_cubic(
//!     sprouts_geom::CubicBez::line(Point::new(0.0, 150.0), Point::new(200.0, 150.0)),
//!     200.0,
//! )
//! .unwrap();
//! let a = refined_polygon(&fit.spline, 0.25, 16.0).unwrap();
//! let b = refined_polygon(&line, 0.25, 16.0).unwrap();
//! match certified::verdict(a.tube(), b.tube()) {
//!     certified::Verdict::Apart(lb) => assert!(lb > 40.0 && lb <= 50.0),
//!     other => panic!("expected the curves apart, got {other:?}"),
//! }
//! ```
//!
//! # Example: a move's curve cut near its middle and joined again
//! ```
//! use sprouts_geom::{interpolate, EndCondition, Point, Spline};
//!
//! let pts = [Point::new(0.0, 0.0), Point::new(40.0, 30.0), Point::new(80.0, 0.0), Point::new(120.0, 30.0)];
//! let curve = interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).unwrap();
//! let cut = curve.cut_near_middle(1e-3).unwrap();
//! assert_eq!(cut.first.end(), cut.second.start());
//! let again = Spline::join(&cut.first, &cut.second).unwrap();
//! assert_eq!(again.start(), curve.start());
//! assert_eq!(again.end(), curve.end());
//! ```
//!
//! # Example: clearance of a new curve through the spatial grid
//! ```
//! use sprouts_geom::{certified, refined_polygon, CubicBez, Point, SegmentGrid, Spline, DEFAULT_CELL_SIZE};
//!
//! let line = |a: (f64, f64), b: (f64, f64)| {
//!     let (a, b) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
//!     Spline::from_cubic(CubicBez::line(a, b), (b - a).norm()).unwrap()
//! };
//! let existing = [line((0.0, 0.0), (300.0, 0.0)), line((0.0, 100.0), (300.0, 100.0))];
//! let polys: Vec<_> = existing.iter().map(|s| refined_polygon(s, 0.25, 16.0).unwrap()).collect();
//! let grid = SegmentGrid::new(
//!     DEFAULT_CELL_SIZE,
//!     polys.iter().enumerate().flat_map(|(i, p)| p.grid_segments(i)),
//! )
//! .unwrap();
//!
//! // A new curve between the two: is it at least 0.6 d0 = 3.6 px from both?
//! let new = refined_polygon(&line((20.0, 50.0), (280.0, 60.0)), 0.25, 16.0).unwrap();
//! let clearance = 3.6;
//! let mut near = Vec::new();
//! let mut clear = true;
//! for j in 0..new.n_legs() {
//!     let (a, b) = new.leg(j);
//!     near.clear();
//!     grid.near_segment(a, b, clearance + new.leg_eps(j) + 0.25, &mut near);
//!     for &k in &near {
//!         let (curve, leg) = grid.segments()[k].key;
//!         let (c, d) = polys[curve].leg(leg);
//!         let v = certified::leg_verdict((a, b, new.leg_eps(j)), (c, d, polys[curve].leg_eps(leg)));
//!         clear &= v.is_apart_by(clearance);
//!     }
//! }
//! assert!(clear);
//! ```

pub mod approx;
mod bspline;
pub mod certified;
mod cubic;
mod deboor;
mod fit;
mod grid;
mod interpolate;
mod refine;
mod segment;
#[cfg(feature = "serde")]
mod serde_impl;
mod spline;
mod svg;

/// The linear algebra crate of the vocabulary, re-exported so that callers use the same version.
pub use nalgebra;

/// A point of the plane (pixels, with the y axis pointing down on screen).
pub type Point = nalgebra::Point2<f64>;
/// A vector of the plane: a difference of points, a derivative, a direction.
pub type Vector = nalgebra::Vector2<f64>;

pub use cubic::CubicBez;
pub use deboor::DeBoor;
pub use fit::{DRAWING_FIT_TOLERANCE, Fit, FitError, fit_clamped};
pub use grid::{DEFAULT_CELL_SIZE, GridError, GridSegment, SegmentGrid};
pub use interpolate::{EndCondition, InterpolateError, Join, interpolate};
pub use refine::{LegSpan, MAX_LEGS, RefineError, RefinedPolygon, refined_polygon};
pub use segment::{closest_on_segment, point_segment_distance, signed_area};
pub use spline::{
    Cut, KnotContinuity, MIDDLE_CUT_SNAP, Piece, Snap, Spline, SplineError, SplineParam,
};
pub use svg::SVG_DECIMALS;

/// The crate's README, whose example runs as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
