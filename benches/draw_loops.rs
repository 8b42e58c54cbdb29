//! A loop round many seeds on an open board (`Board::draw_move` of a marked move: plan, barrier
//! trees or parity search, band, fit, certificate and the authority check): a loop at seed 1
//! round 8 and 12 seeds of an empty 20-seed board and round 20 seeds of an empty 30-seed board,
//! on a 2560 x 1383 world, no making room: `draw_loops/SEEDS/K`. A refused loop is timed too
//! (the time to give up is what a player waits).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sprouts_draw::{Board, Settings, WorldSize};
use sprouts_topo::Move;

/// The empty board of `seeds` seeds and a loop at seed 1 round `k` of the others.
fn board_and_loop(seeds: u32, k: usize) -> (Board, Move) {
    let board =
        Board::new(seeds, WorldSize::new(2560.0, 1383.0), Settings::default()).expect("the start");
    let pos = board.position();
    let mv = pos
        .moves()
        .find(|m| {
            let (a, b) = m.spots();
            a == b && a.get() == 1 && m.enclosed_spots(pos).len() == k
        })
        .expect("a loop round k seeds");
    (board, mv)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw_loops");
    group.sample_size(10);
    for (seeds, k) in [(20, 8), (20, 12), (30, 20)] {
        let (board, mv) = board_and_loop(seeds, k);
        group.bench_function(format!("{seeds}/{k}"), |b| {
            b.iter_batched(
                || board.clone(),
                |mut board| board.draw_move(&mv, &mut |_| {}).is_ok(),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
