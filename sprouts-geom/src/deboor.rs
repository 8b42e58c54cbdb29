//! De Boor points: a C² spline as a clamped cubic B-spline (knot intervals and control points),
//! for editing a curve while it stays C² (moving de Boor points moves the curve smoothly).

use crate::bspline::{BSpline, clamped_knots};
use crate::{Point, Spline, SplineError};

/// A C² spline given by its de Boor points: the control points of the clamped cubic B-spline
/// whose knot intervals are the pieces' parameter lengths.
///
/// With `k` pieces there are `k + 3` points. The first two and the last two fix the end points
/// and end directions (`d_1 - d_0` and `d_{k+2} - d_{k+1}` point along the curve's tangents),
/// the others shape the inside; every choice of points gives a C² spline, and moving one point
/// changes at most four pieces.
#[derive(Clone, Debug, PartialEq)]
pub struct DeBoor {
    h: Vec<f64>,
    points: Vec<Point>,
}

impl DeBoor {
    /// De Boor points from parameter lengths and points.
    ///
    /// # Errors
    /// [`SplineError::Empty`] without pieces, [`SplineError::BadParameterLength`],
    /// [`SplineError::NonFinitePoint`] (naming the point), or [`SplineError::OutOfRange`] if
    /// there are not exactly `h.len() + 3` points.
    pub fn new(h: Vec<f64>, points: Vec<Point>) -> Result<DeBoor, SplineError> {
        if h.is_empty() {
            return Err(SplineError::Empty);
        }
        if let Some(piece) = h.iter().position(|x| !(x.is_finite() && *x > 0.0)) {
            return Err(SplineError::BadParameterLength { piece, h: h[piece] });
        }
        if points.len() != h.len() + 3 {
            return Err(SplineError::OutOfRange {
                piece: points.len(),
                t: 0.0,
                n_pieces: h.len(),
            });
        }
        if let Some(piece) = points
            .iter()
            .position(|p| !(p.x.is_finite() && p.y.is_finite()))
        {
            return Err(SplineError::NonFinitePoint { piece });
        }
        Ok(DeBoor { h, points })
    }

    /// Parameter lengths of the pieces.
    pub fn h(&self) -> &[f64] {
        &self.h
    }

    /// The de Boor points (`h().len() + 3` of them).
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// Mutable access to the points, to move them (the count cannot change).
    pub fn points_mut(&mut self) -> &mut [Point] {
        &mut self.points
    }

    /// The spline in Bézier form: one piece per knot interval, C² at every inner knot.
    pub fn to_spline(&self) -> Spline {
        let mut breaks = Vec::with_capacity(self.h.len() + 1);
        let mut acc = 0.0;
        breaks.push(acc);
        for h in &self.h {
            acc += h;
            breaks.push(acc);
        }
        let mut s = BSpline {
            knots: clamped_knots(&breaks),
            ctrl: self.points.clone(),
        }
        .to_spline();
        s.set_parameter_lengths(&self.h);
        s
    }
}

impl Spline {
    /// The de Boor points of a C² spline.
    ///
    /// # Errors
    /// [`SplineError::NotC2`] naming the first inner knot where the two neighbouring pieces
    /// disagree about a de Boor point by more than `accuracy` (the spline is not C² there);
    /// [`SplineError::BadAccuracy`].
    ///
    /// # Algorithm
    /// By blossoming, the inner control points of piece `j` divide the segment between de Boor
    /// points `d_{j+1}` and `d_{j+2}` in the ratio `h_{j-1} : h_j : h_{j+1}` (with `h_{-1}` and
    /// `h_k` zero at the clamped ends), which gives `d_{j+1}` and `d_{j+2}` from each piece; each
    /// inner de Boor point is found from both of its pieces, and the two must agree (C. de Boor,
    /// *A Practical Guide to Splines*; L. Ramshaw, *Blossoming: a connect-the-dots approach to
    /// splines*, 1987).
    pub fn to_de_boor(&self, accuracy: f64) -> Result<DeBoor, SplineError> {
        if !(accuracy.is_finite() && accuracy >= 0.0) {
            return Err(SplineError::BadAccuracy(accuracy));
        }
        let pieces = self.pieces();
        let k = pieces.len();
        let h = |j: isize| -> f64 {
            if j < 0 || j >= k as isize {
                0.0
            } else {
                pieces[j as usize].h
            }
        };
        let mut points = Vec::with_capacity(k + 3);
        points.push(pieces[0].bez.p0);
        // From piece j: d_{j+1} (pushed) and d_{j+2} (kept to compare with piece j + 1).
        let mut pending: Option<Point> = None;
        for (j, piece) in pieces.iter().enumerate() {
            let ji = j as isize;
            let (b1, b2) = (piece.bez.p1, piece.bez.p2);
            let ratio = h(ji - 1) / piece.h;
            let d_lo = b1 - (b2 - b1) * ratio;
            let delta = h(ji - 1) + piece.h + h(ji + 1);
            let d_hi = d_lo + (b2 - b1) * (delta / piece.h);
            if let Some(prev) = pending {
                let gap = (prev - d_lo).norm();
                if gap.is_nan() || gap > accuracy {
                    return Err(SplineError::NotC2 { knot: j, gap });
                }
                // The average of the two estimates of the same point.
                points.push(Point::from((prev.coords + d_lo.coords) * 0.5));
            } else {
                points.push(d_lo);
            }
            pending = Some(d_hi);
        }
        points.push(pending.expect("at least one piece"));
        points.push(pieces[k - 1].bez.p3);
        Ok(DeBoor {
            h: pieces.iter().map(|p| p.h).collect(),
            points,
        })
    }
}
