//! A program playing one side of a game through a relay: [`play`] connects (again and again
//! when the connection drops or stays silent), drives a [`Peer`] with the relay's messages and
//! the clock, runs a computer seat's moves on blocking threads, and follows a [`Script`] (how
//! many games, how many spots, how often to undo). `sprouts play` and the tests use it.
//!
//! [`Faults`] make the client's own network bad on purpose (for tests): frames dropped,
//! duplicated, delayed (and so reordered) on the way out and in, the connection cut.

use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts::topo::Position;
use sprouts::{Convention, GameRecord, JobDone, Limits};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::peer::protocol::{Body, encode};
use crate::peer::{Event, Notice, Output, Peer, PeerConfig, Role, Stats, same_game};
use crate::relay::{ErrorCode, RelayIn, RelayOut, RoomCode, Token};

/// Which room.
#[derive(Clone, Debug)]
pub enum Target {
    /// A new room; this side is its host.
    Create,
    /// A room by its code, in the seat of the side's role.
    Join(RoomCode),
}

/// What the side does besides answering.
#[derive(Clone, Debug)]
pub struct Script {
    /// Games to play (the host starts each one; both sides stop after the last). A guest
    /// with 0 plays until the host leaves.
    pub games: usize,
    /// Spots of each game (the host's choice).
    pub spots: u32,
    /// Normal or misère play (the host's choice).
    pub convention: Convention,
    /// The chance, each time this side could act, that it takes back the last move instead.
    pub undo_chance: f64,
    /// Undos at most per game, by this side.
    pub max_undos_per_game: u32,
}

impl Default for Script {
    /// One game of 5 spots, normal play, no undo.
    fn default() -> Script {
        Script {
            games: 1,
            spots: 5,
            convention: Convention::Normal,
            undo_chance: 0.0,
            max_undos_per_game: 0,
        }
    }
}

/// A bad network on purpose (for tests). Chances are per frame, or per second for cuts.
#[derive(Clone, Debug, Default)]
pub struct Faults {
    /// A frame is lost.
    pub drop: f64,
    /// A frame goes twice.
    pub duplicate: f64,
    /// A frame is held back, up to `max_delay` (later frames pass it).
    pub delay: f64,
    /// The longest hold.
    pub max_delay: Duration,
    /// Cuts of the connection a second.
    pub cuts_per_second: f64,
    /// The chance that a cut is a restart of the program in the middle of a game: the side
    /// forgets its game, its token and what it received, and joins the room again by its code.
    pub restart: f64,
    /// Seeds the faults.
    pub seed: u64,
}

/// A client.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The relay's endpoint, `ws://host:port/relay`.
    pub url: String,
    /// The room.
    pub target: Target,
    /// The side (its role must be the host's for [`Target::Create`]).
    pub peer: PeerConfig,
    /// What it does.
    pub script: Script,
    /// Faults to inject, if any.
    pub faults: Option<Faults>,
    /// How often the clock ticks.
    pub tick: Duration,
    /// The client gives up after this long.
    pub deadline: Duration,
}

/// How a client's play ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The room.
    pub room: RoomCode,
    /// The games played, in order (the last one as it stands).
    pub games: Vec<GameRecord>,
    /// What kept the sides in step.
    pub stats: Stats,
    /// Each local action's time from being sent to being acknowledged.
    pub round_trips: Vec<Duration>,
    /// Connections made.
    pub connections: u64,
    /// Restarts of the program injected by [`Faults::restart`].
    pub restarts: u64,
}

/// Why a client stopped early.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The relay refused the room or the seat.
    #[error("the relay refused: {0}")]
    Refused(String),
    /// The deadline passed.
    #[error("gave up after {0:?}: {1}")]
    Deadline(Duration, String),
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A frame held back by a fault.
#[derive(PartialEq, Eq)]
struct Held {
    at: Instant,
    order: u64,
    outgoing: bool,
    text: String,
}

impl Ord for Held {
    fn cmp(&self, other: &Held) -> std::cmp::Ordering {
        (other.at, other.order).cmp(&(self.at, self.order))
    }
}

impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Held) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The state of a client between connections.
struct Client {
    config: ClientConfig,
    peer: Peer,
    started: Instant,
    room: Option<(RoomCode, Token)>,
    last_seq: u64,
    rng: Xoshiro256PlusPlus,
    held: BinaryHeap<Held>,
    order: u64,
    job_running: bool,
    sent_at: Option<Instant>,
    round_trips: Vec<Duration>,
    connections: u64,
    peer_has_game: Option<bool>,
    undos: u32,
    games_seen: u64,
    leaving: Option<Instant>,
    peer_left: bool,
    /// Games finished before a restart.
    archive: Vec<GameRecord>,
    restarts: u64,
    /// A person's side: told the position when it is to move.
    on_turn: Option<OnTurn>,
    /// The action count and move count of the last position shown to the person.
    turn_shown: Option<(u64, usize)>,
}

/// What the inner loop saw.
enum Next {
    Reconnect,
    Done,
}

/// A person playing this side (its seat [`sprouts::Seat::Human`]): told the position each
/// time it is to move, it answers with [`Event::Move`] (a move of that position) or
/// [`Event::Undo`] on `actions`.
pub struct Person {
    /// The person's actions, in order (other events are ignored).
    pub actions: mpsc::UnboundedReceiver<Event>,
    /// Hears the position each time the person is to move.
    pub on_turn: OnTurn,
}

/// What hears the position each time a person is to move.
pub type OnTurn = Box<dyn FnMut(&Position) + Send>;

impl std::fmt::Debug for Person {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Person")
    }
}

/// Plays through the relay until the script's games are over on both sides (or the
/// deadline). `on_room` hears the room's code once the relay gave it; `on_notice` every
/// notice of the side.
///
/// # Errors
/// [`ClientError`].
pub async fn play(
    config: ClientConfig,
    on_room: impl FnMut(RoomCode) + Send,
    on_notice: impl FnMut(&Notice) + Send,
) -> Result<Outcome, ClientError> {
    play_as(config, None, on_room, on_notice).await
}

/// [`play`], with a person at this side when `person` is given (the side's seat must then be
/// [`sprouts::Seat::Human`]).
///
/// # Errors
/// [`ClientError`].
pub async fn play_as(
    config: ClientConfig,
    person: Option<Person>,
    mut on_room: impl FnMut(RoomCode) + Send,
    mut on_notice: impl FnMut(&Notice) + Send,
) -> Result<Outcome, ClientError> {
    let (mut person_rx, on_turn) = match person {
        Some(p) => (Some(p.actions), Some(p.on_turn)),
        None => (None, None),
    };
    let seed = config.faults.as_ref().map_or(config.peer.seed, |f| f.seed);
    let mut client = Client {
        peer: Peer::new(config.peer.clone()),
        config,
        started: Instant::now(),
        room: None,
        last_seq: 0,
        rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        held: BinaryHeap::new(),
        order: 0,
        job_running: false,
        sent_at: None,
        round_trips: Vec::new(),
        connections: 0,
        peer_has_game: None,
        undos: 0,
        games_seen: 0,
        leaving: None,
        peer_left: false,
        archive: Vec::new(),
        restarts: 0,
        on_turn,
        turn_shown: None,
    };
    let (job_tx, mut job_rx) = mpsc::unbounded_channel::<(u64, u64, JobDone)>();
    let mut backoff = Duration::from_millis(20);
    loop {
        if client.started.elapsed() > client.config.deadline {
            return Err(ClientError::Deadline(
                client.config.deadline,
                client.describe(),
            ));
        }
        // Nagle's algorithm off: one small frame a move, sent at once.
        let connecting =
            tokio_tungstenite::connect_async_with_config(client.config.url.as_str(), None, true);
        let ws = match connecting.await {
            Ok((ws, _)) => ws,
            Err(e) => {
                tracing::debug!("cannot reach the relay: {e}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(2));
                continue;
            }
        };
        backoff = Duration::from_millis(20);
        client.connections += 1;
        match client
            .connected(
                ws,
                &job_tx,
                &mut job_rx,
                &mut person_rx,
                &mut on_room,
                &mut on_notice,
            )
            .await?
        {
            Next::Reconnect => {
                let outs = client.peer.handle(client.now(), Event::Disconnected);
                drop(outs);
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            Next::Done => {
                let games = client.games();
                let room = client.room.map(|(c, _)| c).unwrap_or(RoomCode([0; 16]));
                return Ok(Outcome {
                    room,
                    games,
                    stats: client.peer.stats(),
                    round_trips: client.round_trips,
                    connections: client.connections,
                    restarts: client.restarts,
                });
            }
        }
    }
}

impl Client {
    fn now(&self) -> Duration {
        self.started.elapsed()
    }

    /// The games this side played, in order, the current one last. After a restart the side
    /// may take back the game it had just finished from the other side, which had not yet seen
    /// the next one start: that game is counted once. Two different games in a row are never
    /// [`same_game`], since the first player changes from one game to the next.
    fn games(&self) -> Vec<GameRecord> {
        let mut games = self.archive.clone();
        for g in self
            .peer
            .finished_games()
            .iter()
            .cloned()
            .chain(self.peer.record())
        {
            if !games.last().is_some_and(|last| same_game(last, &g)) {
                games.push(g);
            }
        }
        games
    }

    fn describe(&self) -> String {
        format!(
            "{}: {} actions, waiting {}, in step {}, {} games (the last one over: {:?})",
            self.peer.role(),
            self.peer.actions(),
            self.peer.waiting(),
            self.peer.in_step(),
            self.games().len(),
            self.peer.game().map(sprouts::Game::is_over)
        )
    }

    /// One connection's life: join, then messages, ticks and jobs until it drops or the
    /// script is done.
    async fn connected(
        &mut self,
        mut ws: Ws,
        job_tx: &mpsc::UnboundedSender<(u64, u64, JobDone)>,
        job_rx: &mut mpsc::UnboundedReceiver<(u64, u64, JobDone)>,
        person_rx: &mut Option<mpsc::UnboundedReceiver<Event>>,
        on_room: &mut (impl FnMut(RoomCode) + Send),
        on_notice: &mut (impl FnMut(&Notice) + Send),
    ) -> Result<Next, ClientError> {
        let join = match (&self.room, &self.config.target) {
            (Some((code, token)), _) => RelayIn::Join {
                room: code.to_string(),
                seat: Some(self.peer.role()),
                token: Some(token.to_string()),
                after: self.last_seq,
            },
            (None, Target::Create) => RelayIn::Create,
            (None, Target::Join(code)) => RelayIn::Join {
                room: code.to_string(),
                seat: Some(self.peer.role()),
                token: None,
                after: 0,
            },
        };
        let text = serde_json::to_string(&join).expect("relay messages serialise");
        if ws.send(Message::Text(text.into())).await.is_err() {
            return Ok(Next::Reconnect);
        }
        let mut ticker = tokio::time::interval(self.config.tick);
        let mut joined = false;
        loop {
            let mut events = Vec::new();
            tokio::select! {
                frame = ws.next() => match frame {
                    Some(Ok(Message::Text(text))) => {
                        match serde_json::from_str::<RelayOut>(text.as_str()) {
                            Ok(RelayOut::Joined { room, seat, token, peer }) => {
                                if seat != self.peer.role() {
                                    return Err(ClientError::Refused(format!("given the {seat}'s seat")));
                                }
                                let (Ok(code), Ok(token)) = (room.parse::<RoomCode>(), token.parse::<Token>()) else {
                                    return Err(ClientError::Refused("a bad room code".into()));
                                };
                                if self.room.is_none() {
                                    on_room(code);
                                }
                                self.room = Some((code, token));
                                joined = true;
                                events.push(Event::Connected);
                                events.push(Event::PeerPresent(peer));
                            }
                            Ok(RelayOut::Msg { seq, data }) => {
                                if seq > 0 {
                                    if seq <= self.last_seq {
                                        continue;
                                    }
                                    self.last_seq = seq;
                                    let ack = RelayIn::Ack { seq };
                                    let text = serde_json::to_string(&ack).expect("serialises");
                                    if ws.send(Message::Text(text.into())).await.is_err() {
                                        return Ok(Next::Reconnect);
                                    }
                                }
                                if let Some(text) = self.fault(false, data) {
                                    events.push(Event::Text(text));
                                }
                            }
                            Ok(RelayOut::Peer { present }) => events.push(Event::PeerPresent(present)),
                            Ok(RelayOut::Error { code, message }) => match code {
                                // A program that held the seat and comes back may find its old
                                // connection not yet gone: it tries again.
                                ErrorCode::RoomFull if self.restarts > 0 => {
                                    tokio::time::sleep(Duration::from_millis(50)).await;
                                    return Ok(Next::Reconnect);
                                }
                                ErrorCode::NoRoom | ErrorCode::RoomFull | ErrorCode::BadToken | ErrorCode::Replaced => {
                                    return Err(ClientError::Refused(message));
                                }
                                _ => tracing::debug!("relay: {message}"),
                            },
                            Err(e) => tracing::debug!("not a relay message: {e}"),
                        }
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(_)) | None => return Ok(Next::Reconnect),
                },
                _ = ticker.tick() => {
                    if !joined {
                        continue;
                    }
                    if self.cut() {
                        let _ = ws.close(None).await;
                        self.maybe_restart();
                        return Ok(Next::Reconnect);
                    }
                    let now = Instant::now();
                    while self.held.peek().is_some_and(|h| h.at <= now) {
                        let h = self.held.pop().expect("peeked");
                        if h.outgoing {
                            if send_frame(&mut ws, &h.text, true).await.is_err() {
                                return Ok(Next::Reconnect);
                            }
                        } else {
                            events.push(Event::Text(h.text));
                        }
                    }
                    events.push(Event::Tick);
                },
                Some(action) = person_action(person_rx) => {
                    if matches!(action, Event::Move(_) | Event::Undo) {
                        // Shown again after an action that changed nothing.
                        self.turn_shown = None;
                        events.push(action);
                    }
                }
                Some((epoch, ticket, done)) = job_rx.recv() => {
                    if epoch == self.restarts {
                        self.job_running = false;
                        events.push(Event::Computed { ticket, done: Box::new(done) });
                    }
                }
            }
            if !joined {
                continue;
            }
            for e in events {
                let outs = self.peer.handle(self.now(), e);
                if self.carry_out(&mut ws, outs, on_notice).await? {
                    return Ok(Next::Reconnect);
                }
            }
            match self.script(job_tx) {
                Some(e) => {
                    let outs = self.peer.handle(self.now(), e);
                    if self.carry_out(&mut ws, outs, on_notice).await? {
                        return Ok(Next::Reconnect);
                    }
                }
                None => {
                    if self.finished() {
                        let _ = ws.close(None).await;
                        return Ok(Next::Done);
                    }
                }
            }
        }
    }

    /// Sends the outputs; true when the channel must be rebuilt.
    async fn carry_out(
        &mut self,
        ws: &mut Ws,
        outs: Vec<Output>,
        on_notice: &mut (impl FnMut(&Notice) + Send),
    ) -> Result<bool, ClientError> {
        for out in outs {
            match out {
                Output::Send(msg) => {
                    let action = matches!(
                        msg.body,
                        Body::Move { .. } | Body::Undo { .. } | Body::Game { .. }
                    );
                    if action && self.peer.waiting() && self.sent_at.is_none() {
                        self.sent_at = Some(Instant::now());
                    }
                    let keep = msg.is_durable() || self.leaving.is_some();
                    if let Some(text) = self.fault(true, encode(&msg))
                        && send_frame(ws, &text, keep).await.is_err()
                    {
                        return Ok(true);
                    }
                }
                Output::Reconnect => return Ok(true),
                Output::Notice(n) => {
                    match &n {
                        Notice::Acknowledged => {
                            if let Some(t) = self.sent_at.take() {
                                self.round_trips.push(t.elapsed());
                            }
                        }
                        Notice::Reverted { .. } => self.sent_at = None,
                        Notice::PeerHello { has_game, .. } => self.peer_has_game = Some(*has_game),
                        Notice::GameStarted { .. } => {
                            self.undos = 0;
                            self.games_seen += 1;
                        }
                        Notice::PeerLeft { .. } => self.peer_left = true,
                        _ => {}
                    }
                    on_notice(&n);
                }
            }
        }
        Ok(false)
    }

    /// The script's next step, if any: a computer's move started, a new game, an undo, leaving.
    fn script(&mut self, job_tx: &mpsc::UnboundedSender<(u64, u64, JobDone)>) -> Option<Event> {
        if self.leaving.is_some() {
            return None;
        }
        let script = self.config.script.clone();
        let peer = &self.peer;
        let Some(game) = peer.game() else {
            // The host starts the first game, or the game both sides lost to restarts.
            let ready = peer.role() == Role::Host && self.peer_has_game == Some(false);
            return ready.then_some(Event::NewGame {
                spots: script.spots,
                first: self.games().len() % 2,
                convention: script.convention,
            });
        };
        if peer.waiting() {
            return None;
        }
        let played = self.games().len();
        if game.is_over() {
            // The other side left: nothing more can be played.
            if self.peer_left {
                self.leaving = Some(Instant::now());
                return Some(Event::Leave);
            }
            if played < script.games || script.games == 0 {
                if peer.role() == Role::Host && peer.in_step() {
                    return Some(Event::NewGame {
                        spots: script.spots,
                        first: played % 2,
                        convention: script.convention,
                    });
                }
                return None;
            }
            if peer.in_step() {
                self.leaving = Some(Instant::now());
                return Some(Event::Leave);
            }
            return None;
        }
        if self.undos < script.max_undos_per_game
            && !game.moves().is_empty()
            && self.rng.random_bool(script.undo_chance.clamp(0.0, 1.0))
        {
            self.undos += 1;
            return Some(Event::Undo);
        }
        if let Some(on_turn) = self.on_turn.as_mut() {
            let now = (peer.actions(), game.moves().len());
            if peer.local_turn() && self.turn_shown != Some(now) {
                self.turn_shown = Some(now);
                on_turn(game.position());
            }
            return None;
        }
        if !self.job_running
            && let Some((ticket, job)) = peer.computer_job()
        {
            self.job_running = true;
            let tx = job_tx.clone();
            let epoch = self.restarts;
            tokio::task::spawn_blocking(move || {
                let done = job.run(&Limits::none(), &mut |_| {});
                let _ = tx.send((epoch, ticket, done));
            });
        }
        None
    }

    /// Whether this side may stop: it left, and the other side left too or a few heartbeats
    /// passed.
    fn finished(&self) -> bool {
        self.leaving.is_some_and(|at| {
            self.peer_left || at.elapsed() >= 3 * self.config.peer.timing.heartbeat
        })
    }

    /// A frame through the faults: `None` when dropped or held back (a duplicate is held
    /// back a moment).
    fn fault(&mut self, outgoing: bool, text: String) -> Option<String> {
        let Some(f) = self.config.faults.clone() else {
            return Some(text);
        };
        if self.leaving.is_some() {
            return Some(text);
        }
        if self.rng.random_bool(f.drop.clamp(0.0, 1.0)) {
            return None;
        }
        if self.rng.random_bool(f.duplicate.clamp(0.0, 1.0)) {
            self.hold(outgoing, text.clone(), &f);
        }
        if self.rng.random_bool(f.delay.clamp(0.0, 1.0)) {
            self.hold(outgoing, text, &f);
            return None;
        }
        Some(text)
    }

    fn hold(&mut self, outgoing: bool, text: String, f: &Faults) {
        let max = f.max_delay.as_micros().max(1);
        let wait =
            Duration::from_micros(u64::try_from(self.rng.random_range(0..max)).unwrap_or(u64::MAX));
        self.order += 1;
        self.held.push(Held {
            at: Instant::now() + wait,
            order: self.order,
            outgoing,
            text,
        });
    }

    /// After a cut, maybe a restart: a new program that knows only the room's code, in the
    /// middle of a game (a restart between games would lose the finished game from this
    /// side's list, which the tests compare).
    fn maybe_restart(&mut self) {
        let Some(f) = &self.config.faults else { return };
        let mid_game = self.peer.game().is_some_and(|g| !g.is_over());
        if !mid_game || !self.rng.random_bool(f.restart.clamp(0.0, 1.0)) {
            return;
        }
        self.restarts += 1;
        for g in self.peer.finished_games() {
            if !self.archive.last().is_some_and(|last| same_game(last, g)) {
                self.archive.push(g.clone());
            }
        }
        let mut config = self.config.peer.clone();
        config.seed = self.rng.random();
        self.peer = Peer::new(config);
        if let Some((code, _)) = self.room {
            self.config.target = Target::Join(code);
        }
        self.room = None;
        self.last_seq = 0;
        self.held.clear();
        self.job_running = false;
        self.sent_at = None;
        self.peer_has_game = None;
    }

    /// Whether a fault cuts the connection now.
    fn cut(&mut self) -> bool {
        let Some(f) = &self.config.faults else {
            return false;
        };
        if self.leaving.is_some() {
            return false;
        }
        let p = (f.cuts_per_second * self.config.tick.as_secs_f64()).clamp(0.0, 1.0);
        self.rng.random_bool(p)
    }
}

/// The person's next action, or never without a person.
async fn person_action(rx: &mut Option<mpsc::UnboundedReceiver<Event>>) -> Option<Event> {
    match rx {
        Some(r) => r.recv().await,
        None => std::future::pending().await,
    }
}

async fn send_frame(ws: &mut Ws, data: &str, keep: bool) -> Result<(), ()> {
    let frame = RelayIn::Send {
        data: data.to_owned(),
        keep,
    };
    let text = serde_json::to_string(&frame).expect("relay messages serialise");
    ws.send(Message::Text(text.into())).await.map_err(|_| ())
}
