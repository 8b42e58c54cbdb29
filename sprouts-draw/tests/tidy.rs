//! The crate's files are tidy: every file in `tests/data` is a saved game that loads, named in
//! snake case, written as compact JSON and named by some test; no hidden file (an editor's
//! leftover) lies among the sources, tests or examples.

use std::path::{Path, PathBuf};

use sprouts_draw::Board;

/// The files under `dir`, recursively.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The text of every Rust file of the crate's sources and tests.
fn sources() -> String {
    ["src", "tests", "examples"]
        .iter()
        .flat_map(|d| files(&crate_dir().join(d)))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| std::fs::read_to_string(&p).expect("a source file"))
        .collect()
}

#[test]
fn every_saved_game_in_the_test_data_loads_and_is_used() {
    let used = sources();
    let data = files(&crate_dir().join("tests/data"));
    assert!(!data.is_empty());
    for path in data {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        let stem = name.strip_suffix(".json").unwrap_or_else(|| {
            panic!("{name}: the test data are saved games (.json)");
        });
        assert!(
            stem.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{name}: not in snake case"
        );
        let text = std::fs::read_to_string(&path).expect("a fixture");
        assert!(
            text.lines().count() == 1,
            "{name}: not compact JSON (one line)"
        );
        Board::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            used.contains(&format!("\"{stem}\"")) || used.contains(&format!("data/{name}")),
            "{name}: no test names it"
        );
    }
}

#[test]
fn no_hidden_files_among_the_sources() {
    for dir in ["src", "tests", "examples"] {
        for path in files(&crate_dir().join(dir)) {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            assert!(!name.starts_with('.'), "a stray file: {}", path.display());
        }
    }
}
