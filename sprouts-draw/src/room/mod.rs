//! A and R (spec 4.5): one energy for the whole picture, minimised so that nothing crosses.
//!
//! 1. [`net`]: every curve becomes a polyline through its end spots and points about half the
//!    comfort distance apart (finer where the polylines would otherwise come closer than the
//!    curves do).
//! 2. [`energy`]: length, even spacing, bending, crowding up to the comfort distance (curve
//!    against curve, curve against spot, spot against spot, everything against the window's
//!    edge) and the spots' labels kept off the frame, with the exact gradient.
//! 3. [`descent`]: argmin's L-BFGS under a line search that honours the caps of Bertault's
//!    PrEd: no node moves more than a third of its gap to anything it could hit, so no two
//!    polylines ever cross and nothing leaves the window. A keeps the spots where they are, R
//!    moves everything.
//! 4. [`refit`]: each curve becomes a clamped C² spline fitted to its polyline (a move's two
//!    curves meet smoothly at its spot while it has only them); a curve whose fitted spline
//!    would break the picture is kept as its polyline. Spots drawn smaller than the settings'
//!    size grow back as far as their room allows.
//!
//! M, the local steps that come before A and R on the ladder, reuses the net, the energy and
//! the capped descent: [`slide`] (spots slid along their move's spline, seeds moved in their
//! region, spec 4.3) and [`push`] (the curves near a ghost path pushed apart, spec 4.4).
//!
//! [`crate::Board::relax`] runs it as a rearrangement, so the authority check decides: a
//! picture that reads back as another position is refused and the board left as it was.

pub(crate) mod descent;
pub(crate) mod energy;
pub(crate) mod local;
pub(crate) mod net;
pub(crate) mod push;
pub(crate) mod refit;
pub(crate) mod slide;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use sprouts_topo::SpotId;

use crate::board::{Board, TransactionError};
use crate::drawing::{CurveId, Drawing, Settings};
use energy::{Model, Weights};
use net::Net;

/// Which of the two whole-picture operations to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelaxMode {
    /// A (adjust): the spots stay where they are; the curves move.
    Adjust,
    /// R (rearrange): spots and curves move together.
    Rearrange,
}

impl RelaxMode {
    /// The key and label of the operation: `"A"` or `"R"`.
    pub fn label(self) -> &'static str {
        match self {
            RelaxMode::Adjust => "A",
            RelaxMode::Rearrange => "R",
        }
    }
}

/// How the descent of A and R is run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelaxOptions {
    /// Rounds of L-BFGS (each starts its memory afresh; the descent ends early when a round
    /// moves no point by a pixel).
    pub rounds: u32,
    /// L-BFGS iterations per round.
    pub iterations: u64,
    /// The spacing of the points along curves, as a fraction of the comfort distance.
    pub spacing: f64,
    /// The weight of bending (`κ`; 1 is the spec's `D² Σ θ²/ℓ`).
    pub bending: f64,
}

impl RelaxOptions {
    /// Whether the numbers make sense: at least one round and iteration, a spacing above 0
    /// and at most 4, a finite non-negative bending.
    pub fn is_valid(&self) -> bool {
        self.rounds > 0
            && self.iterations > 0
            && self.spacing > 0.0
            && self.spacing <= 4.0
            && self.bending.is_finite()
            && self.bending >= 0.0
    }
}

impl Default for RelaxOptions {
    /// Up to 4 rounds of 40 iterations, points half the comfort distance apart, the spec's
    /// bending.
    fn default() -> RelaxOptions {
        RelaxOptions {
            rounds: 4,
            iterations: 40,
            spacing: 0.5,
            bending: 1.0,
        }
    }
}

/// What A or R did.
#[derive(Clone, Debug, PartialEq)]
pub struct RelaxReport {
    /// A or R.
    pub mode: RelaxMode,
    /// Points of the net (spots and points along curves).
    pub nodes: usize,
    /// L-BFGS iterations taken.
    pub iterations: u64,
    /// The energy before and after the descent.
    pub energy: (f64, f64),
    /// The least gap between a point and a segment or spot of the polylines, before and after
    /// (pixels, up to the comfort distance).
    pub least_gap: (f64, f64),
    /// Curves kept as polylines (their fitted spline would not keep the picture valid).
    pub straight_curves: Vec<CurveId>,
    /// Spots drawn smaller than the settings' size that grew.
    pub grown_spots: Vec<SpotId>,
    /// Whether the stop flag ended the descent early (the picture is where it stopped).
    pub stopped: bool,
}

/// Why A or R could not be done.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RelaxError {
    /// The options are out of range ([`RelaxOptions::is_valid`]).
    #[error("the options of A and R are out of range")]
    BadOptions,
    /// The picture's curves could not be made into polylines that keep apart.
    #[error("the curves could not be sampled into polylines that keep apart")]
    Sampling,
    /// No valid picture came out of the refit.
    #[error("the relaxed picture is not valid: {0}")]
    Picture(String),
    /// The drawing could not be assembled.
    #[error(transparent)]
    Drawing(#[from] crate::drawing::DrawingError),
}

/// Why M (sliding spots, pushing curves apart; spec 4.3, 4.4) could not change the picture.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LocalError {
    /// No spot that can move gains room by moving.
    #[error("no spot can be given more room by sliding it or moving it")]
    NoGain,
    /// The picture's curves could not be made into polylines that keep apart.
    #[error("the curves could not be sampled into polylines that keep apart")]
    Sampling,
    /// A move's spline could not be cut where its spot slides to.
    #[error("a spline could not be cut: {0}")]
    Spline(String),
    /// There is no usable ghost path (the way the move would take).
    #[error("no way to push the curves from: {0}")]
    NoGhost(String),
    /// No curve lies near the ghost path.
    #[error("no curve lies near the way to push it from")]
    NothingNear,
    /// The curves pushed could not be fitted again.
    #[error(transparent)]
    Relax(#[from] RelaxError),
    /// The drawing could not be changed.
    #[error(transparent)]
    Drawing(#[from] crate::drawing::DrawingError),
}

/// The picture `drawing` relaxed by `mode` (see the module docs): a new drawing with the same
/// spots and curves (identities, order, moves), and what was done. The result is a valid
/// picture (it analyses); whether it shows the same position is for the caller's check.
///
/// # Errors
/// [`RelaxError`] when no valid picture comes out.
pub(crate) fn relax_drawing(
    drawing: &Drawing,
    settings: &Settings,
    mode: RelaxMode,
    options: &RelaxOptions,
    stop: &AtomicBool,
) -> Result<(Drawing, RelaxReport), RelaxError> {
    let _span = tracing::debug_span!("relax", mode = mode.label()).entered();
    if !options.is_valid() {
        return Err(RelaxError::BadOptions);
    }
    let comfort = settings.comfort_distance;
    let spacing = (options.spacing * comfort).max(1.0);
    let net = Net::of_drawing(drawing, spacing).map_err(|_| RelaxError::Sampling)?;
    let before = net.least_gap(comfort);
    let free: Vec<usize> = match mode {
        RelaxMode::Adjust => (net.spots..net.pts.len()).collect(),
        RelaxMode::Rearrange => (0..net.pts.len()).collect(),
    };
    let labels = drawing
        .spots()
        .iter()
        .map(|s| {
            let digits = s.id.get().to_string().len() as f64;
            (2.0 + 7.5 * digits, 14.0)
        })
        .collect();
    let model = Arc::new(Model {
        net,
        free,
        labels,
        w: Weights {
            comfort,
            spacing,
            lambda: settings.room_vs_length,
            bending: options.bending,
            evenness: 1.0,
            min_clearance: settings.min_clearance,
        },
    });
    let (x, descent) = descent::descend(&model, options.rounds, options.iterations, stop);
    let mut net = model.net.clone();
    net.pts = model.positions(&x);
    let after = net.least_gap(comfort);
    let (out, straight_curves, grown_spots) = refit::refit(drawing, &net, settings)?;
    Ok((
        out,
        RelaxReport {
            mode,
            nodes: net.pts.len(),
            iterations: descent.iterations,
            energy: descent.energy,
            least_gap: (before, after),
            straight_curves,
            grown_spots,
            stopped: descent.stopped,
        },
    ))
}

/// A and R as board transactions.
impl Board {
    /// Relaxes the whole picture by `mode` (A or R of spec 4.5): a rearrangement, so the
    /// position read back must be the one before (the authority check), one step of the
    /// history. `stop` ends the descent where it is.
    ///
    /// # Errors
    /// A [`RelaxError`] (inside [`TransactionError::Edit`]) or the check's verdict; the board
    /// is then exactly as before.
    pub fn relax(
        &mut self,
        mode: RelaxMode,
        options: &RelaxOptions,
        stop: &AtomicBool,
    ) -> Result<RelaxReport, TransactionError<RelaxError>> {
        let settings = *self.settings();
        self.rearrange_to(mode.label(), |d| {
            relax_drawing(d, &settings, mode, options, stop)
        })
    }
}

/// A report in words for the log.
pub fn relax_words(r: &RelaxReport) -> String {
    let mut s = format!(
        "{}: {} points, {} L-BFGS steps, energy {:.0} -> {:.0}, least gap {:.1} -> {:.1} px",
        r.mode.label(),
        r.nodes,
        r.iterations,
        r.energy.0,
        r.energy.1,
        r.least_gap.0,
        r.least_gap.1
    );
    if !r.straight_curves.is_empty() {
        s.push_str(&format!(
            ", {} curves kept as polylines",
            r.straight_curves.len()
        ));
    }
    if !r.grown_spots.is_empty() {
        s.push_str(&format!(", {} spots grown", r.grown_spots.len()));
    }
    if r.stopped {
        s.push_str(", stopped");
    }
    s
}

#[cfg(test)]
mod local_tests;
#[cfg(test)]
mod tests;
