//! The picture as polylines (spec 4.5): every curve a polyline through its end spots and points
//! about a spacing apart, spots and points as the nodes of one net, with the gaps between a
//! node and the segments it could hit, and the caps of Bertault's PrEd on how far each node may
//! move in one step.

use sprouts_geom::{Point, Vector, closest_on_segment};

use crate::drawing::{CurveId, Drawing};
use crate::near::{Bbox, close_pairs};

/// The picture's curves as polylines over shared spot nodes.
#[derive(Clone, Debug)]
pub(crate) struct Net {
    /// Node positions: spots `0..spots` (in the drawing's order), then the points of curves.
    pub pts: Vec<Point>,
    /// The hard radius of each node: a spot's drawn radius, 0 for a point of a curve.
    pub radius: Vec<f64>,
    /// Each curve as node indices from its first spot to its second (the drawing's order).
    pub paths: Vec<Vec<usize>>,
    /// Segments `(a, b)` of all paths.
    pub segs: Vec<(usize, usize)>,
    /// The end spots of each segment's path (a spot's own curves come into its disc).
    pub seg_spots: Vec<(usize, usize)>,
    /// The nodes joined to each node by a segment.
    pub adjacent: Vec<Vec<usize>>,
    /// The number of spot nodes.
    pub spots: usize,
    /// The drawing area `[0, width] x [0, height]`.
    pub world: (f64, f64),
}

/// A polyline net could not be made from the picture (its polylines would cross or enter a
/// spot even at the finest sampling tried).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NoNet;

impl Net {
    /// The drawing sampled at about `spacing` pixels, refined (down to a sixteenth) until
    /// the polylines keep a positive gap everywhere.
    pub(crate) fn of_drawing(drawing: &Drawing, spacing: f64) -> Result<Net, NoNet> {
        let mut h = spacing;
        for _ in 0..5 {
            let net = Net::sampled(drawing, h);
            if net.least_gap(spacing) > 0.0 {
                return Ok(net);
            }
            h *= 0.5;
        }
        Err(NoNet)
    }

    fn sampled(drawing: &Drawing, h: f64) -> Net {
        let spots = drawing.spots();
        let mut pts: Vec<Point> = spots.iter().map(|s| s.centre).collect();
        let mut radius: Vec<f64> = spots.iter().map(|s| s.radius).collect();
        let index = |id| {
            spots
                .iter()
                .position(|s| s.id == id)
                .expect("a curve's spot")
        };
        let mut paths = Vec::with_capacity(drawing.curves().len());
        for c in drawing.curves() {
            let mut path = vec![index(c.from)];
            let pieces = c.spline.pieces();
            for (k, piece) in pieces.iter().enumerate() {
                let n = (piece.bez.polygon_length() / h).ceil().max(1.0) as usize;
                let last = k + 1 == pieces.len();
                for j in 1..=n {
                    if last && j == n {
                        break;
                    }
                    pts.push(piece.bez.eval(j as f64 / n as f64));
                    radius.push(0.0);
                    path.push(pts.len() - 1);
                }
            }
            path.push(index(c.to));
            paths.push(path);
        }
        Net::from_paths(
            pts,
            radius,
            paths,
            spots.len(),
            (drawing.world().width, drawing.world().height),
        )
    }

    /// A net from its nodes and paths.
    pub(crate) fn from_paths(
        pts: Vec<Point>,
        radius: Vec<f64>,
        paths: Vec<Vec<usize>>,
        spots: usize,
        world: (f64, f64),
    ) -> Net {
        let segs: Vec<(usize, usize)> = paths
            .iter()
            .flat_map(|p| p.windows(2).map(|w| (w[0], w[1])))
            .collect();
        let seg_spots: Vec<(usize, usize)> = paths
            .iter()
            .flat_map(|p| std::iter::repeat_n((p[0], p[p.len() - 1]), p.len() - 1))
            .collect();
        let mut adjacent = vec![Vec::new(); pts.len()];
        for &(a, b) in &segs {
            adjacent[a].push(b);
            adjacent[b].push(a);
        }
        Net {
            pts,
            radius,
            paths,
            segs,
            seg_spots,
            adjacent,
            spots,
            world,
        }
    }

    /// The polyline of curve `c`.
    pub(crate) fn polyline(&self, c: CurveId) -> Vec<Point> {
        self.paths[c.index()].iter().map(|&v| self.pts[v]).collect()
    }

    /// Calls `f` with [`Pair::NodeSegment`] for every node and segment not ending at it whose
    /// gap (distance less the node's radius) may be within `reach` (node positions `pts`),
    /// and with [`Pair::Spots`] for pairs of spots as near: every such pair, and some more.
    pub(crate) fn near_pairs(&self, pts: &[Point], reach: f64, mut f: impl FnMut(Pair)) {
        // Gaps are distances less radii: pairs are looked for that much farther.
        let reach = reach + 2.0 * self.radius.iter().copied().fold(0.0, f64::max);
        let n = pts.len();
        let mut boxes: Vec<Bbox> = Vec::with_capacity(n + self.segs.len());
        boxes.extend(pts.iter().map(|&p| (p, p)));
        for &(a, b) in &self.segs {
            let (pa, pb) = (pts[a], pts[b]);
            boxes.push((
                Point::new(pa.x.min(pb.x), pa.y.min(pb.y)),
                Point::new(pa.x.max(pb.x), pa.y.max(pb.y)),
            ));
        }
        close_pairs(&boxes, reach, reach, |i, j| {
            if i < n && j >= n {
                let s = j - n;
                let (a, b) = self.segs[s];
                if i != a && i != b {
                    f(Pair::NodeSegment(i, s));
                }
            } else if j < self.spots {
                f(Pair::Spots(i, j));
            }
        });
    }

    /// The gap between node `v` and segment `s` (distance less the node's radius, unless
    /// the node is a spot the segment's curve ends at), the closest point's parameter on the
    /// segment, and the unit vector from it to the node.
    pub(crate) fn node_segment(&self, pts: &[Point], v: usize, seg: usize) -> Gap {
        let s = self.segs[seg];
        let (x, y) = self.seg_spots[seg];
        let r = if v == x || v == y {
            0.0
        } else {
            self.radius[v]
        };
        let p = pts[v];
        let (t, q) = closest_on_segment(p, pts[s.0], pts[s.1]);
        let d = p - q;
        let dist = d.norm();
        let unit = if dist > 0.0 {
            d / dist
        } else {
            Vector::zeros()
        };
        Gap {
            gap: dist - r,
            t,
            unit,
        }
    }

    /// The least gap between a node and a segment not ending at it, between two spots, and
    /// between a node inside the window and the window's edge; `reach` if none is smaller.
    pub(crate) fn least_gap(&self, reach: f64) -> f64 {
        self.caps(&self.pts, reach)
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
            * 3.0
    }

    /// The caps of PrEd at node positions `pts`: for each node a third of the least gap it
    /// takes part in (as the node, or as an end of the segment), no more than a third of
    /// `reach`. Moving every node by at most its cap, along a straight line, no node can meet
    /// a segment (each end of the segment and the node together close at most the whole gap),
    /// so no two segments can come to cross, no spot's disc can be entered, and a node inside
    /// the window stays inside.
    pub(crate) fn caps(&self, pts: &[Point], reach: f64) -> Vec<f64> {
        let mut part = vec![reach; pts.len()];
        self.near_pairs(pts, reach, |pair| match pair {
            Pair::NodeSegment(v, s) => {
                let seg = self.segs[s];
                let g = self.node_segment(pts, v, s).gap;
                part[v] = part[v].min(g);
                part[seg.0] = part[seg.0].min(g);
                part[seg.1] = part[seg.1].min(g);
            }
            Pair::Spots(a, b) => {
                let g = (pts[a] - pts[b]).norm() - self.radius[a] - self.radius[b];
                part[a] = part[a].min(g);
                part[b] = part[b].min(g);
            }
        });
        let (w, h) = self.world;
        for (v, p) in pts.iter().enumerate() {
            let r = self.radius[v];
            let g = (p.x - r).min(w - p.x - r).min(p.y - r).min(h - p.y - r);
            // A node outside the window (never made so here) is not held by it.
            if g > 0.0 {
                part[v] = part[v].min(g);
            }
        }
        part.iter_mut().for_each(|c| *c /= 3.0);
        part
    }
}

/// Two things of a net that may be near.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pair {
    /// A node and a segment (by index) not ending at it.
    NodeSegment(usize, usize),
    /// Two spots.
    Spots(usize, usize),
}

/// A node's gap to a segment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gap {
    /// Distance less the node's radius.
    pub gap: f64,
    /// The closest point's parameter on the segment, in `[0, 1]`.
    pub t: f64,
    /// The unit vector from the closest point to the node (zero if they coincide).
    pub unit: Vector,
}
