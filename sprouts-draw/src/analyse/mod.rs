//! `analyse`: the position read off a picture from scratch (spec 2.3), with the planar map it
//! was read from.
//!
//! ```text
//!        a ──────── b            half-edges 2e: a → b, 2e+1: b → a
//!        │  face f  │            next(h) = the half-edge just before twin(h)
//!        │  ┌──┐    │                      in the rotation at head(h)
//!        │  └──┘ s  │            each cycle of `next` is a face walk with its face on the left;
//!        d ──────── c            the component's walk of negative area goes round it outside
//! ```

//!
//! The steps live in two parts: `certify` (the checks before any geometry, and step 1: the
//! picture certified to be a plane drawing) and `map` (steps 2 to 4: the rotation system, the
//! face walks and the regions); [`analyse`] runs them in turn and puts the position together.

use std::cmp::Ordering;

use sprouts_geom::Point;
use sprouts_geom::certified::{self, cmp_around};
use sprouts_topo::{
    BoundaryId, Corner, Lives, Position, RegionId, Setup, SetupError, SetupProblem, SpotId,
};

use crate::drawing::{CurveId, Drawing, HalfEdgeId};

mod certify;
mod map;

/// The bound `eps` (pixels) refined polygons start with when a picture is analysed.
pub const CERTIFY_EPS: f64 = 0.25;
/// The longest leg (pixels) refined polygons start with when a picture is analysed.
pub const CERTIFY_MAX_LEG: f64 = 16.0;
/// How often a curve's polygon is refined further (eps and legs halved each time) before an
/// undecided question is reported as touching: 12 halvings take eps from 0.25 px to 6e-5 px.
pub const MAX_REFINEMENTS: u32 = 12;

/// The most legs a curve's polygon is refined to while certifying; an undecided question past
/// it is reported as touching (a drawn curve has a few hundred).
const MAX_CERTIFY_LEGS: usize = 1 << 12;

/// Angular slack (radians) required between the cones of two curve ends at one spot; it covers
/// the rounding of `atan2` many times over.
const CONE_MARGIN: f64 = 1e-10;

/// Why a picture is not a picture of a position. Curves are named by their [`CurveId`]s, spots
/// by their identities.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnalyseError {
    /// A curve reaches farther outside the drawing area than the area's larger side
    /// ([`crate::WorldSize::holds_curve`]).
    #[error(
        "curve {curve} ({from} to {to}) reaches farther outside the drawing area than the \
         area's larger side"
    )]
    CurveOutside {
        /// The curve.
        curve: CurveId,
        /// Its first spot.
        from: SpotId,
        /// Its last spot.
        to: SpotId,
    },
    /// A curve does not start or end exactly at the centre of its spot.
    #[error("curve {curve} does not end exactly at the centre of its spot {spot}")]
    CurveOffSpot {
        /// The curve.
        curve: CurveId,
        /// The spot it should end at.
        spot: SpotId,
    },
    /// More than three curve ends at a spot.
    #[error("spot {spot} has {ends} curve ends; a spot has at most three")]
    TooManyCurves {
        /// The spot.
        spot: SpotId,
        /// Its curve ends (a loop counts twice).
        ends: usize,
    },
    /// Two spots are at the same point.
    #[error("spots {a} and {b} are at the same point")]
    SpotsCoincide {
        /// One spot.
        a: SpotId,
        /// The other.
        b: SpotId,
    },
    /// A curve leaves a spot in no direction (its first piece there is a single point).
    #[error(
        "curve {curve} leaves spot {spot} in no direction (it starts with a piece of zero length)"
    )]
    DegenerateCurve {
        /// The curve.
        curve: CurveId,
        /// The spot.
        spot: SpotId,
    },
    /// Two curves certainly cross.
    #[error("curves {a} and {b} cross")]
    CurvesCross {
        /// One curve.
        a: CurveId,
        /// The other.
        b: CurveId,
    },
    /// Two curves could not be certified apart at the finest refinement: they touch, or come
    /// closer than about `1e-4` pixels.
    #[error("curves {a} and {b} touch (they cannot be told apart)")]
    CurvesTouch {
        /// One curve.
        a: CurveId,
        /// The other.
        b: CurveId,
    },
    /// A curve crosses or touches itself.
    #[error("curve {curve} crosses or touches itself")]
    SelfIntersecting {
        /// The curve.
        curve: CurveId,
    },
    /// A curve passes through (or touches the drawn disc of) a spot that is not one of its ends.
    #[error("curve {curve} passes through spot {spot}")]
    CurveThroughSpot {
        /// The curve.
        curve: CurveId,
        /// The spot.
        spot: SpotId,
    },
    /// Two curve ends leave a spot in the same direction (tangent there), so the order of the
    /// curves round the spot is not defined.
    #[error("curves {a} and {b} leave spot {spot} in the same direction")]
    SameDirection {
        /// The spot.
        spot: SpotId,
        /// One curve.
        a: CurveId,
        /// The other (the same curve for the two ends of a loop).
        b: CurveId,
    },
    /// A curve's refined polygon could not be made (absurd coordinates or sizes).
    #[error("curve {curve} cannot be refined: {source}")]
    Refine {
        /// The curve.
        curve: CurveId,
        /// Why.
        source: sprouts_geom::RefineError,
    },
    /// The face walks of a connected piece of curves break Euler's formula `V - E + F = 2`, or
    /// not exactly one of them goes round the piece outside. Certified pictures never do this;
    /// it is checked rather than trusted.
    #[error(
        "the piece of curves through spot {spot} has {walks} face walks, {outer} of them round it outside; Euler's formula wants {expected}, one of them outside"
    )]
    Euler {
        /// A spot of the piece.
        spot: SpotId,
        /// The face walks found.
        walks: usize,
        /// How many of them have non-positive area.
        outer: usize,
        /// What Euler's formula wants.
        expected: usize,
    },
    /// A spot lies exactly on the polygon of a face walk it was certified apart from (an
    /// internal inconsistency, reported rather than trusted).
    #[error("spot {spot} lies on the polygon of a face walk")]
    SpotOnWalk {
        /// The spot.
        spot: SpotId,
    },
    /// A curve goes from a spot back to it, and the spot is the only one of a region's
    /// boundary: no position has such a boundary (a move's loop always has its new spot on it).
    #[error("curve {curve} goes from spot {spot} back to it with no other spot on it")]
    BareLoop {
        /// The curve.
        curve: CurveId,
        /// The spot.
        spot: SpotId,
    },
    /// The regions read off the picture are not a valid position (an internal inconsistency,
    /// reported rather than trusted).
    #[error("the regions read off the picture are not a position: {0}")]
    NotAPosition(SetupError),
}

impl AnalyseError {
    /// The curves the error names (empty for errors about spots alone).
    pub fn curves(&self) -> Vec<CurveId> {
        match *self {
            AnalyseError::CurveOffSpot { curve, .. }
            | AnalyseError::DegenerateCurve { curve, .. }
            | AnalyseError::SelfIntersecting { curve }
            | AnalyseError::BareLoop { curve, .. }
            | AnalyseError::CurveThroughSpot { curve, .. }
            | AnalyseError::Refine { curve, .. } => vec![curve],
            AnalyseError::CurvesCross { a, b }
            | AnalyseError::CurvesTouch { a, b }
            | AnalyseError::SameDirection { a, b, .. } => vec![a, b],
            _ => Vec::new(),
        }
    }
}

/// One boundary of a region as the picture shows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoundaryPicture<'a> {
    /// A face walk: its half-edges in order; corner `i` of the boundary is the tail of
    /// half-edge `i`.
    Walk(&'a [HalfEdgeId]),
    /// A spot with no curve.
    Spot(SpotId),
}

/// The angle of a corner at its spot: where a curve leaving (or reaching) the spot through that
/// corner goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sector {
    /// A spot with no curve: the whole turn.
    Full(SpotId),
    /// The angle at the tail of `leave`, from `leave` by increasing angle (counter-clockwise in
    /// the y-up frame, see [`Analysis`]) up to `arrive.twin()`; the walk of the corner's boundary
    /// arrives along `arrive` and leaves along `leave`. For a spot with one curve the two are
    /// twins and the angle is the whole turn.
    Between {
        /// The half-edge the walk leaves along.
        leave: HalfEdgeId,
        /// The half-edge the walk arrives along.
        arrive: HalfEdgeId,
    },
}

/// A face walk: a cycle of the `next` map.
#[derive(Clone, Debug)]
struct Walk {
    half_edges: Vec<HalfEdgeId>,
    /// The refined polygons of its half-edges end to end (closed implicitly).
    polygon: Vec<Point>,
    bbox: (Point, Point),
    /// The floating-point signed area of the polygon (positive for inner faces).
    area: f64,
    /// How many inner faces of other pieces its piece lies in.
    depth: usize,
    /// Union-find root (drawing spot index) of its piece of curves.
    component: usize,
    /// Whether it goes round its piece outside.
    outer: bool,
    /// The boundary it is in the position.
    boundary: BoundaryId,
}

/// What [`analyse`] reads off a picture: the position, and the planar map it was read from.
///
/// The position has the picture's spot identities and next spot. Its regions are the outside
/// first, then one per inner face; a region's boundaries are its face walk (for an inner face),
/// then the walks round the outside of the pieces of curves lying in it, then the spots with
/// no curve lying in it. Corner `i` of a walk's boundary is the tail of the walk's half-edge `i`
/// ([`Analysis::boundary`]), so a `sprouts-topo` [`Corner`] names a place in the picture and
/// [`Analysis::corner_at`] goes the other way.
///
/// # Orientation
/// Walks keep their face on the left in the picture's own coordinates read as a y-up frame
/// (`robust::orient2d > 0` towards the face): the convention of `sprouts-topo`. On a screen,
/// whose y axis points down, that is the mirror image (there the face is on the walk's right).
/// The rotation at a spot ([`Analysis::rotation`]) is by increasing angle in the same
/// coordinates ([`cmp_around`]).
#[derive(Clone, Debug)]
pub struct Analysis {
    position: Position,
    /// Spot identities and centres by drawing spot index.
    spot_ids: Vec<SpotId>,
    centres: Vec<Point>,
    /// `(id, drawing index)` sorted by id.
    by_id: Vec<(SpotId, usize)>,
    /// Drawing spot index of each half-edge's tail.
    tail: Vec<usize>,
    /// A point of each half-edge's first leg other than its tail (its direction of leaving).
    leave_point: Vec<Point>,
    /// Half-edges leaving each spot (by drawing index), by increasing angle.
    rotation: Vec<Vec<HalfEdgeId>>,
    next: Vec<HalfEdgeId>,
    /// The walk of each half-edge and its place in it.
    walk_of: Vec<(usize, usize)>,
    walks: Vec<Walk>,
    /// The walk of each boundary, or the drawing index of its lone spot.
    boundaries: Vec<Result<usize, usize>>,
    /// For each region, the walk of its inner face (`None` for the outside).
    region_walk: Vec<Option<usize>>,
    /// For each spot with no curve (by drawing index), its boundary.
    lone_boundary: Vec<Option<BoundaryId>>,
    /// The inner face walks.
    inner: Vec<usize>,
}

impl Analysis {
    /// The position read off the picture.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Consumes the analysis, keeping the position.
    pub fn into_position(self) -> Position {
        self.position
    }

    /// The region containing the point `p`, decided exactly against the refined polygons of the
    /// curves (within [`CERTIFY_EPS`] of a curve the polygon and the curve may disagree); `None`
    /// if `p` is exactly on a polygon or the picture has no spot.
    pub fn region_at(&self, p: Point) -> Option<RegionId> {
        if self.position.region_count() == 0 {
            return None;
        }
        let mut best: Option<usize> = None;
        for &w in &self.inner {
            let walk = &self.walks[w];
            if !in_box(p, walk.bbox) {
                continue;
            }
            match certified::winding_number(p, &walk.polygon) {
                None => return None,
                Some(0) => {}
                // Faces containing one point are nested: the innermost is the deepest.
                Some(_) => {
                    if best.is_none_or(|b| walk.depth > self.walks[b].depth) {
                        best = Some(w);
                    }
                }
            }
        }
        Some(match best {
            None => RegionId::from_index(0),
            Some(w) => self.region_of_walk(w),
        })
    }

    fn region_of_walk(&self, w: usize) -> RegionId {
        self.position
            .region_of(self.walks[w].boundary)
            .expect("every walk is a boundary of the position")
    }

    /// The corner of `spot` whose angle holds the direction towards `toward`: which side of the
    /// spot a point is on, decided exactly from the rotation. For a spot with no curve, its one
    /// corner. `None` if `toward` is the spot's centre or the spot is not in the picture.
    pub fn corner_at(&self, spot: SpotId, toward: Point) -> Option<Corner> {
        let i = self.index_of(spot)?;
        if let Some(b) = self.lone_boundary[i] {
            return Some(Corner {
                boundary: b,
                index: 0,
            });
        }
        let c = self.centres[i];
        if toward == c {
            return None;
        }
        let rot = &self.rotation[i];
        // The last half-edge at or before the direction, cyclically: the angle from it to the
        // next one holds the direction, and that angle belongs to the walk the half-edge
        // leaves on.
        let mut at = rot.len() - 1;
        for (k, &h) in rot.iter().enumerate() {
            if cmp_around(c, self.leave_point[h.index()], toward) != Ordering::Greater {
                at = k;
            }
        }
        Some(self.corner_of(rot[at]))
    }

    /// The corner a half-edge leaves from: the corner of its tail on the walk it is part of
    /// (the boundary of the region on its left).
    pub fn corner_of(&self, h: HalfEdgeId) -> Corner {
        let (w, k) = self.walk_of[h.index()];
        Corner {
            boundary: self.walks[w].boundary,
            index: k as u32,
        }
    }

    /// The angle at its spot that corner `c` of the position stands for (the side of the spot a
    /// move through that corner leaves or arrives on); `None` for a corner the position does
    /// not have.
    pub fn corner_sector(&self, c: Corner) -> Option<Sector> {
        match self.boundary(c.boundary)? {
            BoundaryPicture::Spot(s) => (c.index == 0).then_some(Sector::Full(s)),
            BoundaryPicture::Walk(hs) => {
                let i = c.index as usize;
                let leave = *hs.get(i)?;
                let arrive = hs[(i + hs.len() - 1) % hs.len()];
                Some(Sector::Between { leave, arrive })
            }
        }
    }

    /// The region on the left of a half-edge (see the orientation note on [`Analysis`]).
    pub fn region_left_of(&self, h: HalfEdgeId) -> RegionId {
        self.region_of_walk(self.walk_of[h.index()].0)
    }

    /// Boundary `b` of the position as the picture shows it.
    pub fn boundary(&self, b: BoundaryId) -> Option<BoundaryPicture<'_>> {
        match *self.boundaries.get(b.index())? {
            Ok(w) => Some(BoundaryPicture::Walk(&self.walks[w].half_edges)),
            Err(i) => Some(BoundaryPicture::Spot(self.spot_ids[i])),
        }
    }

    /// The polygon (refined control polygons end to end, closed implicitly) of the walk that
    /// boundary `b` is; `None` for a spot with no curve.
    pub fn walk_polygon(&self, b: BoundaryId) -> Option<&[Point]> {
        match *self.boundaries.get(b.index())? {
            Ok(w) => Some(&self.walks[w].polygon),
            Err(_) => None,
        }
    }

    /// The walk round the inner face that region `r` is; `None` for the outside or a region
    /// that does not exist.
    pub fn face_walk(&self, r: RegionId) -> Option<&[HalfEdgeId]> {
        let w = (*self.region_walk.get(r.index())?)?;
        Some(&self.walks[w].half_edges)
    }

    /// The region that is the outside of the picture (`None` for a picture without spots).
    pub fn outside(&self) -> Option<RegionId> {
        (self.position.region_count() > 0).then(|| RegionId::from_index(0))
    }

    /// The half-edges leaving `spot`, by increasing angle (empty for a spot with no curve or
    /// not in the picture).
    pub fn rotation(&self, spot: SpotId) -> &[HalfEdgeId] {
        match self.index_of(spot) {
            Some(i) => &self.rotation[i],
            None => &[],
        }
    }

    /// The half-edge after `h` on the walk round the face on its left.
    ///
    /// # Panics
    /// If `h` is not a half-edge of the analysed picture.
    pub fn next(&self, h: HalfEdgeId) -> HalfEdgeId {
        self.next[h.index()]
    }

    /// The spot a half-edge leaves.
    ///
    /// # Panics
    /// If `h` is not a half-edge of the analysed picture.
    pub fn tail(&self, h: HalfEdgeId) -> SpotId {
        self.spot_ids[self.tail[h.index()]]
    }

    /// The spot a half-edge reaches.
    ///
    /// # Panics
    /// If `h` is not a half-edge of the analysed picture.
    pub fn head(&self, h: HalfEdgeId) -> SpotId {
        self.tail(h.twin())
    }

    fn index_of(&self, spot: SpotId) -> Option<usize> {
        self.by_id
            .binary_search_by_key(&spot, |&(id, _)| id)
            .ok()
            .map(|k| self.by_id[k].1)
    }
}

/// A picture read ahead of its transaction: a drawing and what [`analyse`] read off it (the
/// route's own check of a move's picture before play, say). Only [`Analysed::new`] makes one,
/// so the analysis is always the analysis of that very drawing. A transaction handed one
/// still makes its own edit and reads back the position of the picture it made: the reading
/// ahead is taken only for a picture equal to that one (`Drawing`'s `==`, which compares
/// everything), and the read-back position is compared with the intended one as always.
#[derive(Clone, Debug)]
pub(crate) struct Analysed {
    drawing: Drawing,
    analysis: Analysis,
}

impl Analysed {
    /// Analyses `drawing`.
    ///
    /// # Errors
    /// What [`analyse`] refuses.
    pub(crate) fn new(drawing: Drawing) -> Result<Analysed, AnalyseError> {
        let analysis = analyse(&drawing)?;
        Ok(Analysed { drawing, analysis })
    }

    /// The picture.
    pub(crate) fn drawing(&self) -> &Drawing {
        &self.drawing
    }

    /// What the picture reads as.
    pub(crate) fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// The analysis, if the picture is `drawing` (equal by `Drawing`'s `==`).
    pub(crate) fn analysis_of(self, drawing: &Drawing) -> Option<Analysis> {
        (self.drawing == *drawing).then_some(self.analysis)
    }
}

/// A spot alone on a boundary with curves, explained: a curve from that spot back to it.
fn bare_loop(drawing: &Drawing, e: &SetupError) -> Option<AnalyseError> {
    e.problems().iter().find_map(|p| match p {
        SetupProblem::LoneSpotWithCurves { spot } => drawing
            .curves()
            .iter()
            .position(|c| c.from == *spot && c.to == *spot)
            .map(|i| AnalyseError::BareLoop {
                curve: CurveId(u32::try_from(i).unwrap_or(u32::MAX)),
                spot: *spot,
            }),
        _ => None,
    })
}

/// Reads the position off a picture from scratch (spec 2.3, `engine.analyse`).
///
/// # Algorithm
/// 0. Before any geometry, every curve must lie within the drawing area widened by its larger
///    side ([`crate::WorldSize::holds_curve`]), so no absurd coordinates reach the certificates.
/// 1. Every curve is replaced by its refined control polygon (spec 2.2; Nairn, Peters and
///    Lutterkort, CAGD 16(7), 1999), which stays within a certified bound of it. The picture is
///    certified to be a plane drawing: every curve simple ([`certified::simplicity`]), every pair
///    of legs of different curves apart by more than their bounds (candidates: pairs of leg boxes
///    sharing a cell of a uniform grid of one leg's length; decided by [`certified::leg_verdict`]), every
///    curve apart from the discs of the spots it does not end at. Near a spot, where curves meet,
///    the first sub-piece of each curve lies in the cone its control points span at the spot, and
///    the cones of the curve ends at one spot must be disjoint; curve ends tangent at a spot are
///    refused at once. Undecided questions refine the curves involved (eps halved, and legs too
///    where cones overlap, at most [`MAX_REFINEMENTS`] times) and are then reported as touching.
/// 2. Half-edges `2e` and `2e+1`; at each spot the half-edges leaving it sorted by the direction
///    of their first leg, exactly ([`cmp_around`]): the rotation system.
/// 3. Face walks: `next(h)` is the half-edge just before `twin(h)` in the rotation at the head
///    of `h`. Per connected piece, the walks must number `E - V + 2` (Euler), and exactly one of
///    them has non-positive signed area (decided exactly): the walk round the piece outside.
/// 4. Regions: the outside and one per inner face walk. Each piece of curves, and each spot with
///    no curve, lies in the innermost inner face (of another piece) whose walk winds round its
///    first spot (exact winding numbers; the innermost is the face whose own piece the other
///    faces wind round), or in the outside.
///
/// Then the regions, with the spots' lives (3 minus their curve ends), are checked into a
/// [`Position`] by [`Position::from_setup`].
///
/// # Errors
/// An [`AnalyseError`] naming the curves and spots at fault: a curve reaching farther outside
/// the drawing area than its larger side, a curve not at its spots' centres, more than three
/// curve ends at a spot, spots at one point, curves that cross or touch, a curve that crosses
/// itself or passes through a spot, two curves leaving a spot in the same direction.
///
/// # Complexity
/// Linear in the number of legs for the certificates of a well-spread picture (the grid finds
/// the few legs near each leg); quadratic in the number of pieces of curves for the nesting.
/// Well under 5 ms for a 30-spot game in the middle (see the `draw_analyse` bench).
pub fn analyse(drawing: &Drawing) -> Result<Analysis, AnalyseError> {
    let _span = tracing::debug_span!(
        "analyse",
        spots = drawing.spots().len(),
        curves = drawing.curves().len()
    )
    .entered();
    let spots = drawing.spots();

    // Before any geometry: curves near the drawing area, spots apart, curve ends at their spots
    // and not tangent there.
    certify::curves_near_area(drawing)?;
    let by_id = certify::spots_by_id(spots)?;
    let index_of = |id: SpotId| -> usize {
        let k = by_id
            .binary_search_by_key(&id, |&(s, _)| s)
            .expect("a drawing's curves end at its spots");
        by_id[k].1
    };
    let degree = certify::degrees(drawing, &index_of)?;
    certify::tangents_apart(drawing, &index_of)?;

    // Step 1: certify the picture, refining what is undecided.
    let polys = certify::certified_polygons(drawing, &index_of)?;
    // Step 2: half-edges and the rotation system.
    let rotation = map::rotation_system(drawing, &polys, &index_of)?;
    // Step 3: face walks, each piece of curves checked by Euler's formula.
    let mut faces = map::face_walks(drawing, &polys, &rotation, &index_of);
    let piece_spots = map::check_euler(drawing, &mut faces, &index_of)?;
    // Step 4: regions.
    let nesting = map::nesting(spots, &mut faces)?;
    let regions = map::regions(
        spots,
        &degree,
        &piece_spots,
        &rotation.tail,
        &nesting,
        &mut faces,
    );

    let setup = Setup {
        regions: regions.regions,
        lives: spots
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.id,
                    Lives::new(3 - degree[i] as u8).expect("at most 3 curve ends"),
                )
            })
            .collect(),
        next_spot: Some(drawing.next_spot()),
    };
    let position = Position::from_setup(setup)
        .map_err(|e| bare_loop(drawing, &e).unwrap_or(AnalyseError::NotAPosition(e)))?;

    Ok(Analysis {
        position,
        spot_ids: spots.iter().map(|s| s.id).collect(),
        centres: spots.iter().map(|s| s.centre).collect(),
        by_id,
        tail: rotation.tail,
        leave_point: rotation.leave_point,
        rotation: rotation.rotation,
        next: faces.next,
        walk_of: faces.walk_of,
        walks: faces.walks,
        boundaries: regions.boundaries,
        region_walk: regions.region_walk,
        lone_boundary: regions.lone_boundary,
        inner: nesting.inner,
    })
}

/// Whether `p` lies in the box `(lo, hi)` (its edges included).
fn in_box(p: Point, (lo, hi): (Point, Point)) -> bool {
    p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y
}
