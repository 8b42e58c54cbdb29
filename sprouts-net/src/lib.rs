//! Sprouts over a network, free of any transport: messages and the state machines that take
//! them, so that a server (the `sprouts` binary's axum server), a test or a fuzz target can
//! drive them message by message.
//!
//! - [`page`]: the web UI's versioned JSON protocol ([`page::protocol`]) and the session that
//!   plays one page's [`sprouts::Game`] ([`page::Session`]): `handle(message)` answers with
//!   messages and jobs for the server to run off its async threads.
//!
//! The crate stands on the facade `sprouts` (the game); the binary adds sockets.

pub mod page;

/// The crate's README, whose example runs as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
