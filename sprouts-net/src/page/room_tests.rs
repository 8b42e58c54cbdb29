//! The Room steps on a page's game (spec 4.1, 4.7, 5.9): a person's move that found no room
//! waits for a step pressed by hand, heroic mode keeps a curve as drawn, and a step by hand
//! lets the computer try the move it could not draw once more.

use super::protocol::{ClientMsg, PlayerSpec, ServerMsg};
use super::session::Session;
use super::tests::{SID, draw, errors, human_game, last_state, loop_round, send, session};

/// The Room menu's boxes all off, for a person's moves and the computer's: nothing makes room
/// by itself.
fn room_boxes_off(s: &mut Session) {
    let off = super::protocol::RoomBoxesMsg::default();
    send(
        s,
        ClientMsg::RoomBoxes {
            session: SID.into(),
            human: off,
            computer: off,
            heroic: false,
        },
    );
}

/// A person's move refused for lack of room waits: with the Room boxes off, a loop round one of
/// two seeds 16 px apart is refused and the status offers the steps; M pressed then makes room
/// for it and draws it, and so does R, each change and the move one undo step. With no move
/// waiting, M is refused and changes nothing.
#[test]
fn a_waiting_move_is_drawn_by_a_room_step_pressed_by_hand() {
    use super::protocol::{ConventionName, PictureMsg, RoomStep};
    let mut s = session();
    let picture = PictureMsg {
        width: 600.0,
        height: 400.0,
        spots: vec![[150.0, 200.0], [400.0, 200.0], [416.0, 200.0]],
        curves: Vec::new(),
    };
    let st0 = last_state(&send(
        &mut s,
        ClientMsg::EditedGame {
            session: SID.into(),
            picture,
            any_valid: false,
            convention: ConventionName::Normal,
            players: [PlayerSpec::Human, PlayerSpec::Human],
            first: 0,
        },
    ));
    assert_eq!((st0.spots.len(), st0.k), (3, 0));
    room_boxes_off(&mut s);
    let room = |s: &mut Session, step| {
        send(
            s,
            ClientMsg::Room {
                session: SID.into(),
                k: 0,
                step,
            },
        )
    };
    // Nothing waits: M has nothing to make room for.
    let before = s.state();
    let msgs = room(&mut s, RoomStep::Local);
    assert_eq!(errors(&msgs).len(), 1, "{msgs:?}");
    assert!(errors(&msgs)[0].contains("draw the move first"));
    assert_eq!(s.state(), before);
    for step in [RoomStep::Local, RoomStep::Rearrange] {
        // A loop from 1 round 2, with 3 outside: it must pass between 2 and 3.
        let msgs = draw(&mut s, 0, 1, 1, Vec::new(), vec![2]);
        let st = last_state(&msgs);
        assert_eq!(st.k, 0, "{msgs:?}");
        let refusal = st.refusal.clone().expect("refused");
        assert!(refusal.contains("to make room for it"), "{refusal}");
        assert_eq!(st.curves, st0.curves);
        let msgs = room(&mut s, step);
        let st = last_state(&msgs);
        assert_eq!(st.k, 1, "{step:?}: {msgs:?}");
        assert!(
            st.moves[0].starts_with("1 -> 1 enclosing 2"),
            "{:?}",
            st.moves
        );
        assert!(st.refusal.is_none());
        // One undo takes back the change and the move.
        let st = last_state(&send(
            &mut s,
            ClientMsg::Undo {
                session: SID.into(),
                k: 1,
            },
        ));
        assert_eq!(st.k, 0);
        assert_eq!(st.spots, st0.spots, "{step:?}: the spots put back");
        assert!(!st.can_undo);
    }
}

/// Heroic mode (spec 4.7): a loop drawn by hand is kept exactly as drawn, in straight pieces
/// between the stroke's points; a curve that would cross it is refused and changes nothing;
/// the shortest way without a stroke is refused too.
#[test]
fn heroic_mode_keeps_a_curve_exactly_as_drawn() {
    use super::protocol::RoomBoxesMsg;
    let mut s = session();
    let st0 = human_game(&mut s, 3);
    send(
        &mut s,
        ClientMsg::RoomBoxes {
            session: SID.into(),
            human: RoomBoxesMsg::default(),
            computer: RoomBoxesMsg::default(),
            heroic: true,
        },
    );
    let (a, b) = (&st0.spots[0], &st0.spots[1]);
    let stroke = loop_round((a.x, a.y), (b.x, b.y), 40.0);
    let msgs = draw(&mut s, 0, 1, 1, stroke.clone(), vec![]);
    let st = last_state(&msgs);
    assert_eq!(st.k, 1, "{msgs:?}");
    assert!(
        st.moves[0].starts_with("1 -> 1 enclosing 2"),
        "{:?}",
        st.moves
    );
    // Every piece is straight, and every piece's ends are the stroke's points or spot centres.
    let centres: Vec<[f64; 2]> = st.spots.iter().map(|p| [p.x, p.y]).collect();
    let known = |x: f64, y: f64| {
        stroke
            .iter()
            .chain(&centres)
            .any(|p| (p[0] - x).hypot(p[1] - y) < 1e-6)
    };
    let pieces: Vec<&[f64; 8]> = st.curves.iter().flatten().collect();
    assert!(pieces.len() >= stroke.len() - 4, "{} pieces", pieces.len());
    let mut ends_known = 0;
    for p in &pieces {
        let (dx, dy) = (p[6] - p[0], p[7] - p[1]);
        for (x, y) in [(p[2], p[3]), (p[4], p[5])] {
            let off = ((x - p[0]) * dy - (y - p[1]) * dx).abs() / dx.hypot(dy).max(1e-12);
            assert!(off < 1e-6, "a piece bent by {off} px");
        }
        ends_known += usize::from(known(p[0], p[1]));
    }
    // The new spot's cut makes the only ends that are not points drawn.
    assert!(
        ends_known + 2 >= pieces.len(),
        "{ends_known} of {}",
        pieces.len()
    );
    // Spot 3 to the new spot 4 through the loop's inside: it crosses the loop.
    let before = s.state();
    let c4 = st.spots.iter().find(|p| p.id == 4).expect("spot 4");
    let c3 = &st.spots[2];
    let inside = [b.x + 12.0, b.y + 12.0];
    let msgs = draw(
        &mut s,
        1,
        3,
        4,
        vec![[c3.x, c3.y], inside, [c4.x, c4.y]],
        vec![],
    );
    assert_eq!(last_state(&msgs).k, 1);
    assert!(last_state(&msgs).refusal.is_some(), "{msgs:?}");
    let ServerMsg::State(b0) = before.unwrap() else {
        unreachable!()
    };
    assert_eq!(last_state(&msgs).curves, b0.curves);
    // No stroke, no curve.
    let msgs = draw(&mut s, 1, 2, 3, Vec::new(), vec![]);
    assert!(errors(&msgs)[0].contains("heroic"), "{msgs:?}");
}

/// The computer's move that cannot be drawn (its Room boxes off) stops the game; R pressed by
/// hand then makes room and the computer tries the same move once more, and it is played.
#[test]
fn a_room_step_by_hand_lets_the_computer_try_its_move_again() {
    use super::protocol::{ConventionName, PictureMsg, RoomStep};
    let mut s = session();
    room_boxes_off(&mut s);
    // Four seeds in a square of side 16 px: a loop round one or two of them has no way between
    // the others, whichever seed it is drawn at.
    let start = || ClientMsg::EditedGame {
        session: SID.into(),
        picture: PictureMsg {
            width: 600.0,
            height: 400.0,
            spots: vec![
                [300.0, 200.0],
                [316.0, 200.0],
                [300.0, 216.0],
                [316.0, 216.0],
            ],
            curves: Vec::new(),
        },
        any_valid: false,
        convention: ConventionName::Normal,
        players: [
            PlayerSpec::Computer {
                spec: "random".into(),
            },
            PlayerSpec::Human,
        ],
        first: 0,
    };
    // The random player's seed changes from game to game: until it picks such a loop.
    for _ in 0..40 {
        let st = last_state(&send(&mut s, start()));
        if st.k == 1 {
            continue;
        }
        let refusal = st.refusal.clone().expect("not drawn");
        assert!(refusal.contains("could not be drawn"), "{refusal}");
        assert!(refusal.contains("once more"), "{refusal}");
        assert!(st.paused);
        let msgs = send(
            &mut s,
            ClientMsg::Room {
                session: SID.into(),
                k: 0,
                step: RoomStep::Rearrange,
            },
        );
        let st = last_state(&msgs);
        assert_eq!(st.k, 1, "{msgs:?}");
        // The move chosen, or one giving the same game (the ladder's second rung).
        let start = sprouts::topo::Position::new(4);
        let chosen = start
            .moves()
            .find(|m| refusal.contains(&format!("move {} could not", m.describe(&start))))
            .expect("the refusal names the move");
        let after = sprouts::topo::Position::parse_glop(&st.glop).expect("GLOP");
        assert!(
            start.play(&chosen).unwrap().same_game(&after),
            "{refusal} / {:?}",
            st.moves
        );
        assert!(!st.paused && st.refusal.is_none());
        return;
    }
    panic!("the computer drew every move it chose");
}
