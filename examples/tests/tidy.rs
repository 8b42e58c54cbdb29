//! Tidy checks over every file git tracks in the workspace: no stray files (editor leftovers,
//! empty files), every test fixture used by some source, every Rust module opening with a `//!`
//! line, no Rust file past [`MAX_RUST_LINES`] lines unless [`LONG_FILES`] names it, and no
//! function past [`MAX_FN_LINES`] lines unless [`LONG_FUNCTIONS`] names it.
//!
//! The files are listed by `git ls-files`, so a file counts once it is staged. The test needs a
//! git checkout (it lives in the unpublished examples crate for that reason).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Past this many lines a Rust file is asking to be split (the workspace's style guide).
const MAX_RUST_LINES: usize = 1_500;

/// Rust files allowed past [`MAX_RUST_LINES`], each with the reason. An entry for a file that no
/// longer exists or is back under the limit fails the test, so the list only shrinks.
const LONG_FILES: &[(&str, &str)] = &[];

/// Past this many lines a function is asking to be split (the workspace's style guide).
const MAX_FN_LINES: usize = 150;

/// Functions allowed past [`MAX_FN_LINES`] lines, as (file, function, reason). An entry for a
/// function that is gone or back under the limit fails the test, so the list only shrinks.
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[
    (
        "sprouts-net/src/page/session.rs",
        "handle",
        "the page's messages dispatched in one match, an arm a message",
    ),
    (
        "sprouts-topo/src/canon/shape.rs",
        "read_with",
        "the canonicaliser's reading of a position in one pass, a hot path",
    ),
];

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

/// The name of the function a line declares (`fn`, after any `pub(...)`, `const`, `async`,
/// `unsafe` and `extern "ABI"`), if it declares one.
fn declared_fn(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    let mut word = words.next()?;
    loop {
        match word {
            "const" | "async" | "unsafe" => {}
            "extern" => {
                word = words.next()?;
                if !word.starts_with('"') {
                    continue;
                }
            }
            "fn" => break,
            w if w == "pub" || w.starts_with("pub(") => {}
            _ => return None,
        }
        word = words.next()?;
    }
    let rest = words.next()?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The functions of a Rust source laid out by rustfmt, each with its length in lines: from its
/// `fn` line to the line closing its body at the same indentation. Declarations without a body
/// and functions on one line are left out.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let Some(name) = declared_fn(body) else {
            continue;
        };
        let indent = &line[..line.len() - body.len()];
        // The signature ends with `{` (a body follows), `;` (none) or `}` (all on one line).
        let Some(open) = lines[i..]
            .iter()
            .map(|l| l.trim_end())
            .position(|l| l.ends_with('{') || l.ends_with(';') || l.ends_with('}'))
        else {
            continue;
        };
        if !lines[i + open].trim_end().ends_with('{') {
            continue;
        }
        let close = format!("{indent}}}");
        if let Some(end) = lines[i + open + 1..].iter().position(|l| *l == close) {
            out.push((name.to_owned(), open + end + 2));
        }
    }
    out
}

#[test]
fn rust_functions_stay_under_the_length_limit() {
    let root = root();
    let files = tracked_files(&root);
    let sources = rust_sources(&root, &files);
    let mut problems = Vec::new();
    let mut longest = BTreeMap::new();
    for (path, text) in &sources {
        for (name, lines) in function_lengths(text) {
            let listed = LONG_FUNCTIONS
                .iter()
                .any(|(p, f, _)| p == path && *f == name);
            if lines > MAX_FN_LINES && !listed {
                problems.push(format!(
                    "{path}: fn {name} has {lines} lines (split it, or add it to LONG_FUNCTIONS \
                     with the reason)"
                ));
            }
            let most = longest.entry((path.as_str(), name)).or_insert(0);
            *most = lines.max(*most);
        }
    }
    for (path, name, _) in LONG_FUNCTIONS {
        match longest.get(&(*path, (*name).to_owned())) {
            None => problems.push(format!("{path}: fn {name} in LONG_FUNCTIONS but not found")),
            Some(&lines) if lines <= MAX_FN_LINES => problems.push(format!(
                "{path}: fn {name} in LONG_FUNCTIONS but {lines} lines; remove it from the list"
            )),
            Some(_) => {}
        }
    }
    check_none("Rust functions too long", problems);
}

#[test]
fn function_lengths_are_counted_from_fn_to_the_closing_brace() {
    let text = "\
//! A module.
pub(crate) fn three() {
    one();
}

impl A {
    pub const fn short(&self) -> u32 { 1 }

    async fn spread(
        &self,
    ) -> u32 {
        let x = {
            1
        };
        x
    }

    fn declared(&self);
}

extern \"C\" fn abi() {
}
// fn commented() {
";
    let found = function_lengths(text);
    assert_eq!(
        found,
        [
            ("three".to_owned(), 3),
            ("spread".to_owned(), 8),
            ("abi".to_owned(), 2)
        ]
    );
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
