//! Helpers shared by the solver's integration tests: the published outcomes and nimbers of the
//! n-spot starts (`data/n-spot-normal.tsv`, sources in its header), and a one-thread solver.

use sprouts_ai::impartial::{Nimber, Outcome};
use sprouts_ai::solver::{Solver, SolverConfig};

/// `(n, outcome, nimber)` rows of the oracle file.
pub(crate) fn oracle() -> Vec<(u32, Outcome, Nimber)> {
    include_str!("../data/n-spot-normal.tsv")
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

/// A one-thread solver with the default tables (no memory budget).
pub(crate) fn one_thread() -> Solver {
    Solver::new(SolverConfig {
        threads: 1,
        ..SolverConfig::default()
    })
    .expect("the solver starts")
}
