//! The drawing layer of Sprouts.
//!
//! It will hold: reading a position off a picture (`analyse`), the authority check that every
//! operation on a picture keeps the position it should, the router and elastic band that draw a
//! move, making room, and SVG output. Nothing is built here yet.
