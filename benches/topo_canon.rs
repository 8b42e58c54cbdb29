//! Canonical forms of positions from a 12-spot game (after 10, 20 and 30 moves), asserted then
//! timed: through `Position::canonical` (thread-local scratch, a new `String` per form) and
//! through a reused `Canonicalizer` writing into a reused `String` (the solver's way), with and
//! without its memory of small lands. Timing one position again and again flatters the memory
//! (every land is a hit after the first time), so `topo_canon_set` times passes over 2,000
//! distinct mid-game positions (random 12-spot games after 9 to 25 moves, the `canon_profile`
//! example's set), with the memory and without it (`cold`: every land canonised every time).
//! Those passes repeat, so the memory has seen every land after the first one:
//! `mid_game_20000_fresh` times one pass over 20,000 distinct positions through a new
//! canonicalizer, which is what a solver meets.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
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

/// `count` positions from random 12-spot games (every move equally likely, seeded), after 9 to
/// 25 moves: the `canon_profile` example's mid-game set.
fn mid_game_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut p = Position::new(12);
        for depth in 0..25 {
            let moves: Vec<_> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            p = p
                .play(&moves[rng.random_range(0..moves.len())])
                .expect("legal");
            if depth >= 8 && out.len() < count {
                out.push(p.clone());
            }
        }
    }
    out
}

fn bench_set(c: &mut Criterion) {
    let positions = mid_game_positions(2000, 7);
    let mut group = c.benchmark_group("topo_canon_set");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for (name, remember) in [("mid_game_2000", true), ("mid_game_2000_cold", false)] {
        let mut canonicalizer = Canonicalizer::new();
        canonicalizer.remember_small_lands(remember);
        let mut out = String::new();
        for p in &positions {
            assert!(canonicalizer.canonical_into(p, Reductions::Glop, DEFAULT_BUDGET, &mut out));
            assert_eq!(out, p.canonical().as_str());
        }
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut bytes = 0;
                for p in &positions {
                    canonicalizer.canonical_into(p, Reductions::Glop, DEFAULT_BUDGET, &mut out);
                    bytes += out.len();
                }
                bytes
            })
        });
    }
    // What a solver meets: positions it has not seen, through a canonicalizer that has seen
    // none of them (each iteration starts a new one), every position once.
    let fresh = mid_game_positions(20_000, 7);
    group.throughput(Throughput::Elements(fresh.len() as u64));
    group.bench_function("mid_game_20000_fresh", |b| {
        b.iter(|| {
            let mut canonicalizer = Canonicalizer::new();
            let mut out = String::new();
            let mut bytes = 0;
            for p in &fresh {
                canonicalizer.canonical_into(p, Reductions::Glop, DEFAULT_BUDGET, &mut out);
                bytes += out.len();
            }
            bytes
        })
    });
    // The same through `canonical_each`, which asks for the memory of the position two ahead.
    group.bench_function("mid_game_20000_fresh_each", |b| {
        b.iter(|| {
            let mut canonicalizer = Canonicalizer::new();
            let mut bytes = 0;
            canonicalizer.canonical_each(&fresh, Reductions::Glop, DEFAULT_BUDGET, |_, form, _| {
                bytes += form.len();
            });
            bytes
        })
    });
    group.finish();
}

criterion_group!(benches, bench, bench_set);
criterion_main!(benches);
