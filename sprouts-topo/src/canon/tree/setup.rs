//! The tree of a land: its boundaries, labels, pieces, center and breadth-first order.
//!
//! Before any code is written, a land is loaded into local tables: each boundary's region, each
//! label's occurrences, the pieces (boundaries joined through shared labels), the center of the
//! region-piece tree, each node's parent boundary and the nodes in breadth-first order from the
//! center (the order codes are computed in, reversed). [`TreeScratch::setup`] does all of it in
//! one pass over tables kept from call to call, since it runs for every land named;
//! [`TreeScratch::setup_reference`] does it step by step, plainly, and is what the fast setup is
//! tested against (and falls back to on lands no position reaches).

use smallvec::SmallVec;

use super::{NONE, TreeScratch};
use crate::canon::shape::{LABEL_BASE, Shape};

impl TreeScratch {
    /// Loads the land's boundaries, regions and labels (local numbering).
    #[inline(never)]
    pub(super) fn load(&mut self, shape: &Shape, land: usize) {
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
        // The land's labels are numbered from 0 in its tokens; their classes are a range.
        let (ts, te) = (shape.bnd[bs] as usize, shape.bnd[be] as usize);
        let (lo, hi) = (shape.land_labels[land], shape.land_labels[land + 1]);
        self.nl = (hi - lo) as usize;
        self.lclass.clear();
        self.lclass
            .extend_from_slice(&shape.label_class[lo as usize..hi as usize]);
        self.lstart.clear();
        self.lstart.resize(self.nl + 1, 0);
        for &t in &shape.toks[ts..te] {
            if t >= LABEL_BASE {
                self.lstart[(t - LABEL_BASE) as usize + 1] += 1;
            }
        }
        for l in 0..self.nl {
            self.lstart[l + 1] += self.lstart[l];
        }
        self.locc.clear();
        self.locc.resize(self.lstart[self.nl] as usize, (0, 0));
        let mut fill = std::mem::take(&mut self.fill);
        fill.clear();
        fill.extend_from_slice(&self.lstart[..self.nl]);
        for b in 0..self.nb {
            let (s, e) = (shape.bnd[bs + b] as usize, shape.bnd[bs + b + 1] as usize);
            for (k, &t) in shape.toks[s..e].iter().enumerate() {
                if t >= LABEL_BASE {
                    let l = (t - LABEL_BASE) as usize;
                    self.locc[fill[l] as usize] = (b as u32, k as u32);
                    fill[l] += 1;
                }
            }
        }
        self.fill = fill;
        self.lrange.clear();
        self.lrange
            .extend((0..self.nl).map(|l| (self.lstart[l], self.lstart[l + 1])));
    }

    /// Builds the pieces and the tree; returns whether the land is a tree.
    #[inline(never)]
    pub(super) fn build_tree(&mut self) -> bool {
        let nb = self.nb;
        let mut uf = std::mem::take(&mut self.uf);
        uf.reset(nb);
        for l in 0..self.nl {
            let (s, e) = (self.lrange[l].0 as usize, self.lrange[l].1 as usize);
            for k in s + 1..e {
                uf.union(self.locc[s].0, self.locc[k].0);
            }
        }
        self.bgroup.clear();
        self.bgroup.resize(nb, NONE);
        let mut ng = 0u32;
        // Pieces are numbered in order of their first boundary (through `mark`, by root).
        self.mark.clear();
        self.mark.resize(nb, NONE);
        for b in 0..nb {
            let root = uf.find(b as u32) as usize;
            if self.mark[root] == NONE {
                self.mark[root] = ng;
                ng += 1;
            }
            self.bgroup[b] = self.mark[root];
        }
        self.uf = uf;
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
        let mut fill = std::mem::take(&mut self.fill);
        fill.clear();
        fill.extend_from_slice(&self.gstart[..self.ng]);
        for b in 0..nb {
            let g = self.bgroup[b] as usize;
            self.gbnd[fill[g] as usize] = b as u32;
            fill[g] += 1;
        }
        self.fill = fill;
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
    #[inline(never)]
    pub(super) fn centers(&mut self) -> SmallVec<[u32; 2]> {
        let n = self.nr + self.ng;
        self.degree.clear();
        for r in 0..self.nr {
            self.degree.push(self.rbnd[r + 1] - self.rbnd[r]);
        }
        for g in 0..self.ng {
            self.degree.push(self.gstart[g + 1] - self.gstart[g]);
        }
        let mut leaves = std::mem::take(&mut self.leaves);
        leaves.clear();
        leaves.extend((0..n as u32).filter(|&v| self.degree[v as usize] <= 1));
        let mut remaining = n;
        let mut next = std::mem::take(&mut self.next_leaves);
        next.clear();
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
        self.leaves = leaves;
        self.next_leaves = next;
        c
    }

    /// Roots the tree at the centers and lists nodes in breadth-first order.
    #[inline(never)]
    pub(super) fn root_and_order(&mut self, centers: &[u32]) {
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

    /// The tree's setup in one go: the tables of [`TreeScratch::load`],
    /// [`TreeScratch::build_tree`], [`TreeScratch::centers`] and [`TreeScratch::root_and_order`]
    /// (the reference it is tested against), written by index into tables kept from call to
    /// call, with no clearing of what is overwritten anyway. A label's occurrences go in three
    /// slots of its own (a spot has at most three corners; a land where a label is met more
    /// often, which no position reaches, is set up by the reference); pieces are found by
    /// joining each label's boundaries in a union-find, in the reference's order (numbered by
    /// their first boundary, boundaries in increasing order). Returns the centers, or `None`
    /// when the land is not a tree.
    #[inline(never)]
    pub(super) fn setup(&mut self, shape: &Shape, land: usize) -> Option<SmallVec<[u32; 2]>> {
        let (rs, re) = (shape.land[land] as usize, shape.land[land + 1] as usize);
        self.size_tables(shape, land);
        self.place_regions(shape, rs, re);
        if !self.place_labels(shape) {
            return self.setup_reference(shape, land);
        }
        self.join_pieces();
        if !self.is_tree() {
            return None;
        }
        if self.ng == 1 {
            return Some(self.root_star());
        }
        let centers = self.peel_centers();
        self.order_from(&centers);
        Some(centers)
    }

    /// The first step of [`TreeScratch::setup`]: the land's sizes and its labels' classes, and
    /// every table sized once (a tree has at most `nr + nb` nodes), so that the later steps
    /// borrow them as slices of their exact lengths and their loops keep them in registers.
    #[inline]
    fn size_tables(&mut self, shape: &Shape, land: usize) {
        let (rs, re) = (shape.land[land] as usize, shape.land[land + 1] as usize);
        let (bs, be) = (shape.reg[rs] as usize, shape.reg[re] as usize);
        let (nr, nb) = (re - rs, be - bs);
        self.nr = nr;
        self.nb = nb;
        self.b_first = bs;
        // The land's labels are numbered from 0 in its tokens; their classes are a range.
        let (lo, hi) = (shape.land_labels[land], shape.land_labels[land + 1]);
        let nl = (hi - lo) as usize;
        self.nl = nl;
        self.lclass.clear();
        self.lclass
            .extend_from_slice(&shape.label_class[lo as usize..hi as usize]);
        let most = nr + nb;
        grow(&mut self.breg, nb);
        grow(&mut self.rbnd, nr + 1);
        grow(&mut self.lcount, nl);
        grow(&mut self.locc, 3 * nl);
        grow(&mut self.lrange, nl);
        grow(&mut self.bgroup, nb);
        grow(&mut self.gbnd, nb);
        grow(&mut self.gstart, nb + 1);
        grow(&mut self.mark, most);
        grow(&mut self.degree, most);
        grow(&mut self.leaves, most);
        grow(&mut self.parent_b, most);
        grow(&mut self.bfs, most);
    }

    /// Each boundary's region and each region's range of boundaries, for the land's regions
    /// `rs..re`.
    #[inline]
    fn place_regions(&mut self, shape: &Shape, rs: usize, re: usize) {
        let (nr, nb, bs) = (self.nr, self.nb, self.b_first);
        let breg = &mut self.breg[..nb];
        let rbnd = &mut self.rbnd[..=nr];
        for (r, w) in shape.reg[rs..=re].windows(2).enumerate() {
            let (s, e) = (w[0] as usize - bs, w[1] as usize - bs);
            rbnd[r] = s as u32;
            breg[s..e].fill(r as u32);
        }
        rbnd[nr] = nb as u32;
    }

    /// Each label's occurrences `(local boundary, offset)` in its three slots, and their ranges.
    /// False, with the ranges not written, when a label is met more than three times.
    #[inline]
    fn place_labels(&mut self, shape: &Shape) -> bool {
        let (nb, nl, bs) = (self.nb, self.nl, self.b_first);
        let bnd = &shape.bnd[bs..=bs + nb];
        let toks = &shape.toks;
        let lcount = &mut self.lcount[..nl];
        lcount.fill(0);
        let locc = &mut self.locc[..3 * nl];
        for b in 0..nb {
            let (s, e) = (bnd[b] as usize, bnd[b + 1] as usize);
            for (k, &t) in toks[s..e].iter().enumerate() {
                if t >= LABEL_BASE {
                    let l = (t - LABEL_BASE) as usize;
                    let c = lcount[l];
                    if c == 3 {
                        return false;
                    }
                    locc[3 * l + usize::from(c)] = (b as u32, k as u32);
                    lcount[l] = c + 1;
                }
            }
        }
        let lrange = &mut self.lrange[..nl];
        for (l, (range, &c)) in lrange.iter_mut().zip(lcount.iter()).enumerate() {
            let s = 3 * l as u32;
            *range = (s, s + u32::from(c));
        }
        true
    }

    /// Pieces: the boundaries joined through each label's occurrences (a union-find, each set's
    /// root its least boundary), numbered in order of their first boundary, then listed piece
    /// after piece in increasing order (a counting sort, `mark` the pieces' cursors).
    #[inline]
    fn join_pieces(&mut self) {
        let (nb, nl) = (self.nb, self.nl);
        let lcount = &self.lcount[..nl];
        let locc = &self.locc[..3 * nl];
        let uf = &mut self.uf;
        uf.reset(nb);
        for (l, &c) in lcount.iter().enumerate() {
            let first = locc[3 * l].0;
            for &(ob, _) in &locc[3 * l + 1..3 * l + usize::from(c)] {
                uf.union_least(first, ob);
            }
        }
        let bgroup = &mut self.bgroup[..nb];
        let mut ng = 0;
        for b in 0..nb {
            let root = uf.find(b as u32) as usize;
            if root == b {
                bgroup[b] = ng as u32;
                ng += 1;
            } else {
                bgroup[b] = bgroup[root];
            }
        }
        let gbnd = &mut self.gbnd[..nb];
        let gstart = &mut self.gstart[..=nb];
        gstart[..=ng].fill(0);
        for &g in bgroup.iter() {
            gstart[g as usize + 1] += 1;
        }
        for g in 0..ng {
            gstart[g + 1] += gstart[g];
        }
        let cursor = &mut self.mark[..ng];
        cursor.copy_from_slice(&gstart[..ng]);
        for (b, &g) in bgroup.iter().enumerate() {
            let k = &mut cursor[g as usize];
            gbnd[*k as usize] = b as u32;
            *k += 1;
        }
        self.ng = ng;
    }

    /// Whether the regions and pieces form a tree: one edge fewer than nodes, and a piece meets
    /// each region at most once.
    #[inline]
    fn is_tree(&mut self) -> bool {
        let (nr, nb, ng) = (self.nr, self.nb, self.ng);
        if nb + 1 != nr + ng {
            return false;
        }
        let (breg, gbnd, gstart) = (&self.breg[..nb], &self.gbnd[..nb], &self.gstart[..=ng]);
        let mark = &mut self.mark[..nr];
        mark.fill(NONE);
        for g in 0..ng {
            for &b in &gbnd[gstart[g] as usize..gstart[g + 1] as usize] {
                let r = breg[b as usize] as usize;
                if mark[r] == g as u32 {
                    return false;
                }
                mark[r] = g as u32;
            }
        }
        true
    }

    /// The tree of a land of one piece meeting every region (most lands of two regions): a star,
    /// centered at the piece, its regions in the piece's order of boundaries. Returns the center.
    #[inline]
    fn root_star(&mut self) -> SmallVec<[u32; 2]> {
        let (nr, nb) = (self.nr, self.nb);
        let n = nr + 1;
        let (breg, gbnd) = (&self.breg[..nb], &self.gbnd[..nb]);
        let parent_b = &mut self.parent_b[..n];
        let bfs = &mut self.bfs[..n];
        parent_b[nr] = NONE;
        bfs[0] = nr as u32;
        for (k, &b) in gbnd.iter().enumerate() {
            let r = breg[b as usize];
            parent_b[r as usize] = b;
            bfs[k + 1] = r;
        }
        let mut centers = SmallVec::new();
        centers.push(nr as u32);
        centers
    }

    /// The center of the tree: leaves peeled layer by layer, the layers one after another in
    /// `leaves`, until one node or two adjacent ones are left (in increasing order).
    #[inline]
    fn peel_centers(&mut self) -> SmallVec<[u32; 2]> {
        let (nr, nb, ng) = (self.nr, self.nb, self.ng);
        let n = nr + ng;
        let (breg, rbnd, bgroup) = (&self.breg[..nb], &self.rbnd[..=nr], &self.bgroup[..nb]);
        let (gbnd, gstart) = (&self.gbnd[..nb], &self.gstart[..=ng]);
        let degree = &mut self.degree[..n];
        let leaves = &mut self.leaves[..n];
        let mut count = 0;
        for (v, d) in degree.iter_mut().enumerate() {
            *d = if v < nr {
                rbnd[v + 1] - rbnd[v]
            } else {
                gstart[v - nr + 1] - gstart[v - nr]
            };
            if *d <= 1 {
                leaves[count] = v as u32;
                count += 1;
            }
        }
        let (mut layer, mut layer_end) = (0, count);
        let mut remaining = n;
        while remaining > 2 {
            for i in layer..layer_end {
                let v = leaves[i] as usize;
                remaining -= 1;
                degree[v] = 0;
                let mut visit = |u: usize| {
                    if degree[u] > 0 {
                        degree[u] -= 1;
                        if degree[u] == 1 {
                            leaves[count] = u as u32;
                            count += 1;
                        }
                    }
                };
                if v < nr {
                    for &g in &bgroup[rbnd[v] as usize..rbnd[v + 1] as usize] {
                        visit(nr + g as usize);
                    }
                } else {
                    let g = v - nr;
                    for &b in &gbnd[gstart[g] as usize..gstart[g + 1] as usize] {
                        visit(breg[b as usize] as usize);
                    }
                }
            }
            (layer, layer_end) = (layer_end, count);
        }
        let mut centers: SmallVec<[u32; 2]> = SmallVec::new();
        centers.push(leaves[layer]);
        if layer_end - layer == 2 {
            let (a, b) = (leaves[layer], leaves[layer + 1]);
            centers[0] = a.min(b);
            centers.push(a.max(b));
        }
        centers
    }

    /// Roots the tree at `centers`: each node's parent boundary and the nodes in breadth-first
    /// order.
    #[inline]
    fn order_from(&mut self, centers: &[u32]) {
        let (nr, nb, ng) = (self.nr, self.nb, self.ng);
        let n = nr + ng;
        let (breg, rbnd, bgroup) = (&self.breg[..nb], &self.rbnd[..=nr], &self.bgroup[..nb]);
        let (gbnd, gstart) = (&self.gbnd[..nb], &self.gstart[..=ng]);
        let mark = &mut self.mark[..n];
        let parent_b = &mut self.parent_b[..n];
        parent_b.fill(NONE);
        let bfs = &mut self.bfs[..n];
        mark.fill(0);
        if centers.len() == 2 {
            // A region and a piece: the boundary between them is both one's parent edge.
            let (r, g) = (centers[0], centers[1] as usize - nr);
            let b = gbnd[gstart[g] as usize..gstart[g + 1] as usize]
                .iter()
                .copied()
                .find(|&b| breg[b as usize] == r)
                .expect("the two centers are adjacent");
            parent_b[r as usize] = b;
            parent_b[nr + g] = b;
        }
        let mut top = 0;
        for &c in centers {
            mark[c as usize] = 1;
            bfs[top] = c;
            top += 1;
        }
        let mut i = 0;
        while i < top {
            let v = bfs[i] as usize;
            i += 1;
            if v < nr {
                for b in rbnd[v]..rbnd[v + 1] {
                    let u = nr + bgroup[b as usize] as usize;
                    if mark[u] == 0 {
                        mark[u] = 1;
                        parent_b[u] = b;
                        bfs[top] = u as u32;
                        top += 1;
                    }
                }
            } else {
                let g = v - nr;
                for &b in &gbnd[gstart[g] as usize..gstart[g + 1] as usize] {
                    let u = breg[b as usize] as usize;
                    if mark[u] == 0 {
                        mark[u] = 1;
                        parent_b[u] = b;
                        bfs[top] = u as u32;
                        top += 1;
                    }
                }
            }
        }
    }

    /// The reference setup: [`TreeScratch::load`], [`TreeScratch::build_tree`],
    /// [`TreeScratch::centers`] and [`TreeScratch::root_and_order`] in turn.
    pub(super) fn setup_reference(
        &mut self,
        shape: &Shape,
        land: usize,
    ) -> Option<SmallVec<[u32; 2]>> {
        self.load(shape, land);
        if !self.build_tree() {
            return None;
        }
        let centers = self.centers();
        self.root_and_order(&centers);
        Some(centers)
    }
}

/// Grows `v` to at least `n` entries, never shrinking it (the tables are written by index).
#[inline]
fn grow<T: Copy + Default>(v: &mut Vec<T>, n: usize) {
    if v.len() < n {
        v.resize(n, T::default());
    }
}
