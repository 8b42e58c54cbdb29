//! A page's network game (the Net menu, spec section 6): the session drives a [`Peer`] for
//! the page's person and speaks the relay's protocol for it, without sockets. The server
//! carries the frames ([`RelayCmd`]) to its relay and hands the relay's frames back
//! ([`Session::relay_frame`], [`Session::relay_closed`]), and calls [`Session::net_tick`]
//! a few times a second while a network game is on.
//!
//! The game shown is the peer's: after anything the peer did, the page's game is set to a copy
//! of it. The person's move is drawn by this side's router, as in a local game, and handed to
//! the peer, which sends it as a topological move; the other side's moves are drawn by the
//! computer's ladder inside the peer.

use std::time::{Duration, Instant};

use sprouts::draw::{FreshOptions, Settings, WorldSize};
use sprouts::{Convention, Game, HumanInput, Seat};

use super::{PageGame, Reply, Session, SetupKind};
use crate::page::protocol::{ConventionName, NetBack, NetKept, NetMsg, ServerMsg};
use crate::peer::protocol::encode;
use crate::peer::{Drawing, Event, Link, Notice, Output, Peer, PeerConfig, Role, Timing};
use crate::relay::{ErrorCode, RelayIn, RelayOut, RoomCode};

/// What the server does with the session's relay connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelayCmd {
    /// Open a connection to the relay (closing any other) and send this frame first.
    Open(String),
    /// Send a frame on the open connection.
    Send(String),
    /// Close the connection.
    Close,
}

/// How long after a lost connection the session tries the relay again.
const RETRY: Duration = Duration::from_secs(1);

/// The longest name shown to the other player.
const NAME_CHARS: usize = 40;

/// The relay connection's state.
#[derive(Clone, Debug, PartialEq)]
enum Conn {
    /// Waiting for `joined`.
    Joining,
    /// Seated.
    Joined,
    /// Lost; tried again at the instant.
    Down(Instant),
    /// The relay refused the room or the seat: nothing more is tried.
    Refused(String),
}

/// A page's side of a network game.
#[derive(Debug)]
pub(super) struct NetSide {
    peer: Peer,
    role: Role,
    /// The room asked for (a guest) or given (a host, once created).
    room: Option<RoomCode>,
    token: Option<String>,
    /// The last relay message received.
    after: u64,
    conn: Conn,
    epoch: Instant,
    /// A side coming back from a page's kept game waits for it to be rebuilt.
    config: PeerConfig,
}

/// A network game being set up from a kept game (the loader runs off the async threads).
#[derive(Debug)]
pub(super) struct NetResume {
    side: NetSide,
    n: u64,
    last: u64,
}

impl NetSide {
    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    /// The first frame on a new relay connection.
    fn join_frame(&self) -> String {
        let msg = match (&self.room, &self.token) {
            (Some(code), token) => RelayIn::Join {
                room: code.to_string(),
                seat: Some(self.role),
                token: token.clone(),
                after: self.after,
            },
            (None, _) => RelayIn::Create,
        };
        serde_json::to_string(&msg).expect("relay messages serialise")
    }

    fn link_word(&self) -> &'static str {
        match &self.conn {
            Conn::Joining => "connecting",
            Conn::Down(_) => "down",
            Conn::Refused(_) => "refused",
            Conn::Joined if self.peer.peer_present() && self.peer.link() == Link::Up => "up",
            Conn::Joined => "away",
        }
    }
}

fn config(role: Role, name: &str, width: f64, height: f64, settings: Settings) -> PeerConfig {
    let name: String = name.trim().chars().take(NAME_CHARS).collect();
    PeerConfig {
        role,
        name: if name.is_empty() {
            match role {
                Role::Host => "the host".into(),
                Role::Guest => "the guest".into(),
            }
        } else {
            name
        },
        player: Seat::Human,
        drawing: Drawing::Pictures {
            world: WorldSize::new(width.round(), height.round()),
            settings,
        },
        timing: Timing::default(),
        seed: rand::random(),
    }
}

impl Session {
    /// Whether a network game is on (the server then ticks [`Session::net_tick`]).
    pub fn net_active(&self) -> bool {
        self.net.is_some()
    }

    pub(super) fn in_net(&self) -> bool {
        self.net.is_some() || self.net_resume.is_some()
    }

    fn world_ok(width: f64, height: f64) -> Result<(), String> {
        let ok = |x: f64| x.is_finite() && (super::WORLD_MIN..=super::WORLD_MAX).contains(&x);
        if ok(width) && ok(height) {
            Ok(())
        } else {
            Err(format!(
                "the drawing area must be between {} and {} pixels a side",
                super::WORLD_MIN,
                super::WORLD_MAX
            ))
        }
    }

    fn settings_now(&self) -> Settings {
        self.game
            .as_ref()
            .map_or_else(Settings::default, |g| *g.board().settings())
    }

    /// Net menu, Host: a room on the relay and a first game in it.
    pub(super) fn net_host(
        &mut self,
        name: &str,
        spots: u32,
        convention: ConventionName,
        width: f64,
        height: f64,
    ) -> Reply {
        if self.in_net() {
            return Self::error("already in a network game: leave it first");
        }
        if let Err(e) = Self::world_ok(width, height) {
            return Self::error(e);
        }
        if !(1..=crate::peer::protocol::MAX_NET_SPOTS).contains(&spots) {
            return Self::error(format!(
                "a network game has 1 to {} spots",
                crate::peer::protocol::MAX_NET_SPOTS
            ));
        }
        if f64::from(spots) * 400.0 > width * height {
            return Self::error(format!(
                "{spots} spots do not fit a drawing area of {width:.0} x {height:.0}"
            ));
        }
        let config = config(Role::Host, name, width, height, self.settings_now());
        let mut side = NetSide {
            peer: Peer::new(config.clone()),
            role: Role::Host,
            room: None,
            token: None,
            after: 0,
            conn: Conn::Joining,
            epoch: Instant::now(),
            config,
        };
        let open = RelayCmd::Open(side.join_frame());
        let now = side.now();
        let outs = side.peer.handle(
            now,
            Event::NewGame {
                spots,
                first: 0,
                convention: match convention {
                    ConventionName::Normal => Convention::Normal,
                    ConventionName::Misere => Convention::Misere,
                },
            },
        );
        self.stop_running();
        self.net = Some(side);
        let mut reply = Reply::default();
        reply.relay.push(open);
        let mut msgs = Vec::new();
        self.note("network: opening a room as its host".into(), &mut msgs);
        self.net_outputs(outs, msgs, reply)
    }

    /// Net menu, Join (or a page coming back to its seat).
    pub(super) fn net_join(
        &mut self,
        name: &str,
        room: &str,
        back: Option<NetBack>,
        width: f64,
        height: f64,
    ) -> Reply {
        if self.in_net() {
            return Self::error("already in a network game: leave it first");
        }
        if let Err(e) = Self::world_ok(width, height) {
            return Self::error(e);
        }
        let code: RoomCode = match room.trim().parse() {
            Ok(c) => c,
            Err(_) => {
                return Self::error(
                    "a room code is the 32 hex digits the host's page shows".to_string(),
                );
            }
        };
        let role = back.as_ref().map_or(Role::Guest, |b| b.role);
        let config = config(role, name, width, height, self.settings_now());
        let side = NetSide {
            peer: Peer::new(config.clone()),
            role,
            room: Some(code),
            token: back.as_ref().map(|b| b.token.clone()),
            after: back.as_ref().map_or(0, |b| b.after),
            conn: Conn::Joining,
            epoch: Instant::now(),
            config,
        };
        self.stop_running();
        if let Some(kept) = back.and_then(|b| b.kept) {
            // The kept game is rebuilt (and checked) by the loader first.
            self.net_resume = Some(NetResume {
                side,
                n: kept.n,
                last: kept.last,
            });
            return self.start_setup(SetupKind::Load { json: kept.record });
        }
        self.net_start(side, Vec::new())
    }

    /// Seats the side: opens the relay connection.
    fn net_start(&mut self, side: NetSide, mut msgs: Vec<ServerMsg>) -> Reply {
        let mut reply = Reply::default();
        reply.relay.push(RelayCmd::Open(side.join_frame()));
        let role = side.role;
        self.net = Some(side);
        self.note(
            format!("network: joining the room as the {role}"),
            &mut msgs,
        );
        self.net_outputs(Vec::new(), msgs, reply)
    }

    /// The kept game came back from the loader: the side resumes with it.
    pub(super) fn net_resumed(&mut self, outcome: Result<Game, String>) -> Reply {
        let Some(resume) = self.net_resume.take() else {
            return Reply::default();
        };
        let mut side = resume.side;
        let mut msgs = Vec::new();
        match outcome {
            Ok(game) => {
                side.peer = Peer::resume(side.config.clone(), game, resume.n, resume.last);
                self.games += 1;
                self.net_game_number = self.games;
            }
            Err(e) => self.note(
                format!("network: the kept game is lost ({e}); it comes from the other side"),
                &mut msgs,
            ),
        }
        self.net_start(side, msgs)
    }

    /// Net menu, Leave: a bye to the other side; the game stays on the page as a local game.
    pub(super) fn net_leave(&mut self) -> Reply {
        if self.net_resume.take().is_some() {
            return self.net_state_reply(Vec::new());
        }
        let Some(side) = self.net.as_mut() else {
            return Self::error("not in a network game");
        };
        let now = side.now();
        let outs = side.peer.handle(now, Event::Leave);
        let mut reply = Reply::default();
        self.net_outputs(outs, Vec::new(), Reply::default())
            .relay
            .into_iter()
            .for_each(|c| reply.relay.push(c));
        reply.relay.push(RelayCmd::Close);
        self.net = None;
        let mut msgs = Vec::new();
        self.note("network: left the game".into(), &mut msgs);
        msgs.push(self.net_msg_inactive());
        msgs.extend(self.state());
        reply.msgs = msgs;
        reply
    }

    fn net_msg_inactive(&self) -> ServerMsg {
        ServerMsg::Net(Box::new(NetMsg {
            active: false,
            room: None,
            role: Role::Host,
            back: None,
            link: "down".into(),
            peer_name: None,
            waiting: false,
            my_turn: false,
            status: String::new(),
        }))
    }

    fn net_state_reply(&mut self, mut msgs: Vec<ServerMsg>) -> Reply {
        msgs.extend(self.net_msg());
        msgs.extend(self.state());
        Reply::msgs(msgs)
    }

    /// A frame from the relay.
    pub fn relay_frame(&mut self, text: &str) -> Reply {
        let Some(side) = self.net.as_mut() else {
            return Reply::default();
        };
        let msg = match serde_json::from_str::<RelayOut>(text) {
            Ok(m) => m,
            Err(e) => {
                tracing::debug!("not a relay message: {e}");
                return Reply::default();
            }
        };
        let now = side.now();
        let mut reply = Reply::default();
        let mut msgs = Vec::new();
        let mut events = Vec::new();
        match msg {
            RelayOut::Joined {
                room,
                seat,
                token,
                peer,
            } if seat == side.role => {
                let Ok(code) = room.parse::<RoomCode>() else {
                    return Reply::default();
                };
                let first = side.room.is_none();
                side.room = Some(code);
                side.token = Some(token);
                side.conn = Conn::Joined;
                events.push(Event::Connected);
                events.push(Event::PeerPresent(peer));
                if first {
                    self.note(format!("network: room {code} opened"), &mut msgs);
                }
            }
            RelayOut::Joined { seat, .. } => {
                side.conn = Conn::Refused(format!("the relay gave the {seat}'s seat"));
                reply.relay.push(RelayCmd::Close);
            }
            RelayOut::Msg { seq, data } => {
                if seq > 0 {
                    if seq <= side.after {
                        return Reply::default();
                    }
                    side.after = seq;
                    let ack = RelayIn::Ack { seq };
                    reply.relay.push(RelayCmd::Send(
                        serde_json::to_string(&ack).expect("relay messages serialise"),
                    ));
                }
                events.push(Event::Text(data));
            }
            RelayOut::Peer { present } => events.push(Event::PeerPresent(present)),
            RelayOut::Error { code, message } => match code {
                // A page coming back may find its old connection not yet gone.
                ErrorCode::RoomFull if side.token.is_some() => {
                    side.conn = Conn::Down(Instant::now() + RETRY);
                    reply.relay.push(RelayCmd::Close);
                }
                ErrorCode::NoRoom
                | ErrorCode::RoomFull
                | ErrorCode::BadToken
                | ErrorCode::Replaced
                | ErrorCode::TooManyRooms => {
                    side.conn = Conn::Refused(message.clone());
                    reply.relay.push(RelayCmd::Close);
                    self.note(format!("network: the relay refused: {message}"), &mut msgs);
                }
                _ => self.note(format!("network: the relay says: {message}"), &mut msgs),
            },
        }
        let mut outs = Vec::new();
        if let Some(side) = self.net.as_mut() {
            for e in events {
                outs.extend(side.peer.handle(now, e));
            }
        }
        self.net_outputs(outs, msgs, reply)
    }

    /// The relay connection ended.
    pub fn relay_closed(&mut self) -> Reply {
        let Some(side) = self.net.as_mut() else {
            return Reply::default();
        };
        if matches!(side.conn, Conn::Refused(_)) {
            return Reply::default();
        }
        side.conn = Conn::Down(Instant::now() + RETRY);
        let now = side.now();
        let outs = side.peer.handle(now, Event::Disconnected);
        self.net_outputs(outs, Vec::new(), Reply::default())
    }

    /// Time passes: heartbeats, resends, a lost connection tried again.
    pub fn net_tick(&mut self) -> Reply {
        let Some(side) = self.net.as_mut() else {
            return Reply::default();
        };
        let mut reply = Reply::default();
        if let Conn::Down(at) = side.conn
            && Instant::now() >= at
        {
            side.conn = Conn::Joining;
            reply.relay.push(RelayCmd::Open(side.join_frame()));
        }
        let now = side.now();
        let outs = side.peer.handle(now, Event::Tick);
        let quiet = outs.iter().all(|o| matches!(o, Output::Send(_)));
        let mut r = self.net_outputs(outs, Vec::new(), reply);
        if quiet && r.relay.iter().all(|c| matches!(c, RelayCmd::Send(_))) {
            // Nothing the page shows changed.
            r.msgs.clear();
        }
        r
    }

    /// A person's move in a network game: drawn by this side's router, then handed to the
    /// peer.
    pub(super) fn net_draw(&mut self, input: HumanInput) -> Reply {
        let Some(side) = self.net.as_ref() else {
            return Self::error("not in a network game");
        };
        match side.peer.person_job(input) {
            Ok((ticket, job)) => self.run_net_job(job, ticket),
            Err(e) => Self::error(e),
        }
    }

    /// Redraw in a network game: this side's picture only.
    pub(super) fn net_redraw(&mut self) -> Reply {
        let Some(side) = self.net.as_ref() else {
            return Self::error("not in a network game");
        };
        match side.peer.redraw_job(FreshOptions::default()) {
            Ok((ticket, job)) => self.run_net_job(job, ticket),
            Err(e) => Self::error(e),
        }
    }

    /// Undo in a network game: the last move, whoever made it (the peer's rules).
    pub(super) fn net_undo(&mut self) -> Reply {
        let Some(side) = self.net.as_mut() else {
            return Self::error("not in a network game");
        };
        if side.peer.waiting() {
            return Self::error("waiting for the other side to acknowledge");
        }
        if side.peer.game().is_none_or(|g| g.moves().is_empty()) {
            return Self::error("there is nothing to undo");
        }
        let now = side.now();
        let outs = side.peer.handle(now, Event::Undo);
        self.net_outputs(outs, Vec::new(), Reply::default())
    }

    /// New game in a network game: the host's alone.
    pub(super) fn net_new_game(&mut self, spots: u32, first: u8, convention: Convention) -> Reply {
        let Some(side) = self.net.as_mut() else {
            return Self::error("not in a network game");
        };
        if side.role != Role::Host {
            return Self::error("in a network game only the host starts games");
        }
        if side.peer.waiting() {
            return Self::error("waiting for the other side to acknowledge");
        }
        if !(1..=crate::peer::protocol::MAX_NET_SPOTS).contains(&spots) {
            return Self::error(format!(
                "a network game has 1 to {} spots",
                crate::peer::protocol::MAX_NET_SPOTS
            ));
        }
        let now = side.now();
        let outs = side.peer.handle(
            now,
            Event::NewGame {
                spots,
                first: usize::from(first),
                convention,
            },
        );
        self.net_outputs(outs, Vec::new(), Reply::default())
    }

    /// A network job (the person's move drawn, or the picture redrawn) came back.
    pub(super) fn net_finish(&mut self, ticket: u64, done: sprouts::JobDone) -> Reply {
        let Some(side) = self.net.as_mut() else {
            return Reply::default();
        };
        let now = side.now();
        let outs = side.peer.handle(
            now,
            Event::Drawn {
                ticket,
                done: Box::new(done),
            },
        );
        self.net_outputs(outs, Vec::new(), Reply::default())
    }

    /// Carries out the peer's outputs: frames for the relay, notices in the log; then the
    /// page's game set to the peer's, and the state and the net message.
    fn net_outputs(
        &mut self,
        outs: Vec<Output>,
        mut msgs: Vec<ServerMsg>,
        mut reply: Reply,
    ) -> Reply {
        let mut refusal = None;
        for out in outs {
            match out {
                Output::Send(m) => {
                    let joined = self.net.as_ref().is_some_and(|s| s.conn == Conn::Joined);
                    // Before the seat is taken a message goes nowhere: the peer sends its
                    // action again once connected.
                    if joined {
                        let frame = RelayIn::Send {
                            data: encode(&m),
                            keep: m.is_durable(),
                        };
                        reply.relay.push(RelayCmd::Send(
                            serde_json::to_string(&frame).expect("relay messages serialise"),
                        ));
                    }
                }
                Output::Reconnect => {
                    if let Some(s) = self.net.as_mut() {
                        s.conn = Conn::Joining;
                        reply.relay.push(RelayCmd::Open(s.join_frame()));
                    }
                }
                Output::Notice(n) => {
                    match &n {
                        Notice::GameStarted { .. } => {
                            self.games += 1;
                            self.net_game_number = self.games;
                        }
                        Notice::NotDrawn { reason } | Notice::Reverted { reason } => {
                            refusal = Some(reason.clone());
                            msgs.push(ServerMsg::Refused {
                                reason: reason.clone(),
                            });
                        }
                        _ => {}
                    }
                    self.note(format!("network: {n}"), &mut msgs);
                }
            }
        }
        self.net_sync(refusal);
        msgs.extend(self.net_msg());
        msgs.extend(self.state());
        reply.msgs.splice(0..0, msgs);
        reply
    }

    /// The page's game set to the peer's.
    fn net_sync(&mut self, refusal: Option<String>) {
        let Some(side) = &self.net else { return };
        let Some(game) = side.peer.game() else { return };
        let same = self.game.as_ref().is_some_and(|g| {
            g.number == self.net_game_number
                && g.game.version() == game.version()
                && g.game.moves().len() == game.moves().len()
        });
        if same && refusal.is_none() {
            return;
        }
        if game.board().is_none() {
            // A picture the ladder could not keep: the page shows the last one it has.
            return;
        }
        self.game = Some(PageGame {
            game: game.clone(),
            paused: false,
            refusal,
            waiting: None,
            computer_waiting: None,
            retry: None,
            verdict: None,
            number: self.net_game_number,
        });
        self.changed();
    }

    /// The net message, while a network game is on.
    pub(super) fn net_msg(&self) -> Option<ServerMsg> {
        let side = self.net.as_ref()?;
        let peer = &side.peer;
        let kept = if peer.waiting() {
            None
        } else {
            self.game.as_ref().and_then(|g| {
                let (n, last) = peer.committed();
                (n > 0).then(|| NetKept {
                    record: g.game.record().to_json(),
                    n,
                    last,
                })
            })
        };
        let back = side.token.as_ref().map(|t| NetBack {
            role: side.role,
            token: t.clone(),
            after: side.after,
            kept,
        });
        Some(ServerMsg::Net(Box::new(NetMsg {
            active: true,
            room: side.room.map(|c| c.to_string()),
            role: side.role,
            back,
            link: side.link_word().into(),
            peer_name: peer.peer_name().map(str::to_owned),
            waiting: peer.waiting(),
            my_turn: peer.local_turn(),
            status: self.net_words().unwrap_or_default(),
        })))
    }

    /// The network part of the status line.
    pub(super) fn net_words(&self) -> Option<String> {
        let side = self.net.as_ref()?;
        let peer = &side.peer;
        let other = peer.peer_name().unwrap_or("the other player");
        let link = match &side.conn {
            Conn::Joining => "connecting to the relay".to_string(),
            Conn::Down(_) => "the relay is unreachable: trying again".to_string(),
            Conn::Refused(why) => format!("the relay refused: {why}"),
            Conn::Joined if side.link_word() == "up" => format!("playing {other}"),
            Conn::Joined if side.room.is_some() && peer.peer_name().is_none() => {
                "waiting for the other player to join".to_string()
            }
            Conn::Joined => format!("{other} is away"),
        };
        let turn = match peer.game() {
            None => String::new(),
            Some(g) if g.is_over() => String::new(),
            Some(_) if peer.waiting() => format!(" · waiting for {other} to acknowledge"),
            Some(_) if peer.local_turn() => " · your turn".to_string(),
            Some(_) => format!(" · {other}'s turn"),
        };
        Some(format!("Net ({}): {link}{turn}", side.role))
    }

    /// Whether the page's person may move now (in a network game, on this side's turn with
    /// nothing waiting).
    pub(super) fn net_my_turn(&self) -> Option<bool> {
        self.net.as_ref().map(|s| s.peer.local_turn())
    }

    /// Whether the page's undo is possible in a network game.
    pub(super) fn net_can_undo(&self) -> Option<bool> {
        self.net
            .as_ref()
            .map(|s| !s.peer.waiting() && s.peer.game().is_some_and(|g| !g.moves().is_empty()))
    }
}
