//! A and R, the whole picture relaxed (spec 4.5): `Board::relax` on a crowded 8-spot picture
//! and an 11-spot game in the middle (moves chosen at random with a fixed seed, each drawn by
//! the router, or afresh where it refuses), asserted then timed.

use std::sync::atomic::AtomicBool;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sprouts_draw::{
    Board, FreshOptions, LadderOptions, RelaxMode, RelaxOptions, Settings, WorldSize,
};

#[path = "draw_common.rs"]
mod draw_common;

use draw_common::play_random_moves;

/// A game of `n` seeds after `moves` random moves (fixed seed) in a `w` by `h` world.
fn mid_game(n: u32, moves: usize, w: f64, h: f64) -> Board {
    let mut board =
        Board::new(n, WorldSize::new(w, h), Settings::default()).expect("the seeds fit");
    let stop = AtomicBool::new(false);
    let ladder = LadderOptions {
        equivalents: false,
        local: false,
        rearrange: false,
        fresh_options: FreshOptions::default(),
        ..LadderOptions::default()
    };
    play_random_moves(&mut board, n, moves, |board, mv| {
        board
            .draw_computer_move(mv, &ladder, &stop, &mut |_| {})
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    board
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw");
    group.sample_size(10);
    let stop = AtomicBool::new(false);
    for (n, moves, w, h) in [(8u32, 12usize, 900.0, 600.0), (11, 16, 2560.0, 1383.0)] {
        let board = mid_game(n, moves, w, h);
        let key = board.position().game_key();
        for mode in [RelaxMode::Adjust, RelaxMode::Rearrange] {
            let name = format!("relax_{}_{n}_spots_{moves}_moves", mode.label());
            group.bench_function(name, |b| {
                b.iter_batched(
                    || board.clone(),
                    |mut board| {
                        let r = board.relax(mode, &RelaxOptions::default(), &stop).unwrap();
                        assert_eq!(board.position().game_key(), key);
                        assert!(r.energy.1 < r.energy.0);
                        board
                    },
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
