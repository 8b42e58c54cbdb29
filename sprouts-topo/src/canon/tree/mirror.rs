//! Orientation and mirror symmetry of a land.
//!
//! A land and its mirror image (every boundary reversed) may have different codes, and the
//! canonical code is the lesser. Computing both is the costly way; this part spares it twice: an
//! orientation invariant ([`orientation_hash`], hashing triples of classes along chiral
//! boundaries) tells the two orientations apart for most lands, and a sufficient test
//! ([`TreeScratch::mirror_symmetric`]: a renaming of the labels that turns the land into its
//! mirror image) shows most of the others to be their own mirror image, so that one code is
//! enough.

use smallvec::SmallVec;

use super::{NONE, TreeScratch};
use crate::canon::shape::{LABEL_BASE, Shape};

impl TreeScratch {
    /// An orientation invariant, straight and mirrored: over every ordinary boundary of three
    /// corners or more, the sum of a hash of each cyclic triple of consecutive classes. Rotating a
    /// boundary does not change it; reversing one usually does. Any invariant would do:
    /// orientations with equal values are both computed in full. `None` when there is no such
    /// boundary (the land is then its own mirror image).
    ///
    /// Both sums come from one pass: the mirrored reading meets the same triples, each reversed.
    pub(super) fn orientation_keys(&self, shape: &Shape) -> Option<(u64, u64)> {
        orientation_hash(shape, self.b_first..self.b_first + self.nb, |t| {
            u64::from(self.class_of(t))
        })
    }

    /// Whether the loaded land is, provably, its own mirror image (the land with every boundary
    /// reversed is the land with its labels renamed): a sufficient test, never a wrong yes.
    ///
    /// Boundaries of one or two spots, and bags, read the same reversed; the others (chiral
    /// boundaries) do not. A renaming that turns the land into its mirror image must turn its
    /// first chiral boundary `w` into `w` reversed, so it is one of the reflections of `w` (read
    /// from the end, from each start) that map labels to labels of their class, consistently,
    /// and anonymous spots to themselves. The renaming is then extended greedily: each further
    /// chiral boundary with labels not yet mapped is turned into itself reversed by its first
    /// reflection consistent with the map so far (if any); labels still unmapped are left as
    /// they are. Each renaming found this way is checked on the whole land
    /// ([`TreeScratch::renaming_mirrors`]); if one passes, the land and its mirror image are the
    /// same up to names, so their codes are equal.
    pub(super) fn mirror_symmetric(&mut self, shape: &Shape) -> bool {
        let toks_of = |b: usize| &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize];
        let chiral = |b: usize| !shape.bag[b] && shape.bnd[b + 1] - shape.bnd[b] >= 3;
        let (bs, be) = (self.b_first, self.b_first + self.nb);
        let Some(first) = (bs..be).find(|&b| chiral(b)) else {
            return true;
        };
        let w = toks_of(first);
        let mut map = std::mem::take(&mut self.sym_map);
        let mut done = std::mem::take(&mut self.sym_done);
        let mut found = false;
        for k in 0..w.len() {
            map.clear();
            map.resize(self.nl, NONE);
            if !self.reflect(w, k, &mut map) {
                continue;
            }
            done.clear();
            done.resize(self.nb, false);
            done[first - bs] = true;
            for b in first + 1..be {
                if !chiral(b) {
                    continue;
                }
                let toks = toks_of(b);
                if toks
                    .iter()
                    .all(|&t| t < LABEL_BASE || map[self.label(t)] != NONE)
                {
                    continue;
                }
                for k2 in 0..toks.len() {
                    if self.reflect(toks, k2, &mut map) {
                        done[b - bs] = true;
                        break;
                    }
                }
            }
            if self.renaming_mirrors(shape, &map, &done) {
                found = true;
                break;
            }
        }
        self.sym_map = map;
        self.sym_done = done;
        found
    }

    /// Extends `map` (local labels, `NONE`: not mapped yet) so that it turns `toks` into
    /// `toks` reversed, read so that position `i` goes to position `k - i` (mod its length):
    /// labels to labels of their class, anonymous spots to themselves. Returns false, leaving
    /// `map` as it was, if that contradicts the map or the classes.
    fn reflect(&self, toks: &[u32], k: usize, map: &mut [u32]) -> bool {
        let m = toks.len();
        let mut set: SmallVec<[usize; 16]> = SmallVec::new();
        let mut ok = true;
        for (i, &a) in toks.iter().enumerate() {
            let b = toks[if k >= i { k - i } else { k + m - i }];
            if a < LABEL_BASE || b < LABEL_BASE {
                if a != b {
                    ok = false;
                    break;
                }
                continue;
            }
            let (la, lb) = (self.label(a), self.label(b));
            if self.lclass[la] != self.lclass[lb] {
                ok = false;
                break;
            }
            if map[la] == NONE {
                map[la] = lb as u32;
                set.push(la);
            } else if map[la] != lb as u32 {
                ok = false;
                break;
            }
        }
        if !ok {
            for l in set {
                map[l] = NONE;
            }
        }
        ok
    }

    /// Whether renaming the loaded land's labels by `map` (`NONE`: unchanged) gives its mirror
    /// image: per region, the boundaries it changes or that read differently reversed, renamed,
    /// equal those boundaries reversed, as multisets up to rotation (bags up to order).
    /// Boundaries marked in `done` (local indices) are left out: `map` turns each into itself
    /// reversed (it was built reflecting them), so they are on both sides.
    fn renaming_mirrors(&mut self, shape: &Shape, map: &[u32], done: &[bool]) -> bool {
        let rename = |t: u32| -> u32 {
            if t >= LABEL_BASE {
                let l = map[(t - LABEL_BASE) as usize];
                if l != NONE {
                    return LABEL_BASE + l;
                }
            }
            t
        };
        self.sym_keys.clear();
        self.sym_image.clear();
        self.sym_mirror.clear();
        let mut word = std::mem::take(&mut self.sym_word);
        for r in 0..self.nr {
            for lb in self.rbnd[r]..self.rbnd[r + 1] {
                if done[lb as usize] {
                    continue;
                }
                let b = self.b_first + lb as usize;
                let toks = &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize];
                let bag = shape.bag[b];
                let changed = toks.iter().any(|&t| rename(t) != t);
                if !changed && (bag || toks.len() < 3) {
                    // The same renamed, and the same reversed.
                    continue;
                }
                // Renamed.
                word.clear();
                word.extend(toks.iter().map(|&t| rename(t)));
                let s = self.sym_keys.len() as u32;
                push_key(&mut self.sym_keys, &word, bag);
                self.sym_image
                    .push((r as u32, s, self.sym_keys.len() as u32));
                // Reversed.
                word.clear();
                word.extend(toks.iter().rev().copied());
                let s = self.sym_keys.len() as u32;
                push_key(&mut self.sym_keys, &word, bag);
                self.sym_mirror
                    .push((r as u32, s, self.sym_keys.len() as u32));
            }
        }
        self.sym_word = word;
        let keys = &self.sym_keys;
        let by_key = |a: &(u32, u32, u32), b: &(u32, u32, u32)| {
            a.0.cmp(&b.0).then_with(|| {
                keys[a.1 as usize..a.2 as usize].cmp(&keys[b.1 as usize..b.2 as usize])
            })
        };
        self.sym_image.sort_unstable_by(by_key);
        self.sym_mirror.sort_unstable_by(by_key);
        self.sym_image.len() == self.sym_mirror.len()
            && self
                .sym_image
                .iter()
                .zip(&self.sym_mirror)
                .all(|(a, b)| by_key(a, b) == std::cmp::Ordering::Equal)
    }
}

/// Appends a key of a boundary up to rotation (a bag: up to order) to `keys`: whether it is a
/// bag, then its least rotation (a bag's tokens sorted).
fn push_key(keys: &mut Vec<u32>, word: &[u32], bag: bool) {
    keys.push(u32::from(bag));
    if bag {
        let s = keys.len();
        keys.extend_from_slice(word);
        keys[s..].sort_unstable();
        return;
    }
    let m = word.len();
    if m <= 2 {
        // Its rotations are its orders.
        keys.push(word[0].min(word[m - 1]));
        if m == 2 {
            keys.push(word[0].max(word[1]));
        }
        return;
    }
    let at = |r: usize, k: usize| word[if r + k >= m { r + k - m } else { r + k }];
    let mut best = 0;
    for r in 1..m {
        for k in 0..m {
            match at(r, k).cmp(&at(best, k)) {
                std::cmp::Ordering::Less => {
                    best = r;
                    break;
                }
                std::cmp::Ordering::Greater => break,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    keys.extend((0..m).map(|k| at(best, k)));
}

/// [`TreeScratch::orientation_keys`] over the boundaries `boundaries` of `shape`, each token's
/// class given by `class_of`: the sums, straight and mirrored, of a hash of each cyclic triple of
/// consecutive classes of every ordinary boundary of three corners or more (`None` when there is
/// none). The lands named without the tree compute their orientation by the same function.
#[inline]
pub(in crate::canon) fn orientation_hash(
    shape: &Shape,
    boundaries: std::ops::Range<usize>,
    class_of: impl Fn(u32) -> u64,
) -> Option<(u64, u64)> {
    #[inline]
    fn mix(x: u64) -> u64 {
        let x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let x = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^ (x >> 32)
    }
    let mut chiral = false;
    let (mut straight, mut mirrored) = (0u64, 0u64);
    for bi in boundaries {
        if shape.bag[bi] {
            continue;
        }
        let toks = &shape.toks[shape.bnd[bi] as usize..shape.bnd[bi + 1] as usize];
        let m = toks.len();
        if m < 3 {
            continue;
        }
        chiral = true;
        let (mut a, mut b) = (class_of(toks[m - 2]), class_of(toks[m - 1]));
        for &t in toks {
            let c = class_of(t);
            straight = straight.wrapping_add(mix(a | b << 8 | c << 16));
            mirrored = mirrored.wrapping_add(mix(c | b << 8 | a << 16));
            a = b;
            b = c;
        }
    }
    chiral.then_some((straight, mirrored))
}
