//! Arbitrary text into the saved-game loader: it never panics, and a game it loads saves back to
//! a text that loads to the same game.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sprouts_draw::Board;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(board) = Board::from_json(&text) else {
        return;
    };
    let saved = board.to_json();
    let again = Board::from_json(&saved).expect("a saved game loads");
    assert_eq!(again.to_json(), saved);
    assert_eq!(again.position().game_key(), board.position().game_key());
});
