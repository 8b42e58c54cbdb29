//! The solver against published outcomes and nimbers of n-spot starts (`data/n-spot-normal.tsv`,
//! sources in its header).

use std::time::Instant;

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
            (
                f[0].parse().unwrap(),
                outcome,
                Nimber(f[2].parse().unwrap()),
            )
        })
        .collect()
}

fn one_thread() -> Solver {
    Solver::new(SolverConfig {
        threads: 1,
        ..SolverConfig::default()
    })
    .expect("the solver starts")
}

fn check(max_n: u32, min_n: u32, nimbers: bool) {
    let rows = oracle();
    assert!(rows.len() >= 13, "the oracle has n = 0..12");
    for (n, outcome, nimber) in rows {
        if n < min_n || n > max_n {
            continue;
        }
        let solver = one_thread();
        let start = Instant::now();
        let got = solver.outcome(&Position::new(n), &Limits::none());
        assert_eq!(got.value, Some(outcome), "outcome of {n} spots");
        eprintln!(
            "{n} spots: {outcome:?}, {} nodes, {:.2} s",
            got.nodes,
            start.elapsed().as_secs_f64()
        );
        if nimbers {
            let got = solver.nimber(&Position::new(n), &Limits::none());
            assert_eq!(got.value, Some(nimber), "nimber of {n} spots");
        }
    }
}

#[test]
fn n_spot_outcomes_and_nimbers_up_to_9() {
    check(9, 0, true);
}

#[test]
#[ignore = "minutes: cargo test --release -p sprouts-ai --test solver_oracle -- --ignored"]
fn n_spot_outcomes_and_nimbers_10_to_12() {
    check(12, 10, true);
}
