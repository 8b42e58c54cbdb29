//! The `text_db_import` fuzz corpus (`fuzz/corpus/text_db_import/`) replayed as an ordinary test,
//! so it stays covered without cargo-fuzz.

#[test]
fn text_db_import_corpus() {
    let files = sprouts_topo::checks::fuzz_corpus("text_db_import");
    assert!(files.len() >= 6, "the corpus holds {} files", files.len());
    for (name, bytes) in files {
        eprintln!("{name}");
        sprouts_ai::solver::check_text_import(&bytes);
    }
}
