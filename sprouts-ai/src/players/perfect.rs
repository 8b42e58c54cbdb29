//! The perfect player: the exact verdict when it is found within the move's budget, parity
//! search otherwise.

use std::time::Duration;

use sprouts_topo::Position;

use super::candidates::stopped_choice;
use super::parity::{RootResult, break_tie};
use super::{Choice, ParityConfig, ParitySearch, Player, Report, candidates_within};
use crate::Limits;
use crate::impartial::{Convention, Outcome};
use crate::misere_play::MisereSproutsSolver;
use crate::seed::splitmix64;
use crate::solver::{Solver, SolverConfig, SolverError};

/// The perfect player.
///
/// In normal play it decides every candidate's child with the [`Solver`] (nimbers by parts,
/// couples of a part and a nim heap, tables kept across moves): a child lost for the opponent is
/// a winning move. When
/// every child is worked out and none is 0 the position is lost, and the move that random
/// games from it win most often is played (to give a fallible opponent the most chances to go
/// wrong). When the budget runs out first, a parity search with the time left decides. Ties
/// between winning moves are broken by random games, then at random (seeded).
///
/// In misère play the children are decided by [`MisereSproutsSolver`] (misère canonical trees
/// by parts) in the same way: a child lost for the opponent is a winning move.
pub struct Perfect {
    time: Option<Duration>,
    seed: u64,
    moves: u64,
    misere: MisereSproutsSolver,
    solver: Solver,
    parity: ParitySearch,
}

impl Perfect {
    /// A perfect player with `time` per move (`None`: no clock of its own).
    ///
    /// # Errors
    ///
    /// [`SolverError`] if its solver's worker threads cannot start.
    pub fn new(time: Option<Duration>, seed: u64) -> Result<Perfect, SolverError> {
        let config = ParityConfig {
            sharp: true,
            depth: None,
            time: None,
            ..ParityConfig::default()
        };
        Ok(Perfect {
            time,
            seed,
            moves: 0,
            misere: MisereSproutsSolver::new(),
            solver: Solver::new(SolverConfig::default())?,
            parity: ParitySearch::new(config, splitmix64(seed)),
        })
    }
}

impl Player for Perfect {
    fn choose(
        &mut self,
        position: &Position,
        convention: Convention,
        limits: &Limits,
    ) -> Option<Choice> {
        self.moves += 1;
        let mut limits = limits.clone();
        if let Some(t) = self.time {
            limits = limits.with_time(t);
        }
        let seed = splitmix64(self.seed ^ splitmix64(self.moves));
        let Ok(cands) = candidates_within(position, &limits) else {
            return stopped_choice(position, seed);
        };
        if cands.is_empty() {
            return None;
        }
        let mut winners = Vec::new();
        let mut complete = true;
        for (i, c) in cands.iter().enumerate() {
            // The outcome for the opponent, to move in the child.
            let outcome = match convention {
                Convention::Normal => self.solver.outcome(&c.child, &limits).value,
                Convention::Misere => self.misere.outcome(&c.child, &limits).value,
            };
            match outcome {
                Some(Outcome::Loss) => winners.push(i),
                Some(Outcome::Win) => {}
                None => {
                    complete = false;
                    break;
                }
            }
        }
        let n = cands.len();
        let result = RootResult::new(cands);
        let decided = if !winners.is_empty() {
            Some((Outcome::Win, winners))
        } else if complete {
            Some((Outcome::Loss, (0..n).collect()))
        } else {
            None
        };
        if let Some((verdict, tied)) = decided {
            let pick = break_tie(&result, &tied, convention, 64, seed, &limits);
            let words = match verdict {
                Outcome::Win => format!("{} winning moves of {n}", tied.len()),
                Outcome::Loss => "every move loses; the best chances by random games".into(),
            };
            return Some(Choice {
                mv: result.cands[pick].mv.clone(),
                report: Report {
                    depth: position.total_lives(),
                    candidates: n,
                    verdict: Some(verdict),
                    value: Some(match verdict {
                        Outcome::Win => 2.0,
                        Outcome::Loss => -2.0,
                    }),
                    work: 0,
                    words,
                },
            });
        }
        let mut choice = self.parity.choose(position, convention, &limits)?;
        choice.report.words = format!("not solved in time; parity search: {}", choice.report.words);
        Some(choice)
    }

    fn name(&self) -> String {
        match self.time {
            Some(t) => format!("perfect:{}s", t.as_secs_f64()),
            None => "perfect".to_string(),
        }
    }
}
