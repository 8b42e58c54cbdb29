//! The picture: world size, spots and curves (`Drawing`), with the settings that govern drawing.

use serde::{Deserialize, Serialize};
use sprouts_geom::{Point, Spline};
use sprouts_topo::SpotId;

/// The index of a curve in its [`Drawing`].
///
/// Curves are appended (two per move) and never removed, so a curve keeps its id for as long as
/// the drawing lives; an undo restores an earlier drawing, whose ids are its own. Its two
/// half-edges are [`HalfEdgeId`]s `2 e` (from its first spot to its second) and `2 e + 1`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct CurveId(pub u32);

impl CurveId {
    /// The curve's index in [`Drawing::curves`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The half-edge that runs along the curve from its first spot to its second.
    pub const fn forward(self) -> HalfEdgeId {
        HalfEdgeId(2 * self.0)
    }

    /// The half-edge that runs along the curve from its second spot back to its first.
    pub const fn backward(self) -> HalfEdgeId {
        HalfEdgeId(2 * self.0 + 1)
    }
}

impl std::fmt::Display for CurveId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "c{}", self.0)
    }
}

/// A curve traversed in one direction: half-edge `2 e` runs along curve `e` from its first spot
/// to its second, `2 e + 1` back (its twin).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct HalfEdgeId(pub u32);

impl HalfEdgeId {
    /// The curve the half-edge runs along.
    pub const fn curve(self) -> CurveId {
        CurveId(self.0 / 2)
    }

    /// The same curve in the other direction.
    pub const fn twin(self) -> HalfEdgeId {
        HalfEdgeId(self.0 ^ 1)
    }

    /// Whether the half-edge runs from the curve's first spot to its second.
    pub const fn is_forward(self) -> bool {
        self.0 & 1 == 0
    }

    /// The half-edge's index (`2 e` or `2 e + 1`).
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The size of the drawing area in pixels when the game began. The picture is scaled uniformly
/// to whatever window shows it; its coordinates stay in this world.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldSize {
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
}

impl WorldSize {
    /// A world `width` by `height` pixels.
    pub const fn new(width: f64, height: f64) -> WorldSize {
        WorldSize { width, height }
    }

    /// Whether both sides are positive, finite and at most [`MAX_WORLD_SIDE`].
    pub fn is_valid(self) -> bool {
        let side = |x: f64| x.is_finite() && x > 0.0 && x <= MAX_WORLD_SIDE;
        side(self.width) && side(self.height)
    }

    /// How far outside the drawing area a curve may reach: the larger side.
    pub fn margin(self) -> f64 {
        self.width.max(self.height)
    }

    /// Whether the curve `spline` lies within the drawing area widened by
    /// [`WorldSize::margin`] on every side. The curve itself is measured, not its control
    /// polygon: a curve within that box is held wherever its control points are.
    ///
    /// This is the one rule on where a picture's curves may be: [`crate::analyse`] refuses a
    /// curve it does not hold ([`crate::AnalyseError::CurveOutside`]), so no board accepts one,
    /// and a saved game, which is loaded through the same analysis, reloads whatever a board
    /// accepted. It keeps absurd coordinates away from the certified checks, whose work grows
    /// with a curve's size: the control points of a curve it holds are within a few world
    /// sizes of the drawing area.
    pub fn holds_curve(self, spline: &Spline) -> bool {
        let m = self.margin();
        let (lo, hi) = (
            Point::new(-m, -m),
            Point::new(self.width + m, self.height + m),
        );
        // Written so that NaN is outside.
        let inside = |p: Point| p.x >= lo.x && p.y >= lo.y && p.x <= hi.x && p.y <= hi.y;
        let (clo, chi) = spline.control_bounds();
        // The curve lies in the hull of its control points.
        if inside(clo) && inside(chi) {
            return true;
        }
        // A curve in the box has its control points near it; one farther out is a curve that
        // leaves the box. This also keeps the extremes below free of overflow.
        if !(control_points_near(lo, hi, clo) && control_points_near(lo, hi, chi)) {
            return false;
        }
        spline.pieces().iter().all(|piece| {
            let (plo, phi) = piece.bez.bounds();
            inside(plo) && inside(phi)
        })
    }
}

/// Whether `p` lies within the box `lo..hi` scaled about its centre by 6, where every control
/// point of a cubic piece lying in the box lies: an inner control point is
/// `(-5 p(0) + 18 p(1/3) - 9 p(2/3) + 2 p(1)) / 6` (or the same from the other end), weights
/// summing to 1 whose absolute values sum to 17/3, so it is within 17/3 half-sides of the
/// box's centre when the four points of the curve are within one.
fn control_points_near(lo: Point, hi: Point, p: Point) -> bool {
    let (cx, cy) = (0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y));
    let (rx, ry) = (3.0 * (hi.x - lo.x), 3.0 * (hi.y - lo.y));
    (p.x - cx).abs() <= rx && (p.y - cy).abs() <= ry
}

/// The drawing settings of spec section 3 (the Settings menu), with the spec's defaults.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The minimum clearance `d0` a new curve keeps from everything else (pixels).
    pub min_clearance: f64,
    /// The comfort distance `D` at which a curve stops feeling its neighbours much (pixels).
    pub comfort_distance: f64,
    /// Room against length, the setting of spec 3.4 (default 1). The elastic band's `lambda`
    /// is three times this: at the spec's weight a converged band's bends are pulled in
    /// towards what they go round, and curves drawn later round the same place are squeezed.
    /// The weight of the regions' pressure on a one-boundary move's band (`0.1 D²` at 1)
    /// scales with it too.
    pub room_vs_length: f64,
    /// The radius new spots are drawn with (pixels).
    pub spot_radius: f64,
}

impl Settings {
    /// Whether every value is finite, the distances positive, `lambda` non-negative, and the
    /// clearance below the comfort distance.
    pub fn is_valid(&self) -> bool {
        let pos = |x: f64| x.is_finite() && x > 0.0;
        pos(self.min_clearance)
            && pos(self.comfort_distance)
            && pos(self.spot_radius)
            && self.room_vs_length.is_finite()
            && self.room_vs_length >= 0.0
            && self.min_clearance < self.comfort_distance
    }
}

impl Default for Settings {
    /// `d0 = 6`, `D = 40`, room against length 1 (spec 3, 3.4) and spots of radius 5 pixels.
    fn default() -> Settings {
        Settings {
            min_clearance: 6.0,
            comfort_distance: 40.0,
            room_vs_length: 1.0,
            spot_radius: 5.0,
        }
    }
}

/// The least radius a spot is drawn with (pixels): the • step of spec 4.6 draws spots smaller
/// where there is no room for the settings' size, never below this (nor below the settings'
/// size when that is smaller; see [`Settings::least_spot_radius`]).
pub const LEAST_SPOT_RADIUS: f64 = 1.0;

impl Settings {
    /// The least radius a spot may be drawn with: [`LEAST_SPOT_RADIUS`], or the settings'
    /// spot radius if that is smaller.
    pub fn least_spot_radius(&self) -> f64 {
        LEAST_SPOT_RADIUS.min(self.spot_radius)
    }
}

/// The largest width or height of a drawing area, in pixels ([`WorldSize::is_valid`]).
pub const MAX_WORLD_SIDE: f64 = 100_000.0;

/// The largest spot identity a drawing accepts (about a million): positions store lives by
/// identity, so an absurd identity in a file would otherwise cost absurd memory. A game of
/// `n` seeds has at most `4 n - 1` spots.
pub const MAX_SPOT_ID: u32 = 1 << 20;

/// A spot of the picture: its identity (shared with `sprouts-topo`), centre and drawn radius.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct DrawnSpot {
    /// The spot's identity in the position.
    pub id: SpotId,
    /// Its centre; every curve at the spot starts or ends exactly here.
    pub centre: Point,
    /// The radius it is drawn with. No curve other than the spot's own may come this close.
    pub radius: f64,
}

/// Which part of a move's curve a curve is: the curve from `x` to the new spot `z`, or from `z`
/// to `y` (spec 2.1: the program stores a move's curve as two curves but remembers that they were
/// one spline).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Half {
    /// From the move's first spot `x` to the new spot `z`.
    First,
    /// From the new spot `z` to the move's second spot `y`.
    Second,
}

/// The move that made a curve: its index in the game's move list (0 for the first move) and
/// which half of the move's spline the curve is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveOrigin {
    /// The move's index in the game (0 for the first move).
    #[serde(rename = "move")]
    pub move_index: u32,
    /// Which half of the move's spline.
    pub half: Half,
}

/// A curve of the picture: a spline from spot `from` to spot `to` (the same spot for a loop).
#[derive(Clone, PartialEq, Debug)]
pub struct Curve {
    /// The spot the spline starts at (exactly at its centre).
    pub from: SpotId,
    /// The spot the spline ends at (exactly at its centre).
    pub to: SpotId,
    /// The curve.
    pub spline: Spline,
    /// The move that made it, if it was made by one (hand-built pictures have none).
    pub origin: Option<CurveOrigin>,
}

/// Why a drawing could not be built or changed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DrawingError {
    /// The world size is not positive and finite.
    #[error("the world size {width} x {height} is not positive and finite")]
    BadWorld {
        /// The width given.
        width: f64,
        /// The height given.
        height: f64,
    },
    /// The world is larger than [`MAX_WORLD_SIDE`] a side.
    #[error(
        "the drawing area {width} x {height} is larger than {MAX_WORLD_SIDE} x {MAX_WORLD_SIDE}"
    )]
    WorldTooLarge {
        /// The width given.
        width: f64,
        /// The height given.
        height: f64,
    },
    /// Two spots have the same identity.
    #[error("spot {0} is in the picture twice")]
    DuplicateSpot(SpotId),
    /// A spot's centre or radius is not finite, or the radius is negative.
    #[error(
        "spot {0} has a non-finite centre or a radius that is not a finite non-negative number"
    )]
    BadSpot(SpotId),
    /// A curve names a spot the picture does not have.
    #[error("curve {curve} ends at spot {spot}, which is not in the picture")]
    UnknownSpot {
        /// The curve.
        curve: CurveId,
        /// The missing spot.
        spot: SpotId,
    },
    /// There is no such curve.
    #[error("there is no curve {0}")]
    NoSuchCurve(CurveId),
    /// There is no such spot.
    #[error("there is no spot {0}")]
    NoSuchSpot(SpotId),
    /// Too many curves to number.
    #[error("too many curves")]
    TooManyCurves,
    /// A spot identity above [`MAX_SPOT_ID`].
    #[error("spot {0} is above the largest spot identity a drawing accepts ({MAX_SPOT_ID})")]
    SpotIdTooLarge(SpotId),
    /// A spline could not be made or cut.
    #[error("bad spline: {0}")]
    BadSpline(sprouts_geom::SplineError),
}

/// A picture of a Sprouts position: the world, the spots and the curves (spec 2.1).
///
/// The drawing holds geometry only; what position it shows is read off it by
/// [`crate::analyse`]. Its own checks are structural (unique spot identities, curves between
/// spots it has); whether curves start at their spots' centres, cross, touch or pass through
/// spots is for `analyse` to say.
///
/// # Examples
///
/// Three seeds laid out evenly, read back as the 3-spot start:
///
/// ```
/// use sprouts_draw::{analyse, Drawing, WorldSize};
///
/// let drawing = Drawing::with_seeds(WorldSize::new(400.0, 300.0), 3, 5.0)?;
/// assert_eq!(drawing.spots().len(), 3);
/// let analysis = analyse(&drawing)?;
/// assert_eq!(analysis.position().canonical().as_str(), "0*3");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Equality
/// `==` compares everything: world, spots and curves in order, splines piece by piece.
#[derive(Clone, PartialEq, Debug)]
pub struct Drawing {
    world: WorldSize,
    spots: Vec<DrawnSpot>,
    curves: Vec<Curve>,
}

impl Drawing {
    /// An empty drawing of the given world.
    ///
    /// # Errors
    /// [`DrawingError::BadWorld`] unless both sides are positive and finite,
    /// [`DrawingError::WorldTooLarge`] if one is larger than [`MAX_WORLD_SIDE`].
    pub fn new(world: WorldSize) -> Result<Drawing, DrawingError> {
        if !world.is_valid() {
            let (width, height) = (world.width, world.height);
            let positive = |x: f64| x.is_finite() && x > 0.0;
            return Err(if positive(width) && positive(height) {
                DrawingError::WorldTooLarge { width, height }
            } else {
                DrawingError::BadWorld { width, height }
            });
        }
        Ok(Drawing {
            world,
            spots: Vec::new(),
            curves: Vec::new(),
        })
    }

    /// A drawing from its parts, checked structurally.
    ///
    /// # Errors
    /// The first structural problem: a bad world, a duplicate or non-finite spot, a curve ending
    /// at a spot that is not there.
    pub fn from_parts(
        world: WorldSize,
        spots: Vec<DrawnSpot>,
        curves: Vec<Curve>,
    ) -> Result<Drawing, DrawingError> {
        let mut d = Drawing::new(world)?;
        for s in spots {
            d.add_spot(s)?;
        }
        for c in curves {
            d.add_curve(c)?;
        }
        Ok(d)
    }

    /// The `n` seeds of a new game laid out on a grid that fills the world evenly, numbered
    /// `1..=n` row by row, with the given radius.
    ///
    /// # Errors
    /// [`DrawingError::BadWorld`].
    pub fn with_seeds(world: WorldSize, n: u32, radius: f64) -> Result<Drawing, DrawingError> {
        let mut d = Drawing::new(world)?;
        if n == 0 {
            return Ok(d);
        }
        // Columns and rows in the world's proportions, enough for n cells.
        let aspect = world.width / world.height;
        let mut cols = ((f64::from(n) * aspect).sqrt().round() as u32).clamp(1, n);
        let mut rows = n.div_ceil(cols);
        while cols * rows < n {
            cols += 1;
            rows = n.div_ceil(cols);
        }
        for k in 0..n {
            let (r, c) = (k / cols, k % cols);
            // The last row is centred when it is not full.
            let in_row = if r + 1 == rows { n - r * cols } else { cols };
            let x = world.width * (f64::from(c) + 0.5 + 0.5 * f64::from(cols - in_row))
                / f64::from(cols);
            let y = world.height * (f64::from(r) + 0.5) / f64::from(rows);
            let id = SpotId::new(k + 1).expect("k + 1 is not zero");
            d.add_spot(DrawnSpot {
                id,
                centre: Point::new(x, y),
                radius,
            })?;
        }
        Ok(d)
    }

    /// The world the picture is drawn in.
    pub fn world(&self) -> WorldSize {
        self.world
    }

    /// The spots, in the order they were added.
    pub fn spots(&self) -> &[DrawnSpot] {
        &self.spots
    }

    /// The curves; curve `e` is `curves()[e]`.
    pub fn curves(&self) -> &[Curve] {
        &self.curves
    }

    /// The spot with identity `id`.
    pub fn spot(&self, id: SpotId) -> Option<&DrawnSpot> {
        self.spots.iter().find(|s| s.id == id)
    }

    /// The curve `id`.
    pub fn curve(&self, id: CurveId) -> Option<&Curve> {
        self.curves.get(id.index())
    }

    /// The curves that start or end at `spot` (a loop once).
    pub fn curves_at(&self, spot: SpotId) -> impl Iterator<Item = CurveId> + '_ {
        self.curves
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.from == spot || c.to == spot)
            .map(|(i, _)| CurveId(i as u32))
    }

    /// The number of curve ends at `spot` (a loop counts twice): its degree.
    pub fn degree(&self, spot: SpotId) -> usize {
        self.curves
            .iter()
            .map(|c| usize::from(c.from == spot) + usize::from(c.to == spot))
            .sum()
    }

    /// The identity after every spot's (1 for an empty picture): the next move's new spot.
    pub fn next_spot(&self) -> SpotId {
        let max = self.spots.iter().map(|s| s.id.get()).max().unwrap_or(0);
        SpotId::new(max + 1).expect("max + 1 is not zero")
    }

    /// The two curves of the move that made `curve`, `(x → z, z → y)`, while they can still be
    /// treated as one spline: the move's new spot `z` has only those two curves (spec 2.1).
    pub fn move_pair(&self, curve: CurveId) -> Option<(CurveId, CurveId)> {
        let c = self.curve(curve)?;
        let origin = c.origin?;
        let partner = self.curves.iter().enumerate().find(|(i, o)| {
            *i != curve.index()
                && o.origin
                    == Some(CurveOrigin {
                        move_index: origin.move_index,
                        half: match origin.half {
                            Half::First => Half::Second,
                            Half::Second => Half::First,
                        },
                    })
        })?;
        let partner = CurveId(partner.0 as u32);
        let (first, second) = match origin.half {
            Half::First => (curve, partner),
            Half::Second => (partner, curve),
        };
        let z = self.curves[first.index()].to;
        (self.curves[second.index()].from == z && self.degree(z) == 2).then_some((first, second))
    }

    /// Adds a spot.
    ///
    /// # Errors
    /// [`DrawingError::DuplicateSpot`], [`DrawingError::BadSpot`] or
    /// [`DrawingError::SpotIdTooLarge`].
    pub fn add_spot(&mut self, spot: DrawnSpot) -> Result<(), DrawingError> {
        if !(spot.centre.x.is_finite()
            && spot.centre.y.is_finite()
            && spot.radius.is_finite()
            && spot.radius >= 0.0)
        {
            return Err(DrawingError::BadSpot(spot.id));
        }
        if spot.id.get() > MAX_SPOT_ID {
            return Err(DrawingError::SpotIdTooLarge(spot.id));
        }
        if self.spot(spot.id).is_some() {
            return Err(DrawingError::DuplicateSpot(spot.id));
        }
        self.spots.push(spot);
        Ok(())
    }

    /// Adds a curve and returns its id.
    ///
    /// # Errors
    /// [`DrawingError::UnknownSpot`] if an end is not a spot of the picture.
    pub fn add_curve(&mut self, curve: Curve) -> Result<CurveId, DrawingError> {
        let id =
            CurveId(u32::try_from(self.curves.len()).map_err(|_| DrawingError::TooManyCurves)?);
        for spot in [curve.from, curve.to] {
            if self.spot(spot).is_none() {
                return Err(DrawingError::UnknownSpot { curve: id, spot });
            }
        }
        self.curves.push(curve);
        Ok(id)
    }

    /// Replaces the spline of `curve` (the ends are not checked here; `analyse` checks them).
    ///
    /// # Errors
    /// [`DrawingError::NoSuchCurve`].
    pub fn set_spline(&mut self, curve: CurveId, spline: Spline) -> Result<(), DrawingError> {
        let c = self
            .curves
            .get_mut(curve.index())
            .ok_or(DrawingError::NoSuchCurve(curve))?;
        c.spline = spline;
        Ok(())
    }

    /// Moves a spot's centre (its curves must be moved with it for the picture to stay valid).
    ///
    /// # Errors
    /// [`DrawingError::NoSuchSpot`] or [`DrawingError::BadSpot`].
    pub fn set_spot_centre(&mut self, spot: SpotId, centre: Point) -> Result<(), DrawingError> {
        if !(centre.x.is_finite() && centre.y.is_finite()) {
            return Err(DrawingError::BadSpot(spot));
        }
        let s = self
            .spots
            .iter_mut()
            .find(|s| s.id == spot)
            .ok_or(DrawingError::NoSuchSpot(spot))?;
        s.centre = centre;
        Ok(())
    }

    /// Sets the radius a spot is drawn with.
    ///
    /// # Errors
    /// [`DrawingError::NoSuchSpot`] or [`DrawingError::BadSpot`].
    pub fn set_spot_radius(&mut self, spot: SpotId, radius: f64) -> Result<(), DrawingError> {
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(DrawingError::BadSpot(spot));
        }
        let s = self
            .spots
            .iter_mut()
            .find(|s| s.id == spot)
            .ok_or(DrawingError::NoSuchSpot(spot))?;
        s.radius = radius;
        Ok(())
    }

    /// Draws a move's curve: adds the new spot `z` at the point where `first` ends and `second`
    /// starts, and the two curves `x → z` and `z → y` with their origin (spec 2.1). The two
    /// splines are usually the halves of one spline cut near its middle
    /// ([`Spline::cut_near_middle`]).
    ///
    /// # Errors
    /// [`DrawingError::UnknownSpot`] if `x` or `y` is not in the picture,
    /// [`DrawingError::DuplicateSpot`] if `z` is, [`DrawingError::BadSpot`]; the drawing is
    /// unchanged on error.
    pub fn add_move_curves(
        &mut self,
        (x, z, y): (SpotId, SpotId, SpotId),
        first: Spline,
        second: Spline,
        move_index: u32,
        radius: f64,
    ) -> Result<(CurveId, CurveId), DrawingError> {
        let next = CurveId(
            u32::try_from(self.curves.len() + 1).map_err(|_| DrawingError::TooManyCurves)? - 1,
        );
        for spot in [x, y] {
            if self.spot(spot).is_none() {
                return Err(DrawingError::UnknownSpot { curve: next, spot });
            }
        }
        self.add_spot(DrawnSpot {
            id: z,
            centre: first.end(),
            radius,
        })?;
        let a = self.add_curve(Curve {
            from: x,
            to: z,
            spline: first,
            origin: Some(CurveOrigin {
                move_index,
                half: Half::First,
            }),
        })?;
        let b = self.add_curve(Curve {
            from: z,
            to: y,
            spline: second,
            origin: Some(CurveOrigin {
                move_index,
                half: Half::Second,
            }),
        })?;
        Ok((a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sprouts_geom::CubicBez;

    #[test]
    fn seeds_fill_the_world_and_stay_inside() {
        let world = WorldSize::new(1000.0, 500.0);
        for n in 0..40 {
            let d = Drawing::with_seeds(world, n, 5.0).unwrap();
            assert_eq!(d.spots().len(), n as usize);
            for (k, s) in d.spots().iter().enumerate() {
                assert_eq!(s.id.get(), k as u32 + 1);
                assert!(s.centre.x > 0.0 && s.centre.x < world.width, "{s:?}");
                assert!(s.centre.y > 0.0 && s.centre.y < world.height, "{s:?}");
            }
            for (i, a) in d.spots().iter().enumerate() {
                for b in &d.spots()[i + 1..] {
                    assert!(
                        (a.centre - b.centre).norm() > 50.0,
                        "{n} spots: {a:?} {b:?}"
                    );
                }
            }
            assert_eq!(d.next_spot().get(), n + 1);
        }
    }

    fn cubic(points: [(f64, f64); 4]) -> Spline {
        let [a, b, c, d] = points.map(|(x, y)| Point::new(x, y));
        Spline::from_cubic(CubicBez::new(a, b, c, d), 1.0).unwrap()
    }

    /// The rule is on the curve: a curve inside the widened area is held with its control
    /// points far outside it, a curve reaching beyond it is not, whatever the size of its
    /// coordinates.
    #[test]
    fn the_world_holds_the_curves_inside_its_margin() {
        let world = WorldSize::new(100.0, 100.0);
        assert_eq!(world.margin(), 100.0);
        // x runs from about -37 to about 137; the control points reach -250 and 350.
        let wide = cubic([(50.0, 50.0), (-250.0, 50.0), (350.0, 60.0), (50.0, 60.0)]);
        let (lo, hi) = wide.control_bounds();
        assert!(lo.x < -100.0 && hi.x > 200.0);
        assert!(world.holds_curve(&wide));
        // Twice as far out: x down to about -123.
        let far = cubic([(50.0, 50.0), (-550.0, 50.0), (650.0, 60.0), (50.0, 60.0)]);
        assert!(!world.holds_curve(&far));
        // The same in y, and along the other edges.
        let swap = |s: &Spline, f: fn(Point) -> Point| {
            let p = s.pieces()[0].bez.points().map(f);
            Spline::from_cubic(CubicBez::new(p[0], p[1], p[2], p[3]), 1.0).unwrap()
        };
        for f in [
            |p: Point| Point::new(p.y, p.x),
            |p: Point| Point::new(100.0 - p.x, p.y),
            |p: Point| Point::new(p.y, 100.0 - p.x),
        ] {
            assert!(world.holds_curve(&swap(&wide, f)));
            assert!(!world.holds_curve(&swap(&far, f)));
        }
        // Inside up to the edge of the widened area, and just beyond it.
        assert!(world.holds_curve(&cubic([
            (50.0, 50.0),
            (-100.0, 50.0),
            (-100.0, 50.0),
            (200.0, 200.0)
        ])));
        assert!(!world.holds_curve(&cubic([
            (50.0, 50.0),
            (50.0, 50.0),
            (50.0, 50.0),
            (200.1, 50.0)
        ])));
        // Absurd coordinates: no overflow to let them through.
        for big in [1e12, 1e300, f64::MAX] {
            let s = cubic([(50.0, 50.0), (-big, big), (big, -big), (50.0, 60.0)]);
            assert!(!world.holds_curve(&s), "{big}");
        }
    }

    /// Every control point of a piece within a box lies within the box scaled by 6 about its
    /// centre (17/3 would do), so the shortcut that refuses other pieces at once never refuses
    /// a curve the box holds.
    #[test]
    fn control_points_of_a_piece_inside_a_box_are_near_it() {
        let (lo, hi) = (Point::new(-100.0, -50.0), Point::new(200.0, 250.0));
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut unit = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..10_000 {
            // Four points of the curve, at t = 0, 1/3, 2/3, 1, anywhere in the box (corners
            // often), and the piece through them.
            let mut pick = || {
                let mut c = |a: f64, b: f64| {
                    let u = unit();
                    if u < 0.25 {
                        a
                    } else if u > 0.75 {
                        b
                    } else {
                        a + (b - a) * unit()
                    }
                };
                Point::new(c(lo.x, hi.x), c(lo.y, hi.y))
            };
            let (a, q1, q2, d) = (pick(), pick(), pick(), pick());
            let inner = |q1: Point, q2: Point, a: Point, d: Point| {
                Point::from(
                    (-5.0 * a.coords + 18.0 * q1.coords - 9.0 * q2.coords + 2.0 * d.coords) / 6.0,
                )
            };
            let (b, c) = (inner(q1, q2, a, d), inner(q2, q1, d, a));
            let bez = CubicBez::new(a, b, c, d);
            for (t, q) in [(1.0 / 3.0, q1), (2.0 / 3.0, q2)] {
                assert!((bez.eval(t) - q).norm() < 1e-9);
            }
            for p in bez.points() {
                assert!(control_points_near(lo, hi, p), "{bez:?}");
            }
        }
    }

    #[test]
    fn worlds_larger_than_the_largest_side_are_refused() {
        assert!(Drawing::new(WorldSize::new(MAX_WORLD_SIDE, MAX_WORLD_SIDE)).is_ok());
        assert_eq!(
            Drawing::new(WorldSize::new(2.0 * MAX_WORLD_SIDE, 10.0)),
            Err(DrawingError::WorldTooLarge {
                width: 2.0 * MAX_WORLD_SIDE,
                height: 10.0
            })
        );
        assert!(matches!(
            Drawing::new(WorldSize::new(f64::INFINITY, 10.0)),
            Err(DrawingError::BadWorld { .. })
        ));
    }

    #[test]
    fn structural_errors() {
        let mut d = Drawing::new(WorldSize::new(100.0, 100.0)).unwrap();
        let s = |n| SpotId::new(n).unwrap();
        let spot = DrawnSpot {
            id: s(1),
            centre: Point::new(10.0, 10.0),
            radius: 3.0,
        };
        d.add_spot(spot).unwrap();
        assert_eq!(d.add_spot(spot), Err(DrawingError::DuplicateSpot(s(1))));
        let bad = DrawnSpot {
            id: s(2),
            centre: Point::new(f64::NAN, 0.0),
            radius: 3.0,
        };
        assert_eq!(d.add_spot(bad), Err(DrawingError::BadSpot(s(2))));
        let line = Spline::from_cubic(
            CubicBez::line(Point::new(10.0, 10.0), Point::new(50.0, 50.0)),
            1.0,
        )
        .unwrap();
        let err = d.add_curve(Curve {
            from: s(1),
            to: s(2),
            spline: line,
            origin: None,
        });
        assert_eq!(
            err,
            Err(DrawingError::UnknownSpot {
                curve: CurveId(0),
                spot: s(2)
            })
        );
        assert!(Drawing::new(WorldSize::new(0.0, 10.0)).is_err());
    }
}
