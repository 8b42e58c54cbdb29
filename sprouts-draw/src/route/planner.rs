//! The planner (spec 3.2): the free space of a picture on a square grid, Dijkstra from a spot's
//! side, the widest way when there is no way, and the parity search of spec 3.3 (an A* search
//! over cells and one bit per ray).

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

use sprouts_geom::{Point, certified, closest_on_segment, refined_polygon};
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
    /// Each curve's end spots and its polyline (a refined control polygon, within a quarter
    /// pixel of the curve).
    pub curves: Vec<(SpotId, SpotId, Vec<Point>)>,
}

impl Scene {
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
}

/// A grid cell.
pub(crate) type Cell = u32;

const NEIGHBOURS: [(i32, i32); 8] = [
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
    pub(crate) fn new(
        scene: &Scene,
        analysis: &Analysis,
        terminals: &[Terminal],
        walls: &[(Point, Point, f64)],
    ) -> FreeGrid {
        let _span = tracing::debug_span!("free_grid").entered();
        let cell = Self::cell_width(scene.d0);
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
        let range = |lo: f64, hi: f64, n: usize| -> (usize, usize) {
            let a = ((lo / cell - 0.5).floor().max(0.0)) as usize;
            let b = ((hi / cell - 0.5).ceil().max(0.0) as usize).min(n - 1);
            (a.min(n - 1), b)
        };
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
                        let (_, q) = closest_on_segment(p, a, b);
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
                        let at = j * nx + i;
                        if d < clear[at] {
                            clear[at] = d;
                            near[at] = Obstacle::Curve(k as u32);
                        }
                    }
                }
            }
        }
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
        for &(a, b, hw) in walls {
            let (i0, i1) = range(a.x.min(b.x) - hw, a.x.max(b.x) + hw, nx);
            let (j0, j1) = range(a.y.min(b.y) - hw, a.y.max(b.y) + hw, ny);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    let p = centre_of(cell, i, j);
                    if sprouts_geom::point_segment_distance(p, a, b) <= hw {
                        allowed[j * nx + i] = false;
                    }
                }
            }
        }
        let d0 = scene.d0 as f32;
        let open = clear
            .iter()
            .zip(&allowed)
            .map(|(&c, &a)| a && c >= d0)
            .collect();
        FreeGrid {
            cell,
            nx,
            ny,
            clear,
            near,
            allowed,
            open,
            d0: scene.d0,
        }
    }

    pub(crate) fn centre(&self, c: Cell) -> Point {
        let c = c as usize;
        centre_of(self.cell, c % self.nx, c / self.nx)
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
    /// within a few cells of the spot, and through one of its corners.
    pub(crate) fn terminal_cells(&self, analysis: &Analysis, t: &Terminal) -> Vec<Cell> {
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
                    if analysis
                        .corner_at(t.spot, p)
                        .is_some_and(|k| t.corners.contains(&k))
                    {
                        out.push(c);
                    }
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
                let nd = d + w;
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
    /// `targets` over allowed cells: its narrowest clearance and the cell where it is reached.
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
            for (m, _) in self.neighbours(c) {
                if !self.allowed[m as usize] {
                    continue;
                }
                let cm = self.clear[m as usize];
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

/// A ray of the parity search: from a point of a boundary out of the window.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ray {
    pub from: Point,
    pub to: Point,
}

impl Ray {
    pub(crate) fn crosses(&self, p: Point, q: Point) -> bool {
        p != q && certified::segments_intersect(p, q, self.from, self.to)
    }

    /// The parity of the crossings of a polyline with the ray.
    pub(crate) fn parity(&self, pts: &[Point]) -> bool {
        pts.windows(2).filter(|w| self.crosses(w[0], w[1])).count() % 2 == 1
    }
}

/// The parity search of spec 3.3: A* over (cell, one bit per ray) from `a` to `b`, for a path
/// whose crossings with ray `k` have parity `want >> k & 1`. `start` and `end` are the spot
/// centres the path begins and ends at (their segments to the first and last cells count).
/// Returns the cells of the path.
#[allow(
    clippy::too_many_arguments,
    reason = "the search's inputs are all distinct"
)]
pub(crate) fn parity_search(
    grid: &FreeGrid,
    start: Point,
    sources: &[Cell],
    end: Point,
    targets: &[Cell],
    rays: &[Ray],
    want: u32,
    max_states: usize,
) -> Option<Vec<Cell>> {
    let _span = tracing::debug_span!("parity_search", rays = rays.len()).entered();
    let bits_of = |p: Point, q: Point| -> u32 {
        rays.iter()
            .enumerate()
            .filter(|(_, r)| r.crosses(p, q))
            .fold(0, |acc, (k, _)| acc | (1 << k))
    };
    let is_target: HashMap<Cell, u32> = targets
        .iter()
        .map(|&c| (c, bits_of(grid.centre(c), end)))
        .collect();
    let key = |c: Cell, b: u32| (u64::from(c) << 8) | u64::from(b);
    let dense = (grid.nx * grid.ny) << rays.len() <= 4_000_000;
    let mut dist = States::new(dense, grid.nx * grid.ny, rays.len());
    let mut heap = BinaryHeap::new();
    let h = |c: Cell| (grid.centre(c) - end).norm();
    for &c in sources {
        let d = (grid.centre(c) - start).norm();
        let b = bits_of(start, grid.centre(c));
        let k = key(c, b);
        if dist.get(k).is_none_or(|o| d < o) {
            dist.insert(k, d, NO_PREV);
            heap.push(Entry(d + h(c), c, b));
        }
    }
    while let Some(Entry(f, c, b)) = heap.pop() {
        let k = key(c, b);
        let g = dist.get(k).unwrap_or(f64::INFINITY);
        if f > g + h(c) + 1e-9 {
            continue;
        }
        if let Some(&eb) = is_target.get(&c)
            && (b ^ eb) == want
        {
            let mut cells = vec![c];
            let mut at = k;
            while let Some(p) = dist.prev(at) {
                cells.push((p >> 8) as Cell);
                at = p;
            }
            cells.reverse();
            return Some(cells);
        }
        if dist.len() > max_states {
            return None;
        }
        let pc = grid.centre(c);
        for (m, w) in grid.neighbours(c) {
            if !grid.open[m as usize] {
                continue;
            }
            let nb = b ^ bits_of(pc, grid.centre(m));
            let nk = key(m, nb);
            let nd = g + w;
            if dist.get(nk).is_none_or(|o| nd < o - 1e-12) {
                dist.insert(nk, nd, k);
                heap.push(Entry(nd + h(m), m, nb));
            }
        }
    }
    None
}

/// Distances and predecessors of the parity search's states: dense tables when they are
/// small enough, hash maps otherwise.
enum States {
    Dense(Vec<f64>, Vec<u64>, usize, usize),
    Sparse(HashMap<u64, (f64, u64)>),
}

const NO_PREV: u64 = u64::MAX;

impl States {
    fn new(dense: bool, cells: usize, rays: usize) -> States {
        if dense {
            States::Dense(
                vec![f64::INFINITY; cells << rays],
                vec![NO_PREV; cells << rays],
                rays,
                0,
            )
        } else {
            States::Sparse(HashMap::new())
        }
    }

    fn index(k: u64, rays: usize) -> usize {
        (((k >> 8) as usize) << rays) | (k & 0xff) as usize
    }

    fn get(&self, k: u64) -> Option<f64> {
        match self {
            States::Dense(v, _, rays, _) => {
                let d = v[Self::index(k, *rays)];
                d.is_finite().then_some(d)
            }
            States::Sparse(m) => m.get(&k).map(|x| x.0),
        }
    }

    fn prev(&self, k: u64) -> Option<u64> {
        let p = match self {
            States::Dense(_, p, rays, _) => p[Self::index(k, *rays)],
            States::Sparse(m) => m.get(&k).map_or(NO_PREV, |x| x.1),
        };
        (p != NO_PREV).then_some(p)
    }

    fn insert(&mut self, k: u64, d: f64, prev: u64) {
        match self {
            States::Dense(v, p, rays, n) => {
                let i = Self::index(k, *rays);
                if !v[i].is_finite() {
                    *n += 1;
                }
                v[i] = d;
                p[i] = prev;
            }
            States::Sparse(m) => {
                m.insert(k, (d, prev));
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            States::Dense(_, _, _, n) => *n,
            States::Sparse(m) => m.len(),
        }
    }
}

fn centre_of(cell: f64, i: usize, j: usize) -> Point {
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
struct Entry(f64, Cell, u32);

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
