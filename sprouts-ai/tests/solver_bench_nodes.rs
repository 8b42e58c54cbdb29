//! The bench positions' total node count with one thread: a change in the search's behaviour
//! (ordering, estimates, thresholds, tables) changes it, and then this number must be updated
//! on purpose, with the timings in docs/performance.md ("Solver").

use sprouts_ai::solver::run_bench_cases;

/// The total node count of `BENCH_CASES` (one thread, fresh solver per case).
const EXPECTED_NODES: u64 = 18_291;

#[test]
fn bench_positions_total_node_count() {
    let report = run_bench_cases().expect("the bench positions are answered correctly");
    eprintln!(
        "bench positions: {} nodes, {:.2} s",
        report.nodes, report.seconds
    );
    assert_eq!(
        report.nodes, EXPECTED_NODES,
        "total nodes of the bench positions"
    );
}
