//! `sprouts octal CODE`: values, certified period and misère figures of an octal game.

use std::io::Write;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use sprouts_ai::impartial::octal::{GrundyTable, OctalCode, find_period, misere_figures};

/// The most rows shown or values computed (`--rows`, `--limit`): the values cost time growing
/// with the square of the row, about 20 s at this cap.
const MAX_ROWS: usize = 100_000;
/// The most pins of `--misere --pins`: the positions grow exponentially with the pins, about
/// 30 s at this cap.
const MAX_PINS: u32 = 32;

/// Arguments of `sprouts octal`.
#[derive(Debug, clap::Args)]
pub(crate) struct OctalArgs {
    /// The octal code: 0.77 (Kayles), 0.07 (Dawson's Kayles), 0.777, 0.707, 4.07, ...
    code: String,
    /// Show the values of rows of 0 to ROWS pins.
    #[arg(long, default_value_t = 59)]
    rows: usize,
    /// Compute values up to G(LIMIT) at most when looking for a period.
    #[arg(long, default_value_t = 100_000)]
    limit: usize,
    /// Also measure misère play: how often the normal-play values call a position correctly, and
    /// how many games a bot reading them wins against an exact misère player.
    #[arg(long)]
    misere: bool,
    /// With --misere: every position of 1 to PINS pins.
    #[arg(long, default_value_t = 20)]
    pins: u32,
}

/// Runs `sprouts octal`, printing to stdout.
pub(crate) fn run(args: OctalArgs) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    report(&args, &mut stdout.lock())
}

/// Writes the report of `sprouts octal` to `out`.
fn report(args: &OctalArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let code: OctalCode = args
        .code
        .parse()
        .with_context(|| format!("invalid octal code `{}`", args.code))?;
    if args.rows > MAX_ROWS || args.limit > MAX_ROWS {
        bail!("--rows and --limit may be at most {MAX_ROWS}");
    }
    if args.pins > MAX_PINS {
        bail!("--pins may be at most {MAX_PINS}");
    }

    match code.name() {
        Some(name) => writeln!(out, "{code} ({name})")?,
        None => writeln!(out, "{code}")?,
    };
    for rule in code.rules() {
        writeln!(out, "  {rule}")?;
    }

    let mut table = GrundyTable::new(code.clone());
    table.extend_to(args.rows);
    writeln!(out, "\nValues G(n) of a row of n pins, normal play:")?;
    for (line, chunk) in table.values()[..=args.rows].chunks(12).enumerate() {
        let shown: Vec<String> = chunk.iter().map(|v| format!("{:>2}", v.0)).collect();
        writeln!(out, "  n = {:>3}..: {}", line * 12, shown.join(" "))?;
    }

    let progress = spinner(format!(
        "looking for a period among G(0)..G({})",
        args.limit
    ));
    let found = find_period(&mut table, args.limit);
    progress.finish_and_clear();
    match found {
        Ok(found) => {
            let from = found.preperiod;
            let block: Vec<String> = table.values()[from..from + found.period]
                .iter()
                .map(|v| v.0.to_string())
                .collect();
            let last = found
                .last_exception()
                .map_or("none".to_owned(), |n| format!("n = {n}"));
            writeln!(
                out,
                "\nPeriod {} from n = {from} on (pre-period {from}, last exception {last}),\n\
                 certified by the Guy–Smith theorem with the values up to n = {}.",
                found.period, found.checked_to
            )?;
            writeln!(
                out,
                "G({from}..{}) = {}",
                from + found.period - 1,
                block.join(" ")
            )?;
        }
        Err(not_found) => writeln!(out, "\nNo period certified: {not_found}.")?,
    };

    if args.misere {
        let progress = spinner(format!("misère play, positions of 1 to {} pins", args.pins));
        let figures = misere_figures(&code, args.pins);
        progress.finish_and_clear();
        if figures.tree_disagreements > 0 {
            bail!(
                "internal error: misère trees disagree with plain search on {} positions",
                figures.tree_disagreements
            );
        }
        writeln!(
            out,
            "\nMisère play, every position of 1 to {} pins with a move ({} positions, {} trees):",
            args.pins, figures.positions, figures.trees
        )?;
        writeln!(
            out,
            "  positions the normal-play values still call correctly: {:.2}% ({} / {})",
            figures.called_correctly_percent(),
            figures.called_correctly,
            figures.positions
        )?;
        writeln!(
            out,
            "  games a bot reading them wins against an exact misère player: {} / {} won starts",
            figures.bot_wins, figures.won_starts
        )?;
        writeln!(
            out,
            "  games the exact misère player wins from the same starts (control): {} / {}",
            figures.exact_wins, figures.won_starts
        )?;
    }
    Ok(())
}

/// A spinner on stderr, hidden when stderr is not a terminal.
fn spinner(message: String) -> ProgressBar {
    let spinner = ProgressBar::new_spinner().with_message(message);
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        spinner.set_style(style);
    }
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    spinner
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(code: &str, rows: usize, misere: bool, pins: u32) -> OctalArgs {
        OctalArgs {
            code: code.to_owned(),
            rows,
            limit: 4096,
            misere,
            pins,
        }
    }

    #[track_caller]
    fn check(args: &OctalArgs, expected: &str) {
        let mut out = Vec::new();
        report(args, &mut out).expect("a report");
        assert_eq!(String::from_utf8(out).expect("UTF-8"), expected);
    }

    #[test]
    fn kayles_report() {
        check(
            &args("0.77", 23, true, 12),
            "0.77 (Kayles)
  take 1 adjacent pin: a whole row; from an end of a longer row; from the middle of a row, splitting it in two
  take 2 adjacent pins: a whole row; from an end of a longer row; from the middle of a row, splitting it in two

Values G(n) of a row of n pins, normal play:
  n =   0..:  0  1  2  3  1  4  3  2  1  4  2  6
  n =  12..:  4  1  2  7  1  4  3  2  1  4  6  7

Period 12 from n = 71 on (pre-period 71, last exception n = 70),
certified by the Guy–Smith theorem with the values up to n = 167.
G(71..82) = 7 4 1 2 8 1 4 7 2 1 8 2

Misère play, every position of 1 to 12 pins with a move (271 positions, 28 trees):
  positions the normal-play values still call correctly: 85.61% (232 / 271)
  games a bot reading them wins against an exact misère player: 6 / 205 won starts
  games the exact misère player wins from the same starts (control): 205 / 205
",
        );
    }

    #[test]
    fn a_game_without_a_known_period_says_so() {
        check(
            &args("0.777", 5, false, 0),
            "0.777
  take 1 adjacent pin: a whole row; from an end of a longer row; from the middle of a row, splitting it in two
  take 2 adjacent pins: a whole row; from an end of a longer row; from the middle of a row, splitting it in two
  take 3 adjacent pins: a whole row; from an end of a longer row; from the middle of a row, splitting it in two

Values G(n) of a row of n pins, normal play:
  n =   0..:  0  1  2  3  4  1

No period certified: no period certified with the values up to G(4096).
",
        );
    }

    #[test]
    fn bad_input_is_refused_with_the_reason() {
        let mut out = Vec::new();
        let err = report(&args("0.78", 10, false, 0), &mut out).expect_err("a bad digit");
        assert_eq!(
            format!("{err:#}"),
            "invalid octal code `0.78`: `8` at column 4 is not an octal digit (0 to 7)"
        );
        let err = report(&args("0.77", 10, true, 33), &mut out).expect_err("too many pins");
        assert_eq!(err.to_string(), "--pins may be at most 32");
        let err = report(&args("0.77", 100_001, false, 0), &mut out).expect_err("too many rows");
        assert_eq!(err.to_string(), "--rows and --limit may be at most 100000");
        assert!(out.is_empty(), "nothing printed before the refusal");
    }
}
