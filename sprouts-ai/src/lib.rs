//! The computer players and solvers of Sprouts.

pub mod impartial;
