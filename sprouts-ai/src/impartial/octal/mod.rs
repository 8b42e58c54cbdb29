//! Octal games.
