//! Loops round many seeds on an open board: a marked route round 8 and 12 seeds of an empty
//! 20-seed board, and round 20 seeds of an empty 30-seed board, is found and reads back to the
//! intended position.
//!
//! These are the targets of the marked routes for loops, ignored while the router refuses such
//! loops (neither the barrier trees round a seed's wall nor the parity search, which is limited
//! to seven rays, finds a route that sorts the seeds): `cargo test -p sprouts-draw --test route_loops --
//! --ignored --nocapture` prints the time each takes. The bench `draw_loops` times them.

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
#[ignore = "the router refuses a loop round 8 or more seeds of an open board"]
fn a_loop_round_12_seeds_is_drawn() {
    let s = draw_loop(20, 12);
    eprintln!("loop round 12 seeds: {s:.2} s");
}

#[test]
#[ignore = "the router refuses a loop round 8 or more seeds of an open board"]
fn loops_round_8_and_20_seeds_are_drawn() {
    for (seeds, k) in [(20, 8), (30, 20)] {
        let s = draw_loop(seeds, k);
        eprintln!("loop round {k} seeds: {s:.2} s");
    }
}
