//! Jobs: the slow part of an action (a computer thinking, a curve being drawn, the picture
//! drawn afresh) as a value that owns what it needs, so a frontend can run it on another
//! thread and stop it, while the game stays where it was until [`crate::Game::finish`].

use std::sync::{Arc, Mutex};
use std::time::Instant;

use sprouts_ai::Limits;
use sprouts_ai::impartial::{Convention, Outcome};
use sprouts_ai::players::{Player, Report};
use sprouts_draw::{
    Board, DrawRequest, FreshOptions, FreshReport, LadderOptions, LadderReport, RelaxMode,
    RelaxOptions, RelaxReport, RoomStep, Rung,
};
use sprouts_geom::Point;
use sprouts_topo::{Move, Position, SpotId};

use crate::game::{GameError, Played, stop_flag, transaction_error};

/// Work for another thread, taken from a game by [`crate::Game::computer_job`],
/// [`crate::Game::human_job`], [`crate::Game::redraw_job`] or [`crate::Game::relax_job`]. Run it with [`Job::run`] and
/// give the result to [`crate::Game::finish`].
#[derive(Debug)]
pub struct Job {
    pub(crate) version: u64,
    pub(crate) k: usize,
    pub(crate) seat: usize,
    pub(crate) work: Work,
}

/// What a job does.
#[allow(
    clippy::large_enum_variant,
    reason = "one value a job, made once and moved once"
)]
pub(crate) enum Work {
    /// A computer chooses (in positions only) and its move is played.
    Computer {
        player: Arc<Mutex<Box<dyn Player>>>,
        spec: String,
        position: Position,
        convention: Convention,
        board: Option<Box<Board>>,
        ladder: LadderOptions,
    },
    /// A move in topological form is played (drawn by the ladder on a board).
    Move {
        mv: Move,
        report: Option<Report>,
        position: Position,
        board: Option<Box<Board>>,
        ladder: LadderOptions,
    },
    /// A person's drawn move (with the human's Room boxes).
    Request {
        board: Box<Board>,
        request: DrawRequest,
        ladder: LadderOptions,
        /// A Room step pressed by hand while the move waited for room.
        pressed: Option<RoomStep>,
    },
    /// A person's curve kept exactly as drawn (heroic mode).
    Exact {
        board: Box<Board>,
        from: SpotId,
        to: SpotId,
        stroke: Vec<Point>,
    },
    /// The picture drawn afresh.
    Redraw {
        board: Box<Board>,
        options: FreshOptions,
    },
    /// The whole picture relaxed (A or R).
    Relax {
        board: Box<Board>,
        mode: RelaxMode,
        options: RelaxOptions,
    },
}

impl std::fmt::Debug for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Work::Computer { spec, .. } => write!(f, "Computer({spec})"),
            Work::Move { mv, .. } => write!(f, "Move({mv:?})"),
            Work::Request { request, .. } => write!(f, "Request({request:?})"),
            Work::Exact { from, to, .. } => write!(f, "Exact({from} -> {to})"),
            Work::Redraw { .. } => write!(f, "Redraw"),
            Work::Relax { mode, .. } => write!(f, "Relax({})", mode.label()),
        }
    }
}

/// What a job came to; give it to [`crate::Game::finish`].
#[derive(Debug)]
pub struct JobDone {
    pub(crate) version: u64,
    pub(crate) k: usize,
    pub(crate) seat: usize,
    pub(crate) outcome: Result<Done, GameError>,
}

impl JobDone {
    /// The result of a job that could not run to its end (it panicked on another thread):
    /// an error for the game, which then stays as it was.
    pub fn failed(job_version: u64, job_k: usize, what: impl Into<String>) -> JobDone {
        JobDone {
            version: job_version,
            k: job_k,
            seat: 0,
            outcome: Err(GameError::Board(format!(
                "the job failed (an internal error: {})",
                what.into()
            ))),
        }
    }

    /// Whether the job ended in an error.
    pub fn is_err(&self) -> bool {
        self.outcome.is_err()
    }
}

/// What a finished job did to the game.
#[derive(Debug)]
pub enum JobEvent {
    /// A move was played.
    Moved(Box<Played>),
    /// The picture was drawn afresh.
    Redrawn(FreshReport),
    /// The whole picture was relaxed (A or R).
    Relaxed(RelaxReport),
}

/// A job's work done, for the game to take.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one value a job, made once and moved once"
)]
pub(crate) enum Done {
    Moved {
        mv: Move,
        report: Option<Report>,
        board: Option<Box<Board>>,
        ladder: Option<LadderReport>,
        log: Vec<String>,
    },
    Redrawn {
        board: Box<Board>,
        report: FreshReport,
    },
    Relaxed {
        board: Box<Board>,
        report: RelaxReport,
    },
}

impl Job {
    /// The game version and move count the job started at (for [`JobDone::failed`]).
    pub fn ticket(&self) -> (u64, usize) {
        (self.version, self.k)
    }

    /// The seat the job moves for.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Whether the job is a computer's move.
    pub fn is_computer(&self) -> bool {
        matches!(self.work, Work::Computer { .. })
    }

    /// Runs the job (blocking). `limits` bound a computer's thinking (with its own budget);
    /// their stop flag also ends the ladder's search for moves giving the same game.
    /// `observer` sees the routes of a curve being drawn (for an animation).
    pub fn run(self, limits: &Limits, observer: &mut dyn FnMut(&[Point])) -> JobDone {
        let Job {
            version,
            k,
            seat,
            work,
        } = self;
        let outcome = match work {
            Work::Computer {
                player,
                spec,
                position,
                convention,
                board,
                ladder,
            } => think(&player, &spec, &position, convention, limits).and_then(
                |(mv, report, log)| {
                    play(
                        mv,
                        Some(report),
                        &position,
                        board,
                        &ladder,
                        limits,
                        observer,
                        log,
                    )
                },
            ),
            Work::Move {
                mv,
                report,
                position,
                board,
                ladder,
            } => play(
                mv,
                report,
                &position,
                board,
                &ladder,
                limits,
                observer,
                Vec::new(),
            ),
            Work::Request {
                mut board,
                request,
                ladder,
                pressed,
            } => {
                let _span = tracing::debug_span!("human_move").entered();
                let stop = stop_flag(limits);
                match board.draw_human_request_from(&request, &ladder, pressed, &stop, observer) {
                    Ok(drawn) => Ok(Done::Moved {
                        mv: drawn.mv.clone(),
                        log: Vec::new(),
                        report: None,
                        board: Some(board),
                        ladder: Some(drawn),
                    }),
                    Err(refusal) => Err(GameError::Refused(refusal.refusal)),
                }
            }
            Work::Exact {
                mut board,
                from,
                to,
                stroke,
            } => {
                let _span = tracing::debug_span!("human_exact_move").entered();
                match board.draw_exact(from, to, &stroke) {
                    Ok(drawn) => Ok(Done::Moved {
                        mv: drawn.mv.clone(),
                        log: Vec::new(),
                        report: None,
                        board: Some(board),
                        ladder: Some(LadderReport {
                            rung: Rung::AsChosen { equivalent: None },
                            log: vec![format!(
                                "drawn {} exactly as drawn ({} straight pieces)",
                                drawn.words,
                                drawn.route.len() - 1
                            )],
                            words: drawn.words,
                            mv: drawn.mv,
                            clearance: None,
                        }),
                    }),
                    Err(refusal) => Err(GameError::Refused(Box::new(refusal))),
                }
            }
            Work::Redraw { mut board, options } => {
                match board.redraw_fresh_with_stop(&options, &stop_flag(limits)) {
                    Ok(report) => Ok(Done::Redrawn { board, report }),
                    Err(e) => Err(transaction_error(e)),
                }
            }
            Work::Relax {
                mut board,
                mode,
                options,
            } => match board.relax(mode, &options, &stop_flag(limits)) {
                Ok(report) => Ok(Done::Relaxed { board, report }),
                Err(e) => Err(transaction_error(e)),
            },
        };
        JobDone {
            version,
            k,
            seat,
            outcome,
        }
    }
}

/// A computer player chooses a move in `position` (spec 5: positions only, never pictures).
fn think(
    player: &Mutex<Box<dyn Player>>,
    spec: &str,
    position: &Position,
    convention: Convention,
    limits: &Limits,
) -> Result<(Move, Report, Vec<String>), GameError> {
    let _span = tracing::debug_span!("computer_move", spec).entered();
    let started = Instant::now();
    let mut player = player
        .lock()
        .map_err(|_| GameError::Player(format!("the player `{spec}` failed on an earlier move")))?;
    let choice = player
        .choose(position, convention, limits)
        .ok_or(GameError::NoMove)?;
    if !position.is_legal(&choice.mv) {
        return Err(GameError::Illegal(format!(
            "the player `{spec}` chose a move that is not a move of {}",
            position.to_glop()
        )));
    }
    let line = format!(
        "({}): {}; {:.2} s; chose {}",
        player.name(),
        choice.report,
        started.elapsed().as_secs_f64(),
        choice.mv.describe(position)
    );
    let mut log = vec![line];
    if let Some(v) = choice.report.verdict {
        log.push(match v {
            Outcome::Win => "the player to move has a winning position".to_owned(),
            Outcome::Loss => "the player to move is lost against best play".to_owned(),
        });
    }
    Ok((choice.mv, choice.report, log))
}

/// Plays a chosen move: drawn by the ladder on a board, or just checked without one.
#[allow(clippy::too_many_arguments, reason = "the parts of one job, unpacked")]
fn play(
    mv: Move,
    report: Option<Report>,
    position: &Position,
    board: Option<Box<Board>>,
    ladder: &LadderOptions,
    limits: &Limits,
    observer: &mut dyn FnMut(&[Point]),
    log: Vec<String>,
) -> Result<Done, GameError> {
    let Some(mut board) = board else {
        return Ok(Done::Moved {
            mv,
            report,
            board: None,
            ladder: None,
            log,
        });
    };
    let stop = stop_flag(limits);
    match board.draw_computer_move(&mv, ladder, &stop, observer) {
        Ok(drawn) => Ok(Done::Moved {
            mv,
            report,
            board: Some(board),
            ladder: Some(drawn),
            log,
        }),
        Err(refusal) => Err(GameError::NotDrawn {
            words: mv.describe(position),
            mv,
            refusal: Box::new(refusal),
            report: report.map(Box::new),
        }),
    }
}
