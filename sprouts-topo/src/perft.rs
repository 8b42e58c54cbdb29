//! Exhaustive counts: move sequences (perft) and the distinct positions reachable from a position,
//! depth by depth, under several equivalences.
//!
//! Every move removes exactly one life, so the positions reached after `d` moves are never reached
//! after another number of moves; the counts per depth add up to the number of distinct positions
//! (for [`Equivalence::Labelled`] and [`Equivalence::STRUCTURE`]). Canonical forms drop what
//! cannot matter, so one form can stand for positions at several depths (the finished game `!`
//! at every length a game can have): for [`Equivalence::PLAIN`] and [`Equivalence::GLOP`] the
//! number of forms over all depths ([`Counts::distinct`]) is less than the sum per depth.

use std::collections::HashSet;

use rustc_hash::{FxBuildHasher, FxHashSet};
use tracing::info_span;

use crate::canon::{KeyOptions, Mirror, key};
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
    /// ([`GameKey`](crate::GameKey)): positions as drawn, spot numbers kept.
    Labelled,
    /// Equal canonical keys under the options (see [`KeyOptions`]): up to renumbering, with what
    /// the options drop dropped.
    Key(KeyOptions),
}

impl Equivalence {
    /// Positions up to renumbering and mirror image, nothing dropped.
    pub const STRUCTURE: Equivalence = Equivalence::Key(KeyOptions::FULL);
    /// Canonical forms without GLOP's reductions (dead regions and stumps dropped).
    pub const PLAIN: Equivalence = Equivalence::Key(KeyOptions::PLAIN);
    /// Canonical forms with GLOP's reductions ([`Position::canonical`]).
    pub const GLOP: Equivalence = Equivalence::Key(KeyOptions::GLOP);

    /// A short name: `labelled`, or the kept parts (`structure`, `plain`, `glop`, `live` for dead
    /// regions dropped and stumps kept, `stumpless` for the converse), with `-oriented` when mirror
    /// images are told apart and `-whole` when only whole mirror images are identified.
    pub fn name(self) -> String {
        match self {
            Equivalence::Labelled => "labelled".to_string(),
            Equivalence::Key(k) => {
                let base = match (k.drop_dead, k.drop_stumps, k.glop) {
                    (false, false, _) => "structure",
                    (true, false, _) => "live",
                    (false, true, _) => "stumpless",
                    (true, true, false) => "plain",
                    (true, true, true) => "glop",
                };
                match k.mirror {
                    Mirror::PerLand => base.to_string(),
                    Mirror::Distinct => format!("{base}-oriented"),
                    Mirror::Whole => format!("{base}-whole"),
                }
            }
        }
    }

    /// The equivalence named `name` (see [`Equivalence::name`]).
    pub fn from_name(name: &str) -> Option<Equivalence> {
        if name == "labelled" {
            return Some(Equivalence::Labelled);
        }
        let (base, mirror) = if let Some(b) = name.strip_suffix("-oriented") {
            (b, Mirror::Distinct)
        } else if let Some(b) = name.strip_suffix("-whole") {
            (b, Mirror::Whole)
        } else {
            (name, Mirror::PerLand)
        };
        let (drop_dead, drop_stumps, glop) = match base {
            "structure" => (false, false, false),
            "live" => (true, false, false),
            "stumpless" => (false, true, false),
            "plain" => (true, true, false),
            "glop" => (true, true, true),
            _ => return None,
        };
        Some(Equivalence::Key(KeyOptions {
            drop_dead,
            drop_stumps,
            glop,
            mirror,
        }))
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
/// Positions are expanded once per class of an equivalence finer than every one asked for, so the
/// counts are exact: with `Labelled`, once per game key and with every move (all enclosures);
/// otherwise once per key under the meet of the options asked for (keeping what any of them
/// keeps). Keys may stand for their positions here because every key is a bisimulation: what a key
/// drops (dead regions, stumps) no move can use, and what GLOP's reductions change is checked by
/// brute force in the tests. When stumps are dropped, the distinct moves (interchangeable
/// boundaries counted) suffice.
///
/// # Examples
///
/// ```
/// use sprouts_topo::perft::{survey, Equivalence};
/// use sprouts_topo::Position;
/// let s = survey(&Position::new(2), &[Equivalence::GLOP], |_, _, _| {});
/// assert_eq!((s.shortest_game, s.longest_game), (4, 5));
/// ```
pub fn survey(
    start: &Position,
    equivalences: &[Equivalence],
    mut progress: impl FnMut(u32, usize, usize),
) -> Survey {
    let labelled = equivalences.contains(&Equivalence::Labelled);
    let expand = equivalences
        .iter()
        .fold(None, |acc: Option<KeyOptions>, e| match (acc, e) {
            (_, Equivalence::Labelled) => acc,
            (None, Equivalence::Key(k)) => Some(*k),
            (Some(a), Equivalence::Key(k)) => Some(a.meet(*k)),
        });
    let expand = expand.unwrap_or(KeyOptions::PLAIN);
    let _span = info_span!("survey", labelled, lives = start.total_lives()).entered();
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
                    Equivalence::Key(options) => {
                        let key = key(p, options);
                        exact &= key.is_exact();
                        key.as_slice().to_vec()
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
            let moves = if labelled || !expand.drop_stumps {
                p.moves()
            } else {
                p.distinct_moves()
            };
            for mv in moves {
                let Ok(child) = p.play(&mv) else { continue };
                let k = if labelled {
                    child.game_key().as_slice().to_vec()
                } else {
                    let k = key(&child, expand);
                    exact &= k.is_exact();
                    k.as_slice().to_vec()
                };
                if next_keys.insert(k) {
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
