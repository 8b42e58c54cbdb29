//! Step 1 of [`analyse`](super::analyse), and the checks before it: that a picture is a plane
//! drawing.
//!
//! Before any geometry, the cheap exact checks: curves near the drawing area, spots apart, curve
//! ends at their spots' centres, at most three at a spot, none tangent at a spot. Then every
//! curve is replaced by its refined control polygon, which stays within a certified bound of it,
//! and the certificates are run ([`certify`]): every curve simple, legs of different curves
//! apart, curves apart from the discs of the spots they do not end at, the cones of the curve
//! ends at each spot disjoint. What they leave undecided refines the curves involved, at most
//! [`MAX_REFINEMENTS`] times, and is then reported as touching ([`certified_polygons`]).

use sprouts_geom::certified::{self, Orientation, Verdict, leg_verdict};
use sprouts_geom::{Point, RefinedPolygon, refined_polygon};
use sprouts_topo::SpotId;

use super::{
    AnalyseError, CERTIFY_EPS, CERTIFY_MAX_LEG, CONE_MARGIN, MAX_CERTIFY_LEGS, MAX_REFINEMENTS,
};
use crate::drawing::{CurveId, Drawing, DrawnSpot as Spot};

/// Every curve within the drawing area widened by its larger side
/// ([`crate::WorldSize::holds_curve`]), so that no absurd coordinates reach the certificates.
///
/// # Errors
/// [`AnalyseError::CurveOutside`] for the first curve that is not.
pub(super) fn curves_near_area(drawing: &Drawing) -> Result<(), AnalyseError> {
    if let Some((e, c)) = drawing
        .curves()
        .iter()
        .enumerate()
        .find(|(_, c)| !drawing.world().holds_curve(&c.spline))
    {
        return Err(AnalyseError::CurveOutside {
            curve: CurveId(e as u32),
            from: c.from,
            to: c.to,
        });
    }
    Ok(())
}

/// The spots' `(identity, drawing index)` sorted by identity.
///
/// # Errors
/// [`AnalyseError::SpotsCoincide`] for two spots at one point.
pub(super) fn spots_by_id(spots: &[Spot]) -> Result<Vec<(SpotId, usize)>, AnalyseError> {
    let mut by_id: Vec<(SpotId, usize)> =
        spots.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
    by_id.sort_unstable_by_key(|&(id, _)| id);
    let mut order: Vec<usize> = (0..spots.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        let (p, q) = (spots[a].centre, spots[b].centre);
        p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y))
    });
    for w in order.windows(2) {
        if spots[w[0]].centre == spots[w[1]].centre {
            let (a, b) = (
                spots[w[0]].id.min(spots[w[1]].id),
                spots[w[0]].id.max(spots[w[1]].id),
            );
            return Err(AnalyseError::SpotsCoincide { a, b });
        }
    }
    Ok(by_id)
}

/// The number of curve ends at each spot (by drawing index; `index_of` gives a spot's).
///
/// # Errors
/// [`AnalyseError::CurveOffSpot`] for a curve end not exactly at its spot's centre,
/// [`AnalyseError::TooManyCurves`] for a spot with more than three curve ends.
pub(super) fn degrees(
    drawing: &Drawing,
    index_of: &dyn Fn(SpotId) -> usize,
) -> Result<Vec<usize>, AnalyseError> {
    let spots = drawing.spots();
    let mut degree = vec![0usize; spots.len()];
    for (e, c) in drawing.curves().iter().enumerate() {
        let curve = CurveId(e as u32);
        for (spot, p) in [(c.from, c.spline.start()), (c.to, c.spline.end())] {
            let i = index_of(spot);
            if spots[i].centre != p {
                return Err(AnalyseError::CurveOffSpot { curve, spot });
            }
            degree[i] += 1;
        }
    }
    if let Some(i) = (0..spots.len()).find(|&i| degree[i] > 3) {
        return Err(AnalyseError::TooManyCurves {
            spot: spots[i].id,
            ends: degree[i],
        });
    }
    Ok(degree)
}

/// No two curve ends tangent at a spot: no refinement separates them, so they are reported at
/// once (exactly: the tangent at an end is the direction to its first control point off the
/// spot).
///
/// # Errors
/// [`AnalyseError::DegenerateCurve`] for a curve end with all its control points at its spot,
/// [`AnalyseError::SameDirection`] for two curve ends leaving a spot in one direction.
pub(super) fn tangents_apart(
    drawing: &Drawing,
    index_of: &dyn Fn(SpotId) -> usize,
) -> Result<(), AnalyseError> {
    let spots = drawing.spots();
    let mut tangents: Vec<Vec<(usize, Point)>> = vec![Vec::new(); spots.len()];
    for (e, c) in drawing.curves().iter().enumerate() {
        let pieces = c.spline.pieces();
        let (first, last) = (&pieces[0].bez, &pieces[pieces.len() - 1].bez);
        for (spot, apex, others) in [
            (c.from, first.p0, [first.p1, first.p2, first.p3]),
            (c.to, last.p3, [last.p2, last.p1, last.p0]),
        ] {
            let Some(t) = others.into_iter().find(|p| *p != apex) else {
                return Err(AnalyseError::DegenerateCurve {
                    curve: CurveId(e as u32),
                    spot,
                });
            };
            tangents[index_of(spot)].push((e, t));
        }
    }
    for (i, ends) in tangents.iter().enumerate() {
        let c = spots[i].centre;
        for (k, &(a, ta)) in ends.iter().enumerate() {
            for &(b, tb) in &ends[k + 1..] {
                if certified::orient(c, ta, tb) == Orientation::Collinear
                    && same_side(c.x, ta.x, tb.x)
                    && same_side(c.y, ta.y, tb.y)
                {
                    return Err(AnalyseError::SameDirection {
                        spot: spots[i].id,
                        a: CurveId(a.min(b) as u32),
                        b: CurveId(a.max(b) as u32),
                    });
                }
            }
        }
    }
    Ok(())
}

/// The curves' refined polygons, certified to be a plane drawing: each curve refined at the
/// starting bounds (and to at least two sub-pieces), then the certificates run and what they
/// leave undecided refined further, until nothing is undecided.
///
/// # Errors
/// What the certificates find wrong, or what is still undecided past [`MAX_REFINEMENTS`] (or
/// past [`MAX_CERTIFY_LEGS`] legs), reported as touching; a curve that cannot be refined.
pub(super) fn certified_polygons(
    drawing: &Drawing,
    index_of: &dyn Fn(SpotId) -> usize,
) -> Result<Vec<RefinedPolygon>, AnalyseError> {
    let n_curves = drawing.curves().len();
    let mut polys = Polygons {
        polys: Vec::with_capacity(n_curves),
        eps: vec![CERTIFY_EPS; n_curves],
        max_leg: vec![CERTIFY_MAX_LEG; n_curves],
    };
    for (e, c) in drawing.curves().iter().enumerate() {
        polys.polys.push(
            refined_polygon(&c.spline, CERTIFY_EPS, CERTIFY_MAX_LEG).map_err(|source| {
                AnalyseError::Refine {
                    curve: CurveId(e as u32),
                    source,
                }
            })?,
        );
        if polys.polys[e].n_legs() < 6 {
            polys.refine(drawing, e)?;
        }
    }
    let mut attempt = 0;
    let mut simple = vec![false; n_curves];
    loop {
        let undecided = certify(drawing, &polys.polys, index_of, &mut simple)?;
        if undecided.is_empty() {
            return Ok(polys.polys);
        }
        // Past the last refinement, or past a size no picture needs: report what is undecided.
        let too_big = polys.polys.iter().any(|p| p.n_legs() > MAX_CERTIFY_LEGS);
        if attempt >= MAX_REFINEMENTS || too_big {
            return Err(undecided_error(drawing.spots(), undecided[0]));
        }
        polys.refine_undecided(drawing, &undecided)?;
        attempt += 1;
    }
}

/// The error reporting a question still undecided after the last refinement: touching.
fn undecided_error(spots: &[Spot], undecided: Undecided) -> AnalyseError {
    match undecided {
        Undecided::Pair(a, b) => AnalyseError::CurvesTouch {
            a: CurveId(a as u32),
            b: CurveId(b as u32),
        },
        Undecided::SelfTouch(e) => AnalyseError::SelfIntersecting {
            curve: CurveId(e as u32),
        },
        Undecided::Spot(e, i) => AnalyseError::CurveThroughSpot {
            curve: CurveId(e as u32),
            spot: spots[i].id,
        },
        Undecided::Cone(i, a, b) => AnalyseError::SameDirection {
            spot: spots[i].id,
            a: CurveId(a as u32),
            b: CurveId(b as u32),
        },
    }
}

/// The distance between the bounding boxes of two segments (a lower bound on their distance,
/// up to the rounding of one subtraction per axis and a hypotenuse).
fn box_gap((a0, a1): (Point, Point), (b0, b1): (Point, Point)) -> f64 {
    let dx = (a0.x.min(a1.x) - b0.x.max(b1.x))
        .max(b0.x.min(b1.x) - a0.x.max(a1.x))
        .max(0.0);
    let dy = (a0.y.min(a1.y) - b0.y.max(b1.y))
        .max(b0.y.min(b1.y) - a0.y.max(a1.y))
        .max(0.0);
    (dx * dx + dy * dy).sqrt()
}

/// Whether `a` and `b` lie on the same side of `c` on a line (or on it), exactly.
fn same_side(c: f64, a: f64, b: f64) -> bool {
    (a - c).signum() == (b - c).signum() || a == c || b == c
}

/// The refined polygons of the curves, each with the refinement it was made at.
struct Polygons {
    polys: Vec<RefinedPolygon>,
    eps: Vec<f64>,
    max_leg: Vec<f64>,
}

impl Polygons {
    /// Refines curve `e` at its current bounds, halving the longest leg until the polygon has at
    /// least two sub-pieces, so that its two end pieces are distinct.
    fn refine(&mut self, drawing: &Drawing, e: usize) -> Result<(), AnalyseError> {
        let spline = &drawing.curves()[e].spline;
        let curve = CurveId(e as u32);
        loop {
            let poly = refined_polygon(spline, self.eps[e], self.max_leg[e])
                .map_err(|source| AnalyseError::Refine { curve, source })?;
            if poly.n_legs() >= 6 {
                self.polys[e] = poly;
                return Ok(());
            }
            // A curve all of whose legs are points cannot be split; its end cones say so.
            if self.max_leg[e] < 1e-6 || poly.points().iter().all(|p| *p == poly.points()[0]) {
                self.polys[e] = poly;
                return Ok(());
            }
            self.max_leg[e] = self.max_leg[e].min(spline_extent(spline) / 4.0) / 2.0;
        }
    }

    /// Halves curve `e`'s bound (and its longest leg if `shorter`) and refines it again.
    fn refine_more(
        &mut self,
        drawing: &Drawing,
        e: usize,
        shorter: bool,
    ) -> Result<(), AnalyseError> {
        self.eps[e] /= 2.0;
        if shorter {
            self.max_leg[e] /= 2.0;
        }
        self.refine(drawing, e)
    }

    /// Refines the curves `undecided` involves: bounds halved; legs halved too where the end
    /// cones overlap (only a shorter first sub-piece narrows a cone).
    fn refine_undecided(
        &mut self,
        drawing: &Drawing,
        undecided: &[Undecided],
    ) -> Result<(), AnalyseError> {
        let mut again = vec![None; self.polys.len()];
        for u in undecided {
            match *u {
                Undecided::Cone(_, a, b) => {
                    again[a] = Some(true);
                    again[b] = Some(true);
                }
                Undecided::Pair(a, b) => {
                    again[a] = again[a].or(Some(false));
                    again[b] = again[b].or(Some(false));
                }
                Undecided::SelfTouch(e) | Undecided::Spot(e, _) => {
                    again[e] = again[e].or(Some(false))
                }
            }
        }
        for (e, shorter) in again.into_iter().enumerate() {
            if let Some(shorter) = shorter {
                self.refine_more(drawing, e, shorter)?;
            }
        }
        Ok(())
    }
}

/// The size of a spline's control box (never zero).
fn spline_extent(s: &sprouts_geom::Spline) -> f64 {
    let (lo, hi) = s.control_bounds();
    (hi - lo).norm().max(1e-300)
}

/// The angular interval, as `(start, end)` radians with `start` in `[0, 2π)` and `end > start`,
/// holding the part of a curve near its end spot: the first sub-piece of its refined polygon
/// lies in the cone at the spot spanned by its control points (convex hull property), widened by
/// the rounding of subdivision. `None` if the cone is not pointed (half a turn or wider) or
/// the sub-piece has no extent.
fn end_cone(apex: Point, points: [Point; 3], rounding: f64) -> Option<(f64, f64)> {
    let reference = points.iter().map(|p| p - apex).find(|v| v.norm() > 0.0)?;
    let base = reference.y.atan2(reference.x);
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for p in points {
        let v = p - apex;
        let len = v.norm();
        if len == 0.0 {
            continue;
        }
        let slack = if rounding >= len {
            return None;
        } else {
            (rounding / len).asin() * (1.0 + 1e-9)
        };
        let phi = (reference.perp(&v)).atan2(reference.dot(&v));
        lo = lo.min(phi - slack);
        hi = hi.max(phi + slack);
    }
    if hi - lo >= std::f64::consts::PI - CONE_MARGIN {
        return None;
    }
    let start = (base + lo).rem_euclid(std::f64::consts::TAU);
    Some((start, start + (hi - lo)))
}

/// An angular interval `(start, end)` in radians.
type Cone = (f64, f64);

/// Something undecided at the present refinement, to report if refining does not settle it.
#[derive(Clone, Copy)]
enum Undecided {
    Pair(usize, usize),
    SelfTouch(usize),
    Spot(usize, usize),
    Cone(usize, usize, usize),
}

/// Which end piece of its curve a leg is in, as the spot it is at.
fn end_spot_of_leg(
    drawing: &Drawing,
    poly: &RefinedPolygon,
    e: usize,
    leg: usize,
) -> Option<SpotId> {
    let c = &drawing.curves()[e];
    if leg < 3 {
        Some(c.from)
    } else if leg + 3 >= poly.n_legs() {
        Some(c.to)
    } else {
        None
    }
}

/// Runs every certificate of step 1 once and lists what is undecided at this refinement.
///
/// # Errors
/// What is certainly wrong: curves that cross, a curve through a spot, a self-crossing.
fn certify(
    drawing: &Drawing,
    polys: &[RefinedPolygon],
    index_of: &dyn Fn(SpotId) -> usize,
    simple: &mut [bool],
) -> Result<Vec<Undecided>, AnalyseError> {
    let mut undecided = Vec::new();
    certify_simple(drawing, polys, simple, &mut undecided)?;
    certify_cones(drawing, polys, index_of, &mut undecided);
    certify_apart(drawing, polys, &mut undecided)?;
    Ok(undecided)
}

/// Every curve simple (a curve certified simple stays so through the refinements, and is
/// marked in `simple`); the undecided ones are added to `undecided`.
///
/// # Errors
/// [`AnalyseError::SelfIntersecting`] for a curve that certainly crosses itself.
fn certify_simple(
    drawing: &Drawing,
    polys: &[RefinedPolygon],
    simple: &mut [bool],
    undecided: &mut Vec<Undecided>,
) -> Result<(), AnalyseError> {
    for (e, c) in drawing.curves().iter().enumerate() {
        if simple[e] {
            continue;
        }
        let verdict = certified::simplicity(&polys[e], c.from == c.to);
        match verdict {
            certified::Simplicity::Simple => simple[e] = true,
            certified::Simplicity::SelfIntersecting => {
                return Err(AnalyseError::SelfIntersecting {
                    curve: CurveId(e as u32),
                });
            }
            certified::Simplicity::Uncertain => undecided.push(Undecided::SelfTouch(e)),
        }
    }
    Ok(())
}

/// Disjoint cones of the curve ends at each spot: the pairs of ends whose cones are not
/// certainly apart (or not pointed) are added to `undecided`.
fn certify_cones(
    drawing: &Drawing,
    polys: &[RefinedPolygon],
    index_of: &dyn Fn(SpotId) -> usize,
    undecided: &mut Vec<Undecided>,
) {
    let mut ends: Vec<Vec<(usize, Option<Cone>)>> = vec![Vec::new(); drawing.spots().len()];
    for (e, c) in drawing.curves().iter().enumerate() {
        let pts = polys[e].points();
        let n = pts.len() - 1;
        // Rounding of the subdivision that made the sub-piece: at most 60 halvings of a piece
        // whose coordinates are at most `m` (see `sprouts_geom::refined_polygon`).
        let m = pts
            .iter()
            .map(|p| p.x.abs().max(p.y.abs()))
            .fold(0.0, f64::max);
        let rounding = 8.0 * f64::EPSILON * m * 61.0;
        ends[index_of(c.from)].push((e, end_cone(pts[0], [pts[1], pts[2], pts[3]], rounding)));
        ends[index_of(c.to)].push((
            e,
            end_cone(pts[n], [pts[n - 1], pts[n - 2], pts[n - 3]], rounding),
        ));
    }
    for (i, at) in ends.iter_mut().enumerate() {
        if at.len() < 2 {
            continue;
        }
        if let Some(&(e, _)) = at.iter().find(|(_, cone)| cone.is_none()) {
            let other = at.iter().map(|&(f, _)| f).find(|&f| f != e).unwrap_or(e);
            undecided.push(Undecided::Cone(i, e, other));
            continue;
        }
        at.sort_by(|a, b| a.1.expect("checked").0.total_cmp(&b.1.expect("checked").0));
        for k in 0..at.len() {
            let (e, (_, end)) = (at[k].0, at[k].1.expect("checked"));
            let (f, (start, _)) = if k + 1 < at.len() {
                (at[k + 1].0, at[k + 1].1.expect("checked"))
            } else {
                let (f, (s, t)) = (at[0].0, at[0].1.expect("checked"));
                (f, (s + std::f64::consts::TAU, t))
            };
            if end + CONE_MARGIN >= start {
                undecided.push(Undecided::Cone(i, e, f));
            }
        }
    }
}

/// Legs of different curves apart; curves apart from the spots they do not end at. The
/// candidates are the pairs of boxes (legs, and spots' discs) within reach of each other; the
/// undecided ones are added to `undecided` (each pair of curves, and each curve and spot, once).
///
/// # Errors
/// [`AnalyseError::CurvesCross`] or [`AnalyseError::CurveThroughSpot`] for the first pair found
/// certainly wrong.
fn certify_apart(
    drawing: &Drawing,
    polys: &[RefinedPolygon],
    undecided: &mut Vec<Undecided>,
) -> Result<(), AnalyseError> {
    let spots = drawing.spots();
    let curves = drawing.curves();
    let max_eps = polys.iter().map(|p| p.eps()).fold(0.0, f64::max);
    let mut boxes: Vec<crate::near::Bbox> = Vec::new();
    let mut owner: Vec<(u32, u32)> = Vec::new(); // (curve, leg), or (u32::MAX, spot index)
    for (e, poly) in polys.iter().enumerate() {
        for j in 0..poly.n_legs() {
            let (a, b) = poly.leg(j);
            boxes.push((
                Point::new(a.x.min(b.x), a.y.min(b.y)),
                Point::new(a.x.max(b.x), a.y.max(b.y)),
            ));
            owner.push((e as u32, j as u32));
        }
    }
    for (i, s) in spots.iter().enumerate() {
        let r = s.radius;
        boxes.push((
            Point::new(s.centre.x - r, s.centre.y - r),
            Point::new(s.centre.x + r, s.centre.y + r),
        ));
        owner.push((u32::MAX, i as u32));
    }
    let scale = boxes
        .iter()
        .map(|(lo, hi)| lo.x.abs().max(lo.y.abs()).max(hi.x.abs()).max(hi.y.abs()))
        .fold(1.0, f64::max);
    // Rounding of the box distances, many times over.
    let slack = 1e-9 * scale;
    let mut pair_seen: Vec<(usize, usize)> = Vec::new();
    let mut spot_seen: Vec<(usize, usize)> = Vec::new();
    let mut found: Option<AnalyseError> = None;
    crate::near::close_pairs(&boxes, 2.0 * max_eps + slack, CERTIFY_MAX_LEG, |i, j| {
        if found.is_some() {
            return;
        }
        let (a, b) = (owner[i], owner[j]);
        match (a.0 == u32::MAX, b.0 == u32::MAX) {
            (true, true) => {}
            (false, false) => {
                let (e, ja, f, jb) = (a.0 as usize, a.1 as usize, b.0 as usize, b.1 as usize);
                match legs_apart(drawing, polys, (e, ja), (f, jb), slack) {
                    Ok(true) => {}
                    Ok(false) => {
                        let key = (e.min(f), e.max(f));
                        if !pair_seen.contains(&key) {
                            pair_seen.push(key);
                            undecided.push(Undecided::Pair(key.0, key.1));
                        }
                    }
                    Err(err) => found = Some(err),
                }
            }
            (spot_first, _) => {
                let ((e, jl), i) = if spot_first {
                    ((b.0 as usize, b.1 as usize), a.1 as usize)
                } else {
                    ((a.0 as usize, a.1 as usize), b.1 as usize)
                };
                let (s, c) = (&spots[i], &curves[e]);
                if c.from == s.id || c.to == s.id || spot_seen.contains(&(e, i)) {
                    return;
                }
                match leg_clear_of_spot(s, &polys[e], e, jl) {
                    Ok(true) => {}
                    Ok(false) => {
                        spot_seen.push((e, i));
                        undecided.push(Undecided::Spot(e, i));
                    }
                    Err(err) => found = Some(err),
                }
            }
        }
    });
    match found {
        Some(err) => Err(err),
        None => Ok(()),
    }
}

/// Whether leg `ja` of curve `e` and leg `jb` of curve `f` are apart: true when certainly so
/// (or when they are the same curve, or legs of the end pieces of two curves at one spot, which
/// the cones decide), false when undecided.
///
/// # Errors
/// [`AnalyseError::CurvesCross`] when the two certainly cross.
fn legs_apart(
    drawing: &Drawing,
    polys: &[RefinedPolygon],
    (e, ja): (usize, usize),
    (f, jb): (usize, usize),
    slack: f64,
) -> Result<bool, AnalyseError> {
    if e == f {
        return Ok(true);
    }
    if let Some(s) = end_spot_of_leg(drawing, &polys[e], e, ja)
        && end_spot_of_leg(drawing, &polys[f], f, jb) == Some(s)
    {
        return Ok(true);
    }
    let (a0, a1) = polys[e].leg(ja);
    let (b0, b1) = polys[f].leg(jb);
    let (ra, rb) = (polys[e].leg_eps(ja), polys[f].leg_eps(jb));
    // Legs whose boxes are farther apart than both bounds are apart.
    if box_gap((a0, a1), (b0, b1)) * (1.0 - 1e-12) > ra + rb + slack {
        return Ok(true);
    }
    match leg_verdict((a0, a1, ra), (b0, b1, rb)) {
        Verdict::Apart(_) => Ok(true),
        Verdict::Intersect => Err(AnalyseError::CurvesCross {
            a: CurveId(e.min(f) as u32),
            b: CurveId(e.max(f) as u32),
        }),
        Verdict::Uncertain => Ok(false),
    }
}

/// Whether leg `jl` of curve `e` (polygon `poly`) is clear of the disc of spot `s`: true when
/// certainly so, false when undecided.
///
/// # Errors
/// [`AnalyseError::CurveThroughSpot`] when the curve certainly enters the disc.
fn leg_clear_of_spot(
    s: &Spot,
    poly: &RefinedPolygon,
    e: usize,
    jl: usize,
) -> Result<bool, AnalyseError> {
    let (b0, b1) = poly.leg(jl);
    let rb = poly.leg_eps(jl);
    let through = AnalyseError::CurveThroughSpot {
        curve: CurveId(e as u32),
        spot: s.id,
    };
    // Certainly inside the disc: the curve's part is within `rb` of the leg, which comes closer
    // to the centre than `radius - rb`.
    let d = sprouts_geom::point_segment_distance(s.centre, b0, b1);
    if d + rb < s.radius * (1.0 - 1e-9) {
        return Err(through);
    }
    match leg_verdict((s.centre, s.centre, s.radius), (b0, b1, rb)) {
        Verdict::Apart(_) => Ok(true),
        Verdict::Intersect => Err(through),
        Verdict::Uncertain => Ok(false),
    }
}
