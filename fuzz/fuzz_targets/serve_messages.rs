//! The web UI's message decoder: any text decodes or is refused, never panics; what decodes
//! encodes back to JSON that decodes to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../sprouts-cli/src/serve/protocol.rs"]
#[allow(
    dead_code,
    reason = "the file is the server's; the target uses part of it"
)]
mod protocol;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = protocol::decode(text) {
        let again = serde_json::to_string(&msg).expect("a decoded message encodes");
        assert_eq!(protocol::decode(&again).expect("its encoding decodes"), msg);
    }
});
