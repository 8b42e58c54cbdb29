//! `sprouts misere`: misère outcomes (the player who cannot move wins) of positions and n-spot
//! starts, by `sprouts_ai::misere_play::MisereSproutsSolver`.

use std::io::IsTerminal;
use std::ops::RangeInclusive;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sprouts_ai::impartial::Outcome;
use sprouts_ai::misere_play::{MisereConfig, MisereSproutsSolver};
use sprouts_topo::Position;

use crate::input::{self, MAX_SEARCH_SPOTS, read_position_within};
use crate::solve::{self, json_string};

/// Arguments of `sprouts misere`.
#[derive(Debug, Args)]
pub(crate) struct MisereArgs {
    /// Positions in GLOP notation (for example `0*8.AB|0*3.AB`); `!` is the game over.
    pub(crate) positions: Vec<String>,
    /// n-spot starts to decide, `A..=B` (or one number), one after the other with the same
    /// tables.
    #[arg(long, value_name = "A..=B")]
    pub(crate) spots: Option<String>,
    /// Give up on a position after this many CPU seconds of the search ("unknown"); `--wall`:
    /// seconds of wall time.
    #[arg(long, value_name = "SECONDS")]
    pub(crate) time: Option<f64>,
    /// `--time` counts seconds of wall time rather than CPU time.
    #[arg(long, requires = "time")]
    pub(crate) wall: bool,
    /// Worker threads (default 1, whose node counts are deterministic). With more, each thread
    /// keeps its own tables and a position's children are shared out among them.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Memory for the search's tables (`4G`, `512M`, bytes): proven positions, proof numbers,
    /// children lists, memos of sums; proven positions are kept longest. Default: a quarter of
    /// the machine's memory. The lands met and their canonical trees (about 120 bytes a land)
    /// are not bounded (see `docs/solver.md`).
    #[arg(long, value_name = "SIZE")]
    pub(crate) memory: Option<String>,
    /// Give up on a position after this many nodes ("unknown").
    #[arg(long)]
    pub(crate) nodes: Option<u64>,
    /// One JSON object a line instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Lands with at most this many lives are replaced by their misère canonical trees (the
    /// solver's default when not given).
    #[arg(long, value_name = "LIVES")]
    pub(crate) tree_lives: Option<u32>,
    /// Lands with at most this many lives are replaced by their trees beside a larger land (the
    /// solver's default when not given).
    #[arg(long, value_name = "LIVES")]
    pub(crate) side_tree_lives: Option<u32>,
    /// After each position, print the sizes of the solver's tables to stderr.
    #[arg(long)]
    pub(crate) stats: bool,
}

/// Reads `A..=B`, `A..B` or `A`.
fn parse_range(text: &str) -> anyhow::Result<RangeInclusive<u32>> {
    let number = |s: &str| -> anyhow::Result<u32> {
        s.trim()
            .parse()
            .with_context(|| format!("`{s}` is not a number of spots"))
    };
    let range = if let Some((a, b)) = text.split_once("..=") {
        number(a)?..=number(b)?
    } else if let Some((a, b)) = text.split_once("..") {
        let b = number(b)?;
        if b == 0 {
            bail!("the range `{text}` is empty");
        }
        number(a)?..=b - 1
    } else {
        let n = number(text)?;
        n..=n
    };
    if range.is_empty() {
        bail!("the range `{text}` is empty");
    }
    if *range.end() as usize > MAX_SEARCH_SPOTS {
        bail!("at most {MAX_SEARCH_SPOTS} spots");
    }
    Ok(range)
}

fn read_position(text: &str) -> anyhow::Result<Position> {
    if text == "!" {
        return Ok(Position::new(0));
    }
    read_position_within(text, MAX_SEARCH_SPOTS, "`misere`")
}

/// The most lives `--tree-lives` and `--side-tree-lives` take: a land's tree is a full
/// exploration of the land, already out of reach well below this.
const MAX_TREE_LIVES: u32 = 40;

/// Runs `sprouts misere`.
pub(crate) fn run(args: MisereArgs) -> anyhow::Result<()> {
    let mut jobs: Vec<(String, Position)> = Vec::new();
    if let Some(spots) = &args.spots {
        for n in parse_range(spots)? {
            jobs.push((format!("{n} spots"), Position::new(n)));
        }
    }
    for text in &args.positions {
        jobs.push((input::excerpt(text), read_position(text)?));
    }
    if jobs.is_empty() {
        bail!("nothing to solve: give positions or --spots A..=B");
    }
    let threads = input::threads(args.threads)?.unwrap_or(1);
    let limits = || solve::limits(args.nodes, args.time, args.wall);
    limits()?;
    let mut config = MisereConfig {
        table_bytes: Some(
            usize::try_from(solve::memory_budget(args.memory.as_deref())?).unwrap_or(usize::MAX),
        ),
        ..MisereConfig::default()
    };
    if let Some(lives) = args.tree_lives {
        config.tree_lives = input::bounded("--tree-lives", lives, 0, MAX_TREE_LIVES)?;
    }
    if let Some(lives) = args.side_tree_lives {
        config.side_tree_lives = input::bounded("--side-tree-lives", lives, 0, MAX_TREE_LIVES)?;
    }
    let solver = MisereSproutsSolver::with_threads(config, threads);
    if !args.json {
        println!("position\tmisère outcome\tseconds\tnodes");
    }
    for (name, position) in jobs {
        let bar = match std::io::stderr().is_terminal() {
            true => {
                let bar = ProgressBar::new_spinner().with_message(format!("solving {name}"));
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                        .expect("a valid template"),
                );
                bar.enable_steady_tick(Duration::from_millis(200));
                bar
            }
            false => ProgressBar::hidden(),
        };
        let start = std::time::Instant::now();
        let solved = solver.outcome(&position, &limits()?);
        bar.finish_and_clear();
        let outcome = match solved.value {
            Some(Outcome::Win) => "W",
            Some(Outcome::Loss) => "L",
            None => "unknown",
        };
        let seconds = start.elapsed().as_secs_f64();
        match args.json {
            true => println!(
                "{{\"position\":{},\"outcome\":{},\"seconds\":{seconds:.3},\"nodes\":{}}}",
                json_string(&name),
                json_string(outcome),
                solved.nodes
            ),
            false => println!("{name}\t{outcome}\t{seconds:.2}\t{}", solved.nodes),
        }
        if args.stats {
            let stats = solver.stats();
            eprintln!(
                "{name}: {} lands ({} bytes), {} land trees, {} trees, {} proven positions ({} \
                 bytes of bounded tables, {} dropped)",
                stats.lands,
                stats.land_bytes,
                stats.land_trees,
                stats.trees,
                stats.table,
                stats.table_bytes,
                stats.evicted
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("1..=4").unwrap(), 1..=4);
        assert_eq!(parse_range("1..4").unwrap(), 1..=3);
        assert_eq!(parse_range("7").unwrap(), 7..=7);
        assert!(parse_range("4..=1").is_err());
        assert!(parse_range("1..0").is_err());
        assert!(parse_range("x").is_err());
        assert!(parse_range("1..=100000").is_err());
        assert!(parse_range("1..=501").is_err());
        assert!(parse_range("500").is_ok());
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }
}
