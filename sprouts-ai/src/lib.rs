//! The computer players and solvers of Sprouts.

pub mod impartial;
mod limits;
pub mod solver;

pub use limits::{Limits, Solved};
