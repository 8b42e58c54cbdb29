//! The peer protocol's decoder (and the relay's): any text decodes or is refused, never
//! panics; what decodes encodes back to the same message; a side with a game takes any text
//! without a panic. The checks are `sprouts_net::peer::sim::check_decoder`'s.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        sprouts_net::peer::sim::check_decoder(text);
    }
});
