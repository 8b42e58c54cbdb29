//! `sprouts canon`, `sprouts moves` and `sprouts count`, run as a user runs them.

mod common;
use common::sprouts;

#[track_caller]
fn check_ok(args: &[&str], expect: &str) {
    let out = sprouts(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expect, "{args:?}");
}

#[test]
fn canon_prints_the_canonical_form() {
    check_ok(&["canon", "0*3.BA|0*8.AB"], "0*3.AB|0*8.AB\n");
    check_ok(&["canon", "0*8.AB|0*3.AB"], "0*3.AB|0*8.AB\n");
    check_ok(&["canon", "0*2+2"], "0*2\n");
    check_ok(
        &["canon", "--lands", "12.AB|AB+0.2ABC|0.1ab1bc2ca.ACB"],
        "0.2ABC|0.1ab1bc2ca.ACB+12.AB|AB\n  0.2ABC|0.1ab1bc2ca.ACB\n  12.AB|AB\n",
    );
}

#[test]
fn moves_prints_the_distinct_children() {
    check_ok(&["moves", "0*2"], "0.AB|AB\n1a1a\n");
    let out = sprouts(&["moves", "--words", "0*2"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1 -> 2\t1a1a\n"), "{text}");
    assert!(text.contains("1 -> 1 enclosing 2\t0.AB|AB\n"), "{text}");
}

#[test]
fn malformed_positions_exit_with_the_parsers_message() {
    for args in [&["canon", "0.1a1a?"][..], &["moves", "1A"][..]] {
        let out = sprouts(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("at byte"), "{err}");
        assert!(err.contains('^'), "{err}");
    }
}

#[test]
fn count_prints_the_exhaustive_counts() {
    let out = sprouts(&["count", "--spots", "3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let all = text
        .lines()
        .find(|l| l.trim_start().starts_with("all"))
        .expect("a line of totals");
    let numbers: Vec<&str> = all.split_whitespace().skip(1).take(3).collect();
    assert_eq!(numbers, ["149", "212", "212"], "{text}");
    assert!(text.contains("games last 6 to 8 moves"), "{text}");
    let bad = sprouts(&["count", "--spots", "3", "--equivalence", "nonsense"]);
    assert!(!bad.status.success());
}
