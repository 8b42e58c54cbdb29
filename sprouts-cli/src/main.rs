//! The `sprouts` command-line program: the thin binary over the workspace's library crates.

mod campaign;
mod input;
mod misere;
mod octal;
mod play;
mod play_local;
mod relay;
mod render;
mod selfplay;
mod serve;
mod solve;
mod topo;

use clap::{Parser, Subcommand};

/// Play, draw and solve the game of Sprouts.
#[derive(Debug, Parser)]
#[command(name = "sprouts", version, about)]
struct Cli {
    /// What to log to stderr: error, warn, info, debug or trace (or a tracing filter such as
    /// `sprouts_net=debug`); RUST_LOG is read when this is not given.
    #[arg(long, global = true, value_name = "LEVEL")]
    log: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The campaign: positions from real games to win against the perfect player.
    Campaign(campaign::CampaignArgs),
    /// Misère outcomes (the player who cannot move wins) of positions or n-spot starts.
    Misere(misere::MisereArgs),
    /// Values, certified period and misère figures of an octal game (Kayles is 0.77).
    Octal(octal::OctalArgs),
    /// The picture of a saved game, as SVG or PNG.
    Render(render::RenderArgs),
    /// The canonical form of a position (GLOP notation in and out).
    Canon(topo::CanonArgs),
    /// The distinct children of a position (canonical forms), one a line.
    Moves(topo::MovesArgs),
    /// Exhaustive counts of the positions reachable from the n-spot start.
    Count(topo::CountArgs),
    /// Outcomes and nimbers of positions in normal play (the solver).
    Solve(solve::SolveArgs),
    /// A position's canonical form, parts, distinct moves and verdict.
    Analyse(solve::AnalyseArgs),
    /// Computer against computer on positions only: the moves of every game and a summary.
    Selfplay(selfplay::SelfplayArgs),
    /// The web UI: play in the browser (what `sprouts` with no arguments does).
    Serve(serve::ServeArgs),
    /// The network-play relay alone (rooms of two players, kept on disk).
    Relay(relay::RelayArgs),
    /// A computer plays one side of a network game through a relay, or a game from a position.
    Play(play::PlayArgs),
}

/// Sends the libraries' `tracing` events to stderr, filtered by `--log` or `RUST_LOG` (warnings
/// and errors by default).
fn init_logging(level: Option<&str>) -> anyhow::Result<()> {
    use anyhow::Context;
    use tracing_subscriber::EnvFilter;
    let filter = match level {
        Some(l) => EnvFilter::try_new(l).with_context(|| format!("`--log {l}` is not a level"))?,
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")),
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init()
        .map_err(|e| anyhow::anyhow!("cannot start logging: {e}"))
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    init_logging(cli.log.as_deref())?;
    match cli.command {
        Some(Command::Campaign(args)) => campaign::run(args),
        Some(Command::Misere(args)) => misere::run(args),
        Some(Command::Octal(args)) => octal::run(args),
        Some(Command::Render(args)) => render::run(args),
        Some(Command::Canon(args)) => topo::canon(args),
        Some(Command::Moves(args)) => topo::moves(args),
        Some(Command::Count(args)) => topo::count(args),
        Some(Command::Solve(args)) => solve::solve(args),
        Some(Command::Analyse(args)) => solve::analyse(args),
        Some(Command::Selfplay(args)) => selfplay::run(args),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Relay(args)) => relay::run(args),
        Some(Command::Play(args)) => play::run(args),
        None => serve::run(serve::ServeArgs::default_args()),
    }
}
