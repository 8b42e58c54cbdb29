//! Tests of the fresh layout: the map surgery against `sprouts-topo`, every position of small
//! games drawn afresh, random games drawn afresh to the end.

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_topo::{GameKey, Position};

use super::*;
use crate::{Board, WorldSize};

fn world() -> WorldSize {
    WorldSize::new(2560.0, 1383.0)
}

/// A quick layout: less spreading, one layout, no descent (the tests of the descent and the
/// choice among layouts are at the end).
fn quick() -> FreshOptions {
    FreshOptions {
        iterations: 80,
        descent: false,
        layouts: 1,
        ..FreshOptions::default()
    }
}

/// Every move of every position reachable from `n` seeds, performed on the map: the map after
/// the move reads back to the child `sprouts-topo` makes (positions at most `depth` moves
/// deep). Returns the positions visited.
fn map_surgery_exhaustive(n: u32, depth: usize) -> usize {
    let board = Board::new(n, world(), Settings::default()).unwrap();
    let map = map_of(board.drawing(), board.analysis());
    let mut seen: HashSet<GameKey> = HashSet::new();
    let mut stack = vec![(map, 0)];
    while let Some((m, d)) = stack.pop() {
        let pos = m.position().unwrap();
        if !seen.insert(pos.game_key()) || d > depth {
            continue;
        }
        for mv in pos.moves() {
            let child = m
                .with_move(&mv)
                .unwrap_or_else(|e| panic!("{pos}: {}: {e}", mv.describe(&pos)));
            let got = child.position().unwrap();
            assert_eq!(
                got.game_key(),
                pos.play(&mv).unwrap().game_key(),
                "{pos}: {}",
                mv.describe(&pos)
            );
            stack.push((child, d + 1));
        }
    }
    seen.len()
}

#[test]
fn the_move_on_the_map_reads_back_to_the_child() {
    let counts: Vec<usize> = [(1, 9), (2, 9), (3, 2)]
        .into_iter()
        .map(|(n, d)| map_surgery_exhaustive(n, d))
        .collect();
    // Positions reachable (distinct identity-preserving keys), the start included.
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
}

#[test]
#[ignore = "minutes: cargo test -p sprouts-draw --lib -- --ignored --nocapture the_move_on_the_map_reads_back_to_the_child_four_deep"]
fn the_move_on_the_map_reads_back_to_the_child_four_deep() {
    for n in 3..=4 {
        let k = map_surgery_exhaustive(n, 4);
        eprintln!("{n} spots: {k} positions up to 4 moves deep, every move performed on the map");
    }
}

/// Every position reachable from `n` seeds, reached by drawing every move afresh: each move
/// drawn reads back to its child (the board's check), and each position redrawn afresh reads
/// back to itself. Returns the positions drawn.
fn every_position_drawn_afresh(n: u32, options: &FreshOptions) -> usize {
    let board = Board::new(n, world(), Settings::default()).unwrap();
    let mut seen: HashSet<GameKey> = HashSet::new();
    let mut stack = vec![board];
    while let Some(mut b) = stack.pop() {
        let pos = b.position().clone();
        if !seen.insert(pos.game_key()) {
            continue;
        }
        let before = b.drawing().clone();
        let r = b.redraw_fresh(options);
        r.unwrap_or_else(|e| panic!("{pos}: redraw: {e}"));
        assert_eq!(b.position().game_key(), pos.game_key());
        b.undo();
        assert_eq!(b.drawing(), &before);
        for mv in pos.distinct_moves() {
            let mut c = b.clone();
            c.draw_move_fresh(&mv, options)
                .unwrap_or_else(|e| panic!("{pos}: {}: {}", mv.describe(&pos), e.detail()));
            assert_eq!(c.position().game_key(), pos.play(&mv).unwrap().game_key());
            stack.push(c);
        }
    }
    seen.len()
}

#[test]
fn every_position_from_one_and_two_spots_drawn_afresh() {
    assert!(every_position_drawn_afresh(1, &quick()) > 1);
    assert!(every_position_drawn_afresh(2, &quick()) > 10);
}

/// The full evidence at 3 spots (a few minutes).
#[test]
#[ignore = "minutes: cargo test -p sprouts-draw --lib -- --ignored --nocapture every_position_from_three_spots_drawn_afresh"]
fn every_position_from_three_spots_drawn_afresh() {
    let k = every_position_drawn_afresh(3, &quick());
    eprintln!("3 spots: {k} positions drawn afresh");
}

#[test]
fn a_refused_move_changes_nothing() {
    let mut b = Board::new(2, world(), Settings::default()).unwrap();
    let other = Board::new(3, world(), Settings::default()).unwrap();
    let foreign = other.position().moves().last().unwrap();
    let before = b.drawing().clone();
    assert!(b.draw_move_fresh(&foreign, &quick()).is_err());
    assert_eq!(b.drawing(), &before);
    assert!(!b.can_undo());
}

/// A random game from `n` seeds; every move drawn afresh (`fresh_moves`) or on the position's
/// own terms, and every position redrawn afresh (`redraw`). Returns the moves played.
fn random_game(n: u32, seed: u64, redraw: bool, options: &FreshOptions) -> usize {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut b = Board::new(n, world(), Settings::default()).unwrap();
    let mut moves = 0;
    while !b.position().is_over() {
        let pos = b.position().clone();
        let all: Vec<_> = pos.moves().take(4096).collect();
        let mv = &all[rng.random_range(0..all.len())];
        b.draw_move_fresh(mv, options).unwrap_or_else(|e| {
            panic!(
                "{n} spots, move {moves} {}: {}",
                mv.describe(&pos),
                e.detail()
            )
        });
        assert_eq!(b.position().game_key(), pos.play(mv).unwrap().game_key());
        moves += 1;
        if redraw {
            let key = b.position().game_key();
            b.redraw_fresh(options)
                .unwrap_or_else(|e| panic!("{n} spots, redraw after {moves}: {e}"));
            assert_eq!(b.position().game_key(), key);
        }
    }
    assert_eq!(moves, b.moves().len());
    moves
}

#[test]
fn random_games_drawn_afresh_to_the_end() {
    for n in 5..=8 {
        assert!(random_game(n, u64::from(n), n <= 6, &quick()) >= 2 * n as usize);
    }
}

/// The full evidence: games at 5..10 spots redrawn afresh at every position, games at 8 and 20
/// spots with every move drawn afresh, at the default polish.
#[test]
#[ignore = "minutes: cargo test -p sprouts-draw --lib -- --ignored random_games_drawn_afresh_to_the_end_full"]
fn random_games_drawn_afresh_to_the_end_full() {
    let opts = FreshOptions::default();
    for n in 5..=10 {
        for seed in 0..3 {
            random_game(n, seed, true, &opts);
        }
    }
    for seed in 0..5 {
        random_game(8, 100 + seed, false, &opts);
    }
    for seed in 0..2 {
        let m = random_game(20, 200 + seed, seed == 0, &opts);
        eprintln!("20 spots, seed {seed}: {m} moves drawn afresh");
    }
}

#[test]
fn any_region_can_be_the_outside() {
    let mut b = Board::new(3, world(), Settings::default()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for _ in 0..4 {
        let pos = b.position().clone();
        let all: Vec<_> = pos.moves().collect();
        b.draw_move_fresh(&all[rng.random_range(0..all.len())], &quick())
            .unwrap();
    }
    let key = b.position().game_key();
    for r in 0..b.position().region_count() {
        let opts = FreshOptions {
            outside: Some(sprouts_topo::RegionId::from_index(r)),
            ..quick()
        };
        b.redraw_fresh(&opts).unwrap();
        assert_eq!(b.position().game_key(), key);
    }
    let _ = Position::new(1);
}

/// A board of `n` seeds after `moves` random moves drawn afresh (quickly), in `world`.
fn crowded(n: u32, moves: usize, seed: u64, world: WorldSize) -> Board {
    let mut b = Board::new(n, world, Settings::default()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let opts = FreshOptions {
        smaller_spots: true,
        ..quick()
    };
    for _ in 0..moves {
        let all: Vec<_> = b.position().moves().collect();
        if all.is_empty() {
            break;
        }
        b.draw_move_fresh(&all[rng.random_range(0..all.len())], &opts)
            .unwrap();
    }
    b
}

#[test]
fn z_polished_by_the_descent_keeps_labels_in_and_spots_full() {
    let mut b = crowded(5, 6, 3, world());
    let key = b.position().game_key();
    let steps = b.undo_steps().count();
    let r = b.redraw_fresh(&FreshOptions::default()).unwrap();
    assert_eq!(b.position().game_key(), key);
    assert_eq!(b.undo_steps().count(), steps + 1, "one undo step");
    assert!(r.descent.0 >= 1, "R's descent ran: {r:?}");
    assert!(r.layouts.0 >= 2, "a round of layouts: {r:?}");
    assert!(r.smaller_spots.is_empty());
    let q = crate::PictureQuality::of_board(&b);
    assert_eq!(q.labels_clipped, 0, "{q}");
    assert_eq!(q.spots_shrunk, 0, "{q}");
    assert!(
        q.least_gap_pixels() >= Settings::default().min_clearance,
        "{q}"
    );
    // The curves are the clamped fit's cubic pieces, not polylines with rounded corners.
    let straight = b
        .drawing()
        .curves()
        .iter()
        .filter(|c| {
            c.spline.pieces().iter().all(|p| {
                let b = p.bez;
                sprouts_geom::point_segment_distance(b.p1, b.p0, b.p3) < 1e-6
                    && sprouts_geom::point_segment_distance(b.p2, b.p0, b.p3) < 1e-6
            })
        })
        .count();
    assert!(
        straight < b.drawing().curves().len(),
        "{straight} straight curves"
    );
}

#[test]
fn the_best_of_a_round_is_no_worse_than_the_present_outside_alone() {
    let b = crowded(6, 8, 5, world());
    let mut one = b.clone();
    let first = one
        .redraw_fresh(&FreshOptions {
            layouts: 1,
            ..FreshOptions::default()
        })
        .unwrap();
    let mut many = b.clone();
    let best = many
        .redraw_fresh(&FreshOptions {
            layouts: 3,
            ..FreshOptions::default()
        })
        .unwrap();
    assert_eq!(first.layouts.0, 1);
    assert_eq!(best.layouts.0, 3.min(b.position().region_count()));
    // The present outside is among the three, and the best is kept.
    assert!(
        best.clearance >= first.clearance - 0.1,
        "{best:?} {first:?}"
    );
}

#[test]
fn spots_drawn_smaller_only_with_the_dot_and_never_below_the_least() {
    // A small window: some layout cannot give every spot its full size.
    let small = WorldSize::new(150.0, 110.0);
    let b = crowded(5, 7, 11, small);
    let before = b.to_json();
    let mut full = b.clone();
    let opts = FreshOptions {
        layouts: 2,
        ..FreshOptions::default()
    };
    match full.redraw_fresh(&opts) {
        Ok(r) => {
            assert!(r.smaller_spots.is_empty(), "{r:?}");
            assert!(full.drawing().spots().iter().all(|s| s.radius >= 5.0));
        }
        // A refusal changes nothing.
        Err(_) => assert_eq!(full.to_json(), before),
    }
    let mut dot = b.clone();
    let r = dot
        .redraw_fresh(&FreshOptions {
            smaller_spots: true,
            ..opts
        })
        .unwrap();
    let least = Settings::default().least_spot_radius();
    assert!(
        dot.drawing()
            .spots()
            .iter()
            .all(|s| s.radius >= least - 1e-9)
    );
    assert_eq!(
        r.smaller_spots.len(),
        dot.drawing()
            .spots()
            .iter()
            .filter(|s| s.radius < 5.0 - 1e-9)
            .count()
    );
    assert_eq!(dot.position().game_key(), b.position().game_key());
}
