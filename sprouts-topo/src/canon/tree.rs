//! The canonical code of one land: a tree of regions and pieces, canonised bottom-up.
//!
//! # The idea
//!
//! In a land, call *pieces* the classes of boundaries linked by labelled spots (a spot met more
//! than once is on every boundary it is met on; in a drawing these are the connected components of
//! the curves). Every boundary belongs to one region and to one piece, so regions and pieces are
//! the nodes of a graph whose edges are the boundaries. On the sphere that graph is a tree (a
//! piece has one boundary walk per face it touches, each face lies in one region, and the nesting
//! of pieces inside faces has no cycle); [`Position::check_invariants`](crate::Position) checks
//! it, and every reduction keeps it.
//!
//! A tree is canonised by rooting it at its center (one node or two adjacent ones; the center is
//! invariant) and computing codes bottom-up, as in the tree isomorphism algorithm of Aho, Hopcroft
//! and Ullman (The Design and Analysis of Computer Algorithms, 1974, section 3.2):
//!
//! * a region's code is the sorted list of its child pieces' codes: pieces in one region share no
//!   spot, so any order of them is the same position, and sorting their codes is canonical;
//! * a piece's code, entered through its boundary `b0` in the parent region, is the least code over
//!   the rotations of `b0` whose letter-blind word (spots by class only) is least: walking `b0` from
//!   that rotation names its labels in order of appearance, and every other boundary of the piece is
//!   reached through a labelled spot already named, read from its least rotation under the names
//!   given so far, and followed by the code of its region. Ties (possible only for spots met three
//!   times, in the `Full` mode) are settled by trying each tied choice: branch and bound;
//! * the root piece (when the center is a piece) tries each boundary as `b0`, restricted to those
//!   whose blind word and region code are least.
//!
//! The mirror image (every boundary reversed) is computed too and the lesser code is kept. Every
//! choice is made by an invariant rule or by minimising over all tied options, so isomorphic lands
//! get equal codes; the code spells out every boundary, every label and every region, so it is a
//! complete description and lands with equal codes are isomorphic.
//!
//! Work is counted in code units; past the budget, ties are no longer explored (the first option is
//! taken) and the result is flagged inexact: still a correct name of the land, maybe not the same
//! name as an equal land's.

use smallvec::SmallVec;

use super::shape::{LABEL_BASE, Shape};
use crate::setup::UnionFind;

/// End of a region, a piece, or the whole code. The least unit, so shorter lists sort first.
pub(crate) const END: u32 = 0;
/// Starts another boundary of a piece.
pub(crate) const BND: u32 = 1;
/// Starts a piece.
pub(crate) const GRP: u32 = 2;
/// Starts a region.
pub(crate) const REG: u32 = 3;
/// The center is a region.
pub(crate) const ROOT_R: u32 = 4;
/// The center is a piece.
pub(crate) const ROOT_G: u32 = 5;
/// The center is a region and a piece joined by a boundary.
pub(crate) const ROOT_2: u32 = 6;
/// The land is not a tree (never for valid positions): an inexact encoding follows.
pub(crate) const NOT_TREE: u32 = 7;
/// An anonymous spot of class `c` is `CLASS + c`.
pub(crate) const CLASS: u32 = 16;
/// The first occurrence of a label of class `c` is `NEW + c`.
pub(crate) const NEW: u32 = 96;
/// A further occurrence of the label named `n` (in its piece) is `REF + n`.
pub(crate) const REF: u32 = 192;

const NONE: u32 = u32::MAX;

/// The work budget and whether it was exceeded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub(crate) left: u64,
    pub(crate) exceeded: bool,
}

impl Budget {
    fn spend(&mut self, units: usize) {
        let units = units as u64;
        if self.left >= units {
            self.left -= units;
        } else {
            self.left = 0;
            self.exceeded = true;
        }
    }

    fn can_branch(&self) -> bool {
        !self.exceeded
    }
}

/// The state of one walk through a piece.
#[derive(Clone, Default, Debug)]
struct Trav {
    /// Per local label: its name in this piece, or `NONE`.
    names: Vec<u32>,
    next_name: u32,
    /// Per local boundary: reached yet.
    disc: Vec<bool>,
    /// Boundaries to read, with a tag: boundaries reached through one spot share a tag.
    queue: Vec<(u32, u32)>,
    qi: usize,
    next_tag: u32,
    code: Vec<u32>,
}

/// Scratch space for canonising lands.
#[derive(Default, Debug)]
pub(crate) struct TreeScratch {
    // The land's boundaries and regions (local indices).
    nb: usize,
    nr: usize,
    b_first: usize,
    /// Local region of each local boundary.
    breg: Vec<u32>,
    /// Local region `r` is the boundaries `rbnd[r]..rbnd[r + 1]`.
    rbnd: Vec<u32>,
    /// Label occurrences (local labels): label `l` is `locc[lstart[l]..lstart[l + 1]]`, each
    /// `(local boundary, offset)`.
    lstart: Vec<u32>,
    locc: Vec<(u32, u32)>,
    label_base: u32,
    nl: usize,
    lclass: Vec<u8>,
    /// Pieces: piece of each boundary, and the boundaries of piece `g` in `gbnd[gstart[g]..]`.
    bgroup: Vec<u32>,
    gstart: Vec<u32>,
    gbnd: Vec<u32>,
    ng: usize,
    // The tree: nodes `0..nr` are regions, `nr..nr + ng` pieces.
    degree: Vec<u32>,
    parent_b: Vec<u32>,
    bfs: Vec<u32>,
    mark: Vec<u32>,
    /// Code arena: the code of node `n` is `arena[code_start[n]..code_end[n]]`.
    arena: Vec<u32>,
    code_start: Vec<u32>,
    code_end: Vec<u32>,
    // Scratch for one piece.
    trav: Trav,
    word: Vec<u32>,
    best_word: Vec<u32>,
    tmp_names: SmallVec<[(u32, u32); 16]>,
    blind: Vec<u8>,
    best_blind: Vec<u8>,
    kids: Vec<(u32, u32)>,
    best: Vec<u32>,
    /// The final code of the land.
    pub(crate) code: Vec<u32>,
    other: Vec<u32>,
}

/// How boundary words are read: straight or mirrored.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    shape: &'a Shape,
    mirror: bool,
}

impl TreeScratch {
    /// Computes the canonical code of land `land` of `shape` into `self.code`.
    pub(crate) fn canon_land(
        &mut self,
        shape: &Shape,
        land: usize,
        mirror_too: bool,
        budget: &mut Budget,
    ) {
        self.load(shape, land);
        let tree = self.build_tree();
        if !tree {
            self.not_tree_code(shape);
            budget.exceeded = true;
            return;
        }
        let centers = self.centers();
        self.code.clear();
        self.other.clear();
        self.root_and_order(&centers);
        let ctx = Ctx {
            shape,
            mirror: false,
        };
        self.compute(ctx, &centers, budget);
        if mirror_too {
            std::mem::swap(&mut self.code, &mut self.other);
            let ctx = Ctx {
                shape,
                mirror: true,
            };
            self.compute(ctx, &centers, budget);
            // `other` holds the straight code, `code` the mirrored one: keep the lesser.
            if self.other < self.code {
                std::mem::swap(&mut self.code, &mut self.other);
            }
        }
    }

    /// Loads the land's boundaries, regions and labels (local numbering).
    fn load(&mut self, shape: &Shape, land: usize) {
        let (rs, re) = (shape.land[land] as usize, shape.land[land + 1] as usize);
        let (bs, be) = (shape.reg[rs] as usize, shape.reg[re] as usize);
        self.nr = re - rs;
        self.nb = be - bs;
        self.b_first = bs;
        self.breg.clear();
        self.rbnd.clear();
        for r in rs..re {
            self.rbnd.push(shape.reg[r] - bs as u32);
            for _ in shape.reg[r]..shape.reg[r + 1] {
                self.breg.push((r - rs) as u32);
            }
        }
        self.rbnd.push(self.nb as u32);
        // Labels of this land form a contiguous range of label numbers.
        let (ts, te) = (shape.bnd[bs] as usize, shape.bnd[be] as usize);
        let mut lo = u32::MAX;
        let mut hi = 0u32;
        for &t in &shape.toks[ts..te] {
            if t >= LABEL_BASE {
                lo = lo.min(t - LABEL_BASE);
                hi = hi.max(t - LABEL_BASE + 1);
            }
        }
        if lo == u32::MAX {
            lo = 0;
            hi = 0;
        }
        self.label_base = lo;
        self.nl = (hi - lo) as usize;
        self.lclass.clear();
        self.lclass
            .extend_from_slice(&shape.label_class[lo as usize..hi as usize]);
        self.lstart.clear();
        self.lstart.resize(self.nl + 1, 0);
        for &t in &shape.toks[ts..te] {
            if t >= LABEL_BASE {
                self.lstart[(t - LABEL_BASE - lo) as usize + 1] += 1;
            }
        }
        for l in 0..self.nl {
            self.lstart[l + 1] += self.lstart[l];
        }
        self.locc.clear();
        self.locc.resize(self.lstart[self.nl] as usize, (0, 0));
        let mut fill: SmallVec<[u32; 64]> = self.lstart[..self.nl].iter().copied().collect();
        for b in 0..self.nb {
            let (s, e) = (shape.bnd[bs + b] as usize, shape.bnd[bs + b + 1] as usize);
            for (k, &t) in shape.toks[s..e].iter().enumerate() {
                if t >= LABEL_BASE {
                    let l = (t - LABEL_BASE - lo) as usize;
                    self.locc[fill[l] as usize] = (b as u32, k as u32);
                    fill[l] += 1;
                }
            }
        }
    }

    /// Builds the pieces and the tree; returns whether the land is a tree.
    fn build_tree(&mut self) -> bool {
        let nb = self.nb;
        let mut uf = UnionFind::new(nb);
        for l in 0..self.nl {
            let (s, e) = (self.lstart[l] as usize, self.lstart[l + 1] as usize);
            for k in s + 1..e {
                uf.union(self.locc[s].0, self.locc[k].0);
            }
        }
        self.bgroup.clear();
        self.bgroup.resize(nb, NONE);
        let mut ng = 0u32;
        let mut root_group: SmallVec<[u32; 64]> = SmallVec::from_elem(NONE, nb);
        for b in 0..nb {
            let root = uf.find(b as u32) as usize;
            if root_group[root] == NONE {
                root_group[root] = ng;
                ng += 1;
            }
            self.bgroup[b] = root_group[root];
        }
        self.ng = ng as usize;
        self.gstart.clear();
        self.gstart.resize(self.ng + 1, 0);
        for b in 0..nb {
            self.gstart[self.bgroup[b] as usize + 1] += 1;
        }
        for g in 0..self.ng {
            self.gstart[g + 1] += self.gstart[g];
        }
        self.gbnd.clear();
        self.gbnd.resize(nb, 0);
        let mut fill: SmallVec<[u32; 64]> = self.gstart[..self.ng].iter().copied().collect();
        for b in 0..nb {
            let g = self.bgroup[b] as usize;
            self.gbnd[fill[g] as usize] = b as u32;
            fill[g] += 1;
        }
        // A piece meets each region at most once, and the graph is connected with one edge fewer
        // than nodes.
        self.mark.clear();
        self.mark.resize(self.nr, NONE);
        for g in 0..self.ng {
            for &b in &self.gbnd[self.gstart[g] as usize..self.gstart[g + 1] as usize] {
                let r = self.breg[b as usize] as usize;
                if self.mark[r] == g as u32 {
                    return false;
                }
                self.mark[r] = g as u32;
            }
        }
        nb + 1 == self.nr + self.ng
    }

    /// The center of the tree: one node, or two adjacent nodes (a region and a piece).
    fn centers(&mut self) -> SmallVec<[u32; 2]> {
        let n = self.nr + self.ng;
        self.degree.clear();
        for r in 0..self.nr {
            self.degree.push(self.rbnd[r + 1] - self.rbnd[r]);
        }
        for g in 0..self.ng {
            self.degree.push(self.gstart[g + 1] - self.gstart[g]);
        }
        let mut leaves: Vec<u32> = (0..n as u32)
            .filter(|&v| self.degree[v as usize] <= 1)
            .collect();
        let mut remaining = n;
        let mut next = Vec::new();
        while remaining > 2 {
            next.clear();
            for &v in &leaves {
                remaining -= 1;
                self.degree[v as usize] = 0;
                let mut visit = |u: u32, degree: &mut Vec<u32>| {
                    if degree[u as usize] > 0 {
                        degree[u as usize] -= 1;
                        if degree[u as usize] == 1 {
                            next.push(u);
                        }
                    }
                };
                if (v as usize) < self.nr {
                    for b in self.rbnd[v as usize]..self.rbnd[v as usize + 1] {
                        let u = self.nr as u32 + self.bgroup[b as usize];
                        visit(u, &mut self.degree);
                    }
                } else {
                    let g = v as usize - self.nr;
                    for &b in &self.gbnd[self.gstart[g] as usize..self.gstart[g + 1] as usize] {
                        visit(self.breg[b as usize], &mut self.degree);
                    }
                }
            }
            std::mem::swap(&mut leaves, &mut next);
        }
        let mut c: SmallVec<[u32; 2]> = leaves.iter().copied().collect();
        c.sort_unstable();
        c
    }

    /// Roots the tree at the centers and lists nodes in breadth-first order.
    fn root_and_order(&mut self, centers: &[u32]) {
        let n = self.nr + self.ng;
        self.parent_b.clear();
        self.parent_b.resize(n, NONE);
        self.mark.clear();
        self.mark.resize(n, 0);
        self.bfs.clear();
        if centers.len() == 2 {
            // A region and a piece: the boundary between them is both one's parent edge.
            let (r, g) = (centers[0], centers[1]);
            let gi = g as usize - self.nr;
            let b = self.gbnd[self.gstart[gi] as usize..self.gstart[gi + 1] as usize]
                .iter()
                .copied()
                .find(|&b| self.breg[b as usize] == r)
                .expect("the two centers are adjacent");
            self.parent_b[r as usize] = b;
            self.parent_b[g as usize] = b;
        }
        for &c in centers {
            self.mark[c as usize] = 1;
            self.bfs.push(c);
        }
        let mut i = 0;
        while i < self.bfs.len() {
            let v = self.bfs[i];
            i += 1;
            if (v as usize) < self.nr {
                for b in self.rbnd[v as usize]..self.rbnd[v as usize + 1] {
                    let u = self.nr as u32 + self.bgroup[b as usize];
                    if self.mark[u as usize] == 0 {
                        self.mark[u as usize] = 1;
                        self.parent_b[u as usize] = b;
                        self.bfs.push(u);
                    }
                }
            } else {
                let g = v as usize - self.nr;
                for k in self.gstart[g]..self.gstart[g + 1] {
                    let b = self.gbnd[k as usize];
                    let u = self.breg[b as usize];
                    if self.mark[u as usize] == 0 {
                        self.mark[u as usize] = 1;
                        self.parent_b[u as usize] = b;
                        self.bfs.push(u);
                    }
                }
            }
        }
    }

    /// Computes every node's code bottom-up and the root code into `self.code`.
    fn compute(&mut self, ctx: Ctx<'_>, centers: &[u32], budget: &mut Budget) {
        let n = self.nr + self.ng;
        self.arena.clear();
        self.code_start.clear();
        self.code_start.resize(n, 0);
        self.code_end.clear();
        self.code_end.resize(n, 0);
        for i in (0..self.bfs.len()).rev() {
            let v = self.bfs[i] as usize;
            let is_root = centers.len() == 1 && centers[0] as usize == v;
            let start = self.arena.len();
            if v < self.nr {
                self.region_code(v, if is_root { NONE } else { self.parent_b[v] });
            } else {
                self.group_code(
                    ctx,
                    v - self.nr,
                    if is_root { NONE } else { self.parent_b[v] },
                    budget,
                );
            }
            self.code_start[v] = start as u32;
            self.code_end[v] = self.arena.len() as u32;
        }
        self.code.clear();
        if centers.len() == 1 {
            let c = centers[0] as usize;
            self.code.push(if c < self.nr { ROOT_R } else { ROOT_G });
            let (s, e) = (self.code_start[c] as usize, self.code_end[c] as usize);
            self.code.extend_from_slice(&self.arena[s..e]);
        } else {
            // The region first, then the piece (rooted at the boundary between them).
            self.code.push(ROOT_2);
            for &c in centers {
                let c = c as usize;
                let (s, e) = (self.code_start[c] as usize, self.code_end[c] as usize);
                self.code.extend_from_slice(&self.arena[s..e]);
            }
        }
    }

    /// Appends the code of region `r` (its parent boundary `pb`, or `NONE` at the root).
    fn region_code(&mut self, r: usize, pb: u32) {
        self.kids.clear();
        for b in self.rbnd[r]..self.rbnd[r + 1] {
            if b == pb {
                continue;
            }
            let g = self.nr + self.bgroup[b as usize] as usize;
            self.kids.push((self.code_start[g], self.code_end[g]));
        }
        let arena = &self.arena;
        self.kids.sort_unstable_by(|&(s1, e1), &(s2, e2)| {
            arena[s1 as usize..e1 as usize].cmp(&arena[s2 as usize..e2 as usize])
        });
        self.arena.push(REG);
        for k in 0..self.kids.len() {
            let (s, e) = self.kids[k];
            self.arena.extend_from_within(s as usize..e as usize);
        }
        self.arena.push(END);
    }

    /// The class of token `t`.
    fn class_of(&self, t: u32) -> u8 {
        if t >= LABEL_BASE {
            self.lclass[(t - LABEL_BASE - self.label_base) as usize]
        } else {
            t as u8
        }
    }

    /// The tokens of local boundary `b`.
    #[inline]
    fn toks<'s>(&self, ctx: Ctx<'s>, b: usize) -> &'s [u32] {
        let (s, e) = (
            ctx.shape.bnd[self.b_first + b] as usize,
            ctx.shape.bnd[self.b_first + b + 1] as usize,
        );
        &ctx.shape.toks[s..e]
    }

    /// Whether local boundary `b` is a bag (a merged small region: its order does not matter).
    #[inline]
    fn is_bag(&self, ctx: Ctx<'_>, b: usize) -> bool {
        ctx.shape.bag[self.b_first + b]
    }

    /// The labels of bag `b` not named in `names`, in stored order.
    fn unnamed_in_bag(&self, ctx: Ctx<'_>, names: Option<&[u32]>, b: usize) -> SmallVec<[u32; 4]> {
        self.toks(ctx, b)
            .iter()
            .copied()
            .filter(|&t| {
                t >= LABEL_BASE
                    && names.is_none_or(|n| n[(t - LABEL_BASE - self.label_base) as usize] == NONE)
            })
            .collect()
    }

    /// The number of ways to read boundary `b`: its rotations, or for a bag the orders of its
    /// labels not yet named.
    fn reading_count(&self, ctx: Ctx<'_>, names: Option<&[u32]>, b: usize) -> usize {
        if self.is_bag(ctx, b) {
            match self.unnamed_in_bag(ctx, names, b).len() {
                0 | 1 => 1,
                2 => 2,
                3 => 6,
                _ => 1,
            }
        } else {
            self.toks(ctx, b).len()
        }
    }

    /// The tokens of boundary `b` in reading `rd`: from rotation `rd` (reversed in the mirror
    /// image); for a bag, anonymous spots by class, then named labels by name, then the unnamed
    /// ones in the `rd`-th order.
    fn reading(
        &self,
        ctx: Ctx<'_>,
        names: Option<&[u32]>,
        b: usize,
        rd: usize,
        out: &mut SmallVec<[u32; 16]>,
    ) {
        out.clear();
        let toks = self.toks(ctx, b);
        let m = toks.len();
        if !self.is_bag(ctx, b) {
            for k in 0..m {
                let mut idx = (rd + k) % m;
                if ctx.mirror {
                    idx = m - 1 - idx;
                }
                out.push(toks[idx]);
            }
            return;
        }
        let name = |t: u32| names.map_or(NONE, |n| n[(t - LABEL_BASE - self.label_base) as usize]);
        let mut anon: SmallVec<[u32; 4]> =
            toks.iter().copied().filter(|&t| t < LABEL_BASE).collect();
        anon.sort_unstable();
        out.extend_from_slice(&anon);
        let mut named: SmallVec<[u32; 4]> = toks
            .iter()
            .copied()
            .filter(|&t| t >= LABEL_BASE && name(t) != NONE)
            .collect();
        named.sort_unstable_by_key(|&t| name(t));
        out.extend_from_slice(&named);
        let unnamed = self.unnamed_in_bag(ctx, names, b);
        const PERMS: [[usize; 3]; 6] = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        if unnamed.len() <= 3 {
            let perm = match unnamed.len() {
                2 => [[0, 1, 2], [1, 0, 2]][rd.min(1)],
                3 => PERMS[rd.min(5)],
                _ => [0, 1, 2],
            };
            for &i in &perm[..unnamed.len()] {
                out.push(unnamed[i]);
            }
        } else {
            out.extend_from_slice(&unnamed);
        }
    }

    /// The readings of boundary `b` (no label named yet) whose blind word (classes only) is
    /// least, and that word into `self.best_blind`.
    fn blind_min_rotations(&mut self, ctx: Ctx<'_>, b: usize) -> SmallVec<[u32; 8]> {
        let n = self.reading_count(ctx, None, b);
        let mut rots: SmallVec<[u32; 8]> = SmallVec::new();
        let mut toks: SmallVec<[u32; 16]> = SmallVec::new();
        self.best_blind.clear();
        for rd in 0..n {
            self.reading(ctx, None, b, rd, &mut toks);
            self.blind.clear();
            for &t in &toks {
                self.blind.push(self.class_of(t));
            }
            if rots.is_empty() || self.blind < self.best_blind {
                rots.clear();
                rots.push(rd as u32);
                std::mem::swap(&mut self.blind, &mut self.best_blind);
            } else if self.blind == self.best_blind {
                rots.push(rd as u32);
            }
        }
        rots
    }

    /// Appends the code of piece `g` entered through boundary `pb` (or `NONE` at the root).
    fn group_code(&mut self, ctx: Ctx<'_>, g: usize, pb: u32, budget: &mut Budget) {
        let mut starts: SmallVec<[(u32, u32); 8]> = SmallVec::new();
        if pb != NONE {
            for rot in self.blind_min_rotations(ctx, pb as usize) {
                starts.push((pb, rot));
            }
        } else {
            // The root piece: boundaries whose blind word and region code are least.
            let (gs, ge) = (self.gstart[g] as usize, self.gstart[g + 1] as usize);
            let mut best_key: (Vec<u8>, u32, u32) = (Vec::new(), 0, 0);
            for k in gs..ge {
                let b = self.gbnd[k];
                let rots = self.blind_min_rotations(ctx, b as usize);
                let r = self.breg[b as usize] as usize;
                let (rs, re) = (self.code_start[r], self.code_end[r]);
                let better = if starts.is_empty() {
                    std::cmp::Ordering::Less
                } else {
                    self.best_blind.cmp(&best_key.0).then_with(|| {
                        self.arena[rs as usize..re as usize]
                            .cmp(&self.arena[best_key.1 as usize..best_key.2 as usize])
                    })
                };
                match better {
                    std::cmp::Ordering::Less => {
                        starts.clear();
                        best_key = (self.best_blind.clone(), rs, re);
                        starts.extend(rots.iter().map(|&rot| (b, rot)));
                    }
                    std::cmp::Ordering::Equal => starts.extend(rots.iter().map(|&rot| (b, rot))),
                    std::cmp::Ordering::Greater => {}
                }
            }
        }
        let root = pb == NONE;
        self.best.clear();
        let mut have = false;
        for (i, &(b0, rot)) in starts.iter().enumerate() {
            if i > 0 && !budget.can_branch() {
                break;
            }
            let mut t = std::mem::take(&mut self.trav);
            self.walk(ctx, g, b0 as usize, rot as usize, root, &mut t, budget);
            budget.spend(t.code.len());
            if !have || t.code < self.best {
                std::mem::swap(&mut self.best, &mut t.code);
                have = true;
            }
            self.reset_trav(g, &mut t);
            self.trav = t;
        }
        self.arena.extend_from_slice(&self.best);
    }

    /// Clears the traversal state touched by a walk of piece `g`.
    fn reset_trav(&self, _g: usize, t: &mut Trav) {
        for n in t.names.iter_mut() {
            *n = NONE;
        }
        for d in t.disc.iter_mut() {
            *d = false;
        }
        t.queue.clear();
        t.qi = 0;
        t.next_name = 0;
        t.next_tag = 0;
        t.code.clear();
    }

    /// Walks piece `g` from boundary `b0` read from rotation `rot`, leaving its code in `t.code`.
    #[allow(
        clippy::too_many_arguments,
        reason = "the walk's context is spread over the scratch"
    )]
    fn walk(
        &mut self,
        ctx: Ctx<'_>,
        _g: usize,
        b0: usize,
        rot: usize,
        root: bool,
        t: &mut Trav,
        budget: &mut Budget,
    ) {
        if t.names.len() != self.nl {
            t.names.clear();
            t.names.resize(self.nl, NONE);
        }
        if t.disc.len() != self.nb {
            t.disc.clear();
            t.disc.resize(self.nb, false);
        }
        t.code.clear();
        t.code.push(GRP);
        t.disc[b0] = true;
        t.queue.push((b0 as u32, NONE));
        t.qi = 1;
        self.emit_word(ctx, t, b0, rot);
        if root {
            self.push_region_code(t, self.breg[b0] as usize);
        }
        self.run(ctx, t, budget);
        t.code.push(END);
    }

    /// Continues a walk until every boundary of the piece is read.
    fn run(&mut self, ctx: Ctx<'_>, t: &mut Trav, budget: &mut Budget) {
        while t.qi < t.queue.len() {
            // The boundaries reached together with the next one.
            let tag = t.queue[t.qi].1;
            let mut end = t.qi + 1;
            while end < t.queue.len() && t.queue[end].1 == tag && tag != NONE {
                end += 1;
            }
            // The options: a boundary of that batch and a rotation, with the least word.
            let mut options: SmallVec<[(u32, u32); 4]> = SmallVec::new();
            self.best_word.clear();
            for q in t.qi..end {
                let b = t.queue[q].0 as usize;
                for rot in 0..self.reading_count(ctx, Some(&t.names), b) {
                    self.candidate_word(ctx, t, b, rot);
                    if options.is_empty() || self.word < self.best_word {
                        options.clear();
                        options.push((q as u32, rot as u32));
                        std::mem::swap(&mut self.word, &mut self.best_word);
                    } else if self.word == self.best_word {
                        options.push((q as u32, rot as u32));
                    }
                }
            }
            if options.len() == 1 || !budget.can_branch() {
                let (q, rot) = options[0];
                self.take(ctx, t, q as usize, rot as usize);
                continue;
            }
            // Branch: finish the walk for every tied option and keep the least code.
            let mut best: Option<Trav> = None;
            for &(q, rot) in &options {
                let mut u = t.clone();
                self.take(ctx, &mut u, q as usize, rot as usize);
                self.run(ctx, &mut u, budget);
                budget.spend(u.code.len());
                if best.as_ref().is_none_or(|b| u.code < b.code) {
                    best = Some(u);
                }
            }
            *t = best.expect("at least one option");
            return;
        }
    }

    /// Reads queue entry `q` next, from rotation `rot`.
    fn take(&mut self, ctx: Ctx<'_>, t: &mut Trav, q: usize, rot: usize) {
        t.queue.swap(t.qi, q);
        t.queue[t.qi].1 = NONE;
        let b = t.queue[t.qi].0 as usize;
        t.qi += 1;
        t.code.push(BND);
        self.emit_word(ctx, t, b, rot);
        self.push_region_code(t, self.breg[b] as usize);
    }

    fn push_region_code(&self, t: &mut Trav, r: usize) {
        let (s, e) = (self.code_start[r] as usize, self.code_end[r] as usize);
        t.code.extend_from_slice(&self.arena[s..e]);
    }

    /// The word boundary `b` would be written as in reading `rd`, into `self.word`.
    fn candidate_word(&mut self, ctx: Ctx<'_>, t: &Trav, b: usize, rd: usize) {
        let mut toks: SmallVec<[u32; 16]> = SmallVec::new();
        self.reading(ctx, Some(&t.names), b, rd, &mut toks);
        self.word.clear();
        self.tmp_names.clear();
        let mut next = t.next_name;
        for &tok in &toks {
            let unit = if tok >= LABEL_BASE {
                let l = tok - LABEL_BASE - self.label_base;
                let named = t.names[l as usize];
                if named != NONE {
                    REF + named
                } else if let Some(&(_, n)) = self.tmp_names.iter().find(|&&(ll, _)| ll == l) {
                    REF + n
                } else {
                    self.tmp_names.push((l, next));
                    next += 1;
                    NEW + u32::from(self.lclass[l as usize])
                }
            } else {
                CLASS + tok
            };
            self.word.push(unit);
        }
    }

    /// Writes boundary `b` in reading `rd` into the walk: names new labels and queues the
    /// boundaries they reach.
    fn emit_word(&mut self, ctx: Ctx<'_>, t: &mut Trav, b: usize, rd: usize) {
        let mut toks: SmallVec<[u32; 16]> = SmallVec::new();
        self.reading(ctx, Some(&t.names), b, rd, &mut toks);
        for &tok in &toks {
            if tok < LABEL_BASE {
                t.code.push(CLASS + tok);
                continue;
            }
            let l = (tok - LABEL_BASE - self.label_base) as usize;
            if t.names[l] != NONE {
                t.code.push(REF + t.names[l]);
                continue;
            }
            t.names[l] = t.next_name;
            t.next_name += 1;
            t.code.push(NEW + u32::from(self.lclass[l]));
            // Queue the other boundaries this spot is met on, as one batch.
            let tag = t.next_tag;
            t.next_tag += 1;
            for k2 in self.lstart[l]..self.lstart[l + 1] {
                let ob = self.locc[k2 as usize].0 as usize;
                if !t.disc[ob] {
                    t.disc[ob] = true;
                    t.queue.push((ob as u32, tag));
                }
            }
        }
    }

    /// An inexact encoding for a land that is not a tree: regions and boundaries as stored, labels
    /// numbered in order of appearance.
    fn not_tree_code(&mut self, shape: &Shape) {
        self.code.clear();
        self.code.push(NOT_TREE);
        let mut names = vec![NONE; self.nl];
        let mut next = 0;
        for r in 0..self.nr {
            self.code.push(REG);
            for b in self.rbnd[r]..self.rbnd[r + 1] {
                self.code.push(BND);
                let (s, e) = (
                    shape.bnd[self.b_first + b as usize] as usize,
                    shape.bnd[self.b_first + b as usize + 1] as usize,
                );
                for &tok in &shape.toks[s..e] {
                    if tok >= LABEL_BASE {
                        let l = (tok - LABEL_BASE - self.label_base) as usize;
                        if names[l] == NONE {
                            names[l] = next;
                            next += 1;
                            self.code.push(NEW + u32::from(self.lclass[l]));
                        } else {
                            self.code.push(REF + names[l]);
                        }
                    } else {
                        self.code.push(CLASS + tok);
                    }
                }
            }
            self.code.push(END);
        }
        self.code.push(END);
    }
}
