//! Two sides of a network game on a simulated network, driven step by step by the input
//! (messages delivered, lost, duplicated, reordered, garbled; time; the players' actions;
//! channels closed and opened): nothing panics, quiet sides never hold different games
//! silently, and once the network is left alone both hold the same game. The checks are
//! `sprouts_net::peer::sim::check_steps`'s.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    sprouts_net::peer::sim::check_steps(data);
});
