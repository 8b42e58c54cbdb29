//! A land form (the canonical form of one land) from arbitrary bytes: never a panic; a text it
//! accepts writes back unchanged and decodes to the position, lives and move count the GLOP parser
//! gives.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    sprouts_topo::checks::land_form_parse(data);
});
