//! The page's one analysis of a position: the analysis board of [`sprouts::ai::analysis`]
//! (the position's parts with their nimbers, the outcome, the bounds on the moves left and
//! every move's verdict with the nimber of the position it leads to), run as a job off the
//! async threads within a budget and sent to the page step by step as `analysis` messages.
//! "Who is winning", the hint and the analysis board panel all read this one analysis.
//!
//! In misère play the nimbers say nothing of the outcome: the board then gives the bounds, the
//! outcome and every move's verdict by the misère solver, without nimbers. Whatever the budget
//! did not settle is sent as unknown (`null`), never guessed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sprouts::Convention;
use sprouts::Limits;
use sprouts::ai::analysis::{BoardEvent, BoardReport, MAX_LISTED_MOVES, analyse_board};
use sprouts::ai::impartial::Outcome;
use sprouts::ai::misere_play::MisereSproutsSolver;
use sprouts::ai::solver::{Solver, SolverConfig};
use sprouts::topo::Position;

use super::protocol::{AnalysisMove, AnalysisMsg, ServerMsg};
use super::session::COLOURS;

/// The budget of an analysis when the page names none (who is winning, the hint).
pub const ANALYSIS_BUDGET: Duration = Duration::from_secs(2);

/// The longest budget a page may ask for.
pub const MAX_ANALYSIS_BUDGET: Duration = Duration::from_secs(120);

/// The shortest budget a page may ask for.
pub const MIN_ANALYSIS_BUDGET: Duration = Duration::from_millis(100);

/// An analysis to run on a blocking thread: the position as it was asked about.
#[derive(Debug)]
pub struct AnalysisJob {
    pub(crate) game: u32,
    pub(crate) k: u32,
    pub(crate) position: Position,
    pub(crate) convention: Convention,
    /// The player to move (0 Blue, 1 Red), for the verdict in words.
    pub(crate) mover: usize,
    pub(crate) budget: Duration,
    pub(crate) stop: Arc<AtomicBool>,
}

impl AnalysisJob {
    /// The job's stop flag (raised by a newer analysis, a change of the position, a new game,
    /// the page leaving).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The budget, clamped to what a page may ask for.
    pub fn budget_of(seconds: Option<f64>) -> Duration {
        match seconds {
            Some(s) if s.is_finite() => Duration::from_secs_f64(s.clamp(
                MIN_ANALYSIS_BUDGET.as_secs_f64(),
                MAX_ANALYSIS_BUDGET.as_secs_f64(),
            )),
            _ => ANALYSIS_BUDGET,
        }
    }

    /// Runs the analysis (blocking; call it off the async threads), giving `send` one
    /// `analysis` message a step as soon as it is known, the last one `done`.
    pub fn run(self, send: &mut dyn FnMut(ServerMsg)) {
        let started = Instant::now();
        let limits = Limits::time(self.budget).with_stop(Arc::clone(&self.stop));
        let (game, k) = (self.game, self.k);
        let mut emit = |event: AnalysisMsg| send(ServerMsg::Analysis { game, k, event });
        let (nodes, complete) = match self.convention {
            Convention::Normal => match Solver::new(SolverConfig {
                threads: 1,
                ..SolverConfig::default()
            }) {
                Ok(solver) => {
                    let report = analyse_board(&self.position, &solver, &limits, &mut |e| {
                        emit(self.message(e));
                    });
                    (report.nodes, settled(&report))
                }
                // A solver that cannot start (no thread for it) knows nothing.
                Err(e) => {
                    tracing::warn!("the analysis could not start its solver: {e}");
                    (0, false)
                }
            },
            Convention::Misere => self.misere(&limits, &mut emit),
        };
        emit(AnalysisMsg::Done {
            nodes,
            complete: complete && !self.stop.load(Ordering::Relaxed),
            seconds: started.elapsed().as_secs_f64(),
        });
    }

    /// The board in misère play: bounds, outcome and every move's verdict by the misère
    /// solver; no nimbers. Returns the nodes searched (not counted: 0) and whether all was
    /// settled.
    fn misere(&self, limits: &Limits, emit: &mut dyn FnMut(AnalysisMsg)) -> (u64, bool) {
        let pos = &self.position;
        let solver = MisereSproutsSolver::new();
        let b = sprouts::ai::bounds::bounds(pos);
        let moves: Vec<_> = pos.distinct_moves().take(MAX_LISTED_MOVES).collect();
        let mut children = Vec::with_capacity(moves.len());
        let mut listed = Vec::with_capacity(moves.len());
        for mv in &moves {
            let Ok(child) = pos.play(mv) else { continue };
            let (from, to) = mv.spots();
            listed.push(AnalysisMove {
                from: from.get(),
                to: to.get(),
                enclosed: mv.enclosed_spots(pos).iter().map(|s| s.get()).collect(),
                words: mv.describe(pos),
                child: child.canonical().as_str().to_owned(),
            });
            children.push(child);
        }
        let move_count = pos
            .families()
            .iter()
            .fold(0u128, |n, f| n.saturating_add(f.distinct_move_count()));
        emit(AnalysisMsg::Started {
            misere: true,
            canonical: pos.canonical().as_str().to_owned(),
            lower: b.lower,
            upper: b.upper,
            parts: pos.land_forms().iter().map(|l| l.to_string()).collect(),
            moves: listed,
            move_count: u64::try_from(move_count).unwrap_or(u64::MAX),
        });
        let outcome = solver.outcome(pos, limits).value;
        emit(AnalysisMsg::Outcome {
            nimber: None,
            wins: outcome.map(|o| o == Outcome::Win),
            words: self.words(outcome),
        });
        let mut complete = outcome.is_some();
        let mut solved = std::collections::HashMap::new();
        for (index, child) in children.iter().enumerate() {
            let key = child.canonical().as_str().to_owned();
            let winning = *solved.entry(key).or_insert_with(|| {
                if limits.interrupted() {
                    None
                } else {
                    solver
                        .outcome(child, limits)
                        .value
                        .map(|o| o == Outcome::Loss)
                }
            });
            complete &= winning.is_some();
            emit(AnalysisMsg::Move {
                index: index as u32,
                nimber: None,
                winning,
            });
        }
        (0, complete)
    }

    /// The verdict in words for the player to move.
    fn words(&self, outcome: Option<Outcome>) -> String {
        let mover = COLOURS[self.mover];
        let other = COLOURS[1 - self.mover];
        match outcome {
            Some(Outcome::Win) => format!("{mover}, to move, can win with best play"),
            Some(Outcome::Loss) => {
                format!("{other} can win with best play, whatever {mover} does")
            }
            None => format!(
                "not known within {} s",
                (self.budget.as_secs_f64() * 10.0).round() / 10.0
            ),
        }
    }

    /// A step of the library's analysis as a message.
    fn message(&self, event: &BoardEvent) -> AnalysisMsg {
        let pos = &self.position;
        match event {
            BoardEvent::Started(r) => AnalysisMsg::Started {
                misere: false,
                canonical: r.canonical.clone(),
                lower: r.lower,
                upper: r.upper,
                parts: r.parts.iter().map(|p| p.land.clone()).collect(),
                moves: r
                    .moves
                    .iter()
                    .map(|m| {
                        let (from, to) = m.mv.spots();
                        AnalysisMove {
                            from: from.get(),
                            to: to.get(),
                            enclosed: m.mv.enclosed_spots(pos).iter().map(|s| s.get()).collect(),
                            words: m.words.clone(),
                            child: m.child.clone(),
                        }
                    })
                    .collect(),
                move_count: u64::try_from(r.move_count).unwrap_or(u64::MAX),
            },
            BoardEvent::Part { index, nimber } => AnalysisMsg::Part {
                index: *index as u32,
                nimber: *nimber,
            },
            BoardEvent::Outcome { nimber, outcome } => AnalysisMsg::Outcome {
                nimber: *nimber,
                wins: outcome.map(|o| o == Outcome::Win),
                words: self.words(*outcome),
            },
            BoardEvent::Move {
                index,
                nimber,
                winning,
            } => AnalysisMsg::Move {
                index: *index as u32,
                nimber: *nimber,
                winning: *winning,
            },
        }
    }
}

/// Whether the report settled everything it lists.
fn settled(r: &BoardReport) -> bool {
    r.outcome.is_some()
        && r.parts.iter().all(|p| p.nimber.is_some())
        && r.moves.iter().all(|m| m.winning.is_some())
}
