//! The computer players and solvers of Sprouts.
//!
//! - [`impartial`]: impartial games in general (nimbers, misère canonical trees, octal games).
//! - [`SproutsGame`]: Sprouts as an impartial game, for the generic solvers.
//! - [`misere_play`]: misère Sprouts by parts (canonical trees of lands, and a search).
//! - [`Limits`] and [`Solved`]: budgets of bounded searches and their results.

pub mod impartial;
mod limits;
pub mod misere_play;
pub mod sprouts_game;

pub use limits::{Limits, Solved};
pub use sprouts_game::SproutsGame;
