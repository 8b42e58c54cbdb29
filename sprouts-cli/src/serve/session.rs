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
use sprouts_draw::{Board, SavedGame, Settings, StepKind, WorldSize};
use sprouts_geom::Point;
use sprouts_topo::SpotId;

use super::protocol::{
    ClientMsg, ConventionName, PROTOCOL_VERSION, PlayerSpec, ServerMsg, SettingsMsg, SpotMsg,
    StateMsg, decode,
};
use super::sketch::{self, Planner, SketchError, Sketched};

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

impl Job {
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
            JobKind::Computer { spec, player, seed } => {
                computer_move(&mut board, &spec, player, seed, &stop, observer)
            }
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

/// The computer's move: for now a random move the planner can draw (spot pairs in random order,
/// the shortest way between them), standing in for the players of `sprouts_ai`.
fn computer_move(
    board: &mut Board,
    spec: &str,
    player: u8,
    seed: u64,
    stop: &AtomicBool,
    observer: &mut dyn FnMut(&[Point]),
) -> Result<(Vec<String>, Option<String>), Refusal> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let pos = board.position().clone();
    let alive: Vec<(SpotId, u8)> = pos
        .spots()
        .filter(|(_, l)| l.get() > 0)
        .map(|(s, l)| (s, l.get()))
        .collect();
    let mut pairs: Vec<(SpotId, SpotId)> = Vec::new();
    for (i, &(a, la)) in alive.iter().enumerate() {
        if la >= 2 {
            pairs.push((a, a));
        }
        for &(b, _) in &alive[i + 1..] {
            pairs.push((a, b));
        }
    }
    // Shuffle.
    for i in (1..pairs.len()).rev() {
        let j = rng.random_range(0..=i);
        pairs.swap(i, j);
    }
    let tried = pairs.len();
    for (a, b) in pairs {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let planner = Planner::new(board);
        let Some(points) = planner.route(a, b, None, None) else {
            continue;
        };
        observer(&points);
        let Ok(s) = sketch_from_route(board, a, b, &points, planner.cell()) else {
            continue;
        };
        let words = s.mv.describe(board.position());
        if sketch::play(board, &s).is_ok() {
            let log = vec![format!(
                "{} ({}, {spec}): {} spot pairs in random order, drew {words} the shortest way",
                COLOURS[player as usize], "computer", tried
            )];
            return Ok((log, None));
        }
    }
    Err(Refusal {
        status: format!(
            "{} found no move it could draw; undo, or set the player to Human",
            COLOURS[player as usize]
        ),
        log: format!(
            "{} ({spec}): none of {tried} spot pairs could be drawn with clearance {}",
            COLOURS[player as usize],
            board.settings().min_clearance
        ),
    })
}

/// A sketched move along a planner route: fitted, and if the fit meets something, the route's
/// polyline itself.
fn sketch_from_route(
    board: &Board,
    from: SpotId,
    to: SpotId,
    points: &[Point],
    cell: f64,
) -> Result<Sketched, SketchError> {
    let thinned = sketch::thin(points, 2);
    let mut last = SketchError::NoMove;
    for tol in [0.6 * cell, 0.25 * cell] {
        match sketch::fit_points(&thinned, tol)
            .and_then(|spline| sketch::identify(board, from, to, &spline).map(|mv| (mv, spline)))
        {
            Ok((mv, spline)) => return Ok(Sketched { mv, spline }),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// A human move: the stroke if it is usable, else the planner's shortest way.
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
    let pos = board.position().clone();
    for s in [from, to] {
        match pos.lives(s) {
            None => {
                return Err(Refusal {
                    status: format!("there is no spot {s}"),
                    log: format!("refused: no spot {s}"),
                });
            }
            Some(l) if l.get() == 0 => {
                return Err(Refusal {
                    status: format!("spot {s} has no life left"),
                    log: format!("refused: spot {s} has no life left"),
                });
            }
            _ => {}
        }
    }
    if from == to && pos.lives(from).is_some_and(|l| l.get() < 2) {
        return Err(Refusal {
            status: format!("a loop at {from} needs two lives and it has one"),
            log: format!("refused: loop at {from} with one life"),
        });
    }
    let shares_region = pos.families().iter().any(|f| {
        let (a, b) = f.spots();
        (a, b) == (from, to) || (b, a) == (from, to)
    });
    if !shares_region {
        return Err(Refusal {
            status: format!("no curve can join {from} and {to}: they are not on a common region"),
            log: format!("refused: {from} and {to} share no live region"),
        });
    }
    let centre = |s: SpotId| board.drawing().spot(s).map(|d| d.centre);
    let (Some(ca), Some(cb)) = (centre(from), centre(to)) else {
        return Err(Refusal {
            status: "that spot is not in the picture".into(),
            log: "refused: spot missing from the picture".into(),
        });
    };
    let mut log = Vec::new();
    let mut why_stroke = String::new();
    // The stroke: its points outside the two spots' discs, from centre to centre.
    if stroke.len() >= 2 {
        let ra = board.drawing().spot(from).map_or(0.0, |s| s.radius);
        let rb = board.drawing().spot(to).map_or(0.0, |s| s.radius);
        let mut pts = vec![ca];
        pts.extend(
            stroke
                .iter()
                .copied()
                .filter(|p| (p - ca).norm() > ra + 1.0 && (p - cb).norm() > rb + 1.0),
        );
        pts.push(cb);
        if pts.len() >= 3 {
            observer(&pts);
            match sketch::fit_points(&pts, sprouts_geom::DRAWING_FIT_TOLERANCE).and_then(|spline| {
                sketch::identify(board, from, to, &spline).map(|mv| (mv, spline))
            }) {
                Ok((mv, spline)) => {
                    if sketch::honours_marks(&pos, &mv, marks) {
                        let s = Sketched { mv, spline };
                        let words = s.mv.describe(&pos);
                        match sketch::play(board, &s) {
                            Ok(()) => {
                                log.push(format!("the stroke was followed: {words}"));
                                return Ok((log, None));
                            }
                            Err(e) => why_stroke = e,
                        }
                    } else {
                        why_stroke = format!(
                            "the stroke encloses other spots than the marked ones ({})",
                            s_list(marks)
                        );
                    }
                }
                Err(e) => why_stroke = describe_sketch_error(&e),
            }
        }
    }
    // The planner's shortest way.
    let planner = Planner::new(board);
    let cell = planner.cell();
    let route = planner.route(from, to, from_side.or(stroke.first().copied()), to_side);
    drop(planner);
    let Some(points) = route else {
        let status = format!("no way from {from} to {to} on that side keeps the minimum clearance");
        return Err(Refusal {
            log: format!(
                "refused: {status} (clearance {:.1} px, grid cells {:.1} px){}",
                board.settings().min_clearance,
                cell,
                if why_stroke.is_empty() {
                    String::new()
                } else {
                    format!("; the stroke: {why_stroke}")
                }
            ),
            status,
        });
    };
    observer(&points);
    match sketch_from_route(board, from, to, &points, cell) {
        Ok(s) => {
            if !sketch::honours_marks(&pos, &s.mv, marks) {
                let status = format!(
                    "the shortest way does not enclose exactly the marked spots ({}); draw the curve round them",
                    s_list(marks)
                );
                return Err(Refusal {
                    log: format!(
                        "refused: {status}; the shortest way would be {}",
                        s.mv.describe(&pos)
                    ),
                    status,
                });
            }
            let words = s.mv.describe(&pos);
            sketch::play(board, &s).map_err(|e| Refusal {
                status: format!("the curve from {from} to {to} could not be drawn"),
                log: format!("refused by the authority check: {e}"),
            })?;
            if !why_stroke.is_empty() {
                log.push(format!("the stroke was not usable ({why_stroke})"));
            }
            log.push(format!("drawn the shortest way: {words}"));
            Ok((log, None))
        }
        Err(e) => Err(Refusal {
            status: format!("the curve from {from} to {to} could not be drawn"),
            log: format!(
                "refused: the route could not be made a curve: {}",
                describe_sketch_error(&e)
            ),
        }),
    }
}

fn describe_sketch_error(e: &SketchError) -> String {
    match e {
        SketchError::Fit(s) => format!("no curve through it: {s}"),
        SketchError::Meets(s) => format!("it meets the picture: {s}"),
        SketchError::NoMove => "it makes no legal move".into(),
    }
}

fn s_list(spots: &[SpotId]) -> String {
    spots
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the session answers: messages for the page, and maybe a job to run.
#[derive(Debug, Default)]
pub(crate) struct Reply {
    /// Messages to send, in order.
    pub msgs: Vec<ServerMsg>,
    /// Work to run off the async threads; its result goes to [`Session::finish`].
    pub job: Option<Job>,
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
            return Reply { msgs, job: None };
        }
        if !self.greeted {
            return Self::error("the first message must be hello");
        }
        let session = match &msg {
            ClientMsg::Hello { .. } => unreachable!("handled above"),
            ClientMsg::NewGame { session, .. }
            | ClientMsg::Reach { session, .. }
            | ClientMsg::Draw { session, .. }
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
                    Reply { msgs, job: None }
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
                },
                None => Self::error("there is no game to save"),
            },
            ClientMsg::SaveLog { .. } => Reply {
                msgs: vec![ServerMsg::LogText {
                    text: self.log_text(),
                }],
                job: None,
            },
            ClientMsg::Load { json, .. } => self.load(&json),
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
        let board = match Board::new(
            spots,
            WorldSize::new(width.round(), height.round()),
            settings,
        ) {
            Ok(b) => b,
            Err(e) => return Self::error(format!("cannot start the game: {e}")),
        };
        self.stop_running();
        self.games += 1;
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
        let mut msgs = Vec::new();
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
        let from_id = match Self::spot_id(g, from) {
            Ok(s) => s,
            Err(r) => return Self::error(r),
        };
        if !(toward[0].is_finite() && toward[1].is_finite()) {
            return Self::error("`toward` must be a finite point");
        }
        let t = Point::new(toward[0], toward[1]);
        let spots = if g
            .board
            .position()
            .lives(from_id)
            .is_some_and(|l| l.get() > 0)
        {
            Planner::new(&g.board)
                .reachable(from_id, Some(t))
                .into_iter()
                .map(SpotId::get)
                .collect()
        } else {
            Vec::new()
        };
        Reply {
            msgs: vec![ServerMsg::Reachable { from, spots }],
            job: None,
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
                let before = g.board.position().clone();
                let mover = g.to_move();
                g.board = done.board;
                g.refusal = None;
                let k = g.k();
                if let Some(v) = done.verdict {
                    g.verdict = Some((k, v));
                }
                let words = g
                    .board
                    .moves()
                    .last()
                    .map_or_else(String::new, |m| m.words.clone());
                let _ = before;
                let line = format!("move {k} ({}): {words}", COLOURS[mover as usize]);
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
            job = Some(self.start_job(JobKind::Computer { spec, player, seed }));
        }
        msgs.extend(self.state());
        Reply { msgs, job }
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
                return Reply { msgs, job: None };
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

    fn load(&mut self, json: &str) -> Reply {
        let board = match Board::from_json(json) {
            Ok(b) => b,
            Err(e) => return Self::error(format!("cannot load that game: {e}")),
        };
        let w = board.drawing().world();
        if !(WORLD_MIN..=WORLD_MAX).contains(&w.width)
            || !(WORLD_MIN..=WORLD_MAX).contains(&w.height)
        {
            return Self::error("the saved game's drawing area is out of range");
        }
        self.stop_running();
        self.games += 1;
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
        let mut msgs = Vec::new();
        self.note(line, &mut msgs);
        if let Some(g) = &mut self.game
            && g.computer_to_move().is_none()
        {
            g.paused = false;
        }
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
            spot_radius: g.board.settings().spot_radius,
        };
        if let Err(e) = g.board.set_settings(settings) {
            return Self::error(format!(
                "{e}: the clearance must be positive and below the comfort distance"
            ));
        }
        let mut msgs = Vec::new();
        self.note(
            format!(
                "settings: minimum clearance {}, comfort distance {}, room vs length {}",
                s.min_clearance, s.comfort_distance, s.room_vs_length
            ),
            &mut msgs,
        );
        msgs.extend(self.state());
        Reply { msgs, job: None }
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
        // Every move takes one life and the last leaves one at least.
        parts.push(format!("at most {} moves left", lives.saturating_sub(1)));
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

/// Checks a player spec's form (`random`, `montecarlo:N`, `parity-fast:Ts`,
/// `parity-sharp:depth=D`, `perfect:Ts`).
pub(crate) fn check_spec(spec: &str) -> Result<(), String> {
    let (kind, arg) = spec.split_once(':').unwrap_or((spec, ""));
    let ok = match kind {
        "random" => arg.is_empty(),
        "montecarlo" => arg.is_empty() || arg.parse::<u32>().is_ok_and(|n| n > 0),
        "parity-fast" | "perfect" | "parity-sharp" => {
            arg.is_empty()
                || arg
                    .strip_suffix('s')
                    .and_then(|t| t.parse::<f64>().ok())
                    .is_some_and(|t| t.is_finite() && t > 0.0 && t <= 3600.0)
                || arg
                    .strip_prefix("depth=")
                    .is_some_and(|d| d.parse::<u32>().is_ok_and(|d| (1..=200).contains(&d)))
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "unknown player `{spec}`: use random, montecarlo:N, parity-fast:Ts, parity-sharp:depth=D or perfect:Ts"
        ))
    }
}
