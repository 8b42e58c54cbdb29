//! The computer players and solvers of Sprouts.
