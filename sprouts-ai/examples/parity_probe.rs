//! Times one move of a player on a position reached by seeded random moves from an n-spot
//! start, with the number of candidates and the player's report (depth reached, work).
//!
//! `cargo run --release -p sprouts-ai --example parity_probe -- SPOTS MOVES SEED SPEC`, e.g.
//! `... -- 30 12 1 parity-fast:depth=2,threads=1`. SPOTS may also be a position in GLOP
//! notation (the random moves are then played from it).

use std::time::Instant;

use sprouts_ai::Limits;
use sprouts_ai::impartial::Convention;
use sprouts_ai::players::{candidates, player_from_spec, random_move};
use sprouts_topo::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |k: usize, default: u64| {
        args.get(k)
            .map_or(default, |s| s.parse().expect("a number"))
    };
    let start = match args.get(1) {
        Some(text) if text.parse::<u32>().is_err() => {
            Position::parse_glop(text).expect("a position in GLOP notation")
        }
        _ => Position::new(number(1, 30) as u32),
    };
    let spots = args.get(1).map_or("30", String::as_str);
    let moves = number(2, 12);
    let seed = number(3, 1);
    let spec = args
        .get(4)
        .map_or("parity-fast:depth=2,threads=1", String::as_str);
    let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(seed);
    let mut p = start;
    for _ in 0..moves {
        let Some(mv) = random_move(&p, &mut rng) else {
            break;
        };
        p = p.play(&mv).expect("a legal move");
    }
    let t = Instant::now();
    let n = candidates(&p).len();
    println!(
        "{spots} spots after {moves} random moves (seed {seed}): {n} candidates ({:.3} s)",
        t.elapsed().as_secs_f64()
    );
    let mut player = player_from_spec(spec, seed).expect("a player");
    let t = Instant::now();
    let c = player
        .choose(&p, Convention::Normal, &Limits::none())
        .expect("a move");
    println!(
        "{spec}: {}; work {}; {:.3} s",
        c.report,
        c.report.work,
        t.elapsed().as_secs_f64()
    );
}
