//! Every command's limits, run as a user runs them: huge positions, thread counts, numeric flags
//! and endless input files are refused quickly with a clear message, inside a memory bound, and
//! errors quote a short excerpt of the input rather than the whole of it.

mod common;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Runs `sprouts ARGS...` with its address space capped at `mib` MiB (`ulimit -v`), and how
/// long it took.
fn sprouts_capped(args: &[&str], mib: u64) -> (Output, Duration) {
    let start = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", mib * 1024))
        .arg(env!("CARGO_BIN_EXE_sprouts"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .expect("the sprouts binary runs");
    (out, start.elapsed())
}

/// Runs a command that must be refused: within `secs` seconds and 1 GiB of address space, with
/// a message containing `says` and no panic. Returns the message.
#[track_caller]
fn refused(args: &[&str], says: &str, secs: u64) -> String {
    let (out, took) = sprouts_capped(args, 1024);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{args:?} was accepted");
    assert!(err.contains(says), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(
        took < Duration::from_secs(secs),
        "{args:?} took {took:?} to refuse"
    );
    err
}

#[test]
fn huge_starts_are_refused_at_once_by_every_searching_command() {
    for cmd in [
        &["moves", "0*100000"][..],
        &["solve", "0*100000"],
        &["solve", "0*100000", "--nodes", "1"],
        &["misere", "0*100000"],
        &["analyse", "0*100000"],
        &["analyse", "0*10000"],
        &["moves", "0*2000"],
    ] {
        let err = refused(cmd, "takes at most 500", 5);
        // The message quotes the position, not a screenful.
        assert!(err.len() < 400, "{cmd:?}: {err}");
    }
    refused(&["solve", "--spots", "1000"], "at most 500", 5);
    refused(&["misere", "--spots", "1..=100000"], "at most 500", 5);
}

#[test]
fn the_largest_accepted_start_stays_within_its_bounds() {
    // At the limit, each command answers within a time budget and a memory cap.
    for cmd in [
        &["moves", "0*500"][..],
        &["solve", "0*500", "--time", "1", "--threads", "1"],
        &["analyse", "0*500", "--time", "1", "--threads", "1"],
        &["misere", "0*500", "--time", "1"],
        &["canon", "0*100000"],
    ] {
        let (out, took) = sprouts_capped(cmd, 1024);
        assert!(
            out.status.success(),
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(took < Duration::from_secs(30), "{cmd:?} took {took:?}");
    }
}

#[test]
fn thread_counts_are_checked_against_the_machine() {
    refused(
        &["solve", "0*2", "--threads", "40000"],
        "--threads must be from 1 to",
        5,
    );
    refused(
        &["solve", "0*2", "--threads", "0"],
        "--threads must be from 1 to",
        5,
    );
    refused(
        &["analyse", "0*2", "--threads", "40000"],
        "the cores of this machine",
        5,
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let out = common::sprouts(&["solve", "0*2", "--threads", &cores.to_string()]);
    assert!(out.status.success());
}

#[test]
fn numeric_flags_are_bounded() {
    refused(
        &["misere", "0*2", "--tree-lives", "4294967295"],
        "--tree-lives must be from 0 to 40",
        5,
    );
    refused(
        &["misere", "0*2", "--side-tree-lives", "41"],
        "--side-tree-lives",
        5,
    );
    refused(&["octal", "0.77", "--rows", "1000000"], "at most 100000", 5);
    refused(
        &["octal", "0.77", "--limit", "1000000"],
        "at most 100000",
        5,
    );
    refused(
        &["octal", "0.77", "--misere", "--pins", "33"],
        "at most 32",
        5,
    );
    refused(&["solve", "0*2", "--time", "1e300"], "--time must be", 5);
    refused(&["solve", "0*2", "--time", "NaN"], "--time must be", 5);
    refused(&["misere", "0*2", "--time=-1"], "--time must be", 5);
    refused(&["analyse", "0*2", "--time", "inf"], "--time must be", 5);
    refused(
        &[
            "selfplay",
            "--spots",
            "3",
            "--p1",
            "random",
            "--p2",
            "random",
            "--games",
            "4000000000",
        ],
        "--games must be from 1 to 1000000",
        5,
    );
}

#[test]
fn errors_quote_a_short_excerpt_once() {
    let long = format!("{}?{}", "0.".repeat(20_000), "0.".repeat(20_000));
    for cmd in ["canon", "moves", "solve", "misere", "analyse"] {
        let err = refused(&[cmd, &long], "cannot read the position", 5);
        assert!(err.len() < 500, "{cmd}: {} bytes of error", err.len());
        assert_eq!(err.matches("0.?0.").count(), 1, "{cmd}: {err}");
    }
}

#[test]
fn input_files_are_read_with_a_size_cap() {
    let out = std::env::temp_dir().join(format!("sprouts-limits-{}.svg", std::process::id()));
    let out = out.to_str().unwrap();
    // An endless device is refused once past the cap, not read to its end.
    refused(
        &["render", "/dev/zero", "-o", out],
        "larger than 64 MiB",
        20,
    );
    refused(
        &["render", "/no/such/game.json", "-o", out],
        "cannot read",
        5,
    );
}

#[test]
fn unwritable_outputs_are_refused_before_solving() {
    let dir = std::env::temp_dir().join(format!("sprouts-limits-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("no-such-dir").join("x.db");
    // 0*11 takes far longer than the bound to solve: the refusal comes first.
    let err = refused(
        &["solve", "0*11", "--db", missing.to_str().unwrap()],
        "cannot use the database",
        5,
    );
    assert!(err.contains("no-such-dir"), "{err}");
    refused(
        &["solve", "0*11", "--export", dir.to_str().unwrap()],
        "it is a directory",
        5,
    );
    refused(
        &["solve", "0*11", "--export", missing.to_str().unwrap()],
        "no-such-dir",
        5,
    );
    std::fs::remove_dir_all(&dir).ok();
}
