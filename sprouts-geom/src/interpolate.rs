//! Clamped C² cubic interpolation through points with chord-length parameters, with C¹-only
//! joins at chosen points.

use crate::{CubicBez, Piece, Point, Spline, Vector};

/// The condition at one end of an interpolating spline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EndCondition {
    /// Clamped: the derivative with respect to the chord-length parameter is this vector (a
    /// unit vector gives unit speed, the natural choice for a direction).
    Tangent(Vector),
    /// Natural: zero second derivative.
    Natural,
}

/// A point where the spline need only be C¹ (a spot where a third curve leaves, say).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Join {
    /// Index of the point, strictly between the first and the last.
    pub index: usize,
    /// The derivative there; `None` takes Bessel's estimate (the derivative of the parabola
    /// through the point and its two neighbours at their chord-length parameters).
    pub tangent: Option<Vector>,
}

/// Why points could not be interpolated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InterpolateError {
    /// At least two points are needed.
    #[error("interpolation needs at least 2 points, got {0}")]
    TooFewPoints(usize),
    /// A point or tangent has a NaN or infinite coordinate.
    #[error("point or tangent {index} is not finite")]
    NonFinite {
        /// Index of the point (or of the join for a join's tangent).
        index: usize,
    },
    /// Two consecutive points coincide, so the chord-length parameter does not advance.
    #[error("points {index} and {} coincide", index + 1)]
    RepeatedPoint {
        /// Index of the first of the two.
        index: usize,
    },
    /// A join is not at an inner point.
    #[error("join at point {index} is not an inner point of {n_points}")]
    BadJoin {
        /// The join's index.
        index: usize,
        /// Number of points.
        n_points: usize,
    },
}

/// The C² cubic spline through `points` with chord-length parameter lengths, end conditions
/// `start` and `end`, and only C¹ continuity at the `joins`.
///
/// # Returns
/// A spline with one piece per chord; it passes through every point, its parameter lengths are
/// the chord lengths, it is C² (with respect to that parameter) at every inner point that is
/// not a join and C¹ at the joins.
///
/// # Errors
/// [`InterpolateError`] for too few points, non-finite input, coinciding consecutive points or
/// joins that are not at inner points.
///
/// # Algorithm
/// The unknowns are the derivatives `m_i` at the points (Hermite form). C² continuity at an
/// inner point gives `h_i m_{i-1} + 2 (h_{i-1} + h_i) m_i + h_{i-1} m_{i+1} = 3 (h_i δ_{i-1} +
/// h_{i-1} δ_i)` with chords `h_i` and slopes `δ_i`; clamped ends fix `m`, natural ends give
/// `2 m_0 + m_1 = 3 δ_0`. Joins fix `m` too, which splits the system into independent,
/// diagonally dominant tridiagonal systems, solved by the Thomas algorithm (C. de Boor,
/// *A Practical Guide to Splines*, chapter IV).
///
/// # Example
/// ```
/// use sprouts_geom::{EndCondition, Point, interpolate};
/// let pts = [Point::new(0.0, 0.0), Point::new(50.0, 40.0), Point::new(100.0, 0.0)];
/// let s = interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).unwrap();
/// assert_eq!(s.n_pieces(), 2);
/// assert_eq!(s.end(), pts[2]);
/// ```
pub fn interpolate(
    points: &[Point],
    start: EndCondition,
    end: EndCondition,
    joins: &[Join],
) -> Result<Spline, InterpolateError> {
    let n = points.len();
    if n < 2 {
        return Err(InterpolateError::TooFewPoints(n));
    }
    if let Some(index) = points
        .iter()
        .position(|p| !(p.x.is_finite() && p.y.is_finite()))
    {
        return Err(InterpolateError::NonFinite { index });
    }
    for (index, c) in [start, end].iter().enumerate() {
        if let EndCondition::Tangent(v) = c
            && !(v.x.is_finite() && v.y.is_finite())
        {
            return Err(InterpolateError::NonFinite {
                index: index * (n - 1),
            });
        }
    }
    let h: Vec<f64> = points.windows(2).map(|w| (w[1] - w[0]).norm()).collect();
    if let Some(index) = h.iter().position(|&x| x.is_nan() || x <= 0.0) {
        return Err(InterpolateError::RepeatedPoint { index });
    }
    // Conditions per point: `Some(m)` fixes the derivative.
    let mut fixed: Vec<Option<Vector>> = vec![None; n];
    let mut breaks = vec![0];
    let mut sorted: Vec<Join> = joins.to_vec();
    sorted.sort_by_key(|j| j.index);
    for j in &sorted {
        if j.index == 0 || j.index >= n - 1 {
            return Err(InterpolateError::BadJoin {
                index: j.index,
                n_points: n,
            });
        }
        let m = match j.tangent {
            Some(v) if v.x.is_finite() && v.y.is_finite() => v,
            Some(_) => return Err(InterpolateError::NonFinite { index: j.index }),
            None => bessel_tangent(points, &h, j.index),
        };
        fixed[j.index] = Some(m);
        if breaks.last() != Some(&j.index) {
            breaks.push(j.index);
        }
    }
    breaks.push(n - 1);
    let mut m = vec![Vector::zeros(); n];
    for w in breaks.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let left = match fixed[lo] {
            Some(v) => EndCondition::Tangent(v),
            None => start,
        };
        let right = match fixed[hi] {
            Some(v) => EndCondition::Tangent(v),
            None => end,
        };
        solve_run(&points[lo..=hi], &h[lo..hi], left, right, &mut m[lo..=hi]);
    }
    let pieces = (0..n - 1)
        .map(|i| {
            let (a, b) = (points[i], points[i + 1]);
            let bez = CubicBez::new(a, a + h[i] / 3.0 * m[i], b - h[i] / 3.0 * m[i + 1], b);
            Piece::new(bez, h[i])
        })
        .collect();
    Ok(Spline::from_pieces_unchecked(pieces))
}

/// Bessel's tangent at inner point `i`: the derivative at `q_i` of the parabola through
/// `q_{i-1}, q_i, q_{i+1}` at chord-length parameters.
fn bessel_tangent(points: &[Point], h: &[f64], i: usize) -> Vector {
    let (h0, h1) = (h[i - 1], h[i]);
    let d0 = (points[i] - points[i - 1]) / h0;
    let d1 = (points[i + 1] - points[i]) / h1;
    (h1 * d0 + h0 * d1) / (h0 + h1)
}

/// Solves the tridiagonal system for one run of points between fixed conditions.
fn solve_run(
    points: &[Point],
    h: &[f64],
    start: EndCondition,
    end: EndCondition,
    m: &mut [Vector],
) {
    let n = points.len();
    let delta: Vec<Vector> = (0..n - 1)
        .map(|i| (points[i + 1] - points[i]) / h[i])
        .collect();
    // Rows: sub[i] m_{i-1} + diag[i] m_i + sup[i] m_{i+1} = rhs[i].
    let mut sub = vec![0.0; n];
    let mut diag = vec![0.0; n];
    let mut sup = vec![0.0; n];
    let mut rhs = vec![Vector::zeros(); n];
    match start {
        EndCondition::Tangent(v) => {
            diag[0] = 1.0;
            rhs[0] = v;
        }
        EndCondition::Natural => {
            diag[0] = 2.0;
            sup[0] = 1.0;
            rhs[0] = 3.0 * delta[0];
        }
    }
    for i in 1..n - 1 {
        sub[i] = h[i];
        diag[i] = 2.0 * (h[i - 1] + h[i]);
        sup[i] = h[i - 1];
        rhs[i] = 3.0 * (h[i] * delta[i - 1] + h[i - 1] * delta[i]);
    }
    match end {
        EndCondition::Tangent(v) => {
            diag[n - 1] = 1.0;
            rhs[n - 1] = v;
        }
        EndCondition::Natural => {
            sub[n - 1] = 1.0;
            diag[n - 1] = 2.0;
            rhs[n - 1] = 3.0 * delta[n - 2];
        }
    }
    // Thomas algorithm: the matrix is strictly diagonally dominant by rows, so no pivoting.
    for i in 1..n {
        let w = sub[i] / diag[i - 1];
        diag[i] -= w * sup[i - 1];
        let prev = rhs[i - 1];
        rhs[i] -= w * prev;
    }
    m[n - 1] = rhs[n - 1] / diag[n - 1];
    for i in (0..n - 1).rev() {
        m[i] = (rhs[i] - sup[i] * m[i + 1]) / diag[i];
    }
}
