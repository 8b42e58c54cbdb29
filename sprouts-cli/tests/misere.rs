//! `sprouts misere` end to end: n-spot starts and positions, table and JSON, bad input refused.

use std::process::Command;

fn sprouts(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sprouts"))
        .args(args)
        .output()
        .expect("the sprouts binary runs")
}

#[test]
fn starts_and_positions() {
    let out = sprouts(&["misere", "--spots", "1..=6", "!", "0*2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let outcomes: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    // A164950 for 1..=6, then the game over (a misère win) and 2 spots again.
    assert_eq!(outcomes, ["W", "L", "L", "L", "W", "W", "W", "L"]);
}

#[test]
fn json_and_limits() {
    let out = sprouts(&["misere", "--spots", "9", "--nodes", "5", "--json"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"outcome\":\"unknown\""), "{text}");
    assert!(text.contains("\"position\":\"9 spots\""), "{text}");
}

#[test]
fn bad_input_is_refused() {
    for args in [
        vec!["misere"],
        vec!["misere", "0*2.(("],
        vec!["misere", "--spots", "5..=2"],
    ] {
        let out = sprouts(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn solve_misere_is_the_same_command() {
    let via_solve = sprouts(&["solve", "--misere", "--spots", "1..=5"]);
    assert!(
        via_solve.status.success(),
        "{}",
        String::from_utf8_lossy(&via_solve.stderr)
    );
    let direct = sprouts(&["misere", "--spots", "1..=5"]);
    let outcomes = |o: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .map(|l| l.split('\t').nth(1).unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(outcomes(&via_solve), ["W", "L", "L", "L", "W"]);
    assert_eq!(outcomes(&via_solve), outcomes(&direct));
    // Nimbers are a normal-play notion: asking for both is refused.
    let both = sprouts(&["solve", "--misere", "--nimber", "--spots", "3"]);
    assert!(!both.status.success());
}
