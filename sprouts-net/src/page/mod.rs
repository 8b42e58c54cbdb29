//! The web UI's side of the network: the page's protocol and the session that plays one
//! page's game.
//!
//! A [`Session`] takes the page's messages one at a time ([`Session::handle_text`]) and
//! answers with messages for the page and, when something heavy must be done (the computer's
//! move, the drawing of a person's move, building a new or loaded game), a job that the server
//! runs off its async threads and hands back ([`Session::finish`], [`Session::finish_setup`],
//! [`Session::finish_reach`]). A message that is malformed, out of order, stale, for another
//! session, or asks for something the rules do not allow gets an `error` (or a `refused` for a
//! move the picture cannot take) and changes nothing.

mod analysis;
#[cfg(test)]
mod net_tests;
pub mod position_text;
pub mod protocol;
#[cfg(test)]
mod room_tests;
mod session;
pub mod store;
#[cfg(test)]
mod tests;

pub use analysis::{ANALYSIS_BUDGET, AnalysisJob, MAX_ANALYSIS_BUDGET, MIN_ANALYSIS_BUDGET};
pub use session::{
    COLOURS, Job, JobResult, MAX_LOG_LINES, MAX_SPOTS, MAX_STROKE_POINTS, MAX_STROKE_POINTS_SENT,
    MONTE_CARLO_GAMES_MAX, ReachJob, ReachResult, RelayCmd, Reply, Session, SetupJob, SetupResult,
    check_spec,
};
