//! Barrier routes (spec 3.3, the first method for marked moves): the boundaries that must end
//! up inside the closed curve are joined by one tree of grid cells, those that must stay
//! outside by a second tree that does not touch the first, each with what goes with its side
//! (the two sides of the move's own boundary along the curve's ends, the window's edge with
//! the outside). A path from `a` to `b` that uses no cell of either tree cannot separate two
//! things a tree joins, so it sorts the boundaries as wanted: one Dijkstra run per tree member
//! and one for the path, with no `2^k` blow-up.
//!
//! A move `x -> y` on boundary `B` closes `Γ = arc(x -> y) + reverse(route)` (see
//! [`super::marked`]). Along the arc, `Γ` has the move's region on one side (the region side
//! of `arc(x -> y)`) and the rest of `B` (whose region side along `arc(y -> x)` is reached
//! round it) on the other: those two anchors go with opposite trees. Which anchor is inside
//! depends on the orientation of `Γ`, one of the two hypotheses tried. Loops through one
//! corner have no arc and are left to the walls and the parity search.

use std::cell::RefCell;

use sprouts_geom::{Point, certified, closest_on_segment};
use sprouts_topo::{BoundaryId, Corner, Position};

use super::planner::{Cell, FreeGrid, Obstacle, Scene};
use crate::analyse::{Analysis, BoundaryPicture};
use crate::drawing::HalfEdgeId;

/// What the trees are built from: the move's region on the grid and each thing a tree may
/// join, as the cells touching it.
pub(crate) struct Barriers {
    /// Cells of the move's region a tree may use (not near the move's end spots).
    usable: Vec<bool>,
    /// For each other boundary of the region (in the order of [`super::marked::Enclosure`]),
    /// the usable cells touching it.
    others: Vec<Vec<Cell>>,
    /// The cells touching the region side of `arc(x -> y)`.
    arc_xy: Vec<Cell>,
    /// The cells touching the region side of `arc(y -> x)` (the rest of `B`).
    arc_yx: Vec<Cell>,
    /// The cells touching the window's edge (empty unless the region is the outside).
    edge: Vec<Cell>,
    /// The trees' working memory.
    scratch: RefCell<Scratch>,
}

impl Barriers {
    /// Collects the region and the anchors of a move from `from` to `to` (two different
    /// corners of one boundary), keeping the trees `keep_free` pixels from the end spots.
    /// `others` are the region's other boundaries in the enclosure's order. `None` for a loop
    /// through one corner or when the region cannot be found on the grid.
    #[allow(
        clippy::too_many_arguments,
        reason = "the move, its picture and the grid are all needed"
    )]
    pub(crate) fn new(
        grid: &FreeGrid,
        scene: &Scene,
        pos: &Position,
        analysis: &Analysis,
        (from, to): (Corner, Corner),
        others: &[BoundaryId],
        sources: &[Cell],
        keep_free: &[(Point, f64)],
    ) -> Option<Barriers> {
        let _span = tracing::debug_span!("barriers", others = others.len()).entered();
        if from.boundary != to.boundary {
            return None;
        }
        // A spot with no curve has no arcs.
        let hs: &[HalfEdgeId] = match analysis.boundary(from.boundary)? {
            BoundaryPicture::Walk(hs) => hs,
            BoundaryPicture::Spot(_) => &[],
        };
        let n = grid.nx * grid.ny;
        let usable = usable_cells(grid, sources, keep_free);

        // Which member each obstacle belongs to.
        let region_id = pos.region_of(from.boundary)?;
        let mut spot_member: Vec<Option<usize>> = vec![None; scene.spots.len()];
        let mut curve_member: Vec<Option<usize>> = vec![None; scene.curves.len()];
        for (k, &b) in others.iter().enumerate() {
            if pos.region_of(b) != Some(region_id) {
                return None;
            }
            match analysis.boundary(b)? {
                BoundaryPicture::Spot(s) => {
                    let i = scene.spots.iter().position(|x| x.0 == s)?;
                    spot_member[i] = Some(k);
                }
                BoundaryPicture::Walk(ws) => {
                    for &h in ws {
                        curve_member[h.curve().index()] = Some(k);
                        let s = analysis.tail(h);
                        if let Some(i) = scene.spots.iter().position(|x| x.0 == s) {
                            spot_member[i] = Some(k);
                        }
                    }
                }
            }
        }
        // The half-edges of each arc, and the side of each curve they stand for.
        let (i, j) = (from.index as usize, to.index as usize);
        let m = hs.len();
        let arc = |start: usize, end: usize| -> Vec<HalfEdgeId> {
            let mut out = Vec::new();
            let mut k = start;
            while k != end {
                out.push(hs[k]);
                k = (k + 1) % m;
            }
            out
        };
        // A loop through one corner: the whole boundary is on the far side.
        let (xy, yx) = if hs.is_empty() {
            (Vec::new(), Vec::new())
        } else if i == j {
            (Vec::new(), hs.to_vec())
        } else {
            (arc(i, j), arc(j, i))
        };
        // +1: the forward half-edge's region side is in arc xy, -1 in arc yx (by side).
        let mut arc_side: Vec<[u8; 2]> = vec![[0, 0]; scene.curves.len()];
        for (tag, list) in [(1u8, &xy), (2u8, &yx)] {
            for &h in list.iter() {
                let side = usize::from(!h.is_forward());
                arc_side[h.curve().index()][side] = tag;
            }
        }

        let mut others_cells = vec![Vec::new(); others.len()];
        let (mut arc_xy, mut arc_yx, mut edge) = (Vec::new(), Vec::new(), Vec::new());
        let d0 = f64::from(grid.d0 as f32);
        for (c, _) in usable.iter().enumerate().filter(|u| *u.1) {
            if f64::from(grid.clear[c]) >= d0 + grid.cell {
                continue;
            }
            let p = grid.centre(c as Cell);
            match grid.near[c] {
                Obstacle::Edge => {
                    let e = p.x.min(p.y).min(scene.width - p.x).min(scene.height - p.y);
                    if e < d0 + grid.cell {
                        edge.push(c as Cell);
                    }
                }
                Obstacle::Spot(k) => {
                    if let Some(mb) = spot_member[k as usize] {
                        others_cells[mb].push(c as Cell);
                    }
                }
                Obstacle::Curve(k) => {
                    let k = k as usize;
                    if let Some(mb) = curve_member[k] {
                        others_cells[mb].push(c as Cell);
                    } else if arc_side[k] != [0, 0] {
                        // Which side of the curve the cell is on: the region side of the
                        // forward half-edge is on its left (y up).
                        let pts = &scene.curves[k].2;
                        let mut best = (f64::INFINITY, 0);
                        for (s, w) in pts.windows(2).enumerate() {
                            let (_, q) = closest_on_segment(p, w[0], w[1]);
                            let d = (p - q).norm();
                            if d < best.0 {
                                best = (d, s);
                            }
                        }
                        let (a, b) = (pts[best.1], pts[best.1 + 1]);
                        let side = match certified::orient(a, b, p) {
                            certified::Orientation::Clockwise => 0,
                            certified::Orientation::CounterClockwise => 1,
                            certified::Orientation::Collinear => continue,
                        };
                        match arc_side[k][side] {
                            1 => arc_xy.push(c as Cell),
                            2 => arc_yx.push(c as Cell),
                            _ => {}
                        }
                    }
                }
            }
        }
        Some(Barriers {
            usable,
            others: others_cells,
            arc_xy,
            arc_yx,
            edge,
            scratch: RefCell::new(Scratch::new(n)),
        })
    }

    /// Runs `search` on the grid with both trees closed, for a route that puts inside `Γ`
    /// exactly the other boundaries marked in `want_inside`, with `Γ` turning so that the
    /// region side of `arc(x -> y)` is inside (`xy_inside`) or outside. `None` if a tree
    /// cannot be built.
    ///
    /// The tree cells are closed in `grid` itself and opened again before this returns (the
    /// grid is as it was), so a try costs the trees' cells, not a copy of the grid.
    ///
    /// `extra`: more cells the inside tree must hold (the end of a loop's wall) and more cells
    /// the outside tree must hold (the end of a wall behind a seed's loop), each as one member.
    pub(crate) fn with_trees<R>(
        &self,
        grid: &mut FreeGrid,
        want_inside: &[bool],
        xy_inside: bool,
        extra: [&[Cell]; 2],
        search: impl FnOnce(&FreeGrid) -> R,
    ) -> Option<R> {
        let [inside, outside] = self.trees(grid, want_inside, xy_inside, extra)?;
        let cells: Vec<Cell> = inside.into_iter().chain(outside).collect();
        let saved: Vec<(bool, bool)> = cells
            .iter()
            .map(|&c| {
                let c = c as usize;
                let was = (grid.open[c], grid.allowed[c]);
                grid.open[c] = false;
                grid.allowed[c] = false;
                was
            })
            .collect();
        let out = search(grid);
        for (&c, &(open, allowed)) in cells.iter().zip(&saved) {
            grid.open[c as usize] = open;
            grid.allowed[c as usize] = allowed;
        }
        Some(out)
    }

    /// The cells of the inside tree and of the outside tree (see [`Barriers::with_trees`]),
    /// each once; empty for a tree with fewer than two members.
    fn trees(
        &self,
        grid: &FreeGrid,
        want_inside: &[bool],
        xy_inside: bool,
        [extra_inside, extra_outside]: [&[Cell]; 2],
    ) -> Option<[Vec<Cell>; 2]> {
        let _span = tracing::debug_span!("barrier_trees").entered();
        let mut groups: [Vec<&[Cell]>; 2] = [Vec::new(), Vec::new()];
        for (k, cells) in self.others.iter().enumerate() {
            groups[usize::from(want_inside[k])].push(cells);
        }
        let (anchor_in, anchor_out) = if xy_inside {
            (&self.arc_xy, &self.arc_yx)
        } else {
            (&self.arc_yx, &self.arc_xy)
        };
        // An empty anchor (an arc all within the end spots' free discs) joins nothing: the
        // judge then decides.
        let usable = |cells: &[Cell]| -> Vec<Cell> {
            cells
                .iter()
                .copied()
                .filter(|&c| self.usable[c as usize])
                .collect()
        };
        let (extra_in, extra_out) = (usable(extra_inside), usable(extra_outside));
        for (g, cells) in [
            (1, anchor_in),
            (0, anchor_out),
            (0, &self.edge),
            (1, &extra_in),
            (0, &extra_out),
        ] {
            if !cells.is_empty() {
                groups[g].push(cells);
            }
        }
        let mut scratch = self.scratch.borrow_mut();
        let scratch = &mut *scratch;
        // 0: free, 1: the inside tree, 2: the outside tree.
        scratch.tree.reset();
        // A side with one member builds no tree, but the other side's tree must still keep
        // off it: a tree running along it (as along the curve of an arc, which costs little)
        // joins it to that tree's side and shuts the way between them.
        let lone = |g: usize| -> Vec<Cell> {
            match groups[g].as_slice() {
                [only] => only.to_vec(),
                _ => Vec::new(),
            }
        };
        let mut out = [Vec::new(), Vec::new()];
        for (g, tag) in [(1usize, 1u8), (0, 2)] {
            let members = &groups[g];
            if members.len() < 2 {
                continue;
            }
            if members.iter().any(|m| m.is_empty()) {
                return None;
            }
            let mut other = lone(1 - g);
            other.extend_from_slice(&out[0]);
            // The window's edge goes with the outside: an inside tree along it (its closed
            // cells cost little) would cut the outside tree's members off from it.
            if g == 1 && groups[0].len() >= 2 {
                other.extend_from_slice(&self.edge);
            }
            let cells = self.build_tree(grid, members, tag, &other, scratch)?;
            out[usize::from(tag) - 1] = cells;
        }
        Some(out)
    }

    /// Joins `members` by cells tagged `tag` (Prim's way: the nearest member not yet joined,
    /// then the next nearest to everything joined), through cells that neither hold nor touch
    /// `other` (the other tree's cells, and those of the other side's member when that side
    /// has only one and builds no tree), preferring cells a path could not use anyway. The
    /// tree grows through orthogonal steps only: a route steps diagonally, and would slip
    /// between two cells of a tree that did. Returns the cells tagged.
    ///
    /// One Dijkstra run serves every member: the cells joined are added as new sources at
    /// distance 0 and the run goes on (a label-correcting search; every label is the length
    /// of a real way to the tree, so it only ever goes down).
    fn build_tree(
        &self,
        grid: &FreeGrid,
        members: &[&[Cell]],
        tag: u8,
        other: &[Cell],
        scratch: &mut Scratch,
    ) -> Option<Vec<Cell>> {
        let Scratch {
            tree,
            member,
            dist,
            prev,
            blocked,
            queue,
        } = scratch;
        // The cells the other tree (or the other side's lone member) holds or touches (the
        // other tree is complete when this one grows).
        blocked.reset();
        for &c in other {
            blocked.set(c as usize, true);
            for (m, _) in grid.neighbours(c) {
                blocked.set(m as usize, true);
            }
        }
        member.reset();
        for (k, cells) in members.iter().enumerate() {
            for &c in cells.iter() {
                member.set(c as usize, k as u32);
            }
        }
        dist.reset();
        prev.reset();
        queue.clear();
        let mut joined = vec![false; members.len()];
        let mut left = members.len() - 1;
        let mut mine: Vec<Cell> = Vec::new();
        let take = |c: Cell,
                    tree: &mut Stamped<u8>,
                    dist: &mut Stamped<u32>,
                    queue: &mut Buckets,
                    mine: &mut Vec<Cell>| {
            tree.set(c as usize, tag);
            mine.push(c);
            dist.set(c as usize, 0);
            queue.push(0, c);
        };
        joined[0] = true;
        for &c in members[0] {
            if tree.get(c as usize) != tag && !blocked.get(c as usize) {
                take(c, tree, dist, queue, &mut mine);
            }
        }
        while left > 0 {
            let (d, c) = queue.pop()?;
            if d > dist.get(c as usize) {
                continue;
            }
            let mb = member.get(c as usize);
            if mb != u32::MAX && !joined[mb as usize] {
                joined[mb as usize] = true;
                left -= 1;
                // The way back to the tree, then the member's own cells.
                let mut k = c;
                while tree.get(k as usize) != tag {
                    take(k, tree, dist, queue, &mut mine);
                    k = prev.get(k as usize);
                    if k == Cell::MAX {
                        break;
                    }
                }
                for &m in members[mb as usize] {
                    if tree.get(m as usize) != tag && !blocked.get(m as usize) {
                        take(m, tree, dist, queue, &mut mine);
                    }
                }
                continue;
            }
            let (nx, ny) = (grid.nx, grid.ny);
            let (i, j) = (c as usize % nx, c as usize / nx);
            let steps = [
                (i + 1 < nx, 1isize),
                (i > 0, -1),
                (j + 1 < ny, nx as isize),
                (j > 0, -(nx as isize)),
            ];
            for (inside, step) in steps {
                if !inside {
                    continue;
                }
                let mu = (c as isize + step) as usize;
                if !self.usable[mu] || tree.get(mu) == tag || blocked.get(mu) {
                    continue;
                }
                // Cells a path could not use cost little.
                let nd = d + if grid.open[mu] { 10 } else { 1 };
                if nd < dist.get(mu) {
                    dist.set(mu, nd);
                    prev.set(mu, c);
                    queue.push(nd, mu as Cell);
                }
            }
        }
        Some(mine)
    }
}

/// Per-cell values valid for one use: a value belongs to the current use when its stamp is
/// the current generation, so starting afresh costs nothing (no pass over the grid).
#[derive(Clone, Debug)]
struct Stamped<T: Copy> {
    generation: u32,
    stamp: Vec<u32>,
    value: Vec<T>,
    default: T,
}

impl<T: Copy> Stamped<T> {
    fn new(n: usize, default: T) -> Stamped<T> {
        Stamped {
            generation: 1,
            stamp: vec![0; n],
            value: vec![default; n],
            default,
        }
    }

    /// Every cell back to the default.
    fn reset(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }

    fn get(&self, i: usize) -> T {
        if self.stamp[i] == self.generation {
            self.value[i]
        } else {
            self.default
        }
    }

    fn set(&mut self, i: usize, v: T) {
        self.stamp[i] = self.generation;
        self.value[i] = v;
    }
}

/// The trees' working memory, kept between tries.
#[derive(Debug)]
struct Scratch {
    /// 0: free, 1: the inside tree, 2: the outside tree.
    tree: Stamped<u8>,
    /// Which member a cell belongs to (`u32::MAX`: none).
    member: Stamped<u32>,
    /// Distance to the tree, in tenths of a cell.
    dist: Stamped<u32>,
    prev: Stamped<Cell>,
    /// The cells the other tree holds or touches.
    blocked: Stamped<bool>,
    queue: Buckets,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            tree: Stamped::new(n, 0),
            member: Stamped::new(n, u32::MAX),
            dist: Stamped::new(n, u32::MAX),
            prev: Stamped::new(n, Cell::MAX),
            blocked: Stamped::new(n, false),
            queue: Buckets::default(),
        }
    }
}

/// A bucket queue (Dial's): one list of cells per integer distance, taken from the smallest
/// distance up. A cell pushed below the current distance moves the start back (the trees add
/// new sources at distance 0 as they grow); stale entries are skipped by the caller.
#[derive(Debug, Default)]
struct Buckets {
    lists: Vec<Vec<Cell>>,
    at: usize,
}

impl Buckets {
    fn clear(&mut self) {
        for l in &mut self.lists {
            l.clear();
        }
        self.at = 0;
    }

    fn push(&mut self, d: u32, c: Cell) {
        let d = d as usize;
        if d >= self.lists.len() {
            self.lists.resize_with(d + 1, Vec::new);
        }
        self.lists[d].push(c);
        self.at = self.at.min(d);
    }

    /// A cell of the smallest distance, with it.
    fn pop(&mut self) -> Option<(u32, Cell)> {
        while self.at < self.lists.len() {
            if let Some(c) = self.lists[self.at].pop() {
                return Some((self.at as u32, c));
            }
            self.at += 1;
        }
        None
    }
}

/// The cells a tree may use: the region, the cells reached from the move's first cells
/// (`sources`) without crossing a curve (a tree cell keeps a curve out of its 8-neighbour
/// steps), less those within `keep_free` of the end spots.
fn usable_cells(grid: &FreeGrid, sources: &[Cell], keep_free: &[(Point, f64)]) -> Vec<bool> {
    let n = grid.nx * grid.ny;
    let thin = 0.75 * grid.cell;
    let passable = |c: usize| grid.allowed[c] && f64::from(grid.clear[c]) >= thin;
    let mut region = vec![false; n];
    let mut stack: Vec<Cell> = sources
        .iter()
        .copied()
        .filter(|&c| passable(c as usize))
        .collect();
    for &c in &stack {
        region[c as usize] = true;
    }
    while let Some(c) = stack.pop() {
        for (m, _) in grid.neighbours(c) {
            if !region[m as usize] && passable(m as usize) {
                region[m as usize] = true;
                stack.push(m);
            }
        }
    }
    (0..n)
        .map(|c| {
            region[c] && {
                let p = grid.centre(c as Cell);
                keep_free.iter().all(|&(q, r)| (p - q).norm() > r)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;

    #[test]
    fn stamped_values_start_afresh() {
        let mut v = Stamped::new(4, 7u8);
        v.set(1, 3);
        assert_eq!((v.get(0), v.get(1)), (7, 3));
        v.reset();
        assert_eq!(v.get(1), 7);
        v.set(2, 5);
        // The generation wraps round: every stamp is cleared.
        v.generation = u32::MAX;
        v.set(3, 9);
        v.reset();
        assert_eq!((v.get(2), v.get(3), v.generation), (7, 7, 1));
    }

    #[test]
    fn buckets_give_the_smallest_first() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut q = Buckets::default();
        let mut reference: Vec<(u32, Cell)> = Vec::new();
        for round in 0..200 {
            if rng.random_bool(0.6) || reference.is_empty() {
                let d = rng.random_range(0..40);
                q.push(d, round);
                reference.push((d, round));
            } else {
                let (d, c) = q.pop().expect("not empty");
                let least = reference.iter().map(|x| x.0).min().expect("not empty");
                assert_eq!(d, least);
                let k = reference.iter().position(|&x| x == (d, c)).expect("pushed");
                reference.swap_remove(k);
            }
        }
        reference.sort_unstable();
        let mut rest = Vec::new();
        while let Some(x) = q.pop() {
            rest.push(x);
        }
        rest.sort_unstable();
        assert_eq!(rest, reference);
        q.clear();
        assert_eq!(q.pop(), None);
    }

    /// A grid with closed discs, all of it usable.
    fn grid(rng: &mut Xoshiro256PlusPlus, nx: usize, ny: usize) -> FreeGrid {
        FreeGrid::with_closed_discs(rng, nx, ny, 6, 4)
    }

    /// A small square of cells, all usable.
    fn blob(rng: &mut Xoshiro256PlusPlus, g: &FreeGrid, usable: &[bool]) -> Vec<Cell> {
        let (i0, j0) = (rng.random_range(0..g.nx - 1), rng.random_range(0..g.ny - 1));
        let mut out = Vec::new();
        for j in j0..(j0 + 2) {
            for i in i0..(i0 + 2) {
                let c = j * g.nx + i;
                if usable[c] {
                    out.push(c as Cell);
                }
            }
        }
        out
    }

    /// The 4-connected component of `cells` holding `start`, within `keep`.
    fn component(g: &FreeGrid, keep: &dyn Fn(Cell) -> bool, start: Cell) -> Vec<bool> {
        let mut seen = vec![false; g.nx * g.ny];
        let mut stack = vec![start];
        seen[start as usize] = true;
        while let Some(c) = stack.pop() {
            for (m, w) in g.neighbours(c) {
                if w <= 1.01 * g.cell && !seen[m as usize] && keep(m) {
                    seen[m as usize] = true;
                    stack.push(m);
                }
            }
        }
        seen
    }

    /// On random grids: no tree exists when its members are not 4-connected through usable
    /// cells (the first tree, hindered only by the window's edge when the edge goes with a
    /// second tree); each tree holds a cell of every member and is 4-connected; the second
    /// tree neither holds nor touches a cell of the first; the first neither holds nor touches
    /// a cell of the window's edge when the edge goes with a second tree; and `with_trees`
    /// closes exactly the trees' cells and leaves the grid as it was.
    #[test]
    fn trees_join_their_members_and_keep_apart() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut built, mut refused) = (0, 0);
        for _ in 0..400 {
            let (nx, ny) = (rng.random_range(6..30), rng.random_range(6..24));
            let mut g = grid(&mut rng, nx, ny);
            let n = nx * ny;
            // A usable region with holes (a tree may not pass a hole).
            let mut usable = vec![true; n];
            for _ in 0..rng.random_range(0..4) {
                let (ci, cj) = (rng.random_range(0..nx), rng.random_range(0..ny));
                let len = rng.random_range(2..nx.max(ny));
                for k in 0..len {
                    let (i, j) = if rng.random_bool(0.5) {
                        ((ci + k).min(nx - 1), cj)
                    } else {
                        (ci, (cj + k).min(ny - 1))
                    };
                    usable[j * nx + i] = false;
                }
            }
            let k = rng.random_range(0..4);
            let others: Vec<Vec<Cell>> = (0..k).map(|_| blob(&mut rng, &g, &usable)).collect();
            let bars = Barriers {
                arc_xy: blob(&mut rng, &g, &usable),
                arc_yx: blob(&mut rng, &g, &usable),
                edge: if rng.random_bool(0.5) {
                    blob(&mut rng, &g, &usable)
                } else {
                    Vec::new()
                },
                usable: usable.clone(),
                others,
                scratch: RefCell::new(Scratch::new(n)),
            };
            let want: Vec<bool> = (0..k).map(|_| rng.random_bool(0.5)).collect();
            let xy = rng.random_bool(0.5);
            let before = (g.open.clone(), g.allowed.clone());
            let trees = bars.trees(&g, &want, xy, [&[], &[]]);
            // The members of the first (inside) tree.
            let mut first: Vec<&[Cell]> = bars
                .others
                .iter()
                .zip(&want)
                .filter(|(_, w)| **w)
                .map(|(o, _)| o.as_slice())
                .collect();
            first.push(if xy { &bars.arc_xy } else { &bars.arc_yx });
            let first_ok = first.len() < 2
                || first.iter().all(|m| !m.is_empty()) && {
                    let reach = component(&g, &|c| usable[c as usize], first[0][0]);
                    first.iter().all(|m| m.iter().any(|&c| reach[c as usize]))
                };
            if !first_ok {
                assert!(trees.is_none(), "a tree through cells that are not joined");
                refused += 1;
                continue;
            }
            let Some([inside, outside]) = trees else {
                // The second tree may be hindered by the first.
                refused += 1;
                continue;
            };
            built += 1;
            let mut tag = vec![0u8; n];
            for &c in &inside {
                tag[c as usize] = 1;
            }
            for &c in &outside {
                assert_eq!(tag[c as usize], 0, "the trees share a cell");
                assert!(
                    g.neighbours(c).all(|(m, _)| tag[m as usize] != 1),
                    "the trees touch"
                );
                tag[c as usize] = 2;
            }
            let second = want.iter().filter(|w| !**w).count()
                + usize::from(!(if xy { &bars.arc_yx } else { &bars.arc_xy }).is_empty())
                + usize::from(!bars.edge.is_empty());
            if second >= 2 {
                for &c in &inside {
                    assert!(
                        std::iter::once(c)
                            .chain(g.neighbours(c).map(|(m, _)| m))
                            .all(|m| !bars.edge.contains(&m)),
                        "the inside tree touches the window's edge"
                    );
                }
            }
            for (t, cells) in [(1u8, &inside), (2, &outside)] {
                let Some(&c0) = cells.first() else { continue };
                assert!(cells.iter().all(|&c| usable[c as usize]));
                let reach = component(&g, &|c| tag[c as usize] == t, c0);
                assert!(
                    cells.iter().all(|&c| reach[c as usize]),
                    "a tree that is not four-connected"
                );
            }
            for m in first.iter().filter(|_| first.len() >= 2) {
                assert!(m.iter().any(|&c| tag[c as usize] == 1), "a member left out");
            }
            let closed = bars
                .with_trees(&mut g, &want, xy, [&[], &[]], |g| {
                    (0..n).filter(|&c| !g.allowed[c]).count()
                })
                .expect("built before");
            let mut union: Vec<Cell> = inside.iter().chain(&outside).copied().collect();
            union.sort_unstable();
            union.dedup();
            assert_eq!(closed, union.len());
            assert_eq!((g.open.clone(), g.allowed.clone()), before);
        }
        assert!(
            built > 100 && refused > 10,
            "{built} built, {refused} refused"
        );
    }
}
