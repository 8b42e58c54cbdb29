//! The planner (spec 3.2): the free space of a picture on a square grid, Dijkstra from a spot's
//! side, the widest way when there is no way; the parity search of spec 3.3 on it is
//! [`super::parity`]'s.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use sprouts_geom::{Point, closest_on_segment, refined_polygon};
use sprouts_topo::{Corner, SpotId};

use crate::analyse::Analysis;
use crate::drawing::{Drawing, Settings};

/// What a grid cell's clearance was measured against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Obstacle {
    /// The window's edge.
    Edge,
    /// A spot (index into the drawing's spots).
    Spot(u32),
    /// A curve (index into the drawing's curves).
    Curve(u32),
}

/// The picture as the router sees it: spots and curves as polylines.
#[derive(Clone, Debug)]
pub(crate) struct Scene {
    pub width: f64,
    pub height: f64,
    pub d0: f64,
    pub rho: f64,
    pub spots: Vec<(SpotId, Point, f64)>,
    /// The lives of each spot of `spots` (3 less its degree), empty if not known.
    pub spot_lives: Vec<u8>,
    /// Each curve's end spots and its polyline (a refined control polygon, within a quarter
    /// pixel of the curve).
    pub curves: Vec<(SpotId, SpotId, Vec<Point>)>,
}

impl Scene {
    /// A scene for tests: a `width` x `height` window with the default clearances (`d0` 6 px,
    /// `rho = sqrt(2) D` for `D` 40 px), spots of radius 5 px at the given places, and curves
    /// between them along the given polylines.
    #[cfg(test)]
    pub(crate) fn for_test(
        (width, height): (f64, f64),
        spots: &[(u32, f64, f64)],
        curves: Vec<(u32, u32, Vec<Point>)>,
    ) -> Scene {
        let id = |k: u32| SpotId::new(k).expect("a spot number from 1");
        Scene {
            width,
            height,
            d0: 6.0,
            rho: 40.0 * std::f64::consts::SQRT_2,
            spots: spots
                .iter()
                .map(|&(k, x, y)| (id(k), Point::new(x, y), 5.0))
                .collect(),
            spot_lives: Vec::new(),
            curves: curves
                .into_iter()
                .map(|(a, b, pts)| (id(a), id(b), pts))
                .collect(),
        }
    }

    pub(crate) fn new(drawing: &Drawing, settings: &Settings) -> Scene {
        let curves = drawing
            .curves()
            .iter()
            .map(|c| {
                let pts = match refined_polygon(&c.spline, 0.25, 8.0) {
                    Ok(p) => p.points().to_vec(),
                    Err(_) => {
                        // Sample the curve instead (only a guide: the certificate decides).
                        let n = 64;
                        let len = c.spline.param_length();
                        (0..=n)
                            .map(|i| c.spline.eval_global(len * f64::from(i) / f64::from(n)))
                            .collect()
                    }
                };
                (c.from, c.to, pts)
            })
            .collect();
        Scene {
            width: drawing.world().width,
            height: drawing.world().height,
            d0: settings.min_clearance,
            rho: std::f64::consts::SQRT_2 * settings.comfort_distance,
            spots: drawing
                .spots()
                .iter()
                .map(|s| (s.id, s.centre, s.radius))
                .collect(),
            spot_lives: drawing
                .spots()
                .iter()
                .map(|s| 3u8.saturating_sub(drawing.degree(s.id).min(3) as u8))
                .collect(),
            curves,
        }
    }

    pub(crate) fn spot(&self, id: SpotId) -> Option<(Point, f64)> {
        self.spots
            .iter()
            .find(|s| s.0 == id)
            .map(|&(_, c, r)| (c, r))
    }

    /// The radius within which the curves at a move's end spots are measured by angle: `rho`,
    /// or less for two spots close together (so that the way between neighbours along a
    /// curve stays closed along it).
    pub(crate) fn end_rho(&self, ends: &[SpotId]) -> f64 {
        match ends {
            [a, b] if a != b => match (self.spot(*a), self.spot(*b)) {
                (Some((p, _)), Some((q, _))) => self.rho.min(0.4 * (p - q).norm()),
                _ => self.rho,
            },
            _ => self.rho,
        }
    }

    /// The polyline of a half-edge, from its tail to its head.
    pub(crate) fn half_edge_polyline(&self, h: crate::drawing::HalfEdgeId) -> Vec<Point> {
        let mut pts = self.curves[h.curve().index()].2.clone();
        if !h.is_forward() {
            pts.reverse();
        }
        pts
    }
}

/// The spots a search starts from or goes to, with the sides allowed there.
#[derive(Clone, Debug)]
pub(crate) struct Terminal {
    pub spot: SpotId,
    pub centre: Point,
    pub radius: f64,
    /// Corners of the spot the curve may use here.
    pub corners: Vec<Corner>,
}

/// The free space on a grid of square cells (spec 3.2).
#[derive(Clone, Debug)]
pub(crate) struct FreeGrid {
    pub cell: f64,
    pub nx: usize,
    pub ny: usize,
    /// Clearance of each cell's centre (capped), with the angular measure near the terminals.
    pub clear: Vec<f32>,
    /// What set each cell's clearance.
    pub near: Vec<Obstacle>,
    /// Cells that may be used at all (outside the terminals' other sides and the walls).
    pub allowed: Vec<bool>,
    /// Allowed and with clearance at least `d0`.
    pub open: Vec<bool>,
    pub d0: f64,
    /// Each cell's cost per unit of length (at least 1): more where the cell is close to
    /// something, so that the shortest way runs along the middle of free space
    /// ([`clearance_cost`]).
    pub cost: Vec<f32>,
    /// Each cell's distance to the nearest spot, curve or window edge, uncapped: the
    /// clearance where it is measured (below `2 d0`) and beyond that a chamfer distance
    /// transform of it (within a few percent of the Euclidean distance). Walls do not count.
    pub room: Vec<f32>,
}

/// A grid cell.
pub(crate) type Cell = u32;

/// How much more a step costs right against an obstacle than in the open, less one (the `k`
/// of [`clearance_cost`]).
const CLEARANCE_WEIGHT: f64 = 2.0;
/// The clearance beyond which a step costs its length, in units of the comfort distance `D`.
const CLEARANCE_REACH: f64 = 2.0;
/// The weight of the step cost's second term, which grows as the square of how far the room
/// is below [`NARROW_REACH`] `d0` ([`clearance_cost`]): a way through a gap of a few `d0`
/// costs up to `1 + k + n` times its length rather than `1 + k`, so the planner takes it
/// only when a way round is much longer.
///
/// A curve drawn down a gap splits it into two narrower ones, and a gap narrower than twice the
/// tightest clearance closes the region beyond it to every later curve: the refusals of random
/// 8-spot games were almost all such corridors, between curves drawn one beside the other.
/// Random 8-spot games drawn to the end, 100 a seed on five seeds (`ROUTE_SEED` unset, 7, 11,
/// 13 and 17; README, "Drawing moves"): without the term 93, 89, 90, 89 and 90 (451); at `n`
/// 16 and a reach of `4 d0`, 96, 89, 93, 92 and 90 (460); at 32, 96, 90, 93, 93 and 90 (462,
/// the same within the noise). On the first seed alone: 94 at 8; 94 at 8 with a reach of
/// `2 d0`, 90 at 16 with `6 d0`; the first term's weight doubled instead, 92.
const NARROW_WEIGHT: f64 = 16.0;
/// The room, in units of `d0`, below which a step costs more by [`NARROW_WEIGHT`].
const NARROW_REACH: f64 = 4.0;
/// The room kept round a spot with lives, for the step cost, in units of `D`.
const LIVE_SPOT_ROOM: f64 = 0.5;

pub(super) const NEIGHBOURS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

impl FreeGrid {
    /// The cell width of spec 3.2: `max(2, min(8, 0.7 d0))` pixels.
    pub(crate) fn cell_width(d0: f64) -> f64 {
        (0.7 * d0).clamp(2.0, 8.0)
    }

    /// Builds the free space for a curve joining `terminals` (their discs are not obstacles,
    /// their own curves are measured by angle within `rho`, and near them only the given
    /// corners are allowed). `walls` are segments closed to the path with a half-width.
    /// Several grids for the same terminals with other walls: [`GridBase::with_walls`].
    pub(crate) fn new(
        scene: &Scene,
        analysis: &Analysis,
        terminals: &[Terminal],
        walls: &[Wall],
    ) -> FreeGrid {
        let base = GridBase::new(scene, analysis, terminals);
        if walls.is_empty() {
            base.grid
        } else {
            base.with_walls(walls)
        }
    }

    /// The cost of the step between neighbouring cells `c` and `m` of length `len`: the
    /// length weighted by the mean of the two cells' costs.
    #[inline]
    pub(crate) fn step_cost(&self, c: Cell, m: Cell, len: f64) -> f64 {
        len * 0.5 * f64::from(self.cost[c as usize] + self.cost[m as usize])
    }

    /// The chamfer transform's steps: a cell straight, a cell's diagonal.
    fn chamfer_steps(&self) -> (f32, f32) {
        (
            self.cell as f32,
            std::f32::consts::SQRT_2 * self.cell as f32,
        )
    }

    /// The room at a point: [`FreeGrid::room`] of its cell (0 outside the grid).
    pub(crate) fn room_at(&self, p: Point) -> f64 {
        self.cell_at(p)
            .and_then(|c| self.room.get(c as usize))
            .map_or(0.0, |&r| f64::from(r))
    }

    pub(crate) fn centre(&self, c: Cell) -> Point {
        let c = c as usize;
        centre_of(self.cell, c % self.nx, c / self.nx)
    }

    /// The open cells whose centres are within `r` of `p`, sorted.
    pub(crate) fn open_cells_within(&self, p: Point, r: f64) -> Vec<Cell> {
        let k = (r / self.cell).ceil() as i64 + 1;
        let mut out = Vec::new();
        for dj in -k..=k {
            for di in -k..=k {
                let q = Point::new(p.x + di as f64 * self.cell, p.y + dj as f64 * self.cell);
                if let Some(c) = self.cell_at(q)
                    && self.open[c as usize]
                    && (self.centre(c) - p).norm() <= r
                {
                    out.push(c);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    pub(crate) fn cell_at(&self, p: Point) -> Option<Cell> {
        if !(p.x.is_finite() && p.y.is_finite()) || p.x < 0.0 || p.y < 0.0 {
            return None;
        }
        let i = (p.x / self.cell).floor() as usize;
        let j = (p.y / self.cell).floor() as usize;
        (i < self.nx && j < self.ny).then(|| (j * self.nx + i) as Cell)
    }

    /// The cells near a terminal that a curve may use to leave or reach it: allowed, open,
    /// within a few cells of the spot, and through one of its corners. Beyond the first ring
    /// (when none of its cells is open) a cell must also lie in the corner's region: a
    /// corner's angle reaches past the region's far side where the region is small (a
    /// triangle of three spots some 20 px apart), and a route from a cell there crossed a
    /// curve on its first leg (the certificate then refused it at 0 px, instead of the refusal
    /// saying what has no room). The first ring is not tested, so that the common call makes
    /// no `Analysis::region_at` query (checked on all rings, two sets of 100 random 8-spot
    /// games drew the same moves; the cost of that was not measured).
    pub(crate) fn terminal_cells(&self, analysis: &Analysis, t: &Terminal) -> Vec<Cell> {
        let regions: Vec<_> = t
            .corners
            .iter()
            .map(|k| analysis.position().region_of(k.boundary))
            .collect();
        for extra in [1.5, 3.0, 6.0] {
            let reach = t.radius + self.d0 + extra * self.cell;
            let mut out = Vec::new();
            let r = (reach / self.cell).ceil() as i64 + 1;
            let ci = (t.centre.x / self.cell).floor() as i64;
            let cj = (t.centre.y / self.cell).floor() as i64;
            for j in (cj - r)..=(cj + r) {
                for i in (ci - r)..=(ci + r) {
                    if i < 0 || j < 0 || i >= self.nx as i64 || j >= self.ny as i64 {
                        continue;
                    }
                    let c = (j as usize * self.nx + i as usize) as Cell;
                    let p = self.centre(c);
                    if (p - t.centre).norm() > reach || !self.open[c as usize] {
                        continue;
                    }
                    let through = analysis
                        .corner_at(t.spot, p)
                        .and_then(|k| t.corners.iter().position(|&x| x == k));
                    let Some(at) = through else {
                        continue;
                    };
                    if extra > 1.5 && analysis.region_at(p) != regions[at] {
                        continue;
                    }
                    out.push(c);
                }
            }
            if !out.is_empty() {
                return out;
            }
        }
        Vec::new()
    }

    pub(crate) fn neighbours(&self, c: Cell) -> impl Iterator<Item = (Cell, f64)> + '_ {
        let (i, j) = ((c as usize % self.nx) as i32, (c as usize / self.nx) as i32);
        NEIGHBOURS.iter().filter_map(move |&(di, dj)| {
            let (a, b) = (i + di, j + dj);
            if a < 0 || b < 0 || a >= self.nx as i32 || b >= self.ny as i32 {
                return None;
            }
            let w = if di != 0 && dj != 0 {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            Some(((b as usize * self.nx + a as usize) as Cell, w * self.cell))
        })
    }

    /// Dijkstra over open cells from `sources` (with their starting distances): the distance
    /// to every cell it reaches (infinite elsewhere) and the predecessor of each.
    pub(crate) fn dijkstra(&self, sources: &[(Cell, f64)]) -> (Vec<f64>, Vec<Cell>) {
        let _span = tracing::debug_span!("dijkstra", cells = self.nx * self.ny).entered();
        let n = self.nx * self.ny;
        let mut dist = vec![f64::INFINITY; n];
        let mut prev = vec![Cell::MAX; n];
        let mut heap = BinaryHeap::new();
        for &(c, d) in sources {
            if d < dist[c as usize] {
                dist[c as usize] = d;
                heap.push(Entry(d, c, 0));
            }
        }
        while let Some(Entry(d, c, _)) = heap.pop() {
            if d > dist[c as usize] {
                continue;
            }
            for (m, w) in self.neighbours(c) {
                if !self.open[m as usize] {
                    continue;
                }
                let nd = d + self.step_cost(c, m, w);
                if nd < dist[m as usize] {
                    dist[m as usize] = nd;
                    prev[m as usize] = c;
                    heap.push(Entry(nd, m, 0));
                }
            }
        }
        (dist, prev)
    }

    /// The widest way (the path whose narrowest clearance is largest) from `sources` to
    /// `targets` over allowed cells, stepping only between cells whose clearances add up to
    /// more than the step (so that no curve passes between them): its narrowest clearance and
    /// the cell where it is reached.
    pub(crate) fn widest(&self, sources: &[Cell], targets: &[Cell]) -> Option<(f64, Cell)> {
        let n = self.nx * self.ny;
        let mut best = vec![f32::NEG_INFINITY; n];
        let mut worst_at = vec![Cell::MAX; n];
        let mut heap = BinaryHeap::new();
        for &c in sources {
            best[c as usize] = self.clear[c as usize];
            worst_at[c as usize] = c;
            heap.push(Entry(-f64::from(self.clear[c as usize]), c, 0));
        }
        let is_target: std::collections::HashSet<Cell> = targets.iter().copied().collect();
        while let Some(Entry(negw, c, _)) = heap.pop() {
            let w = -negw;
            if (w as f32) < best[c as usize] {
                continue;
            }
            if is_target.contains(&c) {
                return Some((w, worst_at[c as usize]));
            }
            let cc = self.clear[c as usize];
            for (m, step) in self.neighbours(c) {
                if !self.allowed[m as usize] {
                    continue;
                }
                let cm = self.clear[m as usize];
                // A step is taken only where the two cells' clear discs overlap along it:
                // else a curve may pass between their centres, and the way would cross it.
                if f64::from(cc) + f64::from(cm) <= step + 0.01 {
                    continue;
                }
                let nw = (w as f32).min(cm);
                if nw > best[m as usize] {
                    best[m as usize] = nw;
                    worst_at[m as usize] = if cm < w as f32 {
                        m
                    } else {
                        worst_at[c as usize]
                    };
                    heap.push(Entry(-f64::from(nw), m, 0));
                }
            }
        }
        None
    }

    /// The clearance-weighted length of the straight segment from `p` to `q` (each piece of
    /// a third of a cell weighted by the cost of the cell it is in; 1 outside the grid).
    pub(crate) fn segment_cost(&self, p: Point, q: Point) -> f64 {
        let len = (q - p).norm();
        let steps = ((len / (self.cell / 3.0)).ceil() as usize).max(1);
        let piece = len / steps as f64;
        (0..steps)
            .map(|k| {
                let t = (k as f64 + 0.5) / steps as f64;
                let w = self
                    .cell_at(p + (q - p) * t)
                    .map_or(1.0, |c| f64::from(self.cost[c as usize]));
                w * piece
            })
            .sum()
    }

    /// Whether the straight segment from `p` to `q` stays in open cells (sampled at a third of
    /// a cell).
    pub(crate) fn visible(&self, p: Point, q: Point) -> bool {
        let len = (q - p).norm();
        let steps = ((len / (self.cell / 3.0)).ceil() as usize).max(1);
        (0..=steps).all(|k| {
            let t = k as f64 / steps as f64;
            self.cell_at(p + (q - p) * t)
                .is_some_and(|c| self.open[c as usize])
        })
    }
}

/// A wall closed to a path: a segment and its half-width.
pub(crate) type Wall = (Point, Point, f64);

/// The first and last cell (clamped to `0..n`) whose centres may lie in `[lo, hi]`.
pub(crate) fn cell_range(cell: f64, lo: f64, hi: f64, n: usize) -> (usize, usize) {
    let a = ((lo / cell - 0.5).floor().max(0.0)) as usize;
    let b = ((hi / cell - 0.5).ceil().max(0.0) as usize).min(n - 1);
    (a.min(n - 1), b)
}

/// A two-pass chamfer distance transform in place over an `nx` x `ny` raster: each value
/// becomes the least of itself and its neighbours' values plus the step (`a` straight, `d`
/// diagonal), propagated forward then backward. The neighbour along the row is taken last, so
/// that the chain from cell to cell is one addition and one minimum long.
fn chamfer(r: &mut [f32], nx: usize, ny: usize, a: f32, d: f32) {
    for j in 0..ny {
        for i in 0..nx {
            let at = j * nx + i;
            let mut v = r[at];
            if j > 0 {
                v = v.min(r[at - nx] + a);
                if i > 0 {
                    v = v.min(r[at - nx - 1] + d);
                }
                if i + 1 < nx {
                    v = v.min(r[at - nx + 1] + d);
                }
            }
            if i > 0 {
                v = v.min(r[at - 1] + a);
            }
            r[at] = v;
        }
    }
    for j in (0..ny).rev() {
        for i in (0..nx).rev() {
            let at = j * nx + i;
            let mut v = r[at];
            if j + 1 < ny {
                v = v.min(r[at + nx] + a);
                if i + 1 < nx {
                    v = v.min(r[at + nx + 1] + d);
                }
                if i > 0 {
                    v = v.min(r[at + nx - 1] + d);
                }
            }
            if i + 1 < nx {
                v = v.min(r[at + 1] + a);
            }
            r[at] = v;
        }
    }
}

/// The free space for a curve joining some terminals, before any wall: the router tries
/// several sets of walls for one move (a loop's walls of several lengths and directions),
/// and what does not depend on them (the clearances, the terminals' corners, the room) is
/// measured once here.
#[derive(Clone, Debug)]
pub(crate) struct GridBase {
    /// The grid without walls.
    pub grid: FreeGrid,
    /// Where the step cost's room is measured from: the clearance below `2 d0` and the room
    /// kept round live spots (`INFINITY` elsewhere); kept for the tests' reference.
    #[cfg(test)]
    seeds: Vec<f32>,
    /// The chamfer transform of `seeds`: the room the step cost is read from.
    cost_room: Vec<f32>,
    /// The room beyond which a step costs its length.
    reach: f32,
    /// The room below which a step costs more again ([`NARROW_WEIGHT`]).
    narrow: f32,
}

impl GridBase {
    /// The free space for a curve joining `terminals`, without walls (see [`FreeGrid::new`]).
    pub(crate) fn new(scene: &Scene, analysis: &Analysis, terminals: &[Terminal]) -> GridBase {
        let _span = tracing::debug_span!("free_grid").entered();
        let cell = FreeGrid::cell_width(scene.d0);
        let nx = ((scene.width / cell).floor() as usize).max(1);
        let ny = ((scene.height / cell).floor() as usize).max(1);
        let cap = (2.0 * scene.d0) as f32;
        let mut clear = vec![cap; nx * ny];
        let mut near = vec![Obstacle::Edge; nx * ny];
        for j in 0..ny {
            for i in 0..nx {
                let p = centre_of(cell, i, j);
                let d = p.x.min(p.y).min(scene.width - p.x).min(scene.height - p.y) as f32;
                if d < clear[j * nx + i] {
                    clear[j * nx + i] = d;
                }
            }
        }
        let term_ids: Vec<SpotId> = terminals.iter().map(|t| t.spot).collect();
        // Two spots close together (say, neighbours along a curve): the angular measure reaches
        // only part of the way, so that the way between them stays closed along their curves.
        let rho = match terminals {
            [s, t] if s.spot != t.spot => scene.rho.min(0.4 * (s.centre - t.centre).norm()),
            _ => scene.rho,
        };
        let capd = f64::from(cap);
        let range = |lo: f64, hi: f64, n: usize| cell_range(cell, lo, hi, n);
        for (k, &(id, c, r)) in scene.spots.iter().enumerate() {
            if term_ids.contains(&id) {
                continue;
            }
            let reach = r + capd;
            let (i0, i1) = range(c.x - reach, c.x + reach, nx);
            let (j0, j1) = range(c.y - reach, c.y + reach, ny);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    let p = centre_of(cell, i, j);
                    let d = ((p - c).norm() - r).max(0.0) as f32;
                    let at = j * nx + i;
                    if d < clear[at] {
                        clear[at] = d;
                        near[at] = Obstacle::Spot(k as u32);
                    }
                }
            }
        }
        measure_curves(
            scene,
            terminals,
            (cell, nx, ny),
            rho,
            cap,
            (&mut clear, &mut near),
        );
        let allowed = allowed_cells(scene, analysis, terminals, (cell, nx, ny));
        let d0 = scene.d0 as f32;
        let open = clear
            .iter()
            .zip(&allowed)
            .map(|(&c, &a)| a && c >= d0)
            .collect();
        let mut grid = FreeGrid {
            cell,
            nx,
            ny,
            clear,
            near,
            allowed,
            open,
            d0: scene.d0,
            cost: Vec::new(),
            room: Vec::new(),
        };
        let mut seeds: Vec<f32> = grid
            .clear
            .iter()
            .map(|&c| if c < cap { c } else { f32::INFINITY })
            .collect();
        let (a, d) = grid.chamfer_steps();
        let mut room = seeds.clone();
        chamfer(&mut room, nx, ny, a, d);
        grid.room = room;
        // Room kept round spots with lives, for the cost only.
        let comfort = scene.rho / std::f64::consts::SQRT_2;
        let kept = keep_room_round_live_spots(scene, &term_ids, (cell, nx, ny), cap, &mut seeds);
        let cost_room = if kept {
            let mut r = seeds.clone();
            chamfer(&mut r, nx, ny, a, d);
            r
        } else {
            grid.room.clone()
        };
        let reach = (CLEARANCE_REACH * comfort) as f32;
        let narrow = (NARROW_REACH * scene.d0) as f32;
        grid.cost = cost_room
            .iter()
            .map(|&v| clearance_cost(v, reach, narrow))
            .collect();
        GridBase {
            grid,
            #[cfg(test)]
            seeds,
            cost_room,
            reach,
            narrow,
        }
    }

    /// The grid with `walls` closed, and the step cost measured from them too (a loop's
    /// strands keep off its wall as off a curve). Only the cells within reach of the walls
    /// change: a wall's room is measured on the rectangle round the walls within which a
    /// distance from them can be below the cost's reach, and the room is the lesser of that
    /// and the base's (a chamfer transform of the union of two sets of seeds is the least of
    /// their transforms, and no path shorter than the reach leaves the rectangle).
    pub(crate) fn with_walls(&self, walls: &[Wall]) -> FreeGrid {
        let mut g = self.grid.clone();
        if walls.is_empty() {
            return g;
        }
        let (cell, nx, ny) = (g.cell, g.nx, g.ny);
        let cap = 2.0 * g.d0;
        let margin = f64::from(self.reach) + 2.0 * cell;
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for &(a, b, hw) in walls {
            x0 = x0.min(a.x.min(b.x) - hw - cap);
            y0 = y0.min(a.y.min(b.y) - hw - cap);
            x1 = x1.max(a.x.max(b.x) + hw + cap);
            y1 = y1.max(a.y.max(b.y) + hw + cap);
        }
        let (i0, i1) = cell_range(cell, x0 - margin, x1 + margin, nx);
        let (j0, j1) = cell_range(cell, y0 - margin, y1 + margin, ny);
        let (bw, bh) = (i1 - i0 + 1, j1 - j0 + 1);
        let mut local = vec![f32::INFINITY; bw * bh];
        let capf = cap as f32;
        let d0 = g.d0 as f32;
        for &(a, b, hw) in walls {
            let (wi0, wi1) = cell_range(cell, a.x.min(b.x) - hw - cap, a.x.max(b.x) + hw + cap, nx);
            let (wj0, wj1) = cell_range(cell, a.y.min(b.y) - hw - cap, a.y.max(b.y) + hw + cap, ny);
            for j in wj0..=wj1 {
                for i in wi0..=wi1 {
                    let p = centre_of(cell, i, j);
                    let dist = sprouts_geom::point_segment_distance(p, a, b);
                    let at = j * nx + i;
                    if dist <= hw {
                        g.allowed[at] = false;
                        g.open[at] = false;
                    }
                    let w = (dist - hw).max(0.0) as f32;
                    let l = (j - j0) * bw + (i - i0);
                    if w < capf && w < local[l] {
                        local[l] = w;
                    }
                }
            }
        }
        debug_assert!(
            g.open
                .iter()
                .zip(&g.clear)
                .zip(&g.allowed)
                .all(|((&o, &c), &a)| o == (a && c >= d0))
        );
        let (a, d) = g.chamfer_steps();
        chamfer(&mut local, bw, bh, a, d);
        for j in j0..=j1 {
            for i in i0..=i1 {
                let at = j * nx + i;
                let v = self.cost_room[at].min(local[(j - j0) * bw + (i - i0)]);
                g.cost[at] = clearance_cost(v, self.reach, self.narrow);
            }
        }
        g
    }

    /// [`GridBase::with_walls`] measured plainly: the walls' room on the whole grid from the
    /// union of all the seeds (the slow reference the tests hold the fast one to).
    #[cfg(test)]
    pub(crate) fn with_walls_everywhere(&self, walls: &[Wall]) -> FreeGrid {
        let mut g = self.grid.clone();
        let (cell, nx, ny) = (g.cell, g.nx, g.ny);
        let cap = 2.0 * g.d0;
        let mut r = self.seeds.clone();
        for j in 0..ny {
            for i in 0..nx {
                let p = centre_of(cell, i, j);
                let at = j * nx + i;
                for &(a, b, hw) in walls {
                    let dist = sprouts_geom::point_segment_distance(p, a, b);
                    if dist <= hw {
                        g.allowed[at] = false;
                    }
                    let w = (dist - hw).max(0.0) as f32;
                    if w < cap as f32 {
                        r[at] = r[at].min(w);
                    }
                }
                g.open[at] = g.allowed[at] && g.clear[at] >= g.d0 as f32;
            }
        }
        let (a, d) = g.chamfer_steps();
        chamfer(&mut r, nx, ny, a, d);
        g.cost = r
            .iter()
            .map(|&v| clearance_cost(v, self.reach, self.narrow))
            .collect();
        g
    }
}

/// The grid's cells `(cell, nx, ny)`: the cell width and the number of columns and rows.
type Lattice = (f64, usize, usize);

/// Lowers each cell's clearance (`clear`, up to `cap`) to the curves of `scene`, and records
/// the nearest (`near`). Near a terminal the curves attached to it are measured by angle
/// (within `rho` of the spot): a curve leaving the spot closes only the cells in its
/// direction, so that the spot's other sides stay open.
fn measure_curves(
    scene: &Scene,
    terminals: &[Terminal],
    (cell, nx, ny): Lattice,
    rho: f64,
    cap: f32,
    (clear, near): (&mut [f32], &mut [Obstacle]),
) {
    let capd = f64::from(cap);
    let range = |lo: f64, hi: f64, n: usize| cell_range(cell, lo, hi, n);
    for (k, (from, to, pts)) in scene.curves.iter().enumerate() {
        // The terminals this curve is attached to: there, distance becomes angle.
        let own: Vec<&Terminal> = terminals
            .iter()
            .filter(|t| t.spot == *from || t.spot == *to)
            .collect();
        for w in pts.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (i0, i1) = range(a.x.min(b.x) - capd, a.x.max(b.x) + capd, nx);
            let (j0, j1) = range(a.y.min(b.y) - capd, a.y.max(b.y) + capd, ny);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    let p = centre_of(cell, i, j);
                    let at = j * nx + i;
                    let (_, q) = closest_on_segment(p, a, b);
                    // The measure below is at least the distance: a cell already as close
                    // to something else keeps its clearance (with a margin for rounding).
                    let c2 = f64::from(clear[at]);
                    if (p - q).norm_squared() > c2 * c2 * (1.0 + 1e-9) {
                        continue;
                    }
                    let euclid = (p - q).norm();
                    let mut d = euclid;
                    // A curve through the cell's square always closes it (the angular
                    // measure alone would leave the wedge near the spot thinner than a cell).
                    let through = euclid < 0.75 * cell;
                    for t in own.iter().filter(|_| !through) {
                        let rp = p - t.centre;
                        if rp.norm() < rho {
                            let mut rq = q - t.centre;
                            if rq.norm() < 1e-9 {
                                rq = if (a - t.centre).norm() > (b - t.centre).norm() {
                                    a - t.centre
                                } else {
                                    b - t.centre
                                };
                            }
                            let ang = angle_between(rp, rq);
                            d = d.max(ang * rho);
                        }
                    }
                    let d = d as f32;
                    if d < clear[at] {
                        clear[at] = d;
                        near[at] = Obstacle::Curve(k as u32);
                    }
                }
            }
        }
    }
}

/// Which cells a route may use: all but those within `d0` of a terminal's disc on the sides
/// of the spot its corners do not allow (a cell of two terminals of one spot, a loop's, is
/// allowed if either allows it).
fn allowed_cells(
    scene: &Scene,
    analysis: &Analysis,
    terminals: &[Terminal],
    (cell, nx, ny): Lattice,
) -> Vec<bool> {
    let range = |lo: f64, hi: f64, n: usize| cell_range(cell, lo, hi, n);
    let mut allowed = vec![true; nx * ny];
    for t in terminals {
        let reach = t.radius + scene.d0;
        let (i0, i1) = range(t.centre.x - reach, t.centre.x + reach, nx);
        let (j0, j1) = range(t.centre.y - reach, t.centre.y + reach, ny);
        for j in j0..=j1 {
            for i in i0..=i1 {
                let p = centre_of(cell, i, j);
                if (p - t.centre).norm() > reach {
                    continue;
                }
                let ok = analysis
                    .corner_at(t.spot, p)
                    .is_some_and(|c| t.corners.contains(&c));
                // A cell of two terminals (a loop) is allowed if either allows it.
                let at = j * nx + i;
                if !ok {
                    let other_allows = terminals.iter().any(|u| {
                        u.spot == t.spot
                            && !std::ptr::eq(u, t)
                            && analysis
                                .corner_at(u.spot, p)
                                .is_some_and(|c| u.corners.contains(&c))
                    });
                    if !other_allows {
                        allowed[at] = false;
                    }
                }
            }
        }
    }
    allowed
}

/// Room kept round spots with lives (for the cost only): a way passing within
/// [`LIVE_SPOT_ROOM`] `D` of one costs as if it passed at the spot's disc, so that curves leave
/// room round the spots later moves start from (a curve wrapped round a live spot at `2 d0`
/// leaves it a pocket no loop fits in). Lowers `seeds` there; whether any spot was kept room
/// round.
fn keep_room_round_live_spots(
    scene: &Scene,
    term_ids: &[SpotId],
    (cell, nx, ny): Lattice,
    cap: f32,
    seeds: &mut [f32],
) -> bool {
    let capd = f64::from(cap);
    let range = |lo: f64, hi: f64, n: usize| cell_range(cell, lo, hi, n);
    let comfort = scene.rho / std::f64::consts::SQRT_2;
    let keep = LIVE_SPOT_ROOM * comfort;
    let mut kept = false;
    for (k, &(id, c, r)) in scene.spots.iter().enumerate() {
        if term_ids.contains(&id) || scene.spot_lives.get(k).is_none_or(|&l| l == 0) {
            continue;
        }
        kept = true;
        let reach = r + keep + capd;
        let (i0, i1) = range(c.x - reach, c.x + reach, nx);
        let (j0, j1) = range(c.y - reach, c.y + reach, ny);
        for j in j0..=j1 {
            for i in i0..=i1 {
                let p = centre_of(cell, i, j);
                let w = ((p - c).norm() - r - keep).max(0.0) as f32;
                let at = j * nx + i;
                if w < cap && w < seeds[at] {
                    seeds[at] = w;
                }
            }
        }
    }
    kept
}

/// A cell's cost per unit of length from its room `r`:
/// `1 + k max(0, reach - r) / reach + n (max(0, narrow - r) / narrow)²` for `k`
/// [`CLEARANCE_WEIGHT`] and `n` [`NARROW_WEIGHT`]. The shortest way then keeps away from
/// everything where there is room, and curves drawn one after another stay apart instead of
/// hugging each other (a straight path at clearance `r` costs up to `1 + k + n` times its
/// length); the second term makes a way through a gap a few `d0` wide cost much more than a
/// longer way round (see [`NARROW_WEIGHT`]).
fn clearance_cost(r: f32, reach: f32, narrow: f32) -> f32 {
    let tight = ((narrow - r) / narrow).max(0.0);
    1.0 + CLEARANCE_WEIGHT as f32 * ((reach - r) / reach).clamp(0.0, 1.0)
        + NARROW_WEIGHT as f32 * tight * tight
}

pub(crate) fn centre_of(cell: f64, i: usize, j: usize) -> Point {
    Point::new((i as f64 + 0.5) * cell, (j as f64 + 0.5) * cell)
}

/// The unsigned angle between two vectors, in radians.
pub(crate) fn angle_between(u: sprouts_geom::Vector, v: sprouts_geom::Vector) -> f64 {
    let c = u.x * v.x + u.y * v.y;
    let s = u.x * v.y - u.y * v.x;
    s.abs().atan2(c)
}

/// A heap entry ordered by smallest key first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry(pub(super) f64, pub(super) Cell, pub(super) u32);

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0)
            .then_with(|| o.1.cmp(&self.1))
            .then_with(|| o.2.cmp(&self.2))
    }
}

#[cfg(test)]
impl FreeGrid {
    /// A test grid of `nx` x `ny` cells of 4 px, all usable, with fewer than `discs` closed
    /// discs of radius below `max_radius` cells at random places; step costs 1.
    pub(crate) fn with_closed_discs(
        rng: &mut rand_xoshiro::Xoshiro256PlusPlus,
        nx: usize,
        ny: usize,
        discs: i32,
        max_radius: i64,
    ) -> FreeGrid {
        use rand::Rng;
        let mut open = vec![true; nx * ny];
        for _ in 0..rng.random_range(0..discs) {
            let (ci, cj) = (rng.random_range(0..nx), rng.random_range(0..ny));
            let r = rng.random_range(1..max_radius);
            for j in 0..ny {
                for i in 0..nx {
                    let (di, dj) = (i as i64 - ci as i64, j as i64 - cj as i64);
                    if di * di + dj * dj <= r * r {
                        open[j * nx + i] = false;
                    }
                }
            }
        }
        FreeGrid {
            cell: 4.0,
            nx,
            ny,
            clear: vec![10.0; nx * ny],
            near: vec![Obstacle::Edge; nx * ny],
            allowed: vec![true; nx * ny],
            open,
            d0: 6.0,
            cost: vec![1.0; nx * ny],
            room: vec![10.0; nx * ny],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The walled grid measured near the walls only is the grid measured plainly on the whole
    /// board, bit for bit: on the boards of several saved games, for each spot with lives as a
    /// loop's terminal (and two spots as a curve's), random walls anywhere (partly outside the
    /// window too), long and short, thin and thick, one to four at a time.
    #[test]
    fn walls_measured_near_them_give_the_grid_measured_everywhere() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut cases = 0;
        for name in [
            "loop_in_a_pocket",
            "move_inside_a_small_triangle",
            "way_round_a_loop_through_a_narrow_corridor",
        ] {
            let path = format!("{}/tests/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("a saved game");
            let board = crate::Board::from_json(&text).expect("a board");
            let scene = Scene::new(board.drawing(), board.settings());
            let (w, h) = (scene.width, scene.height);
            let terminal = |k: usize| {
                let (spot, centre, radius) = scene.spots[k];
                Terminal {
                    spot,
                    centre,
                    radius,
                    corners: Vec::new(),
                }
            };
            let live: Vec<usize> = (0..scene.spots.len())
                .filter(|&k| scene.spot_lives[k] > 0)
                .collect();
            for (n, &k) in live.iter().enumerate() {
                let mut mask = vec![terminal(k)];
                if n % 2 == 1 {
                    mask.push(terminal(live[n - 1]));
                }
                let base = GridBase::new(&scene, board.analysis(), &mask);
                for _ in 0..4 {
                    let walls: Vec<Wall> = (0..rng.random_range(1..5))
                        .map(|_| {
                            let a = Point::new(
                                rng.random_range(-50.0..w + 50.0),
                                rng.random_range(-50.0..h + 50.0),
                            );
                            let len = rng.random_range(0.0..400.0);
                            let t: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                            let b = a + sprouts_geom::Vector::new(t.cos(), t.sin()) * len;
                            (a, b, rng.random_range(0.5..12.0))
                        })
                        .collect();
                    let fast = base.with_walls(&walls);
                    let slow = base.with_walls_everywhere(&walls);
                    assert_eq!(fast.allowed, slow.allowed, "{name}");
                    assert_eq!(fast.open, slow.open, "{name}");
                    let bits =
                        |g: &FreeGrid| g.cost.iter().map(|c| c.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&fast), bits(&slow), "{name} {walls:?}");
                    assert!(
                        fast.cost != base.grid.cost,
                        "{name}: the walls change the cost"
                    );
                    cases += 1;
                }
            }
        }
        assert!(cases >= 40, "{cases}");
    }

    /// A grid of 4.2 px cells, 210 x 126 px, all allowed, whose clearances are measured to
    /// the window's edges and to a curve down `x = 100.8` (midway between two columns of
    /// centres) from `y = top` to below the window.
    fn grid_with_a_wall(top: f64) -> FreeGrid {
        let cell = 4.2;
        let (nx, ny) = (50, 30);
        let (a, b) = (Point::new(100.8, top), Point::new(100.8, 300.0));
        let clear: Vec<f32> = (0..nx * ny)
            .map(|c| {
                let p = centre_of(cell, c % nx, c / nx);
                let edge = p.x.min(p.y).min(210.0 - p.x).min(126.0 - p.y);
                edge.min(sprouts_geom::point_segment_distance(p, a, b)) as f32
            })
            .collect();
        FreeGrid {
            cell,
            nx,
            ny,
            near: vec![Obstacle::Edge; nx * ny],
            allowed: vec![true; nx * ny],
            open: clear.iter().map(|&c| c >= 6.0).collect(),
            room: clear.clone(),
            clear,
            d0: 6.0,
            cost: vec![1.0; nx * ny],
        }
    }

    /// The widest way never steps between two cells a curve passes between: with the curve
    /// across the window but for a gap of 1 px, no way on the grid joins its two sides
    /// (stepping across the curve, where each centre keeps half a step, would report 2.1 px
    /// there); with a gap of 20 px, the widest way goes through the gap and is narrowest in it.
    #[test]
    fn the_widest_way_does_not_step_across_a_curve() {
        let near = |g: &FreeGrid, x: f64, y: f64| g.cell_at(Point::new(x, y)).expect("a cell");
        let g = grid_with_a_wall(1.0);
        let (s, t) = (near(&g, 20.0, 60.0), near(&g, 180.0, 60.0));
        assert_eq!(g.widest(&[s], &[t]), None);
        let g = grid_with_a_wall(20.0);
        let (w, at) = g.widest(&[s], &[t]).expect("a way through the gap");
        let p = g.centre(at);
        assert!((8.0..10.5).contains(&w), "{w}");
        assert!(p.y < 20.0 && (p.x - 100.8).abs() < 8.0, "{p:?}");
    }
}
