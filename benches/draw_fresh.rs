//! Z, the picture drawn afresh (spec 4.6): `Board::redraw_fresh` on 11- and 20-spot games in
//! the middle (moves chosen at random with a fixed seed, each drawn afresh), asserted then
//! timed.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sprouts_draw::{Board, FreshOptions, Settings, WorldSize};

/// A game of `n` seeds after `moves` random moves (fixed seed), every move drawn afresh.
fn mid_game(n: u32, moves: usize) -> Board {
    let mut board =
        Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default()).expect("the seeds fit");
    // A small linear congruential generator: the bench needs no rand dependency.
    let mut s: u64 = 0x5eed ^ u64::from(n);
    for k in 0..moves {
        let pos = board.position().clone();
        let all: Vec<_> = pos.moves().take(4096).collect();
        assert!(!all.is_empty(), "the game lasts {moves} moves");
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = &all[((s >> 33) as usize) % all.len()];
        board
            .draw_move_fresh(mv, &FreshOptions::default())
            .unwrap_or_else(|e| panic!("move {k}: {}", e.detail()));
    }
    board
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw");
    group.sample_size(10);
    for (n, moves) in [(11u32, 16usize), (20, 30)] {
        let board = mid_game(n, moves);
        assert_eq!(board.drawing().curves().len(), 2 * moves);
        assert_eq!(board.drawing().spots().len(), n as usize + moves);
        let key = board.position().game_key();
        group.bench_function(format!("redraw_fresh_{n}_spots_{moves}_moves"), |b| {
            b.iter_batched(
                || board.clone(),
                |mut board| {
                    board.redraw_fresh(&FreshOptions::default()).unwrap();
                    assert_eq!(board.position().game_key(), key);
                    board
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
