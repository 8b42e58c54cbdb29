//! `sprouts solve` and `sprouts analyse`, run as a user runs them.

mod common;
use common::sprouts;

fn stdout_ok(args: &[&str]) -> String {
    let out = sprouts(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn solve_prints_outcomes_and_nimbers_of_starts() {
    let text = stdout_ok(&["solve", "--spots", "1..=5", "--nimber", "--threads", "1"]);
    let verdicts: Vec<(String, String)> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1].to_string(), f[2].to_string())
        })
        .collect();
    let expect = [("L", 0), ("L", 0), ("W", 1), ("W", 1), ("W", 1)];
    assert_eq!(verdicts.len(), 5, "{text}");
    for ((o, n), (eo, en)) in verdicts.iter().zip(expect) {
        assert_eq!(o, eo, "{text}");
        assert_eq!(n, &format!("nimber {en}"), "{text}");
    }
}

#[test]
fn solve_json_has_one_object_per_position() {
    let text = stdout_ok(&[
        "solve",
        "0*2.AB|AB",
        "0*3",
        "--json",
        "--nimber",
        "--threads",
        "2",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("{\"position\":\"0*2.AB|AB\""),
        "{text}"
    );
    assert!(lines[1].contains("\"outcome\":\"W\""), "{text}");
    assert!(lines[1].contains("\"nimber\":1"), "{text}");
    assert!(lines[1].contains("\"nodes\":"), "{text}");
}

#[test]
fn a_tiny_node_budget_gives_unknown() {
    let text = stdout_ok(&["solve", "0*8", "--nodes", "5", "--threads", "1"]);
    assert!(text.starts_with("0*8\tunknown"), "{text}");
}

#[test]
fn the_database_is_saved_reused_and_exported() {
    let dir = std::env::temp_dir().join(format!("sprouts-solve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("db.bin");
    let export = dir.join("couples.txt");
    let db_s = db.to_str().unwrap();
    let first = stdout_ok(&["solve", "--spots", "6", "--threads", "1", "--db", db_s]);
    assert!(db.exists());
    let second = stdout_ok(&[
        "solve",
        "--spots",
        "6",
        "--threads",
        "1",
        "--db",
        db_s,
        "--export",
        export.to_str().unwrap(),
    ]);
    let nodes = |t: &str| -> u64 {
        t.split('\t')
            .nth(2)
            .unwrap()
            .trim_end_matches(" nodes")
            .parse()
            .unwrap()
    };
    assert!(nodes(&first) > 0, "{first}");
    assert_eq!(
        nodes(&second),
        0,
        "the second run answers from the database: {second}"
    );
    let couples = std::fs::read_to_string(&export).unwrap();
    assert!(couples.lines().any(|l| l == "0*6+*0"), "{couples}");
    // A broken database is refused with a message, not a panic.
    std::fs::write(&db, b"SPROUTDB\x01\x00\x00\x00\xff\xff").unwrap();
    let out = sprouts(&["solve", "0*2", "--db", db_s]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot load the database"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for args in [
        &["solve", "0*2.Q"][..],
        &["solve", "--spots", "5..=2"],
        &["solve", "--spots", "x"],
        &["solve"],
        &["solve", "0*2", "--threads", "0"],
        &["solve", "0*2", "--time", "-1"],
        &["analyse", "(("],
    ] {
        let out = sprouts(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Databases of GLOP and SPOTS written by hand are read into the tables (answering without
/// search), stored in the solver's own database, and written back in either format.
#[test]
fn glop_and_spots_databases_are_imported_and_exported() {
    let dir = std::env::temp_dir().join(format!("sprouts-import-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glop = dir.join("glop.txt");
    let spots = dir.join("spots.txt");
    let db = dir.join("db.bin");
    std::fs::write(&glop, "[Positions+Nimber]\n0*2 0\n0*3 1\n0*4 1\n0*5 1\n").unwrap();
    std::fs::write(&spots, "[Positions+Nimber]\n0*2.1a1a.1a2a 2\n").unwrap();
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let text = stdout_ok(&[
        "solve",
        "--spots",
        "5",
        "0*2.1a1a.1b2b",
        "--nimber",
        "--threads",
        "1",
        "--import",
        &p(&glop),
        "--import",
        &p(&spots),
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("5 spots\tW\tnimber 1\t0 nodes"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("0*2.1a1a.1b2b\tW\tnimber 2\t0 nodes"),
        "{text}"
    );
    // Imported into the solver's database, with nothing to solve; then exported both ways.
    stdout_ok(&["solve", "--import", &p(&spots), "--db", &p(&db)]);
    let out_glop = dir.join("out-glop.txt");
    let out_spots = dir.join("out-spots.txt");
    for (out, format) in [(&out_glop, "glop"), (&out_spots, "spots")] {
        stdout_ok(&[
            "solve",
            "--db",
            &p(&db),
            "--export",
            &p(out),
            "--format",
            format,
        ]);
    }
    let g = std::fs::read_to_string(&out_glop).unwrap();
    let s = std::fs::read_to_string(&out_spots).unwrap();
    assert_eq!(g, "[Positions+Nimber]\n0*2.1a1a.1b2b 2\n");
    assert_eq!(s, "[Positions+Nimber]\n0*2.1a1a.1a2a 2\n");
    // A file that is not a database is refused with a message.
    let out = sprouts(&["solve", "0*2", "--import", &p(&db)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot import"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A batch with a position that does not read reports it (on standard error, or as a JSON
/// error record in its place), answers the others, and exits with a failure at the end.
#[test]
fn a_bad_position_in_a_batch_is_reported_and_the_rest_solved() {
    let out = sprouts(&["solve", "0*3", "1aaaa", "0.1a1a.1a2a", "--threads", "1"]);
    assert!(!out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let labels: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(labels, ["0*3", "0.1a1a.1a2a"], "{text}");
    assert!(err.contains("cannot read the position"), "{err}");
    assert!(
        err.contains("\n  1aaaa\n"),
        "the excerpt with a caret: {err}"
    );
    assert!(
        err.contains("letter a is met 4 time(s) in its boundary"),
        "{err}"
    );
    assert!(err.contains("1 of 3 positions could not be read"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let out = sprouts(&["solve", "1aaaa", "0*3", "--json", "--threads", "1"]);
    assert!(!out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("{\"position\":\"1aaaa\",\"error\":\"cannot read"),
        "{text}"
    );
    assert!(lines[1].contains("\"outcome\":\"W\""), "{text}");
}

#[test]
fn analyse_prints_form_parts_moves_and_verdict() {
    let text = stdout_ok(&["analyse", "0*4.A|0*4.A+0*2.AB|AB", "--threads", "1"]);
    assert!(text.contains("canonical: 0*2.AB|AB+0*4.A|0*4.A"), "{text}");
    assert!(text.contains("parts: 2"), "{text}");
    assert!(text.contains("distinct moves: "), "{text}");
    assert!(text.contains("verdict: the player to move"), "{text}");
}

/// The analysis board's verdicts, checked by `sprouts solve` on every move's child: a move is
/// winning exactly when its child is lost, and the nimbers agree.
#[test]
fn analyse_verdicts_equal_solve_on_every_child() {
    for position in ["0*3", "0*2.AB|AB", "0.1a1a+0*2", "0*4"] {
        let text = stdout_ok(&["analyse", position, "--threads", "1"]);
        assert!(text.contains("moves left: at least "), "{text}");
        let mut checked = 0;
        for line in text.lines().filter(|l| l.starts_with("move ")) {
            let (_, rest) = line.split_once(" (to ").expect("the child");
            let (child, rest) = rest.split_once("): ").expect("the verdict");
            let verdict = rest.split(' ').next().unwrap();
            let nimber = rest
                .split_once("leads to nimber ")
                .map(|(_, n)| n.trim_end_matches(')').to_owned())
                .expect("a nimber, the budget is ample");
            let solved = stdout_ok(&["solve", child, "--nimber", "--threads", "1"]);
            let fields: Vec<&str> = solved.trim().split('\t').collect();
            assert_eq!(fields[2], format!("nimber {nimber}"), "{position}: {line}");
            let expected = if fields[1] == "L" {
                "winning"
            } else {
                "losing"
            };
            assert_eq!(verdict, expected, "{position}: {line}");
            checked += 1;
        }
        assert!(checked > 0, "{text}");
        let winning = text.lines().any(|l| l.contains(": winning"));
        let wins = text.contains("verdict: the player to move wins");
        assert_eq!(winning, wins, "{text}");
    }
}

/// The nodes a `solve` line reports.
fn nodes_of(line: &str) -> u64 {
    line.split('\t')
        .nth(2)
        .and_then(|n| n.trim_end_matches(" nodes").parse().ok())
        .unwrap_or_else(|| panic!("no node count in {line}"))
}

#[test]
fn two_solvers_on_one_database_keep_both_sets_of_facts() {
    let dir = std::env::temp_dir().join(format!("sprouts-solve-two-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("results");
    let db_s = db.to_str().unwrap();
    // The user's own file beside the database is never touched.
    std::fs::write(dir.join("results.tmp"), "mine").unwrap();
    let a = ["0*6", "0*2.AB|0*3.AB"];
    let b = ["0*7", "0*3.AB|0*3.AB"];
    for round in 0..4 {
        std::fs::remove_file(&db).ok();
        let run = |positions: [&str; 2]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_sprouts"))
                .args(["solve", "--threads", "1", "--db", db_s])
                .args(positions)
                .output()
                .unwrap()
        };
        let (first, second) = std::thread::scope(|s| {
            let first = s.spawn(|| run(a));
            let second = s.spawn(|| run(b));
            (first.join().unwrap(), second.join().unwrap())
        });
        assert!(
            first.status.success() && second.status.success(),
            "round {round}"
        );
        // Both runs' positions are now answered from the database with no search.
        let again = stdout_ok(&[
            "solve",
            "--threads",
            "1",
            "--db",
            db_s,
            a[0],
            a[1],
            b[0],
            b[1],
        ]);
        for line in again.lines() {
            assert_eq!(nodes_of(line), 0, "round {round}: {line} was lost");
        }
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("results.tmp")).unwrap(),
        "mine"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `--memory` bounds the tables and the answers stay the published ones; `--wall` and misère
/// `--threads` are checked and explained.
#[test]
fn memory_time_and_threads_flags() {
    let text = stdout_ok(&[
        "solve",
        "--spots",
        "0..=9",
        "--threads",
        "1",
        "--memory",
        "16M",
        "--time",
        "600",
    ]);
    let outcomes: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(
        outcomes,
        ["L", "L", "L", "W", "W", "W", "L", "L", "L", "W"],
        "{text}"
    );
    let text = stdout_ok(&["solve", "0*5", "--time", "60", "--wall", "--threads", "1"]);
    assert!(text.contains("\tW"), "{text}");
    let text = stdout_ok(&[
        "misere",
        "--spots",
        "1..=4",
        "--memory",
        "64M",
        "--threads",
        "1",
    ]);
    let outcomes: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(outcomes, ["W", "L", "L", "L"], "{text}");
    for (args, says) in [
        (
            &["solve", "0*2", "--memory", "1K"][..],
            "--memory must be from",
        ),
        (&["solve", "0*2", "--memory", "lots"], "is not a size"),
        (&["solve", "0*2", "--wall"], "--time"),
        (
            &["misere", "0*2", "--threads", "0"],
            "--threads must be from",
        ),
        (
            &["solve", "0*2", "--misere", "--threads", "100000"],
            "--threads must be from",
        ),
    ] {
        let out = sprouts(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(says) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}
