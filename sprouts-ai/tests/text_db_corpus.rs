//! The `text_db_import` fuzz corpus (`fuzz/corpus/text_db_import/`) replayed as an ordinary test,
//! so it stays covered without cargo-fuzz.

#[test]
fn text_db_import_corpus() {
    let dir = format!(
        "{}/../fuzz/corpus/text_db_import",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{dir} holds {} files", files.len());
    for path in files {
        eprintln!("{}", path.display());
        sprouts_ai::solver::check_text_import(&std::fs::read(&path).unwrap());
    }
}
