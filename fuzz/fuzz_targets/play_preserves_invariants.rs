//! Arbitrary move-index sequences: every position keeps its invariants and can be drawn, a move
//! removes one life, and canonical forms ignore names and the mirror image.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|game: (u8, Vec<u16>)| {
    sprouts_topo::checks::play_preserves_invariants(game.0, &game.1);
});
