//! Approximate measurements on curves, each with an explicit `accuracy`: arc length, the
//! parameter at an arc length, the nearest point.
//!
//! Nothing here may be used to make a topological decision (crossing, touching, which side);
//! that is what [`crate::certified`] is for. The accuracy arguments are absolute (pixels when
//! coordinates are pixels), and every routine states what it guarantees about them. Guarantees
//! hold in exact arithmetic; rounding adds a few units in the last place of the coordinates.

use crate::segment::closest_on_segment;
use crate::{CubicBez, Point, Spline, SplineError, SplineParam};

/// A default accuracy for measurements in pixel coordinates: a thousandth of a pixel.
pub const DEFAULT_ACCURACY: f64 = 1e-3;

/// Deepest subdivision used by the routines here; a piece halved this often is far below any
/// meaningful accuracy at pixel scale, so the cap only stops runaway work on absurd inputs.
const MAX_DEPTH: u32 = 48;

fn check_accuracy(accuracy: f64) -> Result<(), SplineError> {
    if accuracy.is_finite() && accuracy > 0.0 {
        Ok(())
    } else {
        Err(SplineError::BadAccuracy(accuracy))
    }
}

/// Arc length of a cubic piece, within `accuracy`.
///
/// # Algorithm
/// The arc length lies between the chord length and the control polygon length; the midpoint
/// of the two is Gravesen's estimate, in error by at most half their difference. The piece is
/// halved by de Casteljau subdivision until that half-difference, summed over the parts, is at
/// most `accuracy` (J. Gravesen, *Adaptive subdivision and the length and energy of Bézier
/// curves*, Computational Geometry 8, 1997, 13–31).
///
/// # Returns
/// A value within `accuracy` of the true arc length (in exact arithmetic; NaN if a control
/// point is not finite).
pub fn cubic_arc_length(bez: &CubicBez, accuracy: f64) -> f64 {
    fn rec(bez: &CubicBez, accuracy: f64, depth: u32) -> f64 {
        let lc = bez.chord_length();
        let lp = bez.polygon_length();
        if lp - lc <= 2.0 * accuracy || depth >= MAX_DEPTH {
            return 0.5 * (lc + lp);
        }
        let (a, b) = bez.split(0.5);
        rec(&a, 0.5 * accuracy, depth + 1) + rec(&b, 0.5 * accuracy, depth + 1)
    }
    rec(bez, accuracy, 0)
}

/// Arc length of a spline, within `accuracy` (see [`cubic_arc_length`]).
///
/// # Errors
/// [`SplineError::BadAccuracy`] unless `accuracy` is positive and finite.
pub fn arc_length(spline: &Spline, accuracy: f64) -> Result<f64, SplineError> {
    check_accuracy(accuracy)?;
    let each = accuracy / spline.n_pieces() as f64;
    Ok(spline
        .pieces()
        .iter()
        .map(|p| cubic_arc_length(&p.bez, each))
        .sum())
}

/// The position where the arc length from the spline's start reaches `target`.
///
/// # Returns
/// A position whose arc length from the start is within `accuracy` of `target`.
///
/// # Errors
/// [`SplineError::BadAccuracy`]; [`SplineError::ArcLengthOutOfRange`] unless
/// `0 < target < arc length` (a spline of zero length has no inner arc length).
///
/// # Algorithm
/// Piece lengths locate the piece; inside it, Newton's method on `s(t) - target` with
/// `s'(t) = |p'(t)|`, safeguarded by bisection on a bracket.
pub fn param_at_arc_length(
    spline: &Spline,
    target: f64,
    accuracy: f64,
) -> Result<SplineParam, SplineError> {
    check_accuracy(accuracy)?;
    let n = spline.n_pieces() as f64;
    // A quarter of the accuracy for the pieces before, a quarter for the length inside the
    // piece, half for the root finding.
    let piece_acc = 0.25 * accuracy / n;
    let lengths: Vec<f64> = spline
        .pieces()
        .iter()
        .map(|p| cubic_arc_length(&p.bez, piece_acc))
        .collect();
    let total: f64 = lengths.iter().sum();
    if !(target.is_finite() && target > 0.0 && target < total) {
        return Err(SplineError::ArcLengthOutOfRange {
            target,
            length: total,
        });
    }
    let mut before = 0.0;
    let mut piece = lengths.len() - 1;
    for (i, &len) in lengths.iter().enumerate() {
        if target <= before + len || i + 1 == lengths.len() {
            piece = i;
            break;
        }
        before += len;
    }
    let bez = &spline.pieces()[piece].bez;
    let want = (target - before).clamp(0.0, lengths[piece]);
    let inner_acc = 0.25 * accuracy;
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    let mut t = want / lengths[piece].max(f64::MIN_POSITIVE);
    for _ in 0..100 {
        let s = cubic_arc_length(&bez.subsegment(0.0, t), inner_acc);
        let f = s - want;
        if f.abs() <= 0.5 * accuracy || hi - lo <= f64::EPSILON {
            break;
        }
        if f > 0.0 {
            hi = t;
        } else {
            lo = t;
        }
        let speed = bez.deriv(t).norm();
        let newton = t - f / speed;
        t = if speed > 0.0 && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
    }
    Ok(SplineParam { piece, t })
}

/// The nearest point of a spline to `p`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest {
    /// Where on the spline.
    pub at: SplineParam,
    /// The point of the spline there.
    pub point: Point,
    /// Its distance to the query point.
    pub distance: f64,
}

/// The point of `spline` nearest to `p`, within `accuracy`.
///
/// # Returns
/// A point of the curve whose distance to `p` exceeds the true least distance by at most
/// `accuracy`.
///
/// # Errors
/// [`SplineError::BadAccuracy`] unless `accuracy` is positive and finite.
///
/// # Algorithm
/// Branch and bound on de Casteljau subdivisions: the distance from `p` to a part's control
/// polygon minus the part's Nairn–Peters–Lutterkort bound `ε` is a lower bound on its distance
/// to the part, and the curve point with the same parameter as the nearest polygon point is
/// within `2ε` above it. Parts whose lower bound cannot beat the best point found are dropped;
/// the others are halved until `2ε ≤ accuracy`.
pub fn nearest(spline: &Spline, p: Point, accuracy: f64) -> Result<Nearest, SplineError> {
    check_accuracy(accuracy)?;
    let first = spline.pieces()[0].bez.p0;
    let mut best = Nearest {
        at: SplineParam { piece: 0, t: 0.0 },
        point: first,
        distance: (p - first).norm(),
    };
    // Work items: piece index, parameter interval on the piece, the sub-cubic, depth.
    let mut stack: Vec<(usize, f64, f64, CubicBez, u32)> = spline
        .pieces()
        .iter()
        .enumerate()
        .map(|(i, piece)| (i, 0.0, 1.0, piece.bez, 0))
        .collect();
    while let Some((piece, t0, t1, bez, depth)) = stack.pop() {
        let eps = bez.npl_bound_tight();
        let pts = bez.points();
        let mut poly_best = f64::INFINITY;
        let mut poly_t = 0.0;
        for leg in 0..3 {
            let (s, q) = closest_on_segment(p, pts[leg], pts[leg + 1]);
            let d = (p - q).norm();
            if d < poly_best {
                poly_best = d;
                poly_t = (leg as f64 + s) / 3.0;
            }
        }
        if poly_best - eps >= best.distance - accuracy {
            continue;
        }
        let t = t0 + poly_t * (t1 - t0);
        let q = spline.pieces()[piece].bez.eval(t);
        let d = (p - q).norm();
        if d < best.distance {
            best = Nearest {
                at: SplineParam { piece, t },
                point: q,
                distance: d,
            };
        }
        if 2.0 * eps > accuracy && depth < MAX_DEPTH {
            let (a, b) = bez.split(0.5);
            let tm = 0.5 * (t0 + t1);
            stack.push((piece, t0, tm, a, depth + 1));
            stack.push((piece, tm, t1, b, depth + 1));
        }
    }
    Ok(best)
}
