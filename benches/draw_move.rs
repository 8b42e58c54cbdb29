//! Drawing a computer move (`Board::draw_move`: plan, marked route, band, fit, certificate and
//! the authority check) in 11- and 20-spot games on a 2560 x 1383 world, no making room.
//!
//! Each game is played by drawing moves chosen from the legal ones that enclose at most one
//! boundary (the kind of move a computer player makes; a uniformly random move of many seeds
//! is a loop round half of them), with a fixed pseudo-random choice; a refused move is skipped
//! for the next candidate. Every sixth drawn move of the first moves is kept and timed alone,
//! on a fresh copy of the board before it: `draw_move/N/k`. The median and 95th percentile
//! over moves are read off the per-move estimates.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sprouts_draw::{Board, Settings, WorldSize};
use sprouts_topo::Move;

/// A fixed xorshift for the choice of moves (no dependency for it).
struct Choice(u64);

impl Choice {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The boards and moves to time: up to `keep` drawn moves of an `n`-spot game.
fn moves_of_a_game(n: u32, keep: usize, seed: u64) -> Vec<(Board, Move)> {
    let mut board =
        Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default()).expect("the start");
    let mut choice = Choice(seed);
    let mut out = Vec::new();
    let mut drawn = 0;
    while out.len() < keep {
        let pos = board.position().clone();
        let mut moves: Vec<Move> = pos.moves().filter(|m| m.side_a().len() <= 1).collect();
        if moves.is_empty() {
            break;
        }
        let mut done = false;
        while !moves.is_empty() {
            let mv = moves.swap_remove(choice.next(moves.len()));
            let before = board.clone();
            if board.draw_move(&mv, &mut |_| {}).is_ok() {
                if drawn % 6 == 0 {
                    out.push((before, mv));
                }
                drawn += 1;
                done = true;
                break;
            }
        }
        if !done {
            break;
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw_move");
    group.sample_size(10);
    for (n, keep) in [(11u32, 6usize), (20, 6)] {
        let cases = moves_of_a_game(n, keep, 0x5eed + u64::from(n));
        assert!(!cases.is_empty(), "no move of the {n}-spot game was drawn");
        for (k, (board, mv)) in cases.iter().enumerate() {
            // The move is drawn and reads back to the intended position.
            let intended = board.position().play(mv).expect("a legal move");
            let mut b = board.clone();
            b.draw_move(mv, &mut |_| {})
                .expect("drawn while choosing it");
            assert!(
                b.position().game_key() == intended.game_key()
                    || b.position().canonical_unreduced() == intended.canonical_unreduced()
            );
            group.bench_function(format!("{n}/{k}"), |bch| {
                bch.iter_batched(
                    || board.clone(),
                    |mut b| b.draw_move(mv, &mut |_| {}).map(|d| d.clearance),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
