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
//!
//! # The parts
//!
//! This file holds the scratch space, the code's units and the driver
//! ([`TreeScratch::canon_land`]: a land's orientation, then every node's code bottom-up). The
//! steps live beside it:
//!
//! * `setup`: a land's boundaries, labels and pieces, the tree's center and its breadth-first
//!   order (a one-pass setup and the reference it is tested against);
//! * `readings`: the readings a boundary may be started from (the rotations with the least
//!   blind word, and the orders of a bag);
//! * `walk`: a piece's code, by walking it from each least start (branch and bound on ties);
//! * `mirror`: the orientation invariant and the test that a land is its own mirror image;
//! * `one_region`: lands of one region, which need no tree.

use smallvec::SmallVec;

use super::shape::{LABEL_BASE, Shape};
use crate::setup::UnionFind;

mod mirror;
mod one_region;
mod readings;
mod setup;
mod walk;

pub(super) use mirror::orientation_hash;
pub(super) use readings::ORDERS_OF_THREE;
use walk::Trav;

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

/// A start reading standing for every reading of a bag.
const BAG_ALL: u32 = u32::MAX - 1;

/// Which orientation of a land to canonise.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Orient {
    /// As stored.
    Straight,
    /// Every boundary reversed.
    Mirrored,
    /// The lesser of the two.
    Best,
}

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
    /// Label occurrences (local labels), each `(local boundary, offset)`: label `l`'s are
    /// `locc[lrange[l].0..lrange[l].1]`, by boundary and offset (`lstart` is the reference
    /// setup's counting of them).
    lstart: Vec<u32>,
    locc: Vec<(u32, u32)>,
    lrange: Vec<(u32, u32)>,
    /// Per local label, how many occurrences the one-pass setup has placed.
    lcount: Vec<u8>,
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
    /// The walk of a piece, boxed so that taking it out of the scratch for a walk (and putting
    /// it back) moves a pointer rather than the walk's tables.
    trav: Option<Box<Trav>>,
    word: Vec<u32>,
    best_word: Vec<u32>,
    tmp_names: SmallVec<[(u32, u32); 16]>,
    blind: Vec<u8>,
    best_blind: Vec<u8>,
    kids: Vec<(u32, u32)>,
    best: Vec<u32>,
    uf: UnionFind,
    best_key: Vec<u8>,
    leaves: Vec<u32>,
    next_leaves: Vec<u32>,
    /// The final code of the land.
    pub(crate) code: Vec<u32>,
    /// Take no shortcut: every bag reading is ordered by key and every piece is walked with
    /// every comparison (the reference the shortcuts are tested against).
    pub(crate) reference: bool,
    /// Walk every start of a piece even when they are known to write one code (see
    /// [`TreeScratch::starts_all_equal`]): what the shortcut is tested against, budget included.
    pub(crate) walk_equal_starts: bool,
    other: Vec<u32>,
    /// Walks kept for branching (reused, see `run`).
    pool: Vec<Trav>,
    /// Scratch for [`TreeScratch::mirror_symmetric`]: the candidate map of local labels, and the
    /// boundaries' keys (an arena, and per side `(region, start, end)`).
    sym_map: Vec<u32>,
    sym_done: Vec<bool>,
    sym_keys: Vec<u32>,
    sym_image: Vec<(u32, u32, u32)>,
    sym_mirror: Vec<(u32, u32, u32)>,
    sym_word: Vec<u32>,
    /// Scratch for counting sorts.
    fill: Vec<u32>,
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
        orient: Orient,
        budget: &mut Budget,
    ) {
        if shape.land[land + 1] - shape.land[land] == 1 {
            self.single_region(shape, land, orient);
            return;
        }
        let centers = if self.reference {
            self.setup_reference(shape, land)
        } else {
            self.setup(shape, land)
        };
        let Some(centers) = centers else {
            self.not_tree_code(shape);
            budget.exceeded = true;
            return;
        };
        self.code.clear();
        self.other.clear();
        // The orientation is chosen by a cheap invariant when it tells them apart, by the whole
        // code otherwise.
        // Boundaries of one or two corners, and bags, read the same both ways: if there are only
        // such, the mirror image is the same land.
        let orientation = match orient {
            Orient::Mirrored => std::cmp::Ordering::Greater,
            Orient::Straight => std::cmp::Ordering::Less,
            Orient::Best => match self.orientation_keys(shape) {
                // Only boundaries of one or two corners, and bags: they read the same both ways,
                // so the mirror image is the same land.
                None => std::cmp::Ordering::Less,
                Some((straight, mirrored)) => straight.cmp(&mirrored),
            },
        };
        let ctx = Ctx {
            shape,
            mirror: orientation == std::cmp::Ordering::Greater,
        };
        self.compute(ctx, &centers, budget);
        // A land shown to be its own mirror image has the same code both ways: the straight one
        // is the lesser (most lands the invariant cannot orient are such).
        if orientation == std::cmp::Ordering::Equal
            && (self.reference || !self.mirror_symmetric(shape))
        {
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

    /// Computes every node's code bottom-up and the root code into `self.code`.
    fn compute(&mut self, ctx: Ctx<'_>, centers: &[u32], budget: &mut Budget) {
        let n = self.nr + self.ng;
        self.arena.clear();
        self.code_start.clear();
        self.code_start.resize(n, 0);
        self.code_end.clear();
        self.code_end.resize(n, 0);
        // (The tree is connected: its breadth-first order lists all `n` nodes.)
        for i in (0..n).rev() {
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
    #[inline]
    fn class_of(&self, t: u32) -> u8 {
        if t >= LABEL_BASE {
            self.lclass[(t - LABEL_BASE) as usize]
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

    /// The token at offset `k` of an ordinary boundary read from rotation `rd`.
    #[inline]
    fn at(toks: &[u32], mirror: bool, rd: usize, k: usize) -> u32 {
        let m = toks.len();
        let mut i = rd + k;
        if i >= m {
            i -= m;
        }
        if mirror { toks[m - 1 - i] } else { toks[i] }
    }

    /// The local label of a label token.
    #[inline]
    fn label(&self, tok: u32) -> usize {
        (tok - LABEL_BASE) as usize
    }

    /// Whether local boundary `b` is an ordinary boundary of two labels.
    fn two_labels(&self, ctx: Ctx<'_>, b: usize) -> bool {
        let toks = self.toks(ctx, b);
        !self.is_bag(ctx, b) && toks.len() == 2 && toks.iter().all(|&t| t >= LABEL_BASE)
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
                        let l = (tok - LABEL_BASE) as usize;
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

#[cfg(test)]
mod tests;
