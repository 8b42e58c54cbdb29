//! M's second half (spec 4.4): the curves near a ghost path pushed apart.
//!
//! The ghost is the way a move would take if there were room (the caller's route, such as
//! the one the router found at a tight clearance before the certificate refused it). The
//! curves with a point within two minimum clearances of it are the ones to move. Each moves
//! as a whole: its polyline (the net of A and R, [`Net`]) relaxes under the same energy as A's
//! ([`Model`]), with the ghost an extra, fixed polyline that crowds it; the descent is the
//! same capped L-BFGS ([`descend`]), so by Bertault's PrEd caps no point moves more than a
//! third of its gap to anything it could hit and nothing crosses. A move's spot whose two
//! curves both move rides along; every other spot stays where it is, and so do the first and
//! last points of a curve past such spots, so a curve keeps its ends and leaves and reaches
//! them in nearly the same directions. Then only the curves moved
//! are fitted again as clamped C² splines ([`refit::refit_curves`]); every other curve keeps
//! its spline exactly.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use sprouts_geom::{Point, point_segment_distance};

use super::descent::descend;
use super::energy::{Model, Weights};
use super::net::{Net, Pair};
use super::{LocalError, RelaxOptions, refit};
use crate::board::{Board, TransactionError};
use crate::drawing::{CurveId, Drawing, Settings};

/// What [`Board::push_curves`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct PushReport {
    /// The curves moved.
    pub curves: Vec<CurveId>,
    /// Points of those curves that moved.
    pub nodes: usize,
    /// L-BFGS iterations taken.
    pub iterations: u64,
    /// The room round the ghost (the least gap between it and anything else, pixels, up to
    /// the comfort distance) before and after.
    pub ghost_room: (f64, f64),
    /// Curves moved that are kept as polylines (their fitted spline would break the picture).
    pub straight_curves: Vec<CurveId>,
    /// Whether the stop flag ended the descent early.
    pub stopped: bool,
}

/// How near the ghost (in minimum clearances) a curve must come to be moved.
pub const PUSH_REACH: f64 = 2.0;

/// The ghost as it is used: without its stretches within `keep_off` of its two ends (they lie
/// at the move's spots, which cannot move), with no leg longer than `h`.
fn trimmed_ghost(ghost: &[Point], keep_off: f64, h: f64) -> Vec<Point> {
    let (Some(&first), Some(&last)) = (ghost.first(), ghost.last()) else {
        return Vec::new();
    };
    let inner: Vec<Point> = ghost
        .iter()
        .copied()
        .filter(|p| (*p - first).norm() > keep_off && (*p - last).norm() > keep_off)
        .collect();
    let mut out: Vec<Point> = Vec::with_capacity(inner.len());
    for &p in &inner {
        if let Some(&q) = out.last() {
            let len = (p - q).norm();
            if len == 0.0 {
                continue;
            }
            let n = (len / h).ceil() as usize;
            for k in 1..n {
                out.push(q + (p - q) * (k as f64 / n as f64));
            }
        }
        out.push(p);
    }
    out
}

/// The least gap between the ghost (nodes `ghost_nodes`, segments from `ghost_segs` on) and
/// anything else of `net` at `pts`, at most `reach`.
fn ghost_room(
    net: &Net,
    pts: &[Point],
    ghost_nodes: std::ops::Range<usize>,
    ghost_segs: usize,
    reach: f64,
) -> f64 {
    let mut room = reach;
    net.near_pairs(pts, reach, |pair| {
        if let Pair::NodeSegment(v, s) = pair {
            let node_is_ghost = ghost_nodes.contains(&v);
            let seg_is_ghost = s >= ghost_segs;
            if node_is_ghost != seg_is_ghost {
                room = room.min(net.node_segment(pts, v, s).gap);
            }
        }
    });
    room
}

/// The curves of `drawing` near `ghost` pushed apart (see the module docs): a new drawing and
/// what was done. The result is a valid picture; whether it shows the same position is for
/// the caller's check.
///
/// # Errors
/// [`LocalError::NoGhost`] when the ghost is too short once its ends are left out or touches
/// the picture, [`LocalError::NothingNear`] when no curve is near it, the others when the
/// picture cannot be sampled or fitted again.
pub(crate) fn push_drawing(
    drawing: &Drawing,
    settings: &Settings,
    ghost: &[Point],
    options: &RelaxOptions,
    stop: &AtomicBool,
) -> Result<(Drawing, PushReport), LocalError> {
    let _span = tracing::debug_span!("push", ghost = ghost.len()).entered();
    if !options.is_valid() {
        return Err(LocalError::Relax(super::RelaxError::BadOptions));
    }
    let d0 = settings.min_clearance;
    let comfort = settings.comfort_distance;
    let h = (0.25 * comfort).max(2.0);
    let net = Net::of_drawing(drawing, h).map_err(|_| LocalError::Sampling)?;
    let ghost = trimmed_ghost(ghost, settings.spot_radius + 2.0 * d0, h);
    if ghost.len() < 2 {
        return Err(LocalError::NoGhost(
            "the way is too short once its ends at the spots are left out".into(),
        ));
    }
    let curves = net.paths.len();
    let n = net.pts.len();
    // The curves with a point within reach of the ghost.
    let reach = PUSH_REACH * d0;
    let near = |p: Point| {
        ghost
            .windows(2)
            .any(|w| point_segment_distance(p, w[0], w[1]) < reach)
    };
    let moved: Vec<bool> = net
        .paths
        .iter()
        .map(|path| path[1..path.len() - 1].iter().any(|&v| near(net.pts[v])))
        .collect();
    // A move's spot rides along when both its curves move (spec 4.4); other spots stay, and
    // so do the points next to them.
    let rides: Vec<bool> = drawing
        .spots()
        .iter()
        .map(|s| {
            let pair = drawing
                .curves_at(s.id)
                .next()
                .and_then(|c| drawing.move_pair(c));
            pair.is_some_and(|(a, b)| {
                drawing.curve(a).is_some_and(|c| c.to == s.id)
                    && moved[a.index()]
                    && moved[b.index()]
            })
        })
        .collect();
    let mut free: Vec<usize> = (0..net.spots).filter(|&v| rides[v]).collect();
    for (path, _) in net.paths.iter().zip(&moved).filter(|(_, m)| **m) {
        let last = path.len() - 1;
        for i in 1..last {
            let held = (i == 1 && !rides[path[0]]) || (i + 1 == last && !rides[path[last]]);
            if !held {
                free.push(path[i]);
            }
        }
    }
    if free.is_empty() {
        return Err(LocalError::NothingNear);
    }
    // The net with the ghost as one more, fixed path.
    let mut pts = net.pts.clone();
    let mut radius = net.radius.clone();
    let mut paths = net.paths.clone();
    pts.extend(&ghost);
    radius.extend(std::iter::repeat_n(0.0, ghost.len()));
    paths.push((n..n + ghost.len()).collect());
    let ghost_segs = net.segs.len();
    let with_ghost = Net::from_paths(pts, radius, paths, net.spots, net.world);
    let before = ghost_room(
        &with_ghost,
        &with_ghost.pts,
        n..n + ghost.len(),
        ghost_segs,
        comfort,
    );
    if before <= 0.0 {
        return Err(LocalError::NoGhost("the way touches the picture".into()));
    }
    let labels = drawing
        .spots()
        .iter()
        .map(|s| {
            let digits = s.id.get().to_string().len() as f64;
            (2.0 + 7.5 * digits, 14.0)
        })
        .collect();
    let nodes = free.len();
    let model = Arc::new(Model {
        net: with_ghost,
        free,
        labels,
        w: Weights {
            comfort,
            spacing: h,
            lambda: settings.room_vs_length,
            bending: options.bending,
            evenness: 1.0,
            min_clearance: d0,
        },
    });
    let (x, descent) = descend(&model, options.rounds, options.iterations, stop);
    let moved_pts = model.positions(&x);
    let after = ghost_room(
        &model.net,
        &moved_pts,
        n..n + ghost.len(),
        ghost_segs,
        comfort,
    );
    let back = Net::from_paths(
        moved_pts[..n].to_vec(),
        net.radius.clone(),
        net.paths.clone(),
        net.spots,
        net.world,
    );
    let (out, straight, _) = refit::refit_curves(drawing, &back, settings, Some(&moved))?;
    Ok((
        out,
        PushReport {
            curves: (0..curves)
                .filter(|&c| moved[c])
                .map(|c| CurveId(c as u32))
                .collect(),
            nodes,
            iterations: descent.iterations,
            ghost_room: (before, after),
            straight_curves: straight,
            stopped: descent.stopped,
        },
    ))
}

/// M's push as a board transaction.
impl Board {
    /// Pushes the curves near `ghost` (a way a move would take, from its first spot to its
    /// second) apart (spec 4.4; see the module docs for how). A rearrangement: the position
    /// read back must be the one before; one step of the history. `stop` ends the descent
    /// where it is.
    ///
    /// # Errors
    /// A [`LocalError`] or the check's verdict; the board is then exactly as before.
    pub fn push_curves(
        &mut self,
        ghost: &[Point],
        options: &RelaxOptions,
        stop: &AtomicBool,
    ) -> Result<PushReport, TransactionError<LocalError>> {
        let settings = *self.settings();
        self.rearrange_to("push", |d| push_drawing(d, &settings, ghost, options, stop))
    }
}

/// A report in words for the log.
pub fn push_words(r: &PushReport) -> String {
    let mut s = format!(
        "push: {} curves ({} points, {} L-BFGS steps), room round the way {:.1} -> {:.1} px",
        r.curves.len(),
        r.nodes,
        r.iterations,
        r.ghost_room.0,
        r.ghost_room.1
    );
    if !r.straight_curves.is_empty() {
        s.push_str(&format!(
            ", {} curves kept as polylines",
            r.straight_curves.len()
        ));
    }
    if r.stopped {
        s.push_str(", stopped");
    }
    s
}
