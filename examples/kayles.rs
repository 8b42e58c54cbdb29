//! Kayles and three other octal games: values, certified periods, the decomposition attacked by
//! brute force, and what the normal-play values are worth in misère play.
//!
//! ```sh
//! cargo run --release --example kayles                # the tables the tests assert
//! cargo run --release --example kayles -- --pins 32   # a longer misère measurement
//! ```
//!
//! Options: `--pins N` (misère table over every position of 1 to N pins, default 24), `--limit N`
//! (values computed at most for the period search, default 4096), `--rows N` (values shown,
//! default 83), `--days N` (misère games counted by birthday up to day N, at most 5, the
//! default; day 5 takes the most time).

use std::time::Instant;

use anyhow::{Context, bail};
use sprouts_ai::impartial::MisereStore;
use sprouts_ai::impartial::octal::{
    BOARD_CELLS, CellBoard, GrundyTable, OctalCode, certify_period, check_decomposition,
    find_period, misere_figures, play_the_definition,
};

/// The four rule sets of the tables.
const RULE_SETS: [(&str, &str); 4] = [
    ("0.77", "Kayles"),
    ("0.07", "Dawson's Kayles"),
    ("0.777", "take 1, 2 or 3"),
    ("0.707", "odds only: 1 or 3"),
];

struct Options {
    pins: u32,
    limit: usize,
    rows: usize,
    days: u32,
}

fn parse_options() -> anyhow::Result<Options> {
    let mut options = Options {
        pins: 24,
        limit: 4096,
        rows: 83,
        days: 5,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .with_context(|| format!("`{flag}` needs a number after it"))?;
        let number: usize = value
            .parse()
            .with_context(|| format!("`{flag} {value}`: not a number"))?;
        match flag.as_str() {
            "--pins" => options.pins = u32::try_from(number).context("--pins is too large")?,
            "--limit" => options.limit = number,
            "--rows" => options.rows = number,
            "--days" if number <= 5 => options.days = u32::try_from(number)?,
            "--days" => bail!("--days is at most 5: the games born by day 6 are too many to list"),
            _ => bail!("unknown option `{flag}` (known: --pins, --limit, --rows, --days)"),
        }
    }
    Ok(options)
}

fn main() -> anyhow::Result<()> {
    let options = parse_options()?;
    let codes: Vec<(OctalCode, &str)> = RULE_SETS
        .iter()
        .map(|&(text, name)| Ok((text.parse()?, name)))
        .collect::<anyhow::Result<_>>()?;

    println!("# Octal games: values of a row of n pins (normal play)\n");
    for (code, name) in &codes {
        let mut table = GrundyTable::new(code.clone());
        table.extend_to(options.rows);
        println!("{code} ({name}):");
        for (line, chunk) in table.values().chunks(12).enumerate() {
            let shown: Vec<String> = chunk.iter().map(|v| format!("{:>2}", v.0)).collect();
            println!("  n = {:>3}..: {}", line * 12, shown.join(" "));
        }
        println!();
    }

    println!("# Periods, certified by the Guy–Smith theorem\n");
    println!("| rule set | period | pre-period | last exception | values compared up to |");
    println!("|---|---|---|---|---|");
    for (code, name) in &codes {
        let mut table = GrundyTable::new(code.clone());
        match find_period(&mut table, options.limit) {
            Ok(found) => {
                let last = found
                    .last_exception()
                    .map_or("none".to_owned(), |n| n.to_string());
                println!(
                    "| {code} ({name}) | {} | {} | {last} | n = {} |",
                    found.period, found.preperiod, found.checked_to
                );
            }
            Err(not_found) => println!(
                "| {code} ({name}) | none certified | | | n = {} |",
                not_found.searched_to
            ),
        }
    }
    let mut kayles = GrundyTable::new(codes[0].0.clone());
    kayles.extend_to(200);
    match certify_period(kayles.values(), 2, 12, 70) {
        Ok(_) => bail!("the control failed: a start of 70 was certified for Kayles"),
        Err(rejected) => {
            println!("\nControl, Kayles claimed periodic from 70: rejected, {rejected}.")
        }
    }

    println!("\n# The decomposition attacked ({BOARD_CELLS}-cell boards as bitmasks)\n");
    println!(
        "| rule set | boards equal to the XOR of their runs | row n + heap h lost iff h = G(n) |"
    );
    println!("|---|---|---|");
    for (code, name) in &codes {
        let mut table = GrundyTable::new(code.clone());
        table.extend_to(BOARD_CELLS as usize);
        let board = CellBoard::new(code.clone(), BOARD_CELLS)?;
        let decomposition = check_decomposition(&board, table.values());
        let definition = play_the_definition(&board, table.values(), 15);
        println!(
            "| {code} ({name}) | {} / {} | {} / {} games |",
            decomposition.agreeing, decomposition.boards, definition.agreeing, definition.games
        );
    }

    println!(
        "\n# Misère play: every position of 1 to {} pins with a move\n",
        options.pins
    );
    println!(
        "| rule set | positions the values still call correctly | games the bot reading them wins | exact misère player (control) | trees | time |"
    );
    println!("|---|---|---|---|---|---|");
    for (code, name) in &codes {
        let start = Instant::now();
        let figures = misere_figures(code, options.pins);
        if figures.tree_disagreements > 0 {
            bail!(
                "{code}: the trees disagree with plain recursion on {} positions",
                figures.tree_disagreements
            );
        }
        println!(
            "| {code} ({name}) | {:.2}% ({} / {}) | {} / {} | {} / {} | {} | {:.2} s |",
            figures.called_correctly_percent(),
            figures.called_correctly,
            figures.positions,
            figures.bot_wins,
            figures.won_starts,
            figures.exact_wins,
            figures.won_starts,
            figures.trees,
            start.elapsed().as_secs_f64()
        );
    }

    let mut store = MisereStore::new();
    let start = Instant::now();
    let counts: Vec<String> = (0..=options.days)
        .map(|day| {
            store
                .born_by_day(day)
                .map(|games| games.len().to_string())
                .context("day too large")
        })
        .collect::<anyhow::Result<_>>()?;
    println!(
        "\nDistinct misère games born by days 0 to {}: {} ({:.1} s).",
        options.days,
        counts.join(", "),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
