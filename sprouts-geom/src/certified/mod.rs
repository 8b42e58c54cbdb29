//! Certified predicates: answers that are signs, verdicts or lower bounds, never bare estimates.
//!
//! The drawing layer makes topological decisions (does this curve touch that one? which side
//! of this curve is that spot on? is this cycle the outer one?) only from this module.
//!
//! - Point predicates ([`orient`], [`segments_intersect`], [`point_in_polygon`], [`area_sign`])
//!   are exact for the floating-point inputs: orientation uses Shewchuk's adaptive-precision
//!   `orient2d` (the `robust` crate; J. R. Shewchuk, *Adaptive precision floating-point
//!   arithmetic and fast robust geometric predicates*, DCG 18(3), 1997, 305–363), and the area
//!   sign sums the shoelace terms exactly in floating-point expansions (same paper).
//! - Distances between segments and polygons ([`point_segment`], [`segment_segment`],
//!   [`polyline_polyline`]) are [`Verdict`]s: `Intersect` when the closed
//!   segments share a point (decided exactly), else `Apart(lb)` with a lower bound `lb` on the
//!   true distance that already absorbs the rounding of its computation.
//! - Distances between *curves* go through [`Tube`]s: a polyline with, per leg, a radius within
//!   which the curve stays (pointwise, leg by leg), such as a [`crate::RefinedPolygon`]. Then
//!   [`verdict`] answers `Apart(lb)` (the curves are at least `lb > 0` apart), `Intersect`
//!   (the curves certainly cross) or `Uncertain` (refine the polygons and ask again).
//!   [`leg_verdict`] answers the same for one pair of legs, for callers that find candidate
//!   legs through a [`crate::SegmentGrid`].
//! - One curve against itself: [`simplicity`].
//! - The rotation system at a spot: [`cmp_around`] orders directions exactly.

mod distance;
mod exact;
mod simple;
mod tube;

pub use distance::{Verdict, point_segment, segment_segment};
pub use exact::{
    Orientation, PointLocation, area_sign, cmp_around, orient, point_in_polygon, point_on_segment,
    segments_intersect, winding_number,
};
pub use simple::{Simplicity, simplicity};
pub use tube::{Tube, TubeError, leg_verdict, legs_cross_certified, polyline_polyline, verdict};
