//! The fuzz corpus of the peer protocol's targets (`fuzz/corpus/peer_messages/`,
//! `fuzz/corpus/peer_steps/`: named seeds and any regression kept there) replayed as ordinary
//! tests, with the targets' own checks.

use sprouts::topo::checks::fuzz_corpus;
use sprouts_net::peer::sim::{check_decoder, check_steps};

#[test]
fn peer_messages() {
    for (name, bytes) in fuzz_corpus("peer_messages") {
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
    for (name, bytes) in fuzz_corpus("peer_steps") {
        eprintln!("{name}");
        check_steps(&bytes);
    }
}
