//! Arbitrary text into the game-record loader: it never panics, and a game it loads records
//! back to a text that loads to the same game (seats, convention, moves, picture).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sprouts::{Game, GameRecord};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = GameRecord::from_json(&text) else {
        return;
    };
    let Ok(game) = Game::from_record(record) else {
        return;
    };
    let json = game.record().to_json();
    let again = Game::from_record(GameRecord::from_json(&json).expect("a record reads"))
        .expect("a recorded game loads");
    assert_eq!(again.record().to_json(), json);
    assert_eq!(again.moves(), game.moves());
    assert_eq!(again.seats(), game.seats());
});
