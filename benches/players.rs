//! The players' inner loops, each beside its reference: random games to the end from a 30-spot
//! start (Monte Carlo's work), the bounds of the positions one ply above parity search's leaves,
//! and one depth-2 parity move on a 30-spot middle game (one thread).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_ai::Limits;
use sprouts_ai::bounds::{BoundsScratch, bounds_reference};
use sprouts_ai::impartial::Convention;
use sprouts_ai::players::{
    ParityConfig, ParitySearch, Player, playout, playout_reference, random_move,
};
use sprouts_topo::Position;

/// The position after `moves` seeded random moves from an `n`-spot start.
fn after(n: u32, moves: u32, seed: u64) -> Position {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut p = Position::new(n);
    for _ in 0..moves {
        let mv = random_move(&p, &mut rng).expect("a move");
        p = p.play(&mv).expect("a legal move");
    }
    p
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("players");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    let start = Position::new(30);
    for (name, f) in [
        (
            "playout/30",
            playout as fn(&Position, &mut Xoshiro256PlusPlus) -> u32,
        ),
        ("playout_reference/30", playout_reference),
    ] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        group.bench_function(name, |b| b.iter(|| f(&start, &mut rng)));
    }
    // The children of a 30-spot middle game, as the last ply of parity search takes them.
    let mid = after(30, 20, 1);
    let children: Vec<Position> = mid
        .distinct_moves()
        .take(500)
        .map(|mv| mid.play(&mv).expect("a legal move"))
        .collect();
    let mut scratch = BoundsScratch::new();
    for ch in &children {
        assert_eq!(scratch.bounds_with(ch, Some(true)), bounds_reference(ch));
    }
    group.throughput(Throughput::Elements(children.len() as u64));
    group.bench_function("bounds/30-after-20-children", |b| {
        b.iter(|| {
            children
                .iter()
                .map(|ch| scratch.bounds_with(ch, Some(true)).upper)
                .sum::<u32>()
        })
    });
    group.bench_function("bounds_reference/30-after-20-children", |b| {
        b.iter(|| {
            children
                .iter()
                .map(|ch| bounds_reference(ch).upper)
                .sum::<u32>()
        })
    });
    group.throughput(Throughput::Elements(1));
    let pos = after(30, 8, 1);
    group.bench_function("parity-fast-depth2/30-after-8", |b| {
        b.iter(|| {
            // A fresh player each time: no tables carried over, no tie-break games.
            let config = ParityConfig {
                depth: Some(2),
                threads: 1,
                tie_games: 0,
                ..ParityConfig::default()
            };
            let mut p = ParitySearch::new(config, 1);
            p.choose(&pos, Convention::Normal, &Limits::none())
                .expect("a move")
                .report
                .depth
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
