//! The pressure of the two regions a one-boundary move makes (spec 4.5's area term, applied
//! to the one curve the band relaxes): [`Pressure`], measured once on the planner's grid and
//! updated by the area the band sweeps.

use sprouts_geom::{Point, Vector, point_segment_distance, signed_area};
use sprouts_topo::SpotId;

use super::planner::{FreeGrid, Scene};

/// The pressure of the two regions a one-boundary move makes: the term
/// `-μ (L₁ log A₁ + L₂ log A₂)` added to the band's energy, where `A` is the free area on each
/// side of the band and `L` the lives there (one more than the lives of the spots that face
/// only that side: the new spot faces both; counting also what the move leaves its end spots
/// on both sides, at 0.3, drew fewer 8-spot games to the end: 86 and 82 in two runs of 100
/// games, against 90 and 83). It is the area term of spec 4.5's whole-picture
/// energy applied to the one curve being drawn: a region keeps room in proportion to the moves
/// still to be played in it, so that a curve round a seed is not drawn tight round it and the
/// curves later drawn inside it have room.
pub(crate) struct Pressure {
    /// The route the areas were measured along; the areas of a band are these less the area
    /// it has swept.
    reference: Vec<Point>,
    /// The free area on the side the band's normals point to (`perp(t) = (-t.y, t.x)`), and on
    /// the other side, along the reference (px²).
    pub(super) area: [f64; 2],
    /// The lives on each side, in the order of `area`.
    pub(super) lives: [f64; 2],
    /// The term's `μ` (px²).
    weight: f64,
}

impl Pressure {
    /// The two sides of `route` (from `ends[0]`'s centre to `ends[1]`'s) in `grid`'s open
    /// cells, or `None` if they are one region (a two-boundary move, or a leak round an end).
    /// A side with no open cell beside the route (a route along a curve at the clearance, the
    /// lens a move between two spots of one curve makes) is a strip a cell wide along the
    /// route: the band then opens the lens, which is the side that needs it most (without
    /// the strip such a move would have no pressure, and its lens would stay as thin as the
    /// route left it).
    pub(crate) fn new(
        grid: &FreeGrid,
        route: &[Point],
        scene: &Scene,
        ends: [SpotId; 2],
        weight: f64,
    ) -> Option<Pressure> {
        if weight <= 0.0 || route.len() < 2 {
            return None;
        }
        // 0 open, 1 closed or on the route, 2 and 3 the two sides.
        let mut label: Vec<u8> = grid.open.iter().map(|&o| if o { 0 } else { 1 }).collect();
        let wall = 0.75 * grid.cell;
        for w in route.windows(2) {
            let (lo, hi) = (
                Point::new(w[0].x.min(w[1].x) - wall, w[0].y.min(w[1].y) - wall),
                Point::new(w[0].x.max(w[1].x) + wall, w[0].y.max(w[1].y) + wall),
            );
            let i0 = ((lo.x / grid.cell).floor().max(0.0)) as usize;
            let j0 = ((lo.y / grid.cell).floor().max(0.0)) as usize;
            let i1 = ((hi.x / grid.cell).ceil().max(0.0) as usize).min(grid.nx - 1);
            let j1 = ((hi.y / grid.cell).ceil().max(0.0) as usize).min(grid.ny - 1);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    let c = (j * grid.nx + i) as u32;
                    if point_segment_distance(grid.centre(c), w[0], w[1]) <= wall {
                        label[c as usize] = 1;
                    }
                }
            }
        }
        // A seed on each side, beside the route's middle part: `Ok(cell)`, or `Err(true)` if
        // the cells there are the other side's (one region), `Err(false)` if none is open.
        let seed = |side: f64, label: &[u8]| -> Result<u32, bool> {
            let m = route.len();
            let mut found = None;
            for k in [m / 2, m / 3, 2 * m / 3, m / 4, 3 * m / 4] {
                let (p, q) = (route[k.min(m - 2)], route[k.min(m - 2) + 1]);
                let t = q - p;
                if t.norm() < 1e-9 {
                    continue;
                }
                let nv = Vector::new(-t.y, t.x) / t.norm() * side;
                let mid = p + 0.5 * t;
                for off in [1.5, 2.5, 3.5] {
                    if let Some(c) = grid.cell_at(mid + nv * off * grid.cell) {
                        match label[c as usize] {
                            0 => {
                                found.get_or_insert(c);
                            }
                            1 => {}
                            _ => return Err(true),
                        }
                    }
                }
            }
            found.ok_or(false)
        };
        // Each side's 4-connected open cells; reaching the other side's means one region.
        let mut count = [0usize; 2];
        let mut empty = [false; 2];
        for (s, side) in [(0usize, 1.0), (1, -1.0)] {
            let start = match seed(side, &label) {
                Ok(c) => c,
                Err(true) => return None,
                Err(false) => {
                    empty[s] = true;
                    continue;
                }
            };
            let mark = 2 + s as u8;
            let mut stack = vec![start];
            label[start as usize] = mark;
            while let Some(c) = stack.pop() {
                count[s] += 1;
                for (m, step) in grid.neighbours(c) {
                    if step > 1.01 * grid.cell {
                        continue;
                    }
                    match label[m as usize] {
                        0 => {
                            label[m as usize] = mark;
                            stack.push(m);
                        }
                        1 => {}
                        other if other != mark => return None,
                        _ => {}
                    }
                }
            }
        }
        // The new spot faces both sides.
        let mut lives = [1.0, 1.0];
        for (k, &(id, c, r)) in scene.spots.iter().enumerate() {
            let l = scene.spot_lives.get(k).copied().unwrap_or(0);
            if l == 0 || ends.contains(&id) {
                continue;
            }
            let near = grid.open_cells_within(c, r + scene.d0 + 2.0 * grid.cell);
            let on = |m: u8| near.iter().any(|&x| label[x as usize] == m);
            match (on(2), on(3)) {
                (true, false) => lives[0] += f64::from(l),
                (false, true) => lives[1] += f64::from(l),
                _ => {}
            }
        }
        if empty[0] && empty[1] {
            return None;
        }
        let cell2 = grid.cell * grid.cell;
        // A side with no open cell beside the route (the route runs along a curve at the
        // clearance, a thin lens): a strip a cell wide along it.
        let strip = grid.cell * route.windows(2).map(|w| (w[1] - w[0]).norm()).sum::<f64>();
        let area = |s: usize| {
            if empty[s] {
                strip
            } else {
                count[s] as f64 * cell2
            }
        };
        Some(Pressure {
            reference: route.to_vec(),
            area: [area(0), area(1)],
            lives,
            weight,
        })
    }

    /// The two areas for the band `pts` (same ends as the reference).
    pub(super) fn areas(&self, pts: &[Point]) -> [f64; 2] {
        let mut ring = pts.to_vec();
        ring.extend(self.reference.iter().rev());
        let swept = signed_area(&ring);
        [self.area[0] + swept, self.area[1] - swept]
    }

    /// The term's energy (relative to the reference; infinite if a side has no area left).
    pub(super) fn energy(&self, pts: &[Point]) -> f64 {
        let a = self.areas(pts);
        if a[0] <= 0.0 || a[1] <= 0.0 {
            return f64::INFINITY;
        }
        -self.weight
            * (self.lives[0] * (a[0] / self.area[0]).ln()
                + self.lives[1] * (a[1] / self.area[1]).ln())
    }

    /// The energy's derivative per unit of area moved towards the normals' side, and its
    /// second derivative.
    pub(super) fn slope(&self, pts: &[Point]) -> (f64, f64) {
        let a = self.areas(pts);
        let (a0, a1) = (a[0].max(1.0), a[1].max(1.0));
        (
            self.weight * (self.lives[0] / a0 - self.lives[1] / a1),
            self.weight * (self.lives[0] / (a0 * a0) + self.lives[1] / (a1 * a1)),
        )
    }
}
