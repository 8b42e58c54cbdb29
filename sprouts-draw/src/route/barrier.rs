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

use std::collections::BinaryHeap;

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
        // A tree cell keeps a curve out of its 8-neighbour steps.
        let thin = 0.75 * grid.cell;
        let passable = |c: usize| grid.allowed[c] && f64::from(grid.clear[c]) >= thin;
        // The region: the cells reached from the move's first cells without crossing a curve.
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
        let usable: Vec<bool> = (0..n)
            .map(|c| {
                region[c] && {
                    let p = grid.centre(c as Cell);
                    keep_free.iter().all(|&(q, r)| (p - q).norm() > r)
                }
            })
            .collect();

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
        })
    }

    /// The grid with both trees closed, for a route that puts inside `Γ` exactly the other
    /// boundaries marked in `want_inside`, with `Γ` turning so that the region side of
    /// `arc(x -> y)` is inside (`xy_inside`) or outside. `None` if a tree cannot be built.
    ///
    /// `extra_inside`: more cells the inside tree must hold (the end of a loop's wall).
    pub(crate) fn closed_grid(
        &self,
        grid: &FreeGrid,
        want_inside: &[bool],
        xy_inside: bool,
        extra_inside: &[Cell],
    ) -> Option<FreeGrid> {
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
        let extra: Vec<Cell> = extra_inside
            .iter()
            .copied()
            .filter(|&c| self.usable[c as usize])
            .collect();
        for (g, cells) in [
            (1, anchor_in),
            (0, anchor_out),
            (0, &self.edge),
            (1, &extra),
        ] {
            if !cells.is_empty() {
                groups[g].push(cells);
            }
        }
        let n = grid.nx * grid.ny;
        // 0: free, 1: the inside tree, 2: the outside tree.
        let mut tree = vec![0u8; n];
        for (g, tag) in [(1usize, 1u8), (0, 2)] {
            let members = &groups[g];
            if members.len() < 2 {
                continue;
            }
            if members.iter().any(|m| m.is_empty()) {
                return None;
            }
            self.build_tree(grid, members, tag, &mut tree)?;
        }
        let mut out = grid.clone();
        for (c, &t) in tree.iter().enumerate() {
            if t != 0 {
                out.open[c] = false;
                out.allowed[c] = false;
            }
        }
        Some(out)
    }

    /// Joins `members` by cells tagged `tag` (Prim's way: the nearest member not yet joined,
    /// then the next nearest to everything joined), through cells that neither hold nor touch
    /// the other tree, preferring cells a path could not use anyway.
    fn build_tree(
        &self,
        grid: &FreeGrid,
        members: &[&[Cell]],
        tag: u8,
        tree: &mut [u8],
    ) -> Option<()> {
        let n = grid.nx * grid.ny;
        let foreign = |tree: &[u8], c: Cell| {
            let t = tree[c as usize];
            (t != 0 && t != tag)
                || grid
                    .neighbours(c)
                    .any(|(m, _)| tree[m as usize] != 0 && tree[m as usize] != tag)
        };
        let mut member_of = vec![u32::MAX; n];
        for (k, cells) in members.iter().enumerate() {
            for &c in cells.iter() {
                member_of[c as usize] = k as u32;
            }
        }
        let mut joined = vec![false; members.len()];
        joined[0] = true;
        for &c in members[0] {
            if !foreign(tree, c) {
                tree[c as usize] = tag;
            }
        }
        let mut dist = vec![f64::INFINITY; n];
        let mut prev = vec![Cell::MAX; n];
        let mut touched: Vec<Cell> = Vec::new();
        for _ in 1..members.len() {
            for &c in &touched {
                dist[c as usize] = f64::INFINITY;
                prev[c as usize] = Cell::MAX;
            }
            touched.clear();
            let mut heap = BinaryHeap::new();
            for c in 0..n {
                if tree[c] == tag {
                    dist[c] = 0.0;
                    touched.push(c as Cell);
                    heap.push(HeapEntry(0.0, c as Cell));
                }
            }
            let mut reached = None;
            while let Some(HeapEntry(d, c)) = heap.pop() {
                if d > dist[c as usize] {
                    continue;
                }
                let mb = member_of[c as usize];
                if mb != u32::MAX && !joined[mb as usize] {
                    reached = Some((c, mb as usize));
                    break;
                }
                // Four-connected: a route steps diagonally between two cells, so a tree
                // that did would let it slip through between two of its cells.
                for (m, w) in grid.neighbours(c).filter(|&(_, w)| w <= 1.01 * grid.cell) {
                    let mu = m as usize;
                    if !self.usable[mu] || tree[mu] == tag || foreign(tree, m) {
                        continue;
                    }
                    // Cells a path could not use cost little.
                    let cost = if grid.open[mu] { w } else { 0.1 * w };
                    let nd = d + cost;
                    if nd < dist[mu] {
                        if dist[mu].is_infinite() {
                            touched.push(m);
                        }
                        dist[mu] = nd;
                        prev[mu] = c;
                        heap.push(HeapEntry(nd, m));
                    }
                }
            }
            let (mut c, mb) = reached?;
            joined[mb] = true;
            while tree[c as usize] != tag {
                tree[c as usize] = tag;
                c = prev[c as usize];
                if c == Cell::MAX {
                    break;
                }
            }
            for &c in members[mb] {
                if !foreign(tree, c) {
                    tree[c as usize] = tag;
                }
            }
        }
        Some(())
    }
}

/// A heap entry ordered by smallest distance first.
#[derive(Clone, Copy, Debug)]
struct HeapEntry(f64, Cell);

impl PartialEq for HeapEntry {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == std::cmp::Ordering::Equal
    }
}
impl Eq for HeapEntry {}
impl PartialOrd for HeapEntry {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for HeapEntry {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.0.total_cmp(&self.0).then_with(|| o.1.cmp(&self.1))
    }
}
