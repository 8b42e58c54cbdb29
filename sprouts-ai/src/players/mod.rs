//! The computer players (spec section 5): they think in positions only, never in pictures.
//!
//! - [`RandomPlayer`]: a family uniformly, then how many other live boundaries go inside, then
//!   which (spec 5.2).
//! - [`MonteCarlo`]: random games from every candidate, the best share of wins (spec 5.3).
//! - [`ParitySearch`]: alpha-beta over canonical positions on the parity of the moves left, fast
//!   (bounds) or sharp (exact longest games), with solved parts folded into a nim heap (spec 5.4,
//!   5.6, 5.8).
//! - [`Perfect`]: the exact verdict when it can be worked out within the move's budget, parity
//!   search otherwise.
//!
//! Every player takes the play convention as a parameter and reports what it concluded
//! ([`Report`]). [`player_from_spec`] builds a player from a short text (`random`,
//! `montecarlo:200`, `parity-fast:2s`, `parity-sharp:depth=6`, `perfect:5s`).
//!
//! # Examples
//!
//! ```
//! use sprouts_ai::impartial::Convention;
//! use sprouts_ai::players::player_from_spec;
//! use sprouts_ai::Limits;
//! use sprouts_topo::Position;
//! let mut player = player_from_spec("parity-fast:depth=2", 7).unwrap();
//! let p = Position::new(8);
//! let choice = player.choose(&p, Convention::Normal, &Limits::none()).unwrap();
//! assert!(p.is_legal(&choice.mv));
//! assert_eq!(choice.report.depth, 2);
//! ```

mod candidates;
mod montecarlo;
mod parity;
mod perfect;
mod random;
mod spec;

use std::fmt;

use sprouts_topo::{Move, Position};

use crate::Limits;
use crate::impartial::{Convention, Outcome};

pub use candidates::{Candidate, Stopped, candidates, candidates_within};
pub use montecarlo::{MonteCarlo, MonteCarloBudget};
pub use parity::{ParityConfig, ParitySearch};
pub use perfect::Perfect;
pub use random::{
    RandomPlayer, family_count, playout, playout_reference, random_move, random_move_reference,
};
pub use spec::{SpecError, player_from_spec};

/// A computer player.
pub trait Player: Send {
    /// Chooses a move for the player to move in `position` under `convention`, within `limits`
    /// (deadline, stop flag; the player's own budget applies too). Never returns an illegal move;
    /// `None` only when there is no move.
    fn choose(
        &mut self,
        position: &Position,
        convention: Convention,
        limits: &Limits,
    ) -> Option<Choice>;

    /// The player's name with its settings (as [`player_from_spec`] reads it).
    fn name(&self) -> String;
}

/// A chosen move and what the player concluded.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move, legal in the position it was chosen for.
    pub mv: Move,
    /// What the player found.
    pub report: Report,
}

/// What a player concluded when choosing a move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Plies searched (the deepest completed search; 0 for players that do not search). A
    /// search that decided every move exactly saw to the end: it reports at least the moves
    /// left by the upper bound.
    pub depth: u32,
    /// The truly different moves considered (distinct canonical forms).
    pub candidates: usize,
    /// A proved verdict for the player to move, when there is one.
    pub verdict: Option<Outcome>,
    /// The value of the chosen move in the player's own scale (a share of wins, a parity value).
    pub value: Option<f64>,
    /// Positions visited or random games played.
    pub work: u64,
    /// Words for the log.
    pub words: String,
}

impl Report {
    /// The verdict in words, as the status line writes it ("the player to move has a winning
    /// position" / "... is lost against best play"), or `None`.
    pub fn verdict_words(&self) -> Option<&'static str> {
        self.verdict.map(|v| match v {
            Outcome::Win => "the player to move has a winning position",
            Outcome::Loss => "the player to move is lost against best play",
        })
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {}, {} candidates", self.depth, self.candidates)?;
        if let Some(v) = self.value {
            write!(f, ", value {v:.3}")?;
        }
        if let Some(w) = self.verdict_words() {
            write!(f, "; {w}")?;
        }
        if !self.words.is_empty() {
            write!(f, "; {}", self.words)?;
        }
        Ok(())
    }
}

/// Whether the player who just moved wins when `moves_after` more moves are played to the end.
pub(crate) fn mover_wins(moves_after: u32, convention: Convention) -> bool {
    match convention {
        Convention::Normal => moves_after.is_multiple_of(2),
        Convention::Misere => !moves_after.is_multiple_of(2),
    }
}
