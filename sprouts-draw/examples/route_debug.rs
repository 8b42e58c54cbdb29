//! Looking at how the router draws one move: a saved board and a move drawn again, a random
//! game drawn move by move with a picture after each, and a stretch of such a game drawn
//! again from a saved move on.
//!
//! ```sh
//! # The move with index K among the position's moves (or these words) on a saved board,
//! # drawn again: the outcome, and DIR/replay.svg (.png) with the routes tried in red.
//! cargo run --release -p sprouts-draw --example route_debug -- replay BOARD.json K [DIR]
//! cargo run --release -p sprouts-draw --example route_debug -- words BOARD.json "7 -> 7 enclosing 5" [DIR]
//! # Game G (from 1) of the N-spot games `route_games`'s classify run plays with per-game
//! # seeds, drawn move by move: DIR/mKK.json (the board before move KK), DIR/mKK.move (its
//! # index) and DIR/mKK.png (the board after it, the last route in red).
//! cargo run --release -p sprouts-draw --example route_debug -- history N G DIR
//! # That game again from its move S on, from DIR's saved boards.
//! cargo run --release -p sprouts-draw --example route_debug -- sequence DIR S
//! ```
//!
//! `ROUTE_CROP=x,y,w,h` keeps only that part of the board in the pictures, `ROUTE_SCALE` scales
//! the PNGs.

use std::error::Error;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_draw::{Board, Settings, WorldSize};
use sprouts_geom::Point;

type Res<T> = Result<T, Box<dyn Error>>;

#[path = "../tests/common/route_picture.rs"]
mod route_picture;
use route_picture::picture;

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |k: usize| -> Res<&str> {
        args.get(k)
            .map(String::as_str)
            .ok_or_else(|| format!("missing argument {k}; see the example's docs").into())
    };
    match arg(0)? {
        "replay" => {
            let index: usize = arg(2)?.parse()?;
            replay(arg(1)?, |_, k| k == index, args.get(3))
        }
        "words" => {
            let words = arg(2)?.to_owned();
            replay(arg(1)?, |w, _| w == words, args.get(3))
        }
        "history" => history(arg(1)?.parse()?, arg(2)?.parse()?, arg(3)?),
        "sequence" => sequence(arg(1)?, arg(2)?.parse()?),
        other => Err(format!("unknown command {other}: replay, words, history or sequence").into()),
    }
}

/// Draws each move of the saved board `path` that `pick` takes (its words, its index among the
/// position's moves) on a copy of the board, printing the outcome and, with `dir`, writing the
/// picture with the routes the router tried.
fn replay(path: &str, pick: impl Fn(&str, usize) -> bool, dir: Option<&String>) -> Res<()> {
    let board = Board::from_json(&std::fs::read_to_string(path)?)?;
    let pos = board.position().clone();
    let mut any = false;
    for (k, mv) in pos.moves().enumerate() {
        let words = mv.describe(&pos);
        if !pick(&words, k) {
            continue;
        }
        any = true;
        let mut b = board.clone();
        let mut seen: Vec<Vec<Point>> = Vec::new();
        let line = match b.draw_move(&mv, &mut |r| seen.push(r.to_vec())) {
            Ok(d) => match &d.equivalent_of {
                None => format!("move {k}, {words}: drawn by {:?}", d.method),
                Some(e) => format!(
                    "move {k}, {} by {:?} ({})",
                    e.words_with(&d.words),
                    d.method,
                    e.refusal.detail()
                ),
            },
            Err(e) => format!("move {k}, {words}: {}", e.detail()),
        };
        println!("{line} (corners {:?} -> {:?})", mv.from(), mv.to());
        if let Some(dir) = dir {
            picture(dir, &format!("replay-{k}"), &b, &seen, &line)?;
        }
    }
    if !any {
        return Err("no move of the position is the one asked".into());
    }
    Ok(())
}

/// Game `g` of the `n`-spot classify run with per-game seeds, drawn move by move.
fn history(n: u32, g: u64, dir: &str) -> Res<()> {
    let seed = 2000 + u64::from(n);
    let game = g.checked_sub(1).ok_or("games are numbered from 1")?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_mul(1_000_003) + game);
    let mut board = Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default())?;
    std::fs::create_dir_all(dir)?;
    for k in 0.. {
        let pos = board.position().clone();
        let moves: Vec<_> = pos.moves().collect();
        if moves.is_empty() {
            break;
        }
        let idx = rng.random_range(0..moves.len());
        let mv = &moves[idx];
        std::fs::write(format!("{dir}/m{k:02}.json"), board.to_json())?;
        std::fs::write(format!("{dir}/m{k:02}.move"), idx.to_string())?;
        let mut last: Vec<Point> = Vec::new();
        let res = board.draw_move(mv, &mut |r| last = r.to_vec());
        let line = match &res {
            Ok(d) => format!(
                "{k}: {} by {:?}, clearance {:.2}",
                d.words, d.method, d.clearance
            ),
            Err(e) => format!("{k}: {}: {}", mv.describe(&pos), e.detail()),
        };
        println!("{line}");
        picture(dir, &format!("m{k:02}"), &board, &[last], &line)?;
        if res.is_err() {
            break;
        }
    }
    Ok(())
}

/// Draws again, from the board saved before move `s` of a `history` run in `dir`, that run's
/// moves from `s` on, printing each; for finding the shortest stretch of a real game that one
/// version of the router draws to the end and another does not.
fn sequence(dir: &str, s: usize) -> Res<()> {
    let mut board = Board::from_json(&std::fs::read_to_string(format!("{dir}/m{s:02}.json"))?)?;
    let mut ks = Vec::new();
    for k in s.. {
        let Ok(m) = std::fs::read_to_string(format!("{dir}/m{k:02}.move")) else {
            break;
        };
        let idx: usize = m.trim().parse()?;
        ks.push(idx);
        let pos = board.position().clone();
        let mv = pos.moves().nth(idx).ok_or("no such move")?;
        let words = mv.describe(&pos);
        match board.draw_move(&mv, &mut |_| {}) {
            Ok(d) => println!("{k}: {words} drawn by {:?}", d.method),
            Err(e) => {
                println!("{k}: {words} refused: {}", e.detail());
                break;
            }
        }
    }
    println!("moves {ks:?}");
    Ok(())
}
