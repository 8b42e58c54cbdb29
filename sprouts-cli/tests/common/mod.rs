//! What the command-line tests share: running the `sprouts` binary as a user runs it.

use std::process::{Command, Output};

/// Runs `sprouts ARGS...` with backtraces off (so error output is what a user sees).
pub(crate) fn sprouts(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sprouts"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .expect("the sprouts binary runs")
}
