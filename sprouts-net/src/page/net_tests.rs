//! A page's network game, two sessions through a relay stand-in that passes frames as the
//! relay does (seats, tokens, numbered messages kept for a seat that is away).

use super::protocol::{ClientMsg, ConventionName, NetBack, NetMsg, ServerMsg, StateMsg};
use super::session::{RelayCmd, Reply, Session};
use crate::peer::Role;
use crate::relay::{RelayIn, RelayOut, RoomCode};

const ROOM: RoomCode = RoomCode([0x5a; 16]);

/// The relay, for two sessions: what each seat was sent, numbered, and who is connected.
#[derive(Default)]
struct Relay {
    /// Per seat (0 host, 1 guest): messages kept, with their numbers.
    kept: [Vec<(u64, String)>; 2],
    attached: [bool; 2],
    created: bool,
    /// Frames on their way to each session.
    inbox: [Vec<String>; 2],
}

impl Relay {
    fn take(&mut self, side: usize, cmd: RelayCmd) {
        let text = match cmd {
            RelayCmd::Open(t) => {
                self.attached[side] = false;
                t
            }
            RelayCmd::Send(t) => t,
            RelayCmd::Close => {
                self.attached[side] = false;
                return;
            }
        };
        let out = |v: &RelayOut| serde_json::to_string(v).expect("serialises");
        match serde_json::from_str::<RelayIn>(&text).expect("a relay frame") {
            RelayIn::Create => {
                assert!(!self.created, "one room");
                self.created = true;
                self.attached[side] = true;
                self.inbox[side].push(out(&RelayOut::Joined {
                    room: ROOM.to_string(),
                    seat: Role::Host,
                    token: "t0".into(),
                    peer: self.attached[1 - side],
                }));
            }
            RelayIn::Join {
                room, seat, after, ..
            } => {
                assert_eq!(room, ROOM.to_string());
                let role = seat.unwrap_or(Role::Guest);
                assert_eq!(role.seat(), side);
                self.attached[side] = true;
                self.inbox[side].push(out(&RelayOut::Joined {
                    room,
                    seat: role,
                    token: format!("t{side}"),
                    peer: self.attached[1 - side],
                }));
                let backlog: Vec<String> = self.kept[side]
                    .iter()
                    .filter(|(seq, _)| *seq > after)
                    .map(|(seq, data)| {
                        out(&RelayOut::Msg {
                            seq: *seq,
                            data: data.clone(),
                        })
                    })
                    .collect();
                self.inbox[side].extend(backlog);
                if self.attached[1 - side] {
                    self.inbox[1 - side].push(out(&RelayOut::Peer { present: true }));
                }
            }
            RelayIn::Send { data, keep } => {
                let to = 1 - side;
                let seq = if keep {
                    let seq = self.kept[to].len() as u64 + 1;
                    self.kept[to].push((seq, data.clone()));
                    seq
                } else {
                    0
                };
                if self.attached[to] {
                    self.inbox[to].push(out(&RelayOut::Msg { seq, data }));
                }
            }
            RelayIn::Ack { .. } => {}
        }
    }
}

struct Two {
    relay: Relay,
    pages: [Session; 2],
    /// What each page was last told.
    net: [Option<NetMsg>; 2],
    state: [Option<StateMsg>; 2],
    errors: Vec<String>,
}

fn greeted(id: &str) -> Session {
    let mut s = Session::new(id.into(), 11);
    let r = s.handle(ClientMsg::Hello { protocol: 1 });
    assert!(matches!(r.msgs[0], ServerMsg::Welcome { .. }));
    s
}

impl Two {
    fn new() -> Two {
        Two {
            relay: Relay::default(),
            pages: [greeted("h"), greeted("g")],
            net: [None, None],
            state: [None, None],
            errors: Vec::new(),
        }
    }

    /// Takes a reply of page `side`: its jobs run, its relay commands carried, its messages
    /// read; then frames delivered until nothing moves.
    fn reply(&mut self, side: usize, mut r: Reply) {
        loop {
            for m in r.msgs.drain(..) {
                match m {
                    ServerMsg::Net(n) => self.net[side] = Some(*n),
                    ServerMsg::State(st) => self.state[side] = Some(*st),
                    ServerMsg::Error { message } => self.errors.push(message),
                    _ => {}
                }
            }
            for c in r.relay.drain(..) {
                self.relay.take(side, c);
            }
            if let Some(setup) = r.setup.take() {
                r = self.pages[side].finish_setup(setup.run());
                continue;
            }
            if let Some(job) = r.job.take() {
                let result = job.run(&mut |_| {});
                r = self.pages[side].finish(result);
                continue;
            }
            break;
        }
    }

    fn pump(&mut self) {
        loop {
            let Some(side) = (0..2).find(|&s| !self.relay.inbox[s].is_empty()) else {
                return;
            };
            let frame = self.relay.inbox[side].remove(0);
            let r = self.pages[side].relay_frame(&frame);
            self.reply(side, r);
        }
    }

    fn send(&mut self, side: usize, msg: ClientMsg) {
        let r = self.pages[side].handle(msg);
        self.reply(side, r);
        self.pump();
    }

    fn net(&self, side: usize) -> &NetMsg {
        self.net[side].as_ref().expect("a net message")
    }

    fn state(&self, side: usize) -> &StateMsg {
        self.state[side].as_ref().expect("a state message")
    }

    fn lives(&self, side: usize) -> Vec<(u32, u8)> {
        self.state(side)
            .spots
            .iter()
            .map(|s| (s.id, s.lives))
            .collect()
    }

    /// The page to move plays a click move between two spots with lives, trying pairs until
    /// one is drawn; false when none is.
    fn move_once(&mut self, side: usize) -> bool {
        let st = self.state(side).clone();
        let alive: Vec<(u32, u8)> = st
            .spots
            .iter()
            .filter(|s| s.lives > 0)
            .map(|s| (s.id, s.lives))
            .collect();
        for &(a, la) in &alive {
            for &(b, _) in &alive {
                if a > b || (a == b && la < 2) {
                    continue;
                }
                let errors = self.errors.len();
                self.send(
                    side,
                    ClientMsg::Draw {
                        session: self.pages[side].id().into(),
                        k: st.k,
                        from: a,
                        to: b,
                        stroke: Vec::new(),
                        from_side: None,
                        to_side: None,
                        marks: Vec::new(),
                    },
                );
                if self.errors.len() == errors && self.state(side).k == st.k + 1 {
                    return true;
                }
            }
        }
        false
    }
}

fn host(t: &mut Two, spots: u32) {
    t.send(
        0,
        ClientMsg::NetHost {
            session: "h".into(),
            name: "Alice".into(),
            spots,
            convention: ConventionName::Normal,
            width: 500.0,
            height: 400.0,
        },
    );
}

fn join(t: &mut Two, side: usize, back: Option<NetBack>) {
    let id = t.pages[side].id().to_owned();
    t.send(
        side,
        ClientMsg::NetJoin {
            session: id,
            name: if side == 0 { "Alice" } else { "Bob" }.into(),
            room: ROOM.to_string(),
            back,
            width: 600.0,
            height: 450.0,
        },
    );
}

#[test]
fn two_pages_play_undo_and_come_back_with_their_kept_game() {
    let mut t = Two::new();
    host(&mut t, 3);
    assert_eq!(t.net(0).room.as_deref(), Some(ROOM.to_string().as_str()));
    assert_eq!(t.net(0).link, "away", "nobody else in the room yet");
    join(&mut t, 1, None);
    assert_eq!(t.net(0).peer_name.as_deref(), Some("Bob"));
    assert_eq!(t.net(1).peer_name.as_deref(), Some("Alice"));
    assert_eq!(t.net(1).link, "up");
    // Each side drew its own picture of 3 spots, in its own drawing area.
    assert_eq!(t.state(1).spots.len(), 3);
    assert_eq!((t.state(0).width, t.state(1).width), (500.0, 600.0));
    assert!(t.net(0).my_turn && !t.net(1).my_turn);
    assert!(
        t.state(0)
            .status
            .starts_with("Net (host): playing Bob · your turn")
    );

    // The guest may not move out of turn; the host moves, the guest sees it drawn.
    assert!(!t.move_once(1));
    assert!(t.errors.iter().any(|e| e.contains("other player's turn")));
    assert!(t.move_once(0));
    assert_eq!(t.state(1).k, 1);
    assert_eq!(t.lives(0), t.lives(1));
    assert!(!t.net(0).waiting, "the guest acknowledged");
    assert!(t.move_once(1));
    assert_eq!(t.state(0).k, 2);

    // Undo by the host of the guest's move: gone on both sides.
    t.send(
        0,
        ClientMsg::Undo {
            session: "h".into(),
            k: 2,
        },
    );
    assert_eq!((t.state(0).k, t.state(1).k), (1, 1));
    assert_eq!(t.lives(0), t.lives(1));
    assert!(t.net(1).my_turn);
    // No redo in a network game; a guest starts no game.
    let errors = t.errors.len();
    t.send(
        0,
        ClientMsg::Redo {
            session: "h".into(),
            k: 1,
        },
    );
    assert_eq!(t.errors.len(), errors + 1);

    // The guest's page reloads: a new session comes back with what the page kept.
    let back = t.net(1).back.clone().expect("the page keeps its seat");
    assert_eq!(
        back.kept.as_ref().map(|k| k.n),
        Some(4),
        "game, 2 moves, undo"
    );
    t.pages[1] = greeted("g2");
    t.relay.attached[1] = false;
    join(&mut t, 1, Some(back));
    assert_eq!(t.state(1).k, 1);
    assert_eq!(t.lives(0), t.lives(1));
    assert_eq!(t.net(1).role, Role::Guest);
    assert!(t.net(1).my_turn);

    // To the end of the game.
    for _ in 0..20 {
        if t.state(0).over {
            break;
        }
        let side = usize::from(t.net(1).my_turn);
        assert!(t.move_once(side), "a move of {:?}", t.state(side).glop);
        assert_eq!(t.state(0).k, t.state(1).k);
    }
    assert!(t.state(0).over && t.state(1).over);
    assert_eq!(t.state(0).winner, t.state(1).winner);
    assert_eq!(t.lives(0), t.lives(1));

    // The host leaves: the other side hears it.
    t.send(
        0,
        ClientMsg::NetLeave {
            session: "h".into(),
        },
    );
    assert!(!t.net(0).active);
    assert!(t.pages[1].log_text().contains("the other side left"));
}
