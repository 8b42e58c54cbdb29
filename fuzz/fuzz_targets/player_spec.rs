//! Any text as a player spec: it is refused with a reason or builds a player, never panics; a
//! spec that builds keeps only its trimmed text (at most `MAX_SPEC_LEN` characters), and the
//! player it builds chooses a legal move at the start of a small game within a tiny budget.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sprouts::topo::Position;
use sprouts::{Convention, Limits, MAX_SPEC_LEN, Seat};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(seat) = Seat::computer(&text, 1) else {
        return;
    };
    let spec = seat.spec().expect("a computer seat has a spec");
    assert!(spec.len() <= MAX_SPEC_LEN);
    assert_eq!(spec, text.trim());
    // A player built from any accepted spec plays legally on 2 spots, stopped by a node limit
    // and a raised stop flag so that no budget in the spec can make the run long.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = Limits::nodes(1_000).with_stop(stop);
    let mut game = sprouts::Game::new(Position::new(2), [seat, Seat::Human])
        .with_convention(Convention::Normal);
    if let Ok(played) = game.computer_step(&limits) {
        assert_eq!(played.number, 1);
    }
});
