//! Random legal games drawn by the grid drawer: every move's picture reads back to the position
//! `sprouts-topo` computes (the board's authority check refuses anything else).

use proptest::prelude::*;
use sprouts_draw::testing::GridDrawer;
use sprouts_draw::{Board, Settings, analyse};

/// Plays up to `max_moves` random moves; returns the board and the moves' words.
fn play_random(n: u32, max_moves: usize, seed: u64) -> (Board, Vec<String>, usize) {
    let mut drawer = GridDrawer::new(60, 45, 8.0, seed);
    let settings = Settings {
        spot_radius: 2.0,
        ..Settings::default()
    };
    let mut board = drawer.new_board(n, settings).expect("seeds fit");
    let mut words = Vec::new();
    let mut ambiguous = 0;
    for _ in 0..max_moves {
        match drawer.random_move(&mut board, 60) {
            Ok(Some(m)) => {
                if m.candidates > 1 {
                    ambiguous += 1;
                }
                words.push(m.words);
                board
                    .position()
                    .check_invariants()
                    .expect("a valid position");
            }
            Ok(None) => break,
            Err(refused) => {
                if let Ok(a) = analyse(&refused.drawing) {
                    let svg = sprouts_draw::svg::drawing_svg(
                        &refused.drawing,
                        &a,
                        &sprouts_draw::svg::SvgOptions {
                            labels: true,
                            shade_regions: true,
                        },
                    );
                    std::fs::write("/tmp/refused.svg", &svg).unwrap();
                    std::fs::write(
                        "/tmp/refused.png",
                        sprouts_draw::svg::svg_to_png(&svg, 2.0).unwrap(),
                    )
                    .unwrap();
                }
                panic!(
                    "seed {seed}, after {words:?}: the board refused {:?}: {}",
                    refused.moves, refused.reason
                )
            }
        }
    }
    (board, words, ambiguous)
}

#[test]
fn smoke() {
    let (board, words, _) = play_random(3, 8, 1);
    assert!(!words.is_empty(), "some move drawn");
    let again = analyse(board.drawing()).unwrap();
    assert_eq!(again.position().game_key(), board.position().game_key());
}

#[test]
fn many_seeds_tmp() {
    let mut total = 0;
    let mut amb = 0;
    for seed in 0..3000 {
        let n = 1 + (seed % 8) as u32;
        let (_, words, a) = play_random(n, 3 * n as usize, seed);
        total += words.len();
        amb += a;
    }
    eprintln!("moves {total}, ambiguous {amb}");
}
