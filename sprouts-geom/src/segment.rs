//! Plain floating-point helpers on segments and polygons: closest points, distances and the
//! signed area. Estimates only; [`crate::certified`] turns them into bounds.

use crate::Point;

/// The point of segment `[a, b]` closest to `p`, as `(s, point)` with `point = a + s (b - a)`
/// and `s` in `[0, 1]`. A degenerate segment (`a = b`) gives `s = 0`.
#[inline]
pub fn closest_on_segment(p: Point, a: Point, b: Point) -> (f64, Point) {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2 <= 0.0 {
        return (0.0, a);
    }
    let s = ((p - a).dot(&ab) / len2).clamp(0.0, 1.0);
    (s, a + s * ab)
}

/// Distance from `p` to segment `[a, b]` in floating point (an estimate; see
/// [`crate::certified::point_segment`] for a certified lower bound). The end points are put in
/// a canonical order first, so the result does not depend on the segment's direction, bit for
/// bit.
#[inline]
pub fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let (a, b) = if (a.x, a.y) <= (b.x, b.y) {
        (a, b)
    } else {
        (b, a)
    };
    (p - closest_on_segment(p, a, b).1).norm()
}

/// The signed area of a closed polygon (the last point joins the first), by the shoelace
/// formula `½ Σ (x_i y_{i+1} - x_{i+1} y_i)`, in floating point.
///
/// With the screen's y axis pointing down, the area is **positive for a polygon that runs
/// clockwise as seen on screen** and negative for one that runs counter-clockwise on screen (the
/// opposite of the mathematical convention with y up). Example: the screen triangle
/// (0, 0) → (10, 0) → (0, 10) goes right, then down-left: clockwise on screen, area +50.
///
/// Use [`crate::certified::area_sign`] when only the sign matters and it must be right.
pub fn signed_area(polygon: &[Point]) -> f64 {
    let n = polygon.len();
    if n < 3 {
        return 0.0;
    }
    // Coordinates relative to the first point keep the products small.
    let o = polygon[0];
    let mut acc = 0.0;
    for i in 1..n - 1 {
        let u = polygon[i] - o;
        let v = polygon[i + 1] - o;
        acc += u.x * v.y - u.y * v.x;
    }
    0.5 * acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_clockwise_triangle_has_positive_area() {
        let tri = [
            Point::new(0.0, 0.0),
            Point::new(10.0, 0.0),
            Point::new(0.0, 10.0),
        ];
        assert_eq!(signed_area(&tri), 50.0);
        let rev = [tri[2], tri[1], tri[0]];
        assert_eq!(signed_area(&rev), -50.0);
    }

    #[test]
    fn closest_point_clamps_to_the_ends() {
        let (a, b) = (Point::new(0.0, 0.0), Point::new(10.0, 0.0));
        assert_eq!(closest_on_segment(Point::new(-5.0, 3.0), a, b), (0.0, a));
        assert_eq!(closest_on_segment(Point::new(15.0, 3.0), a, b), (1.0, b));
        assert_eq!(point_segment_distance(Point::new(4.0, 3.0), a, b), 3.0);
    }
}
