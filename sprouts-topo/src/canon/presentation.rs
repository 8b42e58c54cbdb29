//! A reading of a small land that forgets most of how the position happened to present it.
//!
//! The memory of small lands is keyed by their packed shape (see [`PackedLand`]), which is exact
//! but follows the position's presentation: the order of its regions, of the boundaries in a
//! region, where each boundary starts, and the names of its labels. The same land met again in
//! another presentation misses the memory and would be named again by the tree; over a long run
//! most first-seen small lands are such.
//!
//! [`normalized_key`] rewrites a packed key as another presentation of the same land, chosen by
//! rules that look at the presentation only where they cannot tell things apart: each boundary
//! read from its least rotation, the boundaries of a region and then the regions in order, all
//! by a colouring of the tokens refined once (in the manner of Weisfeiler and Leman's colour
//! refinement). A spot of no label is coloured by its class and a label met twice on one
//! boundary alike; a label joining two boundaries takes the colour of the boundary at its other
//! end, which is a hash of that boundary's tokens counted by kind and of its region's boundaries.
//! Ties (and the rare collisions of the hash) are left in the presentation's order, so two
//! presentations of one land do not always get one key, but the key is always a presentation of
//! the land itself: each step is a rotation, a reordering of boundaries or regions, a renaming of
//! labels, or a reordering of a bag (whose order does not matter). Two equal keys are therefore
//! the same land, and a form remembered under either is the other's.
//!
//! [`PackedLand`]: super::shape::PackedLand

/// The most tokens of a packed land, and so also of its boundaries and regions.
const MOST: usize = 16;

/// A multiplier for hashing (the odd integer nearest 2^64 over the golden ratio).
const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// The packed key of another presentation of the land packed as `key` (not 0), chosen as the
/// module documentation says; `key` itself if it is not a key the packing writes.
pub(crate) fn normalized_key(key: u128) -> u128 {
    let Some(land) = Decoded::of(key) else {
        return key;
    };
    let colours = land.colours();
    let words = land.words(&colours);
    let (ord, regions) = land.order(&words);
    land.write(&words, &ord, &regions)
}

/// A packed key decoded: the tokens' symbols and boundaries; per boundary where it starts, its
/// region, and whether it is a bag; per region where its boundaries start; per label the tokens
/// of its two occurrences. Per boundary, the first colouring: its tokens counted by kind (class
/// 1 to 3, a label met twice on it 4, a label joining it to another boundary 5), eight bits a
/// kind, and a bag bit.
struct Decoded {
    tok: [u8; MOST],
    tok_b: [u8; MOST],
    start: [u8; MOST + 1],
    region_of: [u8; MOST],
    bags: u32,
    rstart: [u8; MOST + 1],
    ends: [[u8; 2]; 8],
    sig: [u64; MOST],
    nt: usize,
    nb: usize,
    nr: usize,
}

/// Per boundary: its word (its colours from the least rotation, a byte each from the highest
/// byte; for a bag sorted, with the highest bit set) and where it is read from; for a bag, its
/// tokens' order, one place a token.
struct Words {
    words: [u128; MOST],
    from: [u8; MOST],
    bag_order: [u8; MOST],
}

impl Decoded {
    /// Decodes `key`; `None` if it is not a key the packing writes.
    #[inline]
    fn of(key: u128) -> Option<Decoded> {
        let mut tok = [0u8; MOST];
        let mut tok_b = [0u8; MOST];
        let mut start = [0u8; MOST + 1];
        let mut region_of = [0u8; MOST];
        let mut bags = 0u32;
        let mut rstart = [0u8; MOST + 1];
        let mut ends = [[0u8; 2]; 8];
        let mut sig = [0u64; MOST];
        // Labels met once so far, and labels met twice.
        let (mut once, mut twice) = (0u32, 0u32);
        let (mut nt, mut nb, mut nr) = (0usize, 0usize, 0usize);
        let symbols = (131 - key.leading_zeros()) / 4;
        for i in (0..symbols).rev() {
            let s = (key >> (4 * i)) as u8 & 15;
            match s {
                1..=3 => {
                    if nt == MOST || nb == MOST {
                        return None;
                    }
                    sig[nb] += 1 << (8 * u32::from(s - 1));
                    tok[nt] = s;
                    tok_b[nt] = nb as u8;
                    nt += 1;
                }
                7..=14 => {
                    if nt == MOST || nb == MOST {
                        return None;
                    }
                    let l = usize::from(s - 7);
                    let bit = 1 << l;
                    if twice & bit != 0 {
                        return None;
                    }
                    if once & bit == 0 {
                        once |= bit;
                        ends[l][0] = nt as u8;
                    } else {
                        (once, twice) = (once & !bit, twice | bit);
                        ends[l][1] = nt as u8;
                        let b1 = usize::from(tok_b[usize::from(ends[l][0]) & (MOST - 1)]);
                        if b1 == nb {
                            sig[nb] += 2 << 24;
                        } else {
                            sig[nb] += 1 << 32;
                            sig[b1 & (MOST - 1)] += 1 << 32;
                        }
                    }
                    tok[nt] = s;
                    tok_b[nt] = nb as u8;
                    nt += 1;
                }
                4..=6 => {
                    if nb == MOST || usize::from(start[nb]) == nt {
                        return None;
                    }
                    region_of[nb] = nr as u8;
                    if s == 6 {
                        bags |= 1 << nb;
                        sig[nb] |= 1 << 40;
                    }
                    nb += 1;
                    start[nb] = nt as u8;
                    if s != 4 {
                        nr += 1;
                        rstart[nr] = nb as u8;
                    }
                }
                _ => return None,
            }
        }
        // Every label met twice, and the last boundary closed its region.
        if once != 0 || nb == 0 || usize::from(start[nb]) != nt || key & 15 == 4 {
            return None;
        }
        Some(Decoded {
            tok,
            tok_b,
            start,
            region_of,
            bags,
            rstart,
            ends,
            sig,
            nt,
            nb,
            nr,
        })
    }

    /// Each token's colour, 1 to 127, after one refinement.
    #[inline]
    fn colours(&self) -> [u8; MOST] {
        let Decoded {
            tok,
            tok_b,
            start,
            region_of,
            bags,
            ends,
            sig,
            nt,
            nb,
            ..
        } = self;
        let (bags, nt, nb) = (*bags, *nt, *nb);
        // A region's colour: a sum of hashes of its boundaries' (order-free).
        let mut region_sig = [0u64; MOST];
        for b in 0..nb {
            let r = &mut region_sig[usize::from(region_of[b]) & (MOST - 1)];
            *r = r.wrapping_add((sig[b] ^ 0x5555).wrapping_mul(MIX));
        }
        // A boundary's colour, as a label at its other end sees it (a hash).
        let mut colour = [0u64; MOST];
        for b in 0..nb {
            colour[b] = (sig[b].wrapping_mul(MIX)
                ^ region_sig[usize::from(region_of[b]) & (MOST - 1)])
                .wrapping_mul(MIX);
        }
        // The other end of the label at token `t`.
        let other = |t: usize| -> usize {
            let [t1, t2] = ends[usize::from(tok[t] - 7) & 7];
            usize::from(if usize::from(t1) == t { t2 } else { t1 }) & (MOST - 1)
        };
        // A token's first colour: its class, 4 for a label met twice on its boundary, or else the
        // colour of the boundary at the label's other end.
        let first = |t: usize| -> u64 {
            let s = tok[t];
            if s < 7 {
                return u64::from(s);
            }
            let o = other(t);
            if tok_b[o] == tok_b[t] {
                4
            } else {
                colour[usize::from(tok_b[o]) & (MOST - 1)]
            }
        };
        // Its refined colour, 1 to 127: a label joining two boundaries also takes the first colour
        // of the token after its other end.
        let mut c = [0u8; MOST];
        for t in 0..nt {
            let s = tok[t];
            c[t] = if s < 7 {
                s
            } else {
                let o = other(t);
                if tok_b[o] == tok_b[t] {
                    4
                } else {
                    // The token after the other end on its boundary (none in a bag, whose order
                    // means nothing).
                    let bo = usize::from(tok_b[o]) & (MOST - 1);
                    let tail = if bags >> bo & 1 == 1 {
                        0
                    } else if o + 1 == usize::from(start[bo + 1]) {
                        first(usize::from(start[bo]) & (MOST - 1))
                    } else {
                        first((o + 1) & (MOST - 1))
                    };
                    let h = (colour[bo] ^ tail.wrapping_mul(MIX)).wrapping_mul(MIX);
                    5 + (((h >> 32) * 123) >> 32) as u8
                }
            };
        }
        c
    }

    /// Each boundary's word, from the tokens' colours `c`.
    #[inline]
    fn words(&self, c: &[u8; MOST]) -> Words {
        let (start, bags, nb) = (&self.start, self.bags, self.nb);
        // Per boundary: its word (its colours from the least rotation, a byte each from the highest
        // byte; for a bag sorted, with the highest bit set) and where it is read from; for a bag,
        // its tokens' order, one place a token.
        let mut words = [0u128; MOST];
        let mut from = [0u8; MOST];
        let mut bag_order = [0u8; MOST];
        for b in 0..nb {
            let (lo, hi) = (usize::from(start[b]), usize::from(start[b + 1]));
            let m = hi - lo;
            let c = &c[lo..hi];
            if bags >> b & 1 == 1 {
                let order = &mut bag_order[lo..hi];
                for (k, o) in order.iter_mut().enumerate() {
                    *o = k as u8;
                }
                // An insertion sort (stable): a bag has a few spots.
                for i in 1..m {
                    let mut j = i;
                    while j > 0 && c[usize::from(order[j - 1])] > c[usize::from(order[j])] {
                        order.swap(j - 1, j);
                        j -= 1;
                    }
                }
                let mut w = 0u128;
                for &o in order.iter() {
                    w = w << 8 | u128::from(c[usize::from(o)]);
                }
                words[b] = (w << (8 * (MOST - m))) | 1 << 127;
            } else if m <= 8 {
                // Rotations by shifts, in 64 bits where they fit.
                let mut full = 0u64;
                for &x in c {
                    full = full << 8 | u64::from(x);
                }
                let mask = if m == 8 { u64::MAX } else { (1 << (8 * m)) - 1 };
                let (mut best, mut at) = (full, 0);
                for r in 1..m {
                    let w = (full << (8 * r) | full >> (8 * (m - r))) & mask;
                    if w < best {
                        (best, at) = (w, r);
                    }
                }
                words[b] = u128::from(best) << (8 * (MOST - m));
                from[b] = at as u8;
            } else {
                let mut full = 0u128;
                for &x in c {
                    full = full << 8 | u128::from(x);
                }
                let mask = if m == MOST {
                    u128::MAX
                } else {
                    (1u128 << (8 * m)) - 1
                };
                let (mut best, mut at) = (full, 0);
                for r in 1..m {
                    let w = (full << (8 * r) | full >> (8 * (m - r))) & mask;
                    if w < best {
                        (best, at) = (w, r);
                    }
                }
                words[b] = best << (8 * (MOST - m));
                from[b] = at as u8;
            }
        }
        Words {
            words,
            from,
            bag_order,
        }
    }

    /// The order of the boundaries in each region (`ord`, by place) and of the regions.
    #[inline]
    fn order(&self, w: &Words) -> ([u8; MOST], [u8; MOST]) {
        let (rstart, nr, words) = (&self.rstart, self.nr, &w.words);
        // Boundaries region by region, each region's in order of words (stable: ties keep the
        // presentation's order); then the regions in order of their lists of words.
        let mut ord = [0u8; MOST];
        let mut sorted = [0u128; MOST];
        for r in 0..nr {
            let (lo, hi) = (usize::from(rstart[r]), usize::from(rstart[r + 1]));
            for b in lo..hi {
                let mut j = b;
                ord[j] = b as u8;
                sorted[j] = words[b];
                while j > lo && sorted[j - 1] > sorted[j] {
                    ord.swap(j - 1, j);
                    sorted.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
        let list_of = |r: u8| {
            &sorted[usize::from(rstart[usize::from(r)])..usize::from(rstart[usize::from(r) + 1])]
        };
        let mut regions = [0u8; MOST];
        for (r, x) in regions.iter_mut().enumerate() {
            *x = r as u8;
        }
        for i in 1..nr {
            let mut j = i;
            while j > 0 && list_of(regions[j - 1]) > list_of(regions[j]) {
                regions.swap(j - 1, j);
                j -= 1;
            }
        }
        (ord, regions)
    }

    /// The key of the land in the order given, labels named in order of first appearance.
    #[inline]
    fn write(&self, w: &Words, ord: &[u8; MOST], regions: &[u8; MOST]) -> u128 {
        let (tok, start, rstart, bags, nr) =
            (&self.tok, &self.start, &self.rstart, self.bags, self.nr);
        let (from, bag_order) = (&w.from, &w.bag_order);
        // Written out, labels named in order of first appearance.
        let mut names = [u8::MAX; 8];
        let mut next = 0u8;
        let mut out = 0u128;
        for &r in &regions[..nr] {
            let (lo, hi) = (
                usize::from(rstart[usize::from(r)]),
                usize::from(rstart[usize::from(r) + 1]),
            );
            for i in lo..hi {
                let b = usize::from(ord[i]);
                let (first, m) = (usize::from(start[b]), usize::from(start[b + 1] - start[b]));
                let bag = bags >> b & 1 == 1;
                for k in 0..m {
                    let at = if bag {
                        usize::from(bag_order[(first + k) & (MOST - 1)])
                    } else {
                        let at = usize::from(from[b]) + k;
                        if at >= m { at - m } else { at }
                    };
                    let s = tok[(first + at) & (MOST - 1)];
                    let symbol = if s < 7 {
                        s
                    } else {
                        let name = &mut names[usize::from(s - 7) & 7];
                        if *name == u8::MAX {
                            *name = next;
                            next += 1;
                        }
                        7 + *name
                    };
                    out = out << 4 | u128::from(symbol);
                }
                let end = if bag {
                    6
                } else if i == hi - 1 {
                    5
                } else {
                    4
                };
                out = out << 4 | end;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs a land written as regions of boundaries of symbols (`bag` per boundary).
    fn pack(regions: &[&[(&[u8], bool)]]) -> u128 {
        let mut key = 0u128;
        for r in regions {
            for (k, &(toks, bag)) in r.iter().enumerate() {
                for &s in toks {
                    key = key << 4 | u128::from(s);
                }
                let end = if bag {
                    6
                } else if k + 1 == r.len() {
                    5
                } else {
                    4
                };
                key = key << 4 | end;
            }
        }
        key
    }

    #[test]
    fn presentations_without_ties_meet() {
        // `0.AB|ABC|2C`, in three presentations: regions reordered, boundaries reordered and
        // rotated, labels renamed (1 is a class `0`, 3 a class `2`, 7 and up labels).
        let a = pack(&[
            &[(&[1], false), (&[7, 8], false)],
            &[(&[7, 8, 9], false)],
            &[(&[3, 9], false)],
        ]);
        let b = pack(&[
            &[(&[3, 7], false)],
            &[(&[8, 9], false), (&[1], false)],
            &[(&[7, 8, 9], false)],
        ]);
        let c = pack(&[
            &[(&[7, 8, 9], false)],
            &[(&[9, 3], false)],
            &[(&[8, 7], false), (&[1], false)],
        ]);
        let na = normalized_key(a);
        assert_eq!(na, normalized_key(b));
        assert_eq!(na, normalized_key(c));
        assert_eq!(na, normalized_key(na), "a normalized key is its own");
    }

    #[test]
    fn a_bag_is_read_in_order_of_colours() {
        let a = pack(&[&[(&[7, 3, 1], true)], &[(&[7, 2], false)]]);
        let b = pack(&[&[(&[2, 7], false)], &[(&[1, 7, 3], true)]]);
        assert_eq!(normalized_key(a), normalized_key(b));
    }

    #[test]
    fn keys_the_packing_does_not_write_are_kept() {
        // A label met once, a boundary of no token, an unclosed region, a label met thrice.
        for key in [0x75u128, 0x145, 0x14, 0x7745, 0x77745] {
            assert_eq!(normalized_key(key), key);
        }
    }

    /// The regions of a packed key, each a list of (symbols, bag).
    fn unpack(key: u128) -> Vec<Vec<(Vec<u8>, bool)>> {
        let mut regions = vec![Vec::new()];
        let mut toks = Vec::new();
        let symbols = (131 - key.leading_zeros()) / 4;
        for i in (0..symbols).rev() {
            let s = (key >> (4 * i)) as u8 & 15;
            if (4..=6).contains(&s) {
                regions
                    .last_mut()
                    .unwrap()
                    .push((std::mem::take(&mut toks), s == 6));
                if s != 4 {
                    regions.push(Vec::new());
                }
            } else {
                toks.push(s);
            }
        }
        regions.pop();
        regions
    }

    /// Another presentation: regions in reverse order, each region's boundaries in reverse
    /// order, each boundary read from its second token (a bag reversed), labels named again in
    /// order of first appearance.
    fn represent(key: u128) -> u128 {
        let mut regions = unpack(key);
        regions.reverse();
        let mut names = [u8::MAX; 8];
        let mut next = 7;
        let mut out = 0u128;
        for r in &mut regions {
            r.reverse();
            let last = r.len() - 1;
            for (k, (toks, bag)) in r.iter_mut().enumerate() {
                if *bag {
                    toks.reverse();
                } else {
                    toks.rotate_left(1);
                }
                for &s in toks.iter() {
                    let s = if s < 7 {
                        s
                    } else {
                        let name = &mut names[usize::from(s - 7)];
                        if *name == u8::MAX {
                            *name = next;
                            next += 1;
                        }
                        *name
                    };
                    out = out << 4 | u128::from(s);
                }
                out = out << 4
                    | if *bag {
                        6
                    } else if k == last {
                        5
                    } else {
                        4
                    };
            }
        }
        out
    }

    /// The tokens of a key counted by symbol class, labels as one (a presentation keeps them).
    fn census(key: u128) -> [usize; 8] {
        let mut n = [0; 8];
        for r in unpack(key) {
            n[7] += r.len();
            for (toks, bag) in r {
                n[usize::from(bag)] += 1;
                for s in toks {
                    n[usize::from(s.min(7))] += 1;
                }
            }
        }
        n
    }

    /// Forty move choices drawn from `seed` (xorshift).
    fn choices(seed: &mut u64) -> Vec<u16> {
        (0..40)
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                (*seed >> 40) as u16
            })
            .collect()
    }

    /// Over the small lands of positions from random games of 6 to 12 seeds: the normalized
    /// key of a land and of another presentation of it are presentations of the land (its
    /// tokens, boundaries, bags and regions kept), and most often they are one key.
    #[test]
    fn other_presentations_of_real_lands_mostly_meet() {
        let mut scratch = super::super::shape::ShapeScratch::default();
        let mut lands = Vec::new();
        let (mut keys, mut met) = (0usize, 0usize);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for game in 0..120u32 {
            let choices = choices(&mut seed);
            for p in crate::random_game(6 + game % 7, &choices) {
                super::super::shape::read_lands(&p, &mut scratch, &mut lands);
                for land in &lands {
                    let key = land.key();
                    if key == 0 {
                        continue;
                    }
                    let other = represent(key);
                    assert_eq!(census(other), census(key));
                    let (a, b) = (normalized_key(key), normalized_key(other));
                    assert_eq!(census(a), census(key), "{key:x}");
                    assert_eq!(census(b), census(key), "{other:x}");
                    keys += 1;
                    met += usize::from(a == b);
                }
            }
        }
        assert!(keys > 1000, "{keys}");
        assert!(met * 10 >= keys * 9, "{met} of {keys}");
    }

    /// Forms from a canonicalizer that remembers small lands in any presentation over many
    /// positions are the forms of one that remembers none.
    #[test]
    fn forms_remembered_in_other_presentations_are_the_forms() {
        use crate::canon::{Canonicalizer, DEFAULT_BUDGET, Reductions};
        let mut warm = Canonicalizer::new();
        let mut cold = Canonicalizer::new();
        cold.remember_small_lands(false);
        let (mut a, mut b) = (String::new(), String::new());
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for game in 0..150u32 {
            let choices = choices(&mut seed);
            for p in crate::random_game(6 + game % 7, &choices) {
                warm.canonical_into(&p, Reductions::Glop, DEFAULT_BUDGET, &mut a);
                cold.canonical_into(&p, Reductions::Glop, DEFAULT_BUDGET, &mut b);
                assert_eq!(a, b, "{}", p.to_glop());
            }
        }
    }
}
