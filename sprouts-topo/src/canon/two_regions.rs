//! Lands of two regions named directly, without the tree: each region has one boundary holding
//! every label of the land, each label met once there (so once in each region), and its other
//! boundaries hold no label (`AB|AB`, `2AB|AB`, `0.AB|AB`, `0.A|2A`, `0.AB|22.AB`, ...), the
//! most common lands with letters in real games.
//!
//! The tree of such a land (see the `tree` module) is the two regions, the piece made of the two
//! labelled boundaries, and a piece of one boundary per other boundary. Its center is the piece
//! when both regions, or neither, have other boundaries, and otherwise the region that has them
//! with the piece. So the land's code is, in the orientation the tree picks:
//!
//! * `ROOT_2`, the center region's code (its other boundaries' least words, sorted), then the
//!   piece entered through that region's labelled boundary;
//! * or `ROOT_G`, the piece read from the labelled boundary whose least letter-blind word and
//!   region code are least (either when they tie), followed by its region's code.
//!
//! The piece is read from a rotation of the first boundary with the least letter-blind word
//! (every reading of it when it is a bag), naming its labels in order; the other boundary is then
//! its least rotation under those names (a bag: its spots by class, then its labels by name),
//! followed by its region's code. The least code over those readings is the land's code, and the
//! text is what decoding it and writing it gives: the first region's other boundaries, then the
//! first boundary, `|`, the other region's other boundaries and the other boundary, letters in
//! order of first appearance. Computed here on byte units equal to the tree's code units (they
//! all fit in a byte for lands this small); a test checks the text against the tree's on every
//! land reachable from 1 to 5 seeds and on random games.

use super::render::push_seed_run;
use super::shape::{LABEL_BASE, Shape};
use super::tree::{
    BND, CLASS, END, GRP, NEW, ORDERS_OF_THREE, REF, REG, ROOT_2, ROOT_G, orientation_hash,
};
use crate::key::least_rotation;

/// The most labels of a land named here (so that its units stay below 256).
const MAX_LABELS: usize = 12;
/// The most spots of a boundary, and of the whole land, of a land named here.
const MAX_LEN: usize = 32;
const MAX_TOKENS: u32 = 256;
/// Anonymous spots are their class (below this), labels `LABEL + label` in the byte tokens.
const LABEL: u8 = 64;

/// The code units as bytes.
const U_END: u8 = END as u8;
const U_BND: u8 = BND as u8;
const U_GRP: u8 = GRP as u8;
const U_REG: u8 = REG as u8;
const U_ROOT_2: u8 = ROOT_2 as u8;
const U_ROOT_G: u8 = ROOT_G as u8;
const U_CLASS: u8 = CLASS as u8;
const U_NEW: u8 = NEW as u8;
const U_REF: u8 = REF as u8;

/// Scratch space for lands of two regions named directly.
#[derive(Default, Debug)]
pub(crate) struct PairScratch {
    /// The least words of the regions' other boundaries, and per region their ranges.
    words: Vec<u8>,
    kids: [Vec<(u16, u16)>; 2],
    /// Per region: its code.
    region_code: [Vec<u8>; 2],
    /// The code, straight and mirrored.
    code: [Vec<u8>; 2],
    tmp: Vec<u8>,
}

impl PairScratch {
    /// Writes the canonical form of land `land` of `shape` (of two regions, the first `rs`) to
    /// `out` if it is a land of the shape named here; returns false (writing nothing) otherwise.
    #[inline(never)]
    pub(crate) fn two_regions(
        &mut self,
        shape: &Shape,
        land: usize,
        rs: usize,
        out: &mut String,
    ) -> bool {
        let (lo, hi) = (
            shape.land_labels[land] as usize,
            shape.land_labels[land + 1] as usize,
        );
        let nl = hi - lo;
        let tokens = shape.bnd[shape.reg[rs + 2] as usize] - shape.bnd[shape.reg[rs] as usize];
        if nl == 0 || nl > MAX_LABELS || tokens > MAX_TOKENS {
            return false;
        }
        // Every label of one class (a label's class then reads the same everywhere).
        let class = shape.label_class[lo];
        if class >= LABEL || shape.label_class[lo..hi].iter().any(|&c| c != class) {
            return false;
        }
        let all = (1u32 << nl) - 1;
        let mut labelled = [usize::MAX; 2];
        for (side, lb) in labelled.iter_mut().enumerate() {
            let r = rs + side;
            let mut seen = 0u32;
            for b in shape.reg[r] as usize..shape.reg[r + 1] as usize {
                let toks = &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize];
                if toks.len() > MAX_LEN || (shape.bag[b] && toks.len() > 3) {
                    return false;
                }
                let mut has = false;
                for &t in toks {
                    if t >= LABEL_BASE {
                        let l = t - LABEL_BASE;
                        if l as usize >= nl || seen & 1 << l != 0 {
                            return false;
                        }
                        seen |= 1 << l;
                        has = true;
                    } else if t >= u32::from(class) {
                        // (Never so: a spot's class is below any label's.)
                        return false;
                    }
                }
                if has {
                    if *lb != usize::MAX {
                        return false;
                    }
                    *lb = b;
                }
            }
            if seen != all {
                return false;
            }
        }
        let slot = match orientation_keys(shape, rs, class) {
            None => {
                self.code_for(shape, rs, labelled, false, class, 0);
                0
            }
            Some((straight, mirrored)) if straight < mirrored => {
                self.code_for(shape, rs, labelled, false, class, 0);
                0
            }
            Some((straight, mirrored)) if straight > mirrored => {
                self.code_for(shape, rs, labelled, true, class, 1);
                1
            }
            Some(_) => {
                self.code_for(shape, rs, labelled, false, class, 0);
                self.code_for(shape, rs, labelled, true, class, 1);
                usize::from(self.code[1] < self.code[0])
            }
        };
        write_code(&self.code[slot], out);
        true
    }

    /// The land's code in one orientation into `self.code[slot]`.
    ///
    /// The readings compared all write the same units up to the other boundary's word: the first
    /// word is the least blind word read with every label new (labels are above every spot's
    /// class, so the blind word tells them apart), and when the piece may be read from either
    /// region, their codes are equal too. So the least code is that of the least other word.
    fn code_for(
        &mut self,
        shape: &Shape,
        rs: usize,
        labelled: [usize; 2],
        mirror: bool,
        class: u8,
        slot: usize,
    ) {
        // The labelled boundaries in the orientation, and their least letter-blind words.
        let mut lab = Labelled {
            tokens: [[0u8; MAX_LEN]; 2],
            blind: [[0u8; MAX_LEN]; 2],
            len: [0usize; 2],
        };
        // The regions' other boundaries: each a piece of one boundary, whose code is its least
        // word (a bag: its spots by class), sorted into the region's code.
        self.words.clear();
        for side in 0..2 {
            self.kid_words(shape, rs + side, labelled[side], mirror, side);
            self.write_region_code(side);
            lab.read(shape, labelled[side], side, mirror, class);
        }
        // The first boundaries the piece may be read from.
        let has_kids = [!self.kids[0].is_empty(), !self.kids[1].is_empty()];
        let root_2 = has_kids[0] != has_kids[1];
        let starts = if root_2 {
            has_kids
        } else {
            self.least_blind_starts(&lab)
        };
        let (best, best_start) = least_other_word(shape, labelled, &lab, starts, class);
        // The code.
        let (s, o) = (best_start, 1 - best_start);
        let code = &mut self.code[slot];
        code.clear();
        let first = lab.blind[s][..lab.len[s]].iter().map(|&c| {
            if c == class {
                U_NEW + class
            } else {
                U_CLASS + c
            }
        });
        if root_2 {
            code.push(U_ROOT_2);
            code.extend_from_slice(&self.region_code[s]);
            code.push(U_GRP);
            code.extend(first);
        } else {
            code.push(U_ROOT_G);
            code.push(U_GRP);
            code.extend(first);
            code.extend_from_slice(&self.region_code[s]);
        }
        code.push(U_BND);
        code.extend_from_slice(&best[..lab.len[o]]);
        code.extend_from_slice(&self.region_code[o]);
        code.push(U_END);
    }

    /// The least words of region `r`'s boundaries other than `skip` (appended to `self.words`),
    /// their ranges sorted into `self.kids[side]`.
    fn kid_words(&mut self, shape: &Shape, r: usize, skip: usize, mirror: bool, side: usize) {
        let kids = &mut self.kids[side];
        kids.clear();
        for b in shape.reg[r] as usize..shape.reg[r + 1] as usize {
            if b == skip {
                continue;
            }
            let s = self.words.len();
            let toks = &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize];
            match *toks {
                [a] => self.words.push(a as u8),
                // One or two spots (and a bag) read least in increasing class.
                [a, c] => {
                    self.words.push(a.min(c) as u8);
                    self.words.push(a.max(c) as u8);
                }
                _ if shape.bag[b] => {
                    self.words.extend(toks.iter().map(|&t| t as u8));
                    self.words[s..].sort_unstable();
                }
                _ => {
                    self.tmp.clear();
                    self.tmp.extend(toks.iter().map(|&t| t as u8));
                    if mirror {
                        self.tmp.reverse();
                    }
                    let k = least_rotation(&self.tmp);
                    self.words.extend_from_slice(&self.tmp[k..]);
                    self.words.extend_from_slice(&self.tmp[..k]);
                }
            }
            // Insertion into the sorted list.
            let e = self.words.len();
            let words = &self.words;
            let mut j = kids.len();
            kids.push((s as u16, e as u16));
            while j > 0 && {
                let (ps, pe) = kids[j - 1];
                words[ps as usize..pe as usize] > words[s..e]
            } {
                kids[j] = kids[j - 1];
                j -= 1;
            }
            kids[j] = (s as u16, e as u16);
        }
    }

    /// Region `side`'s code, from its other boundaries' sorted words, into
    /// `self.region_code[side]`.
    fn write_region_code(&mut self, side: usize) {
        let kids = &self.kids[side];
        let code = &mut self.region_code[side];
        code.clear();
        code.push(U_REG);
        for &(s, e) in kids.iter() {
            code.push(U_GRP);
            code.extend(
                self.words[s as usize..e as usize]
                    .iter()
                    .map(|&c| U_CLASS + c),
            );
            code.push(U_END);
        }
        code.push(U_END);
    }

    /// The labelled boundaries whose least blind word, with its region's code, is least (both
    /// when they are equal).
    fn least_blind_starts(&self, lab: &Labelled) -> [bool; 2] {
        match (&lab.blind[0][..lab.len[0]], &self.region_code[0])
            .cmp(&(&lab.blind[1][..lab.len[1]], &self.region_code[1]))
        {
            std::cmp::Ordering::Less => [true, false],
            std::cmp::Ordering::Greater => [false, true],
            std::cmp::Ordering::Equal => [true, true],
        }
    }
}

/// The two labelled boundaries of a land of two regions in one orientation: their tokens
/// (labels as `LABEL + label`), their least letter-blind words (labels as `class`), and their
/// lengths.
struct Labelled {
    tokens: [[u8; MAX_LEN]; 2],
    blind: [[u8; MAX_LEN]; 2],
    len: [usize; 2],
}

impl Labelled {
    /// Reads boundary `b` of `shape` as side `side`'s labelled boundary.
    fn read(&mut self, shape: &Shape, b: usize, side: usize, mirror: bool, class: u8) {
        let bag = shape.bag[b];
        let toks = &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize];
        let m = toks.len();
        self.len[side] = m;
        for (k, &t) in toks.iter().enumerate() {
            let t = if t >= LABEL_BASE {
                LABEL + (t - LABEL_BASE) as u8
            } else {
                t as u8
            };
            self.tokens[side][if mirror && !bag { m - 1 - k } else { k }] = t;
            self.blind[side][k] = if t >= LABEL { class } else { t };
        }
        let w = &mut self.blind[side][..m];
        if bag {
            // Anonymous spots by class, then the labels (whose class is above any spot's).
            w.sort_unstable();
        } else {
            if mirror {
                w.reverse();
            }
            let k = least_rotation(w);
            w.rotate_left(k);
        }
    }
}

/// The least other word over the readings of the first boundaries (`starts`), with the side
/// read first.
fn least_other_word(
    shape: &Shape,
    labelled: [usize; 2],
    lab: &Labelled,
    starts: [bool; 2],
    class: u8,
) -> ([u8; MAX_LEN], usize) {
    let class_of = |t: u8| if t >= LABEL { class } else { t };
    let mut best = [0u8; MAX_LEN];
    let mut best_start = usize::MAX;
    for s in (0..2).filter(|&s| starts[s]) {
        let o = 1 - s;
        let (m, mo) = (lab.len[s], lab.len[o]);
        let other_bag = shape.bag[labelled[o]];
        let mut reading = [0u8; MAX_LEN];
        let mut try_reading = |reading: &[u8]| {
            // Labels named in order of reading.
            let mut names = [0u8; MAX_LABELS];
            let mut next = 0u8;
            for &t in reading {
                if t >= LABEL {
                    names[usize::from(t - LABEL)] = next;
                    next += 1;
                }
            }
            let mut other = [0u8; MAX_LEN];
            for (u, &t) in other.iter_mut().zip(&lab.tokens[o][..mo]) {
                *u = if t >= LABEL {
                    U_REF + names[usize::from(t - LABEL)]
                } else {
                    U_CLASS + t
                };
            }
            let w = &mut other[..mo];
            if other_bag {
                w.sort_unstable();
            } else {
                let k = least_rotation(w);
                w.rotate_left(k);
            }
            if best_start == usize::MAX || *w < best[..mo] {
                best[..mo].copy_from_slice(w);
                best_start = s;
            }
        };
        if shape.bag[labelled[s]] {
            // Its spots by class, then its labels in every order.
            reading[..m].copy_from_slice(&lab.tokens[s][..m]);
            reading[..m].sort_unstable();
            let n_anon = reading[..m].iter().filter(|&&t| t < LABEL).count();
            let n = m - n_anon;
            let labels = [
                reading[n_anon],
                reading[(n_anon + 1).min(m - 1)],
                reading[(n_anon + 2).min(m - 1)],
            ];
            let count = match n {
                0 | 1 => 1,
                2 => 3,
                _ => 6,
            };
            for order in &ORDERS_OF_THREE[..count] {
                if order[..n].iter().any(|&i| i >= n) {
                    continue;
                }
                for (k, &i) in order[..n].iter().enumerate() {
                    reading[n_anon + k] = labels[i];
                }
                try_reading(&reading[..m]);
            }
        } else {
            let w = &lab.tokens[s][..m];
            for r in 0..m {
                if (0..m).any(|k| {
                    class_of(w[if r + k < m { r + k } else { r + k - m }]) != lab.blind[s][k]
                }) {
                    continue;
                }
                reading[..m - r].copy_from_slice(&w[r..]);
                reading[m - r..m].copy_from_slice(&w[..r]);
                try_reading(&reading[..m]);
            }
        }
    }
    (best, best_start)
}

/// The tree's orientation invariant (see `TreeScratch::orientation_keys`) for the land of two
/// regions starting at region `rs`, its labels all of class `class`: over every ordinary
/// boundary of three spots or more, the sum of a hash of each cyclic triple of consecutive
/// classes, straight and mirrored; `None` when there is no such boundary.
fn orientation_keys(shape: &Shape, rs: usize, class: u8) -> Option<(u64, u64)> {
    let class_of = |t: u32| u64::from(if t >= LABEL_BASE { class } else { t as u8 });
    orientation_hash(
        shape,
        shape.reg[rs] as usize..shape.reg[rs + 2] as usize,
        class_of,
    )
}

/// Writes a code of [`PairScratch::code_for`] as text: what decoding it and handing it to the
/// GLOP writer gives (see the module documentation).
fn write_code(code: &[u8], out: &mut String) {
    let mut named = 0u8;
    let mut i = 1;
    if code[0] == U_ROOT_2 {
        let any = write_kids(code, &mut i, out);
        debug_assert_eq!(code[i], U_GRP);
        i += 1;
        if any {
            out.push('.');
        }
        write_word(code, &mut i, &mut named, out);
    } else {
        debug_assert_eq!(code[0], U_ROOT_G);
        let mut w = i + 1;
        i = w;
        while code[i] >= U_CLASS {
            i += 1;
        }
        if write_kids(code, &mut i, out) {
            out.push('.');
        }
        write_word(code, &mut w, &mut named, out);
    }
    out.push('|');
    debug_assert_eq!(code[i], U_BND);
    i += 1;
    let mut w = i;
    while code[i] >= U_CLASS {
        i += 1;
    }
    if write_kids(code, &mut i, out) {
        out.push('.');
    }
    write_word(code, &mut w, &mut named, out);
}

/// Writes the other boundaries of the region whose code starts at `code[*i]` (runs of lone seeds
/// as `0*n`), moving `i` past it; returns whether there were any.
fn write_kids(code: &[u8], i: &mut usize, out: &mut String) -> bool {
    debug_assert_eq!(code[*i], U_REG);
    *i += 1;
    let mut any = false;
    while code[*i] == U_GRP {
        if any {
            out.push('.');
        }
        any = true;
        if code[*i + 1] == U_CLASS && code[*i + 2] == U_END {
            let mut run = 1u32;
            *i += 3;
            while code[*i] == U_GRP && code[*i + 1] == U_CLASS && code[*i + 2] == U_END {
                run += 1;
                *i += 3;
            }
            push_seed_run(out, run);
            continue;
        }
        *i += 1;
        while code[*i] != U_END {
            out.push((b'0' + code[*i] - U_CLASS) as char);
            *i += 1;
        }
        *i += 1;
    }
    debug_assert_eq!(code[*i], U_END);
    *i += 1;
    any
}

/// Writes the word at `code[*i]` (spots by class, letters `A`, `B`, ... by name, `named` of them
/// named so far), moving `i` past it.
fn write_word(code: &[u8], i: &mut usize, named: &mut u8, out: &mut String) {
    while *i < code.len() && code[*i] >= U_CLASS {
        let u = code[*i];
        let c = if u < U_NEW {
            b'0' + (u - U_CLASS)
        } else if u < U_REF {
            *named += 1;
            b'A' + *named - 1
        } else {
            b'A' + (u - U_REF)
        };
        out.push(c as char);
        *i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::render::RenderScratch;
    use super::super::shape::{self, KeyOptions, ShapeScratch};
    use super::super::tree::{Budget, Orient, TreeScratch};
    use super::*;
    use crate::Position;
    use proptest::prelude::*;

    /// The lands of two regions named here and by the reference tree and writer.
    #[derive(Default)]
    struct Check {
        pair: PairScratch,
        tree: TreeScratch,
        render: RenderScratch,
        scratch: ShapeScratch,
        shape: Shape,
        /// Lands named here (checked), and their distinct forms.
        named: usize,
        /// Of those, how many the orientation invariant leaves unoriented (no chiral
        /// boundary), orients, or ties (both orientations compared).
        orient: [usize; 3],
        forms: std::collections::HashSet<String>,
    }

    impl Check {
        fn new() -> Check {
            let mut c = Check::default();
            c.tree.reference = true;
            c.render.reference = true;
            c
        }

        /// Every land of `p` this module names, reduced and plain: the same text as the
        /// reference's.
        fn check(&mut self, p: &Position) {
            for mode in [KeyOptions::GLOP, KeyOptions::PLAIN] {
                shape::build(p, mode, &mut self.scratch, &mut self.shape);
                let shape = &self.shape;
                for l in 0..shape.land.len() - 1 {
                    let rs = shape.land[l] as usize;
                    if shape.land[l + 1] as usize - rs != 2 {
                        continue;
                    }
                    let mut direct = String::new();
                    if !self.pair.two_regions(shape, l, rs, &mut direct) {
                        assert!(direct.is_empty());
                        continue;
                    }
                    let mut budget = Budget {
                        left: crate::canon::DEFAULT_BUDGET,
                        exceeded: false,
                    };
                    self.tree.canon_land(shape, l, Orient::Best, &mut budget);
                    assert!(!budget.exceeded);
                    let mut tree = String::new();
                    self.render.render(&self.tree.code, shape, l, &mut tree);
                    assert_eq!(direct, tree, "{} {mode:?} land {l}", p.to_glop());
                    self.named += 1;
                    self.forms.insert(tree);
                    let class = shape.label_class[shape.land_labels[l] as usize];
                    self.orient[match orientation_keys(shape, rs, class) {
                        None => 0,
                        Some((a, b)) if a != b => 1,
                        Some(_) => 2,
                    }] += 1;
                }
            }
        }
    }

    /// Every land reachable from 1 to 5 seeds (every position, and every child of it, as
    /// played: stumps, dead regions and all) that this module names, reduced and plain, gets
    /// the reference tree's text.
    #[test]
    fn two_region_lands_equal_tree_lands_exhaustively() {
        let mut c = Check::new();
        for n in 1..=5 {
            for p in crate::reachable_positions(n, usize::MAX) {
                c.check(&p);
                for m in p.moves() {
                    c.check(&p.play(&m).unwrap());
                }
            }
        }
        assert!(c.named > 10_000, "{}", c.named);
        assert!(c.forms.len() > 100, "{}", c.forms.len());
        assert!(c.orient.iter().all(|&k| k > 0), "{:?}", c.orient);
    }

    /// Lands of the shapes named here, and near them, written by hand: the reference's text
    /// (and those outside the shapes are left to the tree).
    #[test]
    fn hand_written_lands() {
        let named = [
            "AB|AB",
            "2AB|AB",
            "0.AB|AB",
            "0.A|2A",
            "2A|2A",
            "0.A|0.A",
            "0.AB|0.AB",
            "ABCD|ADCB",
            "0.ABCD|0.DCBA",
            "0.ABCD|0.BADC",
            "0.ABCD|0.ACBD",
            "0.ABC|0.CBA",
            "0.1AB2C|12.C2BA",
            "0*3.12.1112.ABC|0.22.CAB",
            "0.121.AB|0.112.BA",
        ];
        let not_named = [
            "1aAa|2A",
            "1a2a.AB|AB",
            "0.AB|ABC|0.C",
            "0.AB.1a1a|0.BA.1b1b",
        ];
        let mut c = Check::new();
        for text in named {
            let before = c.named;
            c.check(&Position::parse_glop(text).unwrap());
            assert!(c.named > before, "{text}");
        }
        for text in not_named {
            let before = c.named;
            c.check(&Position::parse_glop(text).unwrap());
            assert_eq!(c.named, before, "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random games from 1 to 14 seeds, and the children of their positions: the same as
        /// the exhaustive test.
        #[test]
        fn two_region_lands_equal_tree_lands(
            n in 1u32..=14,
            choices in prop::collection::vec(any::<u16>(), 0..40),
        ) {
            let mut c = Check::new();
            for p in crate::random_game(n, &choices) {
                c.check(&p);
                for m in p.moves().take(20) {
                    c.check(&p.play(&m).unwrap());
                }
            }
        }
    }
}
