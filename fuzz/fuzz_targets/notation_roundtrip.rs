//! GLOP notation from arbitrary bytes: never a panic; a text that reads writes back, GLOP's way and
//! SPOTS's way (lower-case letters restarted per boundary), to a text that reads as the same
//! position, and its canonical form is a fixed point.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    sprouts_topo::checks::notation_roundtrip(data);
});
