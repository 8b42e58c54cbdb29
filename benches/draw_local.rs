//! M, room made locally (spec 4.3, 4.4): `Board::slide_spots` (every spot that can move slid
//! or moved to more room) and `Board::push_curves` (the curves near a ghost pushed apart) on
//! an 8-spot picture and an 11-spot game in the middle (moves chosen at random with a fixed
//! seed, each drawn by the router without M), asserted then timed.

use std::sync::atomic::AtomicBool;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sprouts_draw::{Board, LadderOptions, RelaxOptions, Settings, WorldSize};
use sprouts_geom::{Point, Vector};

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

/// A ghost the push accepts: beside one of the picture's curves, a few pixels off it (the
/// first of the longest curves, on either side, that is pushed).
fn a_ghost(board: &Board) -> Vec<Point> {
    let stop = AtomicBool::new(false);
    let mut curves: Vec<_> = board.drawing().curves().iter().collect();
    curves.sort_by(|a, b| b.spline.param_length().total_cmp(&a.spline.param_length()));
    for c in curves {
        for side in [3.0, -3.0] {
            let ghost: Vec<Point> = (0..=60)
                .map(|k| {
                    let u = c.spline.param_length() * f64::from(k) / 60.0;
                    let t = c.spline.deriv(c.spline.locate(u));
                    let n = Vector::new(-t.y, t.x) / t.norm().max(1e-12);
                    c.spline.eval_global(u) + side * n
                })
                .collect();
            if board
                .clone()
                .push_curves(&ghost, &RelaxOptions::default(), &stop)
                .is_ok()
            {
                return ghost;
            }
        }
    }
    panic!("no curve of the picture can be pushed from beside it");
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("draw");
    group.sample_size(10);
    let stop = AtomicBool::new(false);
    for (n, moves, w, h) in [(8u32, 12usize, 900.0, 600.0), (11, 16, 2560.0, 1383.0)] {
        let board = mid_game(n, moves, w, h);
        let key = board.position().game_key();
        group.bench_function(format!("slide_{n}_spots_{moves}_moves"), |b| {
            b.iter_batched(
                || board.clone(),
                |mut board| {
                    let r = board.slide_spots(None).expect("a spot gains room");
                    assert_eq!(board.position().game_key(), key);
                    assert!(!r.moved.is_empty());
                    board
                },
                BatchSize::LargeInput,
            )
        });
        let ghost = a_ghost(&board);
        group.bench_function(format!("push_{n}_spots_{moves}_moves"), |b| {
            b.iter_batched(
                || board.clone(),
                |mut board| {
                    let r = board
                        .push_curves(&ghost, &RelaxOptions::default(), &stop)
                        .expect("pushed");
                    assert_eq!(board.position().game_key(), key);
                    assert!(!r.curves.is_empty());
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
