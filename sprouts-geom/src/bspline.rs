//! Clamped cubic B-splines with non-uniform knots: basis functions (Cox–de Boor) and
//! conversion to Bézier pieces by knot insertion (Boehm). Internal to fitting.

use crate::{CubicBez, Piece, Point, Spline};

/// A clamped cubic B-spline: knots `0,0,0,0, k_1..k_r, L,L,L,L` (strictly increasing inside)
/// and `r + 4` control points.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BSpline {
    pub(crate) knots: Vec<f64>,
    pub(crate) ctrl: Vec<Point>,
}

/// The clamped knot vector for the breakpoints `0 = x_0 < x_1 < ... < x_k = L`.
pub(crate) fn clamped_knots(breaks: &[f64]) -> Vec<f64> {
    let (first, last) = (breaks[0], breaks[breaks.len() - 1]);
    let mut knots = vec![first; 3];
    knots.extend_from_slice(breaks);
    knots.extend_from_slice(&[last; 3]);
    knots
}

/// The span index `k` (`knots[k] ≤ u < knots[k + 1]`, the last span for `u = L`) for a clamped
/// cubic knot vector with `n_ctrl` control points. The NURBS Book, algorithm A2.1.
pub(crate) fn find_span(knots: &[f64], n_ctrl: usize, u: f64) -> usize {
    let n = n_ctrl - 1;
    if u >= knots[n + 1] {
        return n;
    }
    if u <= knots[3] {
        return 3;
    }
    let (mut lo, mut hi) = (3, n + 1);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if u < knots[mid] {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}

/// The four non-zero cubic basis functions `N_{k-3..=k}(u)` on span `k`, by the Cox–de Boor
/// recurrence (The NURBS Book, algorithm A2.2).
pub(crate) fn basis(knots: &[f64], span: usize, u: f64) -> [f64; 4] {
    let mut n = [1.0, 0.0, 0.0, 0.0];
    let mut left = [0.0; 4];
    let mut right = [0.0; 4];
    for j in 1..=3 {
        left[j] = u - knots[span + 1 - j];
        right[j] = knots[span + j] - u;
        let mut saved = 0.0;
        for r in 0..j {
            let temp = n[r] / (right[r + 1] + left[j - r]);
            n[r] = saved + right[r + 1] * temp;
            saved = left[j - r] * temp;
        }
        n[j] = saved;
    }
    n
}

impl BSpline {
    /// The point at parameter `u` (de Boor, through the basis functions).
    pub(crate) fn eval(&self, u: f64) -> Point {
        let span = find_span(&self.knots, self.ctrl.len(), u);
        let n = basis(&self.knots, span, u);
        let mut acc = nalgebra::Vector2::zeros();
        for (i, w) in n.iter().enumerate() {
            acc += self.ctrl[span - 3 + i].coords * *w;
        }
        Point::from(acc)
    }

    /// Inserts knot `u` once (Boehm's algorithm; The NURBS Book, A5.1 with one insertion).
    fn insert_knot(&mut self, u: f64) {
        let k = find_span(&self.knots, self.ctrl.len(), u);
        let mut q = Vec::with_capacity(self.ctrl.len() + 1);
        q.extend_from_slice(&self.ctrl[..=k - 3]);
        for i in k - 2..=k {
            let alpha = (u - self.knots[i]) / (self.knots[i + 3] - self.knots[i]);
            let p = self.ctrl[i - 1].coords * (1.0 - alpha) + self.ctrl[i].coords * alpha;
            q.push(Point::from(p));
        }
        q.extend_from_slice(&self.ctrl[k..]);
        self.ctrl = q;
        self.knots.insert(k + 1, u);
    }

    /// The same curve as Bézier pieces, one per knot interval, with the intervals as parameter
    /// lengths: every inner knot is raised to multiplicity 3.
    pub(crate) fn to_spline(&self) -> Spline {
        let mut b = self.clone();
        let breaks: Vec<f64> = self.knots[3..self.knots.len() - 3].to_vec();
        for &u in &breaks[1..breaks.len() - 1] {
            b.insert_knot(u);
            b.insert_knot(u);
        }
        let pieces = breaks
            .windows(2)
            .enumerate()
            .map(|(i, w)| {
                let c = &b.ctrl[3 * i..3 * i + 4];
                Piece::new(CubicBez::new(c[0], c[1], c[2], c[3]), w[1] - w[0])
            })
            .collect();
        Spline::from_pieces_unchecked(pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_is_a_partition_of_unity() {
        let knots = clamped_knots(&[0.0, 1.0, 2.5, 3.0, 7.0]);
        let n_ctrl = knots.len() - 4;
        for i in 0..=70 {
            let u = f64::from(i) / 10.0;
            let span = find_span(&knots, n_ctrl, u);
            assert!(knots[span] <= u && (u < knots[span + 1] || span == n_ctrl - 1));
            let n = basis(&knots, span, u);
            assert!((n.iter().sum::<f64>() - 1.0).abs() < 1e-12, "u = {u}");
            assert!(n.iter().all(|&x| x >= -1e-15), "non-negative at {u}");
        }
    }

    #[test]
    fn bezier_pieces_trace_the_b_spline() {
        let knots = clamped_knots(&[0.0, 1.0, 2.5, 3.0, 7.0]);
        let ctrl: Vec<Point> = (0..knots.len() - 4)
            .map(|i| Point::new(i as f64 * 10.0, ((i * 7) % 5) as f64 * 8.0))
            .collect();
        let b = BSpline { knots, ctrl };
        let s = b.to_spline();
        assert_eq!(s.n_pieces(), 4);
        for i in 0..=70 {
            let u = f64::from(i) / 10.0;
            assert!((s.eval_global(u) - b.eval(u)).norm() < 1e-10, "u = {u}");
        }
        // A cubic B-spline with simple knots is C²: so must the pieces be.
        for k in 1..s.n_pieces() {
            let c = s.continuity(k);
            assert!(c.first_derivative_gap < 1e-9 && c.second_derivative_gap < 1e-9);
        }
    }
}
