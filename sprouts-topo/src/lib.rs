//! The topological layer of Sprouts: positions, moves, parts, canonical forms and GLOP notation.
//!
//! `sprouts-topo` is the leaf of the workspace that decides everything the rules care about. The
//! drawing layer (`sprouts-draw`) reads positions off pictures and checks them against this crate;
//! the players and the solver (`sprouts-ai`) think in it alone; network play (`sprouts-net`) sends
//! its moves. It has no floating point, no I/O and no dependency on any other sprouts crate.
//!
//! * [`Position`]: the set representation (spec section 2.4): regions, each a list of boundaries,
//!   each the cyclic sequence of spot corners met walking round it with the region on the left.
//!   Spots are [`SpotId`]s that survive moves and carry [`Lives`].
//! * [`Move`] and [`Family`]: one- and two-boundary moves (spec 2.5), listed as families of
//!   enclosures; [`Position::play`] checks and plays a move.
//! * [`GameKey`]: the identity-preserving key (same spots, up to rotation, order and mirror
//!   image); [`MoveNotation`]: a move as its spots, for saved games and the network.
//! * [`Position::canonical`]: the canonical form of the game (spec 2.6), in GLOP notation, true
//!   (equal games up to renumbering and mirror image get equal strings), with the game-preserving
//!   reductions GLOP applies; [`Position::lands`]: the independent parts; [`LandForm`]: the
//!   canonical form of one land as a value (its lives, distinct moves, children and position),
//!   the solver's key.
//! * [`notation`]: GLOP notation; [`canon`]: canonical forms and keys; [`perft`]: exhaustive
//!   counts.
//!
//! # Examples
//!
//! ```
//! use sprouts_topo::Position;
//!
//! // Three seeds; join 1 and 2, then play a loop at 3 enclosing nothing.
//! let p = Position::new(3);
//! let join = p.moves().find(|m| m.describe(&p) == "1 -> 2").unwrap();
//! let p = p.play(&join).unwrap();
//! assert_eq!(p.to_glop(), "1a1a.0");
//! let lp = p.moves().find(|m| m.describe(&p) == "3 -> 3 enclosing nothing").unwrap();
//! let p = p.play(&lp).unwrap();
//! assert_eq!(p.next_spot().get(), 6);
//! // The loop made a region with only the new spot and 3 on it: two lives, still alive.
//! assert_eq!(p.region_count(), 2);
//! assert_eq!(p.canonical().as_str(), "1a1a.AB|AB");
//! ```
//!
//! Reading and canonicalising GLOP notation:
//!
//! ```
//! use sprouts_topo::Position;
//! let p = Position::parse_glop("0*8.AB|0*3.AB").unwrap();
//! let q = Position::parse_glop("0*3.BA|0*8.AB").unwrap();
//! assert_eq!(p.canonical(), q.canonical());
//! assert_eq!(p.distinct_children().len(), q.distinct_children().len());
//! ```

#![allow(
    clippy::needless_range_loop,
    reason = "positions are flat arrays read in parallel by index; index loops say so plainly"
)]

mod children;
mod key;
mod move_notation;
mod moves;
mod position;
mod prefetch;
mod setup;
mod spot;

pub mod canon;
#[doc(hidden)]
pub mod checks;
pub mod notation;
pub mod perft;

pub use canon::{CanonicalForm, LandForm, LandFormError, Reductions};
pub use children::{ChildLands, ListingStopped};
pub use key::{GameKey, GameKeyParseError};
pub use move_notation::{IllegalMove, MoveNotation, MoveNotationParseError};
pub use moves::{Family, FamilyMoves, Move, MoveError, Moves};
pub use notation::{ParseError, ParseErrorKind};
pub use position::{Boundary, BoundaryId, Corner, Position, Region, RegionId};
pub use setup::{Setup, SetupError, SetupProblem};
pub use spot::{Lives, SpotId, SpotKind};

/// One position per canonical form reachable from `n` seeds, down to `max_depth` moves, level
/// by level: the exhaustive sets the unit tests compare fast paths with references on.
#[cfg(test)]
pub(crate) fn reachable_positions(n: u32, max_depth: usize) -> Vec<Position> {
    let mut seen = std::collections::HashSet::new();
    let mut all = Vec::new();
    let mut layer = vec![Position::new(n)];
    let mut depth = 0;
    while !layer.is_empty() && depth <= max_depth {
        let mut next = Vec::new();
        for p in &layer {
            for mv in p.distinct_moves() {
                let q = p.play(&mv).expect("a listed move is legal");
                if seen.insert(q.canonical()) {
                    next.push(q);
                }
            }
        }
        all.append(&mut layer);
        layer = next;
        depth += 1;
    }
    all
}

/// The positions of a random game from `n` seeds, one after each move: move `c % count` of
/// the listed moves for each choice `c`, until the game ends (for the property tests).
#[cfg(test)]
pub(crate) fn random_game(n: u32, choices: &[u16]) -> Vec<Position> {
    let mut p = Position::new(n);
    let mut out = Vec::new();
    for &c in choices {
        let moves: Vec<_> = p.moves().collect();
        if moves.is_empty() {
            break;
        }
        p = p.play(&moves[usize::from(c) % moves.len()]).unwrap();
        out.push(p.clone());
    }
    out
}

/// Positions, moves and keys are plain data: they can be shared between threads.
#[cfg(test)]
mod thread_safety {
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn types_are_send_and_sync() {
        assert_send_sync::<crate::Position>();
        assert_send_sync::<crate::Move>();
        assert_send_sync::<crate::Family>();
        assert_send_sync::<crate::GameKey>();
        assert_send_sync::<crate::CanonicalForm>();
        assert_send_sync::<crate::LandForm>();
        assert_send_sync::<crate::MoveNotation>();
    }
}

/// The crate's README, whose example runs as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
