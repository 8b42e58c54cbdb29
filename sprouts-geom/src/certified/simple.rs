//! Certified simplicity of one curve: monotone runs of consecutive sub-pieces, separated legs
//! elsewhere.

use super::distance::{Verdict, distance_allowance, max_abs};
use super::tube::{leg_verdict, legs_cross_certified};
use crate::Point;

/// Whether one curve crosses itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simplicity {
    /// The curve is simple: no two of its points coincide (for a closed curve, except its
    /// start and end).
    Simple,
    /// Two parts of the curve certainly cross.
    SelfIntersecting,
    /// Undecided at this refinement; refine and ask again.
    Uncertain,
}

/// Whether the curve of a refined polygon is simple, certified.
///
/// With `closed`, the curve's end is its start (a loop from a spot back to itself) and the
/// last and first sub-pieces are treated as consecutive; without it, the curve's two ends must
/// be apart.
///
/// # Why this is a certificate
/// Consecutive sub-pieces (two neighbours, or one sub-piece alone) are accepted when all their
/// control polygon legs point into one open half-plane `{v : v · n > 0}`: the legs are a
/// third of the hodograph's control points, so the derivative then has a positive component
/// along `n` everywhere, the arc is strictly monotone along `n` and cannot meet itself. A margin
/// covers the rounding of subdivision (the legs of the true sub-pieces differ from the computed
/// ones by at most twice the subdivision allowance). Every other pair of legs must be apart by
/// more than the sum of their bounds ([`leg_verdict`]); a certified crossing of two such legs
/// proves a self-intersection.
pub fn simplicity(poly: &crate::RefinedPolygon, closed: bool) -> Simplicity {
    let pts = poly.points();
    let k = poly.n_legs() / 3;
    let m = max_abs(pts);
    let margin = 2.0 * crate::refine::subdivision_allowance(m, 64);
    let boxes: Vec<(Point, Point)> = (0..k)
        .map(|s| {
            let q = &pts[3 * s..=3 * s + 3];
            let min = q
                .iter()
                .fold(q[0], |a, p| Point::new(a.x.min(p.x), a.y.min(p.y)));
            let max = q
                .iter()
                .fold(q[0], |a, p| Point::new(a.x.max(p.x), a.y.max(p.y)));
            (min, max)
        })
        .collect();
    let r_max = poly.eps();
    let mut uncertain = false;
    for s in 0..k {
        for t in s..k {
            let consecutive = t == s || t == s + 1 || (closed && s == 0 && t == k - 1);
            if consecutive {
                if !monotone(pts, &[s, t], margin) {
                    uncertain = true;
                }
                continue;
            }
            let (a, b) = (boxes[s], boxes[t]);
            let dx = (a.0.x - b.1.x).max(b.0.x - a.1.x).max(0.0);
            let dy = (a.0.y - b.1.y).max(b.0.y - a.1.y).max(0.0);
            let bd = dx.hypot(dy);
            if bd - distance_allowance(m, bd) > 2.0 * r_max {
                continue;
            }
            for la in 3 * s..3 * s + 3 {
                for lb in 3 * t..3 * t + 3 {
                    let (a0, a1) = poly.leg(la);
                    let (b0, b1) = poly.leg(lb);
                    match leg_verdict((a0, a1, poly.leg_eps(la)), (b0, b1, poly.leg_eps(lb))) {
                        Verdict::Apart(_) => {}
                        Verdict::Intersect => {
                            if legs_cross_certified(
                                (a0, a1, poly.leg_eps(la)),
                                (b0, b1, poly.leg_eps(lb)),
                            ) {
                                return Simplicity::SelfIntersecting;
                            }
                            uncertain = true;
                        }
                        Verdict::Uncertain => uncertain = true,
                    }
                }
            }
        }
    }
    if uncertain {
        Simplicity::Uncertain
    } else {
        Simplicity::Simple
    }
}

/// Whether the legs of the given sub-pieces all point into one open half-plane, with `margin`.
fn monotone(pts: &[Point], subs: &[usize], margin: f64) -> bool {
    let legs = || {
        subs.iter()
            .flat_map(|&s| (3 * s..3 * s + 3).map(move |j| pts[j + 1] - pts[j]))
            .filter(|v| *v != crate::Vector::zeros())
    };
    let sum: crate::Vector = legs().map(|v| v / v.norm()).sum();
    let len = sum.norm();
    if len.is_nan() || len <= 0.0 {
        return false;
    }
    let n = sum / len;
    let mut any = false;
    for v in legs() {
        any = true;
        if v.dot(&n) <= margin * (1.0 + 1e-9) + 4.0 * f64::EPSILON * v.norm() {
            return false;
        }
    }
    any
}
