//! The solver within small memory budgets: its table of facts forgets facts to stay within its
//! budget, and every answer stays the same as an unbounded solver's and the published ones
//! (`data/n-spot-normal.tsv`, and the oracle's misère-free normal-play nimbers).

use sprouts_ai::Limits;
use sprouts_ai::impartial::{Nimber, Outcome};
use sprouts_ai::solver::{Solver, SolverConfig};
use sprouts_topo::Position;

/// `(n, outcome, nimber)` rows of the oracle file.
fn oracle() -> Vec<(u32, Outcome, Nimber)> {
    include_str!("data/n-spot-normal.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('n') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let outcome = match f[1] {
                "W" => Outcome::Win,
                "L" => Outcome::Loss,
                other => panic!("unknown outcome {other}"),
            };
            (f[0].parse().unwrap(), outcome, Nimber(f[2].parse().unwrap()))
        })
        .collect()
}

/// A one-thread solver whose tables take `fact_bytes` for facts and a small cache beside.
fn bounded(fact_bytes: usize) -> Solver {
    Solver::new(SolverConfig {
        threads: 1,
        fact_table_bytes: Some(fact_bytes),
        child_cache_bytes: 256 << 10,
        number_table_bytes: 64 << 10,
        ..SolverConfig::default()
    })
}

fn unbounded() -> Solver {
    Solver::new(SolverConfig {
        threads: 1,
        ..SolverConfig::default()
    })
}

/// The entry of the budget counted per shard: a shard may pass its share by one entry before it
/// forgets, so the whole table by at most 64 entries of the largest land (a few KB here).
const SLACK: u64 = 64 * 512;

#[test]
fn small_budgets_give_the_published_outcomes_and_nimbers() {
    let rows = oracle();
    let mut evicted_somewhere = false;
    for (n, outcome, nimber) in rows.into_iter().filter(|r| r.0 <= 12) {
        // 128 KB of facts: 2 KB a shard, about twenty lands each; the unbounded table holds
        // megabytes by 12 spots.
        let budget = 128 << 10;
        let solver = bounded(budget);
        let got = solver.outcome(&Position::new(n), &Limits::none());
        assert_eq!(got.value, Some(outcome), "outcome of {n} spots");
        let got = solver.nimber(&Position::new(n), &Limits::none());
        assert_eq!(got.value, Some(nimber), "nimber of {n} spots");
        let stats = solver.stats();
        assert!(stats.fact_bytes <= budget as u64 + SLACK, "{n}: {stats:?}");
        evicted_somewhere |= stats.facts_evicted > 0;
        // The same answers from an unbounded solver, which forgets nothing.
        let free = unbounded();
        assert_eq!(free.outcome(&Position::new(n), &Limits::none()).value, Some(outcome));
        assert_eq!(free.stats().facts_evicted, 0);
        if n >= 10 {
            assert!(
                free.stats().fact_bytes > 4 * budget as u64,
                "{n} spots: the unbounded table must outgrow the budget for the test to mean anything"
            );
        }
    }
    assert!(evicted_somewhere, "the budget never made the table forget");
}

#[test]
fn a_bounded_solver_agrees_with_an_unbounded_one_on_positions_of_several_lands() {
    let free = unbounded();
    let tight = bounded(32 << 10);
    // Positions one and two moves from the 7-spot start (several lands, mixed lives), and sums
    // beside heaps.
    let start = Position::new(7);
    let mut positions = Vec::new();
    for child in start.distinct_children().iter().take(12) {
        let p = Position::parse_glop(&child.to_string()).unwrap();
        for grandchild in p.distinct_children().iter().take(4) {
            positions.push(Position::parse_glop(&grandchild.to_string()).unwrap());
        }
        positions.push(p);
    }
    assert!(positions.len() > 20);
    for p in &positions {
        let a = free.nimber(p, &Limits::none()).value;
        let b = tight.nimber(p, &Limits::none()).value;
        assert!(a.is_some());
        assert_eq!(a, b, "{p:?}");
        for heap in 0..3 {
            let a = free.couple_outcome(p, Nimber(heap), &Limits::none()).value;
            let b = tight.couple_outcome(p, Nimber(heap), &Limits::none()).value;
            assert_eq!(a, b, "{p:?} + *{heap}");
        }
    }
    assert!(tight.stats().facts_evicted > 0);
}

#[test]
fn within_memory_bounds_every_table() {
    let c = SolverConfig::default().within_memory(64 << 20);
    assert_eq!(c.fact_table_bytes, Some(32 << 20));
    assert_eq!(c.child_cache_bytes, 24 << 20);
    assert_eq!(c.number_table_bytes, 8 << 20);
    let tiny = SolverConfig::default().within_memory(1);
    assert_eq!(tiny.fact_table_bytes, Some(SolverConfig::MIN_MEMORY / 2));
}
