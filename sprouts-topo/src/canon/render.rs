//! Writing a land's canonical code as GLOP notation.
//!
//! The code is a complete description of the land, so decoding it and writing the result is a
//! function of the code alone: equal codes give equal strings, different codes different strings.
//! Regions are written in the order the code opens them (the center first, then depth first);
//! within a region, the boundaries of its child pieces in code order, then the boundary through
//! which the region hangs from its parent piece. Letters are named in order of first appearance
//! by the GLOP writer.

use super::shape::{LABEL_BASE, Shape};
use super::tree::{BND, CLASS, END, GRP, NEW, NOT_TREE, REF, REG, ROOT_2, ROOT_G, ROOT_R};
use crate::notation::{
    COMPACT_LOWER, LABEL, WriteScratch, push_letter, push_number, write_lands, write_lands_cased,
};

/// Scratch space for decoding and writing.
#[derive(Default, Debug)]
pub(crate) struct RenderScratch {
    /// Decoded boundary tokens (GLOP tokens: `0`..`3` or `LABEL + id`).
    btoks: Vec<u32>,
    /// Decoded boundaries: ranges into `btoks`.
    bnds: Vec<(u32, u32)>,
    /// `(region, boundary)` in the order boundaries were given to regions.
    pairs: Vec<(u32, u32)>,
    n_regions: u32,
    /// Per piece being decoded: the labels named so far (global ids).
    names: Vec<u32>,
    next_label: u32,
    /// Per label: the region of its first occurrence and how often it is met, and whether it is
    /// met twice in one region (a lower-case letter); `cased` stays true while every label is
    /// met at most twice (the cases are then known without the writer's counting pass).
    label_seen: Vec<(u32, u8)>,
    label_lower: Vec<bool>,
    cased: bool,
    /// The boundaries grouped by region: region `r` is `order[reg[r]..reg[r + 1]]`.
    order: Vec<u32>,
    reg: Vec<u32>,
    fill: Vec<u32>,
    write: WriteScratchBox,
    /// Decode every land (no direct writing of single regions) and let the writer work out the
    /// letters' cases itself: the reference the shortcuts are tested against.
    pub(crate) reference: bool,
}

/// `WriteScratch` does not implement `Debug`; wrap it.
#[derive(Default)]
struct WriteScratchBox(WriteScratch);

impl std::fmt::Debug for WriteScratchBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WriteScratch")
    }
}

impl RenderScratch {
    /// Writes the land whose canonical code is `code` (a land of `shape`, index `land`, used only
    /// for codes that are not trees) in GLOP notation, appending to `out`.
    pub(crate) fn render(&mut self, code: &[u32], shape: &Shape, land: usize, out: &mut String) {
        if !self.reference && code[0] == ROOT_R && shape.land[land + 1] - shape.land[land] == 1 {
            write_single_region(code, out);
            return;
        }
        self.btoks.clear();
        self.bnds.clear();
        self.pairs.clear();
        self.names.clear();
        self.n_regions = 0;
        self.next_label = 0;
        self.label_seen.clear();
        self.label_lower.clear();
        self.cased = true;
        let mut i = 1usize;
        match code[0] {
            ROOT_R => {
                let r = self.new_region();
                self.region(code, &mut i, r, None);
            }
            ROOT_G => self.group(code, &mut i, None),
            ROOT_2 => {
                let r = self.new_region();
                self.region(code, &mut i, r, None);
                self.group(code, &mut i, Some(r));
            }
            NOT_TREE => {
                self.stored_order(shape, land);
                self.cased = false;
            }
            other => unreachable!("a land code starts with a root marker, not {other}"),
        }
        // Group boundaries by region, keeping the order they were given (a counting sort), and
        // write them where they lie.
        let nr = self.n_regions as usize;
        self.reg.clear();
        self.reg.resize(nr + 1, 0);
        for &(r, _) in &self.pairs {
            self.reg[r as usize + 1] += 1;
        }
        for r in 0..nr {
            self.reg[r + 1] += self.reg[r];
        }
        self.order.clear();
        self.order.resize(self.pairs.len(), 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.reg[..nr]);
        for &(r, b) in &self.pairs {
            let k = &mut self.fill[r as usize];
            self.order[*k as usize] = b;
            *k += 1;
        }
        let land = [0, self.n_regions];
        let (order, bnds, btoks) = (&self.order, &self.bnds, &self.btoks);
        let boundary = |b: usize| {
            let (s, e) = bnds[order[b] as usize];
            &btoks[s as usize..e as usize]
        };
        if !self.reference && self.cased && self.next_label <= COMPACT_LOWER {
            // Every letter met at most twice, so its case is whether its two occurrences are
            // in one region, as the decoding saw; and too few letters for extended names.
            write_lands_cased(
                &land,
                &self.reg,
                &self.label_lower,
                boundary,
                &mut self.write.0,
                out,
            );
        } else {
            write_lands(
                &land,
                &self.reg,
                self.next_label as usize,
                boundary,
                &mut self.write.0,
                out,
            );
        }
    }

    fn new_region(&mut self) -> u32 {
        self.n_regions += 1;
        self.n_regions - 1
    }

    /// Decodes a region code; `pending` is the boundary it hangs from, written last.
    fn region(&mut self, code: &[u32], i: &mut usize, r: u32, pending: Option<u32>) {
        debug_assert_eq!(code[*i], REG);
        *i += 1;
        while code[*i] != END {
            self.group(code, i, Some(r));
        }
        *i += 1;
        if let Some(b) = pending {
            self.pairs.push((r, b));
        }
    }

    /// Decodes a piece code; its first boundary goes to `parent`, or (at the root) to a new region.
    fn group(&mut self, code: &[u32], i: &mut usize, parent: Option<u32>) {
        debug_assert_eq!(code[*i], GRP);
        *i += 1;
        let base = self.names.len();
        // The region each word goes to: the parent, or the next new region.
        let b0 = self.word(code, i, base, parent.unwrap_or(self.n_regions));
        match parent {
            Some(r) => self.pairs.push((r, b0)),
            None => {
                let r0 = self.new_region();
                self.region(code, i, r0, Some(b0));
            }
        }
        while code[*i] == BND {
            *i += 1;
            let b = self.word(code, i, base, self.n_regions);
            let r = self.new_region();
            self.region(code, i, r, Some(b));
        }
        debug_assert_eq!(code[*i], END);
        *i += 1;
        self.names.truncate(base);
    }

    /// Decodes a boundary word, which goes to region `region`, and returns the new boundary's
    /// index.
    fn word(&mut self, code: &[u32], i: &mut usize, base: usize, region: u32) -> u32 {
        let start = self.btoks.len() as u32;
        while *i < code.len() && code[*i] >= CLASS {
            let unit = code[*i];
            *i += 1;
            let tok = if unit < NEW {
                unit - CLASS
            } else if unit < REF {
                let id = self.next_label;
                self.next_label += 1;
                self.names.push(id);
                self.label_seen.push((region, 1));
                self.label_lower.push(false);
                LABEL + id
            } else {
                let id = self.names[base + (unit - REF) as usize];
                let seen = &mut self.label_seen[id as usize];
                seen.1 = seen.1.saturating_add(1);
                if seen.1 > 2 {
                    self.cased = false;
                }
                if seen.0 == region {
                    self.label_lower[id as usize] = true;
                }
                LABEL + id
            };
            self.btoks.push(tok);
        }
        self.bnds.push((start, self.btoks.len() as u32));
        self.bnds.len() as u32 - 1
    }

    /// A land that is not a tree is written as stored.
    fn stored_order(&mut self, shape: &Shape, land: usize) {
        let (rs, re) = (shape.land[land] as usize, shape.land[land + 1] as usize);
        let mut ids: Vec<(u32, u32)> = Vec::new();
        for r in rs..re {
            let region = self.new_region();
            for b in shape.reg[r] as usize..shape.reg[r + 1] as usize {
                let start = self.btoks.len() as u32;
                for &t in &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize] {
                    let tok = if t >= LABEL_BASE {
                        let g = t - LABEL_BASE;
                        match ids.iter().find(|&&(gl, _)| gl == g) {
                            Some(&(_, id)) => LABEL + id,
                            None => {
                                let id = self.next_label;
                                self.next_label += 1;
                                ids.push((g, id));
                                LABEL + id
                            }
                        }
                    } else {
                        t
                    };
                    self.btoks.push(tok);
                }
                self.bnds.push((start, self.btoks.len() as u32));
                self.pairs.push((region, self.bnds.len() as u32 - 1));
            }
        }
    }
}

/// Writes the code of a land of one region straight as text: what decoding it and handing it to
/// the GLOP writer gives. Its boundaries are the code's pieces in order (each `GRP word END`);
/// every label is met twice in the region, so it is a lower-case letter, named in order of first
/// appearance, which is the order the code names them in; runs of lone seeds are `0*n`.
fn write_single_region(code: &[u32], out: &mut String) {
    debug_assert!(code[0] == ROOT_R && code[1] == REG);
    let labels = code.iter().filter(|&&u| (NEW..REF).contains(&u)).count() as u32;
    let extended = labels > COMPACT_LOWER;
    let mut next = 0u32;
    let mut i = 2;
    let mut first = true;
    while code[i] == GRP {
        if !first {
            out.push('.');
        }
        first = false;
        if code[i + 1] == CLASS && code[i + 2] == END {
            // A run of lone seeds.
            let mut run = 1u32;
            i += 3;
            while code[i] == GRP && code[i + 1] == CLASS && code[i + 2] == END {
                run += 1;
                i += 3;
            }
            push_seed_run(out, run);
            continue;
        }
        i += 1;
        // A `REF` counts from the first letter named in its piece.
        let piece_base = next;
        while code[i] >= CLASS {
            let unit = code[i];
            i += 1;
            if unit < NEW {
                out.push((b'0' + (unit - CLASS) as u8) as char);
            } else if unit < REF {
                next += 1;
                push_letter(out, b'a', b'm', next, extended);
            } else {
                push_letter(out, b'a', b'm', piece_base + (unit - REF) + 1, extended);
            }
        }
        debug_assert_eq!(code[i], END);
        i += 1;
    }
    debug_assert_eq!(code[i], END);
}

/// `run` lone seeds in GLOP notation: `0`, or `0*run` for two or more.
pub(super) fn push_seed_run(out: &mut String, run: u32) {
    if run >= 2 {
        out.push_str("0*");
        push_number(out, run);
    } else {
        out.push('0');
    }
}
