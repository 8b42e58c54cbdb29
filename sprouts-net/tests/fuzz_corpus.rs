//! The fuzz corpus of the peer protocol's targets (`fuzz/corpus/peer_messages/`,
//! `fuzz/corpus/peer_steps/`: named seeds and any regression kept there) replayed as ordinary
//! tests, with the targets' own checks.

use sprouts_net::peer::sim::{check_decoder, check_steps};

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = format!("{}/../fuzz/corpus/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{dir} is empty");
    files
}

#[test]
fn peer_messages() {
    for (name, bytes) in corpus("peer_messages") {
        eprintln!("{name}");
        let text = String::from_utf8(bytes).expect("the seeds are text");
        check_decoder(&text);
        // The seeds are messages: they decode.
        let decoded = sprouts_net::peer::protocol::decode(&text).is_ok()
            || sprouts_net::relay::decode_in(&text, &Default::default()).is_ok();
        assert!(decoded, "{name} does not decode");
    }
}

#[test]
fn peer_steps() {
    for (name, bytes) in corpus("peer_steps") {
        eprintln!("{name}");
        check_steps(&bytes);
    }
}
