//! `sprouts play POSITION`: a game from any position, played here. Each seat is a computer
//! player or `human` (a person who types the number of one of the listed moves); with `--draw`
//! the position is laid out afresh and every move is drawn and checked on the picture.

use std::io::{BufRead, Write};

use anyhow::{Context, bail};
use rand::Rng;
use sprouts::draw::{Settings, WorldSize};
use sprouts::{Convention, Game, HumanInput, Limits, Seat};

use crate::input::{self, MAX_SEARCH_SPOTS, read_position_within};
use crate::play::PlayArgs;

/// The drawing area of a game drawn with `--draw`.
const WORLD: WorldSize = WorldSize::new(1200.0, 900.0);

fn seat(spec: &str, seed: u64, flag: &str) -> anyhow::Result<Seat> {
    if spec.trim() == "human" {
        return Ok(Seat::Human);
    }
    Seat::computer(spec, seed).with_context(|| format!("{flag} `{spec}`"))
}

/// Plays the game from `position` to its end, printing every move and the winner.
pub(crate) fn run(position: &str, args: &PlayArgs) -> anyhow::Result<()> {
    let pos = read_position_within(position, MAX_SEARCH_SPOTS, "`play`")?;
    let seed = args.seed.unwrap_or_else(|| rand::rng().random());
    let seats = [
        seat(&args.p1, seed, "--p1")?,
        seat(&args.p2, sprouts::ai::seed::splitmix64(seed), "--p2")?,
    ];
    let convention = if args.misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    let mut game = if args.draw {
        Game::from_position(&pos, seats, convention, WORLD, Settings::default())
            .with_context(|| format!("cannot draw `{}`", input::excerpt(position)))?
    } else {
        Game::new(pos, seats).with_convention(convention)
    };
    play_out(&mut game)
}

/// Plays `game` to its end here: a person types the number of a listed move, a computer
/// plays its own; every move and the winner are printed.
pub(crate) fn play_out(game: &mut Game) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let mut lines = std::io::stdin().lock().lines();
    writeln!(out, "start: {}", game.position().to_glop())?;
    while !game.is_over() {
        let player = game.to_move() + 1;
        let played = if game.human_to_move() {
            let moves: Vec<_> = game.position().distinct_moves().collect();
            for (i, mv) in moves.iter().enumerate() {
                writeln!(out, "  {}: {}", i + 1, mv.describe(game.position()))?;
            }
            write!(out, "player {player}, your move (1-{}): ", moves.len())?;
            out.flush()?;
            let Some(line) = lines.next() else {
                bail!("the input ended before the game did");
            };
            let line = line.context("cannot read the move")?;
            let Some(mv) = line
                .trim()
                .parse::<usize>()
                .ok()
                .and_then(|k| k.checked_sub(1))
                .and_then(|k| moves.get(k))
            else {
                writeln!(out, "`{}` is not the number of a listed move", line.trim())?;
                continue;
            };
            game.play_human(HumanInput::Move(mv.clone()))?
        } else {
            game.computer_step(&Limits::none())?
        };
        writeln!(out, "{}. player {player}: {}", played.number, played.words)?;
    }
    let winner = game.winner().map_or(0, |w| w + 1);
    writeln!(
        out,
        "player {winner} wins after {} moves; the end: {}",
        game.moves().len(),
        game.position().to_glop()
    )?;
    Ok(())
}
