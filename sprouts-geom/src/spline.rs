//! Piecewise cubic splines in Bézier form with a parameter length per piece: validation,
//! evaluation, local refinement, cutting, re-joining and knot removal.

use crate::approx;
use crate::{CubicBez, Point, Vector};

/// One cubic piece of a [`Spline`] with its parameter length `h`.
///
/// The spline's global parameter `u` runs over `[u_i, u_i + h]` on this piece, with
/// `u = u_i + t h` for the piece's own parameter `t`. Smoothness (C¹, C²) is meant with respect
/// to `u`, so derivatives of the piece are divided by `h` (first) and `h²` (second).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    /// The cubic.
    pub bez: CubicBez,
    /// Parameter length, roughly the piece's arc length. Must be positive and finite.
    pub h: f64,
}

impl Piece {
    /// A piece from its cubic and parameter length.
    pub const fn new(bez: CubicBez, h: f64) -> Piece {
        Piece { bez, h }
    }
}

/// A position on a spline: piece index (position in [`Spline::pieces`]) and the piece's own
/// parameter `t` in `[0, 1]`.
///
/// A piece index is a position in the piece sequence, not a stable id: [`Spline::refine`]
/// shifts the indices of the pieces after the one it cuts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplineParam {
    /// Index of the piece.
    pub piece: usize,
    /// Parameter within the piece, in `[0, 1]`.
    pub t: f64,
}

/// Why a spline could not be built or changed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SplineError {
    /// A spline needs at least one piece.
    #[error("a spline needs at least one piece")]
    Empty,
    /// A control point has a NaN or infinite coordinate.
    #[error("piece {piece} has a non-finite control point")]
    NonFinitePoint {
        /// Index of the offending piece.
        piece: usize,
    },
    /// A parameter length is not positive and finite.
    #[error("piece {piece} has parameter length {h}, which is not positive and finite")]
    BadParameterLength {
        /// Index of the offending piece.
        piece: usize,
        /// The rejected value.
        h: f64,
    },
    /// Consecutive pieces do not share their end point exactly.
    #[error("piece {piece} ends at {end:?} but piece {} starts at {start:?}", piece + 1)]
    Gap {
        /// Index of the piece before the gap.
        piece: usize,
        /// End point of that piece.
        end: [f64; 2],
        /// Start point of the next piece.
        start: [f64; 2],
    },
    /// A piece index or parameter is outside the spline.
    #[error("parameter (piece {piece}, t = {t}) is outside the spline of {n_pieces} pieces")]
    OutOfRange {
        /// The requested piece.
        piece: usize,
        /// The requested parameter.
        t: f64,
        /// Number of pieces of the spline.
        n_pieces: usize,
    },
    /// A cut would leave one side empty (it falls on the first or last point).
    #[error("a cut at the spline's end would leave an empty part")]
    CutAtEnd,
    /// An arc length target is outside `(0, length)` or not finite.
    #[error("arc length {target} is outside the open interval (0, {length})")]
    ArcLengthOutOfRange {
        /// The requested arc length.
        target: f64,
        /// The spline's arc length.
        length: f64,
    },
    /// An accuracy or tolerance argument is not positive and finite.
    #[error("accuracy {0} is not positive and finite")]
    BadAccuracy(f64),
    /// The spline is not C² at an inner knot (its de Boor points do not exist).
    #[error("the spline is not C2 at knot {knot}: de Boor estimates differ by {gap}")]
    NotC2 {
        /// The inner knot (between pieces `knot - 1` and `knot`).
        knot: usize,
        /// How far apart the two estimates of the de Boor point are.
        gap: f64,
    },
}

/// How a cut snaps to an existing knot instead of splitting a piece.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Snap {
    /// Never snap: always cut exactly where asked.
    Never,
    /// Snap to the nearer inner knot of the piece being cut if it is within this fraction of the
    /// piece's parameter length (0.15 when a move's curve is cut near its middle).
    FractionOfPiece(f64),
    /// Snap to the nearer inner knot if it is within this parameter distance (about a pixel
    /// when a spot slides, since parameter lengths are roughly arc lengths).
    Parameter(f64),
}

/// The fraction of a piece's parameter length within which [`Spline::cut_near_middle`] uses an
/// existing knot, so that no very short piece is made.
pub const MIDDLE_CUT_SNAP: f64 = 0.15;

/// The result of cutting a spline in two.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    /// The part from the spline's start to the cut point.
    pub first: Spline,
    /// The part from the cut point to the spline's end.
    pub second: Spline,
    /// The cut point.
    pub point: Point,
    /// Where the cut was made on the original spline (`t` is 0 when it snapped to a knot).
    pub at: SplineParam,
    /// Whether the cut snapped to an existing knot (no piece was split).
    pub snapped: bool,
}

/// Continuity defects at one inner knot, measured with respect to the global parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnotContinuity {
    /// `|p'_left(u) - p'_right(u)|`: zero for a C¹ join.
    pub first_derivative_gap: f64,
    /// `|p''_left(u) - p''_right(u)|`: zero for a C² join.
    pub second_derivative_gap: f64,
}

/// A spline: a non-empty sequence of cubic [`Piece`]s, each ending exactly where the next
/// begins.
///
/// Invariants (checked by [`Spline::new`] and by deserialisation): at least one piece, all
/// coordinates finite, all parameter lengths positive and finite, and consecutive pieces share
/// their end point bit for bit. Smoothness is not an invariant (a spline may have C¹ or even
/// C⁰ joins); [`Spline::continuity`] measures it.
///
/// Editing operations never change the traced curve except where documented: [`Spline::refine`]
/// and the cuts split pieces by de Casteljau subdivision, [`Spline::remove_knot`] merges two
/// pieces only when that reproduces them within a given accuracy.
///
/// # Equality
/// `==` is structural: the same pieces with the same numbers. The same curve cut into pieces
/// differently (after [`Spline::refine`], say) is a different spline.
#[derive(Clone, Debug, PartialEq)]
pub struct Spline {
    pieces: Vec<Piece>,
}

impl Spline {
    /// The polyline `points` as a spline of straight pieces, each parametrised by its length.
    ///
    /// # Errors
    /// As [`Spline::new`]: fewer than two points, a point not finite, or two points equal
    /// (a piece of length zero).
    pub fn polyline(points: &[Point]) -> Result<Spline, SplineError> {
        Spline::new(
            points
                .windows(2)
                .map(|w| Piece::new(CubicBez::line(w[0], w[1]), (w[1] - w[0]).norm()))
                .collect(),
        )
    }

    /// Builds a spline, checking the invariants.
    ///
    /// # Errors
    /// [`SplineError::Empty`], [`SplineError::NonFinitePoint`],
    /// [`SplineError::BadParameterLength`] or [`SplineError::Gap`] naming the first bad piece.
    pub fn new(pieces: Vec<Piece>) -> Result<Spline, SplineError> {
        if pieces.is_empty() {
            return Err(SplineError::Empty);
        }
        for (i, piece) in pieces.iter().enumerate() {
            if !piece.bez.is_finite() {
                return Err(SplineError::NonFinitePoint { piece: i });
            }
            if !(piece.h.is_finite() && piece.h > 0.0) {
                return Err(SplineError::BadParameterLength {
                    piece: i,
                    h: piece.h,
                });
            }
        }
        for (i, w) in pieces.windows(2).enumerate() {
            if w[0].bez.p3 != w[1].bez.p0 {
                return Err(SplineError::Gap {
                    piece: i,
                    end: [w[0].bez.p3.x, w[0].bez.p3.y],
                    start: [w[1].bez.p0.x, w[1].bez.p0.y],
                });
            }
        }
        Ok(Spline { pieces })
    }

    /// A one-piece spline.
    ///
    /// # Errors
    /// As [`Spline::new`].
    pub fn from_cubic(bez: CubicBez, h: f64) -> Result<Spline, SplineError> {
        Spline::new(vec![Piece::new(bez, h)])
    }

    /// The pieces, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Number of pieces (at least 1).
    pub fn n_pieces(&self) -> usize {
        self.pieces.len()
    }

    /// First point.
    pub fn start(&self) -> Point {
        self.pieces[0].bez.p0
    }

    /// Last point.
    pub fn end(&self) -> Point {
        self.pieces[self.pieces.len() - 1].bez.p3
    }

    /// The sum of the parameter lengths: the global parameter runs over `[0, param_length()]`.
    pub fn param_length(&self) -> f64 {
        self.pieces.iter().map(|p| p.h).sum()
    }

    /// The bounding box of all control points, `(min, max)`: the curve lies inside it (convex
    /// hull property).
    pub fn control_bounds(&self) -> (Point, Point) {
        let first = self.start();
        self.pieces
            .iter()
            .flat_map(|p| p.bez.points())
            .fold((first, first), |(lo, hi), q| {
                (
                    Point::new(lo.x.min(q.x), lo.y.min(q.y)),
                    Point::new(hi.x.max(q.x), hi.y.max(q.y)),
                )
            })
    }

    /// The global parameters of the knots: `n_pieces() + 1` values from 0 to
    /// `param_length()`.
    pub fn knots(&self) -> Vec<f64> {
        let mut acc = 0.0;
        let mut res = Vec::with_capacity(self.pieces.len() + 1);
        res.push(0.0);
        for piece in &self.pieces {
            acc += piece.h;
            res.push(acc);
        }
        res
    }

    /// The position of global parameter `u` (clamped to the spline).
    pub fn locate(&self, u: f64) -> SplineParam {
        let mut start = 0.0;
        let last = self.pieces.len() - 1;
        for (i, piece) in self.pieces.iter().enumerate() {
            if u < start + piece.h || i == last {
                let t = ((u - start) / piece.h).clamp(0.0, 1.0);
                return SplineParam { piece: i, t };
            }
            start += piece.h;
        }
        unreachable!("the last piece always matches")
    }

    /// The global parameter of a position.
    pub fn global_param(&self, at: SplineParam) -> f64 {
        let before: f64 = self.pieces[..at.piece].iter().map(|p| p.h).sum();
        before + at.t * self.pieces[at.piece].h
    }

    /// The point at a position.
    ///
    /// # Panics
    /// If `at.piece` is not a piece index.
    pub fn eval(&self, at: SplineParam) -> Point {
        self.pieces[at.piece].bez.eval(at.t)
    }

    /// The point at global parameter `u` (clamped to the spline).
    pub fn eval_global(&self, u: f64) -> Point {
        self.eval(self.locate(u))
    }

    /// The derivative with respect to the global parameter (`p'(t) / h`).
    ///
    /// # Panics
    /// If `at.piece` is not a piece index.
    pub fn deriv(&self, at: SplineParam) -> Vector {
        let piece = &self.pieces[at.piece];
        piece.bez.deriv(at.t) / piece.h
    }

    /// The second derivative with respect to the global parameter (`p''(t) / h²`).
    ///
    /// # Panics
    /// If `at.piece` is not a piece index.
    pub fn deriv2(&self, at: SplineParam) -> Vector {
        let piece = &self.pieces[at.piece];
        piece.bez.deriv2(at.t) / (piece.h * piece.h)
    }

    /// The direction in which the curve leaves its start: the first non-zero difference of
    /// control points of the first piece (`b1 - b0`, else `b2 - b0`, else `b3 - b0`), which is
    /// the direction of the tangent even when `b1 = b0`. `None` if the first piece is a single
    /// point.
    pub fn start_direction(&self) -> Option<Vector> {
        let b = &self.pieces[0].bez;
        [b.p1 - b.p0, b.p2 - b.p0, b.p3 - b.p0]
            .into_iter()
            .find(|d| *d != Vector::zeros())
    }

    /// The direction in which the curve arrives at its end (pointing forwards along the curve).
    /// `None` if the last piece is a single point.
    pub fn end_direction(&self) -> Option<Vector> {
        let b = &self.pieces[self.pieces.len() - 1].bez;
        [b.p3 - b.p2, b.p3 - b.p1, b.p3 - b.p0]
            .into_iter()
            .find(|d| *d != Vector::zeros())
    }

    /// Continuity defects at inner knot `k` (between pieces `k - 1` and `k`), for
    /// `1 ≤ k < n_pieces()`.
    ///
    /// # Panics
    /// If `k` is not an inner knot.
    pub fn continuity(&self, k: usize) -> KnotContinuity {
        assert!(
            k >= 1 && k < self.pieces.len(),
            "knot {k} is not an inner knot"
        );
        let left = SplineParam {
            piece: k - 1,
            t: 1.0,
        };
        let right = SplineParam { piece: k, t: 0.0 };
        KnotContinuity {
            first_derivative_gap: (self.deriv(left) - self.deriv(right)).norm(),
            second_derivative_gap: (self.deriv2(left) - self.deriv2(right)).norm(),
        }
    }

    /// Cuts piece `piece` in two at its parameter `t` by de Casteljau subdivision, without
    /// changing the curve; the halves get parameter lengths `t h` and `(1 - t) h`, so the
    /// global parametrisation, and with it C¹/C² smoothness, is unchanged.
    ///
    /// # Errors
    /// [`SplineError::OutOfRange`] unless `piece` is a piece index and `0 < t < 1`.
    pub fn refine(&mut self, piece: usize, t: f64) -> Result<(), SplineError> {
        if piece >= self.pieces.len() || !(t > 0.0 && t < 1.0) {
            return Err(SplineError::OutOfRange {
                piece,
                t,
                n_pieces: self.pieces.len(),
            });
        }
        let old = self.pieces[piece];
        let (a, b) = old.bez.split(t);
        let (ha, hb) = (t * old.h, (1.0 - t) * old.h);
        if !(ha > 0.0 && hb > 0.0) {
            return Err(SplineError::OutOfRange {
                piece,
                t,
                n_pieces: self.pieces.len(),
            });
        }
        self.pieces[piece] = Piece::new(a, ha);
        self.pieces.insert(piece + 1, Piece::new(b, hb));
        Ok(())
    }

    /// Cuts the spline in two at `at`, snapping to an inner knot of the same piece according to
    /// `snap`. The two parts trace exactly the original curve.
    ///
    /// # Errors
    /// [`SplineError::OutOfRange`] for a bad position; [`SplineError::CutAtEnd`] if the cut
    /// (after snapping) falls on the first or last point.
    pub fn cut_at(&self, at: SplineParam, snap: Snap) -> Result<Cut, SplineError> {
        let n = self.pieces.len();
        if at.piece >= n || !(0.0..=1.0).contains(&at.t) {
            return Err(SplineError::OutOfRange {
                piece: at.piece,
                t: at.t,
                n_pieces: n,
            });
        }
        let h = self.pieces[at.piece].h;
        let limit = match snap {
            Snap::Never => 0.0,
            Snap::FractionOfPiece(f) => f * h,
            Snap::Parameter(d) => d,
        };
        // Distances in parameter to the piece's start and end knots, when those are inner
        // knots (snapping to the spline's own ends would leave an empty part).
        let to_start = (at.piece > 0).then_some(at.t * h);
        let to_end = (at.piece + 1 < n).then_some((1.0 - at.t) * h);
        let snap_to = match (to_start, to_end) {
            (Some(a), Some(b)) if a.min(b) <= limit => Some(if a <= b { 0.0 } else { 1.0 }),
            (Some(a), None) if a <= limit => Some(0.0),
            (None, Some(b)) if b <= limit => Some(1.0),
            _ => None,
        };
        let (t, snapped) = match snap_to {
            Some(t) => (t, true),
            None => (at.t, false),
        };
        // Normalise a knot to "start of piece k".
        let (knot_piece, t) = if t >= 1.0 {
            (at.piece + 1, 0.0)
        } else {
            (at.piece, t)
        };
        if t <= 0.0 {
            if knot_piece == 0 || knot_piece >= n {
                return Err(SplineError::CutAtEnd);
            }
            let first = Spline {
                pieces: self.pieces[..knot_piece].to_vec(),
            };
            let second = Spline {
                pieces: self.pieces[knot_piece..].to_vec(),
            };
            return Ok(Cut {
                point: second.start(),
                first,
                second,
                at: SplineParam {
                    piece: knot_piece,
                    t: 0.0,
                },
                snapped,
            });
        }
        let piece = self.pieces[knot_piece];
        let (a, b) = piece.bez.split(t);
        let (ha, hb) = (t * piece.h, (1.0 - t) * piece.h);
        if !(ha > 0.0 && hb > 0.0) {
            return Err(SplineError::CutAtEnd);
        }
        let mut first: Vec<Piece> = self.pieces[..knot_piece].to_vec();
        first.push(Piece::new(a, ha));
        let mut second = vec![Piece::new(b, hb)];
        second.extend_from_slice(&self.pieces[knot_piece + 1..]);
        Ok(Cut {
            point: a.p3,
            first: Spline { pieces: first },
            second: Spline { pieces: second },
            at: SplineParam {
                piece: knot_piece,
                t,
            },
            snapped,
        })
    }

    /// Cuts the spline where the arc length from its start reaches `target` (found to within
    /// `accuracy`), snapping according to `snap`.
    ///
    /// # Errors
    /// [`SplineError::BadAccuracy`], [`SplineError::ArcLengthOutOfRange`] unless
    /// `0 < target < arc length`, and the errors of [`Spline::cut_at`].
    pub fn cut_at_arc_length(
        &self,
        target: f64,
        snap: Snap,
        accuracy: f64,
    ) -> Result<Cut, SplineError> {
        let at = approx::param_at_arc_length(self, target, accuracy)?;
        self.cut_at(at, snap)
    }

    /// Cuts a move's curve near half its arc length, using an existing knot instead when one is
    /// within [`MIDDLE_CUT_SNAP`] (15%) of its piece's parameter length, so that no very short
    /// piece is made. The new spot goes at [`Cut::point`].
    ///
    /// # Errors
    /// As [`Spline::cut_at_arc_length`]; a spline of zero length cannot be cut.
    pub fn cut_near_middle(&self, accuracy: f64) -> Result<Cut, SplineError> {
        let length = approx::arc_length(self, accuracy)?;
        self.cut_at_arc_length(
            0.5 * length,
            Snap::FractionOfPiece(MIDDLE_CUT_SNAP),
            accuracy,
        )
    }

    /// Re-joins two curves that were one spline (or any two splines where `first` ends exactly
    /// where `second` starts). The knot at the join is kept; [`Spline::remove_knot`] can merge
    /// the pieces around it again when they are one cubic.
    ///
    /// # Errors
    /// [`SplineError::Gap`] if `first.end() != second.start()`.
    pub fn join(first: &Spline, second: &Spline) -> Result<Spline, SplineError> {
        if first.end() != second.start() {
            return Err(SplineError::Gap {
                piece: first.pieces.len() - 1,
                end: [first.end().x, first.end().y],
                start: [second.start().x, second.start().y],
            });
        }
        let mut pieces = first.pieces.clone();
        pieces.extend_from_slice(&second.pieces);
        Ok(Spline { pieces })
    }

    /// Moves the cut between two curves that were one spline (a spot sliding along its move's
    /// curve): joins them, merges the pieces at the old cut again if they are one cubic (within
    /// `1e-9` of the curve's size, the rounding of the earlier cut, so that repeated slides do
    /// not pile up knots), and cuts where the arc length from the start of
    /// `first` reaches `target`, snapping to a knot according to `snap` (about a pixel,
    /// [`Snap::Parameter`]`(1.0)`, when sliding). The curve moves by at most the merge
    /// tolerance.
    ///
    /// # Errors
    /// As [`Spline::join`] and [`Spline::cut_at_arc_length`].
    pub fn recut(
        first: &Spline,
        second: &Spline,
        target: f64,
        snap: Snap,
        accuracy: f64,
    ) -> Result<Cut, SplineError> {
        let mut joined = Spline::join(first, second)?;
        let size = joined
            .pieces
            .iter()
            .map(|p| p.bez.max_abs_coord())
            .fold(0.0, f64::max);
        joined.remove_knot(first.pieces.len(), 1e-9 * size.max(1.0))?;
        joined.cut_at_arc_length(target, snap, accuracy)
    }

    /// Merges pieces `k - 1` and `k` into one cubic if they are (within `accuracy`) the two
    /// halves of one cubic split at `h_{k-1} / (h_{k-1} + h_k)`; returns whether it did.
    ///
    /// The merged cubic `M` is the one whose subdivision has the same outer control points and
    /// end derivatives; it replaces the two pieces only when subdividing `M` reproduces every
    /// control point of both within `accuracy`, so the curve moves by at most `accuracy`.
    ///
    /// # Errors
    /// [`SplineError::OutOfRange`] unless `1 ≤ k < n_pieces()`; [`SplineError::BadAccuracy`].
    pub fn remove_knot(&mut self, k: usize, accuracy: f64) -> Result<bool, SplineError> {
        if !(accuracy.is_finite() && accuracy >= 0.0) {
            return Err(SplineError::BadAccuracy(accuracy));
        }
        if k == 0 || k >= self.pieces.len() {
            return Err(SplineError::OutOfRange {
                piece: k,
                t: 0.0,
                n_pieces: self.pieces.len(),
            });
        }
        let (a, b) = (self.pieces[k - 1], self.pieces[k]);
        let h = a.h + b.h;
        let tau = a.h / h;
        let m = CubicBez::new(
            a.bez.p0,
            a.bez.p0 + (a.bez.p1 - a.bez.p0) / tau,
            b.bez.p3 + (b.bez.p2 - b.bez.p3) / (1.0 - tau),
            b.bez.p3,
        );
        let (ma, mb) = m.split(tau);
        let err = ma
            .points()
            .iter()
            .zip(a.bez.points().iter())
            .chain(mb.points().iter().zip(b.bez.points().iter()))
            .map(|(x, y)| (x - y).norm())
            .fold(0.0, f64::max);
        if err.is_nan() || err > accuracy || !m.is_finite() {
            return Ok(false);
        }
        self.pieces[k - 1] = Piece::new(m, h);
        self.pieces.remove(k);
        Ok(true)
    }

    /// The same curve traced backwards (pieces and parameter lengths reversed).
    pub fn reversed(&self) -> Spline {
        Spline {
            pieces: self
                .pieces
                .iter()
                .rev()
                .map(|p| Piece::new(p.bez.reversed(), p.h))
                .collect(),
        }
    }

    /// Sets the parameter lengths exactly (conversions compute them as knot differences, which
    /// can round); the curve is unchanged.
    pub(crate) fn set_parameter_lengths(&mut self, h: &[f64]) {
        debug_assert_eq!(h.len(), self.pieces.len(), "one length per piece");
        for (piece, &x) in self.pieces.iter_mut().zip(h) {
            piece.h = x;
        }
    }

    /// Builds a spline from pieces that are known to satisfy the invariants.
    pub(crate) fn from_pieces_unchecked(pieces: Vec<Piece>) -> Spline {
        debug_assert!(Spline::new(pieces.clone()).is_ok(), "spline invariants");
        Spline { pieces }
    }
}
