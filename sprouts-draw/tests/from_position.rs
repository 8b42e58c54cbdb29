//! A custom start drawn from its position alone (`Board::from_position`): every position
//! reached from small starts is drawn and reads back as the same position (the board's
//! authority check, and `same_position_as` here again); positions that are games but not
//! pictures are refused with the rule they break.

use std::collections::HashSet;

use sprouts_draw::{Board, BoardError, FreshOptions, Settings, WorldSize};
use sprouts_topo::Position;

fn draw(pos: &Position) -> Result<Board, BoardError> {
    Board::from_position(
        pos,
        WorldSize::new(800.0, 600.0),
        Settings::default(),
        &FreshOptions::default(),
    )
}

fn assert_drawn(pos: &Position) {
    let board = draw(pos).unwrap_or_else(|e| panic!("{} not drawn: {e}", pos.to_glop()));
    assert!(
        board.position().same_position_as(pos),
        "{} read back as {}",
        pos.to_glop(),
        board.position().to_glop()
    );
    assert_eq!(board.start(), pos);
    assert!(board.moves().is_empty());
    assert!(!board.can_undo());
}

/// Every position reachable from 1 and 2 spots, and from 3 spots up to three moves (up to
/// the game key: one of each), is drawn.
#[test]
fn every_small_position_is_drawn() {
    let mut drawn = 0;
    for (n, depth) in [(1u32, 3usize), (2, 6), (3, 3)] {
        let mut seen = HashSet::new();
        let mut layer = vec![Position::new(n)];
        for _ in 0..=depth {
            let mut next = Vec::new();
            for pos in layer {
                if !seen.insert(pos.game_key()) {
                    continue;
                }
                assert_drawn(&pos);
                drawn += 1;
                for mv in pos.moves() {
                    next.push(pos.play(&mv).expect("a legal move"));
                }
            }
            layer = next;
        }
    }
    assert!(drawn > 100, "only {drawn} positions");
}

/// Positions deep in random games from 4 to 8 spots are drawn (many loops, nesting, dead
/// spots met three times).
#[test]
fn positions_of_random_games_are_drawn() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for n in 4..=8u32 {
        for game in 0..4 {
            let mut pos = Position::new(n);
            let stop = 2 + (game * 5) % (3 * n as usize);
            for _ in 0..stop {
                let moves: Vec<_> = pos.moves().collect();
                if moves.is_empty() {
                    break;
                }
                state = sprouts_ai_free_mix(state);
                pos = pos
                    .play(&moves[(state % moves.len() as u64) as usize])
                    .expect("a legal move");
            }
            assert_drawn(&pos);
        }
    }
}

/// A tiny mixer for the test's choices (splitmix64).
fn sprouts_ai_free_mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// GLOP's reduced positions (a 1-life spot met once, stumps written apart) are games but not
/// pictures: refused, saying which rule they break.
#[test]
fn reduced_positions_are_refused_with_the_reason() {
    for text in ["0.2", "1a3a", "AB|3AB"] {
        let Ok(pos) = Position::parse_glop(text) else {
            continue;
        };
        let err = draw(&pos).expect_err(text);
        assert!(matches!(err, BoardError::Layout(_)), "{text}: {err}");
        assert!(err.to_string().contains("cannot be drawn"), "{text}: {err}");
    }
    let pos = Position::parse_glop("0.2").expect("GLOP reads it");
    assert!(draw(&pos).is_err());
}
