//! Pictures drawn freely by hand (the page's editor): a [`HandPicture`] made into a
//! [`Drawing`], and [`check_picture`], which says whether a drawing is a legal Sprouts picture.
//!
//! A drawing is a *valid* position when [`analyse`] reads it: no curves cross or touch, no
//! curve passes through a spot, every spot has at most three curve ends. It is *reachable*
//! when, besides, its curves can be grouped into moves drawn one after another from some
//! n-spot start ([`group_moves`]).
//!
//! Grouping is all reachability needs: the picture's planarity does the rest. Take the moves
//! in an order found by the grouping. The picture after the first `k` of them is the final
//! picture without the later curves and middle spots, so it is a plane drawing too, and every
//! spot has at most three curve ends in it. Move `k + 1` is the curve `x - z - y` of the final
//! picture; apart from its ends it meets nothing of the earlier picture (the final picture has
//! no crossings, and `z` is new), so it runs inside one region of it, where `x` and `y` both
//! lie, each with a life left (its ends in the final picture are at most three). That is a
//! legal Sprouts move, and the position it makes is the one the earlier picture with the
//! curve added shows. So each picture in turn is a position reached by moves, the last one the
//! whole picture.

mod grouping;

use sprouts_geom::{CubicBez, Piece, Point, Spline};
use sprouts_topo::{Position, SpotId};

use crate::analyse::{AnalyseError, analyse};
use crate::drawing::{Curve, CurveId, Drawing, DrawingError, DrawnSpot, WorldSize};

pub use grouping::{
    Conflict, GroupedMove, MAX_GROUPING_STEPS, MoveHistory, Unreachable, group_moves,
    group_moves_by_peeling,
};

/// The most points a hand-drawn curve may have.
pub const MAX_HAND_POINTS: usize = 4_000;

/// The most curves a hand-drawn picture may have (a spot has at most three curve ends, and
/// a page's game at most a few hundred spots).
pub const MAX_HAND_CURVES: usize = 1_000;

/// What a picture must be to be accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Legality {
    /// Reached by moves from some n-spot start.
    #[default]
    Reachable,
    /// Any valid position (read by [`analyse`]), reached by moves or not.
    Valid,
}

/// A legal picture's position, with how it was reached when that was asked.
#[derive(Clone, Debug)]
pub struct LegalPicture {
    /// The position the picture shows.
    pub position: Position,
    /// The seeds and the moves ([`Legality::Reachable`] only).
    pub history: Option<MoveHistory>,
}

/// Why a hand-drawn picture is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PictureError {
    /// The picture has no spot: there is nothing to play.
    #[error("the picture has no spot: place at least one")]
    NoSpots,
    /// Too many curves.
    #[error("the picture has {0} curves; at most {MAX_HAND_CURVES} are read")]
    TooManyCurves(usize),
    /// A curve has too many points.
    #[error("curve {curve} has {points} points; at most {MAX_HAND_POINTS} are read")]
    TooManyPoints {
        /// The curve.
        curve: CurveId,
        /// Its points.
        points: usize,
    },
    /// A curve has a point that is not finite.
    #[error("curve {0} has a point that is not a finite number")]
    BadPoint(CurveId),
    /// A curve from a spot back to itself with no point away from the spot.
    #[error("curve {0} goes from a spot back to it without leaving it")]
    NoLength(CurveId),
    /// A curve from a spot back to the same spot with no other spot on it: no position has
    /// such a curve (a boundary walk meets at least two corners along a closed curve).
    #[error(
        "curve {curve} goes from spot {spot} back to it with no other spot on it: put a spot on it"
    )]
    ClosedCurve {
        /// The curve.
        curve: CurveId,
        /// The spot.
        spot: SpotId,
    },
    /// The picture cannot be built (a bad world, a spot off the numbers, a curve to a spot
    /// that is not there).
    #[error(transparent)]
    Drawing(#[from] DrawingError),
    /// The picture is not a valid position.
    #[error(transparent)]
    Invalid(#[from] AnalyseError),
    /// The picture is a valid position but not one reached by moves.
    #[error("not reached by moves from any start: {0}")]
    Unreachable(#[from] Unreachable),
}

impl PictureError {
    /// The spots and curves the reason names (for the editor to mark).
    pub fn marks(&self) -> (Vec<SpotId>, Vec<CurveId>) {
        match self {
            PictureError::TooManyPoints { curve, .. }
            | PictureError::BadPoint(curve)
            | PictureError::NoLength(curve) => (Vec::new(), vec![*curve]),
            PictureError::ClosedCurve { curve, spot } => (vec![*spot], vec![*curve]),
            PictureError::Invalid(e) => {
                let spots = match *e {
                    AnalyseError::CurveOffSpot { spot, .. }
                    | AnalyseError::TooManyCurves { spot, .. }
                    | AnalyseError::DegenerateCurve { spot, .. }
                    | AnalyseError::CurveThroughSpot { spot, .. }
                    | AnalyseError::SameDirection { spot, .. }
                    | AnalyseError::Euler { spot, .. }
                    | AnalyseError::SpotOnWalk { spot } => vec![spot],
                    AnalyseError::SpotsCoincide { a, b } => vec![a, b],
                    _ => Vec::new(),
                };
                (spots, e.curves())
            }
            PictureError::Unreachable(u) => u.marks(),
            _ => (Vec::new(), Vec::new()),
        }
    }
}

/// Whether `drawing` is a legal Sprouts picture (see the module docs): read by [`analyse`],
/// at least one spot, no curve from a spot back to it alone, and with [`Legality::Reachable`] its curves grouped into moves.
///
/// # Errors
/// [`PictureError::NoSpots`], [`PictureError::Invalid`] with the analysis's reason (curves
/// that cross, a spot with four curve ends, ...), or [`PictureError::Unreachable`] with the
/// grouping's.
pub fn check_picture(drawing: &Drawing, legality: Legality) -> Result<LegalPicture, PictureError> {
    if drawing.spots().is_empty() {
        return Err(PictureError::NoSpots);
    }
    if let Some((k, c)) = drawing
        .curves()
        .iter()
        .enumerate()
        .find(|(_, c)| c.from == c.to)
    {
        return Err(PictureError::ClosedCurve {
            curve: CurveId(u32::try_from(k).unwrap_or(u32::MAX)),
            spot: c.from,
        });
    }
    let analysis = analyse(drawing)?;
    let history = match legality {
        Legality::Valid => None,
        Legality::Reachable => {
            let spots: Vec<SpotId> = drawing.spots().iter().map(|s| s.id).collect();
            let curves: Vec<(SpotId, SpotId)> =
                drawing.curves().iter().map(|c| (c.from, c.to)).collect();
            Some(group_moves(&spots, &curves)?)
        }
    };
    Ok(LegalPicture {
        position: analysis.position().clone(),
        history,
    })
}

/// A curve drawn by hand: from a spot to a spot through the points of a stroke.
#[derive(Clone, Debug, PartialEq)]
pub struct HandCurve {
    /// The spot it starts at.
    pub from: SpotId,
    /// The spot it ends at (the same for a loop).
    pub to: SpotId,
    /// The stroke's points between them, in order (points on the end spots' discs are
    /// dropped: the curve starts and ends at the spots' centres).
    pub points: Vec<Point>,
}

/// A picture drawn by hand: spot `i` of `spots` is spot `i + 1`; curves are polylines.
#[derive(Clone, Debug, PartialEq)]
pub struct HandPicture {
    /// The drawing area.
    pub world: WorldSize,
    /// The spots' centres; the first is spot 1.
    pub spots: Vec<Point>,
    /// The curves.
    pub curves: Vec<HandCurve>,
}

impl HandPicture {
    /// The picture as a drawing with spots of `radius`: each curve is the polyline from its
    /// first spot's centre through its points to its last spot's centre, as straight pieces
    /// (what was drawn, not smoothed). The drawing is not checked here: [`check_picture`]
    /// checks it.
    ///
    /// # Errors
    /// Too many curves or points, a point that is not finite, a loop that never leaves its
    /// spot, or what [`Drawing`] refuses (a bad world, a bad spot, a curve to a spot that is
    /// not there).
    pub fn to_drawing(&self, radius: f64) -> Result<Drawing, PictureError> {
        if self.curves.len() > MAX_HAND_CURVES {
            return Err(PictureError::TooManyCurves(self.curves.len()));
        }
        let mut d = Drawing::new(self.world)?;
        for (i, &centre) in self.spots.iter().enumerate() {
            let id = u32::try_from(i + 1)
                .ok()
                .and_then(SpotId::new)
                .ok_or(PictureError::Drawing(DrawingError::TooManyCurves))?;
            d.add_spot(DrawnSpot { id, centre, radius })?;
        }
        for (i, c) in self.curves.iter().enumerate() {
            let curve = CurveId(u32::try_from(i).unwrap_or(u32::MAX));
            if c.points.len() > MAX_HAND_POINTS {
                return Err(PictureError::TooManyPoints {
                    curve,
                    points: c.points.len(),
                });
            }
            if c.points
                .iter()
                .any(|p| !(p.x.is_finite() && p.y.is_finite()))
            {
                return Err(PictureError::BadPoint(curve));
            }
            let centre = |s: SpotId| {
                d.spot(s)
                    .map(|x| x.centre)
                    .ok_or(DrawingError::UnknownSpot { curve, spot: s })
            };
            let (a, b) = (centre(c.from)?, centre(c.to)?);
            let spline = polyline(a, &c.points, b, radius).ok_or(PictureError::NoLength(curve))?;
            d.add_curve(Curve {
                from: c.from,
                to: c.to,
                spline,
                origin: None,
            })?;
        }
        Ok(d)
    }
}

/// The polyline from `a` through the points off the end discs to `b`, as a spline of straight
/// pieces (`None` if it has no length).
fn polyline(a: Point, points: &[Point], b: Point, radius: f64) -> Option<Spline> {
    let off = |p: &Point, c: Point| (p - c).norm() > radius;
    let first = points
        .iter()
        .position(|p| off(p, a))
        .unwrap_or(points.len());
    let last = points.iter().rposition(|p| off(p, b)).map_or(0, |k| k + 1);
    let mut corners = vec![a];
    for &p in points.get(first..last).unwrap_or(&[]) {
        if corners.last() != Some(&p) {
            corners.push(p);
        }
    }
    if corners.last() != Some(&b) {
        corners.push(b);
    }
    let pieces: Vec<Piece> = corners
        .windows(2)
        .map(|w| Piece::new(CubicBez::line(w[0], w[1]), (w[1] - w[0]).norm()))
        .collect();
    Spline::new(pieces).ok()
}

#[cfg(test)]
mod tests;
