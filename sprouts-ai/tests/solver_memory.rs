//! The solver within small memory budgets: its table of facts forgets facts to stay within its
//! budget, and every answer stays the same as an unbounded solver's and the published ones
//! (`data/n-spot-normal.tsv`).

use std::time::Duration;

use sprouts_ai::Limits;
use sprouts_ai::solver::{Solver, SolverConfig};
use sprouts_topo::Position;

mod common;

use common::{one_thread, oracle};

/// A one-thread solver whose tables take `fact_bytes` for facts and small caches beside.
fn bounded(fact_bytes: usize) -> Solver {
    Solver::new(SolverConfig {
        threads: 1,
        fact_table_bytes: Some(fact_bytes),
        child_cache_bytes: 256 << 10,
        number_table_bytes: 64 << 10,
        ..SolverConfig::default()
    })
    .expect("the solver starts")
}

/// The smallest budget a table of facts takes (256 KB), used by these tests: 4 KB a shard.
const BUDGET: usize = 256 << 10;

/// A shard may pass its share by one entry before it forgets, so the whole table by at most 64
/// entries (a few KB here).
const SLACK: u64 = 64 * 512;

/// Every search here is bounded in time, so that a table forgetting faster than it proves would
/// fail the test rather than hang it.
fn limits() -> Limits {
    Limits::time(Duration::from_secs(120))
}

#[test]
fn a_small_budget_gives_the_published_outcomes_and_nimbers() {
    // One solver for every start, so its table fills (an unbounded one holds several MB by 12
    // spots) and forgets.
    let solver = bounded(BUDGET);
    let free = one_thread();
    for (n, outcome, nimber) in oracle().into_iter().filter(|r| r.0 <= 12) {
        let got = solver.outcome(&Position::new(n), &limits());
        assert_eq!(got.value, Some(outcome), "outcome of {n} spots");
        let got = solver.nimber(&Position::new(n), &limits());
        assert_eq!(got.value, Some(nimber), "nimber of {n} spots");
        assert_eq!(
            free.nimber(&Position::new(n), &Limits::none()).value,
            Some(nimber)
        );
        let stats = solver.stats();
        assert!(
            stats.fact_bytes <= BUDGET as u64 + SLACK,
            "{n} spots: {stats:?}"
        );
        eprintln!(
            "{n} spots: bounded {} facts ({} bytes, {} forgotten, {} nodes), unbounded {} facts ({} bytes, {} nodes)",
            stats.facts,
            stats.fact_bytes,
            stats.facts_evicted,
            stats.nodes,
            free.stats().facts,
            free.stats().fact_bytes,
            free.stats().nodes
        );
    }
    // The test means something only if the budget made the table forget.
    assert!(
        free.stats().fact_bytes > BUDGET as u64 * 3 / 2,
        "{:?}",
        free.stats()
    );
    assert_eq!(free.stats().facts_evicted, 0);
    assert!(solver.stats().facts_evicted > 100, "{:?}", solver.stats());
}

#[test]
fn within_memory_bounds_every_table() {
    let c = SolverConfig::default().within_memory(64 << 20);
    assert_eq!(c.fact_table_bytes, Some(32 << 20));
    assert_eq!(c.child_cache_bytes, 24 << 20);
    assert_eq!(c.number_table_bytes, 8 << 20);
    let big = SolverConfig::default().within_memory(1 << 30);
    assert_eq!(big.number_table_bytes, 64 << 20);
    assert_eq!(big.child_cache_bytes, 384 << 20);
    assert_eq!(big.fact_table_bytes, Some(576 << 20));
    let tiny = SolverConfig::default().within_memory(1);
    assert_eq!(tiny.fact_table_bytes, Some(SolverConfig::MIN_MEMORY / 2));
}
