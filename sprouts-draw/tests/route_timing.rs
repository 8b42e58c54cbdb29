//! Time to draw a computer move: random games of 11 and 20 spots, every move drawn by
//! `Board::draw_move`; the median and 95th percentile of the time per drawn move
//! (`cargo test --release -p sprouts-draw --test route_timing -- --ignored --nocapture`).

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_draw::{Board, Settings, WorldSize};

fn times(n: u32, games: u64) -> (Vec<f64>, usize) {
    let mut out = Vec::new();
    let mut refused = 0;
    for g in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7 * g + u64::from(n));
        let mut board = Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default()).unwrap();
        loop {
            let pos = board.position().clone();
            let moves: Vec<_> = pos.moves().collect();
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.random_range(0..moves.len())];
            let t = Instant::now();
            let r = board.draw_move(mv, &mut |_| {});
            let s = t.elapsed().as_secs_f64();
            match r {
                Ok(_) => out.push(s),
                Err(_) => {
                    refused += 1;
                    break;
                }
            }
        }
    }
    (out, refused)
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

#[test]
#[ignore = "timing; the README gives its figures"]
fn time_to_draw_a_move() {
    for (n, games) in [(11, 6), (20, 3)] {
        let (mut t, refused) = times(n, games);
        t.sort_by(f64::total_cmp);
        if t.is_empty() {
            eprintln!("{n} spots: no move drawn ({refused} games stopped at a refusal)");
            continue;
        }
        eprintln!(
            "{n} spots: {} moves drawn ({} games stopped at a refusal): median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
            t.len(),
            refused,
            1e3 * quantile(&t, 0.5),
            1e3 * quantile(&t, 0.95),
            1e3 * t[t.len() - 1]
        );
    }
}
