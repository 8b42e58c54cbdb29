//! Tubes (polylines with a certified radius per leg) and the verdict about two curves.

use super::distance::{Verdict, distance_allowance, max_abs, segment_segment};
use crate::Point;

/// Why a [`Tube`] could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TubeError {
    /// A tube needs at least one point.
    #[error("a tube needs at least one point")]
    Empty,
    /// A coordinate is NaN or infinite.
    #[error("point {index} is not finite")]
    NonFinitePoint {
        /// Index of the point.
        index: usize,
    },
    /// A radius is negative or not finite.
    #[error("radius {index} = {radius} is not a finite non-negative number")]
    BadRadius {
        /// Index of the radius.
        index: usize,
        /// The rejected value.
        radius: f64,
    },
    /// The number of radii is not the number of legs.
    #[error("{got} radii given for {expected} legs")]
    RadiusCount {
        /// Number of legs (1 for a single point).
        expected: usize,
        /// Number of radii given.
        got: usize,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Radii<'a> {
    Uniform(f64),
    PerLeg(&'a [f64]),
}

/// A polyline with a radius per leg: the claim that some curve, cut into one part per leg,
/// keeps each part within that leg's radius of the leg, pointwise along a parametrisation that
/// runs along the leg from its first to its second end point. A [`crate::RefinedPolygon`] is
/// such a tube for its spline ([`crate::RefinedPolygon::tube`]); an exact polyline (a window
/// edge, a band's polygon) is a tube of radius 0; a spot's centre is a one-point tube.
///
/// A single point counts as one degenerate leg.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tube<'a> {
    points: &'a [Point],
    radii: Radii<'a>,
}

impl<'a> Tube<'a> {
    fn check_points(points: &[Point]) -> Result<(), TubeError> {
        if points.is_empty() {
            return Err(TubeError::Empty);
        }
        match points
            .iter()
            .position(|p| !(p.x.is_finite() && p.y.is_finite()))
        {
            Some(index) => Err(TubeError::NonFinitePoint { index }),
            None => Ok(()),
        }
    }

    /// An exact polyline (radius 0).
    ///
    /// # Errors
    /// [`TubeError::Empty`] or [`TubeError::NonFinitePoint`].
    pub fn exact(points: &'a [Point]) -> Result<Tube<'a>, TubeError> {
        Tube::uniform(points, 0.0)
    }

    /// A polyline with the same radius on every leg.
    ///
    /// # Errors
    /// [`TubeError::Empty`], [`TubeError::NonFinitePoint`] or [`TubeError::BadRadius`].
    pub fn uniform(points: &'a [Point], radius: f64) -> Result<Tube<'a>, TubeError> {
        Tube::check_points(points)?;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(TubeError::BadRadius { index: 0, radius });
        }
        Ok(Tube {
            points,
            radii: Radii::Uniform(radius),
        })
    }

    /// A polyline with one radius per leg (one radius for a single point).
    ///
    /// # Errors
    /// [`TubeError::Empty`], [`TubeError::NonFinitePoint`], [`TubeError::RadiusCount`] or
    /// [`TubeError::BadRadius`].
    pub fn per_leg(points: &'a [Point], radii: &'a [f64]) -> Result<Tube<'a>, TubeError> {
        Tube::check_points(points)?;
        let expected = points.len().saturating_sub(1).max(1);
        if radii.len() != expected {
            return Err(TubeError::RadiusCount {
                expected,
                got: radii.len(),
            });
        }
        if let Some(index) = radii.iter().position(|r| !(r.is_finite() && *r >= 0.0)) {
            return Err(TubeError::BadRadius {
                index,
                radius: radii[index],
            });
        }
        Ok(Tube {
            points,
            radii: Radii::PerLeg(radii),
        })
    }

    /// Number of legs (1 for a single point).
    pub fn n_legs(&self) -> usize {
        self.points.len().saturating_sub(1).max(1)
    }

    /// Leg `j` as `(start, end, radius)`.
    ///
    /// # Panics
    /// If `j >= n_legs()`.
    pub fn leg(&self, j: usize) -> (Point, Point, f64) {
        let r = match self.radii {
            Radii::Uniform(r) => r,
            Radii::PerLeg(rs) => rs[j],
        };
        if self.points.len() == 1 {
            assert!(j == 0, "leg {j} of a one-point tube");
            (self.points[0], self.points[0], r)
        } else {
            (self.points[j], self.points[j + 1], r)
        }
    }

    /// The largest radius.
    pub fn max_radius(&self) -> f64 {
        match self.radii {
            Radii::Uniform(r) => r,
            Radii::PerLeg(rs) => rs.iter().copied().fold(0.0, f64::max),
        }
    }
}

/// Whether two curve parts certainly meet, given that part A stays within `ra` of leg
/// `[a0, a1]` and part B within `rb` of `[b0, b1]` (pointwise, end points to end points).
///
/// # Why this is a certificate
/// Part A lies in the strip of half-width `ra` around the line through `a0, a1`, and part B in
/// the strip of half-width `rb` around the line through `b0, b1`. If `a0` and `a1` are on
/// opposite sides of line B, each farther than `ra + rb` from it, then part A starts and ends
/// outside strip B on opposite sides, so it crosses the parallelogram `strip A ∩ strip B` from
/// one of its sides on strip B's boundary to the opposite one; likewise part B with the roles
/// swapped. Two arcs inside a parallelogram joining the two pairs of opposite sides must meet.
pub fn legs_cross_certified(
    (a0, a1, ra): (Point, Point, f64),
    (b0, b1, rb): (Point, Point, f64),
) -> bool {
    let m = max_abs(&[a0, a1, b0, b1]);
    // Signed distances are computed in floating point: a cross product of differences and a
    // division by a norm, each off by a few units of `u m`; the slack covers it.
    let margin = (ra + rb) * (1.0 + 16.0 * f64::EPSILON) + 64.0 * f64::EPSILON * m;
    let opposite = |p: Point, q: Point, x0: Point, x1: Point| -> bool {
        let d = q - p;
        let len = d.norm();
        if len.is_nan() || len <= 0.0 {
            return false;
        }
        let s0 = d.perp(&(x0 - p)) / len;
        let s1 = d.perp(&(x1 - p)) / len;
        (s0 > margin && s1 < -margin) || (s0 < -margin && s1 > margin)
    };
    opposite(b0, b1, a0, a1) && opposite(a0, a1, b0, b1)
}

/// The verdict for one leg of one tube against one leg of another.
pub fn leg_verdict(a: (Point, Point, f64), b: (Point, Point, f64)) -> Verdict {
    let (a0, a1, ra) = a;
    let (b0, b1, rb) = b;
    match segment_segment(a0, a1, b0, b1) {
        Verdict::Apart(d) => {
            if ra == 0.0 && rb == 0.0 {
                Verdict::Apart(d)
            } else if d - (ra + rb) > 0.0 {
                // `ra + rb` rather than `d - ra - rb`: the bound is then symmetric bit for bit.
                Verdict::Apart(d - (ra + rb))
            } else {
                Verdict::Uncertain
            }
        }
        _ => {
            if (ra == 0.0 && rb == 0.0) || legs_cross_certified(a, b) {
                Verdict::Intersect
            } else {
                Verdict::Uncertain
            }
        }
    }
}

/// Legs per bounding box in [`verdict`]'s branch and bound.
const CHUNK: usize = 8;

struct Chunk {
    lo: usize,
    hi: usize,
    min: Point,
    max: Point,
}

fn chunks(t: &Tube<'_>) -> Vec<Chunk> {
    let n = t.n_legs();
    let mut res = Vec::with_capacity(n.div_ceil(CHUNK));
    let mut lo = 0;
    while lo < n {
        let hi = (lo + CHUNK).min(n);
        let (mut min, mut max) = (t.leg(lo).0, t.leg(lo).0);
        for j in lo..hi {
            let (p, q, _) = t.leg(j);
            for x in [p, q] {
                min = Point::new(min.x.min(x.x), min.y.min(x.y));
                max = Point::new(max.x.max(x.x), max.y.max(x.y));
            }
        }
        res.push(Chunk { lo, hi, min, max });
        lo = hi;
    }
    res
}

/// Distance between the bounding boxes of two legs.
fn leg_box_gap(a: &(Point, Point, f64), b: &(Point, Point, f64)) -> f64 {
    let dx = (a.0.x.min(a.1.x) - b.0.x.max(b.1.x))
        .max(b.0.x.min(b.1.x) - a.0.x.max(a.1.x))
        .max(0.0);
    let dy = (a.0.y.min(a.1.y) - b.0.y.max(b.1.y))
        .max(b.0.y.min(b.1.y) - a.0.y.max(a.1.y))
        .max(0.0);
    dx.hypot(dy)
}

fn box_distance(a: &Chunk, b: &Chunk) -> f64 {
    let dx = (a.min.x - b.max.x).max(b.min.x - a.max.x).max(0.0);
    let dy = (a.min.y - b.max.y).max(b.min.y - a.max.y).max(0.0);
    dx.hypot(dy)
}

/// The certified verdict for two tubes (two curves given by refined polygons, a curve and a
/// spot centre, a curve and an exact polyline...).
///
/// # Returns
/// - `Apart(lb)`: every pair of legs is certified apart; the curves are at least `lb` apart,
///   `lb = min (d_leg_pair - r_a - r_b) > 0` (for two exact polylines `lb ≥ 0` and the
///   polylines are disjoint).
/// - `Intersect`: some pair of legs certainly crosses ([`legs_cross_certified`]), or, for
///   exact polylines, some legs share a point.
/// - `Uncertain`: neither; refine the tubes and ask again.
///
/// Curves that share an end point (two curves at one spot) always meet there; ask about the
/// parts away from the spot instead.
///
/// # Complexity
/// `O(n m)` in the worst case for `n` and `m` legs, usually far less: legs are grouped in
/// bounding boxes of eight and box pairs are visited by increasing distance until none can
/// lower the bound.
pub fn verdict(a: Tube<'_>, b: Tube<'_>) -> Verdict {
    let ca = chunks(&a);
    let cb = chunks(&b);
    let m = max_abs(a.points).max(max_abs(b.points));
    let r_sum = a.max_radius() + b.max_radius();
    let mut pairs: Vec<(f64, usize, usize)> = Vec::with_capacity(ca.len() * cb.len());
    for (i, x) in ca.iter().enumerate() {
        for (j, y) in cb.iter().enumerate() {
            pairs.push((box_distance(x, y), i, j));
        }
    }
    pairs.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = f64::INFINITY;
    let mut uncertain = false;
    for &(bd, i, j) in &pairs {
        // Every leg pair of this and later box pairs is at least `bd_lb` apart.
        let bd_lb = bd - distance_allowance(m, bd);
        if bd_lb - r_sum > 0.0 && bd_lb - r_sum >= best {
            break;
        }
        for la in ca[i].lo..ca[i].hi {
            let leg_a = a.leg(la);
            for lb in cb[j].lo..cb[j].hi {
                let leg_b = b.leg(lb);
                // Quick reject: a leg pair whose boxes are farther apart than the best bound
                // (plus both radii) can neither lower the bound nor be undecided.
                let gap = leg_box_gap(&leg_a, &leg_b);
                let gap_lb = gap - distance_allowance(m, gap) - (leg_a.2 + leg_b.2);
                if gap_lb > 0.0 && gap_lb >= best {
                    continue;
                }
                match leg_verdict(leg_a, leg_b) {
                    Verdict::Intersect => return Verdict::Intersect,
                    Verdict::Uncertain => uncertain = true,
                    Verdict::Apart(d) => best = best.min(d),
                }
            }
        }
    }
    if uncertain {
        Verdict::Uncertain
    } else {
        Verdict::Apart(best)
    }
}

/// Exact polyline against exact polyline (a polygon is a polyline whose last point repeats its
/// first): `Intersect` if any two legs share a point, else `Apart` with a certified lower bound
/// on the distance. Decided exactly, never `Uncertain`.
///
/// # Errors
/// [`TubeError::Empty`] or [`TubeError::NonFinitePoint`].
pub fn polyline_polyline(a: &[Point], b: &[Point]) -> Result<Verdict, TubeError> {
    Ok(verdict(Tube::exact(a)?, Tube::exact(b)?))
}
