//! A game of Sprouts against the computer, driven through the library's [`sprouts::Game`]: the
//! whole game loop of your own frontend in a page, without pictures. You choose your move from
//! a numbered list; the computer (the perfect player) replies; the winner is printed.
//!
//! ```sh
//! cargo run --example embed            # 3 spots, moves read from the terminal
//! cargo run --example embed -- 4 --auto  # 4 spots, you always play the first move listed
//! ```
//!
//! When standard input is not a terminal, `--auto` is on.

use std::io::{self, BufRead, IsTerminal, Write};

use anyhow::Context;
use sprouts::topo::Position;
use sprouts::{Game, HumanInput, Limits, Seat};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let auto = args.iter().any(|a| a == "--auto") || !io::stdin().is_terminal();
    let spots: u32 = match args.iter().find(|a| *a != "--auto") {
        Some(n) => n
            .parse()
            .with_context(|| format!("`{n}`: not a number of spots"))?,
        None => 3,
    };
    anyhow::ensure!(
        (1..=20).contains(&spots),
        "play with 1 to 20 spots, not {spots}"
    );
    let seats = [Seat::Human, Seat::computer("perfect:2s", 1)?];
    let mut game = Game::new(Position::new(spots), seats);
    let mut input = io::stdin().lock().lines();

    while !game.is_over() {
        println!("\nposition {}", game.position().to_glop());
        let played = if game.human_to_move() {
            // One move per family and count of interchangeable boundaries: a short list.
            let moves: Vec<_> = game.position().distinct_moves().collect();
            for (i, mv) in moves.iter().enumerate() {
                println!("{:>3}. {}", i + 1, mv.describe(game.position()));
            }
            let choice = if auto {
                0
            } else {
                ask(&mut input, moves.len())?
            };
            game.play_human(HumanInput::Move(moves[choice].clone()))?
        } else {
            game.computer_step(&Limits::none())?
        };
        let who = if played.seat == 0 { "you" } else { "computer" };
        println!("move {}: {who} played {}", played.number, played.words);
    }
    let winner = if game.winner() == Some(0) {
        "you win"
    } else {
        "the computer wins"
    };
    println!(
        "\nno move left after {} moves: {winner}",
        game.moves().len()
    );
    Ok(())
}

/// Reads lines until one is a number from 1 to `n`; returns its index in the list.
fn ask(input: &mut impl Iterator<Item = io::Result<String>>, n: usize) -> anyhow::Result<usize> {
    loop {
        print!("your move (1-{n}): ");
        io::stdout().flush()?;
        let line = input.next().context("no more input")??;
        match line.trim().parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => return Ok(k - 1),
            _ => println!("type a number from 1 to {n}"),
        }
    }
}
