//! The energy of the whole picture (spec 4.5), over the nodes of a [`Net`], with its exact
//! gradient:
//!
//! `E = Σ ℓ + μ/h Σ_curves Σ (ℓ - ℓ̄)² + κ D²/h³ Σ |p₋ - 2p + p₊|² + λ h Σ φ(g) + labels`
//!
//! - `Σ ℓ`: the length of every segment; `(ℓ - ℓ̄)²` keeps a curve's points evenly spaced
//!   (crowding is charged per point, so points would otherwise drain out of crowded stretches);
//! - the second differences charge bending (`θ²/ℓ` for a turn `θ` between legs of length
//!   `ℓ = h`, the spec's `D² Σ θ²/ℓ`);
//! - `φ(g) = (D/g - 1)²` for a gap `g` below the comfort distance `D`, zero beyond, infinite at
//!   contact: between a node and each segment not next to it (curve against curve, curve
//!   against spot), between spots, and between a node and each side of the window; weighted by
//!   the spacing `h`, so the sum approximates the band's integral `∫ φ ds` (spec 3.4);
//! - a spot's label (above and to the right of it) is kept clear of the frame by a quadratic
//!   penalty within the minimum clearance of the label's extent.

use sprouts_geom::{Point, Vector};

use super::net::{Net, Pair};

/// The constants of the energy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Weights {
    /// The comfort distance `D`.
    pub comfort: f64,
    /// The spacing `h` of the points.
    pub spacing: f64,
    /// Room against length, `λ`.
    pub lambda: f64,
    /// Bending, `κ`.
    pub bending: f64,
    /// Even spacing, `μ`.
    pub evenness: f64,
    /// The minimum clearance (the margin kept round a spot's label).
    pub min_clearance: f64,
}

/// A net's energy as a function of its free nodes' coordinates.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    /// The net (its positions are those of the fixed nodes and the start).
    pub net: Net,
    /// The nodes that move, in parameter order (`x[2 k], x[2 k + 1]` for node `free[k]`).
    pub free: Vec<usize>,
    /// Each spot's label extent: `(right, top)` beyond its radius, in pixels.
    pub labels: Vec<(f64, f64)>,
    /// The constants.
    pub w: Weights,
}

impl Model {
    /// The parameter vector of the net's present positions.
    pub(crate) fn start(&self) -> Vec<f64> {
        let mut x = Vec::with_capacity(2 * self.free.len());
        for &v in &self.free {
            x.push(self.net.pts[v].x);
            x.push(self.net.pts[v].y);
        }
        x
    }

    /// The positions of all nodes for parameters `x`.
    pub(crate) fn positions(&self, x: &[f64]) -> Vec<Point> {
        let mut pts = self.net.pts.clone();
        for (k, &v) in self.free.iter().enumerate() {
            pts[v] = Point::new(x[2 * k], x[2 * k + 1]);
        }
        pts
    }

    /// The energy at `x`, and its gradient if `grad` is given (`+∞` where something touches).
    pub(crate) fn eval(&self, x: &[f64], grad: Option<&mut Vec<f64>>) -> f64 {
        let pts = self.positions(x);
        let want = grad.is_some();
        let mut g = if want {
            vec![Vector::zeros(); pts.len()]
        } else {
            Vec::new()
        };
        let e = self.eval_at(&pts, want.then_some(&mut g));
        if let Some(out) = grad {
            out.clear();
            for &v in &self.free {
                out.push(g[v].x);
                out.push(g[v].y);
            }
        }
        e
    }

    fn eval_at(&self, pts: &[Point], mut g: Option<&mut Vec<Vector>>) -> f64 {
        let Weights {
            comfort: d,
            spacing: h,
            lambda,
            bending,
            evenness,
            min_clearance,
        } = self.w;
        let net = &self.net;
        let mut e = 0.0;
        // Length and even spacing.
        for path in &net.paths {
            let lens: Vec<f64> = path
                .windows(2)
                .map(|w| (pts[w[1]] - pts[w[0]]).norm())
                .collect();
            let mean = lens.iter().sum::<f64>() / lens.len() as f64;
            for (w, &l) in path.windows(2).zip(&lens) {
                e += l + evenness / h * (l - mean) * (l - mean);
                if let Some(g) = g.as_deref_mut()
                    && l > 0.0
                {
                    let c = 1.0 + 2.0 * evenness / h * (l - mean);
                    let u = (pts[w[1]] - pts[w[0]]) / l;
                    g[w[1]] += c * u;
                    g[w[0]] -= c * u;
                }
            }
            // Bending.
            let k = bending * d * d / (h * h * h);
            for w in path.windows(3) {
                let q = pts[w[0]].coords - 2.0 * pts[w[1]].coords + pts[w[2]].coords;
                e += k * q.norm_squared();
                if let Some(g) = g.as_deref_mut() {
                    g[w[0]] += 2.0 * k * q;
                    g[w[1]] -= 4.0 * k * q;
                    g[w[2]] += 2.0 * k * q;
                }
            }
        }
        // Crowding: nodes against segments, spots against spots.
        let weight = lambda * h;
        let phi = |gap: f64| -> (f64, f64) {
            if gap >= d {
                (0.0, 0.0)
            } else if gap > 0.0 {
                let a = d / gap - 1.0;
                (a * a, -2.0 * a * d / (gap * gap))
            } else {
                (f64::INFINITY, 0.0)
            }
        };
        let mut crowd = 0.0;
        let mut gpairs: Vec<(usize, usize, usize, f64, f64, Vector)> = Vec::new();
        let mut spairs: Vec<(usize, usize, f64, Vector)> = Vec::new();
        net.near_pairs(pts, d, |pair| match pair {
            Pair::NodeSegment(v, s) => {
                let (a, b) = net.segs[s];
                if net.adjacent[v].contains(&a) || net.adjacent[v].contains(&b) {
                    return;
                }
                let gap = net.node_segment(pts, v, s);
                let (f, df) = phi(gap.gap);
                if f > 0.0 {
                    crowd += f;
                    gpairs.push((v, a, b, gap.t, df, gap.unit));
                }
            }
            Pair::Spots(a, b) => {
                let dv = pts[a] - pts[b];
                let dist = dv.norm();
                let (f, df) = phi(dist - net.radius[a] - net.radius[b]);
                if f > 0.0 {
                    crowd += f;
                    let u = if dist > 0.0 {
                        dv / dist
                    } else {
                        Vector::zeros()
                    };
                    spairs.push((a, b, df, u));
                }
            }
        });
        // The window's sides, and the spots' labels.
        let (ww, wh) = net.world;
        let mut sides: Vec<(usize, f64, Vector)> = Vec::new();
        for (v, p) in pts.iter().enumerate() {
            let r = net.radius[v];
            for (gap, normal) in [
                (p.x - r, Vector::new(1.0, 0.0)),
                (ww - p.x - r, Vector::new(-1.0, 0.0)),
                (p.y - r, Vector::new(0.0, 1.0)),
                (wh - p.y - r, Vector::new(0.0, -1.0)),
            ] {
                let (f, df) = phi(gap);
                if f > 0.0 {
                    crowd += f;
                    sides.push((v, df, normal));
                }
            }
        }
        if !crowd.is_finite() {
            return f64::INFINITY;
        }
        e += weight * crowd;
        let mut label = 0.0;
        for (v, &(right, top)) in self.labels.iter().enumerate() {
            let p = pts[v];
            let r = net.radius[v];
            for (gap, margin, normal) in [
                (ww - p.x - r, right + min_clearance, Vector::new(-1.0, 0.0)),
                (p.y - r, top + min_clearance, Vector::new(0.0, 1.0)),
            ] {
                if gap < margin {
                    let short = (margin - gap) / margin;
                    label += short * short;
                    if let Some(g) = g.as_deref_mut() {
                        // d/dgap of short² is -2 short / margin; gap grows along `normal`.
                        g[v] -= weight * 10.0 * 2.0 * short / margin * normal;
                    }
                }
            }
        }
        e += weight * 10.0 * label;
        if let Some(g) = g {
            for (v, a, b, t, df, u) in gpairs {
                let f = weight * df * u;
                g[v] += f;
                g[a] -= (1.0 - t) * f;
                g[b] -= t * f;
            }
            for (a, b, df, u) in spairs {
                let f = weight * df * u;
                g[a] += f;
                g[b] -= f;
            }
            for (v, df, normal) in sides {
                g[v] += weight * df * normal;
            }
        }
        e
    }
}
