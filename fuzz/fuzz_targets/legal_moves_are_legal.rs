//! Arbitrary move-index sequences from small starts: every listed move is legal, and the counts of
//! families, moves and distinct moves agree.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|game: (u8, Vec<u16>)| {
    sprouts_topo::checks::legal_moves_are_legal(game.0, &game.1);
});
