//! Tidy checks over every file git tracks in the workspace: no stray files (editor leftovers,
//! empty files), every test fixture used by some source, every Rust module opening with a `//!`
//! line, and no Rust file past [`MAX_RUST_LINES`] lines unless [`LONG_FILES`] names it.
//!
//! The files are listed by `git ls-files`, so a file counts once it is staged. The test needs a
//! git checkout (it lives in the unpublished examples crate for that reason).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Past this many lines a Rust file is asking to be split (the workspace's style guide).
const MAX_RUST_LINES: usize = 2_000;

/// Rust files allowed past [`MAX_RUST_LINES`], each with the reason. An entry for a file that no
/// longer exists or is back under the limit fails the test, so the list only shrinks.
const LONG_FILES: &[(&str, &str)] = &[];

/// File names that are editor or merge leftovers wherever they appear.
fn is_stray_name(name: &str) -> bool {
    name.ends_with('~')
        || name.starts_with(".#")
        || (name.starts_with('#') && name.ends_with('#'))
        || [".swp", ".swo", ".tmp", ".bak", ".orig", ".rej"]
            .iter()
            .any(|ext| name.ends_with(ext))
        || name == ".DS_Store"
        || name == "Thumbs.db"
}

/// Empty files that are empty on purpose (markers).
const EMPTY_ALLOWED: &[&str] = &["py.typed", "__init__.py", ".gitkeep"];

/// The workspace's root: the examples crate's parent folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the examples crate sits in the workspace")
        .to_path_buf()
}

/// Every file git tracks (or has staged), relative to the root.
fn tracked_files(root: &Path) -> Vec<String> {
    let output = Command::new("git")
        .args(["ls-files", "-z", "--cached"])
        .current_dir(root)
        .output()
        .expect("the tidy test runs `git ls-files` and needs git installed");
    assert!(
        output.status.success(),
        "`git ls-files` failed in {}: the tidy test needs a git checkout\n{}",
        root.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let files: Vec<String> = String::from_utf8(output.stdout)
        .expect("file names are UTF-8")
        .split('\0')
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        // A file deleted in the work tree but not yet in the index is not there to check.
        .filter(|f| root.join(f).exists())
        .collect();
    assert!(files.len() > 100, "git lists only {} files", files.len());
    files
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The text of the tracked Rust files, by path.
fn rust_sources(root: &Path, files: &[String]) -> BTreeMap<String, String> {
    files
        .iter()
        .filter(|f| f.ends_with(".rs"))
        .map(|f| {
            let text = std::fs::read_to_string(root.join(f))
                .unwrap_or_else(|e| panic!("cannot read {f}: {e}"));
            (f.clone(), text)
        })
        .collect()
}

/// Fails with every problem found, one a line.
#[track_caller]
fn check_none(what: &str, problems: Vec<String>) {
    assert!(problems.is_empty(), "{what}:\n  {}", problems.join("\n  "));
}

#[test]
fn no_stray_files_are_tracked() {
    let root = root();
    let mut problems = Vec::new();
    for f in tracked_files(&root) {
        let name = file_name(&f);
        if is_stray_name(name) {
            problems.push(format!("{f}: an editor or merge leftover"));
            continue;
        }
        let len = std::fs::metadata(root.join(&f)).map_or(1, |m| m.len());
        if len == 0 && !EMPTY_ALLOWED.contains(&name) {
            problems.push(format!("{f}: an empty file"));
        }
    }
    check_none("stray files tracked by git", problems);
}

/// A file under a `tests/data` or `tests/fixtures` folder is used when its name appears in some
/// Rust source of the same crate (`README` files describe the folder and are exempt).
#[test]
fn every_fixture_is_used_by_a_test() {
    let root = root();
    let files = tracked_files(&root);
    let sources = rust_sources(&root, &files);
    let mut problems = Vec::new();
    let mut fixtures = 0;
    for f in &files {
        let Some((crate_dir, _)) = f
            .split_once("/tests/data/")
            .or_else(|| f.split_once("/tests/fixtures/"))
        else {
            continue;
        };
        let name = file_name(f);
        if name.starts_with("README") {
            continue;
        }
        fixtures += 1;
        let prefix = format!("{crate_dir}/");
        let used = sources
            .iter()
            .any(|(path, text)| path.starts_with(&prefix) && text.contains(name));
        if !used {
            problems.push(format!("{f}: no source in {crate_dir}/ names it"));
        }
    }
    assert!(fixtures > 10, "only {fixtures} fixtures found");
    check_none("fixtures no test uses", problems);
}

#[test]
fn every_rust_module_starts_with_a_doc_line() {
    let root = root();
    let files = tracked_files(&root);
    let problems = rust_sources(&root, &files)
        .into_iter()
        .filter(|(_, text)| !text.starts_with("//!"))
        .map(|(path, _)| format!("{path}: does not start with `//!`"))
        .collect();
    check_none("Rust files without module docs", problems);
}

#[test]
fn rust_files_stay_under_the_length_limit() {
    let root = root();
    let files = tracked_files(&root);
    let sources = rust_sources(&root, &files);
    let mut problems = Vec::new();
    for (path, text) in &sources {
        let lines = text.lines().count();
        let allowed = LONG_FILES.iter().any(|(p, _)| p == path);
        if lines > MAX_RUST_LINES && !allowed {
            problems.push(format!(
                "{path}: {lines} lines (split it, or add it to LONG_FILES with the reason)"
            ));
        }
    }
    for (path, _) in LONG_FILES {
        match sources.get(*path) {
            None => problems.push(format!("{path}: in LONG_FILES but not tracked; remove it")),
            Some(text) if text.lines().count() <= MAX_RUST_LINES => problems.push(format!(
                "{path}: in LONG_FILES but {} lines; remove it from the list",
                text.lines().count()
            )),
            Some(_) => {}
        }
    }
    check_none("Rust files too long", problems);
}

#[test]
fn stray_names_are_recognised() {
    for stray in [
        ".analyse.rs.2c66.tmp",
        "main.rs~",
        ".main.rs.swp",
        ".#main.rs",
        "#main.rs#",
        "lib.rs.orig",
    ] {
        assert!(is_stray_name(stray), "{stray}");
    }
    for fine in ["main.rs", "tidy.rs", "README.md", "Cargo.toml", "page.html"] {
        assert!(!is_stray_name(fine), "{fine}");
    }
}
