//! Polish (spec 4.6 step 4, simplified): the straight grid drawing, scaled into the window,
//! is spread out by a force-directed descent whose every step is capped so that nothing can
//! cross, after Bertault's PrEd (F. Bertault, *A force-directed algorithm that preserves edge
//! crossing properties*, Information Processing Letters 74 (2000), pp. 7–13,
//! doi:10.1016/S0020-0190(00)00042-9).
//!
//! Every vertex moves at most a third of the least distance between any point and segment it
//! takes part in (as the point, or as an end of the segment); then no moving point can reach
//! a moving segment during the step, so the drawing keeps its crossings (none) and its
//! rotation system, hence its position.

use sprouts_geom::{Point, Vector, closest_on_segment, point_segment_distance};

/// The polylines of a picture: nodes `0..spots` are spots, the rest points along curves.
#[derive(Clone, Debug)]
pub(crate) struct Net {
    /// Node positions.
    pub pts: Vec<Point>,
    /// Each curve as node indices from its first spot to its second.
    pub paths: Vec<Vec<usize>>,
    /// The number of spot nodes.
    pub spots: usize,
}

impl Net {
    /// The segments `(a, b)` of all curves.
    fn segments(&self) -> Vec<(usize, usize)> {
        self.paths
            .iter()
            .flat_map(|p| p.windows(2).map(|w| (w[0], w[1])))
            .collect()
    }

    /// Splits every leg longer than `max` into equal pieces (new points on the segment: the
    /// drawing does not change).
    pub(crate) fn subdivide(&mut self, max: f64) {
        for p in &mut self.paths {
            let mut out = vec![p[0]];
            for w in p.windows(2) {
                let (a, b) = (self.pts[w[0]], self.pts[w[1]]);
                let k = ((b - a).norm() / max).ceil().max(1.0) as usize;
                for j in 1..k {
                    self.pts.push(a + (b - a) * (j as f64 / k as f64));
                    out.push(self.pts.len() - 1);
                }
                out.push(w[1]);
            }
            *p = out;
        }
    }

    /// The least distance between a node and a segment not ending at it, and for each node
    /// the least such distance it takes part in (as the node or as a segment's end).
    pub(crate) fn gaps(&self) -> (f64, Vec<f64>) {
        let segs = self.segments();
        let mut part = vec![f64::INFINITY; self.pts.len()];
        let mut least = f64::INFINITY;
        for &(a, b) in &segs {
            let (pa, pb) = (self.pts[a], self.pts[b]);
            let len = (pb - pa).norm();
            part[a] = part[a].min(len);
            part[b] = part[b].min(len);
            let (lo, hi) = (pa.coords.inf(&pb.coords), pa.coords.sup(&pb.coords));
            for (w, &p) in self.pts.iter().enumerate() {
                if w == a || w == b {
                    continue;
                }
                // Box test first: the distance is at least the distance to the box.
                let dx = (lo.x - p.x).max(p.x - hi.x).max(0.0);
                let dy = (lo.y - p.y).max(p.y - hi.y).max(0.0);
                let lb = dx.max(dy);
                if lb >= part[w] && lb >= part[a] && lb >= part[b] {
                    continue;
                }
                let d = point_segment_distance(p, pa, pb);
                part[w] = part[w].min(d);
                part[a] = part[a].min(d);
                part[b] = part[b].min(d);
                least = least.min(d);
            }
        }
        // Spots with no curve: their distance to other spots.
        for i in 0..self.spots {
            for j in i + 1..self.spots {
                let d = (self.pts[i] - self.pts[j]).norm();
                part[i] = part[i].min(d);
                part[j] = part[j].min(d);
                least = least.min(d);
            }
        }
        (least, part)
    }

    /// The least gap at each spot: to segments not ending at it and to other spots.
    pub(crate) fn spot_gaps(&self) -> Vec<f64> {
        let segs = self.segments();
        (0..self.spots)
            .map(|v| {
                let p = self.pts[v];
                let mut g = f64::INFINITY;
                for &(a, b) in &segs {
                    if a != v && b != v {
                        g = g.min(point_segment_distance(p, self.pts[a], self.pts[b]));
                    }
                }
                for u in 0..self.spots {
                    if u != v {
                        g = g.min(0.5 * (p - self.pts[u]).norm());
                    }
                }
                g
            })
            .collect()
    }
}

/// How the descent is run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PolishParams {
    /// The box the nodes stay in: `[lo.x, hi.x] x [lo.y, hi.y]`.
    pub lo: Point,
    pub hi: Point,
    /// The wanted spacing of nodes.
    pub spacing: f64,
    /// Steps.
    pub iterations: u32,
}

/// Spreads the net by capped force-directed steps (see the module docs). Returns the steps
/// taken.
pub(crate) fn polish(net: &mut Net, params: &PolishParams) -> u32 {
    let n = net.pts.len();
    let l0 = params.spacing;
    let segs = net.segments();
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &segs {
        neighbours[a].push(b);
        neighbours[b].push(a);
    }
    let mut force = vec![Vector::zeros(); n];
    let mut taken = 0;
    for it in 0..params.iterations {
        let (_, part) = net.gaps();
        for f in force.iter_mut() {
            *f = Vector::zeros();
        }
        // Repulsion between nodes (Fruchterman and Reingold's l0^2 / d), near ones only.
        let reach = 3.0 * l0;
        for i in 0..n {
            for j in i + 1..n {
                let d = net.pts[i] - net.pts[j];
                let r = d.norm();
                if r < reach && r > 0.0 {
                    let f = d * (l0 * l0 / (r * r));
                    force[i] += f;
                    force[j] -= f;
                }
            }
        }
        // Nodes pushed off segments they are not on (and the segments off the nodes).
        for &(a, b) in &segs {
            let (pa, pb) = (net.pts[a], net.pts[b]);
            for w in 0..n {
                if w == a || w == b {
                    continue;
                }
                let p = net.pts[w];
                let (_, q) = closest_on_segment(p, pa, pb);
                let d = p - q;
                let r = d.norm();
                if r < l0 && r > 0.0 {
                    let f = d * ((l0 - r) * (l0 - r) / (r * r));
                    force[w] += f;
                    force[a] -= 0.5 * f;
                    force[b] -= 0.5 * f;
                }
            }
        }
        // Attraction along curves (d^2 / l0) and straightening of points along a curve.
        for &(a, b) in &segs {
            let d = net.pts[b] - net.pts[a];
            let f = d * (d.norm() / l0);
            force[a] += f;
            force[b] -= f;
        }
        for (v, nb) in neighbours.iter().enumerate().skip(net.spots) {
            if nb.len() == 2 {
                let mid = Point::from((net.pts[nb[0]].coords + net.pts[nb[1]].coords) * 0.5);
                force[v] += (mid - net.pts[v]) * 0.5;
            }
        }
        let temp = l0 * (0.05 + 0.45 * (1.0 - f64::from(it) / f64::from(params.iterations)));
        let mut moved = 0.0f64;
        for v in 0..n {
            let f = force[v];
            let len = f.norm();
            if len == 0.0 || !len.is_finite() {
                continue;
            }
            let cap = (part[v] / 3.0).min(temp) * (1.0 - 1e-9);
            let step = f * (cap.min(len) / len);
            let p = net.pts[v] + step;
            let q = Point::new(
                p.x.clamp(params.lo.x, params.hi.x),
                p.y.clamp(params.lo.y, params.hi.y),
            );
            moved = moved.max((q - net.pts[v]).norm());
            net.pts[v] = q;
        }
        taken = it + 1;
        if moved < 0.05 {
            break;
        }
    }
    taken
}
