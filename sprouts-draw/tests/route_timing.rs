//! Time to draw a computer move: random games of 11 and 20 spots, every move drawn by
//! `Board::draw_move`; the median and 95th percentile of the time per drawn move
//! (`cargo test --release -p sprouts-draw --test route_timing -- --ignored --nocapture`).
//!
//! Both wall-clock time and the thread's own CPU time (from `/proc/thread-self/schedstat`,
//! where available) are reported: on a loaded machine the CPU time is the steadier figure.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_draw::{Board, Settings, WorldSize};

/// The CPU time this thread has run, in seconds (Linux), if it can be read.
fn thread_cpu() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// Per drawn move: (wall-clock seconds, CPU seconds if known); and the games stopped at a
/// refusal.
fn times(n: u32, games: u64) -> (Vec<(f64, Option<f64>)>, usize) {
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
            let c = thread_cpu();
            let t = Instant::now();
            let r = board.draw_move(mv, &mut |_| {});
            let s = t.elapsed().as_secs_f64();
            let cpu = c.zip(thread_cpu()).map(|(a, b)| b - a);
            match r {
                Ok(_) => out.push((s, cpu)),
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
        let (t, refused) = times(n, games);
        if t.is_empty() {
            eprintln!("{n} spots: no move drawn ({refused} games stopped at a refusal)");
            continue;
        }
        let mut wall: Vec<f64> = t.iter().map(|x| x.0).collect();
        wall.sort_by(f64::total_cmp);
        let mut cpu: Vec<f64> = t.iter().filter_map(|x| x.1).collect();
        cpu.sort_by(f64::total_cmp);
        let line = |v: &[f64]| {
            format!(
                "median {:.1} ms, p95 {:.1} ms, max {:.1} ms, total {:.1} s",
                1e3 * quantile(v, 0.5),
                1e3 * quantile(v, 0.95),
                1e3 * v[v.len() - 1],
                v.iter().sum::<f64>()
            )
        };
        eprintln!(
            "{n} spots: {} moves drawn ({} games stopped at a refusal): wall {}",
            t.len(),
            refused,
            line(&wall)
        );
        if cpu.len() == t.len() {
            eprintln!("{n} spots: thread CPU {}", line(&cpu));
        }
    }
}
