//! The solver against published outcomes and nimbers of n-spot starts (`data/n-spot-normal.tsv`,
//! sources in its header).

use std::time::Instant;

use sprouts_ai::Limits;
use sprouts_topo::Position;

mod common;

use common::{one_thread, oracle};

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
