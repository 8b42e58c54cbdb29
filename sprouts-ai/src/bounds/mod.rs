//! Bounds on the number of moves left (spec section 5.5), and the exact longest game.
//!
//! Every move removes exactly one life, so the moves left are `L - s`, with `L` the lives on the
//! board and `s` the lives that survive to the end.
//!
//! - [`upper_bound`] (`M`): a count of survivors that must remain. A life on no region with two
//!   lives is a *sure survivor*. In each independent part (land) the last move leaves a survivor
//!   (its new spot). A region holding a *private life* (at a spot whose corners in regions still
//!   in play all lie in that region) keeps a survivor inside it; so does a pair of regions joined
//!   by a *link* (a one-life spot with its two corners in the two regions) when neither has a
//!   private life, for pairs that share no region. The pairs are counted by a maximum matching
//!   (Edmonds' blossom algorithm, through `petgraph`) rather than the specification's greedy one:
//!   any matching is a valid count, the maximum is the tightest. A region in play also keeps a
//!   life. The bound is taken land by land and summed (the longest game of a sum is the sum of
//!   the longest games of its parts). It depends only on the game: dead regions and stumps, and
//!   GLOP's reductions, do not change it, so it may be computed on a canonical form read back.
//! - [`lower_bound`] (`m`): `ceil((3L - V + p) / 4)`, `V` the spots and `p` the stumps all of
//!   whose neighbours are stumps. At the end every spot is a stump or a one-life survivor whose
//!   two curves lead to stumps, and a stump is next to at most one survivor (two survivors next
//!   to it would share a region and could be joined). It needs the whole picture (stumps
//!   included), so it is computed on complete positions only; on a position read from reduced
//!   notation it falls back to one move per land.
//! - [`LongestGame`]: the exact longest game by the specification's `reach` procedure, part by
//!   part, memoised by canonical form, within a budget.
//!
//! The specification credits these bounds to the program it describes; the matching is J.
//! Edmonds, "Paths, trees, and flowers", Canadian Journal of Mathematics 17, 1965.

mod fast;
mod longest;

use petgraph::algo::{greedy_matching, maximum_matching};
use petgraph::graph::UnGraph;
use smallvec::SmallVec;
use sprouts_topo::Position;

pub use fast::BoundsScratch;
pub use longest::LongestGame;

thread_local! {
    static SCRATCH: std::cell::RefCell<BoundsScratch> = std::cell::RefCell::new(BoundsScratch::new());
}

/// Bounds on the number of moves left in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// `M`: no game from the position is longer.
    pub upper: u32,
    /// `m`: no game from the position is shorter.
    pub lower: u32,
}

/// How the pairs of regions joined by links are counted in [`upper_bound_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Pairs {
    /// Not at all.
    None,
    /// A greedy matching (the specification's count).
    Greedy,
    /// A maximum matching (the default: the tightest valid count).
    #[default]
    Maximum,
}

/// Options of [`upper_bound_with`], to compare the bound's forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UpperOptions {
    /// Count regions with a private life.
    pub private: bool,
    /// How pairs are counted.
    pub pairs: Pairs,
    /// Take the bound land by land (this crate's form) or over the whole position at once (the
    /// specification's formula).
    pub per_land: bool,
}

impl UpperOptions {
    /// This crate's bound: private lives, a maximum matching of pairs, land by land.
    pub const BEST: UpperOptions = UpperOptions {
        private: true,
        pairs: Pairs::Maximum,
        per_land: true,
    };
    /// The specification's formula: private lives, greedy pairs, over the whole position.
    pub const SPEC: UpperOptions = UpperOptions {
        private: true,
        pairs: Pairs::Greedy,
        per_land: false,
    };
}

/// Both bounds: `M` by [`upper_bound`] and `m` by [`lower_bound`].
///
/// # Examples
///
/// ```
/// use sprouts_ai::bounds::bounds;
/// use sprouts_topo::Position;
/// // An n-spot game lasts between 2n and 3n - 1 moves.
/// let b = bounds(&Position::new(5));
/// assert_eq!((b.lower, b.upper), (10, 14));
/// ```
pub fn bounds(position: &Position) -> Bounds {
    SCRATCH.with(|s| s.borrow_mut().bounds(position))
}

/// `M`, an upper bound on the number of moves left (see the module documentation).
pub fn upper_bound(position: &Position) -> u32 {
    SCRATCH.with(|s| s.borrow_mut().upper_bound(position))
}

/// The upper bound of each land (independent part) of the position, in the order of
/// [`Position::lands`]; their sum is [`upper_bound`].
pub fn land_upper_bounds(position: &Position) -> Vec<u32> {
    SCRATCH.with(|s| s.borrow_mut().land_upper_bounds(position))
}

/// The reference computation of both bounds (the survey written for clarity, with lists
/// and one pass per land): `M` by [`upper_bound_with`] and [`UpperOptions::BEST`], `m` by
/// [`lower_bound_with`]. [`bounds`] computes the same in reusable buffers; the tests check
/// that they agree.
pub fn bounds_reference(position: &Position) -> Bounds {
    Bounds {
        upper: upper_bound_with(position, UpperOptions::BEST),
        lower: lower_bound_with(position, true),
    }
}

/// The reference computation of [`land_upper_bounds`].
pub fn land_upper_bounds_reference(position: &Position) -> Vec<u32> {
    let s = Survey::new(position);
    (0..s.n_lands)
        .map(|k| s.land_bound(k, UpperOptions::BEST))
        .collect()
}

/// `M` with the given options (for comparing the forms of the bound; every form is valid).
pub fn upper_bound_with(position: &Position, options: UpperOptions) -> u32 {
    let s = Survey::new(position);
    if s.n_lands == 0 {
        return 0;
    }
    if options.per_land {
        (0..s.n_lands).map(|k| s.land_bound(k, options)).sum()
    } else {
        // The specification's formula over the whole position: sure survivors count too.
        let mut survivors = s.sure;
        let mut sum = 0;
        let mut lives = s.sure;
        for k in 0..s.n_lands {
            let (l, kept, excess) = s.land_terms(k, options);
            survivors += kept;
            sum += excess;
            lives += l;
        }
        (lives.saturating_sub(survivors.max(1))).min(sum)
    }
}

/// `m`, a lower bound on the number of moves left: `ceil((3L - V + p - d) / 4)` (see the module
/// documentation), at least one when a move is left. On a position that is not complete (read
/// from reduced notation, stumps dropped) the formula does not apply, and the bound is the number
/// of lands (each needs a move).
pub fn lower_bound(position: &Position) -> u32 {
    SCRATCH.with(|s| s.borrow_mut().bounds(position).lower)
}

/// `m` with or without the correction `d` for one-life spots whose two curves go to the same
/// spot. Without it this is the specification's formula `ceil((3L - V + p) / 4)`, which the
/// exhaustive tests find above the shortest game on some positions (a survivor whose two curves
/// go to one stump uses up only one stump).
pub fn lower_bound_with(position: &Position, doubles: bool) -> u32 {
    lower_from(position, Survey::new(position).n_lands as u32, doubles)
}

fn lower_from(position: &Position, lands: u32, doubles: bool) -> u32 {
    if lands == 0 {
        return 0;
    }
    if !position.is_complete() {
        return lands;
    }
    let (p, d) = neighbour_counts(position);
    let l = i64::from(position.total_lives());
    let v = position.spot_count() as i64;
    let d = if doubles { i64::from(d) } else { 0 };
    let m = (3 * l - v + i64::from(p) - d + 3).div_euclid(4);
    (m.max(0) as u32).max(1)
}

/// `(p, d)`: the stumps all of whose neighbours (along curves) are stumps, and the one-life
/// spots all of whose curves go to one spot.
fn neighbour_counts(position: &Position) -> (u32, u32) {
    let n = position.next_spot().get() as usize;
    let lives = |s: sprouts_topo::SpotId| position.lives(s).map_or(0, |l| l.get());
    // The first neighbour seen, and whether another one was seen.
    let mut first: Vec<u32> = vec![0; n];
    let mut several = vec![false; n];
    let mut live_neighbour = vec![false; n];
    for b in position.boundaries() {
        let cs = b.corners();
        let k = cs.len();
        if k < 2 {
            continue;
        }
        for i in 0..k {
            let (x, y) = (cs[i], cs[(i + 1) % k]);
            for (a, c) in [(x, y), (y, x)] {
                let ai = a.get() as usize - 1;
                if lives(c) > 0 {
                    live_neighbour[ai] = true;
                }
                if first[ai] == 0 {
                    first[ai] = c.get();
                } else if first[ai] != c.get() {
                    several[ai] = true;
                }
            }
        }
    }
    let mut p = 0;
    let mut d = 0;
    for (s, l) in position.spots() {
        let i = s.get() as usize - 1;
        match l.get() {
            0 if !live_neighbour[i] => p += 1,
            1 if first[i] != 0 && !several[i] => d += 1,
            _ => {}
        }
    }
    (p, d)
}

/// What the upper bound is computed from: live regions, lands, and where each live spot is.
struct Survey {
    /// Lives of each region (index by region).
    region_lives: Vec<u32>,
    /// The land of each live region (`u32::MAX` for a dead region).
    land_of: Vec<u32>,
    n_lands: usize,
    /// Lives on spots on no live region.
    sure: u32,
    /// Live spots on live regions: lives and the live regions their corners lie in (one or two).
    spots: Vec<(u8, SmallVec<[u32; 2]>)>,
}

impl Survey {
    fn new(position: &Position) -> Survey {
        let nr = position.region_count();
        let region_lives: Vec<u32> = position.regions().map(|r| r.lives()).collect();
        let n = position.next_spot().get() as usize;
        // For every spot, the live regions its corners lie in.
        let mut where_: Vec<SmallVec<[u32; 2]>> = vec![SmallVec::new(); n];
        for r in position.regions() {
            let ri = r.id().index();
            if region_lives[ri] < 2 {
                continue;
            }
            for b in r.boundaries() {
                for &c in b.corners() {
                    let w = &mut where_[c.get() as usize - 1];
                    if !w.contains(&(ri as u32)) {
                        w.push(ri as u32);
                    }
                }
            }
        }
        // Lands: live regions joined by live spots.
        let mut parent: Vec<u32> = (0..nr as u32).collect();
        fn find(p: &mut [u32], mut x: u32) -> u32 {
            while p[x as usize] != x {
                p[x as usize] = p[p[x as usize] as usize];
                x = p[x as usize];
            }
            x
        }
        let mut sure = 0;
        let mut spots = Vec::new();
        for (s, l) in position.spots() {
            let l = l.get();
            if l == 0 {
                continue;
            }
            let w = &where_[s.get() as usize - 1];
            if w.is_empty() {
                sure += u32::from(l);
                continue;
            }
            for k in 1..w.len() {
                let (a, b) = (find(&mut parent, w[0]), find(&mut parent, w[k]));
                parent[a as usize] = b;
            }
            spots.push((l, w.clone()));
        }
        let mut land_of = vec![u32::MAX; nr];
        let mut roots: Vec<u32> = Vec::new();
        for r in 0..nr {
            if region_lives[r] < 2 {
                continue;
            }
            let root = find(&mut parent, r as u32);
            let k = match roots.iter().position(|&x| x == root) {
                Some(k) => k,
                None => {
                    roots.push(root);
                    roots.len() - 1
                }
            };
            land_of[r] = k as u32;
        }
        Survey {
            region_lives,
            land_of,
            n_lands: roots.len(),
            sure,
            spots,
        }
    }

    /// The land's lives, the survivors counted in it (private regions and pairs, without the
    /// "at least one"), and the sum over its regions of `lives - 1`.
    fn land_terms(&self, land: usize, options: UpperOptions) -> (u32, u32, u32) {
        let land = land as u32;
        let mut lives = 0;
        let mut private: SmallVec<[u32; 16]> = SmallVec::new();
        for (l, w) in &self.spots {
            if self.land_of[w[0] as usize] != land {
                continue;
            }
            lives += u32::from(*l);
            if w.len() == 1 && !private.contains(&w[0]) {
                private.push(w[0]);
            }
        }
        let excess: u32 = (0..self.region_lives.len())
            .filter(|&r| self.land_of[r] == land)
            .map(|r| self.region_lives[r] - 1)
            .sum();
        let private_count = if options.private {
            private.len() as u32
        } else {
            0
        };
        let pairs = match options.pairs {
            Pairs::None => 0,
            Pairs::Greedy | Pairs::Maximum => {
                let mut nodes: SmallVec<[u32; 16]> = SmallVec::new();
                let mut edges: SmallVec<[(u32, u32); 16]> = SmallVec::new();
                for (l, w) in &self.spots {
                    if *l != 1 || w.len() != 2 || self.land_of[w[0] as usize] != land {
                        continue;
                    }
                    if options.private && (private.contains(&w[0]) || private.contains(&w[1])) {
                        continue;
                    }
                    let mut idx = [0u32; 2];
                    for (j, &r) in w.iter().enumerate() {
                        idx[j] = match nodes.iter().position(|&x| x == r) {
                            Some(i) => i as u32,
                            None => {
                                nodes.push(r);
                                nodes.len() as u32 - 1
                            }
                        };
                    }
                    edges.push((idx[0], idx[1]));
                }
                match edges.len() {
                    0 => 0,
                    1 => 1,
                    _ => {
                        let mut g: UnGraph<(), ()> =
                            UnGraph::with_capacity(nodes.len(), edges.len());
                        for _ in 0..nodes.len() {
                            g.add_node(());
                        }
                        for &(a, b) in &edges {
                            g.add_edge(a.into(), b.into(), ());
                        }
                        if options.pairs == Pairs::Maximum {
                            maximum_matching(&g).len() as u32
                        } else {
                            greedy_matching(&g).len() as u32
                        }
                    }
                }
            }
        };
        (lives, private_count + pairs, excess)
    }

    fn land_bound(&self, land: usize, options: UpperOptions) -> u32 {
        let (lives, kept, excess) = self.land_terms(land, options);
        lives.saturating_sub(kept.max(1)).min(excess)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(glop: &str, upper: u32) {
        let p = Position::parse_glop(glop).unwrap();
        assert_eq!(upper_bound(&p), upper, "{glop}");
    }

    #[test]
    fn starts() {
        for n in 1..=12 {
            let b = bounds(&Position::new(n));
            assert_eq!((b.lower, b.upper), (2 * n, 3 * n - 1), "{n} spots");
        }
        assert_eq!(bounds(&Position::new(0)), Bounds { upper: 0, lower: 0 });
    }

    #[test]
    fn small_forms() {
        // Two one-life spots on one region: one move.
        check("22", 1);
        // A seed: a loop, then a join: two moves.
        check("0", 2);
        // Two lands of one seed each.
        check("0+0", 4);
    }
}
