//! Two programs playing one game (spec section 6): the messages they exchange
//! ([`protocol`]) and each side's state machine ([`Peer`]), free of any transport, so that a
//! relay, a test's simulated network ([`sim`]) or a fuzz target can carry the messages.
//!
//! Only topological moves travel, never pictures: a move is its end spots, the spots it
//! encloses and the game key of the position it makes; the receiver finds it among its own
//! legal moves and draws it with its own settings through the computer's ladder, or refuses it,
//! and the actor then takes it back.

pub mod protocol;
mod session;
pub mod sim;
#[cfg(test)]
mod tests;

pub use protocol::{PeerMsg, Role};
pub use session::{
    Drawing, Event, Link, MAX_FINISHED, Notice, Output, Peer, PeerConfig, Stats, Timing, same_game,
};
