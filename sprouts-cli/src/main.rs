//! The `sprouts` command-line program: the thin binary over the workspace's library crates.

use clap::Parser;

/// Play, draw and solve the game of Sprouts.
#[derive(Debug, Parser)]
#[command(name = "sprouts", version, about)]
struct Cli {}

fn main() -> anyhow::Result<()> {
    let _cli = Cli::parse();
    Ok(())
}
