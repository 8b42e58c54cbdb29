//! The `analyse` example, run on positions whose outcomes are known: the n-spot starts of the
//! oracle table (Applegate, Jacobson and Sleator 1991; Lemoine and Viennot; Čížek, Balko and
//! Schmid 2025), with the winning moves checked against a plain win/loss search.

#[allow(dead_code, reason = "the example's `main` is not called by the tests")]
#[path = "../analyse.rs"]
mod analyse;

use std::collections::BTreeSet;

use sprouts_ai::SproutsGame;
use sprouts_ai::impartial::{Convention, Outcome, OutcomeSolver};
use sprouts_topo::Position;

/// Outcomes and nimbers of the n-spot starts 0 to 8 in normal play (the oracle table
/// `n-spot-normal.tsv`): W exactly when n mod 6 is 3, 4 or 5 up to here, with nimber 1.
const N_SPOT: [(u32, &str, u32); 9] = [
    (0, "L", 0),
    (1, "L", 0),
    (2, "L", 0),
    (3, "W", 1),
    (4, "W", 1),
    (5, "W", 1),
    (6, "L", 0),
    (7, "L", 0),
    (8, "L", 0),
];

/// The GLOP text of the n-spot start.
fn start(n: u32) -> String {
    Position::new(n).to_string()
}

/// Runs the example on `input` with `args`; returns its output, its error output and how many
/// lines it could not read.
#[track_caller]
fn check_run(args: &[&str], input: &str) -> (String, String, usize) {
    let options = analyse::parse_options(args.iter().map(|s| s.to_string())).expect("options");
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let bad = analyse::run(&options, input.as_bytes(), &mut out, &mut errors).expect("run");
    (
        String::from_utf8(out).expect("utf-8"),
        String::from_utf8(errors).expect("utf-8"),
        bad,
    )
}

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn n_spot_starts_match_the_oracle_in_json() {
    let input: String = N_SPOT.iter().map(|(n, _, _)| start(*n) + "\n").collect();
    let (out, errors, bad) = check_run(&["--json"], &input);
    assert_eq!((errors.as_str(), bad), ("", 0));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), N_SPOT.len());
    for (value, (n, outcome, nimber)) in lines.iter().zip(N_SPOT) {
        assert_eq!(value["outcome"], outcome, "{n} spots: {value}");
        assert_eq!(value["nimber"], nimber, "{n} spots: {value}");
        let moves = value["winning_moves"].as_array().expect("settled");
        assert_eq!(moves.is_empty(), outcome == "L", "{n} spots: {value}");
    }
}

/// The winning moves listed are exactly the moves to a lost child, by plain win/loss search
/// over every distinct child (no lands, no nimbers).
#[test]
fn winning_moves_are_the_moves_to_lost_children() {
    let text = start(4);
    let (out, _, _) = check_run(&["--json"], &text);
    let value = &json_lines(&out)[0];
    let listed: BTreeSet<String> = value["winning_moves"]
        .as_array()
        .expect("settled")
        .iter()
        .map(|m| m["child"].as_str().expect("a form").to_owned())
        .collect();
    let mut reference = OutcomeSolver::new(SproutsGame, Convention::Normal);
    let position = Position::parse_glop(&text).expect("a position");
    let mut expected = BTreeSet::new();
    for mv in position.distinct_moves() {
        let child = position.play(&mv).expect("a listed move is legal");
        if reference.outcome(&child) == Outcome::Loss {
            expected.insert(child.canonical().to_string());
        }
    }
    assert!(!expected.is_empty(), "4 spots is a first-player win");
    assert_eq!(listed, expected);
}

#[test]
fn csv_has_a_header_and_a_row_a_position() {
    let input = format!("# a comment\n\n{}\n{}\n", start(2), start(3));
    let (out, _, bad) = check_run(&[], &input);
    assert_eq!(bad, 0);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows[0], analyse::CSV_HEADER);
    assert_eq!(rows.len(), 3, "{out}");
    let fields: Vec<&str> = rows[1].split(',').collect();
    assert_eq!(
        fields[0], "3",
        "the line number counts the comment and the blank line"
    );
    assert_eq!((fields[3], fields[4]), ("L", "0"));
    assert!(rows[2].starts_with("4,"), "{}", rows[2]);
    assert!(rows[2].contains(",W,1,"), "{}", rows[2]);
}

/// A budget too small to settle the position gives `unknown`, never a guess.
#[test]
fn an_exhausted_budget_prints_unknown() {
    let (out, _, _) = check_run(&["--json", "--nodes", "1"], &start(12));
    let value = &json_lines(&out)[0];
    assert_eq!(value["outcome"], "unknown", "{value}");
    assert!(value["nimber"].is_null(), "{value}");
    assert!(value["winning_moves"].is_null(), "{value}");
    let (out, _, _) = check_run(&["--json", "--time", "0"], &start(12));
    assert_eq!(json_lines(&out)[0]["outcome"], "unknown");
}

/// A line that is not a position is reported with its number, and the lines after it go on.
#[test]
fn a_bad_line_is_reported_and_the_rest_go_on() {
    let input = format!("{}\n0*3.AB|\n{}\n", start(1), start(3));
    let (out, errors, bad) = check_run(&["--json"], &input);
    assert_eq!(bad, 1);
    assert!(errors.starts_with("line 2: `0*3.AB|`"), "{errors}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (lines[0]["line"].as_u64(), lines[1]["line"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(lines[1]["outcome"], "W");
}

#[test]
fn parts_carry_their_nimbers() {
    // Two lands: a 3-spot start beside a 1-spot start; nimbers 1 and 0, XOR 1.
    let (out, _, _) = check_run(&["--json"], "0*3+0");
    let value = &json_lines(&out)[0];
    assert_eq!(value["nimber"], 1, "{value}");
    let parts = value["parts"].as_array().expect("parts");
    assert_eq!(parts.len(), 2, "{value}");
}

#[test]
fn bad_options_are_refused() {
    for args in [
        &["--nodes"][..],
        &["--nodes", "many"],
        &["--time", "-1"],
        &["--threads", "0"],
        &["--colour"],
        &["a", "b"],
    ] {
        assert!(
            analyse::parse_options(args.iter().map(|s| s.to_string())).is_err(),
            "{args:?}"
        );
    }
}
