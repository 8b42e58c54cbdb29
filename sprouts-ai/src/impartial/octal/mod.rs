//! Octal games (Kayles 0.77, Dawson's Kayles 0.07, …): Grundy values of rows, periods certified by
//! the Guy–Smith theorem, the decomposition into rows attacked by a bitmask solver, and what the
//! normal-play values are worth in misère play.
//!
//! They check the generic machinery of [`impartial`](super) on games whose values are known
//! (Guy and Smith 1956; Winning Ways, ch. 4), and the machinery checks them back: the same
//! numbers come from [`GrundyTable`] (fast, by rows), from
//! [`NimberSolver`](super::NimberSolver) over [`OctalGame`] (generic, by parts), and from
//! [`CellBoard`] (a board of cells, no rows at all).
//!
//! # Examples
//! ```
//! use sprouts_ai::impartial::octal::{find_period, GrundyTable, OctalCode};
//! let mut kayles = GrundyTable::new("0.77".parse()?);
//! let period = find_period(&mut kayles, 1000).expect("Kayles is periodic");
//! assert_eq!((period.period, period.last_exception()), (12, Some(70)));
//! # Ok::<(), sprouts_ai::impartial::octal::OctalCodeError>(())
//! ```

mod board;
mod code;
mod game;
mod misere;
mod period;
mod values;

#[cfg(test)]
mod tests;

pub use board::{
    BOARD_CELLS, BoardError, CellBoard, DecompositionCheck, DefinitionCheck, MAX_BOARD_CELLS,
    check_decomposition, play_the_definition,
};
pub use code::{MAX_CODE_DIGITS, OctalCode, OctalCodeError};
pub use game::{OctalGame, Rows};
pub use misere::{MisereFigures, misere_figures};
pub use period::{PeriodError, PeriodNotFound, Periodicity, certify_period, find_period};
pub use values::{GrundyTable, grundy_values};
