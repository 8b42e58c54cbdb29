//! Sprouts over a network. The messages and the state machines that take them are free of any
//! transport, so that a server, a test or a fuzz target can drive them message by message; the
//! sockets are behind features.
//!
//! - [`page`]: the web UI's versioned JSON protocol ([`page::protocol`]) and the session that
//!   plays one page's [`sprouts::Game`] ([`page::Session`]): `handle(message)` answers with
//!   messages and jobs for the server to run off its async threads.
//! - [`peer`]: two programs playing one game over a network (spec section 6): the peer
//!   protocol ([`peer::protocol`]) and each side's state machine ([`peer::Peer`]).
//!
//! - [`relay`]: rooms of two players passing messages on, kept on disk until acknowledged:
//!   the rooms' logic, and with the feature `relay` the store (`redb`) and the WebSocket
//!   endpoint (axum) that `sprouts serve` and `sprouts relay` run.
//! - `client` (feature `client`): a program playing one side through a relay.
//!
//! The crate stands on the facade `sprouts` (the game). The features hold its only sockets;
//! the page's own socket is the binary's.

#[cfg(feature = "client")]
pub mod client;
pub mod page;
pub mod peer;
pub mod relay;

/// The crate's README, whose example runs as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
