//! The page's analysis board: `analyse` asks for the analysis of the position on the board
//! ([`sprouts::ai::analysis`]); the server runs it as an [`AnalysisJob`] off its async threads,
//! sending each step to the page as an `analysis` message as soon as it is known.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use sprouts::Limits;
use sprouts::ai::analysis::{BoardEvent, analyse_board};
use sprouts::ai::impartial::Outcome;
use sprouts::ai::solver::{Solver, SolverConfig};
use sprouts::topo::Position;

use super::protocol::{AnalysisMove, AnalysisMsg, ServerMsg};

/// The longest budget a page may ask for, in seconds.
pub const MAX_ANALYSIS_SECONDS: f64 = 60.0;

/// An analysis to run off the async threads (see the module docs).
#[derive(Debug)]
pub struct AnalysisJob {
    pub(crate) game: u32,
    pub(crate) k: u32,
    pub(crate) position: Position,
    pub(crate) seconds: f64,
    pub(crate) stop: Arc<AtomicBool>,
}

impl AnalysisJob {
    /// Runs the analysis (blocking), giving `send` one `analysis` message a step, the last
    /// one `done`. Raising the session's stop flag (a new game, the page gone) ends it with
    /// what is known.
    pub fn run(self, send: &mut dyn FnMut(ServerMsg)) {
        let solver = Solver::new(SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        });
        let limits = Limits::none()
            .with_time(Duration::from_secs_f64(self.seconds))
            .with_stop(Arc::clone(&self.stop));
        let (game, k) = (self.game, self.k);
        let mut wrap = |event: AnalysisMsg| send(ServerMsg::Analysis { game, k, event });
        let report = analyse_board(&self.position, &solver, &limits, &mut |e| {
            wrap(message(e, &self.position));
        });
        wrap(AnalysisMsg::Done {
            nodes: report.nodes,
        });
    }
}

fn message(event: &BoardEvent, pos: &Position) -> AnalysisMsg {
    match event {
        BoardEvent::Started(r) => AnalysisMsg::Started {
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
        },
        BoardEvent::Part { index, nimber } => AnalysisMsg::Part {
            index: *index as u32,
            nimber: *nimber,
        },
        BoardEvent::Outcome { nimber, outcome } => AnalysisMsg::Outcome {
            nimber: *nimber,
            wins: outcome.map(|o| o == Outcome::Win),
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
