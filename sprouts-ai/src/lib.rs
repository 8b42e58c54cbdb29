//! The computer players and solvers of Sprouts.
//!
//! - [`impartial`]: impartial games in general (nimbers, misère canonical trees, octal games).
//! - [`SproutsGame`]: Sprouts as an impartial game, for the generic solvers.
//! - [`misere_play`]: misère Sprouts by parts (canonical trees of lands, and a search).
//! - [`Limits`] and [`Solved`]: budgets of bounded searches and their results; [`Clock`] and
//!   [`ManualClock`]: where their deadlines are read.
//! - [`bounds`]: bounds on the number of moves left and the exact longest game.
//! - [`players`]: the computer players (random, Monte Carlo, parity search, perfect).
//! - [`solver`]: the normal-play solver (outcomes and nimbers by couples of lands and a nim heap).

pub mod bounds;
pub mod impartial;
mod limits;
pub mod misere_play;
pub mod players;
pub mod solver;
pub mod sprouts_game;

pub use limits::{Clock, Limits, ManualClock, Solved};
pub use sprouts_game::SproutsGame;
