//! `sprouts campaign`: the campaign's levels (positions from real games to win against the
//! perfect player). `generate` makes a campaign file from a seed; `list` prints the levels;
//! `play LEVEL` plays one here; `check` proves every level again. The campaign built into the
//! program (the one the web page offers) is `data/campaign.json`, made by
//! `sprouts campaign generate --out sprouts-cli/data/campaign.json --seed 1`.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use sprouts::campaign::{Campaign, GenerateOptions, difficulty, generate};

/// The campaign built into the program.
pub(crate) const BUILT_IN: &str = include_str!("../data/campaign.json");

/// The built-in campaign, read.
pub(crate) fn built_in() -> anyhow::Result<Campaign> {
    Campaign::from_json(BUILT_IN).context("the built-in campaign does not read")
}

/// Arguments of `sprouts campaign`.
#[derive(Debug, clap::Args)]
pub(crate) struct CampaignArgs {
    #[command(subcommand)]
    command: CampaignCommand,
}

#[derive(Debug, clap::Subcommand)]
enum CampaignCommand {
    /// Plays games between computers, takes positions from them, proves and grades them, and
    /// writes the campaign file (the same file for the same options).
    Generate {
        /// The file to write.
        #[arg(long)]
        out: PathBuf,
        /// The seed of the games and of the positions taken.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How many levels.
        #[arg(long, default_value_t = 160)]
        count: usize,
    },
    /// Lists the levels: number, grade, spots, the win's length, winning moves, nodes.
    List {
        /// A campaign file instead of the built-in campaign.
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Plays a level here against the perfect player (type the number of a listed move).
    Play {
        /// The level's number.
        level: u32,
        /// A campaign file instead of the built-in campaign.
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Proves every level again (the solver and a plain minimax) and compares.
    Check {
        /// A campaign file instead of the built-in campaign.
        #[arg(long)]
        file: Option<PathBuf>,
    },
}

/// The campaign in `file`, or the built-in one.
fn read(file: Option<&PathBuf>) -> anyhow::Result<Campaign> {
    match file {
        None => built_in(),
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("cannot read {}", f.display()))?;
            Campaign::from_json(&text).with_context(|| format!("cannot read {}", f.display()))
        }
    }
}

pub(crate) fn run(args: CampaignArgs) -> anyhow::Result<()> {
    match args.command {
        CampaignCommand::Generate { out, seed, count } => {
            if !(1..=10_000).contains(&count) {
                bail!("--count must be between 1 and 10000");
            }
            let options = GenerateOptions {
                seed,
                count,
                ..GenerateOptions::default()
            };
            let t = Instant::now();
            let mut played = 0;
            let campaign = generate(&options, &mut |games, levels| {
                played = games;
                if games % 25 == 0 {
                    eprintln!("{games} games, {levels} levels");
                }
            })?;
            std::fs::write(&out, campaign.to_json())
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!(
                "{} levels from {played} games written to {} in {:.1} s",
                campaign.levels.len(),
                out.display(),
                t.elapsed().as_secs_f64()
            );
            Ok(())
        }
        CampaignCommand::List { file } => {
            let c = read(file.as_ref())?;
            let mut out = std::io::stdout().lock();
            writeln!(
                out,
                "level grade spots length winning/moves nodes difficulty position"
            )?;
            for l in &c.levels {
                writeln!(
                    out,
                    "{:5} {:5} {:5} {:6} {:7}/{:<5} {:5} {:10.1} {}",
                    l.number,
                    l.grade,
                    l.spots,
                    l.proof.win_length,
                    l.proof.winning_moves,
                    l.proof.moves,
                    l.proof.nodes,
                    difficulty(&l.proof),
                    l.glop
                )?;
            }
            Ok(())
        }
        CampaignCommand::Play { level, file } => {
            let c = read(file.as_ref())?;
            let l = c.level(level)?;
            let mut game = l.game()?;
            // The terminal shows no picture: the moves are played on the position alone.
            game.drop_picture();
            println!(
                "level {} (grade {}): win against the perfect player; {} of your {} moves win",
                l.number, l.grade, l.proof.winning_moves, l.proof.moves
            );
            crate::play_local::play_out(&mut game)?;
            if game.winner() == Some(0) {
                println!("level {} won", l.number);
            } else {
                println!("level {} lost: try again", l.number);
            }
            Ok(())
        }
        CampaignCommand::Check { file } => {
            let c = read(file.as_ref())?;
            let t = Instant::now();
            for l in &c.levels {
                l.check()?;
            }
            println!(
                "{} levels proved again in {:.1} s",
                c.levels.len(),
                t.elapsed().as_secs_f64()
            );
            Ok(())
        }
    }
}
