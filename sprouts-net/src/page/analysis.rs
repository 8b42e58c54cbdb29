//! "Who is winning": the outcome of a page's position and, on request, the moves that win, by
//! the solvers (normal or misère play) within a small budget, run off the async threads like
//! every heavy job. An answer for a position the game has left is dropped by the session.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sprouts::Convention;
use sprouts::Limits;
use sprouts::ai::impartial::Outcome;
use sprouts::ai::misere_play::MisereSproutsSolver;
use sprouts::ai::solver::{Solver, SolverConfig};
use sprouts::topo::Position;

/// The time an analysis may take (the verdict and, for a hint, every move's child together).
pub const ANALYSIS_BUDGET: Duration = Duration::from_secs(2);

/// An analysis to run on a blocking thread: the position as it was asked about.
#[derive(Debug)]
pub struct AnalysisJob {
    pub(crate) game: u32,
    pub(crate) k: u32,
    pub(crate) position: Position,
    pub(crate) convention: Convention,
    pub(crate) hint: bool,
    pub(crate) stop: Arc<AtomicBool>,
}

/// What an [`AnalysisJob`] found.
#[derive(Debug)]
pub struct AnalysisResult {
    pub(crate) game: u32,
    pub(crate) k: u32,
    /// The outcome for the player to move, if proved within the budget.
    pub(crate) verdict: Option<Outcome>,
    /// For a hint: the winning moves found (in words), and whether every move was decided.
    pub(crate) winning: Option<(Vec<WinningMove>, bool)>,
}

/// A move that wins: its spots and its words.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WinningMove {
    /// The spot the curve leaves.
    pub from: u32,
    /// The spot it reaches.
    pub to: u32,
    /// The move in words ("1 -> 1 enclosing 2").
    pub words: String,
}

impl AnalysisJob {
    /// The job's stop flag (set when the game moves on or the page goes).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Runs the solvers (blocking; call it off the async threads).
    pub fn run(self) -> AnalysisResult {
        let limits = Limits::time(ANALYSIS_BUDGET).with_stop(Arc::clone(&self.stop));
        // A solver that cannot start (no thread for it) knows nothing: every verdict unknown.
        let normal = Solver::new(SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        })
        .ok();
        let misere = MisereSproutsSolver::new();
        let outcome = |p: &Position| match self.convention {
            Convention::Normal => normal.as_ref().and_then(|n| n.outcome(p, &limits).value),
            Convention::Misere => misere.outcome(p, &limits).value,
        };
        let verdict = outcome(&self.position);
        let winning = self.hint.then(|| {
            // A move wins when the opponent, to move after it, loses.
            let mut found = BTreeSet::new();
            let mut complete = true;
            for mv in self.position.distinct_moves() {
                if self.stop.load(Ordering::Relaxed) {
                    complete = false;
                    break;
                }
                let Ok(child) = self.position.play(&mv) else {
                    continue;
                };
                match outcome(&child) {
                    Some(Outcome::Loss) => {
                        let (from, to) = mv.spots();
                        found.insert(WinningMove {
                            from: from.get(),
                            to: to.get(),
                            words: mv.describe(&self.position),
                        });
                    }
                    Some(Outcome::Win) => {}
                    None => complete = false,
                }
            }
            (found.into_iter().collect(), complete)
        });
        AnalysisResult {
            game: self.game,
            k: self.k,
            verdict,
            winning,
        }
    }
}
