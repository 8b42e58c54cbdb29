//! The drawing layer of Sprouts: pictures of positions, read back and checked.
//!
//! `sprouts-draw` stands on the two leaf crates: `sprouts-topo` decides what the rules allow,
//! `sprouts-geom` certifies what curves do. This crate holds the contract between them (spec
//! 1.2, *the position is the authority*): a picture is read back into a position from scratch,
//! and every operation on a picture is kept only if the position read back is the one it
//! should be.
//!
//! - [`Drawing`]: the picture (world size, spots, curves as splines, which move made each curve)
//!   and [`Settings`] (minimum clearance, comfort distance, room against length, spot radius).
//! - [`analyse`]: picture to position (spec 2.3): half-edges, rotation system, face walks, outer
//!   walks by signed area, nesting, Euler's formula; an [`Analysis`] with the position,
//!   [`Analysis::region_at`] and [`Analysis::corner_at`], or an [`AnalyseError`] naming the
//!   curves at fault.
//! - [`Board`]: position, picture and history. Every change is a transaction checked by the
//!   authority check; undo and redo, with steps that group a rearrangement and the move it made
//!   room for.
//! - [`SavedGame`]: the versioned JSON format of a game.
//! - [`check_picture`]: whether a picture drawn by hand ([`HandPicture`]) is a legal Sprouts
//!   picture: a valid position, and (unless any valid position will do) one reached by moves
//!   from some n-spot start, its curves grouped into moves by [`group_moves`].
//! - [`PictureQuality`]: how readable a picture is (least gap, crowding, sharp turns, shrunk
//!   spots, clipped labels, the share of the window used).
//! - [`svg`]: SVG (and PNG, feature `png`, on by default) pictures of a board.
//! - Drawing a move (spec 3): [`Board::reachable`] (the spots a curve can reach from a side),
//!   [`Board::draw_request`] (a person's move: spots, sides, marks, stroke) and
//!   [`Board::draw_move`] (the computer's `sprouts-topo` move), each a checked transaction that
//!   draws a certified spline or returns a [`Refusal`] saying why not.
//! - `testing` (feature `testing`): a grid drawer that draws random legal moves, for tests and
//!   benches here and in the crates that build on this one.
//!
//! Part 2 of the drawing layer (the router, the elastic band, making room) builds on
//! [`Board::play`] and [`Board::rearrange`] (the only ways to change a picture), on
//! [`Board::in_one_step`] (a rearrangement and its move as one undo step), and on the map of
//! an [`Analysis`]: [`Analysis::corner_sector`] turns a `sprouts-topo` corner into the angle at a
//! spot a curve must use, [`Analysis::corner_at`] and [`Analysis::region_at`] go from a point to
//! a corner or region.
//!
//! # Example: a loop read back
//! ```
//! use sprouts_draw::{analyse, Drawing, DrawnSpot, Curve, WorldSize};
//! use sprouts_geom::{CubicBez, Point, Spline};
//! use sprouts_topo::SpotId;
//!
//! let s = |n| SpotId::new(n).unwrap();
//! let mut d = Drawing::new(WorldSize::new(400.0, 300.0)).unwrap();
//! let centre = Point::new(100.0, 150.0);
//! for (id, p) in [(1, centre), (2, Point::new(300.0, 150.0)), (3, Point::new(200.0, 150.0))] {
//!     d.add_spot(DrawnSpot { id: s(id), centre: p, radius: 4.0 }).unwrap();
//! }
//! // A loop from spot 1 round spot 3 and back, through the new spot 2 (spline cut in two).
//! let top = CubicBez::new(centre, Point::new(140.0, 20.0), Point::new(300.0, 20.0), Point::new(300.0, 150.0));
//! let bottom = CubicBez::new(Point::new(300.0, 150.0), Point::new(300.0, 280.0), Point::new(140.0, 280.0), centre);
//! for (from, to, bez) in [(1, 2, top), (2, 1, bottom)] {
//!     let spline = Spline::from_cubic(bez, 250.0).unwrap();
//!     d.add_curve(sprouts_draw::Curve { from: s(from), to: s(to), spline, origin: None }).unwrap();
//! }
//! let a = analyse(&d).unwrap();
//! // Spot 3 is inside the loop: the inner face holds it, the outside holds nothing else.
//! assert_eq!(a.position().region_count(), 2);
//! let inside = a.region_at(Point::new(200.0, 120.0)).unwrap();
//! assert_eq!(a.position().region(inside).unwrap().boundary_count(), 2);
//! ```

mod analyse;
mod board;
mod drawing;
mod drawn;
mod heroic;
mod ladder;
mod layout;
mod legal;
mod near;
mod quality;
mod room;
mod route;
mod saved;
pub mod svg;
#[cfg(feature = "testing")]
pub mod testing;

pub use analyse::{
    AnalyseError, Analysis, BoundaryPicture, CERTIFY_EPS, CERTIFY_MAX_LEG, MAX_REFINEMENTS, Sector,
    analyse,
};
pub use board::{
    Board, BoardError, Mismatch, MoveContext, PlayedMove, Step, StepKind, TransactionError,
};
pub use drawing::{
    Curve, CurveId, CurveOrigin, Drawing, DrawingError, DrawnSpot, Half, HalfEdgeId,
    LEAST_SPOT_RADIUS, MAX_SPOT_ID, MAX_WORLD_SIDE, Settings, WorldSize,
};
pub use drawn::DrawnMove;
pub use ladder::{
    HumanRoom, LadderOptions, LadderRefusal, LadderReport, RoomStep, Rung, fresh_words,
};
pub use layout::{FreshMove, FreshOptions, FreshReport, LayoutError};
pub use legal::{
    Conflict, GroupedMove, HandCurve, HandPicture, LegalPicture, Legality, MAX_GROUPING_STEPS,
    MAX_HAND_CURVES, MAX_HAND_POINTS, MoveHistory, PictureError, Unreachable, check_picture,
    group_moves, group_moves_by_peeling,
};
pub use quality::{
    CROWDED, Gap, NEAR, PictureQuality, SAMPLE_STEP, SHARED_SPOT_REACH, SHARP_TURN, TURN_WINDOW,
    Thing,
};
pub use room::local::{LocalReport, PUSH_ROUNDS, local_words};
pub use room::push::{PUSH_REACH, PushReport, push_words};
pub use room::slide::{SlideReport, SpotMoved, slide_words};
pub use room::{LocalError, RelaxError, RelaxMode, RelaxOptions, RelaxReport, relax_words};
pub use route::{BandSettings, DrawRequest, Equivalent, Reachable, Refusal, RouteMethod, Side};
pub use saved::{
    HeaderFault, LoadError, SAVED_GAME_VERSION, SavedGame, SavedMove, SavedStart, check_header,
    replay_moves,
};

/// The crate's README, whose example runs as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
