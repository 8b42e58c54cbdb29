//! The bounds of [`super::bounds`] computed in reusable buffers, without allocating.
//!
//! The same survey as the reference in the parent module (`upper_bound_with(_, BEST)` and
//! `lower_bound_with(_, true)`, tested equal on every position of many random games): a live
//! spot lies in at most two regions (it has at most two curves, so at most two corners), so the
//! regions of each spot are two numbers instead of a list, lands are found by union-find over
//! flat arrays, and each land's terms are gathered in one pass over the spots rather than one
//! pass per land. Parity search takes the bounds of every position one ply above its leaves, so
//! this is its inner loop.

use petgraph::algo::maximum_matching;
use petgraph::graph::UnGraph;
use sprouts_topo::{Position, SpotId};

use super::Bounds;

const NONE: u32 = u32::MAX;

/// Reusable buffers for [`BoundsScratch::bounds`]; one per thread (or per searcher).
#[derive(Clone, Debug, Default)]
pub struct BoundsScratch {
    /// Per spot: the first and second live region its corners lie in.
    reg1: Vec<u32>,
    reg2: Vec<u32>,
    /// Per spot: the last boundary it was counted on (for the lives of a boundary).
    stamp: Vec<u32>,
    /// Per spot: lives.
    lives: Vec<u8>,
    /// Per region: lives, union-find parent, land (or `NONE`), private life.
    region_lives: Vec<u32>,
    parent: Vec<u32>,
    land: Vec<u32>,
    private: Vec<bool>,
    /// Per land: lives, private regions, the sum of `lives - 1` over its regions.
    land_lives: Vec<u32>,
    land_private: Vec<u32>,
    land_excess: Vec<u32>,
    /// Links between two regions without private lives: (land, region, region).
    edges: Vec<(u32, u32, u32)>,
    /// Per spot, for the lower bound: the first neighbour, several neighbours, a live one.
    first: Vec<u32>,
    several: Vec<bool>,
    live_neighbour: Vec<bool>,
}

impl BoundsScratch {
    /// Empty buffers.
    pub fn new() -> BoundsScratch {
        BoundsScratch::default()
    }

    /// Both bounds, as [`super::bounds`].
    pub fn bounds(&mut self, position: &Position) -> Bounds {
        self.bounds_with(position, None)
    }

    /// Both bounds, as [`super::bounds`], with the position's completeness given when the
    /// caller knows it (a position played from a complete one is complete), which saves
    /// checking it. `complete` must be what [`Position::is_complete`] answers.
    pub fn bounds_with(&mut self, position: &Position, complete: Option<bool>) -> Bounds {
        debug_assert!(complete.is_none_or(|c| c == position.is_complete()));
        let (upper, lands) = self.upper(position);
        let lower = if lands == 0 {
            0
        } else if !complete.unwrap_or_else(|| position.is_complete()) {
            lands
        } else {
            self.lower(position)
        };
        Bounds { upper, lower }
    }

    /// `M`, as [`super::upper_bound`].
    pub fn upper_bound(&mut self, position: &Position) -> u32 {
        self.upper(position).0
    }

    /// The upper bound of each land, in the order of [`Position::lands`] (as
    /// [`super::land_upper_bounds`]).
    pub fn land_upper_bounds(&mut self, position: &Position) -> Vec<u32> {
        let (_, lands) = self.upper(position);
        (0..lands).map(|k| self.land_bound(k)).collect()
    }

    fn load_lives(&mut self, position: &Position) {
        let n = position.next_spot().get() as usize - 1;
        self.lives.clear();
        self.lives.resize(n, 0);
        for (s, l) in position.spots() {
            self.lives[idx(s)] = l.get();
        }
    }

    /// Fills the per-land terms; returns `M` and the number of lands.
    fn upper(&mut self, position: &Position) -> (u32, u32) {
        self.load_lives(position);
        let n = self.lives.len();
        let nr = position.region_count();
        self.reg1.clear();
        self.reg1.resize(n, NONE);
        self.reg2.clear();
        self.reg2.resize(n, NONE);
        self.stamp.clear();
        self.stamp.resize(n, NONE);
        self.region_lives.clear();
        self.parent.clear();
        for r in position.regions() {
            let ri = r.id().index() as u32;
            let mut total = 0;
            for b in r.boundaries() {
                let bi = b.id().index() as u32;
                for &c in b.corners() {
                    let i = idx(c);
                    let l = self.lives[i];
                    if l != 0 && self.stamp[i] != bi {
                        self.stamp[i] = bi;
                        total += u32::from(l);
                    }
                }
            }
            self.region_lives.push(total);
            self.parent.push(ri);
            if total < 2 {
                continue;
            }
            for b in r.boundaries() {
                for &c in b.corners() {
                    let i = idx(c);
                    if self.lives[i] == 0 || self.reg1[i] == ri || self.reg2[i] == ri {
                        continue;
                    }
                    if self.reg1[i] == NONE {
                        self.reg1[i] = ri;
                    } else {
                        // A live spot has at most two corners, so at most two regions.
                        debug_assert_eq!(self.reg2[i], NONE, "a live spot in three regions");
                        self.reg2[i] = ri;
                    }
                }
            }
        }
        // Lands: live regions joined by live spots.
        for i in 0..n {
            if self.reg2[i] != NONE {
                let a = find(&mut self.parent, self.reg1[i]);
                let b = find(&mut self.parent, self.reg2[i]);
                self.parent[a as usize] = b;
            }
        }
        self.land.clear();
        self.land.resize(nr, NONE);
        self.private.clear();
        self.private.resize(nr, false);
        self.land_lives.clear();
        self.land_private.clear();
        self.land_excess.clear();
        let mut lands = 0u32;
        for r in 0..nr {
            if self.region_lives[r] < 2 {
                continue;
            }
            let root = find(&mut self.parent, r as u32) as usize;
            // Lands are numbered in the order of their first region (as the reference does).
            if self.land[root] == NONE {
                self.land[root] = lands;
                lands += 1;
                self.land_lives.push(0);
                self.land_private.push(0);
                self.land_excess.push(0);
            }
            let k = self.land[root];
            self.land[r] = k;
            self.land_excess[k as usize] += self.region_lives[r] - 1;
        }
        // Lives and private regions.
        for i in 0..n {
            let r1 = self.reg1[i];
            if r1 == NONE {
                continue;
            }
            let k = self.land[r1 as usize] as usize;
            self.land_lives[k] += u32::from(self.lives[i]);
            if self.reg2[i] == NONE && !self.private[r1 as usize] {
                self.private[r1 as usize] = true;
                self.land_private[k] += 1;
            }
        }
        // Links between regions with no private life.
        self.edges.clear();
        for i in 0..n {
            let (r1, r2) = (self.reg1[i], self.reg2[i]);
            if self.lives[i] != 1 || r2 == NONE {
                continue;
            }
            if self.private[r1 as usize] || self.private[r2 as usize] {
                continue;
            }
            self.edges.push((self.land[r1 as usize], r1, r2));
        }
        self.edges.sort_unstable();
        // From here `land_private` holds the survivors kept: private regions and pairs.
        let mut start = 0;
        while start < self.edges.len() {
            let k = self.edges[start].0;
            let len = self.edges[start..].iter().take_while(|e| e.0 == k).count();
            self.land_private[k as usize] += matching_size(&self.edges[start..start + len]);
            start += len;
        }
        let upper = (0..lands).map(|k| self.land_bound(k)).sum();
        (upper, lands)
    }

    /// The bound of land `k` (after [`BoundsScratch::upper`]): at least one survivor kept.
    fn land_bound(&self, k: u32) -> u32 {
        let k = k as usize;
        self.land_lives[k]
            .saturating_sub(self.land_private[k].max(1))
            .min(self.land_excess[k])
    }

    /// `m` of a complete position with at least one land (see [`super::lower_bound`]).
    fn lower(&mut self, position: &Position) -> u32 {
        let n = self.lives.len();
        self.first.clear();
        self.first.resize(n, 0);
        self.several.clear();
        self.several.resize(n, false);
        self.live_neighbour.clear();
        self.live_neighbour.resize(n, false);
        for b in position.boundaries() {
            let cs = b.corners();
            let k = cs.len();
            if k < 2 {
                continue;
            }
            for i in 0..k {
                let (x, y) = (cs[i], cs[(i + 1) % k]);
                self.neighbours(x, y);
                self.neighbours(y, x);
            }
        }
        let mut p = 0i64;
        let mut d = 0i64;
        let mut l = 0i64;
        let mut v = 0i64;
        for (s, lives) in position.spots() {
            let i = idx(s);
            let lives = lives.get();
            l += i64::from(lives);
            v += 1;
            match lives {
                0 if !self.live_neighbour[i] => p += 1,
                1 if self.first[i] != 0 && !self.several[i] => d += 1,
                _ => {}
            }
        }
        let m = (3 * l - v + p - d + 3).div_euclid(4);
        (m.max(0) as u32).max(1)
    }

    #[inline]
    fn neighbours(&mut self, a: SpotId, c: SpotId) {
        let ai = idx(a);
        if self.lives[idx(c)] > 0 {
            self.live_neighbour[ai] = true;
        }
        if self.first[ai] == 0 {
            self.first[ai] = c.get();
        } else if self.first[ai] != c.get() {
            self.several[ai] = true;
        }
    }
}

fn find(p: &mut [u32], mut x: u32) -> u32 {
    while p[x as usize] != x {
        p[x as usize] = p[p[x as usize] as usize];
        x = p[x as usize];
    }
    x
}

/// The size of a maximum matching of a graph given by its edges (regions as nodes).
fn matching_size(edges: &[(u32, u32, u32)]) -> u32 {
    match edges {
        [] => 0,
        [_] => 1,
        [(_, a, b), (_, c, d)] => {
            if a == c || a == d || b == c || b == d {
                1
            } else {
                2
            }
        }
        _ => {
            let mut nodes: Vec<u32> = edges.iter().flat_map(|e| [e.1, e.2]).collect();
            nodes.sort_unstable();
            nodes.dedup();
            let idx = |r: u32| nodes.binary_search(&r).expect("an endpoint") as u32;
            let mut g: UnGraph<(), ()> = UnGraph::with_capacity(nodes.len(), edges.len());
            for _ in 0..nodes.len() {
                g.add_node(());
            }
            for e in edges {
                g.add_edge(idx(e.1).into(), idx(e.2).into(), ());
            }
            maximum_matching(&g).len() as u32
        }
    }
}

/// The zero-based index of a spot.
#[inline]
fn idx(s: SpotId) -> usize {
    s.get() as usize - 1
}
