//! `sprouts canon`, `sprouts moves` and `sprouts count`: the topological layer from the command
//! line (positions in GLOP notation).

use std::io::{IsTerminal, Write};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sprouts_topo::canon::DEFAULT_BUDGET;
use sprouts_topo::perft::{Equivalence, survey};
use sprouts_topo::{Position, Reductions};

use crate::input::{MAX_SEARCH_SPOTS, read_position, read_position_within};

/// Arguments of `sprouts canon`.
#[derive(Debug, Args)]
pub(crate) struct CanonArgs {
    /// The position, in GLOP notation (for example `0*8.AB|0*3.AB`).
    position: String,
    /// Drop only dead regions and stumps (no GLOP reductions).
    #[arg(long)]
    plain: bool,
    /// Also print each independent land's form on its own line.
    #[arg(long)]
    lands: bool,
}

/// Arguments of `sprouts moves`.
#[derive(Debug, Args)]
pub(crate) struct MovesArgs {
    /// The position, in GLOP notation; its spots are numbered 1, 2, ... in order of appearance.
    position: String,
    /// List every distinct move in words with the form it leads to, instead of the distinct
    /// children only.
    #[arg(long)]
    words: bool,
}

/// Arguments of `sprouts count`.
#[derive(Debug, Args)]
pub(crate) struct CountArgs {
    /// The number of spots of the start.
    #[arg(long)]
    spots: u32,
    /// The equivalences to count under (repeatable): glop, plain, structure, live, stumpless,
    /// each with `-whole` (only whole mirror images identified) or `-oriented` (none), or
    /// labelled. By default glop, plain and plain-whole.
    #[arg(long = "equivalence", value_name = "NAME")]
    equivalences: Vec<String>,
}

/// `sprouts canon POSITION`: the canonical form.
pub(crate) fn canon(args: CanonArgs) -> anyhow::Result<()> {
    let pos = read_position(&args.position)?;
    let reductions = if args.plain {
        Reductions::Plain
    } else {
        Reductions::Glop
    };
    let form = pos.canonical_with(reductions, DEFAULT_BUDGET);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{form}")?;
    if args.lands {
        for land in form.lands() {
            writeln!(out, "  {land}")?;
        }
    }
    if !form.is_exact() {
        eprintln!(
            "note: the form was finished greedily past its work budget; an equal position may get another name"
        );
    }
    Ok(())
}

/// `sprouts moves POSITION`: the distinct children.
pub(crate) fn moves(args: MovesArgs) -> anyhow::Result<()> {
    let pos = read_position_within(&args.position, MAX_SEARCH_SPOTS, "`moves`")?;
    let mut out = std::io::stdout().lock();
    if args.words {
        for mv in pos.distinct_moves() {
            let child = pos.play(&mv).context("a listed move is legal")?;
            writeln!(out, "{}\t{}", mv.describe(&pos), child.canonical())?;
        }
    } else {
        let mut inexact = false;
        for child in pos.distinct_children() {
            inexact |= !child.is_exact();
            writeln!(out, "{child}")?;
        }
        if inexact {
            eprintln!("note: some forms were finished greedily past their work budget");
        }
    }
    Ok(())
}

/// `sprouts count --spots N`: exhaustive counts from the n-spot start.
pub(crate) fn count(args: CountArgs) -> anyhow::Result<()> {
    if args.spots == 0 || args.spots > 12 {
        bail!("--spots must be between 1 and 12 (the counts grow very fast)");
    }
    let names: Vec<String> = if args.equivalences.is_empty() {
        vec!["glop".into(), "plain".into(), "plain-whole".into()]
    } else {
        args.equivalences.clone()
    };
    let mut eqs = Vec::new();
    for name in &names {
        let eq = Equivalence::from_name(name).with_context(|| {
            format!("unknown equivalence `{name}` (glop, plain, structure, live, stumpless, with -whole or -oriented, or labelled)")
        })?;
        eqs.push(eq);
    }
    let start = Position::new(args.spots);
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(1);
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let t = Instant::now();
    let result = survey(&start, &eqs, |depth, done, of| {
        if let Some(bar) = &bar {
            bar.set_message(format!("depth {depth}"));
            bar.set_length(of as u64);
            bar.set_position(done as u64);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let seconds = t.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "# positions reachable from {} spots, by number of moves made",
        args.spots
    )?;
    write!(out, "{:>5}", "moves")?;
    for c in &result.counts {
        write!(out, " {:>14}", c.equivalence.name())?;
    }
    writeln!(out)?;
    let depths = result.counts.first().map_or(0, |c| c.per_depth.len());
    for d in 0..depths {
        write!(out, "{d:>5}")?;
        for c in &result.counts {
            write!(out, " {:>14}", c.per_depth[d])?;
        }
        writeln!(out)?;
    }
    write!(out, "{:>5}", "sum")?;
    for c in &result.counts {
        write!(out, " {:>14}", c.total())?;
    }
    writeln!(out)?;
    write!(out, "{:>5}", "all")?;
    for c in &result.counts {
        write!(out, " {:>14}", c.distinct)?;
    }
    writeln!(out, "   (distinct over all depths)")?;
    writeln!(
        out,
        "# games last {} to {} moves; {:.2} s{}",
        result.shortest_game,
        result.longest_game,
        seconds,
        if result.exact {
            ""
        } else {
            "; some forms were finished greedily past their work budget"
        }
    )?;
    Ok(())
}
