//! The examples run as their users run them, with small arguments; what they print and write
//! is checked. (`terminal` is tested by its own unit tests, on ratatui's test backend.)
//!
//! The examples are the binaries `cargo test` builds beside this test: it builds every example
//! of the package before running any test. One missing, or older than its source (this test
//! run alone with `--test run` after an edit), is built here first with `cargo build`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sprouts::GameRecord;

/// The binary of example `name`, built if it is missing or older than its source.
fn example(name: &str) -> PathBuf {
    let test_exe = std::env::current_exe().expect("the test's own path");
    // target/<profile dir>/deps/run-<hash> beside target/<profile dir>/examples/<name>.
    let profile_dir = test_exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from target/<profile>/deps");
    let binary = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("{name}.rs"));
    let modified = |p: &Path| p.metadata().and_then(|m| m.modified()).ok();
    if modified(&binary) < modified(&source) {
        let profile = if profile_dir.ends_with("release") {
            "release"
        } else {
            "test"
        };
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "-p",
                "sprouts-examples",
                "--example",
                name,
                "--profile",
                profile,
            ])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo build --example {name} failed");
    }
    binary
}

/// Runs an example with `args`, standard input empty (not a terminal).
fn run(name: &str, args: &[&str]) -> Output {
    Command::new(example(name))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{name} does not start: {e}"))
}

/// Runs an example that must succeed; returns what it printed.
fn run_ok(name: &str, args: &[&str]) -> String {
    let out = run(name, args);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{name} {args:?} failed:\n{stdout}\n{stderr}"
    );
    stdout
}

/// Runs an example that must fail; returns its error message.
fn run_err(name: &str, args: &[&str]) -> String {
    let out = run(name, args);
    assert!(!out.status.success(), "{name} {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn embed_plays_a_whole_game_against_the_computer() {
    for spots in [1, 3, 4] {
        let text = run_ok("embed", &[&spots.to_string(), "--auto"]);
        let start = sprouts::topo::Position::new(spots).to_glop();
        assert!(text.starts_with(&format!("\nposition {start}\n")), "{text}");
        assert!(text.contains("  1. 1 -> 1 enclosing nothing"), "{text}");
        assert!(
            text.contains("move 1: you played 1 -> 1 enclosing nothing"),
            "{text}"
        );
        // Moves alternate, you first, numbered from 1.
        let movers: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("move "))
            .map(|l| l.split_once(" played ").expect("move N: WHO played ...").0)
            .collect();
        let n = movers.len();
        assert!(
            (2 * spots..3 * spots).contains(&(n as u32)),
            "{n} moves: {text}"
        );
        for (i, who) in movers.iter().enumerate() {
            let who_expected = ["you", "the computer"][i % 2];
            assert_eq!(*who, format!("{}: {who_expected}", i + 1), "{text}");
        }
        // Normal play: whoever moved last wins.
        let winner = ["the computer", "you"][n % 2];
        let last = text.lines().last().expect("a last line");
        assert_eq!(last, format!("no move left after {n} moves: {winner} won"));
    }
    // With standard input not a terminal, `--auto` is on.
    assert_eq!(run_ok("embed", &[]), run_ok("embed", &["3", "--auto"]));
}

#[test]
fn embed_refuses_what_is_not_a_number_of_spots() {
    assert!(run_err("embed", &["many"]).contains("the number of spots"));
    assert!(run_err("embed", &["0"]).contains("play with 1 to 20 spots"));
    assert!(run_err("embed", &["21"]).contains("play with 1 to 20 spots"));
}

#[test]
fn svg_game_writes_the_picture_and_the_record_of_the_game_it_printed() {
    let dir = std::env::temp_dir().join(format!("sprouts-svg-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg_path = dir.join("three.svg");
    let svg_arg = svg_path.to_str().unwrap();
    let args = ["3", "random", "parity-fast:depth=1", svg_arg, "--seed", "4"];
    let text = run_ok("svg_game", &args);

    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let json = std::fs::read_to_string(dir.join("three.json")).unwrap();
    let game = GameRecord::from_json(&json).unwrap().into_game().unwrap();
    assert!(game.is_over());
    let n = game.moves().len();
    assert!((6..=8).contains(&n), "{n} moves");
    // The moves printed are the record's, by the seats in turn.
    let printed: Vec<&str> = text.lines().take(n).collect();
    for (k, (line, played)) in printed.iter().zip(game.moves()).enumerate() {
        let spec = ["random", "parity-fast:depth=1"][k % 2];
        let expected = format!("{:>3}. {spec:<20} {}", k + 1, played.words);
        assert_eq!(*line, expected);
    }
    let winner = game.winner().unwrap();
    assert_eq!(
        text.lines().nth(n).unwrap(),
        format!(
            "seat {winner}, {}, wins after {n} moves",
            game.seats()[winner].words()
        )
    );
    // Each move draws a curve through a new spot: two curves and a spot a move.
    assert!(svg.starts_with("<svg"));
    assert_eq!(svg.matches(r#"class="curve""#).count(), 2 * n);
    assert_eq!(svg.matches("<circle").count(), 3 + n);
    let board = game.board().expect("the record keeps the picture");
    assert_eq!(
        svg,
        sprouts::draw::svg::board_svg(board, &Default::default())
    );
    assert!(text.contains(&format!("wrote {svg_arg} ({} curves", 2 * n)));

    // The same seed plays the same game.
    let again = dir.join("again.svg");
    let args = [
        "3",
        "random",
        "parity-fast:depth=1",
        again.to_str().unwrap(),
        "--seed",
        "4",
    ];
    run_ok("svg_game", &args);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), svg);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn svg_game_refuses_bad_arguments() {
    assert!(run_err("svg_game", &["3", "grandmaster"]).contains("grandmaster"));
    assert!(run_err("svg_game", &["13"]).contains("13"));
    let err = run_err("svg_game", &["3", "random", "random", "game.json"]);
    assert!(err.contains("the SVG file cannot end in .json"), "{err}");
}

#[test]
fn kayles_prints_the_known_values_and_periods() {
    let args = [
        "--pins", "8", "--limit", "300", "--rows", "12", "--days", "4",
    ];
    let text = run_ok("kayles", &args);
    // Kayles: G(0..11) = 0 1 2 3 1 4 3 2 1 4 2 6; period 12 from n = 71 (last exception 70).
    assert!(
        text.contains("n =   0..:  0  1  2  3  1  4  3  2  1  4  2  6"),
        "{text}"
    );
    assert!(text.contains("| 0.77 (Kayles) | 12 | 71 | 70 |"), "{text}");
    assert!(text.contains("| 0.07 (Dawson's Kayles) | 34 |"), "{text}");
    assert!(
        text.contains("born by days 0 to 4: 1, 2, 3, 5, 22 "),
        "{text}"
    );
    assert!(run_err("kayles", &["--days", "6"]).contains("--days is at most 5"));
}
