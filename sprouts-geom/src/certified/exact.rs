//! Exact predicates on points: orientation, angular order, segment intersection, point in
//! polygon and the sign of a polygon's area, with Shewchuk's adaptive `orient2d` and exact
//! floating-point expansions.

use crate::Point;

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
pub(super) fn det_sign(a: Point, b: Point, c: Point) -> i8 {
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
