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
//! - Distances between segments and polygons are [`Verdict`]s: `Intersect` when the closed
//!   segments share a point (decided exactly), else `Apart(lb)` with a lower bound `lb` on the
//!   true distance that already absorbs the rounding of its computation.
//! - Distances between *curves* go through [`Tube`]s: a polyline with, per leg, a radius within
//!   which the curve stays (pointwise, leg by leg), such as a [`crate::RefinedPolygon`]. Then
//!   [`verdict`] answers `Apart(lb)` (the curves are at least `lb > 0` apart), `Intersect`
//!   (the curves certainly cross) or `Uncertain` (refine the polygons and ask again).

use crate::Point;
use crate::segment::point_segment_distance;

/// The orientation of three points **as seen on screen** (y axis pointing down).
///
/// `Clockwise` for `a, b, c` means `c` lies to the right of the directed line `a → b` on
/// screen. In the mathematical convention (y up) the names swap: `robust::orient2d > 0`
/// ("counter-clockwise") is `Clockwise` here. This matches [`crate::signed_area`]: a positive
/// area is a clockwise polygon on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// Clockwise on screen (`c` right of `a → b` on screen).
    Clockwise,
    /// Counter-clockwise on screen (`c` left of `a → b` on screen).
    CounterClockwise,
    /// The three points are exactly collinear.
    Collinear,
}

impl Orientation {
    /// The orientation with the roles of clockwise and counter-clockwise exchanged.
    pub fn reversed(self) -> Orientation {
        match self {
            Orientation::Clockwise => Orientation::CounterClockwise,
            Orientation::CounterClockwise => Orientation::Clockwise,
            Orientation::Collinear => Orientation::Collinear,
        }
    }
}

fn coord(p: Point) -> robust::Coord<f64> {
    robust::Coord { x: p.x, y: p.y }
}

/// The exact sign of the determinant `(b - a) × (c - a)` (positive: counter-clockwise in
/// y-up coordinates).
fn det_sign(a: Point, b: Point, c: Point) -> i8 {
    let d = robust::orient2d(coord(a), coord(b), coord(c));
    if d > 0.0 {
        1
    } else if d < 0.0 {
        -1
    } else {
        0
    }
}

/// The exact orientation of `a, b, c` as seen on screen.
///
/// # Example
/// ```
/// use sprouts_geom::{Point, certified::{orient, Orientation}};
/// // Right along the top edge, then down-left: clockwise on a screen whose y axis points down.
/// let o = orient(Point::new(0.0, 0.0), Point::new(10.0, 0.0), Point::new(0.0, 10.0));
/// assert_eq!(o, Orientation::Clockwise);
/// ```
pub fn orient(a: Point, b: Point, c: Point) -> Orientation {
    match det_sign(a, b, c) {
        1 => Orientation::Clockwise,
        -1 => Orientation::CounterClockwise,
        _ => Orientation::Collinear,
    }
}

/// Compares the directions from `center` to `p` and to `q` by angle, exactly: the order of
/// increasing `atan2(dy, dx)` from the direction of +x, which on a screen (y down) runs
/// **clockwise**. Two points in the same direction compare equal; `center` itself (no
/// direction) sorts before every direction.
///
/// This is the order of a rotation system: sorting the first legs of the curves leaving a spot
/// with it is exact, whatever the legs' lengths.
///
/// # Example
/// ```
/// use std::cmp::Ordering;
/// use sprouts_geom::{Point, certified::cmp_around};
/// let c = Point::new(0.0, 0.0);
/// let right = Point::new(5.0, 0.0);
/// let below = Point::new(0.0, 5.0); // y points down: "below" on screen
/// assert_eq!(cmp_around(c, right, below), Ordering::Less);
/// ```
pub fn cmp_around(center: Point, p: Point, q: Point) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    // Half 0: angles in [0, π) (below the centre on screen, or straight right); half 1: the
    // rest. Coordinate comparisons are exact.
    let half = |x: Point| -> Option<u8> {
        if x == center {
            None
        } else if x.y > center.y || (x.y == center.y && x.x > center.x) {
            Some(0)
        } else {
            Some(1)
        }
    };
    match (half(p), half(q)) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) if a != b => a.cmp(&b),
        _ => match det_sign(center, p, q) {
            1 => Ordering::Less,
            -1 => Ordering::Greater,
            _ => Ordering::Equal,
        },
    }
}

/// Whether `p` lies on the closed segment `[a, b]`, exactly.
pub fn point_on_segment(p: Point, a: Point, b: Point) -> bool {
    det_sign(a, b, p) == 0 && in_box(p, a, b)
}

/// Whether `p` lies in the axis-aligned box spanned by `a` and `b` (exact comparisons).
fn in_box(p: Point, a: Point, b: Point) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// Whether the closed segments `[a0, a1]` and `[b0, b1]` share a point, exactly (touching at
/// an end point, collinear overlap and degenerate segments included).
pub fn segments_intersect(a0: Point, a1: Point, b0: Point, b1: Point) -> bool {
    let d1 = det_sign(b0, b1, a0);
    let d2 = det_sign(b0, b1, a1);
    let d3 = det_sign(a0, a1, b0);
    let d4 = det_sign(a0, a1, b1);
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && in_box(a0, b0, b1))
        || (d2 == 0 && in_box(a1, b0, b1))
        || (d3 == 0 && in_box(b0, a0, a1))
        || (d4 == 0 && in_box(b1, a0, a1))
}

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
fn distance_allowance(m: f64, d: f64) -> f64 {
    64.0 * f64::EPSILON * (m + d)
}

fn max_abs(points: &[Point]) -> f64 {
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

/// Where a point is relative to a closed polygon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointLocation {
    /// Inside: the polygon winds around the point a non-zero number of times.
    Inside,
    /// Outside: winding number zero.
    Outside,
    /// Exactly on an edge or a vertex.
    OnBoundary,
}

/// The winding number of a closed polygon (the last point joins the first) around `p`,
/// counted positive for turns that are clockwise on screen; `None` if `p` is exactly on the
/// boundary. Exact.
pub fn winding_number(p: Point, polygon: &[Point]) -> Option<i32> {
    let n = polygon.len();
    let mut wn = 0;
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        if point_on_segment(p, a, b) {
            return None;
        }
        if a.y <= p.y {
            if b.y > p.y && det_sign(a, b, p) > 0 {
                wn += 1;
            }
        } else if b.y <= p.y && det_sign(a, b, p) < 0 {
            wn -= 1;
        }
    }
    Some(wn)
}

/// Point in polygon by the non-zero winding rule (for a simple polygon, the same as even–odd),
/// with exact orientation tests.
pub fn point_in_polygon(p: Point, polygon: &[Point]) -> PointLocation {
    match winding_number(p, polygon) {
        None => PointLocation::OnBoundary,
        Some(0) => PointLocation::Outside,
        Some(_) => PointLocation::Inside,
    }
}

/// The exact sign of a closed polygon's signed area (see [`crate::signed_area`]):
/// `Clockwise` (positive area) for a polygon clockwise on screen, `CounterClockwise` for
/// negative, `Collinear` for exactly zero (degenerate, or cancelling loops).
///
/// # Algorithm
/// Each shoelace term `x_i y_{i+1} - x_{i+1} y_i` is split exactly into four floating-point
/// numbers (two products, each as value plus rounding error, by fused multiply-add), and all
/// are summed exactly into a non-overlapping expansion (Shewchuk 1997, Grow-Expansion with zero
/// elimination); the sign of an expansion is the sign of its largest component. Exact unless a
/// product overflows or underflows (coordinates between about `1e-140` and `1e150` in
/// magnitude, or zero, are safe).
pub fn area_sign(polygon: &[Point]) -> Orientation {
    let n = polygon.len();
    let mut exp: Vec<f64> = Vec::new();
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        let (p, pe) = two_product(a.x, b.y);
        let (q, qe) = two_product(a.y, b.x);
        for x in [pe, -qe, p, -q] {
            grow_expansion(&mut exp, x);
        }
    }
    match exp.last() {
        Some(&x) if x > 0.0 => Orientation::Clockwise,
        Some(&x) if x < 0.0 => Orientation::CounterClockwise,
        _ => Orientation::Collinear,
    }
}

/// `a + b = s + e` exactly (Knuth's Two-Sum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

/// `a b = p + e` exactly (by fused multiply-add).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// Adds `b` to the non-overlapping expansion `e` (components in increasing magnitude),
/// dropping zero components.
fn grow_expansion(e: &mut Vec<f64>, b: f64) {
    let mut q = b;
    let mut k = 0;
    for i in 0..e.len() {
        let (s, h) = two_sum(q, e[i]);
        q = s;
        if h != 0.0 {
            e[k] = h;
            k += 1;
        }
    }
    e.truncate(k);
    if q != 0.0 {
        e.push(q);
    }
}

/// Whether one curve crosses itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simplicity {
    /// The curve is simple: no two of its points coincide (for a closed curve, except its
    /// start and end).
    Simple,
    /// Two parts of the curve certainly cross.
    SelfIntersecting,
    /// Undecided at this refinement; refine and ask again.
    Uncertain,
}

/// Whether the curve of a refined polygon is simple, certified.
///
/// With `closed`, the curve's end is its start (a loop from a spot back to itself) and the
/// last and first sub-pieces are treated as consecutive; without it, the curve's two ends must
/// be apart.
///
/// # Why this is a certificate
/// Consecutive sub-pieces (two neighbours, or one sub-piece alone) are accepted when all their
/// control polygon legs point into one open half-plane `{v : v · n > 0}`: the legs are a
/// third of the hodograph's control points, so the derivative then has a positive component
/// along `n` everywhere, the arc is strictly monotone along `n` and cannot meet itself. A margin
/// covers the rounding of subdivision (the legs of the true sub-pieces differ from the computed
/// ones by at most twice the subdivision allowance). Every other pair of legs must be apart by
/// more than the sum of their bounds ([`leg_verdict`]); a certified crossing of two such legs
/// proves a self-intersection.
pub fn simplicity(poly: &crate::RefinedPolygon, closed: bool) -> Simplicity {
    let pts = poly.points();
    let k = poly.n_legs() / 3;
    let m = max_abs(pts);
    let margin = 2.0 * crate::refine::subdivision_allowance(m, 64);
    let boxes: Vec<(Point, Point)> = (0..k)
        .map(|s| {
            let q = &pts[3 * s..=3 * s + 3];
            let min = q
                .iter()
                .fold(q[0], |a, p| Point::new(a.x.min(p.x), a.y.min(p.y)));
            let max = q
                .iter()
                .fold(q[0], |a, p| Point::new(a.x.max(p.x), a.y.max(p.y)));
            (min, max)
        })
        .collect();
    let r_max = poly.eps();
    let mut uncertain = false;
    for s in 0..k {
        for t in s..k {
            let consecutive = t == s || t == s + 1 || (closed && s == 0 && t == k - 1);
            if consecutive {
                if !monotone(pts, &[s, t], margin) {
                    uncertain = true;
                }
                continue;
            }
            let (a, b) = (boxes[s], boxes[t]);
            let dx = (a.0.x - b.1.x).max(b.0.x - a.1.x).max(0.0);
            let dy = (a.0.y - b.1.y).max(b.0.y - a.1.y).max(0.0);
            let bd = dx.hypot(dy);
            if bd - distance_allowance(m, bd) > 2.0 * r_max {
                continue;
            }
            for la in 3 * s..3 * s + 3 {
                for lb in 3 * t..3 * t + 3 {
                    let (a0, a1) = poly.leg(la);
                    let (b0, b1) = poly.leg(lb);
                    match leg_verdict((a0, a1, poly.leg_eps(la)), (b0, b1, poly.leg_eps(lb))) {
                        Verdict::Apart(_) => {}
                        Verdict::Intersect => {
                            if legs_cross_certified(
                                (a0, a1, poly.leg_eps(la)),
                                (b0, b1, poly.leg_eps(lb)),
                            ) {
                                return Simplicity::SelfIntersecting;
                            }
                            uncertain = true;
                        }
                        Verdict::Uncertain => uncertain = true,
                    }
                }
            }
        }
    }
    if uncertain {
        Simplicity::Uncertain
    } else {
        Simplicity::Simple
    }
}

/// Whether the legs of the given sub-pieces all point into one open half-plane, with `margin`.
fn monotone(pts: &[Point], subs: &[usize], margin: f64) -> bool {
    let legs = || {
        subs.iter()
            .flat_map(|&s| (3 * s..3 * s + 3).map(move |j| pts[j + 1] - pts[j]))
            .filter(|v| *v != crate::Vector::zeros())
    };
    let sum: crate::Vector = legs().map(|v| v / v.norm()).sum();
    let len = sum.norm();
    if len.is_nan() || len <= 0.0 {
        return false;
    }
    let n = sum / len;
    let mut any = false;
    for v in legs() {
        any = true;
        if v.dot(&n) <= margin * (1.0 + 1e-9) + 4.0 * f64::EPSILON * v.norm() {
            return false;
        }
    }
    any
}
