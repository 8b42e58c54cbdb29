//! The quality of the router's pictures (`PictureQuality`) over random games, with no making
//! room: each game's uniformly random legal moves drawn by `Board::draw_move` until the first
//! refusal, the picture then measured. Prints one line per game and the means
//! (`cargo run --release -p sprouts-draw --example route_quality -- SPOTS GAMES [SEED]`).
//!
//! `ROUTE_D=40` and `ROUTE_LAMBDA=1` set the settings' comfort distance and Room vs length.
//!
//! A quick yardstick for changes to the router; the figures users see come from
//! `sprouts selfplay --draw --json`, which also climbs the ladder.

use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_draw::testing::random_move;
use sprouts_draw::{Board, PictureQuality, Settings, WorldSize};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: usize, default: u64| args.get(k).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (spots, games, seed) = (arg(1, 8) as u32, arg(2, 10), arg(3, 0));
    let (mut to_end, mut w8, mut w20, mut starts, mut least, mut turn) =
        (0, 0.0, 0.0, 0, f64::INFINITY, 0.0_f64);
    let (mut drawn, mut seconds) = (0, 0.0);
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
    let mut settings = Settings::default();
    settings.comfort_distance = env("ROUTE_D").unwrap_or(settings.comfort_distance);
    settings.room_vs_length = env("ROUTE_LAMBDA").unwrap_or(settings.room_vs_length);
    for g in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed * 1000 + g);
        let mut board = Board::new(spots, WorldSize::new(2560.0, 1383.0), settings).unwrap();
        let mut refused = None;
        loop {
            let pos = board.position().clone();
            let Some(mv) = &random_move(&pos, &mut rng) else {
                break;
            };
            let t = Instant::now();
            let r = board.draw_move(mv, &mut |_| {});
            seconds += t.elapsed().as_secs_f64();
            match r {
                Ok(_) => drawn += 1,
                Err(e) => {
                    refused = Some(format!("{}: {e}", mv.describe(&pos)));
                    break;
                }
            }
        }
        let q = PictureQuality::of_board(&board);
        to_end += usize::from(refused.is_none());
        w8 += q.within_8;
        w20 += q.within_20;
        starts += q.sharp_starts;
        least = least.min(q.least_gap_pixels());
        turn = turn.max(q.sharpest_turn);
        println!(
            "game {g}: {} moves, {} | {q}",
            board.moves().len(),
            refused.as_deref().unwrap_or("to the end")
        );
    }
    let n = games.max(1) as f64;
    println!(
        "{spots} spots, {games} games (seed {seed}): {to_end} drawn to the end, {drawn} moves in \
         {seconds:.1} s; within 8 px {:.2}%, within 20 px {:.2}% (means); least gap {least:.1} px; \
         sharpest turn {turn:.0} deg; sharp starts {starts}",
        100.0 * w8 / n,
        100.0 * w20 / n
    );
}
