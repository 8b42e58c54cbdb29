//! Random games to the end per second from an n-spot start, with [`playout`] (families counted,
//! one built, positions played in place) and [`playout_reference`] (every family listed, a new
//! position every move), on one thread, each for about `SECONDS`.
//!
//! `cargo run --release -p sprouts-ai --example playout_rate -- SPOTS SECONDS`, e.g. `-- 30 5`.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_ai::players::{playout, playout_reference};
use sprouts_topo::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spots: u32 = args.get(1).map_or(30, |s| s.parse().expect("a number"));
    let seconds: f64 = args.get(2).map_or(5.0, |s| s.parse().expect("a number"));
    let start = Position::new(spots);
    type Play = fn(&Position, &mut Xoshiro256PlusPlus) -> u32;
    for (name, f) in [
        ("playout", playout as Play),
        ("playout_reference", playout_reference),
    ] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let t = Instant::now();
        let (mut games, mut moves) = (0u64, 0u64);
        while t.elapsed() < Duration::from_secs_f64(seconds) {
            moves += u64::from(f(&start, &mut rng));
            games += 1;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name}: {games} games of {spots} spots in {s:.2} s: {:.0} games/s, {:.0} moves/s, {:.1} moves a game",
            games as f64 / s,
            moves as f64 / s,
            moves as f64 / games as f64
        );
    }
}
