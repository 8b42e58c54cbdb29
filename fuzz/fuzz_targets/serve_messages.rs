//! The web UI's messages: any text decodes or is refused, never panics; what decodes encodes
//! back to JSON that decodes to the same message; and a session fed any sequence of lines
//! (one message a line, after its `hello`) answers each without panicking. A `new_game` from
//! a typed position of at most a dozen spots is built (the position read, checked and drawn
//! afresh): any text is refused with a message or gives a game whose picture shows it. An
//! `edited_game` with a small picture (at most a dozen spots and curves) is checked by its
//! setup job: refused with `picture_refused`, or a game whose picture is the one drawn.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sprouts_net::page::Session;
use sprouts_net::page::protocol::{self, PROTOCOL_VERSION, ServerMsg};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = protocol::decode(text) {
        let again = serde_json::to_string(&msg).expect("a decoded message encodes");
        assert_eq!(protocol::decode(&again).expect("its encoding decodes"), msg);
    }
    let mut session = Session::new("s".into(), 1);
    let hello = format!(r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#);
    assert!(matches!(
        session.handle_text(&hello).msgs.first(),
        Some(ServerMsg::Welcome { .. })
    ));
    for line in text.lines().take(64) {
        // Jobs are not run here (they are the router's and the players' work, fuzzed
        // elsewhere); the answer to every message must come without a panic.
        let reply = session.handle_text(line);
        let small_start = matches!(
            protocol::decode(line),
            Ok(protocol::ClientMsg::NewGame { position: Some(ref p), .. })
                if sprouts_net::page::position_text::read_start(p)
                    .is_ok_and(|pos| pos.spot_count() <= 12)
        );
        let small_picture = matches!(
            protocol::decode(line),
            Ok(protocol::ClientMsg::EditedGame { ref picture, .. })
                if picture.spots.len() <= 12
                    && picture.curves.len() <= 12
                    && picture.curves.iter().map(|c| c.points.len()).sum::<usize>() <= 64
        );
        if let (true, Some(setup)) = (small_start || small_picture, reply.setup) {
            let answer = session.finish_setup(setup.run());
            if small_picture {
                let started = answer.msgs.iter().any(|m| matches!(m, ServerMsg::State(_)));
                let refused = answer
                    .msgs
                    .iter()
                    .any(|m| matches!(m, ServerMsg::PictureRefused { .. }));
                assert!(started != refused, "{:?}", answer.msgs);
            }
        }
    }
});
