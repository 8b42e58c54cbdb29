//! One page's session: the page's messages turned into actions on a [`sprouts::Game`], free of
//! any network code so that it can be tested message by message.
//!
//! This file holds the session's state and its dispatch of the page's messages; the work is in
//! submodules: `start` (New game, Load, a kept game), `play` (reach, draw, redraw, Room, undo,
//! pause, settings, players), `jobs` (the jobs run off the async threads and their results),
//! `words` (the state message, status line and log words) and `net` (a network game).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts::ai::players::Report;
use sprouts::draw::{Board, DrawRequest, LadderOptions};
use sprouts::topo::Move;
use sprouts::{Convention, Game, Seat};

use super::analysis::AnalysisJob;
use super::store::{GameStore, KeepJob, KeptGame, KeptSummary, StoreError, is_kept_id, now_ms};
mod edited;
mod jobs;
mod net;
mod play;
mod start;
mod words;
pub use jobs::{Job, JobResult};
pub use net::RelayCmd;
pub use play::{ReachJob, ReachResult};
use start::SetupKind;
pub use start::{SetupJob, SetupResult};

use super::protocol::{
    ClientMsg, ConventionName, MAX_PACE_MS, PROTOCOL_VERSION, PlayerSpec, ServerMsg, decode,
};

impl Drop for Session {
    /// A page that goes away stops its computation.
    fn drop(&mut self) {
        self.stop_running();
    }
}

/// The players' colours, as the status line and the log name them.
pub const COLOURS: [&str; 2] = ["Blue", "Red"];

/// The fewest and most world pixels a drawing area may have on a side.
const WORLD_MIN: f64 = 100.0;
const WORLD_MAX: f64 = 20_000.0;

/// The most random games a candidate a page may ask a Monte Carlo player for.
pub const MONTE_CARLO_GAMES_MAX: u64 = 100_000;

/// The most spots a page's game may start with: the drawing, the players and the solver all
/// grow with the spots, and this many already fill a large window.
pub const MAX_SPOTS: u32 = 200;

/// The most lines a session's log keeps (the oldest are dropped first; a saved game keeps the
/// ones left).
pub const MAX_LOG_LINES: usize = 5_000;

/// The most points of a stroke the router is given: a longer stroke is thinned evenly (its
/// ends kept), since the drawing of a stroke costs time in the square of its points.
pub const MAX_STROKE_POINTS: usize = 2_000;

/// The most points a `draw` message may carry at all.
pub const MAX_STROKE_POINTS_SENT: usize = 100_000;

/// A game in progress, with what the page shows beside it.
#[derive(Clone, Debug)]
struct PageGame {
    game: Game,
    paused: bool,
    /// The last refusal, shown on the status line until the next change.
    refusal: Option<String>,
    /// A person's move refused for lack of room: a Room step pressed now makes room for it
    /// and draws it (spec 4.1).
    waiting: Option<DrawRequest>,
    /// The computer's move that could not be drawn: a Room step by hand lets the computer
    /// try it once more (spec 5.9), `retry` then set until the move is tried.
    computer_waiting: Option<(Move, Option<Box<Report>>)>,
    retry: Option<(Move, Option<Box<Report>>)>,
    /// The last proved verdict, for the position it was proved in (move count).
    verdict: Option<(usize, String)>,
    /// Games started in this session (for the log).
    number: u32,
}

impl PageGame {
    /// After a Room step by hand: the computer's move that could not be drawn, if any, is
    /// tried once more (the game goes on).
    fn retry_after_room(&mut self, computer_waiting: Option<(Move, Option<Box<Report>>)>) {
        if let Some(w) = computer_waiting
            && self.game.computer_to_move()
        {
            self.retry = Some(w);
            self.paused = false;
        }
    }

    fn k(&self) -> u32 {
        u32::try_from(self.game.moves().len()).unwrap_or(u32::MAX)
    }

    fn board(&self) -> &Board {
        self.game
            .board()
            .expect("a page's game always has its picture")
    }

    fn players(&self) -> [PlayerSpec; 2] {
        self.game.seats().clone().map(|s| match s.spec() {
            None => PlayerSpec::Human,
            Some(spec) => PlayerSpec::Computer {
                spec: spec.to_owned(),
            },
        })
    }

    fn convention(&self) -> ConventionName {
        match self.game.convention() {
            Convention::Normal => ConventionName::Normal,
            Convention::Misere => ConventionName::Misere,
        }
    }

    fn to_move(&self) -> u8 {
        u8::from(self.game.to_move() == 1)
    }

    fn winner(&self) -> Option<u8> {
        self.game.winner().map(|w| u8::from(w == 1))
    }
}

/// What the session answers: messages for the page, and maybe work to run.
#[derive(Debug, Default)]
pub struct Reply {
    /// Messages to send, in order.
    pub msgs: Vec<ServerMsg>,
    /// Work to run off the async threads; its result goes to [`Session::finish`].
    pub job: Option<Job>,
    /// The lit destinations to find off the async threads; the result goes to
    /// [`Session::finish_reach`].
    pub reach: Option<ReachJob>,
    /// A game to build off the async threads (New game, Load); the result goes to
    /// [`Session::finish_setup`].
    pub setup: Option<SetupJob>,
    /// The analysis of the position, to run off the async threads; its messages go straight
    /// to the page.
    pub analysis: Option<AnalysisJob>,
    /// What to do with the network game's relay connection, in order.
    pub relay: Vec<RelayCmd>,
}

impl Reply {
    fn msgs(msgs: Vec<ServerMsg>) -> Reply {
        Reply {
            msgs,
            ..Reply::default()
        }
    }
}

/// One page's session.
#[derive(Debug)]
pub struct Session {
    id: String,
    greeted: bool,
    game: Option<PageGame>,
    log: Vec<String>,
    generation: u64,
    /// The running job's generation and stop flag.
    running: Option<(u64, Arc<AtomicBool>)>,
    /// The person's request the running job draws (it waits for room if refused so).
    requested: Option<DrawRequest>,
    rng: Xoshiro256PlusPlus,
    games: u32,
    /// Counts every change of the board, so that a reach answer for an older picture is dropped.
    version: u64,
    /// The board shared with reach jobs, for the current `version`.
    shared: Option<(u64, Arc<Board>)>,
    /// The generation of the latest New game or Load being set up; an older one's game is
    /// dropped when it comes back.
    setup_generation: u64,
    /// Whether a reach job is out; while one is, a newer request waits here (only the latest:
    /// the page lights the spots of the last press), so a page runs one reach at a time.
    reach_out: bool,
    reach_next: Option<ReachJob>,
    /// Milliseconds between computers' moves (the page's pace).
    pace_ms: u32,
    /// The game, move count and stop flag of the analysis out, if any (a newer request, or
    /// the game leaving that position, stops it).
    analysing: Option<(u32, u32, Arc<AtomicBool>)>,
    /// The network game, when the page plays one.
    net: Option<net::NetSide>,
    /// A network game coming back with a kept game, while the loader rebuilds it.
    net_resume: Option<net::NetResume>,
    /// The game number of the network game shown.
    net_game_number: u32,
    /// The server's copy of the games, if it keeps one.
    store: Option<Arc<GameStore>>,
    /// The id the game in play is kept under (by the server and by the page).
    keep_id: String,
    /// What was last kept of the game in play (a key of its settled state) and when.
    kept: Option<(String, u64)>,
    /// The Room menu's boxes (the ladder's options), for this game and the later ones.
    ladder: LadderOptions,
    /// Heroic mode: a person's curves kept exactly as drawn.
    heroic: bool,
}

impl Session {
    /// A new session with its id and a seed for the computer's random choices.
    pub fn new(id: String, seed: u64) -> Session {
        Session {
            id,
            greeted: false,
            game: None,
            log: Vec::new(),
            generation: 0,
            running: None,
            requested: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            games: 0,
            version: 0,
            shared: None,
            setup_generation: 0,
            reach_out: false,
            reach_next: None,
            pace_ms: 0,
            analysing: None,
            net: None,
            net_resume: None,
            net_game_number: 0,
            store: None,
            keep_id: String::new(),
            kept: None,
            ladder: LadderOptions::default(),
            heroic: false,
        }
    }

    /// The session keeps its games in `store` (see [`Session::keep`]) and offers the last one
    /// kept there in its `welcome`.
    pub fn with_store(mut self, store: Arc<GameStore>) -> Session {
        self.store = Some(store);
        self
    }

    /// A fresh id to keep a game under.
    fn new_keep_id(&mut self) -> String {
        format!("{:016x}", self.rng.random::<u64>())
    }

    /// The key of the game's settled state: it changes with every settled action (a move, an
    /// undo or redo, a redraw, new settings or players, the end), not while a job runs.
    fn keep_key(&self) -> Option<String> {
        let g = self.game.as_ref()?;
        if self.running.is_some() || self.net.is_some() || self.net_resume.is_some() {
            return None;
        }
        Some(format!(
            "{}:{}:{}:{}:{}:{:?}:{:?}",
            self.keep_id,
            g.number,
            self.version,
            g.k(),
            g.game.is_over(),
            g.board().settings(),
            g.players()
        ))
    }

    /// The time stamp of a copy made now: the clock's milliseconds, always later than the last
    /// stamp given (so that a later copy of a game is never older than an earlier one).
    fn stamp(&mut self) -> u64 {
        let last = self.kept.as_ref().map_or(0, |k| k.1);
        now_ms().max(last + 1)
    }

    /// The game to write to the server's store, when the game in play has settled in a state
    /// not kept yet (call it after handling each message or result; the write is blocking
    /// file work, for a blocking thread). `None` without a store, during a network game, or
    /// while a job runs.
    pub fn keep(&mut self) -> Option<KeepJob> {
        let store = Arc::clone(self.store.as_ref()?);
        let key = self.keep_key()?;
        if self.kept.as_ref().is_some_and(|(k, _)| *k == key) {
            return None;
        }
        let at = self.stamp();
        self.kept = Some((key, at));
        let g = self.game.as_ref()?;
        Some(KeepJob {
            store,
            game: KeptGame {
                summary: KeptSummary {
                    id: self.keep_id.clone(),
                    at,
                    k: g.k(),
                    over: g.game.is_over(),
                },
                json: g.game.record().with_log(&self.log).to_json(),
            },
        })
    }

    /// The session's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The log so far, one line per entry.
    pub fn log_text(&self) -> String {
        let mut s = self.log.join("\n");
        s.push('\n');
        s
    }

    /// The state message, if a game is on.
    pub fn state(&self) -> Option<ServerMsg> {
        self.game
            .as_ref()
            .map(|g| ServerMsg::State(Box::new(self.state_of(g))))
    }

    fn note(&mut self, line: String, out: &mut Vec<ServerMsg>) {
        tracing::debug!(session = %self.id, "{line}");
        if self.log.len() >= MAX_LOG_LINES {
            let drop = self.log.len() + 1 - MAX_LOG_LINES;
            self.log.drain(..drop);
        }
        self.log.push(line.clone());
        out.push(ServerMsg::Log { line });
    }

    fn error(message: impl Into<String>) -> Reply {
        Reply::msgs(vec![ServerMsg::Error {
            message: message.into(),
        }])
    }

    /// Handles one text message from the page.
    pub fn handle_text(&mut self, text: &str) -> Reply {
        match decode(text) {
            Ok(msg) => self.handle(msg),
            Err(e) => Self::error(e.to_string()),
        }
    }

    /// Handles one decoded message.
    pub fn handle(&mut self, msg: ClientMsg) -> Reply {
        if let ClientMsg::Hello { protocol } = msg {
            if protocol != PROTOCOL_VERSION {
                return Self::error(format!(
                    "protocol version {protocol} is not supported: this server speaks version {PROTOCOL_VERSION}; reload the page"
                ));
            }
            if self.greeted {
                return Self::error("hello was already received");
            }
            self.greeted = true;
            let mut msgs = vec![ServerMsg::Welcome {
                protocol: PROTOCOL_VERSION,
                session: self.id.clone(),
                kept: self.store.as_ref().and_then(|s| s.last()),
            }];
            msgs.extend(self.state());
            return Reply::msgs(msgs);
        }
        if !self.greeted {
            return Self::error("the first message must be hello");
        }
        if msg.session() != Some(self.id.as_str()) {
            return Self::error(
                "this message is for another session: a page can act only on its own game",
            );
        }
        if self.in_net()
            && let Some(refusal) = net_refusal(&msg)
        {
            return Self::error(refusal);
        }
        match msg {
            ClientMsg::Hello { .. } => unreachable!("handled above"),
            ClientMsg::NetHost {
                name,
                spots,
                convention,
                width,
                height,
                ..
            } => self.net_host(&name, spots, convention, width, height),
            ClientMsg::NetJoin {
                name,
                room,
                back,
                width,
                height,
                ..
            } => self.net_join(&name, &room, back, width, height),
            ClientMsg::NetLeave { .. } => self.net_leave(),
            ClientMsg::NewGame {
                spots,
                convention,
                first,
                ..
            } if self.net.is_some() => self.net_new_game(
                spots,
                first,
                match convention {
                    ConventionName::Normal => Convention::Normal,
                    ConventionName::Misere => Convention::Misere,
                },
            ),
            ClientMsg::NewGame {
                position: Some(text),
                convention,
                players,
                first,
                width,
                height,
                ..
            } => self.new_game_from(&text, convention, players, first, width, height),
            ClientMsg::NewGame {
                spots,
                convention,
                players,
                first,
                width,
                height,
                ..
            } => self.new_game(spots, convention, players, first, width, height),
            ClientMsg::EditedGame {
                picture,
                any_valid,
                convention,
                players,
                first,
                ..
            } => self.edited_game(&picture, any_valid, convention, players, first),
            ClientMsg::Reach {
                k, from, toward, ..
            } => self.reach(k, from, toward),
            ClientMsg::Draw {
                k,
                from,
                to,
                stroke,
                from_side,
                to_side,
                marks,
                ..
            } => self.draw(k, from, to, stroke, from_side, to_side, marks),
            ClientMsg::Redraw { k, .. } if self.net.is_some() => match self.current(k) {
                Ok(_) if self.running.is_none() => self.net_redraw(),
                Ok(_) => Self::error("busy: a move is being made"),
                Err(r) => Self::error(r),
            },
            ClientMsg::Undo { k, .. } if self.net.is_some() => match self.current(k) {
                Ok(_) if self.running.is_none() => self.net_undo(),
                Ok(_) => Self::error("busy: a move is being made"),
                Err(r) => Self::error(r),
            },
            ClientMsg::Redraw { k, .. } => self.redraw(k),
            ClientMsg::Room { k, step, .. } => self.room_step(k, step),
            ClientMsg::RoomBoxes {
                human,
                computer,
                heroic,
                ..
            } => self.room_boxes(human, computer, heroic),
            ClientMsg::Undo { k, .. } => self.undo_redo(k, true),
            ClientMsg::Redo { k, .. } => self.undo_redo(k, false),
            ClientMsg::Pause { paused, .. } => self.pause(paused),
            ClientMsg::Analyse { k, seconds, .. } => self.analyse(k, seconds),
            ClientMsg::Pace { ms, .. } => {
                self.pace_ms = ms.min(MAX_PACE_MS);
                Reply::default()
            }
            ClientMsg::Stop { .. } => {
                if let Some((_, flag)) = &self.running {
                    flag.store(true, Ordering::Relaxed);
                    let mut msgs = Vec::new();
                    self.note(
                        "stop asked: the computation ends with what it has".into(),
                        &mut msgs,
                    );
                    Reply::msgs(msgs)
                } else {
                    Self::error("nothing is running to stop")
                }
            }
            ClientMsg::Save { .. } => match &self.game {
                Some(g) => Reply::msgs(vec![ServerMsg::Saved {
                    json: g.game.record().with_log(&self.log).to_json(),
                }]),
                None => Self::error("there is no game to save"),
            },
            ClientMsg::Snapshot { .. } => {
                // The page's copy carries the same id and stamp as the server's copy of the
                // same state, so that either can tell which of two copies is newer.
                let at = match (&self.kept, self.keep_key()) {
                    (Some((kept, at)), Some(key)) if *kept == key => *at,
                    _ => self.stamp(),
                };
                match &self.game {
                    Some(g) => Reply::msgs(vec![ServerMsg::Snapshot {
                        game: g.number,
                        k: g.k(),
                        over: g.game.is_over(),
                        json: g.game.record().with_log(&self.log).to_json(),
                        id: self.keep_id.clone(),
                        at,
                    }]),
                    None => Self::error("there is no game to keep"),
                }
            }
            ClientMsg::ResumeKept { id, .. } => match &self.store {
                None => Self::error("this server keeps no games (it was started with --no-data)"),
                Some(_) if !is_kept_id(&id) => {
                    Self::error(StoreError::BadId(id.chars().take(40).collect()).to_string())
                }
                Some(store) => {
                    let store = Arc::clone(store);
                    self.start_setup_kept(
                        SetupKind::Kept {
                            store,
                            id: id.clone(),
                        },
                        Some(id),
                    )
                }
            },
            ClientMsg::SaveLog { .. } => Reply::msgs(vec![ServerMsg::LogText {
                text: self.log_text(),
            }]),
            ClientMsg::Load { json, kept, .. } => match kept {
                Some(id) if !is_kept_id(&id) => {
                    Self::error(StoreError::BadId(id.chars().take(40).collect()).to_string())
                }
                kept => self.start_setup_kept(SetupKind::Load { json }, kept),
            },
            ClientMsg::Settings { settings, .. } => self.settings(settings),
            ClientMsg::Players { players, .. } => self.set_players(players),
        }
    }

    /// The seats for the players the page asked for, each computer with a seed of its own.
    fn seats(&mut self, players: &[PlayerSpec; 2]) -> Result<[Seat; 2], String> {
        let mut seats = [Seat::Human, Seat::Human];
        for (seat, p) in seats.iter_mut().zip(players) {
            if let PlayerSpec::Computer { spec } = p {
                check_spec(spec)?;
                *seat = Seat::computer(spec, self.rng.random())
                    .map_err(|e| format!("unknown player `{}`: {e}", spec.trim()))?;
            }
        }
        Ok(seats)
    }
}

/// Why a message is refused while the page plays a network game (`None`: it is taken).
fn net_refusal(msg: &ClientMsg) -> Option<&'static str> {
    match msg {
        ClientMsg::Redo { .. } => {
            Some("no redo in a network game: a move undone is gone on both sides")
        }
        ClientMsg::Load { .. } | ClientMsg::ResumeKept { .. } => {
            Some("a network game cannot be replaced by a loaded one: leave it first")
        }
        ClientMsg::Players { .. } => Some("in a network game each side is a person"),
        ClientMsg::Room { .. } => {
            Some("the Room steps M, A, R, Z and . are for games on this page (Redraw works here)")
        }
        ClientMsg::Pause { .. } => Some("a network game between people has nothing to pause"),
        ClientMsg::Settings { .. } => {
            Some("the drawing settings of a network game are those it started with")
        }
        ClientMsg::EditedGame { .. } => {
            Some("a network game cannot start from a picture drawn here: leave it first")
        }
        ClientMsg::NewGame { .. }
        | ClientMsg::NetHost { .. }
        | ClientMsg::NetJoin { .. }
        | ClientMsg::Hello { .. }
        | ClientMsg::Reach { .. }
        | ClientMsg::Draw { .. }
        | ClientMsg::Redraw { .. }
        | ClientMsg::RoomBoxes { .. }
        | ClientMsg::Undo { .. }
        | ClientMsg::Stop { .. }
        | ClientMsg::Save { .. }
        | ClientMsg::SaveLog { .. }
        | ClientMsg::NetLeave { .. }
        | ClientMsg::Pace { .. }
        | ClientMsg::Analyse { .. }
        | ClientMsg::Snapshot { .. } => None,
    }
}

/// At most `most` points of `stroke`, evenly spaced along its list, its first and last kept.
pub(crate) fn thin(stroke: Vec<[f64; 2]>, most: usize) -> Vec<[f64; 2]> {
    if stroke.len() <= most || most < 2 {
        return stroke;
    }
    let last = stroke.len() - 1;
    (0..most).map(|i| stroke[i * last / (most - 1)]).collect()
}

/// Checks a player spec (`random`, `montecarlo:N`, `parity-fast:Ts`, `parity-sharp:depth=D`,
/// `perfect:Ts`) by building the player.
///
/// A Monte Carlo player with a number of games is limited to [`MONTE_CARLO_GAMES_MAX`] games a
/// candidate: that budget keeps every game's result in memory and is not cut short by Space
/// (a time budget, `montecarlo:10s`, is).
///
/// # Errors
/// The reason, in words, quoting at most the start of a long spec.
pub fn check_spec(spec: &str) -> Result<(), String> {
    let spec = spec.trim();
    let shown: String = spec.chars().take(sprouts::MAX_SPEC_LEN).collect();
    Seat::computer(spec, 0).map_err(|e| format!("unknown player `{shown}`: {e}"))?;
    if let Some(n) = spec.strip_prefix("montecarlo:")
        && let Ok(n) = n.trim().parse::<u64>()
        && n > MONTE_CARLO_GAMES_MAX
    {
        return Err(format!(
            "`{spec}`: at most {MONTE_CARLO_GAMES_MAX} games a candidate (or a time, such as montecarlo:10s)"
        ));
    }
    Ok(())
}
