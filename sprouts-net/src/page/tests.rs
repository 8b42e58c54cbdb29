//! The session's message handling, message by message.

use super::protocol::{AnalysisMsg, ClientMsg, PROTOCOL_VERSION, PlayerSpec, ServerMsg, StateMsg};
use super::session::{Reply, Session};

pub(super) const SID: &str = "s1";

/// A greeted session.
pub(super) fn session() -> Session {
    let mut s = Session::new(SID.into(), 7);
    let r = s.handle_text(&format!(
        r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#
    ));
    assert!(matches!(r.msgs[0], ServerMsg::Welcome { .. }));
    s
}

/// Runs the reply's job (and the computer's jobs after it) to completion; returns all messages.
pub(super) fn settle(s: &mut Session, mut r: Reply) -> Vec<ServerMsg> {
    let mut msgs = Vec::new();
    loop {
        msgs.append(&mut r.msgs);
        if let Some(reach) = r.reach.take() {
            let more = s.finish_reach(reach.run());
            msgs.extend(more.msgs);
        }
        if let Some(setup) = r.setup.take() {
            r = s.finish_setup(setup.run());
            continue;
        }
        if let Some(analysis) = r.analysis.take() {
            analysis.run(&mut |m| msgs.push(m));
        }
        let Some(job) = r.job.take() else { break };
        let result = job.run(&mut |_| {});
        r = s.finish(result);
    }
    msgs
}

pub(super) fn send(s: &mut Session, msg: ClientMsg) -> Vec<ServerMsg> {
    let r = s.handle(msg);
    settle(s, r)
}

pub(super) fn last_state(msgs: &[ServerMsg]) -> StateMsg {
    msgs.iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::State(st) => Some((**st).clone()),
            _ => None,
        })
        .expect("a state message")
}

/// A new game of `spots` seeds in normal play, Blue first, on an 800 x 600 drawing area.
fn new_game_msg(spots: u32, players: [PlayerSpec; 2]) -> ClientMsg {
    ClientMsg::NewGame {
        session: SID.into(),
        spots,
        position: None,
        convention: super::protocol::ConventionName::Normal,
        players,
        first: 0,
        width: 800.0,
        height: 600.0,
    }
}

fn new_game(s: &mut Session, spots: u32, players: [PlayerSpec; 2]) -> StateMsg {
    let msgs = send(s, new_game_msg(spots, players));
    last_state(&msgs)
}

pub(super) fn draw(
    s: &mut Session,
    k: u32,
    from: u32,
    to: u32,
    stroke: Vec<[f64; 2]>,
    marks: Vec<u32>,
) -> Vec<ServerMsg> {
    send(
        s,
        ClientMsg::Draw {
            session: SID.into(),
            k,
            from,
            to,
            stroke,
            from_side: None,
            to_side: None,
            marks,
        },
    )
}

/// A loop from spot `a` round spot `b` (radius `r`) and back, as the page sends it.
pub(super) fn loop_round(a: (f64, f64), b: (f64, f64), r: f64) -> Vec<[f64; 2]> {
    let toward = (a.1 - b.1).atan2(a.0 - b.0);
    let mut pts = vec![[a.0, a.1]];
    for t in 0..=40 {
        let ang = toward + 0.35 + f64::from(t) / 40.0 * (std::f64::consts::TAU - 0.7);
        pts.push([b.0 + r * ang.cos(), b.1 + r * ang.sin()]);
    }
    pts.push([a.0, a.1]);
    pts
}

pub(super) fn errors(msgs: &[ServerMsg]) -> Vec<String> {
    msgs.iter()
        .filter_map(|m| match m {
            ServerMsg::Error { message } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// Sends a raw text and checks that it gets exactly one error and changes nothing.
fn rejected(s: &mut Session, text: &str, what: &str) {
    let before = s.state();
    let log_before = s.log_text();
    let mut r = s.handle_text(text);
    if let Some(setup) = r.setup.take() {
        // A new or loaded game is built off the async threads: its error comes back after.
        assert!(r.msgs.is_empty() && r.job.is_none(), "{what}: {:?}", r.msgs);
        r = s.finish_setup(setup.run());
    }
    assert!(r.job.is_none(), "{what}: no work started");
    assert!(r.reach.is_none(), "{what}: no reach started");
    let errs = errors(&r.msgs);
    assert_eq!(errs.len(), 1, "{what}: one error, got {:?}", r.msgs);
    assert!(errs[0].contains(what), "{what}: got `{}`", errs[0]);
    assert_eq!(r.msgs.len(), 1, "{what}: nothing else");
    assert_eq!(s.state(), before, "{what}: the game is unchanged");
    assert_eq!(s.log_text(), log_before, "{what}: the log is unchanged");
}

pub(super) fn human_game(s: &mut Session, spots: u32) -> StateMsg {
    new_game(s, spots, [PlayerSpec::Human, PlayerSpec::Human])
}

#[test]
fn before_hello_and_wrong_protocol_are_errors() {
    let mut s = Session::new(SID.into(), 1);
    rejected(
        &mut s,
        r#"{"type":"undo","session":"s1","k":0}"#,
        "the first message must be hello",
    );
    rejected(
        &mut s,
        r#"{"type":"hello","protocol":999}"#,
        "protocol version 999 is not supported",
    );
    rejected(&mut s, r#"{"type":"hello"}"#, "bad `hello` message");
    let r = s.handle_text(&format!(
        r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#
    ));
    assert!(matches!(&r.msgs[0], ServerMsg::Welcome { session, .. } if session == SID));
    rejected(
        &mut s,
        &format!(r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#),
        "already received",
    );
}

#[test]
fn malformed_and_unknown_messages_are_errors() {
    let mut s = session();
    human_game(&mut s, 3);
    rejected(&mut s, "not json", "not JSON");
    rejected(&mut s, "[1,2]", "string `type`");
    rejected(&mut s, r#"{"type":42}"#, "string `type`");
    rejected(
        &mut s,
        r#"{"type":"teleport","session":"s1"}"#,
        "unknown message type `teleport`",
    );
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":0,"from":1}"#,
        "bad `draw` message",
    );
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":0,"from":1,"to":2,"extra":1}"#,
        "bad `draw` message",
    );
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":-1,"from":1,"to":2}"#,
        "bad `draw` message",
    );
    rejected(
        &mut s,
        &"x".repeat(super::protocol::MAX_MESSAGE_BYTES + 1),
        "too long",
    );
}

#[test]
fn another_sessions_id_is_refused() {
    let mut s = session();
    human_game(&mut s, 3);
    for text in [
        r#"{"type":"undo","session":"other","k":0}"#,
        r#"{"type":"draw","session":"other","k":0,"from":1,"to":2}"#,
        r#"{"type":"save","session":"other"}"#,
        r#"{"type":"new_game","session":"other","spots":2,"convention":"normal","players":[{"kind":"human"},{"kind":"human"}],"first":0,"width":500,"height":400}"#,
    ] {
        rejected(&mut s, text, "another session");
    }
}

#[test]
fn out_of_order_stale_and_illegal_requests_change_nothing() {
    let mut s = session();
    // Before any game.
    rejected(
        &mut s,
        r#"{"type":"undo","session":"s1","k":0}"#,
        "there is no game",
    );
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":0,"from":1,"to":2}"#,
        "there is no game",
    );
    rejected(
        &mut s,
        r#"{"type":"save","session":"s1"}"#,
        "no game to save",
    );
    human_game(&mut s, 3);
    rejected(
        &mut s,
        r#"{"type":"undo","session":"s1","k":0}"#,
        "nothing to undo",
    );
    rejected(
        &mut s,
        r#"{"type":"redo","session":"s1","k":0}"#,
        "nothing to redo",
    );
    rejected(
        &mut s,
        r#"{"type":"stop","session":"s1"}"#,
        "nothing is running",
    );
    // Stale: a move for a position the page has not caught up with.
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":3,"from":1,"to":2}"#,
        "stale position",
    );
    rejected(
        &mut s,
        r#"{"type":"undo","session":"s1","k":1}"#,
        "stale position",
    );
    // Not legal: no such spot, bad numbers, bad settings, bad players, bad games.
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":0,"from":1,"to":9}"#,
        "there is no spot 9",
    );
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":0,"from":0,"to":1}"#,
        "there is no spot 0",
    );
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":0,"from":1,"to":2,"marks":[77]}"#,
        "there is no spot 77",
    );
    rejected(
        &mut s,
        r#"{"type":"reach","session":"s1","k":0,"from":5,"toward":[1,1]}"#,
        "there is no spot 5",
    );
    rejected(
        &mut s,
        r#"{"type":"settings","session":"s1","settings":{"min_clearance":50,"comfort_distance":10,"room_vs_length":1}}"#,
        "below the comfort distance",
    );
    rejected(
        &mut s,
        r#"{"type":"players","session":"s1","players":[{"kind":"computer","spec":"grandmaster"},{"kind":"human"}]}"#,
        "unknown player",
    );
    rejected(
        &mut s,
        r#"{"type":"players","session":"s1","players":[{"kind":"computer","spec":"montecarlo:1000000000"},{"kind":"human"}]}"#,
        "at most 100000 games a candidate",
    );
    rejected(
        &mut s,
        r#"{"type":"new_game","session":"s1","spots":0,"convention":"normal","players":[{"kind":"human"},{"kind":"human"}],"first":0,"width":500,"height":400}"#,
        "at least one spot",
    );
    rejected(
        &mut s,
        r#"{"type":"new_game","session":"s1","spots":3,"convention":"normal","players":[{"kind":"human"},{"kind":"human"}],"first":2,"width":500,"height":400}"#,
        "`first` must be",
    );
    rejected(
        &mut s,
        r#"{"type":"new_game","session":"s1","spots":3,"convention":"normal","players":[{"kind":"human"},{"kind":"human"}],"first":0,"width":5,"height":400}"#,
        "drawing area",
    );
    rejected(
        &mut s,
        r#"{"type":"new_game","session":"s1","spots":150,"convention":"normal","players":[{"kind":"human"},{"kind":"human"}],"first":0,"width":200,"height":200}"#,
        "do not fit",
    );
    rejected(
        &mut s,
        r#"{"type":"load","session":"s1","json":"{\"nonsense\":1}"}"#,
        "cannot load",
    );
    rejected(
        &mut s,
        r#"{"type":"pause","session":"s1","paused":false}"#,
        "not paused",
    );
}

#[test]
fn a_refused_move_changes_nothing_and_says_why() {
    let mut s = session();
    let st = human_game(&mut s, 3);
    let (a, b) = (&st.spots[0], &st.spots[1]);
    let r = 60.0f64.min((b.x - a.x).hypot(b.y - a.y) / 2.0);
    // A loop from 1 round 2, marked: 2 ends up alone on its side.
    let msgs = draw(
        &mut s,
        0,
        1,
        1,
        loop_round((a.x, a.y), (b.x, b.y), r),
        vec![2],
    );
    let st1 = last_state(&msgs);
    assert_eq!(st1.k, 1, "{msgs:?}");
    assert!(st1.moves[0].starts_with("1 -> 1 enclosing"));
    // 2 and 3 are now on different regions: any curve between them is refused.
    let before = s.state();
    let msgs = draw(&mut s, 1, 2, 3, vec![], vec![]);
    let refused: Vec<_> = msgs
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Refused { reason } => Some(reason.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(refused.len(), 1, "{msgs:?}");
    assert!(
        !refused[0]
            .chars()
            .any(|c| c.is_ascii_digit() && refused[0].contains("px")),
        "no pixel numbers"
    );
    let after = last_state(&msgs);
    let ServerMsg::State(b) = before.unwrap() else {
        unreachable!()
    };
    assert_eq!(after.k, b.k);
    assert_eq!(after.glop, b.glop);
    assert_eq!(after.curves, b.curves);
    assert!(after.status.starts_with("Red to move"), "{}", after.status);
    assert!(after.refusal.is_some(), "the refusal shown apart");
}

#[test]
fn undo_redo_save_and_load_round_trip() {
    let mut s = session();
    let st = human_game(&mut s, 2);
    let msgs = draw(&mut s, 0, 1, 2, vec![], vec![]);
    let one = last_state(&msgs);
    assert_eq!(one.k, 1);
    let undone = last_state(&send(
        &mut s,
        ClientMsg::Undo {
            session: SID.into(),
            k: 1,
        },
    ));
    assert_eq!(undone.k, 0);
    assert_eq!(undone.glop, st.glop);
    let redone = last_state(&send(
        &mut s,
        ClientMsg::Redo {
            session: SID.into(),
            k: 0,
        },
    ));
    assert_eq!(redone, one);
    let saved = send(
        &mut s,
        ClientMsg::Save {
            session: SID.into(),
        },
    );
    let ServerMsg::Saved { json } = &saved[0] else {
        panic!("{saved:?}")
    };
    let mut t = session();
    human_game(&mut t, 4);
    let loaded = last_state(&send(
        &mut t,
        ClientMsg::Load {
            session: SID.into(),
            json: json.clone(),
            kept: None,
        },
    ));
    assert_eq!(loaded.glop, one.glop);
    assert_eq!(loaded.curves, one.curves);
    assert_eq!(loaded.spots, one.spots);
    assert_eq!(loaded.moves, one.moves);
    let log = send(
        &mut s,
        ClientMsg::SaveLog {
            session: SID.into(),
        },
    );
    let ServerMsg::LogText { text } = &log[0] else {
        panic!()
    };
    assert!(text.contains("undo move 1 -> 2"), "{text}");
    assert!(text.contains("Drawing area is 800 x 600"), "{text}");
}

/// A move the rules forbid (a spot without a life, a loop at a spot with one life) is an
/// error before any drawing, changing nothing.
#[test]
fn illegal_moves_are_errors() {
    let mut s = session();
    human_game(&mut s, 2);
    let st = last_state(&draw(&mut s, 0, 1, 2, vec![], vec![]));
    assert_eq!(st.k, 1, "{}", st.status);
    let st = last_state(&draw(&mut s, 1, 1, 2, vec![], vec![]));
    assert_eq!(st.k, 2, "{}", st.status);
    // Two curves at spot 1 (1 -> 2 twice): one of its three lives is left.
    let lives1 = st.spots.iter().find(|x| x.id == 1).expect("spot 1").lives;
    assert_eq!(lives1, 1);
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":2,"from":1,"to":1}"#,
        "a loop needs two lives at spot 1",
    );
    let st = last_state(&draw(&mut s, 2, 1, 3, vec![], vec![]));
    assert_eq!(st.k, 3, "{}", st.status);
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":3,"from":1,"to":2}"#,
        "spot 1 has no life left",
    );
    rejected(
        &mut s,
        r#"{"type":"draw","session":"s1","k":3,"from":2,"to":1}"#,
        "spot 1 has no life left",
    );
}

/// New game and Load build their board off the async threads (a setup job): until it comes
/// back the game in play is unchanged; a setup overtaken by a later one is dropped; a load
/// that fails is an error with the game unchanged; a new game stops the computer's job, whose
/// result is then dropped.
#[test]
fn new_game_and_load_are_set_up_off_the_connection() {
    let mut s = session();
    human_game(&mut s, 3);
    let one = last_state(&draw(&mut s, 0, 1, 2, vec![], vec![]));
    let saved = send(
        &mut s,
        ClientMsg::Save {
            session: SID.into(),
        },
    );
    let ServerMsg::Saved { json } = &saved[0] else {
        panic!("{saved:?}")
    };
    let humans = [PlayerSpec::Human, PlayerSpec::Human];
    let before = s.state();
    let first = s.handle(new_game_msg(4, humans.clone()));
    assert!(
        first.msgs.is_empty() && first.job.is_none(),
        "{:?}",
        first.msgs
    );
    let first = first.setup.expect("a setup job");
    assert_eq!(
        s.state(),
        before,
        "nothing changes until the board is built"
    );
    let second = s
        .handle(new_game_msg(5, humans.clone()))
        .setup
        .expect("a setup job");
    // The first comes back late: dropped.
    let r = s.finish_setup(first.run());
    assert!(r.msgs.is_empty() && r.job.is_none(), "{:?}", r.msgs);
    assert_eq!(s.state(), before);
    let r = s.finish_setup(second.run());
    let st = last_state(&r.msgs);
    assert_eq!((st.k, st.spots.len()), (0, 5));

    // A bad saved game: an error, the 5-spot game unchanged.
    rejected(
        &mut s,
        r#"{"type":"load","session":"s1","json":"{\"format\":\"sprouts-game\"}"}"#,
        "cannot load that game",
    );
    // The good one.
    let loaded = last_state(&send(
        &mut s,
        ClientMsg::Load {
            session: SID.into(),
            json: json.clone(),
            kept: None,
        },
    ));
    assert_eq!(
        (&loaded.glop, &loaded.curves, &loaded.spots),
        (&one.glop, &one.curves, &one.spots)
    );

    // The computer thinking (a long Monte Carlo think, never run here); a new game stops it.
    let slow = PlayerSpec::Computer {
        spec: "montecarlo:600s".into(),
    };
    let r = s.handle(new_game_msg(3, [slow, PlayerSpec::Human]));
    let r = s.finish_setup(r.setup.expect("a setup job").run());
    let job = r.job.expect("the computer's job");
    let flag = job.stop_flag();
    assert!(last_state(&r.msgs).busy);
    let r = s.handle(new_game_msg(2, humans));
    assert!(
        !flag.load(std::sync::atomic::Ordering::Relaxed),
        "not before the new board"
    );
    let r = s.finish_setup(r.setup.expect("a setup job").run());
    assert!(flag.load(std::sync::atomic::Ordering::Relaxed), "stopped");
    let st = last_state(&r.msgs);
    assert_eq!((st.k, st.spots.len(), st.busy), (0, 2, false));
    let late = s.finish(job.run(&mut |_| {}));
    assert!(
        late.msgs.is_empty() && late.job.is_none(),
        "{:?}",
        late.msgs
    );
    assert_eq!(
        s.state().map(|m| match m {
            ServerMsg::State(st) => st.k,
            _ => 99,
        }),
        Some(0)
    );
}

#[test]
fn two_computers_play_a_game_to_the_end() {
    let mut s = session();
    let st = new_game(
        &mut s,
        4,
        [
            PlayerSpec::Computer {
                spec: "random".into(),
            },
            PlayerSpec::Computer {
                spec: "montecarlo:20".into(),
            },
        ],
    );
    assert!(st.over, "{}", st.status);
    assert!(
        (8..=11).contains(&st.k),
        "a 4-spot game lasts 8 to 11 moves: {}",
        st.k
    );
    let winner = st.winner.expect("a winner");
    // Normal play: the last mover wins.
    assert_eq!(u32::from(winner), (st.k - 1) % 2);
    assert!(st.status.starts_with(["Blue", "Red"][winner as usize]));
}

/// Computer games between random players: every move the router refuses as chosen is drawn by
/// a later step of the ladder (an equivalent move, or the picture afresh; the log shows each
/// step), and every game reaches its end. Prints how often each step was needed.
/// `cargo test -p sprouts-net page::tests::ladder_statistics -- --ignored --nocapture`
#[test]
#[ignore = "evidence run: about a minute"]
fn ladder_statistics() {
    let mut finished = 0;
    let mut paused = 0;
    let (mut refused_first, mut rescued, mut fresh) = (0, 0, 0);
    let games = 40;
    for g in 0..games {
        let mut s = Session::new(SID.into(), 1000 + g);
        let r = s.handle_text(&format!(
            r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#
        ));
        assert!(matches!(r.msgs[0], ServerMsg::Welcome { .. }));
        let st = new_game(
            &mut s,
            5 + (g % 4) as u32,
            [
                PlayerSpec::Computer {
                    spec: "random".into(),
                },
                PlayerSpec::Computer {
                    spec: "random".into(),
                },
            ],
        );
        let log = s.log_text();
        refused_first += log.matches("ladder step 1").count();
        rescued += log.matches("drawn instead").count();
        fresh += log.matches("drawn with the whole picture afresh").count();
        if st.over {
            finished += 1;
        } else {
            assert!(st.paused, "{}", st.status);
            assert!(log.contains("ladder: every step refused"), "{log}");
            paused += 1;
        }
    }
    println!(
        "{games} games of 5 to 8 spots (random players): {finished} finished, {paused} paused; \
         {refused_first} moves refused as chosen, {rescued} of them drawn as an equivalent move, \
         {fresh} with the picture drawn afresh"
    );
    assert_eq!(finished + paused, games as usize);
    assert_eq!(paused, 0, "every move is drawn by some step of the ladder");
}

/// Two computers finish 6-spot games without a pause: a move the router refuses is drawn by a
/// later step of the ladder (an equivalent move, or the picture afresh).
#[test]
fn computers_finish_six_spot_games_without_pausing() {
    for seed in [3, 4] {
        let mut s = Session::new(SID.into(), seed);
        let r = s.handle_text(&format!(
            r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#
        ));
        assert!(matches!(r.msgs[0], ServerMsg::Welcome { .. }));
        let random = PlayerSpec::Computer {
            spec: "random".into(),
        };
        let st = new_game(&mut s, 6, [random.clone(), random]);
        assert!(st.over, "seed {seed}: {}\n{}", st.status, s.log_text());
        assert!(
            (12..=17).contains(&st.k),
            "a 6-spot game lasts 12 to 17 moves"
        );
    }
}

/// Space during the computer's move: with the stop flag set as each computer job starts (the
/// thinking cut short at once), a move the router refuses as chosen skips the search for
/// equivalent moves (logged) and is still drawn, with the picture afresh; the games finish.
#[test]
fn space_during_the_ladder_skips_the_search_and_still_draws() {
    let mut refusals = 0;
    let mut games = 0;
    for seed in 20..40 {
        let mut s = Session::new(SID.into(), seed);
        s.handle_text(&format!(
            r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#
        ));
        let random = PlayerSpec::Computer {
            spec: "random".into(),
        };
        let mut r = s.handle(new_game_msg(6, [random.clone(), random]));
        let mut state = None;
        loop {
            if let Some(st) = r.msgs.iter().rev().find_map(|m| match m {
                ServerMsg::State(st) => Some((**st).clone()),
                _ => None,
            }) {
                state = Some(st);
            }
            if let Some(setup) = r.setup.take() {
                r = s.finish_setup(setup.run());
                continue;
            }
            let Some(job) = r.job.take() else { break };
            // Space, pressed as the computer starts.
            job.stop_flag()
                .store(true, std::sync::atomic::Ordering::Relaxed);
            r = s.finish(job.run(&mut |_| {}));
        }
        let st = state.expect("a state");
        let log = s.log_text();
        assert!(st.over, "seed {seed}: {}\n{log}", st.status);
        let refused = log.matches("ladder step 1").count();
        assert_eq!(
            log.matches("ladder step 2 skipped: stop asked (Space)")
                .count(),
            refused,
            "{log}"
        );
        assert!(!log.contains("drawn instead"), "{log}");
        assert_eq!(
            log.matches("drawn with the whole picture afresh").count(),
            refused,
            "{log}"
        );
        refusals += refused;
        games += 1;
        if refusals >= 3 {
            break;
        }
    }
    assert!(
        refusals >= 3,
        "{games} games gave only {refusals} refused moves to test the ladder with"
    );
}

/// A reach request is answered by a reach job (run off the async threads) whose result lists
/// the lit spots; a result for a picture that has changed since is dropped.
#[test]
fn reach_runs_as_a_job_and_stale_answers_are_dropped() {
    let mut s = session();
    let st = human_game(&mut s, 3);
    let spot = &st.spots[0];
    let reach = |s: &mut Session| {
        s.handle(ClientMsg::Reach {
            session: SID.into(),
            k: 0,
            from: 1,
            toward: [spot.x + 30.0, spot.y],
        })
    };
    let r = reach(&mut s);
    assert!(r.msgs.is_empty() && r.job.is_none(), "{:?}", r.msgs);
    let job = r.reach.expect("a reach job");
    let answer = s.finish_reach(job.run());
    let [ServerMsg::Reachable { from: 1, spots }] = answer.msgs.as_slice() else {
        panic!("{:?}", answer.msgs)
    };
    let mut spots = spots.clone();
    spots.sort_unstable();
    assert_eq!(
        spots,
        vec![1, 2, 3],
        "every spot, the loop too, at the start"
    );
    // The board changes (a move) before the answer arrives: the answer is dropped.
    let job = reach(&mut s).reach.expect("a reach job");
    let _ = draw(&mut s, 0, 1, 2, Vec::new(), Vec::new());
    assert_eq!(
        s.state()
            .map(|m| matches!(m, ServerMsg::State(st) if st.k == 1)),
        Some(true)
    );
    assert!(s.finish_reach(job.run()).msgs.is_empty());
}

/// Redraw: the whole picture drawn afresh as a job, the same position and moves, logged, and
/// undone (the old picture back) and redone; a stale redraw is an error.
#[test]
fn redraw_is_a_logged_undoable_step() {
    let mut s = session();
    human_game(&mut s, 4);
    let msgs = draw(&mut s, 0, 1, 2, Vec::new(), Vec::new());
    let before = last_state(&msgs);
    assert_eq!(before.k, 1);
    rejected(
        &mut s,
        &format!(r#"{{"type":"redraw","session":"{SID}","k":0}}"#),
        "stale position",
    );
    let msgs = send(
        &mut s,
        ClientMsg::Redraw {
            session: SID.into(),
            k: 1,
        },
    );
    assert!(errors(&msgs).is_empty(), "{msgs:?}");
    let after = last_state(&msgs);
    assert_eq!(after.k, 1);
    assert_eq!(after.glop, before.glop);
    assert_eq!(after.moves, before.moves);
    assert_eq!(after.curves.len(), before.curves.len());
    assert_ne!(after.spots, before.spots, "the spots are placed afresh");
    assert!(
        s.log_text()
            .contains("redraw: the whole picture drawn afresh")
    );
    assert!(s.log_text().contains("drawn afresh: "), "{}", s.log_text());
    let undone = last_state(&send(
        &mut s,
        ClientMsg::Undo {
            session: SID.into(),
            k: 1,
        },
    ));
    assert_eq!(undone.k, 1, "undo takes back the redraw, not the move");
    assert_eq!(undone.spots, before.spots);
    assert_eq!(undone.curves, before.curves);
    assert!(
        s.log_text().contains("undo rearrange (Z)"),
        "{}",
        s.log_text()
    );
    let redone = last_state(&send(
        &mut s,
        ClientMsg::Redo {
            session: SID.into(),
            k: 1,
        },
    ));
    assert_eq!(redone.spots, after.spots);
}

/// A page cannot ask for more than [`super::MAX_SPOTS`] spots, and gets a clear error.
#[test]
fn too_many_spots_are_refused_with_the_limit() {
    let mut s = session();
    let msgs = send(
        &mut s,
        ClientMsg::NewGame {
            session: SID.into(),
            spots: super::MAX_SPOTS + 1,
            position: None,
            convention: super::protocol::ConventionName::Normal,
            players: [PlayerSpec::Human, PlayerSpec::Human],
            first: 0,
            width: 20_000.0,
            height: 20_000.0,
        },
    );
    let e = errors(&msgs);
    assert_eq!(e.len(), 1, "{msgs:?}");
    assert!(
        e[0].contains(&format!("at most {}", super::MAX_SPOTS)),
        "{e:?}"
    );
    assert!(s.state().is_none(), "no game was started");
}

/// However many reach requests a page sends while one is out, one reach job runs at a time and
/// only the latest request waits: a flood cannot start threads.
#[test]
fn reach_requests_are_one_at_a_time_and_the_latest_wins() {
    let mut s = session();
    let st = human_game(&mut s, 3);
    let spot = &st.spots[0];
    let mut jobs = Vec::new();
    for i in 0..500 {
        let r = s.handle(ClientMsg::Reach {
            session: SID.into(),
            k: 0,
            from: 1 + (i % 3),
            toward: [spot.x + 30.0, spot.y],
        });
        jobs.extend(r.reach);
    }
    assert_eq!(jobs.len(), 1, "one reach job out");
    let r = s.finish_reach(jobs.pop().unwrap().run());
    let next = r.reach.expect("the latest request runs next");
    let r = s.finish_reach(next.run());
    let [ServerMsg::Reachable { from, .. }] = r.msgs.as_slice() else {
        panic!("{:?}", r.msgs)
    };
    assert_eq!(*from, 1 + (499 % 3), "the last press is answered");
    assert!(r.reach.is_none(), "nothing left waiting");
}

/// The log keeps at most [`super::MAX_LOG_LINES`] lines however long a session lives.
#[test]
fn the_log_is_bounded() {
    let mut s = session();
    human_game(&mut s, 2);
    for _ in 0..(super::MAX_LOG_LINES / 2 + 10) {
        for paused in [true, false] {
            let _ = s.handle(ClientMsg::Pause {
                session: SID.into(),
                paused,
            });
        }
    }
    let lines = s.log_text().lines().count();
    assert_eq!(lines, super::MAX_LOG_LINES);
}

/// A stroke of many points is thinned before the router sees it, and still draws its move.
#[test]
fn a_long_stroke_is_thinned_and_drawn() {
    let mut s = session();
    let st = human_game(&mut s, 2);
    let (a, b) = (&st.spots[0], &st.spots[1]);
    let n = 50_000;
    let stroke: Vec<[f64; 2]> = (0..=n)
        .map(|i| {
            let t = f64::from(i) / f64::from(n);
            [a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t]
        })
        .collect();
    let thinned = super::session::thin(stroke.clone(), super::MAX_STROKE_POINTS);
    assert_eq!(thinned.len(), super::MAX_STROKE_POINTS);
    assert_eq!(thinned.first(), stroke.first());
    assert_eq!(thinned.last(), stroke.last());
    assert!(thinned.windows(2).all(|w| w[0][0] <= w[1][0] || a.x > b.x));
    let msgs = draw(&mut s, 0, a.id, b.id, stroke, Vec::new());
    assert!(errors(&msgs).is_empty(), "{msgs:?}");
    assert_eq!(last_state(&msgs).k, 1);
}

/// An ellipse from spot `a` round spot `b` and back to `a`, as a hand draws it: starts on `a`'s
/// disc, goes out past `b`, comes back to `a` from another side. The page's sides are the first
/// and last points off `a`'s disc.
fn hand_loop(a: (f64, f64), b: (f64, f64), r: f64) -> (Vec<[f64; 2]>, [f64; 2], [f64; 2]) {
    let (cx, cy) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let half = (dx * dx + dy * dy).sqrt() / 2.0;
    let (ux, uy) = (dx / (2.0 * half), dy / (2.0 * half));
    let (major, minor) = (half + 3.0 * r, 3.0 * r);
    let mut pts = Vec::new();
    // From a, angle pi on the ellipse (a lies at its far left end, inside it by 3 r).
    for t in 0..=120 {
        let th = std::f64::consts::PI + 0.6 + f64::from(t) / 120.0 * (std::f64::consts::TAU - 1.2);
        let (ex, ey) = (major * th.cos(), minor * th.sin());
        pts.push([cx + ex * ux - ey * uy, cy + ex * uy + ey * ux]);
    }
    pts.insert(0, [a.0, a.1]);
    pts.push([a.0, a.1]);
    let first = pts[1];
    let last = pts[pts.len() - 2];
    (pts, first, last)
}

#[test]
fn a_hand_drawn_loop_is_drawn_as_the_stroke() {
    let mut s = session();
    let st = human_game(&mut s, 3);
    let (a, b) = (&st.spots[0], &st.spots[1]);
    let (stroke, fs, ts) = hand_loop((a.x, a.y), (b.x, b.y), 12.0);
    let msgs = send(
        &mut s,
        ClientMsg::Draw {
            session: SID.into(),
            k: 0,
            from: a.id,
            to: a.id,
            stroke,
            from_side: Some(fs),
            to_side: Some(ts),
            marks: vec![],
        },
    );
    let log = s.log_text();
    assert!(log.contains("(Stroke)"), "{log}");
    let st = last_state(&msgs);
    assert_eq!(st.k, 1, "{msgs:?}");
    assert!(
        st.moves[0].contains(&format!("enclosing {}", b.id)),
        "{:?}",
        st.moves
    );
}

/// The steps of the analyses in `msgs`, in order.
fn analysis_steps(msgs: &[ServerMsg]) -> Vec<AnalysisMsg> {
    msgs.iter()
        .filter_map(|m| match m {
            ServerMsg::Analysis { event, .. } => Some(event.clone()),
            _ => None,
        })
        .collect()
}

/// The one analysis of a position: two spots (the second player wins: no winning move),
/// three spots (the first player wins, by exactly the moves whose child is lost for the player
/// to move there, each with the child's nimber), the steps in their order, and misère play
/// without nimbers.
#[test]
fn the_analysis_of_a_position_step_by_step() {
    use sprouts::ai::solver::{Solver, SolverConfig};
    let mut s = session();
    human_game(&mut s, 2);
    let analyse = |k| ClientMsg::Analyse {
        session: SID.into(),
        k,
        seconds: Some(30.0),
    };
    let steps = analysis_steps(&send(&mut s, analyse(0)));
    let AnalysisMsg::Outcome {
        wins,
        words,
        nimber,
    } = &steps[2]
    else {
        panic!("{steps:?}")
    };
    assert_eq!((*wins, *nimber), (Some(false), Some(0)));
    assert_eq!(words, "Red can win with best play, whatever Blue does");
    assert!(matches!(
        steps.last(),
        Some(AnalysisMsg::Done { complete: true, .. })
    ));
    // Three spots: each move's verdict is the solver's on its child.
    let mut s = session();
    human_game(&mut s, 3);
    let steps = analysis_steps(&send(&mut s, analyse(0)));
    let AnalysisMsg::Started {
        misere,
        parts,
        moves,
        lower,
        upper,
        ..
    } = &steps[0]
    else {
        panic!("{steps:?}")
    };
    assert!(!misere);
    assert_eq!(parts, &vec!["0*3".to_string()]);
    assert_eq!((*lower, *upper), (6, 8));
    assert!(matches!(
        steps[1],
        AnalysisMsg::Part {
            index: 0,
            nimber: Some(1)
        }
    ));
    assert!(
        matches!(&steps[2], AnalysisMsg::Outcome { wins: Some(true), words, .. } if words == "Blue, to move, can win with best play")
    );
    let pos = sprouts::topo::Position::new(3);
    let solver = Solver::new(SolverConfig::default()).expect("the solver starts");
    let verdicts: Vec<_> = steps
        .iter()
        .filter_map(|e| match e {
            AnalysisMsg::Move {
                index,
                nimber,
                winning,
            } => Some((*index, *nimber, *winning)),
            _ => None,
        })
        .collect();
    assert_eq!(verdicts.len(), moves.len());
    let mut winners = 0;
    for ((index, nimber, winning), (i, mv)) in verdicts.iter().zip(pos.distinct_moves().enumerate())
    {
        assert_eq!(*index as usize, i);
        assert_eq!(moves[i].words, mv.describe(&pos));
        let child = pos.play(&mv).expect("a legal move");
        let g = solver
            .nimber(&child, &sprouts::Limits::none())
            .value
            .expect("solved")
            .0;
        assert_eq!(*nimber, Some(g), "{}", moves[i].words);
        assert_eq!(*winning, Some(g == 0), "{}", moves[i].words);
        winners += usize::from(g == 0);
    }
    assert!(winners > 0);
    // A stale request changes nothing and gets an error.
    rejected(
        &mut s,
        &format!(r#"{{"type":"analyse","session":"{SID}","k":3}}"#),
        "stale position",
    );
    // Misère play at 2 spots: verdicts without nimbers.
    let mut s = session();
    let st = last_state(&send(
        &mut s,
        ClientMsg::NewGame {
            session: SID.into(),
            spots: 2,
            position: None,
            convention: super::protocol::ConventionName::Misere,
            players: [PlayerSpec::Human, PlayerSpec::Human],
            first: 0,
            width: 800.0,
            height: 600.0,
        },
    ));
    assert_eq!(st.k, 0);
    let steps = analysis_steps(&send(&mut s, analyse(0)));
    assert!(
        matches!(&steps[0], AnalysisMsg::Started { misere: true, .. }),
        "{steps:?}"
    );
    // Misère 0*2 is lost for the player to move: no move wins, every one is settled.
    assert!(
        matches!(
            &steps[1],
            AnalysisMsg::Outcome {
                nimber: None,
                wins: Some(false),
                ..
            }
        ),
        "{steps:?}"
    );
    let moves: Vec<_> = steps
        .iter()
        .filter_map(|e| match e {
            AnalysisMsg::Move {
                nimber, winning, ..
            } => Some((*nimber, *winning)),
            _ => None,
        })
        .collect();
    assert_eq!(moves, vec![(None, Some(false)); 5]);
}

/// An analysis stops when the game leaves its position; a budget of nothing settles nothing
/// and guesses nothing.
#[test]
fn an_analysis_stops_with_its_position_and_guesses_nothing() {
    let mut s = session();
    // 20 spots: no machine settles the start (tens of seconds) within the least budget.
    human_game(&mut s, 20);
    let r = s.handle(ClientMsg::Analyse {
        session: SID.into(),
        k: 0,
        seconds: Some(0.0),
    });
    let job = r.analysis.expect("an analysis job");
    let mut steps = Vec::new();
    job.run(&mut |m| steps.push(m));
    let steps = analysis_steps(&steps);
    assert!(
        matches!(&steps[1], AnalysisMsg::Part { nimber: None, .. }),
        "{steps:?}"
    );
    assert!(steps.iter().any(|e| matches!(e, AnalysisMsg::Outcome { wins: None, words, .. } if words.starts_with("not known within 0.1 s"))));
    assert!(steps.iter().all(|e| !matches!(
        e,
        AnalysisMsg::Move {
            winning: Some(_),
            ..
        }
    )));
    assert!(matches!(
        steps.last(),
        Some(AnalysisMsg::Done {
            complete: false,
            ..
        })
    ));
    // A long analysis is stopped by a move.
    let r = s.handle(ClientMsg::Analyse {
        session: SID.into(),
        k: 0,
        seconds: Some(120.0),
    });
    let job = r.analysis.expect("an analysis job");
    let stop = job.stop_flag();
    s.stop_stale_analysis();
    assert!(!stop.load(std::sync::atomic::Ordering::Relaxed));
    let st = last_state(&draw(&mut s, 0, 1, 2, vec![], vec![]));
    assert_eq!(st.k, 1);
    s.stop_stale_analysis();
    assert!(stop.load(std::sync::atomic::Ordering::Relaxed));
}

/// A game from a typed position: drawn, played on, undone to its start and no further; text
/// that is not a position, or not a picture, is refused with the reason and the game in play
/// goes on.
#[test]
fn a_new_game_from_a_typed_position() {
    let mut s = session();
    let before = new_game(&mut s, 3, [PlayerSpec::Human, PlayerSpec::Human]);
    let from = |position: &str| ClientMsg::NewGame {
        session: SID.into(),
        spots: 1,
        position: Some(position.into()),
        convention: super::protocol::ConventionName::Normal,
        players: [PlayerSpec::Human, PlayerSpec::Human],
        first: 0,
        width: 800.0,
        height: 600.0,
    };
    for (bad, reason) in [
        ("0.1a1a?", "at byte 6"),
        ("0.2", "not a picture"),
        ("", "type a position"),
    ] {
        let msgs = send(&mut s, from(bad));
        assert!(
            msgs.iter()
                .any(|m| matches!(m, ServerMsg::Error { message } if message.contains(reason))),
            "{bad}: {msgs:?}"
        );
        assert!(
            !msgs.iter().any(|m| matches!(m, ServerMsg::State(_))),
            "{bad}"
        );
    }
    let st = last_state(&send(&mut s, from("0*2.1a1a")));
    assert_ne!(st.game, before.game);
    assert_eq!(st.spots.len(), 5);
    assert_eq!(st.k, 0);
    assert!(!st.can_undo);
    assert!(!st.over);
}

/// The server's copy of a game: a session with a store keeps its game after every settled
/// action (not again when nothing changed), the page's snapshot carries the same id and stamp,
/// and another session is offered the last game in its welcome and resumes it (position,
/// moves and log), going on under the same id. Bad ids and a spoiled file are refused with
/// the reason and change nothing.
#[test]
fn a_kept_game_is_resumed_by_another_session() {
    use super::store::GameStore;
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!(
        "sprouts-session-store-{}-{:x}",
        std::process::id(),
        rand::random::<u64>()
    ));
    let store = Arc::new(GameStore::open(&dir).expect("a data directory"));
    let greet = |s: &mut Session| {
        let r = s.handle_text(&format!(
            r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#
        ));
        match &r.msgs[0] {
            ServerMsg::Welcome { kept, .. } => kept.clone(),
            m => panic!("{m:?}"),
        }
    };
    let mut s = Session::new(SID.into(), 7).with_store(Arc::clone(&store));
    assert_eq!(greet(&mut s), None);
    human_game(&mut s, 3);
    s.keep()
        .expect("a new game is kept")
        .run()
        .expect("written");
    assert!(s.keep().is_none(), "nothing changed");
    let one = last_state(&draw(&mut s, 0, 1, 2, vec![], vec![]));
    let keep = s.keep().expect("a move is kept");
    assert_eq!(keep.summary().k, 1);
    keep.run().expect("written");
    let Some(ServerMsg::Snapshot { id, at, k, .. }) = send(
        &mut s,
        ClientMsg::Snapshot {
            session: SID.into(),
        },
    )
    .pop() else {
        panic!("a snapshot")
    };
    let last = store.last().expect("a kept game");
    assert_eq!((&id, at, k), (&last.id, last.at, 1));
    let log = s.log_text();
    drop(s);
    // Another page: offered the last game, it resumes it.
    let mut t = Session::new(SID.into(), 8).with_store(Arc::clone(&store));
    assert_eq!(greet(&mut t), Some(last.clone()));
    let st = last_state(&send(
        &mut t,
        ClientMsg::ResumeKept {
            session: SID.into(),
            id: id.clone(),
        },
    ));
    assert_eq!((st.k, &st.glop, &st.moves), (1, &one.glop, &one.moves));
    let resumed = t.log_text();
    for line in log.lines() {
        assert!(
            resumed.contains(&format!("  (saved) {line}")),
            "{line}\n{resumed}"
        );
    }
    draw(&mut t, 1, 3, 3, vec![], vec![]);
    let keep = t.keep().expect("the next move is kept");
    assert_eq!((&keep.summary().id, keep.summary().k), (&id, 2));
    keep.run().expect("written");
    assert_eq!(store.len(), 1, "one game, one file");
    // Refusals.
    rejected(
        &mut t,
        &format!(r#"{{"type":"resume_kept","session":"{SID}","id":"../../etc/passwd"}}"#),
        "is not a kept game's id",
    );
    rejected(
        &mut t,
        &format!(r#"{{"type":"resume_kept","session":"{SID}","id":"00000000000000ff"}}"#),
        "no game is kept under the id",
    );
    std::fs::write(dir.join(format!("game-{id}.json")), "{\"format\":").expect("spoiled");
    rejected(
        &mut t,
        &format!(r#"{{"type":"resume_kept","session":"{SID}","id":"{id}"}}"#),
        "is refused: it is not a kept game",
    );
    // Without a store: refused in words.
    let mut u = session();
    rejected(
        &mut u,
        &format!(r#"{{"type":"resume_kept","session":"{SID}","id":"{id}"}}"#),
        "keeps no games",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A picture drawn in the editor: refused with the reason and the spots or curves it names
/// (the game in play unchanged), a picture not reached by moves accepted when any valid
/// position will do, and a legal one started from with its spots and curves as drawn.
#[test]
fn a_new_game_from_a_picture_drawn_in_the_editor() {
    use super::protocol::{ConventionName, PictureCurveMsg, PictureMsg};
    let mut s = session();
    let before = new_game(&mut s, 3, [PlayerSpec::Human, PlayerSpec::Human]);
    let curve = |from, to, points: &[[f64; 2]]| PictureCurveMsg {
        from,
        to,
        points: points.to_vec(),
    };
    // Spots 1 and 2, the move 1 - 3 - 2 above them; spots 4 and 5 below.
    let picture = |curves: Vec<PictureCurveMsg>| PictureMsg {
        width: 500.0,
        height: 400.0,
        spots: vec![
            [100.0, 200.0],
            [400.0, 200.0],
            [250.0, 80.0],
            [150.0, 300.0],
            [350.0, 300.0],
        ],
        curves,
    };
    let edited = |picture: PictureMsg, any_valid| ClientMsg::EditedGame {
        session: SID.into(),
        picture,
        any_valid,
        convention: ConventionName::Normal,
        players: [PlayerSpec::Human, PlayerSpec::Human],
        first: 0,
    };
    let the_move = || {
        vec![
            curve(1, 3, &[[150.0, 100.0]]),
            curve(3, 2, &[[350.0, 100.0]]),
        ]
    };
    let refused = |msgs: &[ServerMsg], why: &str| -> (Vec<u32>, Vec<u32>) {
        assert!(
            !msgs.iter().any(|m| matches!(m, ServerMsg::State(_))),
            "{msgs:?}"
        );
        msgs.iter()
            .find_map(|m| match m {
                ServerMsg::PictureRefused {
                    reason,
                    spots,
                    curves,
                } if reason.contains(why) => Some((spots.clone(), curves.clone())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{why}: {msgs:?}"))
    };
    // A curve crossing the move.
    let mut crossing = the_move();
    crossing.push(curve(4, 5, &[[250.0, 20.0]]));
    let (_, curves) = refused(&send(&mut s, edited(picture(crossing), true)), "cross");
    assert_eq!(curves.len(), 2);
    // A bare curve: valid, not reached by moves.
    let mut bare = the_move();
    bare.push(curve(4, 5, &[[250.0, 380.0]]));
    refused(
        &send(&mut s, edited(picture(bare.clone()), false)),
        "odd number",
    );
    // A curve to no spot, a world out of range.
    refused(
        &send(&mut s, edited(picture(vec![curve(1, 9, &[])]), true)),
        "not in the picture",
    );
    let mut tiny = picture(the_move());
    tiny.width = 10.0;
    refused(&send(&mut s, edited(tiny, true)), "drawing area");
    // Nothing changed meanwhile.
    let st = last_state(&s.state().into_iter().collect::<Vec<_>>());
    assert_eq!(st.game, before.game);
    // Accepted as any valid position, and reached.
    let st = last_state(&send(&mut s, edited(picture(bare), true)));
    assert_ne!(st.game, before.game);
    assert_eq!((st.spots.len(), st.curves.len(), st.k), (5, 3, 0));
    assert_eq!(st.start_spots, 5);
    let st = last_state(&send(&mut s, edited(picture(the_move()), false)));
    assert_eq!((st.spots.len(), st.curves.len()), (5, 2));
    assert!(st.human_to_move && !st.over);
}
