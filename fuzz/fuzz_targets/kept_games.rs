//! Arbitrary bytes as a file of the server's store of kept games (`sprouts serve --data`): they
//! are read or refused with a reason, never a panic; a file that is read keeps its id and its
//! record's text, and the same game written by the store reads back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sprouts_net::page::store::{GameStore, parse_kept};

const ID: &str = "00000000000000aa";

fuzz_target!(|data: &[u8]| {
    let Ok(kept) = parse_kept(data, ID) else {
        return;
    };
    assert_eq!(kept.summary.id, ID);
    // The record inside is the loader's to check: any text is loaded or refused.
    let _ = sprouts::GameRecord::from_json(&kept.json);
    let dir = std::env::temp_dir().join(format!("sprouts-fuzz-kept-{}", std::process::id()));
    let store = GameStore::open(&dir).expect("a scratch directory");
    if store
        .write(&kept)
        .expect("a game that was read can be written")
    {
        assert_eq!(store.read(ID).expect("it reads back"), kept);
    }
});
