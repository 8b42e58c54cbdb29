//! The normal-play solver of Sprouts: outcomes and nimbers of any position, by parts.
//!
//! A position is a sum of independent lands (spec 5.6), so by the Sprague–Grundy theory its
//! outcome follows from its lands' nimbers. The solver works, as Lemoine and Viennot's GLOP and
//! Čížek, Balko and Schmid's SPOTS do, on *couples* `L + *k`: a land beside a nim heap. The
//! nimber of `L` is the least `k` for which `L + *k` is lost, and when a move splits a land, the
//! nimbers of the pieces already known are folded into the heap by XOR, the smaller unknown
//! pieces are solved for their nimbers (inside the proof-number search, smallest first, see
//! [`SolverConfig::interleave_lands`]), and only the largest is searched as a couple
//! (J. Lemoine, S. Viennot, "Nimbers are inevitable", Theoretical Computer Science 462, 2012,
//! 70–79).
//!
//! The search is a depth-first proof-number search (df-pn; Nagai 2002, with the `1 + ε` trick of
//! Pawlewicz and Lew, as SPOTS does) over couples, with every proved couple kept in a table keyed
//! by the land's canonical form ([`LandForm`], from [`Position::land_forms`]). Lands travel through
//! the search as these values: a land is expanded through [`LandForm::to_position`] and its
//! children are made as land forms by the canonicaliser, never written out and read back as
//! text. That table holds only proved facts (a land's nimber, or heaps `k` for which `L + *k`
//! is a win); with a byte budget ([`SolverConfig::fact_table_bytes`]) it forgets some, never
//! records a false one, and a forgotten fact is proved again when needed. So a search
//! stopped by its [`Limits`] leaves only true facts behind and returns an unknown value. It can be
//! saved, loaded and merged ([`Solver::save`], [`Solver::load`]), written as text
//! ([`Solver::export_losing_couples`]), and read from and written as the nimber databases of
//! GLOP and SPOTS ([`Solver::import_text`], [`Solver::export_text`]). Two bounded, lossy tables
//! speed the search up: the proof and disproof numbers of couples searched but not proved, and
//! the children of recently expanded lands.
//!
//! With one thread the search is deterministic: the same calls on a fresh solver expand the same
//! nodes. With more, the moves of each couple searched from the top are searched in parallel
//! (rayon), each to the end, until one is found lost; verdicts are the same, node counts vary.
//!
//! # Examples
//! ```
//! use sprouts_ai::solver::{Solver, SolverConfig};
//! use sprouts_ai::impartial::{Nimber, Outcome};
//! use sprouts_ai::Limits;
//! use sprouts_topo::{LandForm, Position};
//!
//! let solver = Solver::new(SolverConfig { threads: 1, ..SolverConfig::default() })
//!     .expect("the solver starts");
//! let three = Position::new(3);
//! assert_eq!(solver.outcome(&three, &Limits::none()).value, Some(Outcome::Win));
//! assert_eq!(solver.nimber(&three, &Limits::none()).value, Some(Nimber(1)));
//! // A node budget too small to decide the 7-spot start gives "unknown".
//! let fresh = Solver::new(SolverConfig { threads: 1, ..SolverConfig::default() })
//!     .expect("the solver starts");
//! assert_eq!(fresh.outcome(&Position::new(7), &Limits::nodes(10)).value, None);
//! ```

mod bench;
mod db;
mod db_file;
mod interchange;
mod search;
mod table;

use std::sync::atomic::{AtomicU64, Ordering};

use sprouts_topo::{LandForm, Position};

use crate::impartial::{Nimber, Outcome};
use crate::{Limits, Solved};
pub use bench::{BENCH_CASES, BenchCase, BenchError, BenchReport, run_bench_cases};
pub use db::{DbError, ExportStats, LoadStats, MAGIC, MAX_RECORD_BYTES, VERSION};
pub use db_file::{DbFile, SaveStats, check_output, write_atomically};
#[doc(hidden)]
pub use interchange::check_text_import;
pub use interchange::{
    ImportStats, InterchangeError, LOSING_HEADER, MISERE_HEADER, NIMBER_HEADER, TextExportStats,
    TextFormat,
};
use search::Search;
use table::{ChildCache, FactTable, NumberTable};

/// How a [`Solver`] runs.
#[derive(Clone, Debug)]
pub struct SolverConfig {
    /// Worker threads (at least 1). With 1 the search is deterministic.
    pub threads: usize,
    /// Bytes allowed to the cache of children lists (0: no cache).
    pub child_cache_bytes: usize,
    /// Bytes allowed to the table of proved facts (`None`: no bound; at least 256 KB is used).
    /// Over its budget the table
    /// forgets facts (never records a false one), partial facts first and the nimbers of the
    /// largest lands next; a forgotten fact is proved again if it is needed. A database saved
    /// from a bounded table holds the facts it still has.
    pub fact_table_bytes: Option<usize>,
    /// Bytes allowed to the table of proof and disproof numbers of couples searched but not
    /// proved (lossy; 0: none).
    pub number_table_bytes: usize,
    /// How a move that splits a land into several unknown lands is searched. `true`: inside
    /// df-pn, the smallest land first, its couples `L + *0`, `L + *1`, ... each searched only
    /// until its cost `min(pn, dn)` reaches the thresholds the parent gives (the child's proof
    /// and disproof numbers are both the sum of these costs), as SPOTS does. `false`: the
    /// smaller lands are solved outright for their nimbers when the search first descends into
    /// the child. Verdicts are the same either way; node counts differ.
    pub interleave_lands: bool,
    /// With `interleave_lands`, the smaller unknown lands of a child that have at most this many
    /// lives are still solved outright for their nimbers when the search first descends into the
    /// child (small lands are cheap to solve, and their nimbers are met again and again); only
    /// the larger ones are searched inside df-pn. 0: every land is interleaved.
    pub settle_lives: u32,
}

/// The default [`SolverConfig::settle_lives`].
pub const DEFAULT_SETTLE_LIVES: u32 = 0;

impl SolverConfig {
    /// The least memory [`SolverConfig::within_memory`] takes: below it the tables would hold
    /// too little to be worth bounding.
    pub const MIN_MEMORY: usize = 16 << 20;

    /// The same configuration with every table bounded, `bytes` in all (at least
    /// [`SolverConfig::MIN_MEMORY`]): one eighth for the proof numbers, at most 64 MB (the
    /// table is allocated whole at the start; it only steers the search), three eighths for the
    /// children lists, and the rest, at least half, for the proved facts, which are kept
    /// longest (the two other tables only save time, and lose entries all along). The search's
    /// own frames and the process itself come on top.
    pub fn within_memory(self, bytes: usize) -> SolverConfig {
        let bytes = bytes.max(Self::MIN_MEMORY);
        let numbers = (bytes / 8).min(64 << 20);
        let children = bytes / 8 * 3;
        SolverConfig {
            fact_table_bytes: Some(bytes - numbers - children),
            child_cache_bytes: children,
            number_table_bytes: numbers,
            ..self
        }
    }
}

impl Default for SolverConfig {
    /// All cores, a 512 MB children cache, a 64 MB table of numbers, no bound on the table of
    /// facts, lands interleaved.
    fn default() -> Self {
        SolverConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            child_cache_bytes: 512 << 20,
            fact_table_bytes: None,
            number_table_bytes: 64 << 20,
            interleave_lands: true,
            settle_lives: DEFAULT_SETTLE_LIVES,
        }
    }
}

/// Tables shared by every search of a solver.
#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) facts: FactTable,
    pub(crate) children: ChildCache,
    pub(crate) numbers: NumberTable,
    /// Nodes expanded by every search of this solver, for progress reports.
    pub(crate) expanded: AtomicU64,
    /// Children lists computed (not found in the cache).
    pub(crate) misses: AtomicU64,
    /// Moves played (one canonical form each) to compute children lists.
    pub(crate) moves: AtomicU64,
    /// Distinct children in the lists computed.
    pub(crate) listed: AtomicU64,
    /// Children looked at when couples are expanded.
    pub(crate) expanded_children: AtomicU64,
    /// Expansions that found a child already proved lost (so the couple won at once), and
    /// those of them whose children list had just been computed.
    pub(crate) won_on_expand: [AtomicU64; 2],
}

/// What a solver's searches have cost so far (all its searches, all threads), to see where the
/// work goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Couples expanded (nodes).
    pub nodes: u64,
    /// Children lists computed (one per land expanded that the cache did not hold).
    pub lists: u64,
    /// Moves played to compute them: one canonical form each.
    pub moves: u64,
    /// Distinct children in the lists computed.
    pub children: u64,
    /// Children looked at when couples were expanded (lists read, from the cache or not).
    pub expanded_children: u64,
    /// Expansions that found a child already proved lost, so the couple was won at once.
    pub won_on_expand: u64,
    /// Those of them whose children list had just been computed.
    pub won_on_fresh_list: u64,
    /// Lands with proved facts.
    pub facts: u64,
    /// Bytes the table of facts takes, as its budget counts them.
    pub fact_bytes: u64,
    /// Facts forgotten to keep the table of facts within its budget.
    pub facts_evicted: u64,
}

/// The normal-play solver (see the [module documentation](self)). `Send + Sync`: share it with
/// `&` or `Arc`; its tables grow across calls, so later questions reuse earlier answers.
#[derive(Debug)]
pub struct Solver {
    inner: Inner,
    config: SolverConfig,
    pool: rayon::ThreadPool,
}

/// The solver could not start.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// The operating system refused the worker threads (each reserves a 256 MiB stack).
    #[error(
        "cannot start the solver's {threads} worker thread(s) with a {} MiB stack each: {source}",
        STACK_BYTES >> 20
    )]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// Why the pool was refused.
        source: rayon::ThreadPoolBuildError,
    },
}

/// Stack size of the solver's worker threads: the search recurses once per move of the game.
const STACK_BYTES: usize = 256 << 20;

impl Solver {
    /// A solver with empty tables.
    ///
    /// # Errors
    ///
    /// [`SolverError::Threads`] if the operating system refuses to start the worker threads.
    pub fn new(config: SolverConfig) -> Result<Solver, SolverError> {
        let threads = config.threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(STACK_BYTES)
            .thread_name(|i| format!("sprouts-solver-{i}"))
            .build()
            .map_err(|source| SolverError::Threads { threads, source })?;
        Ok(Solver {
            inner: Inner {
                facts: FactTable::new(config.fact_table_bytes),
                children: ChildCache::new(config.child_cache_bytes),
                numbers: NumberTable::new(config.number_table_bytes),
                expanded: AtomicU64::new(0),
                misses: AtomicU64::new(0),
                moves: AtomicU64::new(0),
                listed: AtomicU64::new(0),
                expanded_children: AtomicU64::new(0),
                won_on_expand: Default::default(),
            },
            config: SolverConfig { threads, ..config },
            pool,
        })
    }

    /// The configuration this solver runs with.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    fn run<T: Send>(
        &self,
        limits: &Limits,
        f: impl FnOnce(&Search<'_>) -> search::Res<T> + Send,
    ) -> Solved<T> {
        let start = limits.now();
        let search = Search::new(
            &self.inner,
            limits,
            self.config.threads > 1,
            self.config.interleave_lands,
            self.config.settle_lives,
        );
        let value = self.pool.install(|| f(&search)).ok();
        tracing::debug!(
            children_lists = self.inner.misses.load(Ordering::Relaxed),
            facts = self.inner.facts.len(),
            "solver tables"
        );
        Solved {
            value,
            nodes: search.nodes.into_inner(),
            elapsed: limits.now().saturating_duration_since(start),
        }
    }

    /// The normal-play outcome of `position` for the player to move, or an unknown value when
    /// `limits` end the search first.
    pub fn outcome(&self, position: &Position, limits: &Limits) -> Solved<Outcome> {
        let form = position.canonical();
        let _span = tracing::debug_span!("solver.outcome", position = %form).entered();
        let lands = form.land_forms();
        self.run(limits, |s| {
            s.sum_is_loss(&lands, 0)
                .map(|loss| Outcome::from_win(!loss))
        })
    }

    /// The nimber of `position` (the nim sum of its lands' nimbers), or an unknown value when
    /// `limits` end the search first.
    pub fn nimber(&self, position: &Position, limits: &Limits) -> Solved<Nimber> {
        let form = position.canonical();
        let _span = tracing::debug_span!("solver.nimber", position = %form).entered();
        let lands = form.land_forms();
        self.run(limits, |s| {
            let mut n = 0;
            for l in &lands {
                n ^= s.nimber(l)?;
            }
            Ok(Nimber(n))
        })
    }

    /// Whether `position + *heap` is lost for the player to move (normal play).
    pub fn couple_outcome(
        &self,
        position: &Position,
        heap: Nimber,
        limits: &Limits,
    ) -> Solved<Outcome> {
        let lands = position.land_forms();
        self.run(limits, |s| {
            s.sum_is_loss(&lands, heap.0)
                .map(|loss| Outcome::from_win(!loss))
        })
    }

    /// The nimber of this land, if the tables know it.
    pub fn known_nimber(&self, land: &LandForm) -> Option<Nimber> {
        self.inner.facts.nimber(land).map(Nimber)
    }

    /// Whether the couple `land + *heap` is lost (`Loss`) or won (`Win`) for the player to
    /// move, if the tables know it: a lookup, no search.
    pub fn known_couple(&self, land: &LandForm, heap: Nimber) -> Option<Outcome> {
        self.inner
            .facts
            .couple_is_loss(land, heap.0)
            .map(|loss| Outcome::from_win(!loss))
    }

    /// Nodes expanded by all the searches of this solver so far (readable while a search runs,
    /// from another thread: for progress bars).
    pub fn nodes_expanded(&self) -> u64 {
        self.inner.expanded.load(Ordering::Relaxed)
    }

    /// What this solver's searches have cost so far.
    pub fn stats(&self) -> SolverStats {
        let i = &self.inner;
        SolverStats {
            nodes: i.expanded.load(Ordering::Relaxed),
            lists: i.misses.load(Ordering::Relaxed),
            moves: i.moves.load(Ordering::Relaxed),
            children: i.listed.load(Ordering::Relaxed),
            expanded_children: i.expanded_children.load(Ordering::Relaxed),
            won_on_expand: i.won_on_expand[0].load(Ordering::Relaxed),
            won_on_fresh_list: i.won_on_expand[1].load(Ordering::Relaxed),
            facts: i.facts.len() as u64,
            fact_bytes: i.facts.bytes() as u64,
            facts_evicted: i.facts.evicted(),
        }
    }

    /// How many lands the table of proved facts holds.
    pub fn table_len(&self) -> usize {
        self.inner.facts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn solver_is_send_and_sync() {
        assert_send_sync::<Solver>();
    }
}
