//! Research use: solve many positions at once. Reads positions in GLOP notation, one a line, from
//! a file or standard input, and prints for each its outcome, nimber, parts (independent lands,
//! with their nimbers) and winning moves, as CSV or as JSON lines.
//!
//! ```sh
//! printf '0*3\n0*6\n0*2.AB|AB+0\n' | cargo run --release --example analyse
//! cargo run --release --example analyse -- positions.txt --json --nodes 100000
//! ```
//!
//! Options: `FILE` (default: standard input), `--json` (one JSON object a line instead of CSV),
//! `--nodes N` (each search gives up after N nodes; default 1,000,000), `--time SECS` (each
//! position gives up after SECS seconds, all its searches together), `--threads N` (default 1,
//! which makes node counts reproducible).
//!
//! Blank lines and lines starting with `#` are skipped. Every search is bounded: what the budget
//! does not settle is printed as `unknown`, never guessed. A line that is not a position is
//! reported on standard error with its line number and the rest go on; the exit status is then
//! non-zero.
//!
//! Columns (CSV) and keys (JSON): `line` (its number in the input), `position` (as written),
//! `canonical` (the canonical form), `outcome` (`W`: the player to move wins; `L`: loses;
//! `unknown`), `nimber`, `parts` (each land's form and nimber, `?` where not known), and
//! `winning_moves` (every distinct move to a lost position, in words, with that position's
//! form; empty when the position is lost; `unknown` when a child was not settled), and `nodes`
//! (nodes searched for the line). Normal play: the player who cannot move loses.

use std::io::{BufRead, Write};
use std::time::Duration;

use anyhow::{Context, bail};
use sprouts_ai::Limits;
use sprouts_ai::impartial::{Nimber, Outcome};
use sprouts_ai::solver::{Solver, SolverConfig};
use sprouts_topo::Position;

/// How the example runs: its command-line options.
#[derive(Debug)]
pub(crate) struct Options {
    /// The input file; `None` reads standard input.
    file: Option<String>,
    /// JSON lines instead of CSV.
    json: bool,
    /// The node budget of each search.
    nodes: u64,
    /// The time budget of each position, all its searches together.
    time: Option<Duration>,
    /// Solver threads.
    threads: usize,
}

/// Reads the options from the arguments (without the program's name).
pub(crate) fn parse_options(args: impl IntoIterator<Item = String>) -> anyhow::Result<Options> {
    let mut options = Options {
        file: None,
        json: false,
        nodes: 1_000_000,
        time: None,
        threads: 1,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--json" => options.json = true,
            "--nodes" => {
                let v = value("--nodes")?;
                options.nodes = v
                    .parse()
                    .with_context(|| format!("--nodes: `{v}` is not a number"))?;
            }
            "--time" => {
                let v = value("--time")?;
                let secs: f64 = v
                    .parse()
                    .with_context(|| format!("--time: `{v}` is not a number of seconds"))?;
                if !(secs.is_finite() && secs >= 0.0) {
                    bail!("--time must be a non-negative number of seconds");
                }
                options.time = Some(Duration::from_secs_f64(secs.min(1e9)));
            }
            "--threads" => {
                let v = value("--threads")?;
                options.threads = v
                    .parse()
                    .with_context(|| format!("--threads: `{v}` is not a number"))?;
                if options.threads == 0 {
                    bail!("--threads must be at least 1");
                }
            }
            flag if flag.starts_with("--") => bail!("unknown option `{flag}`"),
            file if options.file.is_none() => options.file = Some(file.to_owned()),
            extra => bail!("one input file only (`{extra}` is a second)"),
        }
    }
    Ok(options)
}

/// What is known of one position.
#[derive(Debug)]
struct Analysis {
    canonical: String,
    outcome: Option<Outcome>,
    nimber: Option<Nimber>,
    /// Each land's form and, where the solver knows it, its nimber.
    parts: Vec<(String, Option<Nimber>)>,
    /// The winning moves in words with the form each leads to; `None` when a child is unsettled.
    winning_moves: Option<Vec<(String, String)>>,
    nodes: u64,
}

/// Solves one position within the budget of `options`.
fn analyse(solver: &Solver, position: &Position, options: &Options) -> Analysis {
    let limits = match options.time {
        Some(t) => Limits::time(t).with_nodes(options.nodes),
        None => Limits::nodes(options.nodes),
    };
    let form = position.canonical();
    let nimber = solver.nimber(position, &limits);
    let mut nodes = nimber.nodes;
    let outcome = match nimber.value {
        Some(n) if n == Nimber::ZERO => Some(Outcome::Loss),
        Some(_) => Some(Outcome::Win),
        None => {
            let o = solver.outcome(position, &limits);
            nodes += o.nodes;
            o.value
        }
    };
    let winning_moves = match outcome {
        Some(Outcome::Loss) => Some(Vec::new()),
        None => None,
        Some(Outcome::Win) => {
            let mut found = Some(Vec::new());
            for mv in position.distinct_moves() {
                let Ok(child) = position.play(&mv) else {
                    found = None;
                    break;
                };
                let verdict = solver.outcome(&child, &limits);
                nodes += verdict.nodes;
                match verdict.value {
                    Some(Outcome::Loss) => {
                        if let Some(list) = &mut found {
                            list.push((mv.describe(position), child.canonical().to_string()));
                        }
                    }
                    Some(Outcome::Win) => {}
                    None => {
                        found = None;
                        break;
                    }
                }
            }
            found
        }
    };
    let parts = form
        .land_forms()
        .into_iter()
        .map(|land| (land.to_string(), solver.known_nimber(&land)))
        .collect();
    Analysis {
        canonical: form.to_string(),
        outcome,
        nimber: nimber.value,
        parts,
        winning_moves,
        nodes,
    }
}

fn outcome_word(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win) => "W",
        Some(Outcome::Loss) => "L",
        None => "unknown",
    }
}

fn nimber_word(nimber: Option<Nimber>) -> String {
    nimber.map_or_else(|| "unknown".to_owned(), |n| n.0.to_string())
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

pub(crate) const CSV_HEADER: &str =
    "line,position,canonical,outcome,nimber,parts,winning_moves,nodes";

fn write_csv(out: &mut impl Write, line: usize, text: &str, a: &Analysis) -> std::io::Result<()> {
    let parts: Vec<String> = a
        .parts
        .iter()
        .map(|(land, n)| format!("{land}={}", n.map_or("?".to_owned(), |n| n.0.to_string())))
        .collect();
    let moves = match &a.winning_moves {
        Some(list) => list
            .iter()
            .map(|(words, child)| format!("{words} -> {child}"))
            .collect::<Vec<_>>()
            .join("; "),
        None => "unknown".to_owned(),
    };
    writeln!(
        out,
        "{line},{},{},{},{},{},{},{}",
        csv_field(text),
        csv_field(&a.canonical),
        outcome_word(a.outcome),
        nimber_word(a.nimber),
        csv_field(&parts.join("; ")),
        csv_field(&moves),
        a.nodes
    )
}

fn write_json(out: &mut impl Write, line: usize, text: &str, a: &Analysis) -> std::io::Result<()> {
    let parts: Vec<serde_json::Value> = a
        .parts
        .iter()
        .map(|(land, n)| serde_json::json!({ "form": land, "nimber": n.map(|n| n.0) }))
        .collect();
    let moves = a.winning_moves.as_ref().map(|list| {
        list.iter()
            .map(|(words, child)| serde_json::json!({ "move": words, "child": child }))
            .collect::<Vec<_>>()
    });
    let value = serde_json::json!({
        "line": line,
        "position": text,
        "canonical": a.canonical,
        "outcome": outcome_word(a.outcome),
        "nimber": a.nimber.map(|n| n.0),
        "parts": parts,
        "winning_moves": moves,
        "nodes": a.nodes,
    });
    writeln!(out, "{value}")
}

/// Analyses every position of `input`, writing results to `out` and bad lines to `errors`.
/// Returns how many lines could not be read as positions.
pub(crate) fn run(
    options: &Options,
    input: impl BufRead,
    out: &mut impl Write,
    errors: &mut impl Write,
) -> anyhow::Result<usize> {
    let solver = Solver::new(SolverConfig {
        threads: options.threads,
        ..SolverConfig::default()
    })
    .expect("the solver starts");
    if !options.json {
        writeln!(out, "{CSV_HEADER}")?;
    }
    let mut bad = 0;
    for (index, line) in input.lines().enumerate() {
        let number = index + 1;
        let line = line.with_context(|| format!("cannot read line {number}"))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let position = match Position::parse_glop(text) {
            Ok(p) => p,
            Err(e) => {
                writeln!(errors, "line {number}: `{text}` is not a position: {e}")?;
                bad += 1;
                continue;
            }
        };
        let analysis = analyse(&solver, &position, options);
        if options.json {
            write_json(out, number, text, &analysis)?;
        } else {
            write_csv(out, number, text, &analysis)?;
        }
        out.flush()?;
    }
    Ok(bad)
}

#[allow(
    dead_code,
    reason = "the tests include this file as a module and call `run` directly"
)]
fn main() -> anyhow::Result<()> {
    let options = parse_options(std::env::args().skip(1))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut errors = std::io::stderr();
    let bad = match &options.file {
        Some(path) => {
            let file = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
            run(
                &options,
                std::io::BufReader::new(file),
                &mut out,
                &mut errors,
            )?
        }
        None => run(&options, std::io::stdin().lock(), &mut out, &mut errors)?,
    };
    if bad > 0 {
        bail!("{bad} line(s) could not be read as positions");
    }
    Ok(())
}
