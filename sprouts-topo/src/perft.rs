//! Exhaustive counts: move sequences (perft) and the distinct positions reachable from a position,
//! depth by depth, under several equivalences.
//!
//! Every move removes exactly one life, so the positions reached after `d` moves are never reached
//! after another number of moves; the counts per depth add up to the number of distinct positions
//! (for [`Equivalence::Labelled`] and [`Equivalence::Structure`]). Canonical forms drop what
//! cannot matter, so one form can stand for positions at several depths (the finished game `!`
//! at every length a game can have): for [`Equivalence::Plain`] and [`Equivalence::Glop`] the
//! number of forms over all depths ([`Counts::distinct`]) is less than the sum per depth.

use std::collections::HashSet;

use rustc_hash::{FxBuildHasher, FxHashSet};
use tracing::info_span;

use crate::canon::{DEFAULT_BUDGET, Mode, StructureKey, with_canonicalizer};
use crate::position::Position;

/// The number of move sequences of length `depth` from `pos` (every enclosure of every family
/// counted; a sequence that ends early because the game is over is not counted).
///
/// # Examples
///
/// ```
/// use sprouts_topo::{perft::perft, Position};
/// // One seed: a loop (enclosing nothing); then a loop at the new spot or at the seed, or a
/// // curve between them inside or outside the loop.
/// assert_eq!(perft(&Position::new(1), 1), 1);
/// assert_eq!(perft(&Position::new(2), 1), 5);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    let mut child = Position::empty_with_next(pos.next);
    for mv in pos.moves() {
        if pos.play_into(&mv, &mut child).is_ok() {
            total += if depth == 1 {
                1
            } else {
                perft(&child, depth - 1)
            };
        }
    }
    total
}

/// When two positions count as the same.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Equivalence {
    /// The same spots with the same identities, up to rotation, order and the mirror image
    /// ([`GameKey`]): positions as drawn, spot numbers kept.
    Labelled,
    /// Up to the renumbering of spots and the mirror image, nothing dropped
    /// ([`StructureKey`](crate::canon::StructureKey)).
    Structure,
    /// Canonical forms without GLOP's reductions (dead regions and stumps dropped).
    Plain,
    /// Canonical forms with GLOP's reductions ([`Position::canonical`]).
    Glop,
}

impl Equivalence {
    /// All of them, finest first.
    pub const ALL: [Equivalence; 4] = [
        Equivalence::Labelled,
        Equivalence::Structure,
        Equivalence::Plain,
        Equivalence::Glop,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Equivalence::Labelled => "labelled",
            Equivalence::Structure => "structure",
            Equivalence::Plain => "plain",
            Equivalence::Glop => "glop",
        }
    }
}

/// The counts under one equivalence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// The equivalence.
    pub equivalence: Equivalence,
    /// Distinct positions after exactly `d` moves, for `d = 0, 1, ...`.
    pub per_depth: Vec<u64>,
    /// Distinct positions where the game is over, after exactly `d` moves.
    pub over_per_depth: Vec<u64>,
    /// Distinct positions over all depths together.
    pub distinct: u64,
}

impl Counts {
    /// The sum of the counts per depth.
    pub fn total(&self) -> u64 {
        self.per_depth.iter().sum()
    }
}

/// The result of [`survey`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Survey {
    /// One entry per equivalence asked for.
    pub counts: Vec<Counts>,
    /// The shortest game from the start.
    pub shortest_game: u32,
    /// The longest game from the start.
    pub longest_game: u32,
    /// Whether every canonical form and key was exact (within the work budget).
    pub exact: bool,
}

impl Survey {
    /// The counts under `eq`, if they were asked for.
    pub fn get(&self, eq: Equivalence) -> Option<&Counts> {
        self.counts.iter().find(|c| c.equivalence == eq)
    }
}

/// Explores every position reachable from `start`, depth by depth, and counts the distinct ones
/// under each equivalence of `equivalences`. `progress(depth, done, of)` is called as positions of
/// a depth are expanded.
///
/// Positions are expanded once per class of the finest equivalence asked for, so the counts are
/// exact: with `Labelled`, once per game key and with every move (all enclosures); else with
/// `Structure`, once per structure key and with every move; else once per plain canonical form
/// and with the distinct moves (interchangeable boundaries counted). Plain forms may stand for
/// their positions here because positions with equal plain forms have children with equal plain
/// (and GLOP) forms: what a plain form drops (dead regions, stumps) no move can use.
///
/// # Examples
///
/// ```
/// use sprouts_topo::perft::{survey, Equivalence};
/// use sprouts_topo::Position;
/// let s = survey(&Position::new(2), &[Equivalence::Glop], |_, _, _| {});
/// assert_eq!((s.shortest_game, s.longest_game), (4, 5));
/// ```
pub fn survey(
    start: &Position,
    equivalences: &[Equivalence],
    mut progress: impl FnMut(u32, usize, usize),
) -> Survey {
    let expand_by = if equivalences.contains(&Equivalence::Labelled) {
        Equivalence::Labelled
    } else if equivalences.contains(&Equivalence::Structure) {
        Equivalence::Structure
    } else {
        Equivalence::Plain
    };
    let _span = info_span!(
        "survey",
        expand_by = expand_by.name(),
        lives = start.total_lives()
    )
    .entered();
    let mut counts: Vec<Counts> = equivalences
        .iter()
        .map(|&equivalence| Counts {
            equivalence,
            per_depth: Vec::new(),
            over_per_depth: Vec::new(),
            distinct: 0,
        })
        .collect();
    let mut overall: Vec<FxHashSet<Vec<u32>>> = vec![FxHashSet::default(); equivalences.len()];
    let mut level = vec![start.clone()];
    let mut exact = true;
    let mut shortest = u32::MAX;
    let mut longest = 0;
    let mut depth = 0u32;
    let mut text = String::new();
    while !level.is_empty() {
        // Count this level.
        let mut seen: Vec<FxHashSet<Vec<u32>>> = vec![FxHashSet::default(); equivalences.len()];
        let mut over: Vec<FxHashSet<Vec<u32>>> = vec![FxHashSet::default(); equivalences.len()];
        for p in &level {
            let is_over = p.is_over();
            if is_over {
                shortest = shortest.min(depth);
                longest = longest.max(depth);
            }
            for (k, &eq) in equivalences.iter().enumerate() {
                let key: Vec<u32> = match eq {
                    Equivalence::Labelled => p.game_key().as_slice().to_vec(),
                    Equivalence::Structure => {
                        let key = structure(p);
                        exact &= key.is_exact();
                        key.as_slice().to_vec()
                    }
                    Equivalence::Plain | Equivalence::Glop => {
                        let mode = if eq == Equivalence::Plain {
                            Mode::PLAIN
                        } else {
                            Mode::GLOP
                        };
                        exact &= with_canonicalizer(|c| {
                            c.canonical_mode_into(p, mode, DEFAULT_BUDGET, &mut text)
                        });
                        text.bytes().map(u32::from).collect()
                    }
                };
                if is_over {
                    over[k].insert(key.clone());
                }
                overall[k].insert(key.clone());
                seen[k].insert(key);
            }
        }
        for (k, c) in counts.iter_mut().enumerate() {
            c.per_depth.push(seen[k].len() as u64);
            c.over_per_depth.push(over[k].len() as u64);
        }
        // Expand it.
        let mut next: Vec<Position> = Vec::new();
        let mut next_keys: HashSet<Vec<u32>, FxBuildHasher> = HashSet::default();
        let n = level.len();
        for (i, p) in level.iter().enumerate() {
            if i % 1024 == 0 {
                progress(depth, i, n);
            }
            let moves = if expand_by == Equivalence::Plain {
                p.distinct_moves()
            } else {
                p.moves()
            };
            for mv in moves {
                let Ok(child) = p.play(&mv) else { continue };
                let key = match expand_by {
                    Equivalence::Labelled => child.game_key().as_slice().to_vec(),
                    Equivalence::Structure => structure(&child).as_slice().to_vec(),
                    _ => {
                        exact &= with_canonicalizer(|c| {
                            c.canonical_mode_into(&child, Mode::PLAIN, DEFAULT_BUDGET, &mut text)
                        });
                        text.bytes().map(u32::from).collect()
                    }
                };
                if next_keys.insert(key) {
                    next.push(child);
                }
            }
        }
        progress(depth, n, n);
        level = next;
        depth += 1;
    }
    for (k, c) in counts.iter_mut().enumerate() {
        c.distinct = overall[k].len() as u64;
    }
    Survey {
        counts,
        shortest_game: shortest,
        longest_game: longest,
        exact,
    }
}

fn structure(p: &Position) -> StructureKey {
    crate::canon::structure_key(p)
}
