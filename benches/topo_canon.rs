//! Canonical forms of positions from a 12-spot game (after 10, 20 and 30 moves), asserted then
//! timed: through `Position::canonical` (thread-local scratch, a new `String` per form) and
//! through a reused `Canonicalizer` writing into a reused `String` (the solver's way), with and
//! without its memory of small lands.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sprouts_topo::canon::{Canonicalizer, DEFAULT_BUDGET};
use sprouts_topo::{Position, Reductions};

#[path = "topo_common.rs"]
mod topo_common;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("topo_canon");
    group.throughput(Throughput::Elements(1));
    for case in &topo_common::CASES {
        let pos = topo_common::checked(case);
        let mut canonicalizer = Canonicalizer::new();
        let mut out = String::new();
        assert!(canonicalizer.canonical_into(&pos, Reductions::Glop, DEFAULT_BUDGET, &mut out));
        assert_eq!(out, case.canonical);
        group.bench_function(format!("canonical/{}", case.name), |b| {
            b.iter(|| pos.canonical())
        });
        group.bench_function(format!("canonical_into/{}", case.name), |b| {
            b.iter(|| {
                canonicalizer.canonical_into(&pos, Reductions::Glop, DEFAULT_BUDGET, &mut out)
            })
        });
        // Every land canonicalised every time (no memory of small lands): the cost of a land
        // met for the first time.
        let mut cold = Canonicalizer::new();
        cold.remember_small_lands(false);
        group.bench_function(format!("canonical_into_cold/{}", case.name), |b| {
            b.iter(|| cold.canonical_into(&pos, Reductions::Glop, DEFAULT_BUDGET, &mut out))
        });
        group.bench_function(format!("unreduced/{}", case.name), |b| {
            b.iter(|| {
                canonicalizer.canonical_into(&pos, Reductions::Plain, DEFAULT_BUDGET, &mut out)
            })
        });
        let reduced = Position::parse_glop(case.canonical).expect("forms read back");
        group.bench_function(format!("canonical_of_form/{}", case.name), |b| {
            b.iter(|| {
                canonicalizer.canonical_into(&reduced, Reductions::Glop, DEFAULT_BUDGET, &mut out)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
