//! Random games drawn to the end: every move is drawn by `Board::draw_move` (or, with
//! `ROUTE_STRICT` set, `Board::draw_move_strict`: the move asked only, never another move
//! giving the same game), and every drawn move must read back to the intended game.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_draw::testing::random_move;
use sprouts_draw::{Board, Settings, WorldSize};

#[path = "common/route_picture.rs"]
mod route_picture;
use route_picture::picture;

#[derive(Default, Debug, Clone)]
struct Games {
    games: usize,
    to_end: usize,
    drawn: usize,
    refused: usize,
    wrong: usize,
    /// Moves drawn as another move giving the same game (the move asked was refused).
    equivalent: usize,
    /// Games drawn to the end only thanks to an equivalent (at least one move drawn as one).
    to_end_thanks: usize,
    reasons: Vec<String>,
    /// Refusals by variant.
    kinds: std::collections::BTreeMap<String, usize>,
    /// Drawn moves by the way their route was found.
    methods: std::collections::BTreeMap<String, usize>,
}

/// Plays `games` random games of `n` spots, drawing every move; a game stops at its first
/// refused move (no making room here). The games share one random stream, so a game that
/// goes on further changes the moves of every later one; with `ROUTE_GAME_SEEDS` set, each
/// game has its own stream (seeded by `seed` and its number), so that two versions of the
/// router compared on one seed play the same moves in every game until one of them refuses.
/// `ROUTE_GAME_FROM=k` (with `ROUTE_GAME_SEEDS`) starts at game `k` (numbered from 1), to
/// draw one game again.
fn play(n: u32, games: usize, seed: u64) -> Games {
    let per_game = std::env::var("ROUTE_GAME_SEEDS").is_ok();
    let from = std::env::var("ROUTE_GAME_FROM")
        .ok()
        .filter(|_| per_game)
        .and_then(|s| s.parse::<usize>().ok())
        .map_or(0, |k| k.saturating_sub(1));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Games::default();
    for g in from..games {
        let number = g + 1;
        if per_game {
            rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_mul(1_000_003) + g as u64);
        }
        out.games += 1;
        let mut board = Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default()).unwrap();
        let mut complete = true;
        let mut thanks = false;
        loop {
            let pos = board.position().clone();
            let Some(mv) = &random_move(&pos, &mut rng) else {
                break;
            };
            let intended = pos.play(mv).unwrap();
            let before = board.to_json();
            let mut seen: Vec<Vec<sprouts_geom::Point>> = Vec::new();
            let mut observer = |r: &[sprouts_geom::Point]| {
                if seen.len() < 64 {
                    seen.push(r.to_vec());
                }
            };
            let res = if strict() {
                board.draw_move_strict(mv, &mut observer)
            } else {
                board.draw_move(mv, &mut observer)
            };
            match res {
                Ok(d) => {
                    out.drawn += 1;
                    if let Some(e) = &d.equivalent_of {
                        out.equivalent += 1;
                        thanks = true;
                        eprintln!(
                            "  {n} spots game {number}: {} ({})",
                            e.words_with(&d.words),
                            e.refusal.detail()
                        );
                        if let Ok(dir) = std::env::var("ROUTE_PNG") {
                            let name = format!("n{n}-g{number}-equivalent");
                            let k = pos.moves().position(|m| m == *mv).unwrap();
                            std::fs::create_dir_all(&dir).unwrap();
                            std::fs::write(format!("{dir}/{name}.json"), &before).unwrap();
                            std::fs::write(format!("{dir}/{name}.move"), k.to_string()).unwrap();
                        }
                    }
                    *out.methods.entry(format!("{:?}", d.method)).or_default() += 1;
                    let got = board.position();
                    if got.game_key() != intended.game_key()
                        && got.canonical_unreduced() != intended.canonical_unreduced()
                    {
                        out.wrong += 1;
                    }
                }
                Err(e) => {
                    assert_eq!(board.to_json(), before, "a refusal changed the board");
                    out.refused += 1;
                    // The kind of the move asked's refusal (not the equivalents').
                    let dbg = format!("{:?}", e.of_the_move_asked());
                    let kind = dbg.split([' ', '(', '{']).next().unwrap_or("").to_owned();
                    *out.kinds.entry(kind.clone()).or_default() += 1;
                    let line = format!("{}: {}", mv.describe(&pos), e.detail());
                    if let Ok(dir) = std::env::var("ROUTE_PNG") {
                        let name = format!("n{n}-g{number}-{kind}");
                        // The routes the router tried and the refusal, as SVG and PNG
                        // (`ROUTE_PNG=DIR`); the saved board and the move's index beside it,
                        // for `cargo run -p sprouts-draw --example route_debug -- replay`.
                        if let Err(e) = picture(&dir, &name, &board, &seen, &line) {
                            eprintln!("{name}: the picture was not written: {e}");
                        }
                        let k = pos.moves().position(|m| m == *mv).unwrap();
                        std::fs::write(format!("{dir}/{name}.json"), &before).unwrap();
                        std::fs::write(format!("{dir}/{name}.move"), k.to_string()).unwrap();
                    }
                    out.reasons.push(format!("game {number}: {line}"));
                    complete = false;
                    break;
                }
            }
        }
        if complete {
            out.to_end += 1;
            if thanks {
                out.to_end_thanks += 1;
            }
        }
    }
    out
}

/// Whether `ROUTE_STRICT` asks for the move asked only.
fn strict() -> bool {
    std::env::var("ROUTE_STRICT").is_ok()
}

#[test]
fn random_games_of_three_to_five_spots() {
    for n in 3..=5 {
        let g = play(n, 2, u64::from(n));
        eprintln!("{n} spots: {g:?}");
        assert_eq!(g.wrong, 0);
        assert!(g.drawn > 0);
    }
}

/// Refusals classified (`ROUTE_SPOTS=5..8 ROUTE_GAMES=30`, defaults 5..=8 and 10; `ROUTE_SEED=k`
/// plays other games, seeded by `k` instead of `2000 + n`).
#[test]
#[ignore = "minutes: cargo test -p sprouts-draw --test route_games -- --ignored --nocapture classify_refusals"]
fn classify_refusals() {
    let games: usize = std::env::var("ROUTE_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let (lo, hi) = std::env::var("ROUTE_SPOTS")
        .ok()
        .and_then(|s| {
            let (a, b) = s.split_once("..")?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .unwrap_or((5u32, 8u32));
    for n in lo..=hi {
        let seed = std::env::var("ROUTE_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2000 + u64::from(n));
        let g = play(n, games, seed);
        eprintln!(
            "{n} spots: {} games, {} to the end ({} only thanks to an equivalent), {} drawn ({} as an equivalent), {} refused, {} wrong; {:?} {:?}",
            g.games,
            g.to_end,
            g.to_end_thanks,
            g.drawn,
            g.equivalent,
            g.refused,
            g.wrong,
            g.kinds,
            g.methods
        );
        for r in &g.reasons {
            eprintln!("  {r}");
        }
        assert_eq!(g.wrong, 0);
    }
}

/// 200 random games per size from 3 to 8 spots (`cargo test --release -p sprouts-draw --test
/// route_games -- --ignored --nocapture two_hundred`; `ROUTE_GAMES=k` plays `k` per size
/// instead, `ROUTE_SPOTS=a..b` other sizes): the share drawn to the end without making room,
/// and no drawn move that reads back wrong. The same seeds per size as the classify table
/// (a game stops at its first refusal).
#[test]
#[ignore = "long: cargo test --release -p sprouts-draw --test route_games -- --ignored --nocapture two_hundred"]
fn two_hundred_random_games() {
    let games: usize = std::env::var("ROUTE_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let (lo, hi) = std::env::var("ROUTE_SPOTS")
        .ok()
        .and_then(|s| {
            let (a, b) = s.split_once("..")?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .unwrap_or((3u32, 8u32));
    let mut total = Games::default();
    eprintln!(
        "| spots | games | drawn to the end | of them only thanks to an equivalent | moves drawn | as an equivalent | refused | wrong |"
    );
    eprintln!("|---|---|---|---|---|---|---|---|");
    for n in lo..=hi {
        let g = play(n, games, 2000 + u64::from(n));
        eprintln!(
            "| {n} | {} | {} ({:.1}%) | {} | {} | {} | {} | {} |",
            g.games,
            g.to_end,
            100.0 * g.to_end as f64 / g.games as f64,
            g.to_end_thanks,
            g.drawn,
            g.equivalent,
            g.refused,
            g.wrong
        );
        total.games += g.games;
        total.to_end += g.to_end;
        total.to_end_thanks += g.to_end_thanks;
        total.equivalent += g.equivalent;
        total.drawn += g.drawn;
        total.refused += g.refused;
        total.wrong += g.wrong;
        assert_eq!(g.wrong, 0);
    }
    eprintln!(
        "total: {} games, {} to the end ({} only thanks to an equivalent), {} drawn ({} as an equivalent), {} refused, {} wrong",
        total.games,
        total.to_end,
        total.to_end_thanks,
        total.drawn,
        total.equivalent,
        total.refused,
        total.wrong
    );
    assert_eq!(total.wrong, 0);
}
