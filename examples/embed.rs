//! A game of Sprouts against the computer, driven through the library's [`sprouts::Game`]: the
//! whole game loop of your own frontend in a page, without pictures. You choose your move from
//! a numbered list; the computer (the perfect player) replies; the winner is printed.
//!
//! ```sh
//! cargo run --example embed              # 3 spots, moves read from the terminal
//! cargo run --example embed -- 4 --auto  # 4 spots, you always play the first move listed
//! ```
//!
//! When standard input is not a terminal, `--auto` is on.

use std::io::{self, BufRead, IsTerminal, Lines, StdinLock, Write};

use anyhow::{Context, ensure};
use sprouts::ai::players::candidates;
use sprouts::topo::Position;
use sprouts::{Game, HumanInput, Limits, Seat};

/// Who sits in each seat.
const WHO: [&str; 2] = ["you", "the computer"];

fn main() -> anyhow::Result<()> {
    let auto = std::env::args().any(|a| a == "--auto") || !io::stdin().is_terminal();
    let spots: u32 = match std::env::args().skip(1).find(|a| a != "--auto") {
        Some(n) => n.parse().context("the number of spots")?,
        None => 3,
    };
    ensure!((1..=20).contains(&spots), "play with 1 to 20 spots");
    let seats = [Seat::Human, Seat::computer("perfect:2s", 1)?];
    let mut game = Game::new(Position::new(spots), seats);
    let mut lines = io::stdin().lock().lines();

    while !game.is_over() {
        println!("\nposition {}", game.position().to_glop());
        let played = if game.human_to_move() {
            // One move for each different game it leads to, in the order of the spots joined.
            let mut moves = candidates(game.position());
            moves.sort_by_key(|c| c.mv.spots());
            for (i, c) in moves.iter().enumerate() {
                println!("{:>3}. {}", i + 1, c.mv.describe(game.position()));
            }
            let k = choose(&mut lines, moves.len(), auto)?;
            game.play_human(HumanInput::Move(moves[k].mv.clone()))?
        } else {
            game.computer_step(&Limits::none())?
        };
        let who = WHO[played.seat];
        println!("move {}: {who} played {}", played.number, played.words);
    }
    let winner = WHO[game.winner().context("the game is over")?];
    println!(
        "\nno move left after {} moves: {winner} won",
        game.moves().len()
    );
    Ok(())
}

/// The index of the move chosen from a list of `n`: the first with `auto`, or the number typed.
fn choose(lines: &mut Lines<StdinLock>, n: usize, auto: bool) -> anyhow::Result<usize> {
    if auto {
        return Ok(0);
    }
    loop {
        print!("your move (1-{n}): ");
        io::stdout().flush()?;
        let line = lines.next().context("no more input")??;
        match line.trim().parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => return Ok(k - 1),
            _ => println!("type a number from 1 to {n}"),
        }
    }
}
