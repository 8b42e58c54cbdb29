//! Tidy checks on the crate's sources: every module starts with a `//!` line, and no
//! committed file names a machine path.

use std::fs;
use std::path::Path;

fn rust_files(dir: &Path, acc: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, acc);
        } else if path.extension().is_some_and(|e| e == "rs") {
            acc.push(path);
        }
    }
}

#[test]
fn every_module_has_module_docs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    assert!(files.len() > 10);
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        assert!(
            text.starts_with("//!"),
            "{} does not start with //!",
            f.display()
        );
        assert!(
            !text.contains(concat!("/", "work/")),
            "{} names a machine path",
            f.display()
        );
    }
}
