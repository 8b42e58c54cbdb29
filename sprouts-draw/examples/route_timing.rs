//! Time to draw a computer move: games of 11 and 20 spots, every move drawn by
//! `Board::draw_move`; the median and 95th percentile of the time per drawn move
//! (`cargo run --release -p sprouts-draw --example route_timing`).
//!
//! Two kinds of game: uniformly random legal moves (a game stops at its first refusal), and
//! computer-like moves, chosen at random among those enclosing at most one boundary (a
//! computer player's moves rarely enclose more; a refused move is timed too, then the next
//! candidate is tried, as in the criterion bench `draw_move`). Both wall-clock time and the
//! thread's own CPU time (from `/proc/thread-self/schedstat`, where available) are reported:
//! on a loaded machine the CPU time is the steadier figure. `ROUTE_TIMING_SPOTS=11` for one
//! size only.

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

/// What the games gave: per drawn move (wall-clock seconds, CPU seconds if known), the same
/// for refused moves, and the slowest moves with how to make them again.
#[derive(Default)]
struct Times {
    drawn: Vec<(f64, Option<f64>)>,
    refused: Vec<(f64, Option<f64>)>,
    /// (CPU or wall seconds, reproducer) of every move that took more than a second.
    slow: Vec<(f64, String)>,
}

fn times(n: u32, games: u64, computer_like: bool) -> Times {
    let mut out = Times::default();
    for g in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7 * g + u64::from(n));
        let mut board = Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default()).unwrap();
        'game: loop {
            let pos = board.position().clone();
            let mut moves: Vec<_> = pos
                .moves()
                .filter(|m| !computer_like || m.side_a().len() <= 1)
                .collect();
            while !moves.is_empty() {
                let mv = moves.swap_remove(rng.random_range(0..moves.len()));
                // `ROUTE_TIMING_SAVE=DIR`: the board before each slow move and the move's
                // index, for `route_debug replay`.
                let save = std::env::var("ROUTE_TIMING_SAVE").ok();
                let before = save.as_ref().map(|_| board.to_json());
                let c = thread_cpu();
                let t = Instant::now();
                let r = board.draw_move(&mv, &mut |_| {});
                let s = t.elapsed().as_secs_f64();
                let cpu = c.zip(thread_cpu()).map(|(a, b)| b - a);
                let took = cpu.unwrap_or(s);
                if took > 1.0 {
                    if let (Some(dir), Some(before)) = (&save, &before) {
                        let k = pos.moves().position(|m| m == mv).unwrap_or(usize::MAX);
                        let name = format!("{dir}/n{n}-g{g}-m{}", board.moves().len());
                        std::fs::create_dir_all(dir).unwrap();
                        std::fs::write(format!("{name}.json"), before).unwrap();
                        std::fs::write(format!("{name}.move"), k.to_string()).unwrap();
                    }
                    let history: Vec<&str> =
                        board.moves().iter().map(|m| m.words.as_str()).collect();
                    out.slow.push((
                        took,
                        format!(
                            "game {g} ({n} spots, seed {}), after [{}]: {} (corners {:?} -> {:?}, marks {:?}) {}",
                            7 * g + u64::from(n),
                            history.join("; "),
                            mv.describe(&pos),
                            mv.from(),
                            mv.to(),
                            mv.side_a(),
                            match &r {
                                Ok(_) => "drawn".to_owned(),
                                Err(e) => format!("refused: {}", e.detail()),
                            }
                        ),
                    ));
                }
                match r {
                    Ok(_) => {
                        out.drawn.push((s, cpu));
                        continue 'game;
                    }
                    Err(_) => {
                        out.refused.push((s, cpu));
                        if !computer_like {
                            break 'game;
                        }
                    }
                }
            }
            break;
        }
    }
    out
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn line(v: &[(f64, Option<f64>)]) -> String {
    let show = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        format!(
            "median {:.1} ms, p95 {:.1} ms, max {:.1} ms, total {:.1} s",
            1e3 * quantile(&v, 0.5),
            1e3 * quantile(&v, 0.95),
            1e3 * v[v.len() - 1],
            v.iter().sum::<f64>()
        )
    };
    let wall = show(v.iter().map(|x| x.0).collect());
    let cpu: Vec<f64> = v.iter().filter_map(|x| x.1).collect();
    if cpu.len() == v.len() {
        format!("CPU {}; wall {wall}", show(cpu))
    } else {
        format!("wall {wall}")
    }
}

fn main() {
    let only: Option<u32> = std::env::var("ROUTE_TIMING_SPOTS")
        .ok()
        .and_then(|s| s.parse().ok());
    for (n, games) in [(11, 6), (20, 3)]
        .into_iter()
        .filter(|(n, _)| only.is_none_or(|o| o == *n))
    {
        for (label, computer_like) in [("random moves", false), ("computer-like moves", true)] {
            let t = times(n, games, computer_like);
            eprintln!(
                "{n} spots, {games} games of {label}: {} drawn, {} refused",
                t.drawn.len(),
                t.refused.len()
            );
            if !t.drawn.is_empty() {
                eprintln!("  drawn: {}", line(&t.drawn));
            }
            if !t.refused.is_empty() {
                eprintln!("  refused: {}", line(&t.refused));
            }
            let mut slow = t.slow;
            slow.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (took, what) in slow.iter().take(5) {
                eprintln!("  slow: {took:.2} s: {what}");
            }
        }
    }
}
