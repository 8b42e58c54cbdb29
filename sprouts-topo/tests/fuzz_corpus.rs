//! The fuzz corpus (`fuzz/corpus/<target>/`, named seeds and any regression kept there) replayed as
//! ordinary tests, so it stays covered without cargo-fuzz. Inputs are decoded exactly as the fuzz
//! targets decode them.

use arbitrary::{Arbitrary, Unstructured};
use sprouts_topo::checks::{self, fuzz_corpus};

/// A game input as the game targets take it.
fn game(bytes: &[u8]) -> (u8, Vec<u16>) {
    <(u8, Vec<u16>)>::arbitrary_take_rest(Unstructured::new(bytes)).unwrap_or_default()
}

#[test]
fn notation_roundtrip() {
    for (name, bytes) in fuzz_corpus("notation_roundtrip") {
        eprintln!("{name}");
        checks::notation_roundtrip(&bytes);
    }
}

/// Land forms read from the notation seeds (most are refused: not one canonical land) and from
/// the land forms' own seeds (the named seeds read or are refused as their names say).
#[test]
fn land_form_parse() {
    for (name, bytes) in fuzz_corpus("notation_roundtrip") {
        eprintln!("notation_roundtrip/{name}");
        checks::land_form_parse(&bytes);
    }
    let read = [
        "extended-lower",
        "extended-upper",
        "seeds-and-loop",
        "two-regions",
    ];
    let refused = ["no-land", "not-canonical", "two-lands"];
    for (name, bytes) in fuzz_corpus("land_form_parse") {
        let accepted = checks::land_form_parse(&bytes);
        if read.contains(&name.as_str()) || refused.contains(&name.as_str()) {
            assert_eq!(accepted, read.contains(&name.as_str()), "{name}");
        }
    }
}

#[test]
fn legal_moves_are_legal() {
    for (name, bytes) in fuzz_corpus("legal_moves_are_legal") {
        eprintln!("{name}");
        let (spots, choices) = game(&bytes);
        checks::legal_moves_are_legal(spots, &choices);
    }
}

#[test]
fn play_preserves_invariants() {
    for (name, bytes) in fuzz_corpus("play_preserves_invariants") {
        eprintln!("{name}");
        let (spots, choices) = game(&bytes);
        checks::play_preserves_invariants(spots, &choices);
    }
}

/// The oracle strings in the corpus are GLOP's own and round-trip unchanged.
#[test]
fn oracle_seeds_round_trip_unchanged() {
    for (name, bytes) in fuzz_corpus("notation_roundtrip") {
        if name.starts_with("oracle-") {
            let text = String::from_utf8(bytes).unwrap();
            let p = sprouts_topo::Position::parse_glop(&text).unwrap();
            assert_eq!(p.to_glop(), text, "{name}");
        }
    }
}
