//! Z, the picture drawn afresh (spec 4.6): `Board::redraw_fresh` on 11- and 20-spot games in
//! the middle (moves chosen at random with a fixed seed, each drawn afresh), asserted then
//! timed.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sprouts_draw::{Board, FreshOptions, Settings, WorldSize};

#[path = "draw_common.rs"]
mod draw_common;

use draw_common::play_random_moves;

/// A game of `n` seeds after `moves` random moves (fixed seed), every move drawn afresh.
fn mid_game(n: u32, moves: usize) -> Board {
    let mut board =
        Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default()).expect("the seeds fit");
    play_random_moves(&mut board, n, moves, |board, mv| {
        board
            .draw_move_fresh(mv, &FreshOptions::default())
            .map(|_| ())
            .map_err(|e| e.detail())
    });
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
