//! [`Peer`]: one side of a network game as a state machine. It takes events (a message, the
//! channel opening or closing, a tick of the clock, the local player's action) with the time
//! they happen, and answers with outputs (messages to send, the channel to rebuild, notices for
//! the player). It owns the side's [`Game`], drawn with this side's own settings.
//!
//! # The history
//!
//! Every action (a move, an undo, a new game) has a number `n` and an id. The host's history is
//! the authority: the host applies its own actions at once, and the guest's when they arrive in
//! order; the guest applies the host's actions in order, and its own at once but
//! provisionally. An actor waits for the other side's `ack` before acting again (its page is
//! greyed). Both sides may act on the same number at once: the host's action wins, the host
//! refuses the guest's, and the guest puts its own back before playing the host's. A move the
//! receiver cannot play or draw is refused and put back by its actor.
//!
//! # Keeping in step
//!
//! An action that skips numbers makes the receiver ask for the missing ones (`resend`); the
//! actor sends an unacknowledged action again every [`Timing::resend`]; every
//! [`Timing::heartbeat`] each side says where it stands (its last action and position key), and
//! two sides idle at the same number with different actions or keys report a divergence, which
//! the host repairs by sending its whole game. A channel silent for [`Timing::silence`] is
//! rebuilt ([`Output::Reconnect`]). A side that comes back (the same program, or a new one
//! without the game) says `hello`, and the host brings it back in step.

use std::collections::VecDeque;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts::draw::{FreshOptions, LadderOptions, SavedStart, Settings, WorldSize};
use sprouts::topo::{Move, MoveNotation, Position};
use sprouts::{
    Convention, Game, GameError, GameRecord, HumanInput, Job, JobDone, JobEvent, Seat, SeatRecord,
};

use super::protocol::{
    Body, GameWhy, ID_BOUND, MAX_NET_SPOTS, PEER_PROTOCOL_VERSION, PeerMsg, Role, WireMove, decode,
};

/// The session's clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// How often each side says where it stands (3 s).
    pub heartbeat: Duration,
    /// How long a channel may stay silent before it is rebuilt (10 s).
    pub silence: Duration,
    /// How long an action waits for its ack before it is sent again (1 s).
    pub resend: Duration,
}

impl Default for Timing {
    /// The spec's figures: heartbeats every 3 s, the channel rebuilt after 10 s of silence; an
    /// unacknowledged action sent again every second.
    fn default() -> Timing {
        Timing {
            heartbeat: Duration::from_secs(3),
            silence: Duration::from_secs(10),
            resend: Duration::from_secs(1),
        }
    }
}

/// How this side shows its games.
#[derive(Clone, Debug)]
pub enum Drawing {
    /// Positions only (programs, tests).
    Positions,
    /// Pictures drawn with this side's own drawing area and settings; the other side's moves
    /// are drawn by the ladder, as the computer's are.
    Pictures {
        /// The drawing area.
        world: WorldSize,
        /// The drawing settings.
        settings: Settings,
    },
}

/// What a side is.
#[derive(Clone, Debug)]
pub struct PeerConfig {
    /// Host or guest.
    pub role: Role,
    /// The name the other side shows.
    pub name: String,
    /// Who plays this side's seat: a person ([`Seat::Human`]) or a computer.
    pub player: Seat,
    /// How games are shown here.
    pub drawing: Drawing,
    /// The clocks.
    pub timing: Timing,
    /// Seeds the action ids (take it from the system's randomness outside tests).
    pub seed: u64,
}

/// What happens to a side.
#[derive(Debug)]
pub enum Event {
    /// The channel to the other side is open (again).
    Connected,
    /// The channel is closed.
    Disconnected,
    /// The transport says whether the other side is there (a relay knows); while it is away,
    /// silence is expected and the channel is not rebuilt.
    PeerPresent(bool),
    /// A message from the other side, as received.
    Text(String),
    /// Time passes.
    Tick,
    /// The local person plays this move (of the current position).
    Move(Move),
    /// The local player takes back the last move (whoever made it).
    Undo,
    /// The host starts a new game.
    NewGame {
        /// Spots to start with (1 to [`MAX_NET_SPOTS`]).
        spots: u32,
        /// The seat that moves first (0: the host).
        first: usize,
        /// Normal or misère play.
        convention: Convention,
    },
    /// The local computer's move: the result of the job [`Peer::computer_job`] gave, with
    /// that job's ticket.
    Computed {
        /// The ticket that came with the job.
        ticket: u64,
        /// The job's result.
        done: Box<JobDone>,
    },
    /// The local person's move drawn by this side's own router (a job of
    /// [`Peer::person_job`]), or the picture drawn afresh ([`Peer::redraw_job`]), with that
    /// job's ticket. A move the router could not draw changes nothing
    /// ([`Notice::NotDrawn`]).
    Drawn {
        /// The ticket that came with the job.
        ticket: u64,
        /// The job's result.
        done: Box<JobDone>,
    },
    /// The local player leaves: a last heartbeat (where this side stands) and a bye.
    Leave,
}

/// What a side does in answer.
#[derive(Clone, Debug)]
pub enum Output {
    /// A message for the other side.
    Send(PeerMsg),
    /// Close the channel and open it again (it has been silent too long).
    Reconnect,
    /// Something for the player to see (the status line, the log).
    Notice(Notice),
}

/// What a side tells its player.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// The other side said hello.
    PeerHello {
        /// Its name.
        name: String,
        /// Whether it has a game.
        has_game: bool,
    },
    /// A game started (or was taken over whole from the other side).
    GameStarted {
        /// Its spots.
        spots: u32,
        /// Why it came.
        repair: bool,
    },
    /// A move was played here: the local player's, or the other side's.
    Played {
        /// Who made it.
        by: Role,
        /// Its number in the game.
        k: usize,
        /// The move in words.
        words: String,
    },
    /// The last move was taken back.
    Undone {
        /// Who took it back.
        by: Role,
    },
    /// The other side acknowledged the local action.
    Acknowledged,
    /// The local action was put back: the other side refused it, or the host acted first.
    Reverted {
        /// Why.
        reason: String,
    },
    /// An action of the other side was refused here.
    RefusedTheirs {
        /// Why.
        reason: String,
    },
    /// The two sides were found in different states (a bug); the host's game repairs it.
    Divergence {
        /// What differed.
        detail: String,
    },
    /// The channel was silent too long and is rebuilt.
    Silent,
    /// The local computer's move could not be drawn: the game goes on without its picture.
    PictureDropped {
        /// Why.
        reason: String,
    },
    /// The other side speaks another protocol version or has the same role.
    Incompatible {
        /// What.
        detail: String,
    },
    /// The other side left.
    PeerLeft {
        /// Its reason.
        reason: String,
    },
    /// The local person's move could not be drawn here: nothing changed.
    NotDrawn {
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::PeerHello { name, .. } => write!(f, "{name} is here"),
            Notice::GameStarted { spots, repair } => {
                if *repair {
                    write!(f, "the game ({spots} spots) taken over from the other side")
                } else {
                    write!(f, "a new game of {spots} spots")
                }
            }
            Notice::Played { by, k, words } => write!(f, "move {k} ({by}): {words}"),
            Notice::Undone { by } => write!(f, "the last move taken back ({by})"),
            Notice::Acknowledged => f.write_str("acknowledged"),
            Notice::Reverted { reason } => write!(f, "taken back: {reason}"),
            Notice::RefusedTheirs { reason } => {
                write!(f, "refused the other side's action: {reason}")
            }
            Notice::Divergence { detail } => write!(
                f,
                "the two sides differ ({detail}): repaired from the host's game"
            ),
            Notice::Silent => f.write_str("nothing heard for too long: reconnecting"),
            Notice::PictureDropped { reason } => {
                write!(f, "going on without the picture: {reason}")
            }
            Notice::Incompatible { detail } => {
                write!(f, "cannot play with the other side: {detail}")
            }
            Notice::PeerLeft { reason } => write!(f, "the other side left ({reason})"),
            Notice::NotDrawn { reason } => write!(f, "not drawn: {reason}"),
        }
    }
}

/// Whether the channel is open, as far as this side knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// Closed (or never opened).
    Down,
    /// Open.
    Up,
}

/// Counts of what kept the two sides in step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Divergences detected.
    pub divergences: u64,
    /// Local actions put back (conflicts lost, refusals).
    pub reverted: u64,
    /// The other side's actions refused.
    pub refused: u64,
    /// Whole games sent to repair the other side.
    pub repairs_sent: u64,
    /// Whole games taken from the other side.
    pub repairs_taken: u64,
    /// `resend` requests sent.
    pub resends_asked: u64,
    /// Unacknowledged actions sent again.
    pub retransmits: u64,
    /// Messages that could not be decoded.
    pub undecodable: u64,
}

/// One action of the history.
#[derive(Clone, Debug)]
struct Entry {
    id: u64,
    author: Role,
    /// The message that carried it (sent again on `resend` when this side is its author).
    msg: PeerMsg,
}

/// The local action waiting for its ack.
#[derive(Clone, Debug)]
struct Pending {
    n: u64,
    id: u64,
    /// The game before it, put back if it is refused or loses a conflict.
    before: Option<Box<Game>>,
    /// The id of the action that started the game before it.
    started_by_before: u64,
    msg: PeerMsg,
    sent_at: Duration,
}

/// The most actions kept one by one; older ones are resent as a whole game.
const LOG_CAP: usize = 1024;

/// The most finished games a side remembers.
pub const MAX_FINISHED: usize = 1000;

/// One side of a network game (see the module docs).
#[derive(Debug)]
pub struct Peer {
    config: PeerConfig,
    rng: Xoshiro256PlusPlus,
    game: Option<Game>,
    /// Actions applied here, the pending one included.
    n: u64,
    /// The number and id of the action before the first one kept in `log`.
    base: u64,
    base_id: u64,
    /// Actions `base + 1 ..= n`.
    log: VecDeque<Entry>,
    pending: Option<Pending>,
    link: Link,
    peer_present: bool,
    heard_at: Duration,
    beat_at: Duration,
    peer_name: Option<String>,
    stats: Stats,
    /// Counts the games put in place whole (new, repaired, put back), so that a computer's
    /// move for an earlier one is not taken.
    generation: u64,
    /// The action number and id at which the other side's heartbeat last showed the same
    /// state, idle.
    in_step_at: Option<(u64, u64)>,
    /// Games that were over when a new game replaced them, in order.
    finished: Vec<GameRecord>,
    /// The id of the action that started the game here (0 when not known: a resumed game).
    started_by: u64,
}

/// The pieces of a local action being recorded.
struct Act {
    before: Option<Box<Game>>,
    body: Body,
    id: u64,
}

impl Peer {
    /// A side with no game yet.
    pub fn new(config: PeerConfig) -> Peer {
        Peer {
            rng: Xoshiro256PlusPlus::seed_from_u64(config.seed),
            config,
            game: None,
            n: 0,
            base: 0,
            base_id: 0,
            log: VecDeque::new(),
            pending: None,
            link: Link::Down,
            peer_present: true,
            heard_at: Duration::ZERO,
            beat_at: Duration::ZERO,
            peer_name: None,
            stats: Stats::default(),
            generation: 0,
            in_step_at: None,
            finished: Vec::new(),
            started_by: 0,
        }
    }

    /// This side's role.
    pub fn role(&self) -> Role {
        self.config.role
    }

    /// The game, once there is one.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Actions applied here (the one waiting for its ack included).
    pub fn actions(&self) -> u64 {
        self.n
    }

    /// Whether a local action waits for its ack (the page is greyed).
    pub fn waiting(&self) -> bool {
        self.pending.is_some()
    }

    /// The channel's state.
    pub fn link(&self) -> Link {
        self.link
    }

    /// The other side's name, once it said hello.
    pub fn peer_name(&self) -> Option<&str> {
        self.peer_name.as_deref()
    }

    /// Whether the other side's last heartbeat showed this side's state, both idle, and
    /// nothing happened here since.
    pub fn in_step(&self) -> bool {
        self.pending.is_none() && self.in_step_at == Some((self.n, self.last_id()))
    }

    /// The games that were over when a new one replaced them (at most [`MAX_FINISHED`], the
    /// latest), as records without picture.
    pub fn finished_games(&self) -> &[GameRecord] {
        &self.finished
    }

    /// What kept the sides in step so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The seat this side plays.
    pub fn seat(&self) -> usize {
        self.config.role.seat()
    }

    /// Whether the local player may act now: a game not over, this side's turn, nothing
    /// waiting for an ack.
    pub fn local_turn(&self) -> bool {
        self.pending.is_none()
            && self
                .game
                .as_ref()
                .is_some_and(|g| !g.is_over() && g.to_move() == self.seat())
    }

    /// The local computer's move to run (blocking, off any async thread), with its ticket,
    /// when this side is a computer and may move; its result goes back as
    /// [`Event::Computed`]. A result for a game replaced since (a new game, a repair, an
    /// action put back) is dropped.
    pub fn computer_job(&self) -> Option<(u64, Job)> {
        if !self.local_turn() || self.config.player.is_human() {
            return None;
        }
        let job = self.game.as_ref()?.computer_job().ok()?;
        Some((self.generation, job))
    }

    /// The job that draws the local person's move with this side's router, with its ticket,
    /// when the person may move; its result goes back as [`Event::Drawn`].
    ///
    /// # Errors
    /// Not this side's turn (or a computer plays it, or an action waits for its ack), or the
    /// game refuses the input (the reason in words).
    pub fn person_job(&self, input: HumanInput) -> Result<(u64, Job), String> {
        if !self.config.player.is_human() {
            return Err("a computer plays this side".into());
        }
        if self.pending.is_some() {
            return Err("waiting for the other side to acknowledge".into());
        }
        if !self.local_turn() {
            return Err("it is the other side's turn".into());
        }
        let game = self.game.as_ref().ok_or("there is no game")?;
        let job = game.human_job(input).map_err(|e| e.to_string())?;
        Ok((self.generation, job))
    }

    /// The job that draws this side's picture afresh (a change of the picture only, which the
    /// other side never sees), with its ticket; its result goes back as [`Event::Drawn`].
    ///
    /// # Errors
    /// No game, no picture, or an action waits for its ack.
    pub fn redraw_job(&self, options: FreshOptions) -> Result<(u64, Job), String> {
        if self.pending.is_some() {
            return Err("waiting for the other side to acknowledge".into());
        }
        let game = self.game.as_ref().ok_or("there is no game")?;
        let job = game.redraw_job(options).map_err(|e| e.to_string())?;
        Ok((self.generation, job))
    }

    /// A side that comes back with a game it kept (a page reloaded, a server restarted):
    /// `game` stands at action `n`, whose id is `last` (both from [`Peer::committed`] when
    /// the game was kept). Its history before `n` is gone: a side that needs older actions
    /// gets the whole game.
    pub fn resume(config: PeerConfig, game: Game, n: u64, last: u64) -> Peer {
        let mut peer = Peer::new(config);
        peer.game = Some(game);
        peer.n = n;
        peer.base = n;
        peer.base_id = last;
        peer.generation = 1;
        peer
    }

    /// The last action settled here (not waiting for its ack): its number and id, which
    /// [`Peer::resume`] takes back with the game.
    pub fn committed(&self) -> (u64, u64) {
        let n = self.n - u64::from(self.pending.is_some());
        (n, self.id_at(n).unwrap_or(0))
    }

    /// Whether the transport last said the other side is there.
    pub fn peer_present(&self) -> bool {
        self.peer_present
    }

    /// The record of the game here, without picture or log (what a repair sends).
    pub fn record(&self) -> Option<GameRecord> {
        self.game.as_ref().map(net_record)
    }

    /// Takes one event at time `now` (any clock, as long as it never goes back) and answers.
    pub fn handle(&mut self, now: Duration, event: Event) -> Vec<Output> {
        let mut out = Vec::new();
        match event {
            Event::Connected => {
                self.link = Link::Up;
                self.heard_at = now;
                self.beat_at = now;
                out.push(Output::Send(self.hello()));
                self.retransmit(now, &mut out);
            }
            Event::Disconnected => self.link = Link::Down,
            Event::PeerPresent(present) => {
                self.peer_present = present;
                self.heard_at = now;
                if present && self.link == Link::Up {
                    out.push(Output::Send(self.hello()));
                    self.retransmit(now, &mut out);
                }
            }
            Event::Text(text) => match decode(&text) {
                Ok(msg) => {
                    self.heard_at = now;
                    self.receive(now, msg, &mut out);
                }
                Err(e) => {
                    self.stats.undecodable += 1;
                    tracing::debug!("undecodable peer message: {e}");
                }
            },
            Event::Tick => self.tick(now, &mut out),
            Event::Move(mv) => self.local_move(now, &mv, &mut out),
            Event::Undo => self.local_undo(now, &mut out),
            Event::NewGame {
                spots,
                first,
                convention,
            } => self.new_game(now, spots, first, convention, &mut out),
            Event::Computed { ticket, done } => {
                if ticket == self.generation {
                    self.computed(now, *done, &mut out);
                }
            }
            Event::Drawn { ticket, done } => {
                if ticket == self.generation {
                    self.drawn(now, *done, &mut out);
                }
            }
            Event::Leave => {
                out.push(Output::Send(self.heartbeat()));
                out.push(Output::Send(self.envelope(Body::Bye {
                    reason: "the player left".into(),
                })));
            }
        }
        out
    }

    // ---- local actions ----

    fn local_move(&mut self, now: Duration, mv: &Move, out: &mut Vec<Output>) {
        if !self.local_turn() {
            return;
        }
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let before = Box::new(game.clone());
        match game.play_move(mv) {
            Ok(played) => {
                let words = played.words.clone();
                let k = game.moves().len();
                self.record_local(now, before, WireMove::of(&played.notation), out);
                out.push(Output::Notice(Notice::Played {
                    by: self.config.role,
                    k,
                    words,
                }));
            }
            Err(e) => out.push(Output::Notice(Notice::Reverted {
                reason: e.to_string(),
            })),
        }
    }

    fn computed(&mut self, now: Duration, done: JobDone, out: &mut Vec<Output>) {
        match self.finish_local_job(now, done, out) {
            Ok(()) => {}
            Err(e @ GameError::NotDrawn { .. }) => {
                if let Some(game) = self.game.as_mut() {
                    game.drop_picture();
                }
                out.push(Output::Notice(Notice::PictureDropped {
                    reason: e.to_string(),
                }));
            }
            Err(e) => tracing::debug!("the computer's move was not played: {e}"),
        }
    }

    fn drawn(&mut self, now: Duration, done: JobDone, out: &mut Vec<Output>) {
        if let Err(e) = self.finish_local_job(now, done, out) {
            out.push(Output::Notice(Notice::NotDrawn {
                reason: e.to_string(),
            }));
        }
    }

    /// Finishes a job of this side's game (the computer's move, or a move's drawing): a move it
    /// made is recorded and announced; a redraw, a relaxation, a stale job, or a job finishing
    /// while a move waits for the peer or with no game, changes nothing. Returns the error of a
    /// job that failed otherwise, for the caller to report.
    fn finish_local_job(
        &mut self,
        now: Duration,
        done: JobDone,
        out: &mut Vec<Output>,
    ) -> Result<(), GameError> {
        if self.pending.is_some() {
            return Ok(());
        }
        let Some(game) = self.game.as_mut() else {
            return Ok(());
        };
        let before = Box::new(game.clone());
        match game.finish(done) {
            Ok(JobEvent::Moved(played)) => {
                let k = game.moves().len();
                self.record_local(now, before, WireMove::of(&played.notation), out);
                out.push(Output::Notice(Notice::Played {
                    by: self.config.role,
                    k,
                    words: played.words,
                }));
                Ok(())
            }
            Ok(JobEvent::Redrawn(_) | JobEvent::Relaxed(_)) | Err(GameError::Stale) => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn record_local(
        &mut self,
        now: Duration,
        before: Box<Game>,
        mv: WireMove,
        out: &mut Vec<Output>,
    ) {
        let id = self.fresh_id();
        let prev = self.last_id();
        self.push_local(
            now,
            Act {
                before: Some(before),
                body: Body::Move { id, prev, mv },
                id,
            },
            out,
        );
    }

    fn local_undo(&mut self, now: Duration, out: &mut Vec<Output>) {
        if self.pending.is_some() {
            return;
        }
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let before = Box::new(game.clone());
        if undo_move(game).is_err() {
            return;
        }
        let id = self.fresh_id();
        let prev = self.last_id();
        self.push_local(
            now,
            Act {
                before: Some(before),
                body: Body::Undo { id, prev },
                id,
            },
            out,
        );
        out.push(Output::Notice(Notice::Undone {
            by: self.config.role,
        }));
    }

    fn new_game(
        &mut self,
        now: Duration,
        spots: u32,
        first: usize,
        convention: Convention,
        out: &mut Vec<Output>,
    ) {
        if self.config.role != Role::Host || !(1..=MAX_NET_SPOTS).contains(&spots) {
            return;
        }
        let seats = self.seats();
        let game = match &self.config.drawing {
            Drawing::Positions => Ok(Game::new(Position::new(spots), seats)),
            Drawing::Pictures { world, settings } => {
                Game::drawn_spots(spots, *world, *settings, seats)
            }
        };
        let game = match game {
            Ok(g) => g.with_first(first).with_convention(convention),
            Err(e) => {
                out.push(Output::Notice(Notice::Reverted {
                    reason: e.to_string(),
                }));
                return;
            }
        };
        self.remember_finished();
        // A new game supersedes an action still waiting: the game before it is what a
        // refusal puts back.
        let before = match self.pending.take() {
            Some(p) => {
                self.n -= 1;
                self.log.pop_back();
                p.before
            }
            None => self.game.take().map(Box::new),
        };
        let record = Box::new(net_record(&game));
        self.game = Some(game);
        self.generation += 1;
        let id = self.fresh_id();
        self.push_local(
            now,
            Act {
                before,
                body: Body::Game {
                    id,
                    why: GameWhy::New,
                    started_by: id,
                    record,
                },
                id,
            },
            out,
        );
        self.started_by = id;
        out.push(Output::Notice(Notice::GameStarted {
            spots,
            repair: false,
        }));
    }

    /// Numbers a local action already applied to the game, sends it and waits for its ack.
    fn push_local(&mut self, now: Duration, act: Act, out: &mut Vec<Output>) {
        self.n += 1;
        let msg = self.envelope(act.body);
        self.push_entry(Entry {
            id: act.id,
            author: self.config.role,
            msg: msg.clone(),
        });
        self.pending = Some(Pending {
            n: self.n,
            id: act.id,
            before: act.before,
            started_by_before: self.started_by,
            msg: msg.clone(),
            sent_at: now,
        });
        out.push(Output::Send(msg));
    }

    // ---- messages ----

    fn receive(&mut self, now: Duration, msg: PeerMsg, out: &mut Vec<Output>) {
        match msg.body.clone() {
            Body::Hello {
                version,
                role,
                name,
                has_game,
                last,
                ..
            } => self.on_hello(now, msg.n, version, role, name, has_game, last, out),
            Body::Move { id, prev, .. } | Body::Undo { id, prev } => match self.config.role {
                Role::Host => self.host_takes(msg, id, prev, out),
                Role::Guest => self.guest_takes(msg, id, prev, out),
            },
            Body::Game {
                id,
                why,
                started_by,
                record,
            } => self.on_game(msg.n, id, why, started_by, &record, out),
            Body::Ack { id } => {
                if self
                    .pending
                    .as_ref()
                    .is_some_and(|p| p.id == id && p.n == msg.n)
                {
                    self.pending = None;
                    out.push(Output::Notice(Notice::Acknowledged));
                }
            }
            Body::Refuse { id, reason } => {
                if self
                    .pending
                    .as_ref()
                    .is_some_and(|p| p.id == id && p.n == msg.n)
                {
                    self.revert(reason, out);
                }
            }
            Body::Resend { from } => self.on_resend(from, out),
            Body::Heartbeat { last, pending, key } => {
                self.on_heartbeat(msg.n, last, pending, &key, out)
            }
            Body::Bye { reason } => out.push(Output::Notice(Notice::PeerLeft { reason })),
        }
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "the fields of one hello, unpacked"
    )]
    fn on_hello(
        &mut self,
        now: Duration,
        their_n: u64,
        version: u32,
        role: Role,
        name: String,
        has_game: bool,
        last: u64,
        out: &mut Vec<Output>,
    ) {
        if version != PEER_PROTOCOL_VERSION || role == self.config.role {
            let detail = if version != PEER_PROTOCOL_VERSION {
                format!("it speaks protocol {version}, this program {PEER_PROTOCOL_VERSION}")
            } else {
                format!("both sides are the {role}")
            };
            out.push(Output::Notice(Notice::Incompatible { detail }));
            return;
        }
        self.peer_name = Some(name.clone());
        out.push(Output::Notice(Notice::PeerHello { name, has_game }));
        match (self.config.role, &self.game) {
            (Role::Host, None) if has_game => self.ask_resend(0, out),
            (Role::Host, Some(_)) => self.bring_in_step(their_n, last, out),
            _ => {}
        }
        self.retransmit(now, out);
    }

    /// The host brings a guest at action `their_n` (id `their_last`) in step: the actions it
    /// misses when its history is the host's, else the whole game.
    fn bring_in_step(&mut self, their_n: u64, their_last: u64, out: &mut Vec<Output>) {
        if their_n == self.n && their_last == self.last_id() {
            return;
        }
        // A guest one action ahead waits for its own action to arrive here.
        if their_n == self.n + 1 {
            return;
        }
        if their_n < self.n && self.id_at(their_n) == Some(their_last) {
            self.send_from(their_n + 1, out);
        } else {
            self.send_repair(out);
        }
    }

    /// The host takes the guest's action.
    fn host_takes(&mut self, msg: PeerMsg, id: u64, prev: u64, out: &mut Vec<Output>) {
        let n = msg.n;
        if n <= self.n {
            if self.id_at(n) == Some(id) {
                out.push(Output::Send(self.answer(n, Body::Ack { id })));
            } else {
                out.push(Output::Send(self.answer(
                    n,
                    Body::Refuse {
                        id,
                        reason: "the host acted first".into(),
                    },
                )));
            }
            return;
        }
        if n > self.n + 1 || prev != self.last_id() {
            out.push(Output::Send(self.answer(
                n,
                Body::Refuse {
                    id,
                    reason: "out of step with the host".into(),
                },
            )));
            return;
        }
        // The guest acted after the host's own last action: it has played it.
        if self.pending.as_ref().is_some_and(|p| p.n == self.n) {
            self.pending = None;
            out.push(Output::Notice(Notice::Acknowledged));
        }
        self.take_remote(msg, id, out);
    }

    /// The guest takes the host's action.
    fn guest_takes(&mut self, msg: PeerMsg, id: u64, prev: u64, out: &mut Vec<Output>) {
        let n = msg.n;
        if let Some(p) = &self.pending {
            let (pn, pid) = (p.n, p.id);
            if n == pn {
                self.revert("the host acted first".into(), out);
            } else if n == pn + 1 {
                if prev == pid {
                    self.pending = None;
                    out.push(Output::Notice(Notice::Acknowledged));
                } else {
                    self.revert("the host acted first".into(), out);
                    self.ask_resend(self.n + 1, out);
                    return;
                }
            } else if n > pn + 1 {
                self.ask_resend(pn, out);
                return;
            }
        }
        if n <= self.n {
            if self.id_at(n) == Some(id) {
                out.push(Output::Send(self.answer(n, Body::Ack { id })));
            }
            return;
        }
        if n > self.n + 1 {
            self.ask_resend(self.n + 1, out);
            return;
        }
        if prev != self.last_id() {
            self.diverged(
                format!("action {n} follows another action than this side's"),
                out,
            );
            return;
        }
        self.take_remote(msg, id, out);
    }

    /// Plays the other side's action `n = self.n + 1` (checked to follow this side's last
    /// one), and acknowledges or refuses it.
    fn take_remote(&mut self, msg: PeerMsg, id: u64, out: &mut Vec<Output>) {
        let n = msg.n;
        let by = self.config.role.other();
        let result = match (&msg.body, self.game.as_mut()) {
            (_, None) => Err("there is no game here".to_owned()),
            (Body::Move { mv, .. }, Some(game)) => {
                if game.is_over() || game.to_move() != by.seat() {
                    Err("not the other side's turn".to_owned())
                } else {
                    play_wire(game, mv).map(|(k, words)| Notice::Played { by, k, words })
                }
            }
            (Body::Undo { .. }, Some(game)) => undo_move(game).map(|()| Notice::Undone { by }),
            _ => Err("not an action".to_owned()),
        };
        match result {
            Ok(notice) => {
                self.n = n;
                self.push_entry(Entry {
                    id,
                    author: by,
                    msg,
                });
                out.push(Output::Send(self.envelope(Body::Ack { id })));
                out.push(Output::Notice(notice));
            }
            Err(reason) => {
                self.stats.refused += 1;
                out.push(Output::Send(self.answer(
                    n,
                    Body::Refuse {
                        id,
                        reason: reason.clone(),
                    },
                )));
                out.push(Output::Notice(Notice::RefusedTheirs { reason }));
            }
        }
    }

    fn on_game(
        &mut self,
        n: u64,
        id: u64,
        why: GameWhy,
        started_by: u64,
        record: &GameRecord,
        out: &mut Vec<Output>,
    ) {
        let committed = self.n - u64::from(self.pending.is_some());
        let take = match self.config.role {
            // The host takes a game only when it has none (it came back without it).
            Role::Host => self.game.is_none(),
            Role::Guest => {
                self.game.is_none()
                    || n > committed
                    || (n == committed
                        && (id != self.id_at(committed).unwrap_or(0)
                            || (self.pending.is_none()
                                && !self.record().is_some_and(|r| same_game(&r, record)))))
            }
        };
        if !take {
            if self.id_at(n) == Some(id) {
                out.push(Output::Send(self.answer(n, Body::Ack { id })));
            }
            return;
        }
        match self.game_from_record(record, out) {
            Ok(game) => {
                if self.pending.take().is_some() {
                    self.stats.reverted += 1;
                    out.push(Output::Notice(Notice::Reverted {
                        reason: "the other side's game replaces it".into(),
                    }));
                }
                let spots = match record.start {
                    SavedStart::Spots(s) => s,
                    SavedStart::Position { .. } => 0,
                };
                // A whole game started by another action is the next game, whether it comes
                // as a new game or as a repair that stands in for the actions missed.
                if why == GameWhy::New || started_by != self.started_by {
                    self.remember_finished();
                }
                self.game = Some(game);
                self.started_by = started_by;
                self.generation += 1;
                self.n = n;
                self.base = n;
                self.base_id = id;
                self.log.clear();
                let repair = why == GameWhy::Repair;
                if repair {
                    self.stats.repairs_taken += 1;
                }
                out.push(Output::Send(self.envelope(Body::Ack { id })));
                out.push(Output::Notice(Notice::GameStarted { spots, repair }));
            }
            Err(reason) => {
                self.stats.refused += 1;
                out.push(Output::Send(self.answer(
                    n,
                    Body::Refuse {
                        id,
                        reason: reason.clone(),
                    },
                )));
                out.push(Output::Notice(Notice::RefusedTheirs { reason }));
            }
        }
    }

    fn on_resend(&mut self, from: u64, out: &mut Vec<Output>) {
        if self.game.is_none() {
            return;
        }
        if from == 0 || from <= self.base {
            self.send_repair(out);
        } else {
            self.send_from(from, out);
        }
    }

    fn on_heartbeat(
        &mut self,
        their_n: u64,
        their_last: u64,
        their_pending: bool,
        their_key: &str,
        out: &mut Vec<Output>,
    ) {
        let Some(game) = &self.game else {
            if !their_key.is_empty() {
                self.ask_resend(0, out);
            }
            return;
        };
        let committed = self.n - u64::from(self.pending.is_some());
        match self.config.role {
            Role::Guest if their_n > committed && self.pending.is_none() => {
                self.ask_resend(committed + 1, out);
                return;
            }
            Role::Host if their_n < self.n && !their_pending => {
                self.bring_in_step(their_n, their_last, out);
                return;
            }
            _ => {}
        }
        if their_n == self.n && !their_pending && self.pending.is_none() {
            let key = game.position().game_key().to_string();
            if their_last == self.last_id() && their_key == key {
                self.in_step_at = Some((self.n, their_last));
            } else {
                let detail = if their_last != self.last_id() {
                    format!("action {their_n} is not the same action on both sides")
                } else {
                    format!("after action {their_n} the positions differ")
                };
                self.diverged(detail, out);
            }
        }
    }

    fn diverged(&mut self, detail: String, out: &mut Vec<Output>) {
        self.stats.divergences += 1;
        tracing::warn!("divergence: {detail}");
        out.push(Output::Notice(Notice::Divergence { detail }));
        match self.config.role {
            Role::Host => self.send_repair(out),
            Role::Guest => self.ask_resend(0, out),
        }
    }

    // ---- the clock ----

    fn tick(&mut self, now: Duration, out: &mut Vec<Output>) {
        if self.link != Link::Up {
            return;
        }
        let timing = self.config.timing;
        if self.peer_present && now.saturating_sub(self.heard_at) >= timing.silence {
            self.link = Link::Down;
            out.push(Output::Notice(Notice::Silent));
            out.push(Output::Reconnect);
            return;
        }
        if now.saturating_sub(self.beat_at) >= timing.heartbeat {
            self.beat_at = now;
            out.push(Output::Send(self.heartbeat()));
        }
        if self
            .pending
            .as_ref()
            .is_some_and(|p| now.saturating_sub(p.sent_at) >= timing.resend)
        {
            self.retransmit(now, out);
        }
    }

    fn retransmit(&mut self, now: Duration, out: &mut Vec<Output>) {
        if let Some(p) = &mut self.pending {
            p.sent_at = now;
            self.stats.retransmits += 1;
            out.push(Output::Send(p.msg.clone()));
        }
    }

    // ---- helpers ----

    fn remember_finished(&mut self) {
        if let Some(g) = self.game.as_ref().filter(|g| g.is_over()) {
            if self.finished.len() >= MAX_FINISHED {
                self.finished.remove(0);
            }
            self.finished.push(net_record(g));
        }
    }

    fn seats(&self) -> [Seat; 2] {
        let mut seats = [Seat::Human, Seat::Human];
        seats[self.seat()] = self.config.player.clone();
        seats
    }

    fn fresh_id(&mut self) -> u64 {
        loop {
            let id = self.rng.random::<u64>() % ID_BOUND;
            if id != 0 {
                return id;
            }
        }
    }

    fn last_id(&self) -> u64 {
        self.log.back().map_or(self.base_id, |e| e.id)
    }

    /// The id of action `n`, while it is kept.
    fn id_at(&self, n: u64) -> Option<u64> {
        if n == self.base {
            return Some(self.base_id);
        }
        if n < self.base || n > self.n {
            return None;
        }
        let i = usize::try_from(n - self.base - 1).ok()?;
        self.log.get(i).map(|e| e.id)
    }

    fn push_entry(&mut self, entry: Entry) {
        self.log.push_back(entry);
        if self.log.len() > LOG_CAP
            && let Some(old) = self.log.pop_front()
        {
            self.base += 1;
            self.base_id = old.id;
        }
    }

    fn k(&self) -> u32 {
        self.game
            .as_ref()
            .map_or(0, |g| u32::try_from(g.moves().len()).unwrap_or(u32::MAX))
    }

    fn envelope(&self, body: Body) -> PeerMsg {
        self.answer(self.n, body)
    }

    fn answer(&self, n: u64, body: Body) -> PeerMsg {
        PeerMsg {
            k: self.k(),
            n,
            body,
        }
    }

    fn key(&self) -> String {
        self.game
            .as_ref()
            .map(|g| g.position().game_key().to_string())
            .unwrap_or_default()
    }

    fn hello(&self) -> PeerMsg {
        let committed = self.n - u64::from(self.pending.is_some());
        PeerMsg {
            k: self.k(),
            n: committed,
            body: Body::Hello {
                version: PEER_PROTOCOL_VERSION,
                role: self.config.role,
                name: self.config.name.clone(),
                has_game: self.game.is_some(),
                last: self.id_at(committed).unwrap_or(0),
                key: self.key(),
            },
        }
    }

    fn heartbeat(&self) -> PeerMsg {
        self.envelope(Body::Heartbeat {
            last: self.last_id(),
            pending: self.pending.is_some(),
            key: self.key(),
        })
    }

    fn ask_resend(&mut self, from: u64, out: &mut Vec<Output>) {
        self.stats.resends_asked += 1;
        out.push(Output::Send(self.envelope(Body::Resend { from })));
    }

    /// Sends actions `from ..= n` again: this side's own as they were, the other side's as
    /// acks. An action of the other side after `from` means the other side lost its history
    /// (a new program): it gets the whole game instead.
    fn send_from(&mut self, from: u64, out: &mut Vec<Output>) {
        let entries: Vec<(u64, Entry)> = (from..=self.n)
            .filter_map(|n| {
                let i = usize::try_from(n.checked_sub(self.base + 1)?).ok()?;
                self.log.get(i).map(|e| (n, e.clone()))
            })
            .collect();
        let me = self.config.role;
        if entries.iter().any(|(n, e)| *n > from && e.author != me) {
            self.send_repair(out);
            return;
        }
        for (n, e) in entries {
            if e.author == me {
                out.push(Output::Send(e.msg));
            } else {
                out.push(Output::Send(self.answer(n, Body::Ack { id: e.id })));
            }
        }
    }

    /// Sends the whole game, standing at the last action.
    fn send_repair(&mut self, out: &mut Vec<Output>) {
        let Some(record) = self.record() else { return };
        self.stats.repairs_sent += 1;
        // The other side takes it whole: nothing of this side waits any longer.
        self.pending = None;
        out.push(Output::Send(self.envelope(Body::Game {
            id: self.last_id(),
            why: GameWhy::Repair,
            started_by: self.started_by,
            record: Box::new(record),
        })));
    }

    /// Puts back the pending action.
    fn revert(&mut self, reason: String, out: &mut Vec<Output>) {
        let Some(p) = self.pending.take() else { return };
        self.stats.reverted += 1;
        self.n = p.n - 1;
        self.log.pop_back();
        if let Some(before) = p.before {
            self.game = Some(*before);
            self.started_by = p.started_by_before;
            self.generation += 1;
        }
        out.push(Output::Notice(Notice::Reverted { reason }));
    }

    /// This side's game for a record from the other side: its own picture, drawn move by move
    /// by the ladder (or positions only).
    fn game_from_record(&self, record: &GameRecord, out: &mut Vec<Output>) -> Result<Game, String> {
        let SavedStart::Spots(spots) = record.start else {
            return Err("a network game starts from spots".into());
        };
        if !(1..=MAX_NET_SPOTS).contains(&spots) {
            return Err(format!("{spots} spots"));
        }
        if record.first > 1 {
            return Err(format!("no seat {}", record.first));
        }
        let seats = self.seats();
        let mut game = match &self.config.drawing {
            Drawing::Positions => Game::new(Position::new(spots), seats),
            Drawing::Pictures { world, settings } => {
                Game::drawn_spots(spots, *world, *settings, seats).map_err(|e| e.to_string())?
            }
        }
        .with_first(usize::from(record.first))
        .with_convention(record.convention());
        for (i, m) in record.moves.iter().enumerate() {
            let notation: MoveNotation = m
                .notation
                .parse()
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            let wire = WireMove::of(&notation);
            if let Err(e) = play_wire(&mut game, &wire) {
                if game.board().is_none() {
                    return Err(format!("move {}: {e}", i + 1));
                }
                out.push(Output::Notice(Notice::PictureDropped { reason: e }));
                game.drop_picture();
                play_wire(&mut game, &wire).map_err(|e| format!("move {}: {e}", i + 1))?;
            }
        }
        Ok(game)
    }
}

/// Whether two records are the same game: the same start, first player and convention, and
/// moves making the same positions spot for spot. (Two sides may name one move differently:
/// the spots enclosed on one side or on the other.)
pub fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
    let keys = |r: &GameRecord| -> Vec<String> {
        r.moves
            .iter()
            .map(|m| m.notation.rsplit('@').next().unwrap_or_default().to_owned())
            .collect()
    };
    a.start == b.start
        && a.first == b.first
        && a.convention() == b.convention()
        && keys(a) == keys(b)
}

/// A game's record as it travels: no picture, no log, both seats people (who plays a seat is
/// each side's own business).
fn net_record(game: &Game) -> GameRecord {
    let mut record = game.record();
    record.picture = None;
    record.log.clear();
    record.seats = [SeatRecord::Human, SeatRecord::Human];
    record
}

/// Plays a move from the wire: the move of the position that joins its spots and makes its
/// key, drawn (when the game has a picture) as exactly that position; returns the move count
/// and the move in words.
fn play_wire(game: &mut Game, wire: &WireMove) -> Result<(usize, String), String> {
    let notation = wire.notation().map_err(|e| e.to_string())?;
    let mv = notation
        .to_move(game.position())
        .map_err(|e| e.to_string())?;
    let drawn = game.board().is_some();
    let ladder = game.ladder().clone();
    if drawn {
        // The other side's position is this move's, spot for spot: another move giving the
        // same game would not do.
        game.set_ladder(LadderOptions {
            equivalents: false,
            ..ladder.clone()
        });
    }
    let played = game.play_move(&mv);
    if drawn {
        game.set_ladder(ladder);
    }
    let played = played.map_err(|e| e.to_string())?;
    if game.position().game_key() != notation.result {
        let _ = undo_move(game);
        return Err("the move was drawn as another position".into());
    }
    Ok((game.moves().len(), played.words))
}

/// Takes back the last move (and any rearrangement of the picture made after it).
fn undo_move(game: &mut Game) -> Result<(), String> {
    let k = game.moves().len();
    if k == 0 {
        return Err("there is no move to take back".into());
    }
    while game.moves().len() == k {
        game.undo().map_err(|e| e.to_string())?;
    }
    Ok(())
}
