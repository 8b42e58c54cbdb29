//! Cubic Bézier pieces: evaluation, derivatives, de Casteljau subdivision, and the
//! Nairn–Peters–Lutterkort bound on the distance between a piece and its control polygon.

use crate::{Point, Vector};

/// A cubic Bézier piece `p(t) = Σ C(3,k) (1-t)^(3-k) t^k b_k` for `0 ≤ t ≤ 1`.
///
/// The four control points are public: any four points make a valid piece. Routines that need
/// finite coordinates (refinement, fitting, serialisation) check them at the door.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubicBez {
    /// Start point `b0`, where the piece begins (`t = 0`).
    pub p0: Point,
    /// First inner control point `b1`; `3 (b1 - b0)` is the derivative at `t = 0`.
    pub p1: Point,
    /// Second inner control point `b2`; `3 (b3 - b2)` is the derivative at `t = 1`.
    pub p2: Point,
    /// End point `b3`, where the piece ends (`t = 1`).
    pub p3: Point,
}

impl CubicBez {
    /// The piece with control points `p0, p1, p2, p3`.
    pub const fn new(p0: Point, p1: Point, p2: Point, p3: Point) -> CubicBez {
        CubicBez { p0, p1, p2, p3 }
    }

    /// The straight segment from `a` to `b` as a cubic with evenly spaced control points
    /// (so its parameter runs at constant speed).
    pub fn line(a: Point, b: Point) -> CubicBez {
        let d = (b - a) / 3.0;
        CubicBez::new(a, a + d, a + 2.0 * d, b)
    }

    /// The control points as an array `[b0, b1, b2, b3]`.
    pub const fn points(&self) -> [Point; 4] {
        [self.p0, self.p1, self.p2, self.p3]
    }

    /// Whether every coordinate is finite (neither NaN nor infinite).
    pub fn is_finite(&self) -> bool {
        self.points()
            .iter()
            .all(|p| p.x.is_finite() && p.y.is_finite())
    }

    /// The point `p(t)`, computed by de Casteljau's algorithm (numerically stable for
    /// `0 ≤ t ≤ 1`).
    pub fn eval(&self, t: f64) -> Point {
        let mt = 1.0 - t;
        let a = lerp(self.p0, self.p1, t, mt);
        let b = lerp(self.p1, self.p2, t, mt);
        let c = lerp(self.p2, self.p3, t, mt);
        let d = lerp(a, b, t, mt);
        let e = lerp(b, c, t, mt);
        lerp(d, e, t, mt)
    }

    /// The derivative `p'(t)` with respect to the piece's own parameter `t`.
    pub fn deriv(&self, t: f64) -> Vector {
        let mt = 1.0 - t;
        let d0 = self.p1 - self.p0;
        let d1 = self.p2 - self.p1;
        let d2 = self.p3 - self.p2;
        3.0 * (mt * mt * d0 + 2.0 * mt * t * d1 + t * t * d2)
    }

    /// The second derivative `p''(t) = 6 ((1-t) Δ²b0 + t Δ²b1)`.
    pub fn deriv2(&self, t: f64) -> Vector {
        let [s0, s1] = self.second_differences();
        6.0 * ((1.0 - t) * s0 + t * s1)
    }

    /// The second differences `[Δ²b0, Δ²b1] = [b0 - 2b1 + b2, b1 - 2b2 + b3]`.
    ///
    /// They measure how far the piece is from a straight segment traced at constant speed; both
    /// vanish exactly for [`CubicBez::line`].
    pub fn second_differences(&self) -> [Vector; 2] {
        [
            (self.p0 - self.p1) + (self.p2 - self.p1),
            (self.p1 - self.p2) + (self.p3 - self.p2),
        ]
    }

    /// The Nairn–Peters–Lutterkort bound `⅓ max(|Δ²b0|, |Δ²b1|)`.
    ///
    /// # What it bounds
    /// Let `ℓ(t)` be the control polygon parametrised at the Greville abscissae: the
    /// piecewise linear map with `ℓ(i/3) = b_i` for `i = 0..=3`, linear in between. Then for every
    /// `t` in `[0, 1]`, `|p(t) - ℓ(t)| ≤ npl_bound()` in the Euclidean norm. Consequently every
    /// point of the curve lies within this distance of the control polygon and every point of the
    /// control polygon within this distance of the curve (the Hausdorff distance is at most the
    /// bound), and the third of the curve with `t ∈ [i/3, (i+1)/3]` stays within it of leg `i`.
    ///
    /// # Why
    /// `p - ℓ = β₀(t) Δ²b0 + β₁(t) Δ²b1` with `β₀(t) = 3t² - t³ - max(0, 3t - 1)` (which equals
    /// `(1-t)³` for `t ≥ ⅓`) and `β₁(t) = β₀(1 - t)`. Both are non-negative and
    /// `β₀ + β₁ ≤ ⅓`, with equality at `t = ⅓` and `t = ⅔`; the triangle inequality then gives
    /// the bound for vectors. The constant `⌊d/2⌋⌈d/2⌉/(2d) = ⅓` for degree `d = 3` is sharp:
    /// D. Nairn, J. Peters, D. Lutterkort, *Sharp, quantitative bounds on the distance between a
    /// polynomial piece and its Bézier control polygon*, CAGD 16(7), 1999, 613–631. The tests
    /// check both the identity and the bound against dense sampling.
    ///
    /// The bound is computed in floating point; [`crate::refined_polygon`] adds an explicit
    /// allowance for rounding when it turns this into a certificate.
    pub fn npl_bound(&self) -> f64 {
        let [s0, s1] = self.second_differences();
        s0.norm().max(s1.norm()) / 3.0
    }

    /// A bound on the distance to the chord `b0 b3` parametrised linearly:
    /// `|p(t) - ((1-t) b0 + t b3)| ≤ ¾ max(|Δ²b0|, |Δ²b1|)` for every `t` in `[0, 1]`.
    ///
    /// # Why
    /// Linear interpolation of a C² function has the Peano-kernel form
    /// `f(t) - L(t) = -∫ G(t, s) f''(s) ds` with `G ≥ 0` and `∫ G ds = t(1-t)/2 ≤ ⅛`, which holds
    /// for vector-valued `f` in the Euclidean norm; `|p''| = 6 |(1-t) Δ²b0 + t Δ²b1| ≤ 6 max|Δ²b|`.
    /// This constant is larger than the control-polygon constant ⅓ of [`CubicBez::npl_bound`]
    /// (chord-curve bounds go back to Filip, Magedson and Markot, CAGD 3, 1986).
    pub fn chord_bound(&self) -> f64 {
        let [s0, s1] = self.second_differences();
        0.75 * s0.norm().max(s1.norm())
    }

    /// The tight form of the control-polygon bound: `max_t (β₀(t) |Δ²b0| + β₁(t) |Δ²b1|)`
    /// with the weights of [`CubicBez::npl_bound`]. Never more than `npl_bound()`.
    pub fn npl_bound_tight(&self) -> f64 {
        let [s0, s1] = self.second_differences();
        let (a, b) = (s0.norm(), s1.norm());
        // On [0, ⅓] both β₀ = 3t² - t³ and β₁ = t³ increase; on [⅔, 1] both decrease (mirror
        // image); on [⅓, ⅔] the sum a (1-t)³ + b t³ is convex. So the maximum of a β₀ + b β₁ is
        // attained at t = ⅓ or t = ⅔.
        let at_third = a * 8.0 / 27.0 + b / 27.0;
        let at_two_thirds = a / 27.0 + b * 8.0 / 27.0;
        at_third.max(at_two_thirds)
    }

    /// The two halves `p([0, t])` and `p([t, 1])`, each reparametrised to `[0, 1]`, by de
    /// Casteljau's algorithm. The halves trace exactly the original curve (up to rounding), and
    /// their shared end point is `p(t)`.
    pub fn split(&self, t: f64) -> (CubicBez, CubicBez) {
        let mt = 1.0 - t;
        let a = lerp(self.p0, self.p1, t, mt);
        let b = lerp(self.p1, self.p2, t, mt);
        let c = lerp(self.p2, self.p3, t, mt);
        let d = lerp(a, b, t, mt);
        let e = lerp(b, c, t, mt);
        let m = lerp(d, e, t, mt);
        (
            CubicBez::new(self.p0, a, d, m),
            CubicBez::new(m, e, c, self.p3),
        )
    }

    /// The part of the piece with `t` in `[t0, t1]`, reparametrised to `[0, 1]`.
    pub fn subsegment(&self, t0: f64, t1: f64) -> CubicBez {
        if t0 <= 0.0 {
            return self.split(t1).0;
        }
        let (_, right) = self.split(t0);
        if t1 >= 1.0 {
            return right;
        }
        right.split((t1 - t0) / (1.0 - t0)).0
    }

    /// The same curve traced backwards.
    pub fn reversed(&self) -> CubicBez {
        CubicBez::new(self.p3, self.p2, self.p1, self.p0)
    }

    /// Length of the chord `|b3 - b0|`, a lower bound on the arc length.
    pub fn chord_length(&self) -> f64 {
        (self.p3 - self.p0).norm()
    }

    /// Length of the control polygon `|b1 - b0| + |b2 - b1| + |b3 - b2|`, an upper bound on the
    /// arc length (the curve is a limit of polygons obtained by corner cutting).
    pub fn polygon_length(&self) -> f64 {
        (self.p1 - self.p0).norm() + (self.p2 - self.p1).norm() + (self.p3 - self.p2).norm()
    }

    /// The smallest box holding the piece itself (not its control polygon): the corners
    /// `(min, max)` over its ends and the points where the derivative of a coordinate is zero
    /// in `(0, 1)` (the roots of a quadratic, the larger in size first and the other from
    /// their product, so that neither cancels).
    pub fn bounds(&self) -> (Point, Point) {
        let roots = |a: f64, b: f64, c: f64, d: f64| {
            // p'(t) / 3 = qa t² + qb t + qc.
            let (d0, d1, d2) = (b - a, c - b, d - c);
            let (qa, qb, qc) = (d0 - 2.0 * d1 + d2, 2.0 * (d1 - d0), d0);
            let mut ts = [f64::NAN; 2];
            if qa == 0.0 {
                if qb != 0.0 {
                    ts[0] = -qc / qb;
                }
            } else {
                let disc = qb * qb - 4.0 * qa * qc;
                if disc >= 0.0 {
                    let q = -0.5 * (qb + disc.sqrt().copysign(qb));
                    ts[0] = q / qa;
                    if q != 0.0 {
                        ts[1] = qc / q;
                    }
                }
            }
            ts
        };
        let [p0, p1, p2, p3] = self.points();
        let (xs, ys) = (roots(p0.x, p1.x, p2.x, p3.x), roots(p0.y, p1.y, p2.y, p3.y));
        let (mut lo, mut hi) = (p0.inf(&p3), p0.sup(&p3));
        for t in xs.into_iter().chain(ys) {
            if t > 0.0 && t < 1.0 {
                let q = self.eval(t);
                (lo, hi) = (lo.inf(&q), hi.sup(&q));
            }
        }
        (lo, hi)
    }

    /// The largest absolute value of any control point coordinate; scales rounding allowances.
    pub fn max_abs_coord(&self) -> f64 {
        self.points()
            .iter()
            .map(|p| p.x.abs().max(p.y.abs()))
            .fold(0.0, f64::max)
    }
}

/// `(1 - t) a + t b`, with `mt = 1 - t` passed in so that callers compute it once.
fn lerp(a: Point, b: Point, t: f64, mt: f64) -> Point {
    Point::new(mt * a.x + t * b.x, mt * a.y + t * b.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn eval_matches_bernstein_form() {
        let c = CubicBez::new(p(0.0, 0.0), p(1.0, 3.0), p(4.0, -1.0), p(5.0, 2.0));
        for i in 0..=20 {
            let t = f64::from(i) / 20.0;
            let mt = 1.0 - t;
            let b = c.p0.coords * mt.powi(3)
                + c.p1.coords * (3.0 * mt * mt * t)
                + c.p2.coords * (3.0 * mt * t * t)
                + c.p3.coords * t.powi(3);
            assert!((c.eval(t).coords - b).norm() < 1e-12, "t = {t}");
        }
    }

    #[test]
    fn derivatives_match_finite_differences() {
        let c = CubicBez::new(p(0.0, 0.0), p(1.0, 3.0), p(4.0, -1.0), p(5.0, 2.0));
        let h = 1e-6;
        for i in 1..10 {
            let t = f64::from(i) / 10.0;
            let fd = (c.eval(t + h) - c.eval(t - h)) / (2.0 * h);
            assert!((fd - c.deriv(t)).norm() < 1e-6, "first derivative at {t}");
            let fd2 = (c.deriv(t + h) - c.deriv(t - h)) / (2.0 * h);
            assert!(
                (fd2 - c.deriv2(t)).norm() < 1e-5,
                "second derivative at {t}"
            );
        }
    }

    #[test]
    fn npl_weights_are_the_stated_functions() {
        // The scalar piece with Δ²b0 = 1, Δ²b1 = 0 is b = (0, 0, 1, 2); its deviation from the
        // Greville polygon must be β₀(t) = 3t² - t³ - max(0, 3t - 1).
        let c = CubicBez::new(p(0.0, 0.0), p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0));
        for i in 0..=300 {
            let t = f64::from(i) / 300.0;
            let greville = (3.0 * t - 1.0).max(0.0);
            let beta0 = 3.0 * t * t - t.powi(3) - greville;
            assert!((c.eval(t).x - greville - beta0).abs() < 1e-12, "t = {t}");
            assert!(beta0 >= -1e-15, "β₀ is non-negative");
            let beta1 = {
                let s = 1.0 - t;
                3.0 * s * s - s.powi(3) - (3.0 * s - 1.0).max(0.0)
            };
            assert!(beta0 + beta1 <= 1.0 / 3.0 + 1e-12, "β₀ + β₁ ≤ ⅓ at {t}");
        }
        assert!((c.npl_bound() - 1.0 / 3.0).abs() < 1e-15);
        assert!((c.npl_bound_tight() - 8.0 / 27.0).abs() < 1e-15);
    }

    #[test]
    fn split_halves_trace_the_same_curve() {
        let c = CubicBez::new(p(0.0, 0.0), p(10.0, 30.0), p(40.0, -10.0), p(50.0, 20.0));
        let t = 0.3;
        let (a, b) = c.split(t);
        for i in 0..=10 {
            let s = f64::from(i) / 10.0;
            assert!((a.eval(s) - c.eval(s * t)).norm() < 1e-12);
            assert!((b.eval(s) - c.eval(t + s * (1.0 - t))).norm() < 1e-12);
        }
        let mid = c.subsegment(0.2, 0.7);
        for i in 0..=10 {
            let s = f64::from(i) / 10.0;
            assert!((mid.eval(s) - c.eval(0.2 + 0.5 * s)).norm() < 1e-12);
        }
    }

    #[test]
    fn a_line_has_zero_bounds() {
        let c = CubicBez::line(p(1.0, 2.0), p(7.0, -4.0));
        assert_eq!(c.npl_bound(), 0.0);
        assert!(c.chord_bound() < 1e-15);
    }
}
