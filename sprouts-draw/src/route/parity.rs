//! The parity search of spec 3.3: an A* search over the planner's cells and one bit per ray,
//! for a way that crosses each ray an even or odd number of times as asked (which boundaries
//! it goes round). Its own state store, the rays' crossing bits per edge, and the exact
//! distance to the end that is both its heuristic and its test of whether the parities asked
//! can be had at all.

use std::cell::RefCell;
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;

use sprouts_geom::{Point, certified};

use super::planner::{Cell, Entry, FreeGrid, NEIGHBOURS};

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

/// States per open cell after which the parity search gives up. Every search that found its
/// route in the sweep and the 11-spot timing games (about 2,000 searches, 113 of them with
/// rays, up to six) used at most 6.1 states per open cell (0.07 with one ray, 0.8 with three,
/// 6.1 with six);
/// the one search that ran to the old fixed cap of 3,000,000 states (seven rays, 15 per open
/// cell) found nothing.
pub(crate) const STATES_PER_OPEN_CELL: usize = 8;

/// The least state cap of the parity search (small grids, e.g. the tests', are searched
/// whole: 256 copies of 780 cells).
pub(crate) const MIN_STATE_CAP: usize = 200_000;

/// The parity search of spec 3.3: A* over (cell, one bit per ray) from `a` to `b`, for a path
/// whose crossings with ray `k` have parity `want >> k & 1`. `start` and `end` are the spot
/// centres the path begins and ends at (their segments to the first and last cells count).
/// Returns the cells of the path: among the paths with the wanted parities, one that is
/// shortest counting the segments from `start` and to `end` (the cost A* minimises).
///
/// Without rays this is A* with the straight-line distance to `end`. With rays, first the
/// cells' ray-crossing bits are computed once per edge near the rays ([`EdgeBits`]), then a
/// Dijkstra from the targets gives both the exact distance to `end` on the cell graph (the A*
/// heuristic, admissible and consistent) and the cycle space of the parities ([`Lift`]): if
/// no path has the wanted parities the search stops there, without visiting `2^rays` copies
/// of the grid. States live in flat arrays (lazily zeroed pages) unless there are very many.
///
/// The search gives up after `max_states` states, or after [`STATES_PER_OPEN_CELL`] times
/// the grid's open cells if that is fewer (but never below [`MIN_STATE_CAP`]): a search that
/// has found nothing by then is hopeless, and stops in proportion to the room it searches.
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
    if rays.len() > 8 {
        return None;
    }
    let bits_of = |p: Point, q: Point| -> u32 {
        rays.iter()
            .enumerate()
            .filter(|(_, r)| r.crosses(p, q))
            .fold(0, |acc, (k, _)| acc | (1 << k))
    };
    let n = grid.nx * grid.ny;
    let edges = EdgeBits::new(grid, rays);
    // The bits of the last segment, from a target cell to `end` (`u32::MAX`: not a target).
    let mut target_bits = vec![u32::MAX; if targets.is_empty() { 0 } else { n }];
    for &c in targets {
        target_bits[c as usize] = bits_of(grid.centre(c), end);
    }
    let source_bits: Vec<(Cell, f64, u32)> = sources
        .iter()
        .map(|&c| {
            let p = grid.centre(c);
            (c, (p - start).norm(), bits_of(start, p))
        })
        .collect();
    let lift = if rays.is_empty() {
        None
    } else {
        let lift = Lift::new(grid, &edges, targets, end);
        let srcs: Vec<(Cell, u32)> = source_bits.iter().map(|&(c, _, b)| (c, b)).collect();
        let tgts: Vec<(Cell, u32)> = targets
            .iter()
            .map(|&t| (t, target_bits[t as usize]))
            .collect();
        if !lift.feasible(&srcs, &tgts, want) {
            return None;
        }
        Some(lift)
    };
    // Per ray, the distance to `end` in the grid lifted by that ray's parity alone (a
    // relaxation of the whole lift): the heuristic is the largest of them.
    let per_ray: Vec<Rc<Vec<f64>>> = if lift.is_some() {
        rays.iter()
            .enumerate()
            .map(|(k, r)| ray_distances(grid, &edges, k, r, targets, end, want >> k & 1 == 1))
            .collect()
    } else {
        Vec::new()
    };
    let h = |c: Cell, b: u32| match &lift {
        Some(l) => per_ray
            .iter()
            .enumerate()
            .fold(l.dist[c as usize], |acc, (k, d)| {
                acc.max(d[(b as usize >> k & 1) * n + c as usize])
            }),
        None => (grid.centre(c) - end).norm(),
    };
    let open_cells = grid.open.iter().filter(|&&o| o).count();
    let cap = max_states.min((STATES_PER_OPEN_CELL * open_cells).max(MIN_STATE_CAP));
    let mut states = States::new(n, rays.len());
    let mut heap = BinaryHeap::new();
    for &(c, d, b) in &source_bits {
        if !h(c, b).is_finite() {
            continue;
        }
        if states.get(c, b).is_none_or(|o| d < o) {
            states.insert(c, b, d, FROM_SOURCE);
            heap.push(Entry(d + h(c, b), c, b));
        }
    }
    // The best complete path found so far: its length to `end` and its last state.
    let mut done: Option<(f64, Cell, u32)> = None;
    while let Some(Entry(f, c, b)) = heap.pop() {
        if let Some((best, _, _)) = done
            && f >= best - 1e-9
        {
            break;
        }
        let Some(g) = states.get(c, b) else { continue };
        if f > g + h(c, b) + 1e-9 {
            continue;
        }
        if let Some(&eb) = target_bits.get(c as usize)
            && eb != u32::MAX
            && (b ^ eb) == want
        {
            // The last leg, to `end`: with the straight-line heuristic it is exactly `h`, so
            // the first target popped is the best; with the lifted one it is checked.
            let total = g + (grid.centre(c) - end).norm();
            if lift.is_none() {
                done = Some((total, c, b));
                break;
            }
            if done.is_none_or(|(t, _, _)| total < t) {
                done = Some((total, c, b));
            }
        }
        if states.len() > cap {
            return None;
        }
        let (i, j) = ((c as usize % grid.nx) as i32, (c as usize / grid.nx) as i32);
        let eb = edges.of(c);
        for (dir, &(di, dj)) in NEIGHBOURS.iter().enumerate() {
            let (x, y) = (i + di, j + dj);
            if x < 0 || y < 0 || x >= grid.nx as i32 || y >= grid.ny as i32 {
                continue;
            }
            let m = (y as usize * grid.nx + x as usize) as Cell;
            if !grid.open[m as usize] {
                continue;
            }
            let w = if di != 0 && dj != 0 {
                std::f64::consts::SQRT_2 * grid.cell
            } else {
                grid.cell
            };
            let nb = b ^ u32::from(eb[dir]);
            let hm = h(m, nb);
            if !hm.is_finite() {
                continue;
            }
            let nd = g + grid.step_cost(c, m, w);
            if states.get(m, nb).is_none_or(|o| nd < o - 1e-12) {
                states.insert(m, nb, nd, dir as u8);
                heap.push(Entry(nd + hm, m, nb));
            }
        }
    }
    let (_, c, b) = done?;
    Some(walk_back(grid, &states, &edges, (c, b)))
}

/// The cells of the path the search stored ending at the state `(c, b)`, from its source.
fn walk_back(grid: &FreeGrid, states: &States, edges: &EdgeBits, (c, b): (Cell, u32)) -> Vec<Cell> {
    let mut cells = vec![c];
    let (mut at, mut bits) = (c, b);
    loop {
        let dir = states.prev(at, bits);
        if dir == FROM_SOURCE {
            break;
        }
        let (di, dj) = NEIGHBOURS[dir as usize];
        let (i, j) = (
            (at as usize % grid.nx) as i32,
            (at as usize / grid.nx) as i32,
        );
        let p = ((j - dj) as usize * grid.nx + (i - di) as usize) as Cell;
        bits ^= u32::from(edges.of(p)[dir as usize]);
        at = p;
        cells.push(at);
    }
    cells.reverse();
    cells
}

/// For every cell and each of its eight neighbours, the rays that the segment between the two
/// centres crosses (bit `k` for ray `k`), computed once per search, only for the cells near a
/// ray (elsewhere no edge crosses one).
pub(crate) struct EdgeBits {
    bits: Vec<[u8; 8]>,
}

impl EdgeBits {
    pub(crate) fn new(grid: &FreeGrid, rays: &[Ray]) -> EdgeBits {
        let n = grid.nx * grid.ny;
        if rays.is_empty() {
            return EdgeBits { bits: Vec::new() };
        }
        let mut bits = vec![[0u8; 8]; n];
        let mut done = vec![false; n];
        let mut near = Vec::new();
        for (k, ray) in rays.iter().enumerate() {
            // An edge is at most sqrt(2) cells long, so an edge crossing the ray has its first
            // centre within 1.5 cells of the ray: every cell within two of a sample point
            // (samples half a cell apart) is looked at.
            near.clear();
            let len = (ray.to - ray.from).norm();
            let steps = (len / (0.5 * grid.cell)).ceil() as usize + 1;
            for s in 0..=steps {
                let p = ray.from + (ray.to - ray.from) * (s as f64 / steps as f64);
                let ci = (p.x / grid.cell).floor() as i64;
                let cj = (p.y / grid.cell).floor() as i64;
                for j in (cj - 2)..=(cj + 2) {
                    for i in (ci - 2)..=(ci + 2) {
                        if i < 0 || j < 0 || i >= grid.nx as i64 || j >= grid.ny as i64 {
                            continue;
                        }
                        let c = j as usize * grid.nx + i as usize;
                        if !done[c] {
                            done[c] = true;
                            near.push(c);
                        }
                    }
                }
            }
            for &c in &near {
                done[c] = false;
                let (i, j) = ((c % grid.nx) as i32, (c / grid.nx) as i32);
                let p = grid.centre(c as Cell);
                for (dir, &(di, dj)) in NEIGHBOURS.iter().enumerate() {
                    let (x, y) = (i + di, j + dj);
                    if x < 0 || y < 0 || x >= grid.nx as i32 || y >= grid.ny as i32 {
                        continue;
                    }
                    let q = grid.centre((y as usize * grid.nx + x as usize) as Cell);
                    if ray.crosses(p, q) {
                        bits[c][dir] |= 1 << k;
                    }
                }
            }
        }
        EdgeBits { bits }
    }

    /// The bits of the eight edges out of `c` (in the order of `NEIGHBOURS`).
    fn of(&self, c: Cell) -> [u8; 8] {
        self.bits.get(c as usize).copied().unwrap_or([0; 8])
    }
}

/// The parity search's graph lifted to ray parities, seen from the targets: the exact
/// distance from each cell to `end` over open cells (through a target; the A* heuristic), and
/// the parities a path can have. Each connected piece of open cells that holds a target gets a
/// spanning tree: `q` is the parities of a cell's tree path from the piece's root, and
/// `spans[piece]` a basis (one vector per leading bit) of the parities of its cycles. A walk
/// from `s` to `t` in one piece then has parities exactly `q(s) ^ q(t) ^ v` for the `v` that
/// the basis spans (any cycle can be walked out and back onto), so whether a wanted parity is
/// reachable is decided without the search.
struct Lift {
    dist: Rc<Vec<f64>>,
    piece: Vec<u32>,
    q: Vec<u8>,
    spans: Vec<[u8; 8]>,
}

impl Lift {
    fn new(grid: &FreeGrid, edges: &EdgeBits, targets: &[Cell], end: Point) -> Lift {
        let n = grid.nx * grid.ny;
        let dist = distances_to_end(grid, targets, end);
        let mut piece = vec![u32::MAX; n];
        let mut q = vec![0u8; n];
        let mut spans = Vec::new();
        let mut queue = std::collections::VecDeque::new();
        for &t in targets {
            if piece[t as usize] != u32::MAX || !dist[t as usize].is_finite() {
                continue;
            }
            let k = spans.len() as u32;
            let mut span = [0u8; 8];
            piece[t as usize] = k;
            queue.push_back(t);
            while let Some(c) = queue.pop_front() {
                let eb = edges.of(c);
                for (dir, (m, _)) in neighbours_with_dir(grid, c) {
                    let mi = m as usize;
                    if !grid.open[mi] {
                        continue;
                    }
                    let v = q[c as usize] ^ eb[dir];
                    if piece[mi] == u32::MAX {
                        piece[mi] = k;
                        q[mi] = v;
                        queue.push_back(m);
                    } else {
                        add_to_basis(&mut span, v ^ q[mi]);
                    }
                }
            }
            spans.push(span);
        }
        Lift {
            dist,
            piece,
            q,
            spans,
        }
    }

    /// Whether some source (cell, parities of the segment from the start) and some target
    /// (cell, parities of its segment to the end) are joined by a walk that makes the whole
    /// path's parities `want`.
    fn feasible(&self, sources: &[(Cell, u32)], targets: &[(Cell, u32)], want: u32) -> bool {
        sources.iter().any(|&(s, bs)| {
            let k = self.piece[s as usize];
            k != u32::MAX
                && targets.iter().any(|&(t, bt)| {
                    self.piece[t as usize] == k
                        && in_span(
                            &self.spans[k as usize],
                            self.q[s as usize]
                                ^ self.q[t as usize]
                                ^ ((bs ^ bt ^ want) & 0xff) as u8,
                        )
                })
        })
    }
}

/// The distance from every cell to `end` over open cells through one of `targets` (the last
/// leg a straight segment; infinite where no way leads): one Dijkstra run. The last few
/// results are kept per thread (the lazy parity search asks again with more rays, for the same
/// grid and ends), keyed by the grid's open cells themselves, so a grid changed in any way
/// gets its own run.
fn distances_to_end(grid: &FreeGrid, targets: &[Cell], end: Point) -> Rc<Vec<f64>> {
    cached(grid, targets, end, None, || {
        let _span = tracing::debug_span!("distances_to_end").entered();
        let sources: Vec<(Cell, f64)> = targets
            .iter()
            .map(|&t| (t, (grid.centre(t) - end).norm()))
            .collect();
        grid.dijkstra(&sources).0
    })
}

/// The distance from every (cell, parity of ray `k` so far) to `end` over open cells through
/// one of `targets`, for a whole path whose crossings with the ray have parity `want`:
/// `2 * cells` entries, parity 0 first. One Dijkstra run over the grid doubled by one ray
/// (edges are undirected, so run from the targets); kept per thread like
/// [`distances_to_end`].
#[allow(
    clippy::too_many_arguments,
    reason = "the grid, the ray and the ends are all needed"
)]
fn ray_distances(
    grid: &FreeGrid,
    edges: &EdgeBits,
    k: usize,
    ray: &Ray,
    targets: &[Cell],
    end: Point,
    want: bool,
) -> Rc<Vec<f64>> {
    cached(grid, targets, end, Some((ray.from, ray.to, want)), || {
        let _span = tracing::debug_span!("ray_distances").entered();
        let n = grid.nx * grid.ny;
        let mut dist = vec![f64::INFINITY; 2 * n];
        let mut heap = BinaryHeap::new();
        for &t in targets {
            let d = (grid.centre(t) - end).norm();
            // The parity the path must have at `t`, before its last segment.
            let bit = u32::from(want ^ ray.crosses(grid.centre(t), end));
            let at = bit as usize * n + t as usize;
            if d < dist[at] {
                dist[at] = d;
                heap.push(Entry(d, t, bit));
            }
        }
        while let Some(Entry(d, c, bit)) = heap.pop() {
            if d > dist[bit as usize * n + c as usize] {
                continue;
            }
            let eb = edges.of(c);
            for (dir, (m, w)) in neighbours_with_dir(grid, c) {
                if !grid.open[m as usize] {
                    continue;
                }
                let nbit = bit ^ u32::from(eb[dir] >> k & 1);
                let at = nbit as usize * n + m as usize;
                let nd = d + w;
                if nd < dist[at] {
                    dist[at] = nd;
                    heap.push(Entry(nd, m, nbit));
                }
            }
        }
        dist
    })
}

/// A per-thread store of the last few distance tables, keyed by everything they are computed
/// from (the grid's open cells themselves, so a grid changed in any way gets its own run).
fn cached(
    grid: &FreeGrid,
    targets: &[Cell],
    end: Point,
    ray: Option<(Point, Point, bool)>,
    compute: impl FnOnce() -> Vec<f64>,
) -> Rc<Vec<f64>> {
    thread_local! {
        static CACHE: RefCell<Vec<DistanceKey>> = const { RefCell::new(Vec::new()) };
    }
    let found = CACHE.with(|c| {
        c.borrow()
            .iter()
            .find(|k| k.matches(grid, targets, end, ray))
            .map(|k| Rc::clone(&k.dist))
    });
    if let Some(d) = found {
        return d;
    }
    let dist = Rc::new(compute());
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 10 {
            c.remove(0);
        }
        c.push(DistanceKey {
            nx: grid.nx,
            cell: grid.cell,
            open: grid.open.clone(),
            cost: grid.cost.clone(),
            targets: targets.to_vec(),
            end,
            ray,
            dist: Rc::clone(&dist),
        });
    });
    dist
}

/// A kept distance table and everything it was computed from.
struct DistanceKey {
    nx: usize,
    cell: f64,
    open: Vec<bool>,
    cost: Vec<f32>,
    targets: Vec<Cell>,
    end: Point,
    ray: Option<(Point, Point, bool)>,
    dist: Rc<Vec<f64>>,
}

impl DistanceKey {
    fn matches(
        &self,
        grid: &FreeGrid,
        targets: &[Cell],
        end: Point,
        ray: Option<(Point, Point, bool)>,
    ) -> bool {
        self.nx == grid.nx
            && self.cell == grid.cell
            && self.end == end
            && self.ray == ray
            && self.targets == targets
            && self.open == grid.open
            && self.cost == grid.cost
    }
}

/// Adds a vector to a basis of bit vectors over GF(2) (one vector per leading bit).
pub(super) fn add_to_basis(span: &mut [u8; 8], mut v: u8) {
    while v != 0 {
        let top = 7 - v.leading_zeros() as usize;
        if span[top] == 0 {
            span[top] = v;
            return;
        }
        v ^= span[top];
    }
}

/// Whether a basis spans a bit vector.
pub(super) fn in_span(span: &[u8; 8], mut v: u8) -> bool {
    while v != 0 {
        let top = 7 - v.leading_zeros() as usize;
        if span[top] == 0 {
            return false;
        }
        v ^= span[top];
    }
    true
}

/// The open-or-not neighbours of a cell with the index of their direction.
fn neighbours_with_dir(grid: &FreeGrid, c: Cell) -> impl Iterator<Item = (usize, (Cell, f64))> {
    let (i, j) = ((c as usize % grid.nx) as i32, (c as usize / grid.nx) as i32);
    let (nx, ny, cell) = (grid.nx as i32, grid.ny as i32, grid.cell);
    NEIGHBOURS
        .iter()
        .enumerate()
        .filter_map(move |(dir, &(di, dj))| {
            let (a, b) = (i + di, j + dj);
            if a < 0 || b < 0 || a >= nx || b >= ny {
                return None;
            }
            let w = if di != 0 && dj != 0 {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            let m = (b * nx + a) as Cell;
            Some((dir, (m, grid.step_cost(c, m, w * cell))))
        })
}

/// The parity search's states (cell, parities): distance and the direction it was reached
/// from. Flat arrays indexed `parities * cells + cell` (zeroed lazily by the allocator, so
/// the pages of parities never reached cost nothing); a hash map for very large grids.
enum States {
    Dense {
        /// Distance plus one (0: not reached).
        dist: Vec<f64>,
        /// `FROM_SOURCE` or the index of the direction the state was reached along.
        prev: Vec<u8>,
        cells: usize,
        len: usize,
    },
    Sparse(HashMap<(Cell, u32), (f64, u8)>),
}

/// The mark of a state a search starts from.
const FROM_SOURCE: u8 = u8::MAX;

/// Most states kept in flat arrays (nine bytes each, pages touched only when used).
const DENSE_STATES: usize = 1 << 26;

impl States {
    fn new(cells: usize, rays: usize) -> States {
        let total = cells << rays;
        if total <= DENSE_STATES {
            States::Dense {
                dist: vec![0.0; total],
                prev: vec![0; total],
                cells,
                len: 0,
            }
        } else {
            States::Sparse(HashMap::new())
        }
    }

    fn get(&self, c: Cell, b: u32) -> Option<f64> {
        match self {
            States::Dense { dist, cells, .. } => {
                let d = dist[b as usize * cells + c as usize];
                (d > 0.0).then_some(d - 1.0)
            }
            States::Sparse(m) => m.get(&(c, b)).map(|x| x.0),
        }
    }

    fn prev(&self, c: Cell, b: u32) -> u8 {
        match self {
            States::Dense { prev, cells, .. } => prev[b as usize * cells + c as usize],
            States::Sparse(m) => m.get(&(c, b)).map_or(FROM_SOURCE, |x| x.1),
        }
    }

    fn insert(&mut self, c: Cell, b: u32, d: f64, from: u8) {
        match self {
            States::Dense {
                dist,
                prev,
                cells,
                len,
            } => {
                let i = b as usize * *cells + c as usize;
                if dist[i] == 0.0 {
                    *len += 1;
                }
                dist[i] = d + 1.0;
                prev[i] = from;
            }
            States::Sparse(m) => {
                m.insert((c, b), (d, from));
            }
        }
    }

    fn len(&self) -> usize {
        match self {
            States::Dense { len, .. } => *len,
            States::Sparse(m) => m.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The plain reference: Dijkstra over (cell, parities) in a hash map, every edge's bits
    /// computed from the rays on the spot; the least `g + |t - end|` with the wanted parities.
    fn reference(
        grid: &FreeGrid,
        start: Point,
        sources: &[Cell],
        end: Point,
        targets: &[Cell],
        rays: &[Ray],
        want: u32,
    ) -> Option<f64> {
        let bits_of = |p: Point, q: Point| -> u32 {
            rays.iter()
                .enumerate()
                .filter(|(_, r)| r.crosses(p, q))
                .fold(0, |acc, (k, _)| acc | (1 << k))
        };
        let mut dist: HashMap<(Cell, u32), f64> = HashMap::new();
        let mut heap = BinaryHeap::new();
        for &c in sources {
            let d = (grid.centre(c) - start).norm();
            let b = bits_of(start, grid.centre(c));
            if dist.get(&(c, b)).is_none_or(|&o| d < o) {
                dist.insert((c, b), d);
                heap.push(Entry(d, c, b));
            }
        }
        let mut best = f64::INFINITY;
        while let Some(Entry(g, c, b)) = heap.pop() {
            if g > dist[&(c, b)] {
                continue;
            }
            if targets.contains(&c) && b ^ bits_of(grid.centre(c), end) == want {
                best = best.min(g + (grid.centre(c) - end).norm());
            }
            for (m, w) in grid.neighbours(c) {
                if !grid.open[m as usize] {
                    continue;
                }
                let nb = b ^ bits_of(grid.centre(c), grid.centre(m));
                let nd = g + grid.step_cost(c, m, w);
                if dist.get(&(m, nb)).is_none_or(|&o| nd < o) {
                    dist.insert((m, nb), nd);
                    heap.push(Entry(nd, m, nb));
                }
            }
        }
        best.is_finite().then_some(best)
    }

    /// A random grid of `nx` x `ny` cells with blocked blobs and random step costs.
    fn random_grid(rng: &mut Xoshiro256PlusPlus, nx: usize, ny: usize) -> FreeGrid {
        let mut grid = FreeGrid::with_closed_discs(rng, nx, ny, 8, 5);
        grid.allowed = grid.open.clone();
        grid.cost = (0..nx * ny)
            .map(|_| {
                if rng.random_bool(0.5) {
                    1.0
                } else {
                    rng.random_range(1.0..3.0)
                }
            })
            .collect();
        grid
    }

    fn path_cost(grid: &FreeGrid, start: Point, cells: &[Cell], end: Point) -> f64 {
        let (first, last) = (grid.centre(cells[0]), grid.centre(cells[cells.len() - 1]));
        let inner: f64 = cells
            .windows(2)
            .map(|w| grid.step_cost(w[0], w[1], (grid.centre(w[1]) - grid.centre(w[0])).norm()))
            .sum();
        (first - start).norm() + inner + (end - last).norm()
    }

    /// The fast search agrees with the reference on whether a path exists and on its cost,
    /// and the path it returns is made of open neighbouring cells with the wanted parities.
    #[test]
    fn parity_search_matches_the_reference() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut found, mut none) = (0, 0);
        for case in 0..300 {
            let (nx, ny) = (rng.random_range(4..24), rng.random_range(4..20));
            let grid = random_grid(&mut rng, nx, ny);
            let (w, h) = (nx as f64 * grid.cell, ny as f64 * grid.cell);
            let open: Vec<Cell> = (0..(nx * ny) as Cell)
                .filter(|&c| grid.open[c as usize])
                .collect();
            if open.len() < 2 {
                continue;
            }
            let pick = |rng: &mut Xoshiro256PlusPlus, k: usize| -> Vec<Cell> {
                (0..k)
                    .map(|_| open[rng.random_range(0..open.len())])
                    .collect()
            };
            let (ks, kt) = (rng.random_range(1..4), rng.random_range(1..4));
            let sources = pick(&mut rng, ks);
            let targets = pick(&mut rng, kt);
            let start = grid.centre(sources[0]) + sprouts_geom::Vector::new(0.7, -0.3);
            let end = grid.centre(targets[0]) + sprouts_geom::Vector::new(-0.4, 0.9);
            let k = rng.random_range(0..4);
            let rays: Vec<Ray> = (0..k)
                .map(|_| {
                    let from = Point::new(rng.random_range(0.0..w), rng.random_range(0.0..h));
                    let ang: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                    Ray {
                        from,
                        to: from + sprouts_geom::Vector::new(ang.cos(), ang.sin()) * (w + h),
                    }
                })
                .collect();
            let want = rng.random_range(0..(1u32 << k));
            let fast = parity_search(&grid, start, &sources, end, &targets, &rays, want, 1 << 30);
            let slow = reference(&grid, start, &sources, end, &targets, &rays, want);
            match (&fast, slow) {
                (None, None) => none += 1,
                (Some(cells), Some(cost)) => {
                    found += 1;
                    let got = path_cost(&grid, start, cells, end);
                    assert!(
                        (got - cost).abs() < 1e-6,
                        "case {case}: {got} against {cost}"
                    );
                    assert!(sources.contains(&cells[0]) && targets.contains(cells.last().unwrap()));
                    assert!(cells.iter().all(|&c| grid.open[c as usize]));
                    assert!(
                        cells
                            .windows(2)
                            .all(|p| grid.neighbours(p[0]).any(|(m, _)| m == p[1]))
                    );
                    let mut pts = vec![start];
                    pts.extend(cells.iter().map(|&c| grid.centre(c)));
                    pts.push(end);
                    let got_bits = rays
                        .iter()
                        .enumerate()
                        .fold(0, |acc, (i, r)| acc | (u32::from(r.parity(&pts)) << i));
                    assert_eq!(got_bits, want, "case {case}: parities");
                }
                _ => panic!(
                    "case {case}: fast {:?} against reference {slow:?}",
                    fast.is_some()
                ),
            }
        }
        assert!(found > 50 && none > 10, "found {found}, none {none}");
    }
}
