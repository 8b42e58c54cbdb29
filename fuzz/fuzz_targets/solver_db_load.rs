//! Arbitrary bytes into the solver's database loader: it never panics, a file it refuses adds
//! nothing, and a file it accepts saves back to bytes that load to the same table.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sprouts_ai::solver::{Solver, SolverConfig};

fuzz_target!(|data: &[u8]| {
    let config = SolverConfig {
        threads: 1,
        child_cache_bytes: 0,
        ..SolverConfig::default()
    };
    let solver = Solver::new(config.clone()).expect("the solver starts");
    match solver.load(data) {
        Err(_) => assert_eq!(solver.table_len(), 0),
        Ok(_) => {
            let mut saved = Vec::new();
            solver.save(&mut saved).expect("saving to memory works");
            let again = Solver::new(config).expect("the solver starts");
            again.load(saved.as_slice()).expect("a saved table loads");
            let mut resaved = Vec::new();
            again.save(&mut resaved).expect("saving to memory works");
            assert_eq!(saved, resaved);
        }
    }
});
