//! A fixed workload of drawn moves for profiling (e.g. under `perf record`): the random 11-spot
//! games of the `route_timing` example (the same seeds), every drawn move saved with the board
//! before it; then the saved moves whose first drawing took a given CPU time, drawn again.
//! `draw` prints a hash of the pictures drawn, so that a change meant only to be faster can be
//! shown to draw the same pictures, bit for bit.
//!
//! ```sh
//! cargo run --release -p sprouts-draw --example move_profile -- collect /tmp/moves
//! cargo run --release -p sprouts-draw --example move_profile -- draw /tmp/moves 40 300 3
//! ```
//!
//! `draw DIR LO HI REPS`: the moves that took `LO` to `HI` ms of CPU when collected (the
//! typical ones, about the median), each drawn `REPS` times on a copy of its board; the least
//! CPU time of each is summed.

use std::error::Error;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_draw::{Board, Settings, WorldSize};

/// The CPU time this thread has run, in seconds (Linux; the wall clock elsewhere).
fn cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(
            || {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0.0, |d| d.as_secs_f64())
            },
            |ns| ns as f64 * 1e-9,
        )
}

/// Plays the games and saves each drawn move as `DIR/K.json` (the board before it) and
/// `DIR/K.move` (the move's index among the position's moves, and its CPU seconds).
fn collect(dir: &str) -> Result<(), Box<dyn Error>> {
    std::fs::create_dir_all(dir)?;
    let n = 11;
    let mut saved = 0;
    for g in 0..6u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7 * g + u64::from(n));
        let mut board = Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default())?;
        loop {
            let pos = board.position().clone();
            let mut moves: Vec<_> = pos.moves().collect();
            if moves.is_empty() {
                break;
            }
            let mv = moves.swap_remove(rng.random_range(0..moves.len()));
            let k = pos
                .moves()
                .position(|m| m == mv)
                .ok_or("the move is listed")?;
            let before = board.to_json();
            let c = cpu();
            let drawn = board.draw_move(&mv, &mut |_| {});
            let took = cpu() - c;
            if drawn.is_err() {
                break;
            }
            std::fs::write(format!("{dir}/{saved}.json"), before)?;
            std::fs::write(format!("{dir}/{saved}.move"), format!("{k} {took}"))?;
            saved += 1;
        }
    }
    eprintln!("{saved} moves saved in {dir}");
    Ok(())
}

fn draw(dir: &str, lo_ms: f64, hi_ms: f64, reps: usize) -> Result<(), Box<dyn Error>> {
    let mut best_times = Vec::new();
    let mut refused = 0;
    let mut hash: u64 = 0;
    for k in 0.. {
        let Ok(text) = std::fs::read_to_string(format!("{dir}/{k}.move")) else {
            break;
        };
        let mut it = text.split_whitespace();
        let index: usize = it.next().ok_or("a move index")?.parse()?;
        let first: f64 = it.next().ok_or("a time")?.parse()?;
        if !(lo_ms..=hi_ms).contains(&(first * 1e3)) {
            continue;
        }
        let board = Board::from_json(&std::fs::read_to_string(format!("{dir}/{k}.json"))?)?;
        let mv = board
            .position()
            .moves()
            .nth(index)
            .ok_or("the saved move")?;
        let mut best = f64::INFINITY;
        for _ in 0..reps.max(1) {
            let mut b = board.clone();
            let c = cpu();
            let drawn = b.draw_move(&mv, &mut |_| {});
            best = best.min(cpu() - c);
            if drawn.is_err() {
                refused += 1;
            }
            for byte in b.to_json().bytes() {
                hash = hash.wrapping_mul(1_000_003).wrapping_add(u64::from(byte));
            }
        }
        best_times.push(best);
    }
    if best_times.is_empty() {
        return Err("no saved move in that range".into());
    }
    let total: f64 = best_times.iter().sum();
    best_times.sort_by(f64::total_cmp);
    println!(
        "{} moves ({refused} refused drawings), CPU {:.3} s in all, median {:.1} ms; pictures hash {hash:016x}",
        best_times.len(),
        total,
        1e3 * best_times[best_times.len() / 2]
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["collect", dir] => collect(dir),
        ["draw", dir, lo, hi, reps] => draw(dir, lo.parse()?, hi.parse()?, reps.parse()?),
        _ => Err("usage: move_profile collect DIR | draw DIR LO_MS HI_MS REPS".into()),
    }
}
