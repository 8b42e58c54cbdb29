//! Lands named directly, without the tree: a land of one region whose spots are all met once
//! (no letters), by far the most common kind in real games (`0`, `22`, `0.2`, `12`, `0*2`, ...).
//!
//! Such a land's tree is one region and one piece per boundary, and its code (see the `tree`
//! module) is the sorted list of its boundaries' least rotations (classes only), in the
//! orientation whose list is least. This module computes exactly that, with each boundary's least
//! rotation found by Booth's algorithm on its small integer word (K. S. Booth, "Lexicographically
//! least circular substrings", Information Processing Letters 10(4), 1980), and writes the text in
//! one pass. The tree path is the reference: a test compares the two on every land reachable from
//! 1 to 4 seeds and on random games (`tests` below and the `reference` mode's proptest).
//!
//! The most common lands of two regions with letters are named directly too, by the
//! `two_regions` module.

use super::render::push_seed_run;
use super::shape::Shape;
use super::two_regions::PairScratch;
use crate::key::least_rotation;

/// The most spots a land named directly may have (larger ones take the tree path).
const MAX_TOKENS: usize = 256;

/// Scratch space for lands named directly.
#[derive(Default, Debug)]
pub(crate) struct DirectScratch {
    /// Boundary words, straight then mirrored: ranges of `words`.
    words: Vec<u8>,
    straight: Vec<(u16, u16)>,
    mirrored: Vec<(u16, u16)>,
    tmp: Vec<u8>,
    /// Lands of two regions (see the `two_regions` module).
    pair: PairScratch,
}

impl DirectScratch {
    /// Writes the canonical form of land `land` of `shape` to `out` if it is a land of one
    /// region without labels, or of two regions of the shape the `two_regions` module names;
    /// returns false (writing nothing) otherwise.
    #[inline]
    pub(crate) fn named_directly(&mut self, shape: &Shape, land: usize, out: &mut String) -> bool {
        // The number of regions is told here, without a call.
        let (rs, re) = (shape.land[land] as usize, shape.land[land + 1] as usize);
        match re - rs {
            1 => self.one_region(shape, land, rs, out),
            2 => self.pair.two_regions(shape, land, rs, out),
            _ => false,
        }
    }

    /// [`DirectScratch::named_directly`] for a land of one region, `rs`.
    #[inline(never)]
    fn one_region(&mut self, shape: &Shape, land: usize, rs: usize, out: &mut String) -> bool {
        let (bs, be) = (shape.reg[rs] as usize, shape.reg[rs + 1] as usize);
        let (ts, te) = (shape.bnd[bs] as usize, shape.bnd[be] as usize);
        if te - ts > MAX_TOKENS || shape.land_labels[land + 1] > shape.land_labels[land] {
            return false;
        }
        if be - bs <= SHORT_BOUNDARIES && (bs..be).all(|b| shape.bnd[b + 1] - shape.bnd[b] <= 2) {
            short_boundaries(shape, bs, be, out);
            return true;
        }
        self.words.clear();
        self.straight.clear();
        self.mirrored.clear();
        let mut chiral = false;
        for b in bs..be {
            let toks = &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize];
            let s = self.words.len() as u16;
            if shape.bag[b] {
                // A bag: its spots in order of class, the same both ways.
                self.words.extend(toks.iter().map(|&t| t as u8));
                self.words[s as usize..].sort_unstable();
                let e = self.words.len() as u16;
                self.straight.push((s, e));
                self.mirrored.push((s, e));
                continue;
            }
            self.tmp.clear();
            self.tmp.extend(toks.iter().map(|&t| t as u8));
            push_least_rotation(&self.tmp, &mut self.words);
            let e = self.words.len() as u16;
            self.straight.push((s, e));
            if toks.len() < 3 {
                // One or two spots read the same both ways.
                self.mirrored.push((s, e));
                continue;
            }
            chiral = true;
            self.tmp.reverse();
            push_least_rotation(&self.tmp, &mut self.words);
            self.mirrored.push((e, self.words.len() as u16));
        }
        let words = &self.words;
        let word = |&(s, e): &(u16, u16)| &words[s as usize..e as usize];
        self.straight.sort_unstable_by(|a, b| word(a).cmp(word(b)));
        let mut list = &self.straight;
        if chiral {
            self.mirrored.sort_unstable_by(|a, b| word(a).cmp(word(b)));
            if self
                .mirrored
                .iter()
                .map(word)
                .lt(self.straight.iter().map(word))
            {
                list = &self.mirrored;
            }
        }
        // Written in order, '.' between boundaries, runs of lone seeds as `0*n`.
        let mut k = 0;
        while k < list.len() {
            if k > 0 {
                out.push('.');
            }
            let w = word(&list[k]);
            if w == [0] {
                let mut run = 1u32;
                k += 1;
                while k < list.len() && word(&list[k]) == [0] {
                    run += 1;
                    k += 1;
                }
                push_seed_run(out, run);
                continue;
            }
            for &c in w {
                out.push((b'0' + c) as char);
            }
            k += 1;
        }
        true
    }
}

/// The most boundaries of a land written by [`short_boundaries`].
const SHORT_BOUNDARIES: usize = 16;

/// Writes a land of one region whose boundaries have one or two spots each, none labelled (most
/// lands named directly: `0`, `22`, `0.2`, `12`, `0*2`). Such a boundary reads the same
/// reversed up to rotation, and its least rotation (a bag's order, too) is its spots in
/// increasing class; as an integer `16 * first + 1 + second` (or `16 * first` alone) it sorts
/// like the word. So the form is those integers sorted and written out: what the general path
/// writes for them (checked by the same tests against the tree).
fn short_boundaries(shape: &Shape, bs: usize, be: usize, out: &mut String) {
    let mut keys = [0u16; SHORT_BOUNDARIES];
    let n = be - bs;
    for (k, b) in (bs..be).enumerate() {
        let toks = &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize];
        let key = match *toks {
            [a] => (a as u16) << 4,
            [a, c] => ((a.min(c) as u16) << 4) | (a.max(c) as u16 + 1),
            _ => unreachable!("boundaries of one or two spots"),
        };
        // Insertion into the sorted prefix.
        let mut j = k;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = key;
    }
    let mut k = 0;
    while k < n {
        if k > 0 {
            out.push('.');
        }
        if keys[k] == 0 {
            // A run of lone seeds (the word `0`).
            let mut run = 1u32;
            k += 1;
            while k < n && keys[k] == 0 {
                run += 1;
                k += 1;
            }
            push_seed_run(out, run);
            continue;
        }
        out.push((b'0' + (keys[k] >> 4) as u8) as char);
        if keys[k] & 15 != 0 {
            out.push((b'0' + (keys[k] & 15) as u8 - 1) as char);
        }
        k += 1;
    }
}

/// Appends the least rotation of `w` to `out`.
fn push_least_rotation(w: &[u8], out: &mut Vec<u8>) {
    let start = least_rotation(w);
    out.extend_from_slice(&w[start..]);
    out.extend_from_slice(&w[..start]);
}
