//! The computer players and solvers of Sprouts.
//!
//! - [`impartial`]: impartial games in general (nimbers, misère canonical trees, octal games).
//! - [`SproutsGame`]: Sprouts as an impartial game, for the generic solvers.
//! - [`misere_play`]: misère Sprouts by parts (canonical trees of lands, and a search).
//! - [`Limits`] and [`Solved`]: budgets of bounded searches and their results; [`Clock`] and
//!   [`ManualClock`]: where their deadlines are read.
//! - [`analysis`]: the analysis board (parts, nimbers, outcome, bounds, every move's verdict).
//! - [`bounds`]: bounds on the number of moves left and the exact longest game.
//! - [`players`]: the computer players (random, Monte Carlo, parity search, perfect).
//! - [`solver`]: the normal-play solver (outcomes and nimbers by couples of lands and a nim heap).
//!
//! `sprouts-ai` depends on `sprouts-topo` alone and never on geometry: it thinks in positions.
//! Searches are deterministic for a given position, seed, thread count and node limit, and a
//! search that runs out of its [`Limits`] answers "unknown" ([`Solved::value`] is `None`).
//!
//! # Examples
//!
//! Solve a position, then let a player choose a move in it:
//!
//! ```
//! use sprouts_ai::impartial::{Convention, Outcome};
//! use sprouts_ai::players::player_from_spec;
//! use sprouts_ai::solver::{Solver, SolverConfig};
//! use sprouts_ai::Limits;
//! use sprouts_topo::Position;
//!
//! let position = Position::parse_glop("0*4")?; // four spots
//! let solver = Solver::new(SolverConfig::default()).expect("the solver starts");
//! assert_eq!(solver.outcome(&position, &Limits::none()).value, Some(Outcome::Win));
//!
//! let mut perfect = player_from_spec("perfect:1s", 7)?;
//! let choice = perfect
//!     .choose(&position, Convention::Normal, &Limits::none())
//!     .expect("four spots have moves");
//! // A perfect player moves a won position to a lost one.
//! let child = position.play(&choice.mv)?;
//! assert_eq!(solver.outcome(&child, &Limits::none()).value, Some(Outcome::Loss));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A search bounded by its budget reports "unknown" rather than guess:
//!
//! ```
//! use sprouts_ai::solver::{Solver, SolverConfig};
//! use sprouts_ai::Limits;
//! use sprouts_topo::Position;
//!
//! let solver = Solver::new(SolverConfig::default()).expect("the solver starts");
//! let solved = solver.outcome(&Position::new(14), &Limits::nodes(10));
//! assert_eq!(solved.value, None);
//! ```

pub mod analysis;
pub mod bounds;
pub mod impartial;
mod limits;
pub mod misere_play;
pub mod players;
pub mod seed;
pub mod solver;
pub mod sprouts_game;

pub use limits::{Clock, Limits, ManualClock, Solved, process_cpu_time};
pub use sprouts_game::SproutsGame;

/// The crate's README, whose example runs as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
