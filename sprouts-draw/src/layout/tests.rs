//! Tests of the fresh layout.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_topo::Position;

use super::*;
use crate::{Board, WorldSize};

fn world() -> WorldSize {
    WorldSize::new(2560.0, 1383.0)
}

fn quick() -> FreshOptions {
    FreshOptions {
        iterations: 120,
        ..FreshOptions::default()
    }
}

#[test]
fn every_move_from_two_spots_drawn_fresh() {
    let board = Board::new(2, world(), Settings::default()).unwrap();
    let pos = board.position().clone();
    for mv in pos.moves() {
        let mut b = board.clone();
        let before = b.drawing().clone();
        let drawn = b.draw_move_fresh(&mv, &quick());
        let drawn = drawn.unwrap_or_else(|e| panic!("{}: {}", mv.describe(&pos), e.detail()));
        assert_eq!(
            b.position().game_key(),
            pos.play(&mv).unwrap().game_key(),
            "{}",
            drawn.words
        );
        assert!(b.can_undo());
        b.undo();
        assert_eq!(b.drawing(), &before);
    }
}

#[test]
fn random_games_drawn_fresh_to_the_end() {
    for (n, seed) in [(3u32, 1u64), (5, 2), (8, 3)] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut b = Board::new(n, world(), Settings::default()).unwrap();
        let mut moves = 0;
        while !b.position().is_over() {
            let pos = b.position().clone();
            let all: Vec<_> = pos.moves().collect();
            let mv = &all[rng.random_range(0..all.len())];
            let t = std::time::Instant::now();
            let r = b.draw_move_fresh(mv, &quick()).unwrap_or_else(|e| {
                panic!(
                    "{n} spots, move {moves} {}: {}",
                    mv.describe(&pos),
                    e.detail()
                )
            });
            eprintln!("{n} spots move {moves}: {:?} {:?}", t.elapsed(), r.report);
            moves += 1;
            let r = b.redraw_fresh(&quick());
            r.unwrap_or_else(|e| panic!("{n} spots, redraw after {moves}: {e}"));
        }
        let _ = Position::new(n);
    }
}
