//! The topological layer of Sprouts: positions, moves, canonical forms and GLOP notation.
