//! From relaxed polylines back to splines: a clamped C² fit per curve
//! ([`sprouts_geom::fit_clamped`]), a move's two curves leaving their spot in one direction
//! while it has only them, the polyline itself where a fitted spline breaks the picture.

use sprouts_geom::{Point, Spline, Vector, fit_clamped, point_segment_distance};
use sprouts_topo::SpotId;

use super::RelaxError;
use super::net::Net;
use crate::analyse::analyse;
use crate::drawing::{Curve, CurveId, Drawing, DrawnSpot, Settings};

/// The picture of `drawing` with spots and curves where `net` has them: the drawing, the
/// curves kept as polylines and the spots that grew.
pub(crate) fn refit(
    drawing: &Drawing,
    net: &Net,
    settings: &Settings,
) -> Result<(Drawing, Vec<CurveId>, Vec<SpotId>), RelaxError> {
    refit_curves(drawing, net, settings, None)
}

/// As [`refit`], for the curves `moved` marks only (every curve when `None`): the others keep
/// their splines exactly (M's push moves a few curves and leaves the rest as they are).
pub(crate) fn refit_curves(
    drawing: &Drawing,
    net: &Net,
    settings: &Settings,
    moved: Option<&[bool]>,
) -> Result<(Drawing, Vec<CurveId>, Vec<SpotId>), RelaxError> {
    let (spots, grown) = grown_spots(drawing, net, settings);
    let kept = |c: usize| moved.is_some_and(|m| !m[c]);
    let polylines: Vec<Vec<Point>> = (0..net.paths.len())
        .map(|c| net.polyline(CurveId(c as u32)))
        .collect();
    let straight: Vec<Spline> = polylines
        .iter()
        .enumerate()
        .map(|(c, p)| {
            if kept(c) {
                Ok(drawing.curves()[c].spline.clone())
            } else {
                straight_spline(p)
            }
        })
        .collect::<Result<_, _>>()?;
    let tolerance = (0.25 * net.least_gap(settings.comfort_distance)).clamp(0.05, 1.5);
    let world = drawing.world();
    let inside = |s: &Spline| {
        let (lo, hi) = s.control_bounds();
        lo.x >= 0.0 && lo.y >= 0.0 && hi.x <= world.width && hi.y <= world.height
    };
    let mut splines: Vec<Spline> = (0..polylines.len())
        .map(|c| {
            if kept(c) {
                return straight[c].clone();
            }
            let (start, end) = directions(drawing, &polylines, c);
            fit_clamped(&polylines[c], start, end, tolerance)
                .map(|f| f.spline)
                .ok()
                .filter(|s| inside(s) || !inside(&straight[c]))
                .unwrap_or_else(|| straight[c].clone())
        })
        .collect();
    let assemble = |splines: &[Spline]| -> Result<Drawing, RelaxError> {
        let curves: Vec<Curve> = drawing
            .curves()
            .iter()
            .zip(splines)
            .map(|(c, s)| Curve {
                spline: s.clone(),
                ..c.clone()
            })
            .collect();
        Ok(Drawing::from_parts(world, spots.clone(), curves)?)
    };
    // Rounds of replacing the curves the analysis names by their polylines.
    for _ in 0..16 {
        let d = assemble(&splines)?;
        match analyse(&d) {
            Ok(_) => {
                let as_polylines = (0..splines.len())
                    .filter(|&c| !kept(c) && splines[c] == straight[c] && polylines[c].len() > 2)
                    .map(|c| CurveId(c as u32))
                    .collect();
                return Ok((d, as_polylines, grown));
            }
            Err(e) => {
                let mut changed = false;
                for c in e.curves() {
                    let k = c.index();
                    if k < splines.len() && splines[k] != straight[k] {
                        splines[k] = straight[k].clone();
                        changed = true;
                    }
                }
                if !changed {
                    return Err(RelaxError::Picture(e.to_string()));
                }
            }
        }
    }
    let d = assemble(&straight)?;
    analyse(&d).map_err(|e| RelaxError::Picture(e.to_string()))?;
    let all = (0..straight.len())
        .filter(|&c| !kept(c))
        .map(|c| CurveId(c as u32))
        .collect();
    Ok((d, all, grown))
}

/// The directions in which curve `c` leaves its first spot and arrives at its second: along
/// its end legs, except at the spot of a move whose two curves are the spot's only ones, where
/// both take the direction through the spot (the move's curve stays smooth there).
fn directions(drawing: &Drawing, polylines: &[Vec<Point>], c: usize) -> (Vector, Vector) {
    let p = &polylines[c];
    let n = p.len();
    let mut start = p[1] - p[0];
    let mut end = p[n - 1] - p[n - 2];
    if let Some((first, second)) = drawing.move_pair(CurveId(c as u32)) {
        let (a, b) = (&polylines[first.index()], &polylines[second.index()]);
        let through = b[1] - a[a.len() - 2];
        if through.norm() > 0.0 {
            if first.index() == c {
                end = through;
            } else {
                start = through;
            }
        }
    }
    (start, end)
}

/// The spots where the net has them; a spot drawn smaller than the settings' radius grows to
/// at most 0.45 of its room (the least distance to a segment not ending at it, half the way
/// to another spot), never shrinking.
fn grown_spots(drawing: &Drawing, net: &Net, settings: &Settings) -> (Vec<DrawnSpot>, Vec<SpotId>) {
    let mut grown = Vec::new();
    let spots = drawing
        .spots()
        .iter()
        .enumerate()
        .map(|(v, s)| {
            let mut radius = s.radius;
            if radius < settings.spot_radius {
                let p = net.pts[v];
                let mut room = f64::INFINITY;
                for &(a, b) in &net.segs {
                    if a != v && b != v {
                        room = room.min(point_segment_distance(p, net.pts[a], net.pts[b]));
                    }
                }
                for u in 0..net.spots {
                    if u != v {
                        room = room.min(0.5 * ((p - net.pts[u]).norm() - net.radius[u]));
                    }
                }
                let (w, h) = net.world;
                room = room.min(p.x).min(p.y).min(w - p.x).min(h - p.y);
                let r = (0.45 * room).min(settings.spot_radius);
                if r > radius {
                    radius = r;
                    grown.push(s.id);
                }
            }
            DrawnSpot {
                centre: net.pts[v],
                radius,
                ..*s
            }
        })
        .collect();
    (spots, grown)
}

/// The polyline as a spline of straight pieces.
pub(crate) fn straight_spline(p: &[Point]) -> Result<Spline, RelaxError> {
    Spline::polyline(p).map_err(|e| RelaxError::Picture(e.to_string()))
}
