//! Sprouts (Conway and Paterson, 1967): play, draw and solve it.
//!
//! This is the facade of the workspace: it re-exports the layers and owns the game that every
//! frontend drives (the web UI, self-play, network play, the examples, other people's games).
//!
//! - [`topo`] (`sprouts-topo`): positions as regions of boundaries of spots, moves, independent
//!   parts, canonical forms, GLOP notation. It decides everything the rules care about.
//! - [`geom`] (`sprouts-geom`): cubic splines and certified distances.
//! - [`draw`] (`sprouts-draw`): pictures of positions, read back and checked (*the position is
//!   the authority*), the router that draws a move, the ladder, saved games, SVG.
//! - [`ai`] (`sprouts-ai`): the computer players, the solvers, bounds, impartial-game tools.
//! - [`Game`]: a game in progress: the position (with its picture, or without one), the two
//!   seats and their players, the play convention, whose turn it is, the winner, human and
//!   computer moves (the computer's as a stoppable [`Job`]), undo and redo.
//! - [`campaign`]: positions from real games to win against the perfect player, proved and
//!   graded.
//! - [`GameRecord`]: a game as a file: start, moves, seats, convention, settings, the picture
//!   if there is one, in versioned JSON or postcard.
//!
//! # Example: a game against the computer, without pictures
//!
//! ```
//! use sprouts::{Game, Seat, Limits};
//!
//! let mut game = Game::new(sprouts::topo::Position::new(3), [Seat::Human, Seat::computer("random", 7)?]);
//! while !game.is_over() {
//!     if game.human_to_move() {
//!         // A person would choose; here the first legal move.
//!         let mv = game.position().moves().next().expect("a game not over has a move");
//!         game.play_move(&mv)?;
//!     } else {
//!         game.computer_step(&Limits::none())?;
//!     }
//! }
//! println!("seat {} wins after {} moves", game.winner().unwrap(), game.moves().len());
//! # Ok::<(), sprouts::GameError>(())
//! ```

pub mod campaign;
mod game;
mod job;
mod record;
mod seat;

pub use sprouts_ai as ai;
pub use sprouts_draw as draw;
pub use sprouts_geom as geom;
pub use sprouts_topo as topo;

pub use game::{Game, GameError, HumanInput, Played};
pub use job::{Job, JobDone, JobEvent};
pub use record::{GAME_RECORD_VERSION, GameRecord, MAX_LOG_LINES, RecordError, SeatRecord};
pub use seat::{Computer, MAX_SPEC_LEN, Seat};
pub use sprouts_ai::Limits;
pub use sprouts_ai::impartial::Convention;

/// The crate's README, whose example runs as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
