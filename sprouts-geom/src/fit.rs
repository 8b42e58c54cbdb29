//! Least-squares fitting of a clamped C² cubic spline to a polyline, with chord-length
//! parameters, imposed end directions and adaptive knot insertion.

use nalgebra::{DMatrix, DVector};

use crate::bspline::{BSpline, basis, clamped_knots, find_span};
use crate::{Point, Spline, Vector};

/// The tolerance the drawing layer fits to, in pixels.
pub const DRAWING_FIT_TOLERANCE: f64 = 1.5;

/// Why a polyline could not be fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    /// At least two points are needed.
    #[error("a fit needs at least 2 points, got {0}")]
    TooFewPoints(usize),
    /// A point has a NaN or infinite coordinate.
    #[error("point {index} is not finite")]
    NonFinitePoint {
        /// Index of the point.
        index: usize,
    },
    /// All points coincide: there is no curve to fit.
    #[error("all points coincide")]
    ZeroLength,
    /// An end direction is zero or not finite.
    #[error("the {which} direction {dir:?} is zero or not finite")]
    BadDirection {
        /// `"start"` or `"end"`.
        which: &'static str,
        /// The rejected direction.
        dir: [f64; 2],
    },
    /// The tolerance is not positive and finite.
    #[error("tolerance {0} is not positive and finite")]
    BadTolerance(f64),
    /// No knot interval can be split further (every data parameter is a knot) and some point is
    /// still farther than the tolerance. The best fit is attached.
    #[error(
        "could not fit within {tolerance}: best maximum error {max_error} with {pieces} pieces"
    )]
    ToleranceNotMet {
        /// The requested tolerance.
        tolerance: f64,
        /// The best fit's largest point error.
        max_error: f64,
        /// The best fit's number of pieces.
        pieces: usize,
        /// The best fit.
        best: Box<Spline>,
    },
}

/// A fitted spline and how well it fits.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The spline: starts at the first point, ends at the last, leaves in the start direction
    /// and arrives in the end direction, C² at every inner knot.
    pub spline: Spline,
    /// The largest distance between a point `q_j` and the spline at its parameter `u_j`
    /// (an upper bound on the point's distance to the curve).
    pub max_error: f64,
}

/// Fraction of the natural handle length (a third of the first or last knot interval, which
/// gives unit speed) below which an end handle is held fixed instead of fitted: a least-squares
/// handle that would point backwards, or nearly vanish, would break the imposed direction.
const MIN_HANDLE: f64 = 0.1;

/// Fits a clamped C² cubic spline to `points` within `tolerance`.
///
/// # Arguments
/// - `points`: the polyline, at least two points, not all equal.
/// - `start_dir`, `end_dir`: the directions in which the curve must leave the first point and
///   arrive at the last (any non-zero length; only the direction is imposed).
/// - `tolerance`: the largest allowed distance from each point to the curve at the point's
///   parameter ([`DRAWING_FIT_TOLERANCE`] in the drawing layer).
///
/// # Returns
/// A [`Fit`] whose spline interpolates the end points exactly, has end derivatives that are
/// positive multiples of the given directions, is C² at every inner knot, and keeps every
/// point within `tolerance` (at its chord-length parameter). Parameter lengths are the
/// chord lengths of the data between knots, so roughly arc lengths.
///
/// # Errors
/// A [`FitError`] for bad input, or [`FitError::ToleranceNotMet`] (with the best fit) when no
/// knot interval can be split further.
///
/// # Algorithm
/// Chord-length parameters `u_j`; a clamped cubic B-spline with the end points fixed, the
/// second and second-to-last control points constrained to `q_0 + α d_0` and `q_n - β d_1`,
/// and the inner control points free, fitted by linear least squares (normal equations,
/// Cholesky, falling back to SVD for rank deficiency). It starts with a single piece; while
/// some point is out of tolerance, one knot is inserted in the worst-fitting knot interval
/// (largest point error), at the parameter of its middle data point, as in Dierckx's FITPACK
/// (`fpknot`; P. Dierckx, *Curve and Surface Fitting with Splines*, 1993); if that interval has
/// no data point inside, the nearest interval that has one is split. If a fitted
/// handle `α` or `β` comes out below a tenth of its natural length it is held at that length
/// and the rest is refitted, so the end directions always hold.
///
/// # Complexity
/// Per insertion `O(m + k³)` for `m` points and `k` pieces.
pub fn fit_clamped(
    points: &[Point],
    start_dir: Vector,
    end_dir: Vector,
    tolerance: f64,
) -> Result<Fit, FitError> {
    let _span = tracing::debug_span!("fit_clamped", n_points = points.len()).entered();
    if points.len() < 2 {
        return Err(FitError::TooFewPoints(points.len()));
    }
    if let Some(index) = points
        .iter()
        .position(|p| !(p.x.is_finite() && p.y.is_finite()))
    {
        return Err(FitError::NonFinitePoint { index });
    }
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(FitError::BadTolerance(tolerance));
    }
    let d0 = unit(start_dir).ok_or(FitError::BadDirection {
        which: "start",
        dir: [start_dir.x, start_dir.y],
    })?;
    let d1 = unit(end_dir).ok_or(FitError::BadDirection {
        which: "end",
        dir: [end_dir.x, end_dir.y],
    })?;
    let mut params = Vec::with_capacity(points.len());
    let mut acc = 0.0;
    params.push(0.0);
    for w in points.windows(2) {
        acc += (w[1] - w[0]).norm();
        params.push(acc);
    }
    if acc.is_nan() || acc <= 0.0 {
        return Err(FitError::ZeroLength);
    }
    let data = Data {
        points,
        params: &params,
        d0,
        d1,
    };
    let mut breaks = vec![0.0, acc];
    loop {
        let b = data.solve(&breaks);
        let errors: Vec<f64> = points
            .iter()
            .zip(&params)
            .map(|(q, &u)| (b.eval(u) - q).norm())
            .collect();
        let max_error = errors.iter().copied().fold(0.0, f64::max);
        if max_error <= tolerance {
            tracing::debug!(pieces = breaks.len() - 1, max_error, "fit done");
            return Ok(Fit {
                spline: b.to_spline(),
                max_error,
            });
        }
        match worst_splittable(&breaks, &params, &errors, tolerance) {
            Some(u) => {
                let at = breaks.partition_point(|&x| x < u);
                breaks.insert(at, u);
            }
            None => {
                return Err(FitError::ToleranceNotMet {
                    tolerance,
                    max_error,
                    pieces: breaks.len() - 1,
                    best: Box::new(b.to_spline()),
                });
            }
        }
    }
}

fn unit(v: Vector) -> Option<Vector> {
    let n = v.norm();
    (n.is_finite() && n > 0.0).then(|| v / n)
}

/// The knot to insert: the middle data parameter strictly inside the knot interval with the
/// largest point error above `tolerance`, among intervals with a data parameter strictly inside.
/// When every such interval is exhausted (the worst points sit on knots between intervals
/// without inner data), the splittable interval nearest to the worst point is split instead,
/// which adds freedom next to it. `None` when no interval has a data parameter inside.
fn worst_splittable(breaks: &[f64], params: &[f64], errors: &[f64], tolerance: f64) -> Option<f64> {
    let mut best: Option<(f64, f64)> = None;
    let mut nearest: Option<(f64, f64)> = None;
    let (worst_j, _) = errors
        .iter()
        .enumerate()
        .fold(
            (0, f64::NEG_INFINITY),
            |acc, (j, &e)| if e > acc.1 { (j, e) } else { acc },
        );
    let u_worst = params[worst_j];
    for w in breaks.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let first = params.partition_point(|&u| u < lo);
        let last = params.partition_point(|&u| u <= hi);
        let inside: Vec<f64> = params[first..last]
            .iter()
            .copied()
            .filter(|&u| u > lo && u < hi)
            .collect();
        if inside.is_empty() {
            continue;
        }
        let mid = inside[inside.len() / 2];
        let gap = (lo - u_worst).max(u_worst - hi).max(0.0);
        if nearest.is_none_or(|(g, _)| gap < g) {
            nearest = Some((gap, mid));
        }
        let worst = errors[first..last].iter().copied().fold(0.0, f64::max);
        if worst > tolerance && best.is_none_or(|(e, _)| worst > e) {
            best = Some((worst, mid));
        }
    }
    best.or(nearest).map(|(_, u)| u)
}

struct Data<'a> {
    points: &'a [Point],
    params: &'a [f64],
    d0: Vector,
    d1: Vector,
}

impl Data<'_> {
    /// The least-squares B-spline on the given breakpoints, with handles held at their natural
    /// length when the free fit would make them too short or backwards.
    fn solve(&self, breaks: &[f64]) -> BSpline {
        let knots = clamped_knots(breaks);
        let n_ctrl = knots.len() - 4;
        let natural_a = (breaks[1] - breaks[0]) / 3.0;
        let natural_b = (breaks[breaks.len() - 1] - breaks[breaks.len() - 2]) / 3.0;
        let (min_a, min_b) = (MIN_HANDLE * natural_a, MIN_HANDLE * natural_b);
        let mut fixed_a = None;
        let mut fixed_b = None;
        loop {
            let (a, b, inner) = self.least_squares(&knots, n_ctrl, fixed_a, fixed_b);
            let redo_a = fixed_a.is_none() && (a.is_nan() || a < min_a);
            let redo_b = fixed_b.is_none() && (b.is_nan() || b < min_b);
            if !redo_a && !redo_b {
                let (q0, qn) = (self.points[0], self.points[self.points.len() - 1]);
                let mut ctrl = Vec::with_capacity(n_ctrl);
                ctrl.push(q0);
                ctrl.push(q0 + a * self.d0);
                ctrl.extend(inner);
                ctrl.push(qn - b * self.d1);
                ctrl.push(qn);
                return BSpline { knots, ctrl };
            }
            if redo_a {
                fixed_a = Some(min_a.max(f64::MIN_POSITIVE));
            }
            if redo_b {
                fixed_b = Some(min_b.max(f64::MIN_POSITIVE));
            }
        }
    }

    /// Solves for `α`, `β` (unless fixed) and the inner control points.
    fn least_squares(
        &self,
        knots: &[f64],
        n_ctrl: usize,
        fixed_a: Option<f64>,
        fixed_b: Option<f64>,
    ) -> (f64, f64, Vec<Point>) {
        let n = n_ctrl - 1;
        let n_inner = n_ctrl - 4;
        // Unknown layout: [α?] [β?] then x, y of control points 2..=n-2.
        let col_a = fixed_a.is_none().then_some(0);
        let col_b = fixed_b.is_none().then_some(usize::from(fixed_a.is_none()));
        let base = usize::from(fixed_a.is_none()) + usize::from(fixed_b.is_none());
        let k = base + 2 * n_inner;
        let (q0, qn) = (self.points[0], self.points[self.points.len() - 1]);
        let mut ata = DMatrix::<f64>::zeros(k, k);
        let mut atb = DVector::<f64>::zeros(k);
        let mut row: Vec<(usize, f64)> = Vec::with_capacity(4);
        for (q, &u) in self.points.iter().zip(self.params) {
            let span = find_span(knots, n_ctrl, u);
            let w = basis(knots, span, u);
            // Residual target: q minus the fixed contributions.
            let mut target = q.coords;
            for (r, &wr) in w.iter().enumerate() {
                let i = span - 3 + r;
                if i == 0 || i == 1 {
                    target -= wr * q0.coords;
                }
                if i == n || i == n - 1 {
                    target -= wr * qn.coords;
                }
                if let (1, Some(a)) = (i, fixed_a) {
                    target -= wr * a * self.d0;
                }
                if let (true, Some(b)) = (i == n - 1, fixed_b) {
                    target += wr * b * self.d1;
                }
            }
            for dim in 0..2 {
                row.clear();
                for (r, &wr) in w.iter().enumerate() {
                    let i = span - 3 + r;
                    if let (1, Some(c)) = (i, col_a) {
                        row.push((c, wr * self.d0[dim]));
                    }
                    if let (true, Some(c)) = (i == n - 1, col_b) {
                        row.push((c, -wr * self.d1[dim]));
                    }
                    if i >= 2 && i + 2 <= n {
                        row.push((base + 2 * (i - 2) + dim, wr));
                    }
                }
                for &(c1, v1) in &row {
                    atb[c1] += v1 * target[dim];
                    for &(c2, v2) in &row {
                        ata[(c1, c2)] += v1 * v2;
                    }
                }
            }
        }
        let x = match ata.clone().cholesky() {
            Some(ch) => ch.solve(&atb),
            None => ata
                .svd(true, true)
                .solve(&atb, 1e-12)
                .unwrap_or_else(|_| DVector::zeros(k)),
        };
        let a = fixed_a.unwrap_or_else(|| x[col_a.unwrap_or(0)]);
        let b = fixed_b.unwrap_or_else(|| x[col_b.unwrap_or(0)]);
        let inner = (0..n_inner)
            .map(|j| Point::new(x[base + 2 * j], x[base + 2 * j + 1]))
            .collect();
        (a, b, inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sum of squared point errors of a B-spline at the data parameters.
    fn sse(b: &BSpline, points: &[Point], params: &[f64]) -> f64 {
        points
            .iter()
            .zip(params)
            .map(|(q, &u)| (b.eval(u) - q).norm_squared())
            .sum()
    }

    #[test]
    fn least_squares_is_a_minimum() {
        // Perturbing any free parameter (a handle length or an inner control point
        // coordinate) must not lower the sum of squared errors: an optimality check that does
        // not share the normal equations.
        let points: Vec<Point> = (0..60)
            .map(|i| {
                let x = f64::from(i) * 4.0;
                Point::new(x, 40.0 * (x / 50.0).sin() + 10.0 * (x / 13.0).cos())
            })
            .collect();
        let mut params = vec![0.0];
        for w in points.windows(2) {
            params.push(params[params.len() - 1] + (w[1] - w[0]).norm());
        }
        let data = Data {
            points: &points,
            params: &params,
            d0: Vector::new(1.0, 0.5).normalize(),
            d1: Vector::new(1.0, -0.5).normalize(),
        };
        let total = params[params.len() - 1];
        let breaks = [0.0, 0.2 * total, 0.45 * total, 0.7 * total, total];
        let b = data.solve(&breaks);
        let best = sse(&b, &points, &params);
        let n = b.ctrl.len();
        for delta in [1e-3, -1e-3, 0.1, -0.1] {
            // Handles: move along the imposed directions.
            let mut c = b.clone();
            c.ctrl[1] += delta * data.d0;
            assert!(sse(&c, &points, &params) >= best - 1e-9, "alpha + {delta}");
            let mut c = b.clone();
            c.ctrl[n - 2] -= delta * data.d1;
            assert!(sse(&c, &points, &params) >= best - 1e-9, "beta + {delta}");
            for i in 2..n - 2 {
                for dir in [Vector::new(delta, 0.0), Vector::new(0.0, delta)] {
                    let mut c = b.clone();
                    c.ctrl[i] += dir;
                    assert!(
                        sse(&c, &points, &params) >= best - 1e-9,
                        "control point {i}"
                    );
                }
            }
        }
    }
}
