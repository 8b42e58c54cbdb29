//! M's first half (spec 4.3): spots slid along their move's spline, seeds moved in their
//! region, each to where it has the most room.
//!
//! - A spot a move made sits on the move's spline while it has only the move's two curves
//!   ([`Drawing::move_pair`]). It slides by cutting the spline elsewhere
//!   ([`Spline::recut`]): the curve does not change shape, so nothing can cross and no region
//!   changes. The candidates lie a minimum clearance apart along the spline; the one taken is
//!   the nearest whose room (the spot's gap to everything else) is within 5% of the best
//!   room, capped at the comfort distance: far enough to open a narrow passage, no farther.
//! - A seed (a spot with no curves) moves in straight steps, each shorter than half its gap to
//!   everything, so that its disc never touches anything on the way and it stays in its
//!   region; each step goes to the best of 16 directions, until the room stops growing.
//!
//! Room is measured on the picture sampled into the polylines of [`Net`] (the same sampling
//! as A and R), to the comfort distance. The board's authority check decides as for every
//! rearrangement.

use sprouts_geom::{Point, Snap, Spline, Vector, approx, point_segment_distance};
use sprouts_topo::SpotId;

use super::LocalError;
use super::net::Net;
use crate::board::{Board, TransactionError};
use crate::drawing::{CurveId, Drawing, Settings};

/// A spot moved by [`Board::slide_spots`].
#[derive(Clone, Debug, PartialEq)]
pub struct SpotMoved {
    /// The spot.
    pub spot: SpotId,
    /// Whether it is a seed (moved in its region) rather than a spot slid along its curves.
    pub seed: bool,
    /// How far it moved (pixels: along the spline for a slide, straight for a seed).
    pub distance: f64,
    /// Its room (its gap to everything else, up to the comfort distance) before and after
    /// (pixels).
    pub room: (f64, f64),
}

/// What [`Board::slide_spots`] did.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SlideReport {
    /// The spots moved, in the order they were moved.
    pub moved: Vec<SpotMoved>,
    /// The spots looked at that could move (slid or seeds).
    pub looked_at: usize,
}

/// The least gain of room (pixels) for which a spot is moved.
const LEAST_GAIN: f64 = 1.0;

/// The spots of `drawing` M can move: those a move made that have only its two curves, and
/// seeds; among `only` when given.
pub(crate) fn movable_spots(drawing: &Drawing, only: Option<&[SpotId]>) -> Vec<SpotId> {
    drawing
        .spots()
        .iter()
        .map(|s| s.id)
        .filter(|&id| only.is_none_or(|o| o.contains(&id)))
        .filter(|&id| drawing.degree(id) == 0 || slide_pair(drawing, id).is_some())
        .collect()
}

/// The move's two curves `(x → z, z → y)` of spot `z`, if it can slide along them.
fn slide_pair(drawing: &Drawing, z: SpotId) -> Option<(CurveId, CurveId)> {
    let c = drawing.curves_at(z).next()?;
    let (a, b) = drawing.move_pair(c)?;
    (drawing.curve(a)?.to == z).then_some((a, b))
}

/// The room of a spot of radius `r` at `p`: its gap to every segment of `net` not skipped by
/// `skip`, to every spot but `own` (node index), and to the window's edge; at most `reach`.
fn room_at(
    net: &Net,
    p: Point,
    r: f64,
    own: usize,
    reach: f64,
    skip: &dyn Fn(usize) -> bool,
) -> f64 {
    let (w, h) = net.world;
    let mut room = reach
        .min(p.x - r)
        .min(w - p.x - r)
        .min(p.y - r)
        .min(h - p.y - r);
    for (s, &(a, b)) in net.segs.iter().enumerate() {
        if skip(s) {
            continue;
        }
        let (pa, pb) = (net.pts[a], net.pts[b]);
        // A cheap bound first: the segment's box is farther than the room found.
        let dx = (pa.x.min(pb.x) - p.x).max(p.x - pa.x.max(pb.x)).max(0.0);
        let dy = (pa.y.min(pb.y) - p.y).max(p.y - pa.y.max(pb.y)).max(0.0);
        if dx.hypot(dy) - r >= room {
            continue;
        }
        room = room.min(point_segment_distance(p, pa, pb) - r);
    }
    for v in 0..net.spots {
        if v != own {
            room = room.min((net.pts[v] - p).norm() - r - net.radius[v]);
        }
    }
    room
}

/// The spots `targets` of `drawing` moved to where they have the most room (see the module
/// docs), one after another; the new drawing and what was done.
///
/// # Errors
/// [`LocalError::Sampling`] when the picture cannot be sampled, [`LocalError::Spline`] when a
/// spline cannot be cut, [`LocalError::NoGain`] when no spot gains room.
pub(crate) fn slide_drawing(
    drawing: &Drawing,
    settings: &Settings,
    targets: &[SpotId],
) -> Result<(Drawing, SlideReport), LocalError> {
    let _span = tracing::debug_span!("slide", targets = targets.len()).entered();
    let d0 = settings.min_clearance;
    let reach = settings.comfort_distance;
    let mut net = Net::of_drawing(drawing, 0.5 * d0).map_err(|_| LocalError::Sampling)?;
    // The path (curve) of every segment, to skip a spot's own curves.
    let seg_path: Vec<usize> = net
        .paths
        .iter()
        .enumerate()
        .flat_map(|(c, p)| std::iter::repeat_n(c, p.len() - 1))
        .collect();
    let mut out = drawing.clone();
    let mut report = SlideReport::default();
    for &z in targets {
        let Some(v) = drawing.spots().iter().position(|s| s.id == z) else {
            continue;
        };
        let r = drawing.spots()[v].radius;
        if drawing.degree(z) == 0 {
            report.looked_at += 1;
            let (to, room) = seed_walk(&net, v, r, reach);
            if room.1 >= room.0 + LEAST_GAIN {
                let distance = (to - net.pts[v]).norm();
                out.set_spot_centre(z, to)?;
                net.pts[v] = to;
                report.moved.push(SpotMoved {
                    spot: z,
                    seed: true,
                    distance,
                    room,
                });
            }
            continue;
        }
        let Some((first, second)) = slide_pair(&out, z) else {
            continue;
        };
        report.looked_at += 1;
        let (a, b) = (
            &out.curve(first).expect("a curve").spline,
            &out.curve(second).expect("a curve").spline,
        );
        let joined = Spline::join(a, b).map_err(|e| LocalError::Spline(e.to_string()))?;
        let accuracy = 1e-3;
        let here =
            approx::arc_length(a, accuracy).map_err(|e| LocalError::Spline(e.to_string()))?;
        let length =
            approx::arc_length(&joined, accuracy).map_err(|e| LocalError::Spline(e.to_string()))?;
        // Arc positions of the nodes of the move's two paths, to skip the stretch of its own
        // curves near a candidate (a curve folding back on itself still counts).
        let own = own_arcs(&net, &seg_path, first.index(), second.index(), here);
        let window = 3.0 * (r + d0);
        let room_of =
            |s: f64, p: Point| room_at(&net, p, r, v, reach, &|seg| (own[seg] - s).abs() < window);
        let now = room_of(here, net.pts[v]);
        let mut candidates: Vec<(f64, f64, Point)> = Vec::new();
        let end_gap = 2.0 * r + d0;
        let mut s = end_gap;
        while s < length - end_gap {
            let at = approx::param_at_arc_length(&joined, s, accuracy)
                .map_err(|e| LocalError::Spline(e.to_string()))?;
            let p = joined.eval(at);
            candidates.push((s, room_of(s, p), p));
            s += d0;
        }
        let Some(best) = candidates.iter().map(|c| c.1).reduce(f64::max) else {
            continue;
        };
        let enough = 0.95 * best.min(reach);
        let Some(&(target, room, _)) = candidates
            .iter()
            .filter(|c| c.1 >= enough)
            .min_by(|x, y| (x.0 - here).abs().total_cmp(&(y.0 - here).abs()))
        else {
            continue;
        };
        if room < now + LEAST_GAIN {
            continue;
        }
        let cut = Spline::recut(a, b, target, Snap::Parameter(1.0), accuracy)
            .map_err(|e| LocalError::Spline(e.to_string()))?;
        let point = cut.point;
        out.set_spline(first, cut.first)?;
        out.set_spline(second, cut.second)?;
        out.set_spot_centre(z, point)?;
        let after = room_of(target, point);
        net.pts[v] = point;
        report.moved.push(SpotMoved {
            spot: z,
            seed: false,
            distance: (target - here).abs(),
            room: (now, after),
        });
    }
    if report.moved.is_empty() {
        return Err(LocalError::NoGain);
    }
    Ok((out, report))
}

/// The arc length along a move's joined spline of the middle of every segment of its two
/// paths (`first`, then `second` starting at the spot's arc length `here`), measured on the
/// polylines; infinity for the segments of other paths.
fn own_arcs(net: &Net, seg_path: &[usize], first: usize, second: usize, here: f64) -> Vec<f64> {
    let mut out = vec![f64::INFINITY; net.segs.len()];
    let mut s = 0.0;
    for (k, &(a, b)) in net.segs.iter().enumerate() {
        let c = seg_path[k];
        if c != first && c != second {
            continue;
        }
        if c == second && a == net.paths[second][0] {
            // The second path starts at the spot (its polyline is a little shorter or longer
            // than the spline; the spot's own arc length keeps the two in step).
            s = here;
        }
        let len = (net.pts[b] - net.pts[a]).norm();
        out[k] = s + 0.5 * len;
        s += len;
    }
    out
}

/// A seed's walk (node `v`, radius `r`) to more room: steps of half its gap, each to the best
/// of 16 directions, while the room grows by a tenth of a pixel and is below `reach`. The
/// place reached and the room before and after.
fn seed_walk(net: &Net, v: usize, r: f64, reach: f64) -> (Point, (f64, f64)) {
    let room = |p: Point| room_at(net, p, r, v, reach, &|_| false);
    let start = net.pts[v];
    let before = room(start);
    let (mut p, mut now) = (start, before);
    for _ in 0..24 {
        if now >= reach || now <= 0.0 {
            break;
        }
        let step = 0.5 * now;
        let best = (0..16)
            .map(|k| {
                let a = std::f64::consts::PI * k as f64 / 8.0;
                let q = p + step * Vector::new(a.cos(), a.sin());
                (room(q), q)
            })
            .max_by(|x, y| x.0.total_cmp(&y.0));
        match best {
            Some((g, q)) if g > now + 0.1 => {
                p = q;
                now = g;
            }
            _ => break,
        }
    }
    (p, (before, now))
}

/// M's slide as a board transaction.
impl Board {
    /// Slides spots along their move's curves and moves seeds in their regions to where they
    /// have the most room (spec 4.3; see `movable_spots`): the spots `only` names, or every
    /// spot that can move whose room is below the comfort distance. A rearrangement: the
    /// position read back must be the one before; one step of the history.
    ///
    /// # Errors
    /// [`LocalError::NoGain`] when no spot gains room, the other [`LocalError`]s, or the
    /// check's verdict; the board is then exactly as before.
    pub fn slide_spots(
        &mut self,
        only: Option<&[SpotId]>,
    ) -> Result<SlideReport, TransactionError<LocalError>> {
        let settings = *self.settings();
        let targets = movable_spots(self.drawing(), only);
        if targets.is_empty() {
            return Err(TransactionError::Edit(LocalError::NoGain));
        }
        self.rearrange_to("slide", |d| slide_drawing(d, &settings, &targets))
    }
}

/// A report in words for the log.
pub fn slide_words(r: &SlideReport) -> String {
    let slid = r.moved.iter().filter(|m| !m.seed).count();
    let seeds = r.moved.len() - slid;
    let least = |f: fn(&SpotMoved) -> f64| r.moved.iter().map(f).fold(f64::INFINITY, f64::min);
    format!(
        "slide: {slid} spots slid and {seeds} seeds moved of {} looked at, least room {:.1} -> {:.1} px",
        r.looked_at,
        least(|m| m.room.0),
        least(|m| m.room.1)
    )
}
