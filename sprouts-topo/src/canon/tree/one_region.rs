//! Lands of one region.
//!
//! A land of one region has no tree to walk: its pieces are single boundaries sharing no spot, so
//! its code is the sorted list of each boundary's least word, labels named from scratch. This is
//! the commonest land in real games, so it is named without any of the tree's setup.

use smallvec::SmallVec;

use super::{CLASS, END, GRP, NEW, Orient, REF, REG, ROOT_R, TreeScratch};
use crate::canon::shape::{LABEL_BASE, Shape};

impl TreeScratch {
    /// The code of a land with one region (its pieces are single boundaries sharing nothing):
    /// each boundary's least word (labels named from scratch), sorted, in the orientation giving
    /// the least code.
    pub(super) fn single_region(&mut self, shape: &Shape, land: usize, orient: Orient) {
        let r = shape.land[land] as usize;
        let (bs, be) = (shape.reg[r] as usize, shape.reg[r + 1] as usize);
        let classes = &shape.label_class
            [shape.land_labels[land] as usize..shape.land_labels[land + 1] as usize];
        let orients: &[bool] = match orient {
            Orient::Straight => &[false],
            Orient::Mirrored => &[true],
            Orient::Best => &[false, true],
        };
        self.code.clear();
        for &mirror in orients {
            // A mirror image differs only through boundaries of three corners or more.
            if mirror
                && orient == Orient::Best
                && (bs..be).all(|b| shape.bag[b] || shape.bnd[b + 1] - shape.bnd[b] < 3)
            {
                break;
            }
            self.arena.clear();
            self.kids.clear();
            for b in bs..be {
                let start = self.arena.len() as u32;
                self.arena.push(GRP);
                let toks = &shape.toks[shape.bnd[b] as usize..shape.bnd[b + 1] as usize];
                if shape.bag[b] && toks.iter().all(|&t| t < LABEL_BASE) {
                    // A bag (of a region alone: no labels): its spots in order of class.
                    let from = self.arena.len();
                    self.arena.extend(toks.iter().map(|&t| CLASS + t));
                    self.arena[from..].sort_unstable();
                } else {
                    least_word(classes, toks, mirror, &mut self.word, &mut self.best_word);
                    self.arena.extend_from_slice(&self.best_word);
                }
                self.arena.push(END);
                self.kids.push((start, self.arena.len() as u32));
            }
            let arena = &self.arena;
            self.kids.sort_unstable_by(|&(s1, e1), &(s2, e2)| {
                arena[s1 as usize..e1 as usize].cmp(&arena[s2 as usize..e2 as usize])
            });
            self.other.clear();
            self.other.push(ROOT_R);
            self.other.push(REG);
            for &(s, e) in &self.kids {
                self.other
                    .extend_from_slice(&self.arena[s as usize..e as usize]);
            }
            self.other.push(END);
            if self.code.is_empty() || self.other < self.code {
                std::mem::swap(&mut self.code, &mut self.other);
            }
        }
    }
}

/// The least word of a boundary read from any rotation (straight or mirrored), its labels named
/// from scratch in order of appearance, into `best` (`word` is scratch); `classes` are the
/// classes of the land's labels.
fn least_word(
    classes: &[u8],
    toks: &[u32],
    mirror: bool,
    word: &mut Vec<u32>,
    best: &mut Vec<u32>,
) {
    let m = toks.len();
    let at = |rd: usize, k: usize| -> u32 {
        // rd and k are below m: one subtraction wraps (no division).
        let i = if rd + k >= m { rd + k - m } else { rd + k };
        if mirror { toks[m - 1 - i] } else { toks[i] }
    };
    let unit_first = |t: u32| -> u32 {
        if t >= LABEL_BASE {
            NEW + u32::from(classes[(t - LABEL_BASE) as usize])
        } else {
            CLASS + t
        }
    };
    let first_min = (0..m).map(|rd| unit_first(at(rd, 0))).min().unwrap_or(0);
    best.clear();
    let mut names: SmallVec<[(u32, u32); 16]> = SmallVec::new();
    for rd in 0..m {
        if unit_first(at(rd, 0)) != first_min {
            continue;
        }
        word.clear();
        names.clear();
        let mut cmp = if best.is_empty() {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Equal
        };
        for k in 0..m {
            let t = at(rd, k);
            let unit = if t >= LABEL_BASE {
                match names.iter().find(|&&(l, _)| l == t) {
                    Some(&(_, n)) => REF + n,
                    None => {
                        names.push((t, names.len() as u32));
                        unit_first(t)
                    }
                }
            } else {
                CLASS + t
            };
            if cmp == std::cmp::Ordering::Equal {
                cmp = unit.cmp(&best[k]);
                if cmp == std::cmp::Ordering::Greater {
                    break;
                }
            }
            word.push(unit);
        }
        if cmp == std::cmp::Ordering::Less {
            std::mem::swap(word, best);
        }
    }
}
