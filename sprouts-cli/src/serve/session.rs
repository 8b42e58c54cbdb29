//! One page's game: the message handling, free of any network code so that it can be tested
//! message by message.
//!
//! A [`Session`] takes the page's messages one at a time ([`Session::handle_text`]) and answers
//! with messages for the page and, when something heavy must be done (the computer's move, the
//! drawing of a human move), a [`Job`] that the server runs off the async runtime's threads and
//! hands back with [`Session::finish`]. A message that is malformed, out of order, stale, for
//! another session, or asks for something the rules do not allow gets an `error` (or a
//! `refused` for a move the picture cannot take) and changes nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_ai::Limits;
use sprouts_ai::bounds::bounds;
use sprouts_ai::impartial::{Convention, Outcome};
use sprouts_ai::players::player_from_spec;
use sprouts_draw::{Board, DrawRequest, SavedGame, Settings, Side, StepKind, WorldSize};
use sprouts_geom::Point;
use sprouts_topo::SpotId;

use super::protocol::{
    ClientMsg, ConventionName, PROTOCOL_VERSION, PlayerSpec, ServerMsg, SettingsMsg, SpotMsg,
    StateMsg, decode,
};

impl Drop for Session {
    /// A page that goes away stops its computation.
    fn drop(&mut self) {
        self.stop_running();
    }
}

/// The players' colours, as the status line and the log name them.
pub(crate) const COLOURS: [&str; 2] = ["Blue", "Red"];

/// The fewest and most world pixels a drawing area may have on a side.
const WORLD_MIN: f64 = 100.0;
const WORLD_MAX: f64 = 20_000.0;

/// A game in progress.
#[derive(Clone, Debug)]
struct Game {
    board: Board,
    players: [PlayerSpec; 2],
    first: u8,
    convention: ConventionName,
    paused: bool,
    /// The last refusal, shown on the status line until the next change.
    refusal: Option<String>,
    /// The last proved verdict, for the position it was proved in (move count).
    verdict: Option<(u32, String)>,
    /// Games started in this session (for the log).
    number: u32,
}

impl Game {
    fn k(&self) -> u32 {
        u32::try_from(self.board.moves().len()).unwrap_or(u32::MAX)
    }

    fn to_move(&self) -> u8 {
        ((u32::from(self.first) + self.k()) % 2) as u8
    }

    fn is_over(&self) -> bool {
        self.board.position().is_over()
    }

    fn computer_to_move(&self) -> Option<String> {
        match &self.players[self.to_move() as usize] {
            PlayerSpec::Computer { spec } if !self.is_over() => Some(spec.clone()),
            _ => None,
        }
    }

    fn has_human(&self) -> bool {
        self.players.contains(&PlayerSpec::Human)
    }

    /// The winner's index when the game is over.
    fn winner(&self) -> Option<u8> {
        if !self.is_over() {
            return None;
        }
        let stuck = self.to_move();
        Some(match self.convention {
            ConventionName::Normal => 1 - stuck,
            ConventionName::Misere => stuck,
        })
    }
}

/// What a job does.
#[derive(Clone, Debug)]
pub(crate) enum JobKind {
    /// The computer's move, with its player spec.
    Computer {
        /// The player spec.
        spec: String,
        /// The player's colour index.
        player: u8,
        /// A seed for its random choices.
        seed: u64,
        /// Normal or misère play.
        convention: Convention,
    },
    /// A human move to draw.
    Human {
        /// The spot the curve leaves.
        from: SpotId,
        /// The spot it reaches.
        to: SpotId,
        /// The stroke (world points), empty for a click move.
        stroke: Vec<Point>,
        /// The side it leaves on.
        from_side: Option<Point>,
        /// The side it arrives on.
        to_side: Option<Point>,
        /// Spots to enclose.
        marks: Vec<SpotId>,
    },
    /// The whole picture drawn afresh (Redraw).
    Redraw,
}

/// Heavy work for the server to run on a blocking thread: it owns a copy of the board.
#[derive(Debug)]
pub(crate) struct Job {
    generation: u64,
    k: u32,
    board: Board,
    kind: JobKind,
    stop: Arc<AtomicBool>,
}

/// What a job came to.
#[derive(Debug)]
pub(crate) struct JobResult {
    generation: u64,
    k: u32,
    outcome: Result<Done, Refusal>,
}

/// A move drawn by a job: the board after it, and lines for the log.
#[derive(Debug)]
struct Done {
    board: Board,
    log: Vec<String>,
    verdict: Option<String>,
}

/// A move that was not drawn: the reason for the status line and the details for the log.
#[derive(Debug)]
struct Refusal {
    status: String,
    log: String,
}

impl JobResult {
    /// The result of a job that panicked: a refusal naming the failure, so that the session
    /// goes on (a bug can make a move fail; it cannot take the game down).
    pub(crate) fn failed(ticket: (u64, u32), what: &str) -> JobResult {
        JobResult {
            generation: ticket.0,
            k: ticket.1,
            outcome: Err(Refusal {
                status: "the move could not be made (an internal error; see the log)".into(),
                log: format!("internal error: {what}"),
            }),
        }
    }
}

impl Job {
    /// The job's stop flag: set, it ends the thinking and the ladder's search for equivalent
    /// moves (the page's Space).
    #[cfg(test)]
    pub(crate) fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// What identifies the job's result: its generation and the move count it started at.
    pub(crate) fn ticket(&self) -> (u64, u32) {
        (self.generation, self.k)
    }

    /// Runs the job (blocking; call it off the async threads). `observer` receives the
    /// polylines of the curve being drawn, for the page's animation.
    pub(crate) fn run(self, observer: &mut dyn FnMut(&[Point])) -> JobResult {
        let Job {
            generation,
            k,
            mut board,
            kind,
            stop,
        } = self;
        let outcome = match kind {
            JobKind::Computer {
                spec,
                player,
                seed,
                convention,
            } => computer_move(&mut board, &spec, convention, player, seed, &stop, observer),
            JobKind::Human {
                from,
                to,
                stroke,
                from_side,
                to_side,
                marks,
            } => human_move(
                &mut board, from, to, &stroke, from_side, to_side, &marks, observer,
            ),
            JobKind::Redraw => redraw(&mut board),
        };
        JobResult {
            generation,
            k,
            outcome: outcome.map(|(log, verdict)| Done {
                board,
                log,
                verdict,
            }),
        }
    }
}

/// The computer's move (spec 5, 5.9): the player of `sprouts_ai` chooses in the topological
/// layer alone (within the stop flag), then the move is drawn by [`draw_ladder`]; a move that
/// none of the ladder's steps can draw stops the game with a message.
#[allow(
    clippy::too_many_arguments,
    reason = "the fields of one request, unpacked"
)]
fn computer_move(
    board: &mut Board,
    spec: &str,
    convention: Convention,
    player: u8,
    seed: u64,
    stop: &Arc<AtomicBool>,
    observer: &mut dyn FnMut(&[Point]),
) -> Result<(Vec<String>, Option<String>), Refusal> {
    let colour = COLOURS[player as usize];
    let mut chooser = player_from_spec(spec, seed).map_err(|e| Refusal {
        status: format!("{colour}'s player `{spec}` is not known"),
        log: format!("{colour}: {e}"),
    })?;
    let limits = Limits::none().with_stop(Arc::clone(stop));
    let pos = board.position().clone();
    let start = std::time::Instant::now();
    let Some(choice) = chooser.choose(&pos, convention, &limits) else {
        return Err(Refusal {
            status: format!("{colour} has no move"),
            log: format!("{colour} ({spec}): no move in {}", pos.to_glop()),
        });
    };
    let mut log = vec![format!(
        "{colour} ({}): {}; {:.2} s; chose {}",
        chooser.name(),
        choice.report,
        start.elapsed().as_secs_f64(),
        choice.mv.describe(&pos)
    )];
    let verdict = choice.report.verdict.map(|v| match v {
        Outcome::Win => format!("{colour} has a winning position"),
        Outcome::Loss => format!("{colour} is lost against best play"),
    });
    match draw_ladder(board, &choice.mv, stop, observer, &mut log) {
        Ok(()) => Ok((log, verdict)),
        Err(refusal) => Err(Refusal {
            status: format!(
                "{colour}'s move {} could not be drawn: {refusal}; undo, or set the player to Human",
                choice.mv.describe(&pos)
            ),
            log: log.join("; "),
        }),
    }
}

/// What a fresh layout did, for the log.
fn fresh_words(r: &sprouts_draw::FreshReport) -> String {
    let mut s = format!(
        "{} vertices on a {} x {} grid, clearance {:.1} px after {} polish steps",
        r.vertices, r.grid.0, r.grid.1, r.clearance, r.iterations
    );
    if !r.smaller_spots.is_empty() {
        s.push_str(&format!(", {} spots drawn smaller", r.smaller_spots.len()));
    }
    if !r.straight_curves.is_empty() {
        s.push_str(&format!(
            ", {} curves left as polylines",
            r.straight_curves.len()
        ));
    }
    s
}

/// The whole picture drawn afresh (the Redraw button; Z of spec 4.6): a rearrangement, undoable.
fn redraw(board: &mut Board) -> Result<(Vec<String>, Option<String>), Refusal> {
    let started = std::time::Instant::now();
    match board.redraw_fresh(&sprouts_draw::FreshOptions::default()) {
        Ok(report) => Ok((
            vec![format!(
                "drawn afresh in {:.2} s: {}",
                started.elapsed().as_secs_f64(),
                fresh_words(&report)
            )],
            None,
        )),
        Err(e) => Err(Refusal {
            status: "the picture could not be drawn afresh (see the log)".into(),
            log: format!("redraw refused: {e}"),
        }),
    }
}

/// The most moves [`equivalent_moves`] examines (each needs the child's canonical form).
const EQUIVALENT_EXAMINED: usize = 4000;

/// The most equivalent moves the ladder tries to draw.
const EQUIVALENT_TRIED: usize = 24;

/// The time after which the ladder tries no further equivalent move.
const LADDER_BUDGET: std::time::Duration = std::time::Duration::from_secs(20);

/// The other moves of `pos` that give the same game as `mv` (spec 5.9: a move the router
/// refuses may be drawable as an equivalent move, drawn differently): the same game key, or the
/// same exact canonical form. In the order of [`sprouts_topo::Position::distinct_moves`], `mv` itself left
/// out; at most [`EQUIVALENT_EXAMINED`] moves are examined, and none once `stop` is set.
pub(crate) fn equivalent_moves(
    pos: &sprouts_topo::Position,
    mv: &sprouts_topo::Move,
    stop: &AtomicBool,
) -> Vec<sprouts_topo::Move> {
    let Ok(child) = pos.play(mv) else {
        return Vec::new();
    };
    let key = child.game_key();
    let form = child.canonical();
    let mut out = Vec::new();
    for other in pos.distinct_moves().take(EQUIVALENT_EXAMINED) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if other == *mv {
            continue;
        }
        let Ok(c) = pos.play(&other) else { continue };
        if c.game_key() == key {
            out.push(other);
            continue;
        }
        let f = c.canonical();
        if f.is_exact() && form.is_exact() && f == form {
            out.push(other);
        }
    }
    out
}

/// Draws the computer's move `mv` by the ladder of spec 4.1 / 5.9, logging every step:
/// 1. the move as chosen ([`Board::draw_move`], which itself tries the few nearest moves that
///    give the same game when the move chosen is refused; [`Board::draw_move_strict`] once
///    the stop flag is set);
/// 2. the other moves that give the same game ([`equivalent_moves`]), those step 1 did not
///    try, each drawn by [`Board::draw_move_strict`]; the game goes on as the player chose, its
///    picture differs;
/// 3. the chosen move drawn with the whole picture afresh ([`Board::draw_move_fresh`], Z of
///    spec 4.6), which needs no router.
///
/// Only when every step is refused is the first refusal returned (the board is then exactly as
/// it was). The stop flag ends step 2 (the search and the tries); step 3 still runs.
fn draw_ladder(
    board: &mut Board,
    mv: &sprouts_topo::Move,
    stop: &AtomicBool,
    observer: &mut dyn FnMut(&[Point]),
    log: &mut Vec<String>,
) -> Result<(), sprouts_draw::Refusal> {
    let pos = board.position().clone();
    let drawn_line = |d: &sprouts_draw::DrawnMove| {
        format!(
            "drawn with clearance {:.1} px ({:?})",
            d.clearance, d.method
        )
    };
    // Space (the stop flag) skips every search for equivalent moves, step 1's too.
    let drawn = if stop.load(Ordering::Relaxed) {
        board.draw_move_strict(mv, observer)
    } else {
        board.draw_move(mv, observer)
    };
    let first = match drawn {
        Ok(drawn) => {
            if let Some(e) = &drawn.equivalent_of {
                log.push(format!(
                    "ladder step 1, the move as chosen: refused ({})",
                    e.refusal.detail()
                ));
                for (w, r) in &e.refused {
                    log.push(format!(
                        "ladder step 1, equivalent move {w}: refused ({})",
                        r.detail()
                    ));
                }
                log.push(format!(
                    "ladder step 1: {} (the same game)",
                    e.words_with(&drawn.words)
                ));
            }
            log.push(drawn_line(&drawn));
            return Ok(());
        }
        Err(refusal) => refusal,
    };
    // The moves step 1 tried already, in words.
    let tried: Vec<String> = match &first {
        sprouts_draw::Refusal::Equivalents { tried, .. } => {
            tried.iter().map(|(w, _)| w.clone()).collect()
        }
        _ => Vec::new(),
    };
    log.push(format!(
        "ladder step 1, the move as chosen: refused ({})",
        first.detail()
    ));
    let started = std::time::Instant::now();
    if stop.load(Ordering::Relaxed) {
        log.push("ladder step 2 skipped: stop asked (Space)".into());
    }
    let others: Vec<_> = equivalent_moves(&pos, mv, stop)
        .into_iter()
        .filter(|m| !tried.contains(&m.describe(&pos)))
        .collect();
    log.push(format!(
        "ladder step 2: {} other moves give the same game (found in {:.2} s); trying up to {EQUIVALENT_TRIED}",
        others.len(),
        started.elapsed().as_secs_f64()
    ));
    for (i, other) in others.iter().take(EQUIVALENT_TRIED).enumerate() {
        if stop.load(Ordering::Relaxed) {
            log.push("ladder stopped (Space)".into());
            break;
        }
        if started.elapsed() > LADDER_BUDGET {
            log.push(format!(
                "ladder step 2 ended after {:.0} s",
                LADDER_BUDGET.as_secs_f64()
            ));
            break;
        }
        match board.draw_move_strict(other, observer) {
            Ok(drawn) => {
                log.push(format!(
                    "ladder step 2, equivalent move {} of {}: {} drawn instead; {}",
                    i + 1,
                    others.len(),
                    other.describe(&pos),
                    drawn_line(&drawn)
                ));
                return Ok(());
            }
            Err(r) => log.push(format!(
                "ladder step 2, equivalent move {}: {} refused ({})",
                i + 1,
                other.describe(&pos),
                r.detail()
            )),
        }
    }
    // Step 3 runs even after a stop (Space cuts the thinking short, not the drawing of the
    // move chosen): it is bounded and needs no search.
    let started = std::time::Instant::now();
    match board.draw_move_fresh(mv, &sprouts_draw::FreshOptions::default()) {
        Ok(fresh) => {
            log.push(format!(
                "ladder step 3: {} drawn with the whole picture afresh in {:.2} s; {}",
                fresh.words,
                started.elapsed().as_secs_f64(),
                fresh_words(&fresh.report)
            ));
            return Ok(());
        }
        Err(r) => log.push(format!(
            "ladder step 3, the picture afresh: refused ({})",
            r.detail()
        )),
    }
    log.push("ladder: every step refused; the game pauses".into());
    Err(first)
}

/// A human move (spec 3.1), drawn by [`Board::draw_request`]: the stroke if it is usable, else
/// the planner's way, enclosing the marked spots' boundaries when there are marks.
#[allow(
    clippy::too_many_arguments,
    reason = "the fields of one request, unpacked"
)]
fn human_move(
    board: &mut Board,
    from: SpotId,
    to: SpotId,
    stroke: &[Point],
    from_side: Option<Point>,
    to_side: Option<Point>,
    marks: &[SpotId],
    observer: &mut dyn FnMut(&[Point]),
) -> Result<(Vec<String>, Option<String>), Refusal> {
    let side = |p: Option<Point>| p.map_or(Side::Any, Side::Toward);
    let request = DrawRequest {
        from,
        from_side: side(from_side),
        to,
        to_side: side(to_side),
        enclose: (!marks.is_empty()).then(|| marks.to_vec()),
        stroke: (stroke.len() >= 2).then(|| stroke.to_vec()),
    };
    match board.draw_request(&request, observer) {
        Ok(drawn) => Ok((
            vec![format!(
                "drawn {} ({:?}), certified clearance {:.1} px",
                drawn.words, drawn.method, drawn.clearance
            )],
            None,
        )),
        Err(refusal) => Err(Refusal {
            status: refusal.to_string(),
            log: refusal.detail(),
        }),
    }
}

/// What the session answers: messages for the page, and maybe a job to run.
#[derive(Debug, Default)]
pub(crate) struct Reply {
    /// Messages to send, in order.
    pub msgs: Vec<ServerMsg>,
    /// Work to run off the async threads; its result goes to [`Session::finish`].
    pub job: Option<Job>,
    /// The lit destinations to find off the async threads; the result goes to
    /// [`Session::finish_reach`].
    pub reach: Option<ReachJob>,
    /// A game's board to build off the async threads (New game, Load); the result goes to
    /// [`Session::finish_setup`].
    pub setup: Option<SetupJob>,
}

/// What a [`SetupJob`] builds.
#[derive(Debug)]
enum SetupKind {
    /// A new game's board: the spots placed in the drawing area.
    New {
        spots: u32,
        world: WorldSize,
        settings: Settings,
    },
    /// A saved game, parsed and replayed by the loader.
    Load { json: String },
}

/// The game a [`SetupJob`] is for, kept for when its board comes back.
#[derive(Debug, Clone)]
enum SetupFor {
    New {
        spots: u32,
        players: [PlayerSpec; 2],
        first: u8,
        convention: ConventionName,
    },
    Load,
}

/// Building the board of a new or loaded game, to run on a blocking thread: placing the spots
/// is quick, but the loader replays and checks every curve of a saved game, which takes a
/// while for a large one (it is bounded by the loader's limits, not by a stop flag).
#[derive(Debug)]
pub(crate) struct SetupJob {
    generation: u64,
    kind: SetupKind,
    for_game: SetupFor,
}

/// What a [`SetupJob`] built.
#[derive(Debug)]
pub(crate) struct SetupResult {
    generation: u64,
    for_game: SetupFor,
    outcome: Result<Board, String>,
}

impl SetupJob {
    /// Builds the board (blocking; call it off the async threads). Never panics on a bad
    /// saved game: the loader's errors come back as the result's error.
    pub(crate) fn run(self) -> SetupResult {
        let outcome = match self.kind {
            SetupKind::New {
                spots,
                world,
                settings,
            } => Board::new(spots, world, settings)
                .map_err(|e| format!("cannot start the game: {e}")),
            SetupKind::Load { json } => match Board::from_json(&json) {
                Err(e) => Err(format!("cannot load that game: {e}")),
                Ok(board) => {
                    let w = board.drawing().world();
                    if (WORLD_MIN..=WORLD_MAX).contains(&w.width)
                        && (WORLD_MIN..=WORLD_MAX).contains(&w.height)
                    {
                        Ok(board)
                    } else {
                        Err("the saved game's drawing area is out of range".into())
                    }
                }
            },
        };
        SetupResult {
            generation: self.generation,
            for_game: self.for_game,
            outcome,
        }
    }

    /// The result of a setup job that panicked: an error, the game unchanged.
    pub(crate) fn failed(generation: u64, what: &str) -> SetupResult {
        SetupResult {
            generation,
            for_game: SetupFor::Load,
            outcome: Err(format!(
                "the game could not be set up (an internal error: {what})"
            )),
        }
    }

    /// The job's generation (for [`SetupJob::failed`]).
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }
}

/// Finding the spots a press can reach (router work, spec 3.1), to run on a blocking thread:
/// it shares the board's picture as it was when asked.
#[derive(Debug)]
pub(crate) struct ReachJob {
    k: u32,
    version: u64,
    from: u32,
    toward: Point,
    board: Arc<Board>,
}

/// What a [`ReachJob`] found.
#[derive(Debug)]
pub(crate) struct ReachResult {
    k: u32,
    version: u64,
    from: u32,
    spots: Vec<u32>,
}

impl ReachJob {
    /// Runs the router's reachability (blocking; call it off the async threads).
    pub(crate) fn run(self) -> ReachResult {
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
pub(crate) struct Session {
    id: String,
    greeted: bool,
    game: Option<Game>,
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
    /// The generation of the latest New game or Load being set up; an older one's board is
    /// dropped when it comes back.
    setup_generation: u64,
}

impl Session {
    /// A new session with its id and a seed for the computer's random choices.
    pub(crate) fn new(id: String, seed: u64) -> Session {
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
        }
    }

    /// The session's id.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// The log so far, one line per entry.
    pub(crate) fn log_text(&self) -> String {
        let mut s = self.log.join("\n");
        s.push('\n');
        s
    }

    /// The state message, if a game is on.
    pub(crate) fn state(&self) -> Option<ServerMsg> {
        self.game
            .as_ref()
            .map(|g| ServerMsg::State(Box::new(self.state_of(g))))
    }

    fn note(&mut self, line: String, out: &mut Vec<ServerMsg>) {
        tracing::debug!(session = %self.id, "{line}");
        self.log.push(line.clone());
        out.push(ServerMsg::Log { line });
    }

    fn error(message: impl Into<String>) -> Reply {
        Reply {
            msgs: vec![ServerMsg::Error {
                message: message.into(),
            }],
            job: None,
            reach: None,
            setup: None,
        }
    }

    /// Handles one text message from the page.
    pub(crate) fn handle_text(&mut self, text: &str) -> Reply {
        match decode(text) {
            Ok(msg) => self.handle(msg),
            Err(e) => Self::error(e.to_string()),
        }
    }

    /// Handles one decoded message.
    pub(crate) fn handle(&mut self, msg: ClientMsg) -> Reply {
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
            }];
            msgs.extend(self.state());
            return Reply {
                msgs,
                job: None,
                reach: None,
                setup: None,
            };
        }
        if !self.greeted {
            return Self::error("the first message must be hello");
        }
        let session = match &msg {
            ClientMsg::Hello { .. } => unreachable!("handled above"),
            ClientMsg::NewGame { session, .. }
            | ClientMsg::Reach { session, .. }
            | ClientMsg::Draw { session, .. }
            | ClientMsg::Redraw { session, .. }
            | ClientMsg::Undo { session, .. }
            | ClientMsg::Redo { session, .. }
            | ClientMsg::Pause { session, .. }
            | ClientMsg::Stop { session }
            | ClientMsg::Save { session }
            | ClientMsg::SaveLog { session }
            | ClientMsg::Load { session, .. }
            | ClientMsg::Settings { session, .. }
            | ClientMsg::Players { session, .. } => session,
        };
        if *session != self.id {
            return Self::error(
                "this message is for another session: a page can act only on its own game",
            );
        }
        match msg {
            ClientMsg::Hello { .. } => unreachable!("handled above"),
            ClientMsg::NewGame {
                spots,
                convention,
                players,
                first,
                width,
                height,
                ..
            } => self.new_game(spots, convention, players, first, width, height),
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
            ClientMsg::Redraw { k, .. } => self.redraw(k),
            ClientMsg::Undo { k, .. } => self.undo_redo(k, true),
            ClientMsg::Redo { k, .. } => self.undo_redo(k, false),
            ClientMsg::Pause { paused, .. } => self.pause(paused),
            ClientMsg::Stop { .. } => {
                if let Some((_, flag)) = &self.running {
                    flag.store(true, Ordering::Relaxed);
                    let mut msgs = Vec::new();
                    self.note(
                        "stop asked: the computation ends with what it has".into(),
                        &mut msgs,
                    );
                    Reply {
                        msgs,
                        job: None,
                        reach: None,
                        setup: None,
                    }
                } else {
                    Self::error("nothing is running to stop")
                }
            }
            ClientMsg::Save { .. } => match &self.game {
                Some(g) => Reply {
                    msgs: vec![ServerMsg::Saved {
                        json: SavedGame::from_board(&g.board).to_json(),
                    }],
                    job: None,
                    reach: None,
                    setup: None,
                },
                None => Self::error("there is no game to save"),
            },
            ClientMsg::SaveLog { .. } => Reply {
                msgs: vec![ServerMsg::LogText {
                    text: self.log_text(),
                }],
                job: None,
                reach: None,
                setup: None,
            },
            ClientMsg::Load { json, .. } => self.load(json),
            ClientMsg::Settings { settings, .. } => self.settings(settings),
            ClientMsg::Players { players, .. } => self.set_players(players),
        }
    }

    fn check_players(players: &[PlayerSpec; 2]) -> Result<(), String> {
        for p in players {
            if let PlayerSpec::Computer { spec } = p {
                check_spec(spec)?;
            }
        }
        Ok(())
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
        if let Err(e) = Self::check_players(&players) {
            return Self::error(e);
        }
        let settings = self
            .game
            .as_ref()
            .map_or_else(Settings::default, |g| *g.board.settings());
        self.start_setup(
            SetupKind::New {
                spots,
                world: WorldSize::new(width.round(), height.round()),
                settings,
            },
            SetupFor::New {
                spots,
                players,
                first,
                convention,
            },
        )
    }

    /// Starts building a game's board off the async threads; a setup asked for earlier is
    /// dropped when it comes back. The game now in play goes on until the new one is ready.
    fn start_setup(&mut self, kind: SetupKind, for_game: SetupFor) -> Reply {
        self.setup_generation += 1;
        Reply {
            setup: Some(SetupJob {
                generation: self.setup_generation,
                kind,
                for_game,
            }),
            ..Reply::default()
        }
    }

    /// Takes a built board: the new or loaded game replaces the one in play (its computation
    /// is stopped), unless a later New game or Load was asked for meanwhile. A board that
    /// could not be built is an error, and the game in play goes on unchanged.
    pub(crate) fn finish_setup(&mut self, result: SetupResult) -> Reply {
        if result.generation != self.setup_generation {
            return Reply::default();
        }
        let board = match result.outcome {
            Ok(b) => b,
            Err(e) => return Self::error(e),
        };
        self.stop_running();
        self.games += 1;
        let mut msgs = Vec::new();
        match result.for_game {
            SetupFor::New {
                spots,
                players,
                first,
                convention,
            } => {
                let game = Game {
                    board,
                    players,
                    first,
                    convention,
                    paused: false,
                    refusal: None,
                    verdict: None,
                    number: self.games,
                };
                let line = format!(
                    "game {}: {spots} spots, {} play, Blue: {}, Red: {}, {} starts; Drawing area is {} x {}",
                    game.number,
                    match convention {
                        ConventionName::Normal => "normal",
                        ConventionName::Misere => "misère",
                    },
                    player_words(&game.players[0]),
                    player_words(&game.players[1]),
                    COLOURS[first as usize],
                    game.board.drawing().world().width,
                    game.board.drawing().world().height,
                );
                self.game = Some(game);
                self.note(line, &mut msgs);
            }
            SetupFor::Load => {
                let w = board.drawing().world();
                let (players, first, convention) = match &self.game {
                    Some(g) => (g.players.clone(), g.first, g.convention),
                    None => (
                        [PlayerSpec::Human, PlayerSpec::Human],
                        0,
                        ConventionName::Normal,
                    ),
                };
                let game = Game {
                    board,
                    players,
                    first,
                    convention,
                    // A loaded game waits for the person to go on when a computer is to move.
                    paused: true,
                    refusal: None,
                    verdict: None,
                    number: self.games,
                };
                let line = format!(
                    "game {}: loaded, {} moves, Drawing area is {} x {}",
                    game.number,
                    game.k(),
                    w.width,
                    w.height
                );
                self.game = Some(game);
                self.note(line, &mut msgs);
                if let Some(g) = &mut self.game
                    && g.computer_to_move().is_none()
                {
                    g.paused = false;
                }
            }
        }
        self.after_change(msgs)
    }

    /// The game, if the message's `k` is current.
    fn current(&self, k: u32) -> Result<&Game, String> {
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

    fn spot_id(g: &Game, n: u32) -> Result<SpotId, String> {
        SpotId::new(n)
            .filter(|s| g.board.position().lives(*s).is_some())
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
                let b = Arc::new(g.board.clone());
                self.shared = Some((self.version, Arc::clone(&b)));
                b
            }
        };
        Reply {
            msgs: Vec::new(),
            job: None,
            reach: Some(ReachJob {
                k,
                version: self.version,
                from,
                toward: Point::new(toward[0], toward[1]),
                board,
            }),
            setup: None,
        }
    }

    /// Takes a reach job's result: the lit spots, unless the board changed meanwhile.
    pub(crate) fn finish_reach(&mut self, result: ReachResult) -> Reply {
        let current =
            self.game.as_ref().is_some_and(|g| g.k() == result.k) && self.version == result.version;
        Reply {
            msgs: if current {
                vec![ServerMsg::Reachable {
                    from: result.from,
                    spots: result.spots,
                }]
            } else {
                Vec::new()
            },
            job: None,
            reach: None,
            setup: None,
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
        if g.is_over() {
            return Self::error("the game is over");
        }
        if g.players[g.to_move() as usize] != PlayerSpec::Human {
            return Self::error("it is the computer's turn, not a person's");
        }
        let (from, to) = match (Self::spot_id(g, from), Self::spot_id(g, to)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(r), _) | (_, Err(r)) => return Self::error(r),
        };
        // The rules before the picture: a curve needs a life at each end (two for a loop).
        let lives = |s: SpotId| g.board.position().lives(s).map_or(0, |l| l.get());
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
        if stroke.len() > 100_000 {
            return Self::error("the stroke has too many points");
        }
        let mut mark_ids = Vec::new();
        for m in marks {
            match Self::spot_id(g, m) {
                Ok(s) => mark_ids.push(s),
                Err(r) => return Self::error(r),
            }
        }
        let pt = |p: [f64; 2]| Point::new(p[0], p[1]);
        let kind = JobKind::Human {
            from,
            to,
            stroke: stroke.into_iter().map(pt).collect(),
            from_side: from_side.map(pt),
            to_side: to_side.map(pt),
            marks: mark_ids,
        };
        let job = self.start_job(kind);
        let mut reply = Reply::default();
        reply.msgs.extend(self.state());
        reply.job = Some(job);
        reply
    }

    /// The Redraw button: the whole picture drawn afresh, as a job.
    fn redraw(&mut self, k: u32) -> Reply {
        if self.running.is_some() {
            return Self::error("busy: a move is being made; wait for it or press Space");
        }
        if let Err(r) = self.current(k) {
            return Self::error(r);
        }
        let job = self.start_job(JobKind::Redraw);
        let mut reply = Reply::default();
        reply.msgs.extend(self.state());
        reply.job = Some(job);
        reply
    }

    fn start_job(&mut self, kind: JobKind) -> Job {
        self.generation += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.running = Some((self.generation, Arc::clone(&stop)));
        let g = self.game.as_ref().expect("a job needs a game");
        Job {
            generation: self.generation,
            k: g.k(),
            board: g.board.clone(),
            kind,
            stop,
        }
    }

    /// The board changed (or may have): reach answers for the old one are dropped.
    fn changed(&mut self) {
        self.version += 1;
        self.shared = None;
    }

    fn stop_running(&mut self) {
        if let Some((_, flag)) = self.running.take() {
            flag.store(true, Ordering::Relaxed);
        }
        self.generation += 1;
    }

    /// Takes a job's result: applies it if it is still current, and starts what comes next.
    pub(crate) fn finish(&mut self, result: JobResult) -> Reply {
        if self.running.as_ref().map(|r| r.0) != Some(result.generation) {
            // A job the session has moved on from (undo, new game, load): dropped.
            return Reply::default();
        }
        self.running = None;
        let Some(g) = &mut self.game else {
            return Reply::default();
        };
        if g.k() != result.k {
            return Reply::default();
        }
        let mut msgs = Vec::new();
        match result.outcome {
            Ok(done) => {
                let mover = g.to_move();
                let k_before = g.k();
                g.board = done.board;
                g.refusal = None;
                let k = g.k();
                if let Some(v) = done.verdict {
                    g.verdict = Some((k, v));
                }
                let line = if k == k_before {
                    "redraw: the whole picture drawn afresh (undo puts it back)".to_string()
                } else {
                    let words = g
                        .board
                        .moves()
                        .last()
                        .map_or_else(String::new, |m| m.words.clone());
                    format!("move {k} ({}): {words}", COLOURS[mover as usize])
                };
                self.note(line, &mut msgs);
                for l in done.log {
                    self.note(format!("  {l}"), &mut msgs);
                }
            }
            Err(refusal) => {
                g.refusal = Some(refusal.status.clone());
                let line = format!("refused: {}", refusal.status);
                self.note(line, &mut msgs);
                self.note(format!("  {}", refusal.log), &mut msgs);
                msgs.push(ServerMsg::Refused {
                    reason: refusal.status,
                });
                // A computer that cannot draw stops the game until a person acts.
                if let Some(g) = &mut self.game
                    && g.computer_to_move().is_some()
                {
                    g.paused = true;
                }
            }
        }
        self.after_change(msgs)
    }

    /// After the game changed: the log line at the end, the state, and the computer's job.
    fn after_change(&mut self, mut msgs: Vec<ServerMsg>) -> Reply {
        self.changed();
        let mut job = None;
        if let Some(g) = &self.game
            && g.is_over()
            && !self.log.last().is_some_and(|l| l.starts_with("game over"))
        {
            {
                let w = g.winner().unwrap_or(0);
                let line = format!(
                    "game over after {} moves: {} wins",
                    g.k(),
                    COLOURS[w as usize]
                );
                self.note(line, &mut msgs);
            }
        }
        if let Some(g) = &self.game
            && self.running.is_none()
            && !g.paused
            && let Some(spec) = g.computer_to_move()
        {
            let player = g.to_move();
            let seed = self.rng.random();
            let convention = match g.convention {
                ConventionName::Normal => Convention::Normal,
                ConventionName::Misere => Convention::Misere,
            };
            job = Some(self.start_job(JobKind::Computer {
                spec,
                player,
                seed,
                convention,
            }));
        }
        msgs.extend(self.state());
        Reply {
            msgs,
            job,
            reach: None,
            setup: None,
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
        let mut steps: Vec<Vec<StepKind>> = Vec::new();
        loop {
            let step = if undo { g.board.undo() } else { g.board.redo() };
            let Some(step) = step else { break };
            steps.push(step);
            // Against the computer, go back (or on) to a person's turn.
            let more = if undo {
                g.board.can_undo()
            } else {
                g.board.can_redo()
            };
            if !(g.has_human() && g.computer_to_move().is_some() && more) {
                break;
            }
        }
        if steps.is_empty() {
            if was_running {
                let mut msgs = Vec::new();
                if let Some(g) = &mut self.game {
                    g.paused = true;
                }
                self.note("the computer's move was stopped".into(), &mut msgs);
                msgs.extend(self.state());
                return Reply {
                    msgs,
                    job: None,
                    reach: None,
                    setup: None,
                };
            }
            return Self::error(if undo {
                "there is nothing to undo"
            } else {
                "there is nothing to redo"
            });
        }
        g.refusal = None;
        // Between computers, undo and redo pause the game.
        if g.computer_to_move().is_some() {
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

    fn load(&mut self, json: String) -> Reply {
        self.start_setup(SetupKind::Load { json }, SetupFor::Load)
    }

    fn settings(&mut self, s: SettingsMsg) -> Reply {
        let Some(g) = &mut self.game else {
            return Self::error("there is no game: the settings belong to a game");
        };
        let settings = Settings {
            min_clearance: s.min_clearance,
            comfort_distance: s.comfort_distance,
            room_vs_length: s.room_vs_length,
            spot_radius: g.board.settings().spot_radius,
        };
        if let Err(e) = g.board.set_settings(settings) {
            return Self::error(format!(
                "{e}: the clearance must be positive and below the comfort distance"
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
        Reply {
            msgs,
            job: None,
            reach: None,
            setup: None,
        }
    }

    fn set_players(&mut self, players: [PlayerSpec; 2]) -> Reply {
        if let Err(e) = Self::check_players(&players) {
            return Self::error(e);
        }
        let Some(g) = &mut self.game else {
            return Self::error("there is no game");
        };
        g.players = players;
        let line = format!(
            "players: Blue: {}, Red: {}",
            player_words(&g.players[0]),
            player_words(&g.players[1])
        );
        let mut msgs = Vec::new();
        self.note(line, &mut msgs);
        self.after_change(msgs)
    }

    fn state_of(&self, g: &Game) -> StateMsg {
        let board = &g.board;
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
            human_to_move: g.players[g.to_move() as usize] == PlayerSpec::Human,
            over: g.is_over(),
            winner: g.winner(),
            status: self.status_line(g),
            can_undo: board.can_undo(),
            can_redo: board.can_redo(),
            paused: g.paused,
            busy: self.running.is_some(),
            players: g.players.clone(),
            convention: g.convention,
            settings: SettingsMsg {
                min_clearance: settings.min_clearance,
                comfort_distance: settings.comfort_distance,
                room_vs_length: settings.room_vs_length,
            },
            moves: board.moves().iter().map(|m| m.words.clone()).collect(),
            glop: pos.to_glop(),
        }
    }

    /// The status line (spec 5.8, 4.2): whose turn, lives, bounds on the moves left, a proved
    /// verdict, the last refusal; the winner when the game is over.
    fn status_line(&self, g: &Game) -> String {
        let pos = g.board.position();
        let w = g.board.drawing().world();
        if let Some(winner) = g.winner() {
            let loser = 1 - winner;
            let why = match g.convention {
                ConventionName::Normal => format!("{} cannot move", COLOURS[loser as usize]),
                ConventionName::Misere => format!(
                    "{} cannot move and wins in misère play",
                    COLOURS[winner as usize]
                ),
            };
            return format!(
                "{} wins: {why}. Game over after {} moves.",
                COLOURS[winner as usize],
                g.k()
            );
        }
        let mover = g.to_move() as usize;
        let mut parts = Vec::new();
        if let Some(r) = &g.refusal {
            parts.push(format!("Refused: {r}."));
        }
        let who = match &g.players[mover] {
            PlayerSpec::Human => format!("{} to move", COLOURS[mover]),
            PlayerSpec::Computer { spec } => {
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
        let lives = pos.total_lives();
        parts.push(format!("{lives} lives"));
        let b = bounds(pos);
        parts.push(format!("moves left: M = {}, m = {}", b.upper, b.lower));
        if let Some((k, v)) = &g.verdict
            && *k == g.k()
        {
            parts.push(v.clone());
        }
        parts.push(format!("Drawing area is {} x {}", w.width, w.height));
        parts.join(" · ")
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
pub(crate) fn check_spec(spec: &str) -> Result<(), String> {
    player_from_spec(spec, 0).map_err(|e| format!("unknown player `{spec}`: {e}"))?;
    if let Some(n) = spec.trim().strip_prefix("montecarlo:")
        && let Ok(n) = n.trim().parse::<u64>()
        && n > MONTE_CARLO_GAMES_MAX
    {
        return Err(format!(
            "`{spec}`: at most {MONTE_CARLO_GAMES_MAX} games a candidate (or a time, such as montecarlo:10s)"
        ));
    }
    Ok(())
}

/// The most random games a candidate a page may ask a Monte Carlo player for.
pub(crate) const MONTE_CARLO_GAMES_MAX: u64 = 100_000;
