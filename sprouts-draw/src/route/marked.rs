//! Marked routes (spec 3.3): which boundaries a route puts on each side, judged on the route
//! itself ("the move performed virtually"), and the rays of the parity search.
//!
//! A one-boundary move from corner `x` to corner `y` of boundary `B` splits its region into the
//! region of `B_a = [x, .., y, z]` and that of `B_b`. The walk of `B_a` runs along `B` from `x`
//! to `y` (the *arc*) and back along the new curve, with its region on the left. So for a route
//! `P` from `x` to `y`, the closed polygon `Γ = arc + reverse(P)` has the region of `B_a` on its
//! left: inside `Γ` if `Γ` turns counter-clockwise (positive area in the y-up frame of
//! [`crate::Analysis`]), outside otherwise. A loop through one corner has no arc: then `B_a` is
//! the side of the loop away from the rest of `B` (either side for a spot with no curve).

use sprouts_geom::{Point, certified, signed_area};
use sprouts_topo::{BoundaryId, Corner, Position};

use super::planner::{Ray, Scene};
use crate::analyse::{Analysis, BoundaryPicture};

/// How the `B_a` side of a route is decided.
#[derive(Clone, Debug)]
enum Kind {
    /// Two different corners: by the orientation of `Γ`.
    Arc,
    /// A loop through one corner of a spot with curves: the side away from this point of `B`.
    LoopAwayFrom(Point),
    /// A loop at a spot with no curve: either side.
    LoopAtSeed,
}

/// The other boundaries of a one-boundary move's region and how a route sorts them.
#[derive(Clone, Debug)]
pub(crate) struct Enclosure {
    /// The region's boundaries other than the move's, with a point of each.
    pub others: Vec<(BoundaryId, Point)>,
    /// The arc of `B` from `x` to `y` (empty for a loop through one corner).
    arc: Vec<Point>,
    kind: Kind,
}

impl Enclosure {
    pub(crate) fn new(
        pos: &Position,
        analysis: &Analysis,
        scene: &Scene,
        from: Corner,
        to: Corner,
    ) -> Option<Enclosure> {
        let region = pos.region_of(from.boundary)?;
        let mut others = Vec::new();
        for b in pos.region(region)?.boundaries() {
            if b.id() == from.boundary {
                continue;
            }
            let spot = *b.corners().first()?;
            let (c, _) = scene.spot(spot)?;
            others.push((b.id(), c));
        }
        let (arc, kind) = match analysis.boundary(from.boundary)? {
            BoundaryPicture::Spot(_) => (Vec::new(), Kind::LoopAtSeed),
            BoundaryPicture::Walk(hs) => {
                let n = hs.len();
                let (i, j) = (from.index as usize, to.index as usize);
                if i == j {
                    let poly = scene.half_edge_polyline(hs[i]);
                    let mid = poly[poly.len() / 2];
                    (Vec::new(), Kind::LoopAwayFrom(mid))
                } else {
                    let mut arc = Vec::new();
                    let mut k = i;
                    while k != j {
                        let poly = scene.half_edge_polyline(hs[k]);
                        if arc.is_empty() {
                            arc.extend(poly);
                        } else {
                            arc.extend(poly.into_iter().skip(1));
                        }
                        k = (k + 1) % n;
                    }
                    (arc, Kind::Arc)
                }
            }
        };
        Some(Enclosure { others, arc, kind })
    }

    /// The arc of `B` from `x` to `y`, its region on the left in the y-up frame (empty for a
    /// loop through one corner).
    pub(crate) fn arc(&self) -> &[Point] {
        &self.arc
    }

    /// The closed polygon `Γ` of a route from `x` to `y`.
    fn gamma(&self, path: &[Point]) -> Vec<Point> {
        let mut g = self.arc.clone();
        if g.is_empty() {
            g.extend_from_slice(path);
        } else {
            // The arc ends where the route ends; go back along the route.
            g.extend(path.iter().rev().skip(1));
        }
        g.pop(); // the polygon closes implicitly
        g
    }

    /// For each other boundary, whether it is inside `Γ`.
    pub(crate) fn inside(&self, path: &[Point]) -> Vec<bool> {
        let g = self.gamma(path);
        self.others
            .iter()
            .map(|&(_, p)| certified::winding_number(p, &g).is_some_and(|w| w != 0))
            .collect()
    }

    /// The ways the route may sort the other boundaries onto the `B_a` side (one, or two for
    /// a loop at a seed).
    pub(crate) fn a_sides(&self, path: &[Point]) -> Vec<Vec<bool>> {
        let ins = self.inside(path);
        let flip: Vec<bool> = ins.iter().map(|&b| !b).collect();
        match self.kind {
            Kind::Arc => {
                if signed_area(&self.gamma(path)) > 0.0 {
                    vec![ins]
                } else {
                    vec![flip]
                }
            }
            Kind::LoopAwayFrom(q) => {
                let g = self.gamma(path);
                if certified::winding_number(q, &g).is_some_and(|w| w != 0) {
                    vec![flip]
                } else {
                    vec![ins]
                }
            }
            Kind::LoopAtSeed => vec![ins, flip],
        }
    }

    /// The boundaries a sorting puts with `B_a`.
    pub(crate) fn side_a_of(&self, a: &[bool]) -> Vec<BoundaryId> {
        self.others
            .iter()
            .zip(a)
            .filter(|&(_, &x)| x)
            .map(|(&(b, _), _)| b)
            .collect()
    }

    /// A ray from other boundary `k` out of the window, and the parity of the arc's crossings
    /// with it.
    pub(crate) fn ray(&self, k: usize, scene: &Scene) -> (Ray, bool) {
        let p = self.others[k].1;
        let mut best: Option<(f64, Ray)> = None;
        for i in 0..16 {
            // Directions off the grid's axes and diagonals, so that the ray meets no cell centre.
            let ang = f64::from(i) * std::f64::consts::PI / 8.0 + 0.123_456_7;
            let (s, c) = ang.sin_cos();
            let tx = if c > 0.0 {
                (scene.width + 1.0 - p.x) / c
            } else if c < 0.0 {
                (-1.0 - p.x) / c
            } else {
                f64::INFINITY
            };
            let ty = if s > 0.0 {
                (scene.height + 1.0 - p.y) / s
            } else if s < 0.0 {
                (-1.0 - p.y) / s
            } else {
                f64::INFINITY
            };
            let t = tx.min(ty).max(0.0) + 1.0;
            let ray = Ray {
                from: p,
                to: Point::new(p.x + t * c, p.y + t * s),
            };
            if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
                best = Some((t, ray));
            }
        }
        let ray = best.expect("sixteen directions").1;
        let arc_parity = ray.parity(&self.arc);
        (ray, arc_parity)
    }
}
