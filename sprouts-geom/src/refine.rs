//! Refined control polygons: copies of a spline's pieces subdivided until the
//! Nairn–Peters–Lutterkort bound and the leg length are small enough. The basis of every
//! certificate about curves.

use crate::{CubicBez, Point, Spline};

/// Why a refined polygon could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RefineError {
    /// The requested bound is not positive and finite.
    #[error("the bound eps = {0} is not positive and finite")]
    BadEps(f64),
    /// The requested leg length is not positive (it may be infinite: no limit).
    #[error("the longest leg max_leg = {0} is not positive")]
    BadMaxLeg(f64),
    /// Subdivision could not reach the bound (it is below what floating point can certify at
    /// the piece's coordinates).
    #[error("piece {piece} cannot be refined to eps = {eps} at its scale")]
    Unreachable {
        /// Index of the piece.
        piece: usize,
        /// The requested bound.
        eps: f64,
    },
    /// The polygon would have more than [`MAX_LEGS`] legs: `eps` or `max_leg` is far too small
    /// for the size of the curve.
    #[error("refining to eps = {eps}, max_leg = {max_leg} would need more than {MAX_LEGS} legs")]
    TooManyLegs {
        /// The requested bound.
        eps: f64,
        /// The requested longest leg.
        max_leg: f64,
    },
}

/// The most legs a refined polygon may have (about a million, 32 MiB): a guard
/// against requests that would exhaust memory, far above anything a drawing needs.
pub const MAX_LEGS: usize = 1 << 20;

/// Deepest subdivision: each halving divides the bound by about 4 and the legs by about 2, so
/// 60 levels go from any finite input far below any useful bound; reaching it means the bound
/// is smaller than rounding allows.
const MAX_DEPTH: u32 = 60;

/// Rounding allowance for a part obtained by `depth` halvings of a piece whose coordinates are
/// at most `m` in absolute value.
///
/// Every control point made by de Casteljau halving is an average of two points of the convex
/// hull, computed with at most three roundings of relative size `u = f64::EPSILON / 2`, so each
/// level moves a control point by at most `3 u m`, and the curve of a part (a convex
/// combination of its control points) by the same. Evaluating the bound itself (differences,
/// norms, one division) adds a relative error below `8 u`. The allowance `8 u m (depth + 1)`
/// covers both with room to spare.
pub(crate) fn subdivision_allowance(m: f64, depth: u32) -> f64 {
    8.0 * f64::EPSILON * m * f64::from(depth + 1)
}

/// A spline's refined control polygon: the control polygons of subdivided copies of its pieces,
/// joined end to end, with a certified bound per leg.
///
/// # Guarantee
/// The polygon has `3 k + 1` points for `k` sub-pieces. Leg `j` comes from a sub-piece `q`
/// (legs `3i, 3i+1, 3i+2` from the `i`-th sub-piece), and for every `t` in `[j/3, (j+1)/3]`
/// relative to that sub-piece, `|q(t) - ℓ(t)| ≤ leg_eps(j)`, where `ℓ` runs along the leg at
/// constant speed. So the part of the curve belonging to leg `j` stays within `leg_eps(j)` of
/// that leg, every point of the leg is within `leg_eps(j)` of the curve, and if two refined
/// polygons are `d` apart the curves are at least `d - eps_a - eps_b` apart. The bounds include
/// an allowance for the rounding of subdivision.
#[derive(Clone, Debug, PartialEq)]
pub struct RefinedPolygon {
    points: Vec<Point>,
    leg_eps: Vec<f64>,
    leg_piece: Vec<usize>,
    /// Parameter interval on its piece of each sub-piece (one entry per three legs).
    sub_t: Vec<(f64, f64)>,
}

/// Where on the spline a leg of a [`RefinedPolygon`] comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegSpan {
    /// Index of the spline piece.
    pub piece: usize,
    /// Parameter on that piece where the leg's part of the curve starts.
    pub t0: f64,
    /// Parameter on that piece where it ends.
    pub t1: f64,
}

impl RefinedPolygon {
    /// The polygon's vertices (`3 k + 1` of them; every third is a point of the curve).
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// Number of legs (`3 k`).
    pub fn n_legs(&self) -> usize {
        self.leg_eps.len()
    }

    /// Leg `j` as its two end points.
    ///
    /// # Panics
    /// If `j >= n_legs()`.
    pub fn leg(&self, j: usize) -> (Point, Point) {
        (self.points[j], self.points[j + 1])
    }

    /// The certified bound for leg `j` (see the type's guarantee).
    ///
    /// # Panics
    /// If `j >= n_legs()`.
    pub fn leg_eps(&self, j: usize) -> f64 {
        self.leg_eps[j]
    }

    /// All per-leg bounds.
    pub fn leg_eps_all(&self) -> &[f64] {
        &self.leg_eps
    }

    /// The largest per-leg bound: the Hausdorff distance between curve and polygon is at most
    /// this.
    pub fn eps(&self) -> f64 {
        self.leg_eps.iter().copied().fold(0.0, f64::max)
    }

    /// The index of the spline piece leg `j` was cut from (to know which piece to refine
    /// further or to report).
    ///
    /// # Panics
    /// If `j >= n_legs()`.
    pub fn piece_of_leg(&self, j: usize) -> usize {
        self.leg_piece[j]
    }

    /// The part of the spline that leg `j` stands for: the curve there, `p(t)` for `t` in
    /// `[t0, t1]` on piece `piece`, stays within `leg_eps(j)` of the point that runs along the
    /// leg at constant speed over the same interval.
    ///
    /// # Panics
    /// If `j >= n_legs()`.
    pub fn leg_span(&self, j: usize) -> LegSpan {
        let (a, b) = self.sub_t[j / 3];
        let k = (j % 3) as f64;
        LegSpan {
            piece: self.leg_piece[j],
            t0: a + (b - a) * k / 3.0,
            t1: a + (b - a) * (k + 1.0) / 3.0,
        }
    }

    /// The legs as grid segments keyed by `(key, leg index)`, to put many curves into one
    /// [`crate::SegmentGrid`] and find the legs near a new curve.
    pub fn grid_segments<'a, K: Copy + 'a>(
        &'a self,
        key: K,
    ) -> impl Iterator<Item = crate::GridSegment<(K, usize)>> + 'a {
        (0..self.n_legs()).map(move |j| crate::GridSegment {
            key: (key, j),
            a: self.points[j],
            b: self.points[j + 1],
        })
    }

    /// The certified tube around this polygon, for [`crate::certified::verdict`].
    pub fn tube(&self) -> crate::certified::Tube<'_> {
        crate::certified::Tube::per_leg(&self.points, &self.leg_eps)
            .expect("a refined polygon has one bound per leg")
    }
}

/// The refined control polygon of `spline`: each piece is copied and halved by de Casteljau
/// subdivision until its Nairn–Peters–Lutterkort bound (in its tight form,
/// [`CubicBez::npl_bound_tight`], plus a rounding allowance) is at most `eps` and none of its
/// control polygon legs is longer than `max_leg`. The spline itself is not changed.
///
/// # Arguments
/// - `eps`: the bound wanted, positive (pixels when coordinates are pixels).
/// - `max_leg`: the longest leg allowed, positive; `f64::INFINITY` for no limit.
///
/// # Returns
/// A [`RefinedPolygon`]; its [`RefinedPolygon::eps`] is at most `eps`.
///
/// # Errors
/// [`RefineError::BadEps`], [`RefineError::BadMaxLeg`], or [`RefineError::Unreachable`] when
/// `eps` is below what rounding allows at the piece's coordinates.
///
/// # Complexity
/// A piece with bound `ε₀` needs about `log₄(ε₀ / eps)` halvings along its length, so
/// `O(sqrt(ε₀ / eps))` parts; the same for legs with `log₂(leg / max_leg)`.
///
/// # Example
/// ```
/// use sprouts_geom::{CubicBez, Point, Spline, refined_polygon};
/// let bez = CubicBez::new(
///     Point::new(0.0, 0.0), Point::new(30.0, 60.0), Point::new(70.0, -60.0), Point::new(100.0, 0.0),
/// );
/// let spline = Spline::from_cubic(bez, 120.0).unwrap();
/// let poly = refined_polygon(&spline, 0.25, 16.0).unwrap();
/// assert!(poly.eps() <= 0.25);
/// assert_eq!(poly.points().len(), 3 * (poly.n_legs() / 3) + 1);
/// ```
pub fn refined_polygon(
    spline: &Spline,
    eps: f64,
    max_leg: f64,
) -> Result<RefinedPolygon, RefineError> {
    if !(eps.is_finite() && eps > 0.0) {
        return Err(RefineError::BadEps(eps));
    }
    if max_leg.is_nan() || max_leg <= 0.0 {
        return Err(RefineError::BadMaxLeg(max_leg));
    }
    let mut res = RefinedPolygon {
        points: vec![spline.start()],
        leg_eps: Vec::new(),
        leg_piece: Vec::new(),
        sub_t: Vec::new(),
    };
    for (i, piece) in spline.pieces().iter().enumerate() {
        let m = piece.bez.max_abs_coord();
        refine_rec(&piece.bez, (i, 0.0, 1.0), m, 0, eps, max_leg, &mut res)?;
    }
    Ok(res)
}

fn refine_rec(
    bez: &CubicBez,
    (piece, t0, t1): (usize, f64, f64),
    m: f64,
    depth: u32,
    eps: f64,
    max_leg: f64,
    acc: &mut RefinedPolygon,
) -> Result<(), RefineError> {
    let bound =
        bez.npl_bound_tight() * (1.0 + 8.0 * f64::EPSILON) + subdivision_allowance(m, depth);
    let pts = bez.points();
    let legs_ok = (0..3).all(|j| (pts[j + 1] - pts[j]).norm() <= max_leg);
    if bound <= eps && legs_ok {
        for j in 0..3 {
            acc.points.push(pts[j + 1]);
            acc.leg_eps.push(bound);
            acc.leg_piece.push(piece);
        }
        acc.sub_t.push((t0, t1));
        return Ok(());
    }
    if depth >= MAX_DEPTH {
        return Err(RefineError::Unreachable { piece, eps });
    }
    if acc.leg_eps.len() >= MAX_LEGS {
        return Err(RefineError::TooManyLegs { eps, max_leg });
    }
    let (a, b) = bez.split(0.5);
    let tm = 0.5 * (t0 + t1);
    refine_rec(&a, (piece, t0, tm), m, depth + 1, eps, max_leg, acc)?;
    refine_rec(&b, (piece, tm, t1), m, depth + 1, eps, max_leg, acc)
}
