//! Exhaustive counts from `tests/data/*.perft` (format and provenance in `tests/data/README.md`).
//!
//! One generic driver reads a file and checks every line of every entry; a failure names the file,
//! the line and what differed.

mod common;

use std::collections::HashMap;

use sprouts_topo::perft::{Equivalence, perft, survey};
use sprouts_topo::{Position, Reductions};

/// The lines of an entry: line number and words.
type Lines = Vec<(usize, Vec<String>)>;

/// A perft count is also recomputed by the naive move generator up to this many sequences.
const NAIVE_LIMIT: u64 = 50_000;

#[track_caller]
fn check_file(name: &str) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut entries: Vec<(String, Lines)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        if words[0] == "id" {
            entries.push((words[1].clone(), Vec::new()));
        } else {
            let (_, lines) = entries
                .last_mut()
                .unwrap_or_else(|| panic!("{name}:{}: a line before any id", i + 1));
            lines.push((i + 1, words));
        }
    }
    assert!(!entries.is_empty(), "{name}: no entries");
    for (id, lines) in &entries {
        check_entry(name, id, lines);
    }
}

fn check_entry(file: &str, id: &str, lines: &[(usize, Vec<String>)]) {
    let at = |line: usize| format!("{file}:{line} ({id})");
    let (pline, pwords) = lines
        .iter()
        .find(|(_, w)| w[0] == "position")
        .unwrap_or_else(|| panic!("{file}: {id} has no position"));
    let pos = Position::parse_glop(&pwords[1]).unwrap_or_else(|e| panic!("{}: {e}", at(*pline)));
    // The equivalences the entry counts, surveyed once.
    let mut eqs: Vec<Equivalence> = Vec::new();
    for (line, w) in lines {
        if w[0] == "positions" || w[0] == "distinct" {
            let eq = Equivalence::from_name(&w[1])
                .unwrap_or_else(|| panic!("{}: unknown equivalence {}", at(*line), w[1]));
            if !eqs.contains(&eq) {
                eqs.push(eq);
            }
        }
    }
    let needs_survey = !eqs.is_empty() || lines.iter().any(|(_, w)| w[0] == "games");
    let survey = needs_survey.then(|| survey(&pos, &eqs, |_, _, _| {}));
    if let Some(s) = &survey {
        assert!(
            s.exact,
            "{}: a canonical form went over its budget",
            at(*pline)
        );
    }
    let num = |line: usize, s: &str| -> u64 {
        s.parse()
            .unwrap_or_else(|_| panic!("{}: not a number: {s}", at(line)))
    };
    for (line, w) in lines {
        let line = *line;
        match w[0].as_str() {
            "position" => {}
            "perft" => {
                let (d, want) = (num(line, &w[1]) as u32, num(line, &w[2]));
                assert_eq!(perft(&pos, d), want, "{}: perft {d}", at(line));
                if want <= NAIVE_LIMIT {
                    assert_eq!(naive_perft(&pos, d), want, "{}: naive perft {d}", at(line));
                }
            }
            "children" => {
                assert_eq!(
                    pos.distinct_children().len() as u64,
                    num(line, &w[1]),
                    "{}: distinct children",
                    at(line)
                );
            }
            "nimber" => {
                let mut memo = HashMap::new();
                assert_eq!(
                    u64::from(nimber(&pos, &mut memo)),
                    num(line, &w[1]),
                    "{}: nimber",
                    at(line)
                );
            }
            "games" => {
                let s = survey.as_ref().expect("surveyed");
                let (short, long) = (num(line, &w[1]) as u32, num(line, &w[2]) as u32);
                assert_eq!(
                    (s.shortest_game, s.longest_game),
                    (short, long),
                    "{}: game lengths",
                    at(line)
                );
                // From n seeds a game lasts between 2n and 3n - 1 moves, and 3n - 1 is reached.
                if let Some(n) = id
                    .strip_suffix("-spots")
                    .and_then(|n| n.parse::<u32>().ok())
                {
                    assert!(short >= 2 * n, "{}: a game shorter than 2n", at(line));
                    assert_eq!(long, 3 * n - 1, "{}: the longest game is 3n - 1", at(line));
                }
            }
            "positions" | "distinct" => {
                let s = survey.as_ref().expect("surveyed");
                let c = s
                    .get(Equivalence::from_name(&w[1]).expect("checked"))
                    .expect("surveyed");
                if w[0] == "positions" {
                    let want: Vec<u64> = w[2..].iter().map(|x| num(line, x)).collect();
                    assert_eq!(
                        c.per_depth,
                        want,
                        "{}: {} positions per depth",
                        at(line),
                        w[1]
                    );
                } else {
                    assert_eq!(
                        c.distinct,
                        num(line, &w[2]),
                        "{}: distinct {} positions",
                        at(line),
                        w[1]
                    );
                }
            }
            other => panic!("{}: unknown line kind {other}", at(line)),
        }
    }
}

/// Move sequences of length `depth`, by the naive generator.
fn naive_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    common::naive_children(pos)
        .iter()
        .map(|c| naive_perft(c, depth - 1))
        .sum()
}

/// The nimber by plain mex recursion over every move, memoised by canonical form (whose
/// reductions `tests/reductions.rs` checks).
fn nimber(pos: &Position, memo: &mut HashMap<String, u8>) -> u8 {
    let key = pos
        .canonical_with(Reductions::Glop, sprouts_topo::canon::DEFAULT_BUDGET)
        .into_string();
    if let Some(&n) = memo.get(&key) {
        return n;
    }
    let mut seen = [false; 64];
    for mv in pos.moves() {
        seen[usize::from(nimber(&pos.play(&mv).unwrap(), memo))] = true;
    }
    let n = seen.iter().position(|&s| !s).unwrap() as u8;
    memo.insert(key, n);
    n
}

#[test]
fn one_spot() {
    check_file("1-spots.perft");
}

#[test]
fn two_spots() {
    check_file("2-spots.perft");
}

#[test]
fn three_spots() {
    check_file("3-spots.perft");
}

#[test]
fn four_spots() {
    check_file("4-spots.perft");
}

#[test]
fn five_spots() {
    check_file("5-spots.perft");
}

#[test]
fn glop_examples() {
    check_file("glop-examples.perft");
}

/// The files in `tests/data` are the ones checked above.
#[test]
fn every_data_file_is_checked() {
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".perft"))
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "1-spots.perft",
            "2-spots.perft",
            "3-spots.perft",
            "4-spots.perft",
            "5-spots.perft",
            "glop-examples.perft"
        ]
    );
}
