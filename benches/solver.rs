//! The normal-play solver on its fixed bench positions (`sprouts_ai::solver::BENCH_CASES`): the
//! total node count with one thread is printed and asserted before timing (the same number as
//! the `solver_bench_nodes` test), then a few cases are timed, each by a fresh one-thread solver.
//! The misère solver on a few n-spot starts, each by a fresh solver with the default settings
//! (its node counts are deterministic too, and checked before timing).

use criterion::{Criterion, criterion_group, criterion_main};
use sprouts_ai::Limits;
use sprouts_ai::impartial::Outcome;
use sprouts_ai::misere_play::MisereSproutsSolver;
use sprouts_ai::solver::{Solver, SolverConfig, run_bench_cases};
use sprouts_topo::Position;

/// The total node count of the bench positions (kept equal to the `solver_bench_nodes` test's).
const EXPECTED_NODES: u64 = 18_291;

fn bench(c: &mut Criterion) {
    let report = run_bench_cases().expect("the bench positions are answered correctly");
    println!(
        "solver bench positions: {} nodes in {:.2} s (one thread)",
        report.nodes, report.seconds
    );
    assert_eq!(
        report.nodes, EXPECTED_NODES,
        "total nodes of the bench positions"
    );
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    for glop in ["0*7", "0*9", "0*4.1Aab1baBCD|ADCB+122"] {
        let pos = Position::parse_glop(glop).expect("bench positions parse");
        group.bench_function(format!("outcome/{glop}"), |b| {
            b.iter(|| {
                let solver = Solver::new(SolverConfig {
                    threads: 1,
                    ..SolverConfig::default()
                })
                .expect("the solver starts");
                solver.outcome(&pos, &Limits::none()).value
            })
        });
    }
    group.finish();
}

fn misere(c: &mut Criterion) {
    let mut group = c.benchmark_group("misere");
    group.sample_size(10);
    // OEIS A164950: 9 spots lost, 11 won for the player to move.
    for (n, want) in [(9, Outcome::Loss), (11, Outcome::Win)] {
        let pos = Position::new(n);
        let first = MisereSproutsSolver::new().outcome(&pos, &Limits::none());
        assert_eq!(first.value, Some(want), "{n} spots");
        println!("misère {n} spots: {} nodes (fresh solver)", first.nodes);
        group.bench_function(format!("outcome/{n} spots"), |b| {
            b.iter(|| {
                MisereSproutsSolver::new()
                    .outcome(&pos, &Limits::none())
                    .value
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench, misere);
criterion_main!(benches);
