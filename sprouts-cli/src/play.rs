//! `sprouts play`: a computer plays one side of a network game through a relay, printing the
//! moves. `--host` opens a room and prints its code; `--join CODE` takes the other seat (a
//! person at the web UI's Net menu, or another `sprouts play`). `sprouts play POSITION` plays a
//! game from a position here instead (see `play_local`).

use std::time::Duration;

use anyhow::Context;
use rand::Rng;
use sprouts::{Convention, Seat};
use sprouts_net::client::{ClientConfig, Script, Target, play};
use sprouts_net::peer::{Drawing, Notice, PeerConfig, Role, Timing};
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
    /// The computer player at this side (`random`, `montecarlo:200`, `parity-fast:2s`,
    /// `perfect:2s`, ...).
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
    let player = Seat::computer(&args.p1, seed).context("--p1")?;
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
    let outcome = play(
        config,
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
