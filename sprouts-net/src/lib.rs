//! Network play for Sprouts.
//!
//! It will hold: the versioned message protocol by which two players on two computers exchange
//! topological moves, and the relay server. Nothing is built here yet.
