//! Two computer players play a drawn game of Sprouts ([`sprouts::Game::drawn_spots`]): every
//! move is drawn as a curve by the library's router and checked against the position. The
//! finished picture is written as SVG ([`sprouts::draw::svg`]) and the game as its record
//! ([`sprouts::GameRecord`], JSON) beside it.
//!
//! ```sh
//! cargo run --release --example svg_game                                   # 5 spots, game.svg, game.json
//! cargo run --release --example svg_game -- 6 random montecarlo:200 six.svg --seed 3
//! ```
//!
//! Arguments: the number of spots (1 to 12, default 5), the two players (specs such as
//! `random`, `montecarlo:200`, `parity-fast:depth=2`, `perfect:2s`), the SVG file (the record
//! goes to the same name ending in `.json`), `--seed N` for the players' random choices.

use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use sprouts::draw::svg::{SvgOptions, board_svg};
use sprouts::draw::{Settings, WorldSize};
use sprouts::{Game, Limits, Seat};

/// Two computers play a drawn game of Sprouts and write it as SVG and JSON.
#[derive(Parser)]
struct Args {
    /// Spots at the start.
    #[arg(default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=12))]
    spots: u32,
    /// The first player's spec.
    #[arg(default_value = "montecarlo:100")]
    first: String,
    /// The second player's spec.
    #[arg(default_value = "parity-fast:depth=2")]
    second: String,
    /// The SVG file to write; the record goes beside it, ending in `.json`.
    #[arg(default_value = "game.svg")]
    out: PathBuf,
    /// Seed of the players' random choices (the same seed plays the same game).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let json_path = args.out.with_extension("json");
    anyhow::ensure!(json_path != args.out, "the SVG file cannot end in .json");
    let seats = [
        Seat::computer(&args.first, args.seed)?,
        Seat::computer(&args.second, args.seed.wrapping_add(1))?,
    ];
    let world = WorldSize::new(900.0, 600.0);
    let mut game = Game::drawn_spots(args.spots, world, Settings::default(), seats)?;

    while !game.is_over() {
        let seat = game.to_move();
        let played = game
            .computer_step(&Limits::none())
            .with_context(|| format!("move {} by seat {seat}", game.moves().len() + 1))?;
        let spec = game.seats()[seat].spec().unwrap_or("?");
        println!("{:>3}. {spec:<20} {}", played.number, played.words);
    }
    let winner = game.winner().context("the game is over")?;
    println!(
        "seat {winner}, {}, wins after {} moves",
        game.seats()[winner].words(),
        game.moves().len()
    );

    let board = game.board().context("a drawn game has a board")?;
    let svg = board_svg(board, &SvgOptions::default());
    std::fs::write(&args.out, &svg).with_context(|| format!("writing {}", args.out.display()))?;
    let json = game.record().to_json();
    std::fs::write(&json_path, &json)
        .with_context(|| format!("writing {}", json_path.display()))?;
    println!(
        "wrote {} ({} curves, {} bytes) and {} ({} bytes)",
        args.out.display(),
        board.drawing().curves().len(),
        svg.len(),
        json_path.display(),
        json.len()
    );
    Ok(())
}
