//! One page's session: the page's messages turned into actions on a [`sprouts::Game`], free of
//! any network code so that it can be tested message by message.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts::ai::bounds::bounds;
use sprouts::ai::impartial::Outcome;
use sprouts::draw::{
    Board, DrawRequest, FreshOptions, HumanRoom, LadderOptions, RelaxMode, RelaxOptions, Settings,
    Side, StepKind, WorldSize, fresh_words,
};
use sprouts::geom::Point;
use sprouts::topo::SpotId;
use sprouts::{
    Convention, Game, GameError, GameRecord, HumanInput, JobDone, JobEvent, Limits, Played, Seat,
};

use super::analysis::AnalysisJob;
use super::store::{GameStore, KeepJob, KeptGame, KeptSummary, StoreError, is_kept_id, now_ms};
mod edited;
mod net;
pub use net::RelayCmd;

use super::protocol::{
    ClientMsg, ConventionName, MAX_PACE_MS, PROTOCOL_VERSION, PlayerSpec, RoomBoxesMsg, RoomStep,
    ServerMsg, SettingsMsg, SpotMsg, StateMsg, decode,
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
pub(super) const WORLD_MIN: f64 = 100.0;
pub(super) const WORLD_MAX: f64 = 20_000.0;

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
    /// The last proved verdict, for the position it was proved in (move count).
    verdict: Option<(usize, String)>,
    /// Games started in this session (for the log).
    number: u32,
}

impl PageGame {
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

/// Heavy work for the server to run on a blocking thread: a game's job (the computer's move,
/// a person's move to draw, the picture drawn afresh) with its stop flag.
#[derive(Debug)]
pub struct Job {
    generation: u64,
    job: sprouts::Job,
    stop: Arc<AtomicBool>,
    /// How long to wait before the work (a game between computers at a page's pace).
    delay: std::time::Duration,
    /// A network game's job: the peer's ticket, its result going to the peer.
    net: Option<u64>,
}

/// What a [`Job`] came to.
#[derive(Debug)]
pub struct JobResult {
    generation: u64,
    done: JobDone,
    net: Option<u64>,
}

impl JobResult {
    /// The result of a job that panicked: an error naming the failure, so that the session
    /// goes on (a bug can make a move fail; it cannot take the game down).
    pub fn failed(ticket: (u64, (u64, usize)), what: &str) -> JobResult {
        JobResult {
            generation: ticket.0,
            done: JobDone::failed(ticket.1.0, ticket.1.1, what),
            net: None,
        }
    }
}

impl Job {
    /// The job's stop flag: set, it ends the thinking and the ladder's search for equivalent
    /// moves (the page's Space).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// What identifies the job's result (for [`JobResult::failed`]).
    pub fn ticket(&self) -> (u64, (u64, usize)) {
        (self.generation, self.job.ticket())
    }

    /// Runs the job (blocking; call it off the async threads). `observer` receives the
    /// polylines of the curve being drawn, for the page's animation.
    pub fn run(self, observer: &mut dyn FnMut(&[Point])) -> JobResult {
        // The pace's wait, in short sleeps so that Space (or the page going) ends it.
        let start = std::time::Instant::now();
        while start.elapsed() < self.delay && !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let limits = Limits::none().with_stop(Arc::clone(&self.stop));
        JobResult {
            generation: self.generation,
            done: self.job.run(&limits, observer),
            net: self.net,
        }
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

/// What a [`SetupJob`] builds.
#[derive(Debug)]
enum SetupKind {
    /// A new game: the spots placed in the drawing area.
    New {
        spots: u32,
        /// A position to start from instead of `spots` seeds.
        start: Option<Box<sprouts::topo::Position>>,
        world: WorldSize,
        settings: Settings,
        seats: Box<[Seat; 2]>,
        first: u8,
        convention: Convention,
    },
    /// A game record (or a saved game), read and replayed by the loader.
    Load { json: String },
    /// The game the server keeps under this id, read from its store and loaded.
    Kept { store: Arc<GameStore>, id: String },
    /// A picture drawn in the editor, checked and started from.
    Picture(Box<edited::PictureSetup>),
}

/// Building a new or loaded game, to run on a blocking thread: placing the spots is quick,
/// but the loader replays and checks every curve of a saved game, which takes a while for a
/// large one (it is bounded by the loader's limits, not by a stop flag).
#[derive(Debug)]
pub struct SetupJob {
    generation: u64,
    kind: SetupKind,
    /// The id the built game is kept under (a new one when `None`).
    keep_id: Option<String>,
}

/// What a [`SetupJob`] built.
#[derive(Debug)]
pub struct SetupResult {
    generation: u64,
    loaded: bool,
    outcome: Result<(Game, Vec<String>), String>,
    keep_id: Option<String>,
    /// For a picture refused: the spots and curves its reason names.
    refused_picture: Option<(Vec<u32>, Vec<u32>)>,
}

impl SetupJob {
    /// Builds the game (blocking; call it off the async threads). Never panics on a bad
    /// record: the loader's errors come back as the result's error.
    pub fn run(self) -> SetupResult {
        let loaded = matches!(self.kind, SetupKind::Load { .. } | SetupKind::Kept { .. });
        let mut refused_picture = None;
        let outcome = match self.kind {
            SetupKind::Picture(setup) => setup.run().map_err(|(why, marks)| {
                refused_picture = Some(marks);
                why
            }),
            SetupKind::New {
                start: Some(position),
                world,
                settings,
                seats,
                first,
                convention,
                ..
            } => Game::from_position(&position, *seats, convention, world, settings)
                .map(|g| (g.with_first(usize::from(first)), Vec::new()))
                .map_err(|e| format!("cannot start from this position: {e}")),
            SetupKind::New {
                spots,
                world,
                settings,
                seats,
                first,
                convention,
                ..
            } => Game::drawn_spots(spots, world, settings, *seats)
                .map(|g| {
                    let g = g.with_convention(convention).with_first(usize::from(first));
                    (g, Vec::new())
                })
                .map_err(|e| format!("cannot start the game: {e}")),
            SetupKind::Load { json } => load(&json),
            SetupKind::Kept { store, id } => store
                .read(&id)
                .map_err(|e| format!("cannot resume the game kept on the server: {e}"))
                .and_then(|kept| load(&kept.json)),
        };
        SetupResult {
            generation: self.generation,
            loaded,
            outcome,
            keep_id: self.keep_id,
            refused_picture,
        }
    }

    /// The result of a setup job that panicked: an error, the game unchanged.
    pub fn failed(generation: u64, what: &str) -> SetupResult {
        SetupResult {
            generation,
            loaded: false,
            outcome: Err(format!(
                "the game could not be set up (an internal error: {what})"
            )),
            keep_id: None,
            refused_picture: None,
        }
    }

    /// The job's generation (for [`SetupJob::failed`]).
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

/// A game record (or a saved game) as a page's game: it must have a picture whose drawing
/// area is in range.
fn load(json: &str) -> Result<(Game, Vec<String>), String> {
    let record = GameRecord::from_json(json).map_err(|e| format!("cannot load that game: {e}"))?;
    let log = record.log.clone();
    if record.picture.is_none() {
        return Err("cannot load that game: it has no picture to show".into());
    }
    let game = record
        .into_game()
        .map_err(|e| format!("cannot load that game: {e}"))?;
    let w = game.board().map(|b| b.drawing().world());
    if w.is_some_and(|w| {
        (WORLD_MIN..=WORLD_MAX).contains(&w.width) && (WORLD_MIN..=WORLD_MAX).contains(&w.height)
    }) {
        Ok((game, log))
    } else {
        Err("the saved game's drawing area is out of range".into())
    }
}

/// Finding the spots a press can reach (router work, spec 3.1), to run on a blocking thread:
/// it shares the board's picture as it was when asked.
#[derive(Debug)]
pub struct ReachJob {
    k: u32,
    version: u64,
    from: u32,
    toward: Point,
    board: Arc<Board>,
}

/// What a [`ReachJob`] found.
#[derive(Debug)]
pub struct ReachResult {
    k: u32,
    version: u64,
    from: u32,
    spots: Vec<u32>,
}

impl ReachJob {
    /// Runs the router's reachability (blocking; call it off the async threads).
    pub fn run(self) -> ReachResult {
        let spots = SpotId::new(self.from)
            .and_then(|from| self.board.reachable(from, Side::Toward(self.toward)).ok())
            .map(|r| r.spots.iter().map(|(s, _, _)| s.get()).collect())
            .unwrap_or_default();
        ReachResult {
            k: self.k,
            version: self.version,
            from: self.from,
            spots,
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
                human, computer, ..
            } => self.room_boxes(human, computer),
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

    #[allow(
        clippy::too_many_arguments,
        reason = "the fields of the message, unpacked"
    )]
    fn new_game(
        &mut self,
        spots: u32,
        convention: ConventionName,
        players: [PlayerSpec; 2],
        first: u8,
        width: f64,
        height: f64,
    ) -> Reply {
        if spots == 0 {
            return Self::error("a game needs at least one spot");
        }
        if spots > MAX_SPOTS {
            return Self::error(format!(
                "at most {MAX_SPOTS} spots a game here; {spots} were asked for"
            ));
        }
        if first > 1 {
            return Self::error("`first` must be 0 (Blue) or 1 (Red)");
        }
        let in_range = |x: f64| x.is_finite() && (WORLD_MIN..=WORLD_MAX).contains(&x);
        if !(in_range(width) && in_range(height)) {
            return Self::error(format!(
                "the drawing area must be between {WORLD_MIN} and {WORLD_MAX} pixels a side"
            ));
        }
        // Each spot needs some room: at least 20 by 20 world pixels.
        if f64::from(spots) * 400.0 > width * height {
            return Self::error(format!(
                "{spots} spots do not fit a drawing area of {width:.0} x {height:.0}: make the window larger"
            ));
        }
        let seats = match self.seats(&players) {
            Ok(s) => s,
            Err(e) => return Self::error(e),
        };
        let settings = self
            .game
            .as_ref()
            .map_or_else(Settings::default, |g| *g.board().settings());
        self.start_setup(SetupKind::New {
            spots,
            start: None,
            world: WorldSize::new(width.round(), height.round()),
            settings,
            seats: Box::new(seats),
            first,
            convention: match convention {
                ConventionName::Normal => Convention::Normal,
                ConventionName::Misere => Convention::Misere,
            },
        })
    }

    /// A new game from a position typed in GLOP notation: read and checked here (a clear
    /// refusal for text that is not a position, or not a picture), drawn by the setup job.
    fn new_game_from(
        &mut self,
        text: &str,
        convention: ConventionName,
        players: [PlayerSpec; 2],
        first: u8,
        width: f64,
        height: f64,
    ) -> Reply {
        let position = match crate::page::position_text::read_start(text) {
            Ok(p) => p,
            Err(e) => return Self::error(e),
        };
        let spots = u32::try_from(position.spot_count())
            .unwrap_or(u32::MAX)
            .max(1);
        // The checks of an n-spot game, for the position's spots.
        let mut reply = self.new_game(spots, convention, players, first, width, height);
        if let Some(SetupJob {
            kind: SetupKind::New { start, .. },
            ..
        }) = &mut reply.setup
        {
            *start = Some(Box::new(position));
        }
        reply
    }

    /// Starts building a game off the async threads; a setup asked for earlier is dropped
    /// when it comes back. The game now in play goes on until the new one is ready.
    fn start_setup(&mut self, kind: SetupKind) -> Reply {
        self.start_setup_kept(kind, None)
    }

    /// Starts building a game that is kept under `keep_id` (a new id when `None`).
    fn start_setup_kept(&mut self, kind: SetupKind, keep_id: Option<String>) -> Reply {
        self.setup_generation += 1;
        Reply {
            setup: Some(SetupJob {
                generation: self.setup_generation,
                kind,
                keep_id,
            }),
            ..Reply::default()
        }
    }

    /// Takes a built game: the new or loaded game replaces the one in play (its computation
    /// is stopped), unless a later New game or Load was asked for meanwhile. A game that
    /// could not be built is an error, and the game in play goes on unchanged.
    pub fn finish_setup(&mut self, result: SetupResult) -> Reply {
        if result.generation != self.setup_generation {
            return Reply::default();
        }
        if self.net_resume.is_some() {
            return self.net_resumed(result.outcome.map(|(g, _)| g));
        }
        let (game, saved_log) = match (result.outcome, result.refused_picture) {
            (Ok(g), _) => g,
            (Err(reason), Some((spots, curves))) => {
                return Reply::msgs(vec![ServerMsg::PictureRefused {
                    reason,
                    spots,
                    curves,
                }]);
            }
            (Err(e), None) => return Self::error(e),
        };
        self.stop_running();
        if let Some((_, _, stop)) = self.analysing.take() {
            stop.store(true, Ordering::Relaxed);
        }
        self.keep_id = match result.keep_id {
            Some(id) => id,
            None => self.new_keep_id(),
        };
        self.games += 1;
        let mut msgs = Vec::new();
        let mut game = game;
        game.set_ladder(self.ladder.clone());
        let mut page = PageGame {
            game,
            // A loaded game waits for the person to go on when a computer is to move.
            paused: result.loaded,
            refusal: None,
            verdict: None,
            number: self.games,
        };
        let w = page.board().drawing().world();
        let players = page.players();
        let line = if result.loaded {
            format!(
                "game {}: loaded, {} moves, {} play, Blue: {}, Red: {}; Drawing area is {} x {}",
                page.number,
                page.k(),
                convention_words(page.convention()),
                player_words(&players[0]),
                player_words(&players[1]),
                w.width,
                w.height
            )
        } else {
            format!(
                "game {}: {} spots, {} play, Blue: {}, Red: {}, {} starts; Drawing area is {} x {}",
                page.number,
                page.game.start().spot_count(),
                convention_words(page.convention()),
                player_words(&players[0]),
                player_words(&players[1]),
                COLOURS[page.game.first()],
                w.width,
                w.height,
            )
        };
        if !page.game.computer_to_move() {
            page.paused = false;
        }
        for l in saved_log {
            // A game saved again after a load keeps its earlier lines marked once.
            let line = if l.starts_with("  (saved) ") {
                l
            } else {
                format!("  (saved) {l}")
            };
            self.note(line, &mut msgs);
        }
        self.game = Some(page);
        self.note(line, &mut msgs);
        self.after_change(msgs)
    }

    /// The game, if the message's `k` is current.
    fn current(&self, k: u32) -> Result<&PageGame, String> {
        let Some(g) = &self.game else {
            return Err("there is no game: start one with new_game".into());
        };
        if k != g.k() {
            return Err(format!(
                "stale position: the message is for move {k} but {} moves have been played",
                g.k()
            ));
        }
        Ok(g)
    }

    fn spot_id(g: &PageGame, n: u32) -> Result<SpotId, String> {
        SpotId::new(n)
            .filter(|s| g.game.position().lives(*s).is_some())
            .ok_or_else(|| format!("there is no spot {n}"))
    }

    fn reach(&mut self, k: u32, from: u32, toward: [f64; 2]) -> Reply {
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        if let Err(r) = Self::spot_id(g, from) {
            return Self::error(r);
        }
        if !(toward[0].is_finite() && toward[1].is_finite()) {
            return Self::error("`toward` must be a finite point");
        }
        let board = match &self.shared {
            Some((v, b)) if *v == self.version => Arc::clone(b),
            _ => {
                let b = Arc::new(g.board().clone());
                self.shared = Some((self.version, Arc::clone(&b)));
                b
            }
        };
        let job = ReachJob {
            k,
            version: self.version,
            from,
            toward: Point::new(toward[0], toward[1]),
            board,
        };
        if self.reach_out {
            self.reach_next = Some(job);
            return Reply::default();
        }
        self.reach_out = true;
        Reply {
            reach: Some(job),
            ..Reply::default()
        }
    }

    /// Takes a reach job's result: the lit spots, unless the board changed meanwhile.
    pub fn finish_reach(&mut self, result: ReachResult) -> Reply {
        let current =
            self.game.as_ref().is_some_and(|g| g.k() == result.k) && self.version == result.version;
        let next = self.reach_next.take();
        self.reach_out = next.is_some();
        Reply {
            msgs: if current {
                vec![ServerMsg::Reachable {
                    from: result.from,
                    spots: result.spots,
                }]
            } else {
                Vec::new()
            },
            reach: next,
            ..Reply::default()
        }
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "the fields of the message, unpacked"
    )]
    fn draw(
        &mut self,
        k: u32,
        from: u32,
        to: u32,
        stroke: Vec<[f64; 2]>,
        from_side: Option<[f64; 2]>,
        to_side: Option<[f64; 2]>,
        marks: Vec<u32>,
    ) -> Reply {
        if self.running.is_some() {
            return Self::error("busy: a move is being made; wait for it or press Space");
        }
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        if g.game.is_over() {
            return Self::error("the game is over");
        }
        match self.net_my_turn() {
            Some(false) => {
                return Self::error(
                    "it is the other player's turn, or the other side has not yet acknowledged",
                );
            }
            Some(true) => {}
            None if !g.game.human_to_move() => {
                return Self::error("it is the computer's turn, not a person's");
            }
            None => {}
        }
        let (from, to) = match (Self::spot_id(g, from), Self::spot_id(g, to)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(r), _) | (_, Err(r)) => return Self::error(r),
        };
        // The rules before the picture: a curve needs a life at each end (two for a loop).
        let lives = |s: SpotId| g.game.position().lives(s).map_or(0, |l| l.get());
        for s in [from, to] {
            if lives(s) == 0 {
                return Self::error(format!(
                    "not a legal move: spot {} has no life left",
                    s.get()
                ));
            }
        }
        if from == to && lives(from) < 2 {
            return Self::error(format!(
                "not a legal move: a loop needs two lives at spot {}, it has one",
                from.get()
            ));
        }
        let finite = |p: &[f64; 2]| p[0].is_finite() && p[1].is_finite();
        if !stroke.iter().all(finite)
            || !from_side.iter().all(finite)
            || !to_side.iter().all(finite)
        {
            return Self::error("stroke points must be finite numbers");
        }
        if stroke.len() > MAX_STROKE_POINTS_SENT {
            return Self::error(format!(
                "the stroke has {} points; at most {MAX_STROKE_POINTS_SENT} are read",
                stroke.len()
            ));
        }
        let stroke = thin(stroke, MAX_STROKE_POINTS);
        let mut enclose = Vec::new();
        for m in marks {
            match Self::spot_id(g, m) {
                Ok(s) => enclose.push(s),
                Err(r) => return Self::error(r),
            }
        }
        let pt = |p: [f64; 2]| Point::new(p[0], p[1]);
        let side = |p: Option<[f64; 2]>| p.map_or(Side::Any, |p| Side::Toward(pt(p)));
        let request = DrawRequest {
            from,
            from_side: side(from_side),
            to,
            to_side: side(to_side),
            enclose: (!enclose.is_empty()).then_some(enclose),
            stroke: (stroke.len() >= 2).then(|| stroke.into_iter().map(pt).collect()),
        };
        if self.net.is_some() {
            return self.net_draw(HumanInput::Request(request));
        }
        match g.game.human_job(HumanInput::Request(request)) {
            Ok(job) => self.run_job(job),
            Err(e) => Self::error(e.to_string()),
        }
    }

    /// The Redraw button: the whole picture drawn afresh, as a job.
    fn redraw(&mut self, k: u32) -> Reply {
        if self.running.is_some() {
            return Self::error("busy: a move is being made; wait for it or press Space");
        }
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        match g.game.redraw_job(FreshOptions::default()) {
            Ok(job) => self.run_job(job),
            Err(e) => Self::error(e.to_string()),
        }
    }

    /// A Room step pressed by hand on the present picture (spec 4.1): A or R relax it, Z
    /// draws it afresh, `.` afresh with spots smaller where there is no room; as a job.
    fn room_step(&mut self, k: u32, step: RoomStep) -> Reply {
        if self.running.is_some() {
            return Self::error("busy: a move is being made; wait for it or press Space");
        }
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        let job = match step {
            RoomStep::Adjust => g.game.relax_job(RelaxMode::Adjust, RelaxOptions::default()),
            RoomStep::Rearrange => g
                .game
                .relax_job(RelaxMode::Rearrange, RelaxOptions::default()),
            RoomStep::Fresh => g.game.redraw_job(FreshOptions::default()),
            RoomStep::Smaller => g.game.redraw_job(FreshOptions {
                smaller_spots: true,
                ..FreshOptions::default()
            }),
        };
        match job {
            Ok(job) => self.run_job(job),
            Err(e) => Self::error(e.to_string()),
        }
    }

    /// The Room menu's boxes: the ladder's options for this game and the later ones.
    fn room_boxes(&mut self, human: RoomBoxesMsg, computer: RoomBoxesMsg) -> Reply {
        self.ladder = LadderOptions {
            adjust: computer.a,
            rearrange: computer.r,
            fresh: computer.z,
            smaller_spots: computer.dot,
            human: HumanRoom {
                adjust: human.a,
                rearrange: human.r,
                fresh: human.z,
                smaller_spots: human.dot,
            },
            ..LadderOptions::default()
        };
        if let Some(g) = &mut self.game {
            g.game.set_ladder(self.ladder.clone());
        }
        Reply::default()
    }

    /// Hands a game's job to the server, with the state (now busy).
    fn run_job(&mut self, job: sprouts::Job) -> Reply {
        let job = self.wrap(job);
        let mut reply = Reply::default();
        reply.msgs.extend(self.state());
        reply.job = Some(job);
        reply
    }

    fn wrap(&mut self, job: sprouts::Job) -> Job {
        self.generation += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.running = Some((self.generation, Arc::clone(&stop)));
        Job {
            generation: self.generation,
            job,
            stop,
            delay: std::time::Duration::ZERO,
            net: None,
        }
    }

    /// The analysis of the position now: a job, stopping any earlier one.
    fn analyse(&mut self, k: u32, seconds: Option<f64>) -> Reply {
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        if g.game.is_over() {
            return Self::error("the game is over: there is nothing left to analyse");
        }
        let job = AnalysisJob {
            game: g.number,
            k,
            position: g.game.position().clone(),
            convention: g.game.convention(),
            mover: g.game.to_move(),
            budget: AnalysisJob::budget_of(seconds),
            stop: Arc::new(AtomicBool::new(false)),
        };
        if let Some(old) = self
            .analysing
            .replace((g.number, k, job.stop_flag()))
            .map(|a| a.2)
        {
            old.store(true, Ordering::Relaxed);
        }
        Reply {
            analysis: Some(job),
            ..Reply::default()
        }
    }

    /// Stops the analysis out when the game has left the position it analyses (a move, an
    /// undo, another game): its answers would be dropped by the page. Call it after handling
    /// each message or result.
    pub fn stop_stale_analysis(&mut self) {
        let now = self.game.as_ref().map(|g| (g.number, g.k()));
        if let Some((game, k, flag)) = &self.analysing
            && now != Some((*game, *k))
        {
            flag.store(true, Ordering::Relaxed);
            self.analysing = None;
        }
    }

    /// Hands a network game's job to the server, with the state (now busy).
    fn run_net_job(&mut self, job: sprouts::Job, ticket: u64) -> Reply {
        let mut job = self.wrap(job);
        job.net = Some(ticket);
        let mut reply = Reply::default();
        reply.msgs.extend(self.state());
        reply.job = Some(job);
        reply
    }

    /// The board changed (or may have): reach answers for the old one are dropped.
    fn changed(&mut self) {
        self.version += 1;
        self.shared = None;
    }

    fn stop_running(&mut self) {
        if let Some((_, _, flag)) = self.analysing.take() {
            flag.store(true, Ordering::Relaxed);
        }
        if let Some((_, flag)) = self.running.take() {
            flag.store(true, Ordering::Relaxed);
        }
        self.generation += 1;
    }

    /// Takes a job's result: applies it if it is still current, and starts what comes next.
    pub fn finish(&mut self, result: JobResult) -> Reply {
        if self.running.as_ref().map(|r| r.0) != Some(result.generation) {
            // A job the session has moved on from (undo, new game, load): dropped.
            return Reply::default();
        }
        self.running = None;
        if let Some(ticket) = result.net {
            return self.net_finish(ticket, result.done);
        }
        let Some(g) = &mut self.game else {
            return Reply::default();
        };
        let mut msgs = Vec::new();
        match g.game.finish(result.done) {
            Ok(JobEvent::Moved(played)) => {
                g.refusal = None;
                self.moved(&played, &mut msgs);
            }
            Ok(JobEvent::Redrawn(report)) => {
                g.refusal = None;
                self.note(
                    "redraw: the whole picture drawn afresh (undo puts it back)".into(),
                    &mut msgs,
                );
                self.note(
                    format!("  drawn afresh: {}", fresh_words(&report)),
                    &mut msgs,
                );
            }
            Ok(JobEvent::Relaxed(report)) => {
                g.refusal = None;
                self.note(
                    format!(
                        "{}: the whole picture relaxed (undo puts it back)",
                        report.mode.label()
                    ),
                    &mut msgs,
                );
                self.note(
                    format!("  {}", sprouts::draw::relax_words(&report)),
                    &mut msgs,
                );
            }
            Err(GameError::Stale) => return Reply::default(),
            Err(e) => {
                let (status, detail) = refusal_words(g, &e);
                g.refusal = Some(status.clone());
                // A computer that cannot draw stops the game until a person acts.
                if g.game.computer_to_move() {
                    g.paused = true;
                }
                self.note(format!("refused: {status}"), &mut msgs);
                self.note(format!("  {detail}"), &mut msgs);
                msgs.push(ServerMsg::Refused { reason: status });
            }
        }
        self.after_change(msgs)
    }

    /// The log lines and verdict of a move played.
    fn moved(&mut self, played: &Played, msgs: &mut Vec<ServerMsg>) {
        let colour = COLOURS[played.seat];
        if let Some(g) = &mut self.game
            && let Some(v) = played.report.as_ref().and_then(|r| r.verdict)
        {
            let words = match v {
                Outcome::Win => format!("{colour} has a winning position"),
                Outcome::Loss => format!("{colour} is lost against best play"),
            };
            g.verdict = Some((played.number, words));
        }
        self.note(
            format!("move {} ({colour}): {}", played.number, played.words),
            msgs,
        );
        // The player's reasoning first ("Blue (perfect:2s): ..."), then how the move was drawn.
        for (i, l) in played.log.iter().enumerate() {
            let line = if i == 0 && played.report.is_some() {
                format!("  {colour} {l}")
            } else {
                format!("  {l}")
            };
            self.note(line, msgs);
        }
    }

    /// After the game changed: the game-over line, the state, and the computer's job.
    fn after_change(&mut self, mut msgs: Vec<ServerMsg>) -> Reply {
        self.changed();
        let mut job = None;
        if let Some(g) = &self.game
            && let Some(w) = g.game.winner()
            && !self.log.last().is_some_and(|l| l.starts_with("game over"))
        {
            let line = format!("game over after {} moves: {} wins", g.k(), COLOURS[w]);
            self.note(line, &mut msgs);
        }
        if let Some(g) = &self.game
            && self.running.is_none()
            && !g.paused
            && g.game.computer_to_move()
            && let Ok(j) = g.game.computer_job()
        {
            let between_computers = g.game.seats().iter().all(|s| s.spec().is_some()) && g.k() > 0;
            let mut j = self.wrap(j);
            if between_computers {
                j.delay = std::time::Duration::from_millis(u64::from(self.pace_ms));
            }
            job = Some(j);
        }
        msgs.extend(self.state());
        Reply {
            msgs,
            job,
            ..Reply::default()
        }
    }

    fn undo_redo(&mut self, k: u32, undo: bool) -> Reply {
        if let Err(r) = self.current(k) {
            return Self::error(r);
        }
        let was_running = self.running.is_some();
        if was_running {
            self.stop_running();
        }
        let g = self.game.as_mut().expect("checked by current");
        let steps: Vec<Vec<StepKind>> = if undo {
            g.game.undo_turn()
        } else {
            g.game.redo_turn()
        }
        .unwrap_or_default();
        if steps.is_empty() {
            if was_running {
                let mut msgs = Vec::new();
                g.paused = true;
                self.note("the computer's move was stopped".into(), &mut msgs);
                msgs.extend(self.state());
                return Reply::msgs(msgs);
            }
            return Self::error(if undo {
                "there is nothing to undo"
            } else {
                "there is nothing to redo"
            });
        }
        g.refusal = None;
        // Between computers, undo and redo pause the game.
        if g.game.computer_to_move() {
            g.paused = true;
        }
        let mut msgs = Vec::new();
        for step in steps {
            let what: Vec<String> = step.iter().map(ToString::to_string).collect();
            let line = format!("{} {}", if undo { "undo" } else { "redo" }, what.join(", "));
            self.note(line, &mut msgs);
        }
        self.after_change(msgs)
    }

    fn pause(&mut self, paused: bool) -> Reply {
        let Some(g) = &mut self.game else {
            return Self::error("there is no game to pause");
        };
        if g.paused == paused {
            return Self::error(if paused {
                "the game is already paused"
            } else {
                "the game is not paused"
            });
        }
        g.paused = paused;
        let mut msgs = Vec::new();
        self.note(
            if paused {
                "paused".into()
            } else {
                "resumed".into()
            },
            &mut msgs,
        );
        self.after_change(msgs)
    }

    fn settings(&mut self, s: SettingsMsg) -> Reply {
        let Some(g) = &mut self.game else {
            return Self::error("there is no game: the settings belong to a game");
        };
        let settings = Settings {
            min_clearance: s.min_clearance,
            comfort_distance: s.comfort_distance,
            room_vs_length: s.room_vs_length,
            spot_radius: g.board().settings().spot_radius,
        };
        if g.game.set_settings(settings).is_err() {
            return Self::error(format!(
                "settings refused (minimum clearance {}, comfort distance {}, room against length {}): the clearance must be positive and below the comfort distance",
                s.min_clearance, s.comfort_distance, s.room_vs_length
            ));
        }
        self.changed();
        let mut msgs = Vec::new();
        self.note(
            format!(
                "settings: minimum clearance {}, comfort distance {}, room vs length {}",
                s.min_clearance, s.comfort_distance, s.room_vs_length
            ),
            &mut msgs,
        );
        msgs.extend(self.state());
        Reply::msgs(msgs)
    }

    fn set_players(&mut self, players: [PlayerSpec; 2]) -> Reply {
        if self.game.is_none() {
            return Self::error("there is no game");
        }
        let seats = match self.seats(&players) {
            Ok(s) => s,
            Err(e) => return Self::error(e),
        };
        let g = self.game.as_mut().expect("checked above");
        for (i, seat) in seats.into_iter().enumerate() {
            g.game.set_seat(i, seat).expect("seats 0 and 1 exist");
        }
        let line = format!(
            "players: Blue: {}, Red: {}",
            player_words(&players[0]),
            player_words(&players[1])
        );
        let mut msgs = Vec::new();
        self.note(line, &mut msgs);
        self.after_change(msgs)
    }

    fn state_of(&self, g: &PageGame) -> StateMsg {
        let board = g.board();
        let pos = board.position();
        let spots = board
            .drawing()
            .spots()
            .iter()
            .map(|s| SpotMsg {
                id: s.id.get(),
                x: s.centre.x,
                y: s.centre.y,
                r: s.radius,
                lives: pos.lives(s.id).map_or(0, |l| l.get()),
            })
            .collect();
        let curves = board
            .drawing()
            .curves()
            .iter()
            .map(|c| {
                c.spline
                    .pieces()
                    .iter()
                    .map(|p| {
                        let b = &p.bez;
                        [
                            b.p0.x, b.p0.y, b.p1.x, b.p1.y, b.p2.x, b.p2.y, b.p3.x, b.p3.y,
                        ]
                    })
                    .collect()
            })
            .collect();
        let settings = board.settings();
        StateMsg {
            game: g.number,
            k: g.k(),
            width: board.drawing().world().width,
            height: board.drawing().world().height,
            spots,
            curves,
            to_move: g.to_move(),
            human_to_move: self.net_my_turn().unwrap_or_else(|| g.game.human_to_move()),
            over: g.game.is_over(),
            winner: g.winner(),
            status: self.status_line(g),
            refusal: g.refusal.clone(),
            first: u8::from(g.game.first() == 1),
            start_spots: u32::try_from(g.game.start().spot_count()).unwrap_or(u32::MAX),
            curve_moves: board
                .drawing()
                .curves()
                .iter()
                .map(|c| c.origin.map(|o| o.move_index))
                .collect(),
            can_undo: self.net_can_undo().unwrap_or_else(|| g.game.can_undo()),
            can_redo: self.net.is_none() && g.game.can_redo(),
            paused: g.paused,
            busy: self.running.is_some(),
            players: g.players(),
            convention: g.convention(),
            settings: SettingsMsg {
                min_clearance: settings.min_clearance,
                comfort_distance: settings.comfort_distance,
                room_vs_length: settings.room_vs_length,
            },
            moves: g.game.moves().iter().map(|m| m.words.clone()).collect(),
            glop: pos.to_glop(),
        }
    }

    /// The status line (spec 5.8, 4.2): whose turn, lives, bounds on the moves left, a proved
    /// verdict, the last refusal; the winner when the game is over.
    fn status_line(&self, g: &PageGame) -> String {
        match self.net_words() {
            Some(net) => format!("{net} · {}", self.game_words(g)),
            None => self.game_words(g),
        }
    }

    /// The game's part of the status line.
    fn game_words(&self, g: &PageGame) -> String {
        let pos = g.game.position();
        let w = g.board().drawing().world();
        if let Some(winner) = g.game.winner() {
            let loser = 1 - winner;
            let why = match g.game.convention() {
                Convention::Normal => format!("{} cannot move", COLOURS[loser]),
                Convention::Misere => {
                    format!("{} cannot move and wins in misère play", COLOURS[winner])
                }
            };
            return format!(
                "{} wins: {why}. Game over after {} moves.",
                COLOURS[winner],
                g.k()
            );
        }
        let mover = g.game.to_move();
        let mut parts = Vec::new();
        let who = match g.game.seats()[mover].spec() {
            None => format!("{} to move", COLOURS[mover]),
            Some(spec) => {
                if self.running.is_some() {
                    format!("{} ({spec}) is thinking", COLOURS[mover])
                } else if g.paused {
                    format!("{} ({spec}) to move, paused", COLOURS[mover])
                } else {
                    format!("{} ({spec}) to move", COLOURS[mover])
                }
            }
        };
        parts.push(who);
        parts.push(format!("{} lives", pos.total_lives()));
        let b = bounds(pos);
        parts.push(format!("moves left: M = {}, m = {}", b.upper, b.lower));
        if let Some((k, v)) = &g.verdict
            && *k == g.game.moves().len()
        {
            parts.push(v.clone());
        }
        parts.push(format!("Drawing area is {} x {}", w.width, w.height));
        parts.join(" · ")
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
            Some("the Room steps A, R, Z and . are for games on this page (Redraw works here)")
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

/// A refused job in words: the status line's reason and the log's detail.
fn refusal_words(g: &PageGame, e: &GameError) -> (String, String) {
    let colour = COLOURS[g.game.to_move()];
    match e {
        GameError::NotDrawn { words, refusal, .. } => (
            format!(
                "{colour}'s move {words} could not be drawn: {}; undo, or set the player to Human",
                refusal.refusal
            ),
            refusal.log.join("; "),
        ),
        GameError::Refused(r) => (r.to_string(), r.detail()),
        GameError::NoMove => (
            format!("{colour} has no move"),
            format!("{colour}: no move in {}", g.game.position().to_glop()),
        ),
        other => (other.to_string(), other.to_string()),
    }
}

fn convention_words(c: ConventionName) -> &'static str {
    match c {
        ConventionName::Normal => "normal",
        ConventionName::Misere => "misère",
    }
}

/// A player in words for the log.
fn player_words(p: &PlayerSpec) -> String {
    match p {
        PlayerSpec::Human => "human".into(),
        PlayerSpec::Computer { spec } => format!("computer ({spec})"),
    }
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
