//! Loops round many seeds on an open board: a marked route round 8 and 12 seeds of an empty
//! 20-seed board, and round 20 seeds of an empty 30-seed board, is found and reads back to the
//! intended position.
//!
//! A loop at a seed is found by the barrier trees (a wall from the seed and one behind it, the
//! inside tree joined to the first and the outside tree to the second), with no `2^k` search:
//! `cargo test -p sprouts-draw --test route_loops -- --nocapture` prints the time each takes.
//! The bench `draw_loops` times them.

use std::time::Instant;

use sprouts_draw::{Board, Settings, WorldSize};
use sprouts_topo::Move;

/// A loop at seed 1 of an empty board of `seeds` seeds enclosing `k` of the others.
fn loop_round(board: &Board, k: usize) -> Move {
    let pos = board.position();
    pos.moves()
        .into_iter()
        .find(|m| {
            let (a, b) = m.spots();
            a == b && a.get() == 1 && m.enclosed_spots(pos).len() == k
        })
        .unwrap_or_else(|| panic!("no loop at 1 round {k} seeds"))
}

/// Draws the loop at seed 1 round `k` seeds of an empty board of `seeds` seeds and checks the
/// position read back is the intended one; returns the seconds it took.
fn draw_loop(seeds: u32, k: usize) -> f64 {
    let world = WorldSize::new(2560.0, 1383.0);
    let mut board = Board::new(seeds, world, Settings::default()).unwrap();
    let mv = loop_round(&board, k);
    let intended = board.position().play(&mv).unwrap();
    let t = Instant::now();
    let drawn = board.draw_move(&mv, &mut |_| {});
    let seconds = t.elapsed().as_secs_f64();
    match drawn {
        Ok(_) => {
            let got = board.position();
            assert!(
                got.game_key() == intended.game_key()
                    || got.canonical_unreduced() == intended.canonical_unreduced(),
                "the loop round {k} seeds read back to {} instead of {}",
                got.to_glop(),
                intended.to_glop()
            );
        }
        Err(e) => panic!(
            "the loop round {k} seeds was refused after {seconds:.1} s: {e}; {}",
            e.detail()
        ),
    }
    seconds
}

#[test]
fn a_loop_round_12_seeds_is_drawn() {
    let s = draw_loop(20, 12);
    eprintln!("loop round 12 seeds: {s:.2} s");
}

#[test]
fn loops_round_8_and_20_seeds_are_drawn() {
    for (seeds, k) in [(20, 8), (30, 20)] {
        let s = draw_loop(seeds, k);
        eprintln!("loop round {k} seeds: {s:.2} s");
    }
}
