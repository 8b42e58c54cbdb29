//! The readings a boundary may be started from.
//!
//! A piece's code is the least over the ways of starting its walk. For an ordinary boundary these
//! are the rotations (in the orientation being computed) whose letter-blind word, classes only,
//! is least ([`TreeScratch::blind_min_rotations`]); for a bag, whose spots have no order, they are
//! the orders of its spots consistent with an invariant sort, named labels first
//! ([`TreeScratch::bag_plan`]). Both keep the number of walks small: only tied readings are
//! walked.

use smallvec::SmallVec;

use super::{BAG_ALL, Ctx, NONE, TreeScratch};
use crate::canon::shape::LABEL_BASE;

/// The six orders of three things (index lists), in lexicographic order: the identity first.
pub(in crate::canon) const ORDERS_OF_THREE: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The readings of a bag (at most three spots, so at most six orders).
#[derive(Clone, Copy, Debug)]
pub(super) struct BagPlans {
    pub(super) count: u8,
    len: u8,
    orders: [[u32; 3]; 6],
}

impl BagPlans {
    pub(super) fn order(&self, i: usize) -> &[u32] {
        &self.orders[i][..usize::from(self.len)]
    }
}

impl TreeScratch {
    /// The ways to read bag `b` given the names so far: anonymous spots by class, then named
    /// labels by name, then the unnamed ones ordered by class and then by the code of the region
    /// of their other corner (an invariant); labels with equal keys may come in any order, so each
    /// order consistent with the sort is a reading.
    pub(super) fn bag_plan(&self, ctx: Ctx<'_>, names: Option<&[u32]>, b: usize) -> BagPlans {
        let toks = self.toks(ctx, b);
        let (fixed, nf, mut unnamed, nu) = self.split_bag(toks, names);
        if nu <= 1 && !self.reference {
            // One reading: nothing to order by key.
            let mut plans = BagPlans {
                count: 1,
                len: (nf + nu) as u8,
                orders: [[0; 3]; 6],
            };
            plans.orders[0] = joined(&fixed, nf, &unnamed);
            return plans;
        }
        let (keys, partner) = self.unnamed_keys(ctx, b, &mut unnamed, nu);
        let swappable = |i: usize, j: usize| {
            partner[i] != NONE && partner[i] == partner[j] && keys[i] == keys[j]
        };
        let mut plans = BagPlans {
            count: 0,
            len: (nf + nu) as u8,
            orders: [[0; 3]; 6],
        };
        let tied = (1..nu).any(|i| keys[i - 1] == keys[i]);
        if (!tied && !self.reference) || nu == 2 {
            // The sorted order; with two tied labels that cannot be exchanged freely, also the
            // other order (what the general rule below gives for two labels).
            plans.count = 1;
            plans.orders[0] = joined(&fixed, nf, &unnamed);
            if nu == 2 && tied && !swappable(0, 1) {
                plans.count = 2;
                plans.orders[1] = fixed;
                plans.orders[1][nf] = unnamed[1];
                plans.orders[1][nf + 1] = unnamed[0];
            }
            return plans;
        }
        for perm in ORDERS_OF_THREE {
            let is_identity = perm[..nu].iter().enumerate().all(|(k, &i)| i == k);
            if !is_identity {
                if !tied
                    || perm[..nu].iter().any(|&i| i >= nu)
                    || perm[nu..].iter().enumerate().any(|(k, &i)| i != nu + k)
                    || !(1..nu).all(|k| keys[perm[k - 1]] <= keys[perm[k]])
                    || (0..nu).any(|x| {
                        (x + 1..nu).any(|y| perm[y] < perm[x] && swappable(perm[x], perm[y]))
                    })
                {
                    continue;
                }
            } else if plans.count > 0 {
                continue;
            }
            let o = &mut plans.orders[plans.count as usize];
            *o = fixed;
            for k in 0..nu {
                o[nf + k] = unnamed[perm[k]];
            }
            plans.count += 1;
        }
        plans
    }

    /// The spots of a bag (its tokens `toks`, at most three) given the names so far: the
    /// anonymous spots and named labels in their reading order, and the unnamed labels as they
    /// come, each with its count.
    #[inline]
    fn split_bag(&self, toks: &[u32], names: Option<&[u32]>) -> ([u32; 3], usize, [u32; 3], usize) {
        let name = |t: u32| names.map_or(NONE, |n| n[self.label(t)]);
        // Anonymous spots (below LABEL_BASE) first by class, then named labels by name: as one
        // sort key, an anonymous spot is its class and a named label `LABEL_BASE + name`.
        let mut fixed = [0u32; 3];
        let mut fixed_key = [0u32; 3];
        let mut nf = 0;
        let mut unnamed = [0u32; 3];
        let mut nu = 0;
        for &t in toks.iter().take(3) {
            let key = if t < LABEL_BASE {
                t
            } else {
                let n = name(t);
                if n == NONE {
                    unnamed[nu] = t;
                    nu += 1;
                    continue;
                }
                LABEL_BASE + n
            };
            // Insertion into the sorted prefix.
            let mut j = nf;
            while j > 0 && fixed_key[j - 1] > key {
                fixed_key[j] = fixed_key[j - 1];
                fixed[j] = fixed[j - 1];
                j -= 1;
            }
            fixed_key[j] = key;
            fixed[j] = t;
            nf += 1;
        }
        (fixed, nf, unnamed, nu)
    }

    /// The keys of the first `nu` unnamed labels of bag `b` (class, then the code of the region
    /// of the label's other corner), and the bag holding each one's other corner when exchanging
    /// it freely is sound (`NONE` otherwise): labels, keys and partners sorted together by key.
    #[inline]
    fn unnamed_keys(
        &self,
        ctx: Ctx<'_>,
        b: usize,
        unnamed: &mut [u32; 3],
        nu: usize,
    ) -> ([(u8, &[u32]); 3], [u32; 3]) {
        let mut keys: [(u8, &[u32]); 3] = [(0, &[]); 3];
        // The bag holding each unnamed label's other corner, if it is a bag: two labels of this
        // bag met again in the same other bag can be exchanged without changing anything.
        let mut partner = [NONE; 3];
        for (u, &t) in unnamed[..nu].iter().enumerate() {
            let l = self.label(t);
            let mut code: &[u32] = &[];
            let mut other = NONE;
            let (os, oe) = self.lrange[l];
            for k in os..oe {
                let ob = self.locc[k as usize].0 as usize;
                if ob != b {
                    let r = self.breg[ob] as usize;
                    code = &self.arena[self.code_start[r] as usize..self.code_end[r] as usize];
                    // Only a label met twice, the other time in a bag or on an ordinary
                    // boundary of two labels, can be swapped freely: two labels of this bag met
                    // again on such a boundary are all of it, and it reads the same with them
                    // exchanged (a cycle of two), so exchanging them is an automorphism fixing
                    // every label named so far, and the two orders write one code. (Not in the
                    // reference, which reads both.)
                    other = if oe - os == 2
                        && (ctx.shape.bag[self.b_first + ob]
                            || (!self.reference && self.two_labels(ctx, ob)))
                    {
                        ob as u32
                    } else {
                        NONE
                    };
                }
            }
            keys[u] = (self.lclass[l], code);
            partner[u] = other;
        }
        // Sort the unnamed labels by key (at most three: insertion sort).
        for i in 1..nu {
            let mut j = i;
            while j > 0 && keys[j] < keys[j - 1] {
                unnamed.swap(j, j - 1);
                keys.swap(j, j - 1);
                partner.swap(j, j - 1);
                j -= 1;
            }
        }
        (keys, partner)
    }

    /// The readings of boundary `b` (no label named yet) whose blind word (classes only) is
    /// least, and that word into `self.best_blind`.
    pub(super) fn blind_min_rotations(&mut self, ctx: Ctx<'_>, b: usize) -> SmallVec<[u32; 8]> {
        let mut rots: SmallVec<[u32; 8]> = SmallVec::new();
        if self.is_bag(ctx, b) {
            // A bag's readings share its blind word: anonymous spots by class, then the labels'
            // classes in order. Which orders are readings is worked out when one is used.
            self.best_blind.clear();
            let toks = self.toks(ctx, b);
            if toks.len() <= 8 && !self.reference {
                // (A bag has at most three spots.) One sort of small integers: an anonymous
                // spot is its class, a label `256 +` its class, so anonymous spots come first.
                let mut keys = [0u16; 8];
                for (k, &t) in toks.iter().enumerate() {
                    let key = if t < LABEL_BASE {
                        t as u16
                    } else {
                        256 + u16::from(self.class_of(t))
                    };
                    let mut j = k;
                    while j > 0 && keys[j - 1] > key {
                        keys[j] = keys[j - 1];
                        j -= 1;
                    }
                    keys[j] = key;
                }
                self.best_blind
                    .extend(keys[..toks.len()].iter().map(|&k| k as u8));
                rots.push(BAG_ALL);
                return rots;
            }
            let mut anon: SmallVec<[u8; 4]> = SmallVec::new();
            let mut lab: SmallVec<[u8; 4]> = SmallVec::new();
            for &t in toks {
                if t < LABEL_BASE {
                    anon.push(t as u8)
                } else {
                    lab.push(self.class_of(t))
                }
            }
            anon.sort_unstable();
            lab.sort_unstable();
            self.best_blind.extend_from_slice(&anon);
            self.best_blind.extend_from_slice(&lab);
            rots.push(BAG_ALL);
            return rots;
        }
        let toks = self.toks(ctx, b);
        let m = toks.len();
        if m <= 8 && !self.reference {
            // Short words (nearly all): each rotation's blind word packed into one integer,
            // most significant byte first, so integer order is word order.
            let mut x = 0u64;
            for k in 0..m {
                x = x << 8 | u64::from(self.class_of(Self::at(toks, ctx.mirror, 0, k)));
            }
            let mask = if m == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * m)) - 1
            };
            let rotated = |r: usize| {
                if r == 0 {
                    x
                } else {
                    (x << (8 * r) | x >> (8 * (m - r))) & mask
                }
            };
            let least = (0..m).map(rotated).min().unwrap_or(0);
            for r in 0..m {
                if rotated(r) == least {
                    rots.push(r as u32);
                }
            }
            self.best_blind.clear();
            self.best_blind
                .extend((0..m).rev().map(|k| (least >> (8 * k)) as u8));
            return rots;
        }
        self.blind.clear();
        for k in 0..m {
            let t = Self::at(toks, ctx.mirror, 0, k);
            self.blind.push(self.class_of(t));
        }
        let start = crate::key::least_rotation(&self.blind);
        self.best_blind.clear();
        self.best_blind.extend(
            self.blind[start..]
                .iter()
                .chain(&self.blind[..start])
                .copied(),
        );
        // The least rotation repeats with the word's smallest period.
        let w = &self.best_blind;
        let period = (1..=m)
            .find(|&p| {
                // (The first comparison rules out most candidates without a division.)
                (p == m || w[p] == w[0]) && m.is_multiple_of(p) && (p..m).all(|i| w[i] == w[i - p])
            })
            .unwrap_or(m);
        let mut r = start % period;
        while r < m {
            rots.push(r as u32);
            r += period;
        }
        rots
    }
}

/// A bag's reading: the first `nf` entries of `fixed`, then those of `rest` (three entries at
/// most in all; what follows is never read). Written entry by entry over the whole arrays, so
/// that no call to copy a few bytes is made.
#[inline]
fn joined(fixed: &[u32; 3], nf: usize, rest: &[u32; 3]) -> [u32; 3] {
    std::array::from_fn(|k| if k < nf { fixed[k] } else { rest[(k - nf) % 3] })
}
