//! `sprouts solve` and `sprouts analyse`: the normal-play solver from the command line.

use std::fs::File;
use std::io::{BufReader, IsTerminal, Write};
use std::mem::ManuallyDrop;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use sprouts_ai::analysis::{BoardEvent, analyse_board};
use sprouts_ai::impartial::{Nimber, Outcome};
use sprouts_ai::solver::{
    DbError, DbFile, Solver, SolverConfig, TextFormat, check_output, write_atomically,
};
use sprouts_ai::{Clock, Limits, Solved};
use sprouts_topo::Position;

use crate::input::{self, MAX_SEARCH_SPOTS, read_position_within};

/// Arguments of `sprouts solve`.
#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// Positions in GLOP notation (for example `0*8.AB|0*3.AB`).
    positions: Vec<String>,
    /// Also compute the nimber of each position.
    #[arg(long, conflicts_with = "misere")]
    nimber: bool,
    /// Misère play (the player who cannot move wins): outcomes by misère canonical trees, as
    /// `sprouts misere` does.
    #[arg(long, conflicts_with_all = ["db", "export", "import"])]
    misere: bool,
    /// Solve the n-spot starts in this range (`A..=B`, `A..B` or `N`).
    #[arg(long, value_name = "RANGE")]
    spots: Option<String>,
    /// Worker threads (default: all cores). With 1 the search is deterministic.
    #[arg(long)]
    threads: Option<usize>,
    /// A database of proved results: loaded if the file exists, saved after every position.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Write what the tables know at the end to FILE as text, in the `--format` given.
    #[arg(long, value_name = "FILE")]
    export: Option<PathBuf>,
    /// The format of `--export`: `couples`, every losing couple `L+*k` one a line (GLOP
    /// notation); `glop` or `spots`, a nimber database as that program writes it
    /// (`[Positions+Nimber]`, then `LAND NIMBER` lines).
    #[arg(long, value_enum, default_value_t = ExportFormat::Couples, requires = "export")]
    format: ExportFormat,
    /// Read a database of GLOP or SPOTS (text: `[Positions+Nimber]` then `POSITION NIMBER`
    /// lines, or GLOP's `[WinLoss:Losing_Position]`) into the tables before solving; both
    /// programs' files are read alike. May be given more than once.
    #[arg(long, value_name = "FILE")]
    import: Vec<PathBuf>,
    /// One JSON object per position on standard output.
    #[arg(long)]
    json: bool,
    /// Give up on a position after this many nodes (the verdict is then "unknown").
    #[arg(long)]
    nodes: Option<u64>,
    /// Give up on a position after this many CPU seconds of the search, every thread's
    /// (`--wall`: seconds of wall time); the verdict is then "unknown".
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    /// `--time` counts seconds of wall time rather than CPU time.
    #[arg(long, requires = "time")]
    wall: bool,
    /// Memory for the solver's tables, every one of them (`4G`, `512M`, bytes): the table of
    /// proved facts gets half and is the last to forget. Default: a quarter of the machine's
    /// memory. The search's own frames and the program come on top.
    #[arg(long, value_name = "SIZE")]
    memory: Option<String>,
    /// Solve the smaller lands of a split outright when first met, rather than inside the
    /// proof-number search (same verdicts, other node counts).
    #[arg(long, conflicts_with = "misere")]
    settle_lands: bool,
}

/// What `sprouts solve --export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExportFormat {
    /// Losing couples `L+*k`, one a line.
    Couples,
    /// A nimber database as GLOP writes it.
    Glop,
    /// A nimber database as SPOTS writes it.
    Spots,
}

/// Arguments of `sprouts analyse`.
#[derive(Debug, Args)]
pub(crate) struct AnalyseArgs {
    /// The position, in GLOP notation.
    position: String,
    /// Seconds the solver may spend on the verdict.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    time: f64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// Parses `A..=B`, `A..B` or `N` into an inclusive range of spot counts.
fn parse_range(text: &str) -> anyhow::Result<(u32, u32)> {
    let num = |s: &str| -> anyhow::Result<u32> {
        s.trim()
            .parse::<u32>()
            .with_context(|| format!("`{s}` is not a number of spots"))
    };
    let (a, b) = if let Some((a, b)) = text.split_once("..=") {
        (num(a)?, num(b)?)
    } else if let Some((a, b)) = text.split_once("..") {
        let b = num(b)?;
        if b == 0 {
            bail!("the range `{text}` is empty");
        }
        (num(a)?, b - 1)
    } else {
        let n = num(text)?;
        (n, n)
    };
    if a > b {
        bail!("the range `{text}` is empty");
    }
    if b as usize > MAX_SEARCH_SPOTS {
        bail!("{b} spots: the solver takes at most {MAX_SEARCH_SPOTS}");
    }
    Ok((a, b))
}

/// The longest `--time` any command takes, in seconds (a year).
pub(crate) const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// The limits of one position from `--nodes`, `--time` and `--wall`: `--time` is in CPU
/// seconds of this process (every thread's), so a machine busy with other work does not end a
/// search early; with `wall` it is in seconds of wall time.
pub(crate) fn limits(nodes: Option<u64>, time: Option<f64>, wall: bool) -> anyhow::Result<Limits> {
    let clock = match wall {
        true => Clock::system(),
        false => Clock::cpu(),
    };
    let mut limits = Limits::none().with_clock(clock);
    limits.nodes = nodes;
    if let Some(secs) = time {
        limits = limits.with_time(input::seconds("--time", secs, MAX_SECONDS)?);
    }
    Ok(limits)
}

/// The memory `--memory` gives the tables: the size given, or a quarter of the machine's memory
/// (2 GiB where it cannot be read).
pub(crate) fn memory_budget(memory: Option<&str>) -> anyhow::Result<u64> {
    const MOST: u64 = 1 << 50;
    match memory {
        Some(text) => input::bytes("--memory", text, SolverConfig::MIN_MEMORY as u64, MOST),
        None => Ok(input::machine_memory().map_or(2 << 30, |m| m / 4)),
    }
}

fn make_solver(
    threads: Option<usize>,
    settle_lands: bool,
    memory: Option<&str>,
) -> anyhow::Result<Solver> {
    let budget = usize::try_from(memory_budget(memory)?).unwrap_or(usize::MAX);
    let mut config = SolverConfig {
        interleave_lands: !settle_lands,
        ..SolverConfig::default()
    }
    .within_memory(budget);
    if let Some(t) = input::threads(threads)? {
        config.threads = t;
    }
    Ok(Solver::new(config)?)
}

/// Runs `f` while a spinner on standard error (when it is a terminal) shows the solver's nodes
/// per second.
fn with_progress<T: Send>(solver: &Solver, label: &str, f: impl FnOnce() -> T + Send) -> T {
    if !std::io::stderr().is_terminal() {
        return f();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let done = std::sync::atomic::AtomicBool::new(false);
    let start_nodes = solver.nodes_expanded();
    let start = Instant::now();
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let nodes = solver.nodes_expanded() - start_nodes;
                let rate = nodes as f64 / start.elapsed().as_secs_f64().max(1e-3);
                bar.set_message(format!("{label}: {nodes} nodes, {rate:.0} nodes/s"));
                bar.tick();
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let r = f();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        r
    });
    bar.finish_and_clear();
    result
}

fn load_db(solver: &Solver, db: &DbFile) -> anyhow::Result<()> {
    let stats = db
        .load_into(solver)
        .with_context(|| format!("cannot load the database {}", db.path().display()))?;
    if let Some(stats) = stats {
        eprintln!(
            "loaded {} lands from {} ({} new)",
            stats.entries,
            db.path().display(),
            stats.new_lands
        );
    }
    Ok(())
}

/// Saves the solver's facts, merged with whatever another run saved meanwhile.
fn save_db(solver: &Solver, db: &DbFile) -> anyhow::Result<()> {
    let stats = db
        .save(solver)
        .with_context(|| format!("cannot save the database {}", db.path().display()))?;
    if stats.merged.new_lands > 0 {
        eprintln!(
            "merged {} lands another run saved to {}",
            stats.merged.new_lands,
            db.path().display()
        );
    }
    Ok(())
}

fn import_text(solver: &Solver, path: &Path) -> anyhow::Result<()> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let stats = solver
        .import_text(BufReader::new(file))
        .with_context(|| format!("cannot import {}", path.display()))?;
    eprintln!(
        "imported {} lands from {} ({} new; {} lines of several lands or none left out)",
        stats.lands,
        path.display(),
        stats.new_lands,
        stats.left_out
    );
    Ok(())
}

fn export(solver: &Solver, path: &Path, format: ExportFormat) -> anyhow::Result<()> {
    let what = write_atomically(path, |out| match format {
        ExportFormat::Couples => solver
            .export_losing_couples(out)
            .map(|stats| format!("{} losing couples", stats.couples)),
        ExportFormat::Glop | ExportFormat::Spots => {
            let text = if format == ExportFormat::Glop {
                TextFormat::Glop
            } else {
                TextFormat::Spots
            };
            let stats = solver
                .export_text(out, text)
                .map_err(|e| DbError::Io(std::io::Error::other(e.to_string())))?;
            Ok(format!(
                "{} lands with their nimbers ({} lands with only some couples known left out)",
                stats.lands, stats.without_nimber
            ))
        }
    })
    .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("wrote {what} to {}", path.display());
    Ok(())
}

fn outcome_word(o: Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::Win) => "W",
        Some(Outcome::Loss) => "L",
        None => "unknown",
    }
}

/// A JSON string literal.
pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `sprouts solve`.
pub(crate) fn solve(args: SolveArgs) -> anyhow::Result<()> {
    if args.misere {
        return crate::misere::run(crate::misere::MisereArgs {
            positions: args.positions,
            spots: args.spots,
            time: args.time,
            wall: args.wall,
            threads: args.threads,
            memory: args.memory,
            nodes: args.nodes,
            json: args.json,
            tree_lives: None,
            side_tree_lives: None,
            stats: false,
        });
    }
    // A position that does not read is reported where its answer would be, and the batch goes
    // on with the others.
    let mut jobs: Vec<(String, anyhow::Result<Position>)> = Vec::new();
    if let Some(range) = &args.spots {
        let (a, b) = parse_range(range)?;
        for n in a..=b {
            jobs.push((format!("{n} spots"), Ok(Position::new(n))));
        }
    }
    for text in &args.positions {
        jobs.push((
            input::excerpt(text),
            read_position_within(text, MAX_SEARCH_SPOTS, "the solver"),
        ));
    }
    if jobs.is_empty() && args.import.is_empty() && args.export.is_none() {
        bail!("nothing to solve: give positions in GLOP notation or --spots A..=B");
    }
    limits(args.nodes, args.time, args.wall)?;
    // Every output is checked before the first position is solved.
    let db = args.db.as_deref().map(DbFile::new);
    if let Some(db) = &db {
        db.check()
            .with_context(|| format!("cannot use the database {}", db.path().display()))?;
    }
    if let Some(path) = &args.export {
        check_output(path)?;
    }
    // The process ends with this command, so the solver's tables are left to the operating
    // system instead of being freed entry by entry: after a long search they hold millions of
    // small allocations, and freeing them kept the process running for seconds after its last
    // answer (docs/performance.md, Solver).
    let solver = ManuallyDrop::new(make_solver(
        args.threads,
        args.settle_lands,
        args.memory.as_deref(),
    )?);
    if let Some(db) = &db {
        load_db(&solver, db)?;
    }
    for path in &args.import {
        import_text(&solver, path)?;
    }
    if let (Some(db), false) = (&db, args.import.is_empty()) {
        save_db(&solver, db)?;
    }
    let mut out = std::io::stdout().lock();
    let mut unread = 0usize;
    for (label, pos) in &jobs {
        let pos = match pos {
            Ok(pos) => pos,
            Err(e) => {
                unread += 1;
                if args.json {
                    writeln!(
                        out,
                        "{{\"position\":{},\"error\":{}}}",
                        json_string(label),
                        json_string(&format!("{e:#}"))
                    )?;
                    out.flush()?;
                } else {
                    eprintln!("error: {e:#}");
                }
                continue;
            }
        };
        let limits = limits(args.nodes, args.time, args.wall)?;
        let start = Instant::now();
        let outcome: Solved<Outcome> =
            with_progress(&solver, label, || solver.outcome(pos, &limits));
        let nimber: Option<Solved<Nimber>> = match args.nimber {
            true => Some(with_progress(&solver, label, || {
                solver.nimber(pos, &limits)
            })),
            false => None,
        };
        let nodes = outcome.nodes + nimber.as_ref().map_or(0, |n| n.nodes);
        let seconds = start.elapsed().as_secs_f64();
        let form = pos.canonical();
        if args.json {
            let nim = match nimber.as_ref().map(|n| n.value) {
                Some(Some(n)) => n.0.to_string(),
                _ => "null".into(),
            };
            let mut line = format!(
                "{{\"position\":{},\"canonical\":{},\"outcome\":{}",
                json_string(label),
                json_string(form.as_str()),
                json_string(outcome_word(outcome.value))
            );
            if args.nimber {
                line.push_str(&format!(",\"nimber\":{nim}"));
            }
            line.push_str(&format!(",\"nodes\":{nodes},\"seconds\":{seconds:.3}}}"));
            writeln!(out, "{line}")?;
        } else {
            let mut line = format!("{label}\t{}", outcome_word(outcome.value));
            if let Some(n) = &nimber {
                match n.value {
                    Some(v) => line.push_str(&format!("\tnimber {}", v.0)),
                    None => line.push_str("\tnimber unknown"),
                }
            }
            line.push_str(&format!("\t{nodes} nodes\t{seconds:.2} s"));
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        if let Some(db) = &db {
            save_db(&solver, db)?;
        }
    }
    if let Some(path) = &args.export {
        export(&solver, path, args.format)?;
    }
    if unread > 0 {
        bail!(
            "{unread} of {} positions could not be read (reported above)",
            jobs.len()
        );
    }
    Ok(())
}

/// `sprouts analyse POSITION`: the analysis board ([`sprouts_ai::analysis`]), each line
/// printed as soon as it is known.
pub(crate) fn analyse(args: AnalyseArgs) -> anyhow::Result<()> {
    let pos = read_position_within(&args.position, MAX_SEARCH_SPOTS, "`analyse`")?;
    let solver = make_solver(args.threads, false, None)?;
    let limits = limits(None, Some(args.time), true)?;
    let start = Instant::now();
    let mut out = std::io::stdout();
    let mut failed: Option<std::io::Error> = None;
    let mut parts: Vec<String> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let report = with_progress(&solver, "analyse", || {
        analyse_board(&pos, &solver, &limits, &mut |event| {
            if failed.is_none()
                && let Err(e) = print_event(&mut out, event, &mut parts, &mut moves)
            {
                failed = Some(e);
            }
            let _ = out.flush();
        })
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let winning = report.winning_moves().count();
    let unknown = report.moves.iter().filter(|m| m.winning.is_none()).count();
    writeln!(
        out,
        "winning moves: {winning} of the {} listed{}",
        report.moves.len(),
        if unknown > 0 {
            format!(" ({unknown} unknown within {} s)", args.time)
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "searched: {} nodes, {:.2} s",
        report.nodes,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// Prints one step of the analysis board.
fn print_event(
    out: &mut impl Write,
    event: &BoardEvent,
    parts: &mut Vec<String>,
    moves: &mut Vec<String>,
) -> std::io::Result<()> {
    match event {
        BoardEvent::Started(r) => {
            writeln!(out, "canonical: {}", r.canonical)?;
            writeln!(out, "moves left: at least {}, at most {}", r.lower, r.upper)?;
            writeln!(out, "parts: {}", r.parts.len())?;
            for p in &r.parts {
                writeln!(out, "  {}", p.land)?;
            }
            if r.move_count > r.moves.len() as u128 {
                writeln!(
                    out,
                    "distinct moves: {} (the first {} listed)",
                    r.move_count,
                    r.moves.len()
                )?;
            } else {
                writeln!(out, "distinct moves: {}", r.move_count)?;
            }
            *parts = r.parts.iter().map(|p| p.land.clone()).collect();
            *moves = r
                .moves
                .iter()
                .map(|m| format!("{} (to {})", m.words, m.child))
                .collect();
        }
        BoardEvent::Part { index, nimber } => {
            let land = parts.get(*index).map_or("", String::as_str);
            match nimber {
                Some(n) => writeln!(out, "part {}: nimber {n} for {land}", index + 1)?,
                None => writeln!(out, "part {}: nimber unknown for {land}", index + 1)?,
            }
        }
        BoardEvent::Outcome { nimber, outcome } => match (outcome, nimber) {
            (Some(o), n) => {
                let who = if *o == Outcome::Win { "wins" } else { "loses" };
                match n {
                    Some(n) => writeln!(out, "verdict: the player to move {who} (nimber {n})")?,
                    None => writeln!(out, "verdict: the player to move {who}")?,
                }
            }
            (None, _) => writeln!(out, "verdict: unknown (not settled within the budget)")?,
        },
        BoardEvent::Move {
            index,
            nimber,
            winning,
        } => {
            let words = moves.get(*index).map_or("", String::as_str);
            let verdict = match winning {
                Some(true) => "winning",
                Some(false) => "losing",
                None => "unknown",
            };
            match nimber {
                Some(n) => writeln!(
                    out,
                    "move {}: {words}: {verdict} (leads to nimber {n})",
                    index + 1
                )?,
                None => writeln!(out, "move {}: {words}: {verdict}", index + 1)?,
            }
        }
    }
    Ok(())
}
