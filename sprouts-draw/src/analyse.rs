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

use std::cmp::Ordering;

use sprouts_geom::certified::{self, Orientation, Verdict, cmp_around, leg_verdict};
use sprouts_geom::{Point, RefinedPolygon, refined_polygon, signed_area};
use sprouts_topo::{BoundaryId, Corner, Lives, Position, RegionId, Setup, SetupError, SpotId};

use crate::drawing::{CurveId, Drawing, HalfEdgeId};

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

fn in_box(p: Point, (lo, hi): (Point, Point)) -> bool {
    p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y
}

fn bbox(points: &[Point]) -> (Point, Point) {
    points.iter().fold((points[0], points[0]), |(lo, hi), p| {
        (
            Point::new(lo.x.min(p.x), lo.y.min(p.y)),
            Point::new(hi.x.max(p.x), hi.y.max(p.y)),
        )
    })
}

/// Whether `a` and `b` lie on the same side of `c` on a line (or on it), exactly.
fn same_side(c: f64, a: f64, b: f64) -> bool {
    (a - c).signum() == (b - c).signum() || a == c || b == c
}

/// Union-find with path halving.
struct UnionFind(Vec<usize>);

impl UnionFind {
    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.0[ra] = rb;
    }
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
}

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

/// Reads the position off a picture from scratch (spec 2.3, `engine.analyse`).
///
/// # Algorithm
/// 0. Before any geometry, every curve must lie within the drawing area widened by its larger
///    side ([`crate::WorldSize::holds_curve`]), so no absurd coordinates reach the certificates.
/// 1. Every curve is replaced by its refined control polygon (spec 2.2; Nairn, Peters and
///    Lutterkort, CAGD 16(7), 1999), which stays within a certified bound of it. The picture is
///    certified to be a plane drawing: every curve simple ([`certified::simplicity`]), every pair
///    of legs of different curves apart by more than their bounds (candidates: pairs of leg boxes
///    sharing a cell of a uniform grid of one leg's length; decided by [`leg_verdict`]), every
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
    let curves = drawing.curves();
    let n_spots = spots.len();
    let n_curves = curves.len();

    // Curves near the drawing area, before any geometry.
    if let Some((e, c)) = curves
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

    // Spots by identity; coinciding spots.
    let mut by_id: Vec<(SpotId, usize)> =
        spots.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
    by_id.sort_unstable_by_key(|&(id, _)| id);
    let index_of = |id: SpotId| -> usize {
        let k = by_id
            .binary_search_by_key(&id, |&(s, _)| s)
            .expect("a drawing's curves end at its spots");
        by_id[k].1
    };
    {
        let mut order: Vec<usize> = (0..n_spots).collect();
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
    }

    // Curve ends at spot centres; degrees.
    let mut degree = vec![0usize; n_spots];
    for (e, c) in curves.iter().enumerate() {
        let curve = CurveId(e as u32);
        for (spot, p) in [(c.from, c.spline.start()), (c.to, c.spline.end())] {
            let i = index_of(spot);
            if spots[i].centre != p {
                return Err(AnalyseError::CurveOffSpot { curve, spot });
            }
            degree[i] += 1;
        }
    }
    if let Some(i) = (0..n_spots).find(|&i| degree[i] > 3) {
        return Err(AnalyseError::TooManyCurves {
            spot: spots[i].id,
            ends: degree[i],
        });
    }

    // Curve ends tangent at a spot: no refinement separates them, so they are reported at once
    // (exactly: the tangent at an end is the direction to its first control point off the spot).
    {
        let mut tangents: Vec<Vec<(usize, Point)>> = vec![Vec::new(); n_spots];
        for (e, c) in curves.iter().enumerate() {
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
    }

    // Step 1: certify the picture, refining what is undecided.
    let mut polys = Polygons {
        polys: Vec::with_capacity(n_curves),
        eps: vec![CERTIFY_EPS; n_curves],
        max_leg: vec![CERTIFY_MAX_LEG; n_curves],
    };
    for (e, c) in curves.iter().enumerate() {
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
        let undecided = certify(drawing, &polys.polys, &index_of, &mut simple)?;
        if undecided.is_empty() {
            break;
        }
        // Past the last refinement, or past a size no picture needs: report what is undecided.
        let too_big = polys.polys.iter().any(|p| p.n_legs() > MAX_CERTIFY_LEGS);
        if attempt >= MAX_REFINEMENTS || too_big {
            return Err(match undecided[0] {
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
            });
        }
        // Bounds halved for the curves involved; legs halved too where the end cones overlap
        // (only a shorter first sub-piece narrows a cone).
        let mut again = vec![None; n_curves];
        for u in &undecided {
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
                polys.refine_more(drawing, e, shorter)?;
            }
        }
        attempt += 1;
    }
    let polys = polys.polys;

    // Step 2: half-edges and the rotation system.
    let n_half = 2 * n_curves;
    let mut tail = vec![0usize; n_half];
    let mut leave_point = vec![Point::origin(); n_half];
    let mut rotation: Vec<Vec<HalfEdgeId>> = vec![Vec::new(); n_spots];
    for (e, c) in curves.iter().enumerate() {
        let pts = polys[e].points();
        let n = pts.len() - 1;
        let first = (1..=3).map(|k| pts[k]).find(|p| *p != pts[0]);
        let last = (1..=3).map(|k| pts[n - k]).find(|p| *p != pts[n]);
        for (h, spot, p) in [(2 * e, c.from, first), (2 * e + 1, c.to, last)] {
            let p = p.ok_or(AnalyseError::DegenerateCurve {
                curve: CurveId(e as u32),
                spot,
            })?;
            let i = index_of(spot);
            tail[h] = i;
            leave_point[h] = p;
            rotation[i].push(HalfEdgeId(h as u32));
        }
    }
    let mut place = vec![0usize; n_half];
    for (i, rot) in rotation.iter_mut().enumerate() {
        let c = spots[i].centre;
        rot.sort_by(|&a, &b| cmp_around(c, leave_point[a.index()], leave_point[b.index()]));
        for w in rot.windows(2) {
            if cmp_around(c, leave_point[w[0].index()], leave_point[w[1].index()])
                == Ordering::Equal
            {
                return Err(AnalyseError::SameDirection {
                    spot: spots[i].id,
                    a: w[0].curve(),
                    b: w[1].curve(),
                });
            }
        }
        for (k, h) in rot.iter().enumerate() {
            place[h.index()] = k;
        }
    }

    // Step 3: face walks.
    let next: Vec<HalfEdgeId> = (0..n_half)
        .map(|h| {
            let twin = h ^ 1;
            let rot = &rotation[tail[twin]];
            rot[(place[twin] + rot.len() - 1) % rot.len()]
        })
        .collect();
    let mut uf = UnionFind((0..n_spots).collect());
    for c in curves {
        uf.union(index_of(c.from), index_of(c.to));
    }
    let mut walk_of = vec![(usize::MAX, 0usize); n_half];
    let mut walks: Vec<Walk> = Vec::new();
    for start in 0..n_half {
        if walk_of[start].0 != usize::MAX {
            continue;
        }
        let w = walks.len();
        let mut half_edges = Vec::new();
        let mut polygon = Vec::new();
        let mut h = start;
        loop {
            walk_of[h] = (w, half_edges.len());
            half_edges.push(HalfEdgeId(h as u32));
            let pts = polys[h / 2].points();
            if h % 2 == 0 {
                polygon.extend_from_slice(&pts[..pts.len() - 1]);
            } else {
                polygon.extend(pts[1..].iter().rev());
            }
            h = next[h].index();
            if h == start {
                break;
            }
        }
        let area = signed_area(&polygon);
        walks.push(Walk {
            bbox: bbox(&polygon),
            component: uf.find(tail[start]),
            half_edges,
            polygon,
            area,
            depth: 0,
            outer: false,
            boundary: BoundaryId::from_index(0),
        });
    }

    // Euler's formula and the outer walk, per piece of curves.
    let mut piece_spots = vec![0usize; n_spots];
    let mut piece_curves = vec![0usize; n_spots];
    let mut piece_walks = vec![0usize; n_spots];
    let mut piece_outer = vec![0usize; n_spots];
    for i in 0..n_spots {
        let r = uf.find(i);
        piece_spots[r] += 1;
    }
    for c in curves {
        piece_curves[uf.find(index_of(c.from))] += 1;
    }
    for walk in &mut walks {
        piece_walks[walk.component] += 1;
        walk.outer = area_is_not_positive(&walk.polygon, walk.area);
        if walk.outer {
            piece_outer[walk.component] += 1;
        }
    }
    for r in 0..n_spots {
        if piece_curves[r] == 0 || uf.find(r) != r {
            continue;
        }
        let expected = piece_curves[r] + 2 - piece_spots[r];
        if piece_walks[r] != expected || piece_outer[r] != 1 {
            return Err(AnalyseError::Euler {
                spot: spots[r].id,
                walks: piece_walks[r],
                outer: piece_outer[r],
                expected,
            });
        }
    }

    // Step 4: regions. Each piece (and each spot with no curve) lies in the innermost inner face
    // of another piece that winds round its first spot.
    let inner: Vec<usize> = (0..walks.len()).filter(|&w| !walks[w].outer).collect();
    let mut pieces: Vec<usize> = Vec::new(); // drawing index of each piece's first spot
    let mut seen = vec![false; n_spots];
    for i in 0..n_spots {
        let r = uf.find(i);
        if !seen[r] {
            seen[r] = true;
            pieces.push(i);
        }
    }
    // The face each piece lies in (`None`: the outside).
    // Which inner faces (of other pieces) wind round each piece's first spot, exactly.
    let mut containing: Vec<Vec<usize>> = Vec::with_capacity(pieces.len());
    for &i in &pieces {
        let p = spots[i].centre;
        let root = uf.find(i);
        let mut around = Vec::new();
        for &w in &inner {
            let walk = &walks[w];
            if walk.component == root || !in_box(p, walk.bbox) {
                continue;
            }
            match certified::winding_number(p, &walk.polygon) {
                None => return Err(AnalyseError::SpotOnWalk { spot: spots[i].id }),
                Some(0) => {}
                Some(_) => around.push(w),
            }
        }
        containing.push(around);
    }
    // The faces round a piece are nested; the innermost is the one whose own piece lies inside
    // all the others (decided by the same exact tests, not by comparing areas).
    let piece_of_root: Vec<usize> = {
        let mut m = vec![usize::MAX; n_spots];
        for (k, &i) in pieces.iter().enumerate() {
            m[uf.find(i)] = k;
        }
        m
    };
    let lies_in: Vec<Option<usize>> = containing
        .iter()
        .map(|around| {
            around.iter().copied().find(|&f| {
                let inside = &containing[piece_of_root[walks[f].component]];
                around.iter().all(|&g| g == f || inside.contains(&g))
            })
        })
        .collect();
    for walk in &mut walks {
        walk.depth = containing[piece_of_root[walk.component]].len();
    }
    if let Some(k) = (0..pieces.len()).find(|&k| !containing[k].is_empty() && lies_in[k].is_none())
    {
        return Err(AnalyseError::SpotOnWalk {
            spot: spots[pieces[k]].id,
        });
    }

    // The position: the outside, then one region per inner face, each with its boundaries.
    let mut region_walk: Vec<Option<usize>> = Vec::new();
    let mut regions: Vec<Vec<Vec<SpotId>>> = Vec::new();
    let mut boundaries: Vec<Result<usize, usize>> = Vec::new();
    let mut lone_boundary: Vec<Option<BoundaryId>> = vec![None; n_spots];
    let outer_walk_of_piece = |root: usize| -> usize {
        walks
            .iter()
            .position(|w| w.component == root && w.outer)
            .expect("a piece with curves has its outer walk")
    };
    let mut faces: Vec<Option<usize>> = vec![None];
    faces.extend(inner.iter().map(|&w| Some(w)));
    let mut walk_boundary: Vec<(usize, BoundaryId)> = Vec::new();
    for face in faces {
        let mut region = Vec::new();
        let mut push_walk = |w: usize, region: &mut Vec<Vec<SpotId>>, boundaries: &mut Vec<_>| {
            walk_boundary.push((w, BoundaryId::from_index(boundaries.len())));
            boundaries.push(Ok(w));
            region.push(
                walks[w]
                    .half_edges
                    .iter()
                    .map(|h| spots[tail[h.index()]].id)
                    .collect(),
            );
        };
        if let Some(w) = face {
            push_walk(w, &mut region, &mut boundaries);
        }
        for (k, &i) in pieces.iter().enumerate() {
            if lies_in[k] != face {
                continue;
            }
            if degree[i] == 0 && piece_spots[uf.find(i)] == 1 {
                lone_boundary[i] = Some(BoundaryId::from_index(boundaries.len()));
                boundaries.push(Err(i));
                region.push(vec![spots[i].id]);
            } else {
                push_walk(
                    outer_walk_of_piece(uf.find(i)),
                    &mut region,
                    &mut boundaries,
                );
            }
        }
        if face.is_none() && region.is_empty() {
            // A picture without spots has no region.
            continue;
        }
        region_walk.push(face);
        regions.push(region);
    }
    for (w, b) in walk_boundary {
        walks[w].boundary = b;
    }
    let setup = Setup {
        regions,
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
    let position = Position::from_setup(setup).map_err(AnalyseError::NotAPosition)?;

    Ok(Analysis {
        position,
        spot_ids: spots.iter().map(|s| s.id).collect(),
        centres: spots.iter().map(|s| s.centre).collect(),
        by_id,
        tail,
        leave_point,
        rotation,
        next,
        walk_of,
        walks,
        boundaries,
        region_walk,
        lone_boundary,
        inner,
    })
}

/// Whether a closed polygon's signed area is not positive, exactly: the floating-point shoelace
/// sum decides when it is farther from zero than its rounding can reach, and
/// [`certified::area_sign`] (exact expansions) decides otherwise.
fn area_is_not_positive(polygon: &[Point], area: f64) -> bool {
    let n = polygon.len();
    if n < 3 {
        return true;
    }
    // `signed_area` sums `u × v` over the fan from the first point: every term rounds with
    // relative error a few `u` (two differences, two products, one subtraction), and the sum of
    // n terms adds n roundings of the running sum, bounded by n u times the sum of magnitudes.
    let o = polygon[0];
    let mut mag = 0.0;
    for i in 1..n - 1 {
        let (u, v) = (polygon[i] - o, polygon[i + 1] - o);
        mag += (u.x * v.y).abs() + (u.y * v.x).abs();
    }
    let bound = 0.5 * mag * f64::EPSILON * (n as f64 + 8.0) * 4.0;
    if area > bound {
        return false;
    }
    if area < -bound {
        return true;
    }
    certified::area_sign(polygon) != Orientation::Clockwise
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
    let spots = drawing.spots();
    let curves = drawing.curves();
    let mut undecided = Vec::new();

    // Every curve simple (a curve certified simple stays so through the refinements).
    for (e, c) in curves.iter().enumerate() {
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

    // Disjoint cones of the curve ends at each spot.
    let mut ends: Vec<Vec<(usize, Option<Cone>)>> = vec![Vec::new(); spots.len()];
    for (e, c) in curves.iter().enumerate() {
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

    // Legs of different curves apart; curves apart from the spots they do not end at. The
    // candidates are the pairs of boxes (legs, and spots' discs) within reach of each other.
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
                if e == f {
                    return;
                }
                if let Some(s) = end_spot_of_leg(drawing, &polys[e], e, ja)
                    && end_spot_of_leg(drawing, &polys[f], f, jb) == Some(s)
                {
                    return;
                }
                let (a0, a1) = polys[e].leg(ja);
                let (b0, b1) = polys[f].leg(jb);
                let (ra, rb) = (polys[e].leg_eps(ja), polys[f].leg_eps(jb));
                // Legs whose boxes are farther apart than both bounds are apart.
                if box_gap((a0, a1), (b0, b1)) * (1.0 - 1e-12) > ra + rb + slack {
                    return;
                }
                match leg_verdict((a0, a1, ra), (b0, b1, rb)) {
                    Verdict::Apart(_) => {}
                    Verdict::Intersect => {
                        found = Some(AnalyseError::CurvesCross {
                            a: CurveId(e.min(f) as u32),
                            b: CurveId(e.max(f) as u32),
                        });
                    }
                    Verdict::Uncertain => {
                        let key = (e.min(f), e.max(f));
                        if !pair_seen.contains(&key) {
                            pair_seen.push(key);
                            undecided.push(Undecided::Pair(key.0, key.1));
                        }
                    }
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
                let (b0, b1) = polys[e].leg(jl);
                let rb = polys[e].leg_eps(jl);
                // Certainly inside the disc: the curve's part is within `rb` of the leg,
                // which comes closer to the centre than `radius - rb`.
                let d = sprouts_geom::point_segment_distance(s.centre, b0, b1);
                if d + rb < s.radius * (1.0 - 1e-9) {
                    found = Some(AnalyseError::CurveThroughSpot {
                        curve: CurveId(e as u32),
                        spot: s.id,
                    });
                    return;
                }
                match leg_verdict((s.centre, s.centre, s.radius), (b0, b1, rb)) {
                    Verdict::Apart(_) => {}
                    Verdict::Intersect => {
                        found = Some(AnalyseError::CurveThroughSpot {
                            curve: CurveId(e as u32),
                            spot: s.id,
                        });
                    }
                    Verdict::Uncertain => {
                        spot_seen.push((e, i));
                        undecided.push(Undecided::Spot(e, i));
                    }
                }
            }
        }
    });
    if let Some(err) = found {
        return Err(err);
    }
    Ok(undecided)
}
