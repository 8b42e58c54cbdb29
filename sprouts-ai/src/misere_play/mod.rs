//! Misère Sprouts (the player who cannot move wins), decided by parts (spec 5.7).
//!
//! In misère play a land's nimber says nothing about how it behaves beside other lands; its misère
//! canonical tree does (Conway, *On Numbers and Games*, ch. 12). Lemoine and Viennot solved
//! misère Sprouts up to 17 spots by replacing lands by their reduced canonical trees and searching
//! what is left ("Analysis of misère Sprouts game with reduced canonical trees",
//! arXiv:0908.4407, 2009). [`MisereSproutsSolver`] works the same way:
//!
//! - A position is a multiset of lands (its canonical form split at `+`).
//! - Lands with few lives ([`MisereConfig::tree_lives`]) are solved exactly: their simplest form
//!   in a [`MisereStore`](crate::impartial::MisereStore) (the tree of a land is the simplest game
//!   whose options are the trees of its children, and the tree of a child is the sum of its lands'
//!   trees), memoised by the land's canonical form. Trees already known are used for any land.
//! - The solved lands' trees form the *context*, kept as a sum of parts (sorted, `0` dropped, `*1`
//!   folded into a heap) rather than added into one simplest form: the simplest form of a sum of
//!   large trees is as large as the product of theirs, while the search only needs the sum's
//!   outcome (a memoised search over the parts) and its moves (an option of one part).
//! - What is left, the larger lands beside the context, is searched for a win: a move is a move
//!   in one land or a move in the context (an option of one of its trees). The search stops at
//!   the first child lost for the opponent, tries children already known to be lost first, then
//!   the smaller ones, and keeps proven results in a transposition table keyed by the unsolved
//!   lands and the context.
//! - When every land is solved, the outcome is the context's.
//!
//! The tree machinery is sound for any sum (the simplification rules are Conway's); the search is
//! the definition. A plain win/loss search that ignores parts is the reference it is tested against
//! (`tests/misere_sprouts.rs`).
//!
//! # Examples
//! ```
//! use sprouts_ai::impartial::Outcome;
//! use sprouts_ai::misere_play::MisereSproutsSolver;
//! use sprouts_ai::Limits;
//! use sprouts_topo::Position;
//!
//! let solver = MisereSproutsSolver::new();
//! // Misère n-spot outcomes: W L L L W W for 1..=6 (OEIS A164950).
//! let solved = solver.outcome(&Position::new(5), &Limits::none());
//! assert_eq!(solved.value, Some(Outcome::Win));
//! // A budget too small gives "unknown", never a guess.
//! let fresh = MisereSproutsSolver::new();
//! assert_eq!(fresh.outcome(&Position::new(7), &Limits::nodes(10)).value, None);
//! ```

mod parallel;
mod search;

use std::sync::Mutex;

use sprouts_topo::Position;

use crate::impartial::Outcome;
use crate::{Limits, Solved};

use search::Search;

/// Settings of a [`MisereSproutsSolver`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereConfig {
    /// Lands with at most this many lives are replaced by their misère canonical trees (a land's
    /// tree costs a full exploration of the land, with no pruning, but is memoised and reused in
    /// every position the land appears in). Larger lands are searched. `0` searches everything
    /// (no trees but those of positions whose every land has been solved before).
    pub tree_lives: u32,
    /// Lands with more lives than `tree_lives` but at most this many are also replaced by their
    /// trees when they sit beside another unsolved land that is at least as large (only the
    /// largest land of a position is searched, as Lemoine and Viennot do with nimbers in normal
    /// play).
    pub side_tree_lives: u32,
    /// Bytes allowed to the search's tables (`None`: no bound): the transposition table of
    /// proven positions, the proof numbers, the lists of children of lands being searched, and
    /// the memos of sums of trees. Over the budget what is cheapest to do again goes first: the
    /// proof numbers (which only steer the search), the children lists, the memos, then half
    /// the proven positions; whatever is dropped is computed again if it is needed. The lands
    /// met (one canonical form each) and their canonical trees are not bounded: every table key
    /// names them by number, so they cannot be forgotten one by one; they are about 120 bytes a
    /// land ([`MisereStats::land_bytes`]).
    pub table_bytes: Option<usize>,
}

impl Default for MisereConfig {
    fn default() -> Self {
        MisereConfig {
            // Measured on 14 to 17 spots (docs/performance.md): larger thresholds spend their
            // time on exact trees of lands the search would have cut short; smaller ones search
            // what a tree would have summed up.
            tree_lives: 8,
            side_tree_lives: 12,
            table_bytes: None,
        }
    }
}

/// Counters of a [`MisereSproutsSolver`]'s tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MisereStats {
    /// Distinct lands met (interned canonical forms).
    pub lands: usize,
    /// Lands whose tree is known.
    pub land_trees: usize,
    /// Distinct trees in the store.
    pub trees: usize,
    /// Proven positions in the transposition table (unsolved lands beside a context).
    pub table: usize,
    /// Bytes the bounded tables take, as [`MisereConfig::table_bytes`] counts them.
    pub table_bytes: usize,
    /// Bytes the lands met take (their forms and the index of them; not bounded), about.
    pub land_bytes: usize,
    /// Proven positions dropped to keep within [`MisereConfig::table_bytes`].
    pub evicted: u64,
}

/// Decides misère Sprouts positions: lands replaced by their misère canonical trees, the rest
/// searched with pruning (see the [module documentation](self)).
///
/// The tables live inside, behind a mutex, and are kept between calls: a solver that has decided
/// a position answers its sub-positions at once. It is `Send + Sync`; calls from several threads
/// take turns. Results do not depend on the history (node counts do).
///
/// With several threads ([`with_threads`](Self::with_threads)) each thread keeps its own tables
/// and the position's children are shared out among them in rounds of growing node budgets;
/// the first child found lost ends the others' work.
#[derive(Debug)]
pub struct MisereSproutsSolver {
    searches: Vec<Mutex<Search>>,
}

impl Default for MisereSproutsSolver {
    fn default() -> Self {
        MisereSproutsSolver::new()
    }
}

impl MisereSproutsSolver {
    /// A solver with the default settings and empty tables.
    pub fn new() -> Self {
        MisereSproutsSolver::with_config(MisereConfig::default())
    }

    /// A solver with the given settings and empty tables.
    pub fn with_config(config: MisereConfig) -> Self {
        MisereSproutsSolver::with_threads(config, 1)
    }

    /// A solver deciding each position on `threads` threads (at least one), each with its own
    /// tables; [`MisereConfig::table_bytes`] is shared out equally among them.
    pub fn with_threads(config: MisereConfig, threads: usize) -> Self {
        let threads = threads.max(1);
        let config = MisereConfig {
            table_bytes: config.table_bytes.map(|bytes| bytes / threads),
            ..config
        };
        MisereSproutsSolver {
            searches: (0..threads)
                .map(|_| Mutex::new(Search::new(config.clone())))
                .collect(),
        }
    }

    /// How many threads decide each position.
    pub fn threads(&self) -> usize {
        self.searches.len()
    }

    fn first(&self) -> std::sync::MutexGuard<'_, Search> {
        self.searches[0].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The misère outcome of `position` for the player to move, or `None` ("unknown") when
    /// `limits` end the search first. Nodes are lands expanded plus sums searched.
    ///
    /// Whatever was proven before the limits struck stays in the tables.
    pub fn outcome(&self, position: &Position, limits: &Limits) -> Solved<Outcome> {
        let start = limits.now();
        let form = position.canonical();
        let lands = form.land_forms();
        let _span = tracing::info_span!("misere_outcome", form = form.as_str()).entered();
        let (value, nodes) = match self.searches.len() {
            1 => self.first().outcome(&lands, limits),
            _ => parallel::outcome(&self.searches, &lands, limits),
        };
        Solved {
            value,
            nodes,
            elapsed: limits.now().saturating_duration_since(start),
        }
    }

    /// The misère canonical tree of `position` written out (`0`, `*`, `*2`, `{0, *2}`, ...), or
    /// `None` when `limits` end the work first. Every land is solved, however large: this costs a
    /// full exploration of the position.
    pub fn tree_text(&self, position: &Position, limits: &Limits) -> Solved<String> {
        let start = limits.now();
        let form = position.canonical();
        let lands = form.land_forms();
        let (value, nodes) = self.first().tree_text(&lands, limits);
        Solved {
            value,
            nodes,
            elapsed: limits.now().saturating_duration_since(start),
        }
    }

    /// The sizes of the solver's tables (added over its threads' tables).
    pub fn stats(&self) -> MisereStats {
        self.searches
            .iter()
            .map(|search| search.lock().unwrap_or_else(|e| e.into_inner()).stats())
            .fold(MisereStats::default(), |a, b| MisereStats {
                lands: a.lands + b.lands,
                land_trees: a.land_trees + b.land_trees,
                trees: a.trees + b.trees,
                table: a.table + b.table,
                table_bytes: a.table_bytes + b.table_bytes,
                land_bytes: a.land_bytes + b.land_bytes,
                evicted: a.evicted + b.evicted,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<MisereSproutsSolver>();
    }

    #[test]
    fn game_over_is_a_win_in_misere_play() {
        let solver = MisereSproutsSolver::new();
        let solved = solver.outcome(&Position::new(0), &Limits::none());
        assert_eq!(solved.value, Some(Outcome::Win));
    }

    #[test]
    fn small_starts_match_the_oracle() {
        // n-spot-misere.tsv: W L L L W W for 1..=6.
        let want = [true, false, false, false, true, true];
        for config in [
            MisereConfig::default(),
            MisereConfig {
                tree_lives: 0,
                side_tree_lives: 0,
                table_bytes: None,
            },
            MisereConfig {
                tree_lives: 100,
                side_tree_lives: 100,
                table_bytes: None,
            },
        ] {
            let solver = MisereSproutsSolver::with_config(config.clone());
            // Whole trees of 6 spots take long: the all-trees setting stops at 5.
            let last = if config.tree_lives > 18 { 5 } else { 6 };
            for (i, &w) in want.iter().enumerate().take(last) {
                let n = i as u32 + 1;
                let solved = solver.outcome(&Position::new(n), &Limits::none());
                assert_eq!(
                    solved.value,
                    Some(Outcome::from_win(w)),
                    "{n} spots, {config:?}"
                );
            }
        }
    }

    #[test]
    fn trees_of_tiny_positions() {
        let solver = MisereSproutsSolver::new();
        let text = |glop: &str| {
            solver
                .tree_text(&Position::parse_glop(glop).unwrap(), &Limits::none())
                .value
                .unwrap()
        };
        assert_eq!(text("!"), "0");
        // One seed: two forced moves, the chain {{0}} = {*}, which is 0 in misère play (its only
        // option reverses through 0); and 0 is a win for the player to move, as 1 spot is.
        assert_eq!(text("0"), "0");
    }
}
