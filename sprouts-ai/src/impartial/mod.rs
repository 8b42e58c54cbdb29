//! Impartial games in general: a small trait, normal play by nimbers, misère play by canonical
//! trees, and the octal games (Kayles and its relatives) that check the machinery independently.
//!
//! - [`ImpartialGame`]: children, a memoisation key, and optionally a decomposition into
//!   independent parts. Sprouts positions (parts are lands) and octal games (parts are rows)
//!   implement it.
//! - Normal play: [`mex`], [`nim_sum`], [`NimberSolver`] (nimbers by parts), [`Couple`] and
//!   [`nimber_by_couples`] (a position beside a nim heap, as in Lemoine and Viennot's search).
//! - Misère play: [`MisereStore`] of canonical trees ([`TreeId`]), sums of trees and their
//!   outcomes, [`misere_nim_outcome`], and [`MisereSolver`] (trees by parts).
//! - [`OutcomeSolver`]: plain win/loss search under either [`Convention`], the reference the
//!   others are checked against.
//! - [`octal`]: Grundy values of octal games, periods certified by the Guy–Smith theorem, the
//!   decomposition attacked by a bitmask solver, and misère figures.
//!
//! # Examples
//! Nimbers and misère outcomes of the same nim position:
//! ```
//! use sprouts_ai::impartial::{MisereSolver, Nim, Nimber, NimberSolver, Outcome};
//! let position = Nim::position([1, 2, 3]);
//! assert_eq!(NimberSolver::new(Nim).nimber(&position), Nimber(0));
//! assert_eq!(MisereSolver::new(Nim).outcome(&position), Outcome::Loss);
//! ```

mod game;
mod misere;
mod nimber;
pub mod octal;
mod outcome;

pub use game::{Convention, Couple, CouplePosition, ImpartialGame, Nim, Outcome};
pub use misere::{MisereSolver, MisereStore, TreeDisplay, TreeId, misere_nim_outcome};
pub use nimber::{Nimber, NimberSolver, mex, nim_sum, nimber_by_couples};
pub use outcome::OutcomeSolver;
