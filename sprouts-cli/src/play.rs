//! `sprouts play`: a computer, or a person at the terminal (`--p1 human`), plays one side of a
//! network game through a relay, printing the moves. `--host` opens a room and prints its
//! code; `--join CODE` takes the other seat (a person at the web UI's Net menu, or another
//! `sprouts play`).
//!
//! A person is shown the moves of the position when it is to move, numbered, in the words of
//! `sprouts moves --words` (`1 -> 2`, `1 -> 1 enclosing 2, 3`), and types a number, the words,
//! or `undo`.

use std::time::Duration;

use anyhow::Context;
use rand::Rng;
use sprouts::{Convention, Seat};
use std::io::BufRead;
use std::sync::{Arc, Mutex};

use sprouts::topo::{Move, Position};
use sprouts_net::client::{ClientConfig, Person, Script, Target, play_as};
use sprouts_net::peer::{Drawing, Event, Notice, PeerConfig, Role, Timing};
use sprouts_net::relay::RoomCode;

/// Arguments of `sprouts play`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("room").required(true).args(["host", "join", "position"])))]
pub(crate) struct PlayArgs {
    /// A position in GLOP notation to play from here, without a relay (`--p1` moves first,
    /// `--p2` answers; `human` is a person typing the number of a listed move).
    #[arg(conflicts_with_all = ["host", "join"])]
    pub(crate) position: Option<String>,
    /// The other player of a game from POSITION.
    #[arg(long, default_value = "human", requires = "position")]
    pub(crate) p2: String,
    /// Draw the game from POSITION (laid out afresh, every move drawn and checked).
    #[arg(long, requires = "position")]
    pub(crate) draw: bool,
    /// Open a room and play as its host (Player 1, who starts the games).
    #[arg(long)]
    host: bool,
    /// Join the room with this code (as the guest, or with `--as-host` as a host coming back).
    #[arg(long, value_name = "CODE")]
    join: Option<String>,
    /// Come back to the room as its host (with `--join`).
    #[arg(long, requires = "join")]
    as_host: bool,
    /// The relay: a `sprouts serve` or `sprouts relay` endpoint.
    #[arg(long, default_value = "ws://127.0.0.1:8080/relay")]
    relay: String,
    /// The player at this side: `human` (a person typing moves at the terminal) or a computer
    /// player (`random`, `montecarlo:200`, `parity-fast:2s`, `perfect:2s`, ...).
    #[arg(long, default_value = "perfect:2s")]
    pub(crate) p1: String,
    /// The name the other side sees.
    #[arg(long, default_value = "sprouts play")]
    name: String,
    /// Spots of each game (the host's choice).
    #[arg(long, default_value_t = 5)]
    spots: u32,
    /// Games to play (the host's choice). A guest plays until the host leaves, or as many
    /// games as this says.
    #[arg(long)]
    games: Option<usize>,
    /// Misère play (the host's choice).
    #[arg(long)]
    pub(crate) misere: bool,
    /// Seed of the computer player (random when not given).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 3600)]
    timeout: u64,
}

pub(crate) fn run(args: PlayArgs) -> anyhow::Result<()> {
    if let Some(position) = &args.position {
        return crate::play_local::run(position, &args);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: PlayArgs) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(|| rand::rng().random());
    let (role, target) = match &args.join {
        Some(code) => {
            let code: RoomCode = code
                .parse()
                .context("a room code is 32 hexadecimal digits")?;
            let role = if args.as_host {
                Role::Host
            } else {
                Role::Guest
            };
            (role, Target::Join(code))
        }
        None => (Role::Host, Target::Create),
    };
    let human = args.p1.trim() == "human";
    let player = if human {
        Seat::Human
    } else {
        Seat::computer(&args.p1, seed).context("--p1")?
    };
    let config = ClientConfig {
        url: args.relay.clone(),
        target,
        peer: PeerConfig {
            role,
            name: args.name.clone(),
            player,
            drawing: Drawing::Positions,
            timing: Timing::default(),
            seed: rand::rng().random(),
        },
        script: Script {
            games: match (role, args.games) {
                (Role::Host, g) => g.unwrap_or(1).max(1),
                (Role::Guest, g) => g.unwrap_or(0),
            },
            spots: args.spots,
            convention: if args.misere {
                Convention::Misere
            } else {
                Convention::Normal
            },
            ..Script::default()
        },
        faults: None,
        tick: Duration::from_millis(100),
        deadline: Duration::from_secs(args.timeout),
    };
    let relay = args.relay.clone();
    let person = human.then(person_at_terminal);
    let outcome = play_as(
        config,
        person,
        |code| {
            if role == Role::Host && args.join.is_none() {
                println!("room {code}");
                println!("the other player joins with: sprouts play --join {code} --relay {relay}");
            }
        },
        |notice| match notice {
            Notice::Acknowledged => {}
            other => println!("{other}"),
        },
    )
    .await
    .context("the game did not finish")?;
    for (i, g) in outcome.games.iter().enumerate() {
        let game = g.clone().into_game().context("a finished game")?;
        let winner = game
            .winner()
            .map_or("nobody yet".to_owned(), |w| format!("player {}", w + 1));
        println!("game {}: {} moves, {winner} won", i + 1, game.moves().len());
    }
    Ok(())
}

/// A person at the terminal: the moves shown when it is to move, its lines read on a thread of
/// their own.
fn person_at_terminal() -> Person {
    let shown: Arc<Mutex<Option<Position>>> = Arc::new(Mutex::new(None));
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let reader = Arc::clone(&shown);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            let pos = reader.lock().map(|p| p.clone()).unwrap_or_default();
            match read_action(&line, pos.as_ref()) {
                Ok(Some(e)) => {
                    if tx.send(e).is_err() {
                        break;
                    }
                }
                Ok(None) => {}
                Err(e) => println!("{e}"),
            }
        }
    });
    Person {
        actions: rx,
        on_turn: Box::new(move |pos: &Position| {
            let moves: Vec<Move> = pos.distinct_moves().collect();
            println!("your move ({} lives); the moves:", pos.total_lives());
            for (i, m) in moves.iter().enumerate() {
                println!("  {}. {}", i + 1, m.describe(pos));
            }
            println!("type a number, a move as shown, or undo:");
            if let Ok(mut p) = shown.lock() {
                *p = Some(pos.clone());
            }
        }),
    }
}

/// A person's line: a move of `pos` (its number in the list shown, or its words), `undo`, or
/// nothing (an empty line).
///
/// # Errors
/// The line names no move of the position, or it is not the person's turn.
fn read_action(line: &str, pos: Option<&Position>) -> Result<Option<Event>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    if line == "undo" {
        return Ok(Some(Event::Undo));
    }
    let pos = pos.ok_or("not your turn yet")?;
    let moves: Vec<Move> = pos.distinct_moves().collect();
    let chosen = match line.parse::<usize>() {
        Ok(i) => moves.get(i.wrapping_sub(1)).cloned(),
        Err(_) => moves.into_iter().find(|m| m.describe(pos) == line),
    };
    chosen
        .map(|m| Some(Event::Move(m)))
        .ok_or_else(|| format!("`{line}` is not one of the moves shown (a number, or the words)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_types_a_number_the_words_or_undo() {
        let pos = Position::new(2);
        let moves: Vec<Move> = pos.distinct_moves().collect();
        let second = moves[1].describe(&pos);
        let by_number = read_action("2", Some(&pos)).expect("a move");
        let by_words = read_action(&second, Some(&pos)).expect("a move");
        match (by_number, by_words) {
            (Some(Event::Move(a)), Some(Event::Move(b))) => {
                assert_eq!(a.describe(&pos), second);
                assert_eq!(b.describe(&pos), second);
            }
            other => panic!("not moves: {other:?}"),
        }
        assert!(matches!(read_action(" undo ", None), Ok(Some(Event::Undo))));
        assert!(matches!(read_action("", None), Ok(None)));
        assert!(read_action("0", Some(&pos)).is_err());
        assert!(read_action("99", Some(&pos)).is_err());
        assert!(read_action("1 -> 9", Some(&pos)).is_err());
        assert!(read_action("1", None).is_err());
    }
}
