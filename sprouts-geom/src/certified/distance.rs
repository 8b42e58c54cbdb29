//! Certified distances between points and segments: verdicts with lower bounds that absorb
//! the rounding of their computation.

use super::exact::{point_on_segment, segments_intersect};
use crate::Point;
use crate::segment::point_segment_distance;

/// A certified answer to "how far apart are these two things?".
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// They are disjoint, and their distance is at least this (non-negative) lower bound.
    Apart(f64),
    /// They certainly have a common point (for curves: they cross).
    Intersect,
    /// The bounds in hand cannot decide; refine (smaller `eps`) and ask again.
    Uncertain,
}

impl Verdict {
    /// The lower bound if the verdict is `Apart`.
    pub fn lower_bound(self) -> Option<f64> {
        match self {
            Verdict::Apart(lb) => Some(lb),
            Verdict::Intersect | Verdict::Uncertain => None,
        }
    }

    /// Whether the verdict is `Apart` with a lower bound of at least `clearance`: the one
    /// question a clearance check asks.
    pub fn is_apart_by(self, clearance: f64) -> bool {
        matches!(self, Verdict::Apart(lb) if lb >= clearance)
    }

    /// The verdict about the union of two pairs of things: `Intersect` if either intersects,
    /// else `Uncertain` if either is uncertain, else `Apart` with the smaller bound.
    pub fn and(self, other: Verdict) -> Verdict {
        match (self, other) {
            (Verdict::Intersect, _) | (_, Verdict::Intersect) => Verdict::Intersect,
            (Verdict::Uncertain, _) | (_, Verdict::Uncertain) => Verdict::Uncertain,
            (Verdict::Apart(a), Verdict::Apart(b)) => Verdict::Apart(a.min(b)),
        }
    }
}

/// Allowance for the rounding of a point–segment distance computed in floating point, when all
/// coordinates are at most `m` in absolute value and the computed distance is `d`.
///
/// The computed projection parameter is off by a relative `O(u)`, which can only make the
/// distance larger, by at most about `14 u m` (the excess grows quadratically with the
/// parameter error); the differences, the product, the sum and the norm add at most about
/// `16 u (m + d)`. `64 u (m + d)` covers both with room to spare (`u = f64::EPSILON / 2`).
pub(super) fn distance_allowance(m: f64, d: f64) -> f64 {
    64.0 * f64::EPSILON * (m + d)
}

pub(super) fn max_abs(points: &[Point]) -> f64 {
    points
        .iter()
        .map(|p| p.x.abs().max(p.y.abs()))
        .fold(0.0, f64::max)
}

/// A certified lower bound on the distance from `p` to segment `[a, b]`, for a point known not
/// to be on the segment.
fn point_segment_lb(p: Point, a: Point, b: Point) -> f64 {
    let d = point_segment_distance(p, a, b);
    (d - distance_allowance(max_abs(&[p, a, b]), d)).max(0.0)
}

/// Point against closed segment: `Intersect` if `p` is exactly on it, else `Apart` with a
/// certified lower bound on the distance.
pub fn point_segment(p: Point, a: Point, b: Point) -> Verdict {
    if point_on_segment(p, a, b) {
        Verdict::Intersect
    } else {
        Verdict::Apart(point_segment_lb(p, a, b))
    }
}

/// Closed segment against closed segment: `Intersect` if they share a point (exact), else
/// `Apart` with a certified lower bound on their distance.
///
/// Two disjoint segments are closest at an end point of one of them, so the distance is the
/// least of the four end point–segment distances.
pub fn segment_segment(a0: Point, a1: Point, b0: Point, b1: Point) -> Verdict {
    if segments_intersect(a0, a1, b0, b1) {
        return Verdict::Intersect;
    }
    let lb = point_segment_lb(a0, b0, b1)
        .min(point_segment_lb(a1, b0, b1))
        .min(point_segment_lb(b0, a0, a1))
        .min(point_segment_lb(b1, a0, a1));
    Verdict::Apart(lb)
}
