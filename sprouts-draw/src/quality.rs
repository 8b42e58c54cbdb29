//! How readable a picture is: the picture quality report (`PictureQuality`).
//!
//! The report measures what a reader of the picture sees: how close things come (the least
//! gap), how much of the curves run crowded beside another curve, how sharply curves turn, and
//! whether the picture is cut off or squeezed into part of the window. It is the one yardstick
//! by which the router, the ways of making room (spec 4) and a fresh layout are compared, and
//! what `selfplay --draw --json` and `render --quality` print.
//!
//! # Method and accuracy
//! Every curve is sampled at equal steps of its parameter, at most [`SAMPLE_STEP`] pixels of
//! arc apart, and the samples are joined into a polyline. Distances between curves are the
//! exact distances between these polylines (segment to segment), which lie within a few
//! hundredths of a pixel of the curves' own distances for curves whose radius of curvature is a
//! few pixels or more (a chord of length `h` on a circle of radius `R` is at most `h² / 8R` from
//! it). Turning is measured on the curves' own tangents at the samples. The report is an
//! estimate for people and for comparisons; topological decisions never rest on it.

use serde::Serialize;
use sprouts_geom::certified::segments_intersect;
use sprouts_geom::{GridSegment, Point, SegmentGrid, Spline, Vector, point_segment_distance};
use sprouts_topo::SpotId;

use crate::board::Board;
use crate::drawing::{CurveId, Drawing, DrawnSpot, Settings};

/// The largest arc length between two samples of a curve (pixels).
pub const SAMPLE_STEP: f64 = 2.0;

/// The first distance of the crowding shares: curve length closer than this to another curve
/// is crowded (pixels).
pub const CROWDED: f64 = 8.0;

/// The second distance of the crowding shares (pixels).
pub const NEAR: f64 = 20.0;

/// The arc length over which turning is measured (pixels).
pub const TURN_WINDOW: f64 = 16.0;

/// A turn sharper than this within [`TURN_WINDOW`] just past a spot makes a sharp start
/// (degrees).
pub const SHARP_TURN: f64 = 60.0;

/// Near a spot both curves end at, the curves are not measured against each other: within this
/// distance of the spot's centre they meet by design (pixels).
pub const SHARED_SPOT_REACH: f64 = 16.0;

/// Beyond [`SHARED_SPOT_REACH`], two curves ending at one spot are measured against each other
/// where their distance is less than this share of their distance from the spot (curves
/// leaving a spot less than 30 degrees apart).
const SHARED_SPOT_RATIO: f64 = 0.5;

/// Two stretches of one curve are measured against each other only when the arc between them
/// is longer than this many times their distance (the curve has folded back on itself).
const FOLD_RATIO: f64 = 3.0;

/// The cell of the spatial grid over the curves' polylines (pixels).
const GRID_CELL: f64 = 32.0;

/// One of the things a picture is made of, as the least gap names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Thing {
    /// A curve, by its index in the drawing.
    Curve(u32),
    /// A spot (its disc at the radius it is drawn with).
    Spot(u32),
    /// The edge of the drawing area.
    Frame,
}

impl std::fmt::Display for Thing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Thing::Curve(c) => write!(f, "curve {c}"),
            Thing::Spot(s) => write!(f, "spot {s}"),
            Thing::Frame => f.write_str("the frame"),
        }
    }
}

/// The least gap of a picture and the two things it lies between.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Gap {
    /// The distance (pixels): between curves, from centre line to centre line; to a spot, from
    /// the edge of its disc; to the frame, from the edge of the drawing area (negative for a
    /// thing reaching outside it).
    pub pixels: f64,
    /// One of the two things.
    pub between: Thing,
    /// The other.
    pub and: Thing,
}

/// The picture quality report of a drawing.
///
/// Conventions: a curve is not measured against its own end spots; two curves are not measured
/// against each other within [`SHARED_SPOT_REACH`] of a spot they both end at, nor beyond it
/// where they are farther apart than half their distance from the spot; and a curve is
/// measured against itself only where it has folded back (the arc between two of its points is
/// more than three times their distance).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PictureQuality {
    /// The least gap between any two things (curve and curve, curve and spot, spot and spot,
    /// anything and the frame); `None` only for a picture without spots or curves.
    pub least_gap: Option<Gap>,
    /// The total length of the curves (pixels).
    pub curve_length: f64,
    /// The share (0 to 1) of the curves' length within [`CROWDED`] pixels of another curve (or
    /// of another stretch of the same curve).
    pub within_8: f64,
    /// The share (0 to 1) of the curves' length within [`NEAR`] pixels of another curve.
    pub within_20: f64,
    /// The sharpest turn of any curve within [`TURN_WINDOW`] pixels of arc, in degrees, also
    /// across the spot a move made while it has only the move's two curves (0 without curves).
    pub sharpest_turn: f64,
    /// Where the sharpest turn starts (a point of the curve, or the spot the two curves of a
    /// move meet at), to find it in the picture; `None` without curves.
    pub sharpest_turn_at: Option<Point>,
    /// The curves that turn more than [`SHARP_TURN`] degrees within [`TURN_WINDOW`] pixels just
    /// past a spot they end at (measured from the edge of its disc).
    pub sharp_starts: usize,
    /// The spots drawn smaller than the settings' spot radius.
    pub spots_shrunk: usize,
    /// The spots whose label (as [`crate::svg`] writes it) reaches outside the drawing area.
    pub labels_clipped: usize,
    /// The share (0 to 1) of the drawing area inside the convex hull of the picture (the curves'
    /// samples and the spots' discs, held to the drawing area).
    pub window_used: f64,
}

impl PictureQuality {
    /// The report of `drawing` drawn with `settings` (whose spot radius says which spots are
    /// shrunk).
    ///
    /// # Complexity
    /// Linear in the curves' length over [`SAMPLE_STEP`] times the samples near each sample,
    /// plus the square of the number of spots.
    pub fn of(drawing: &Drawing, settings: &Settings) -> PictureQuality {
        let world = drawing.world();
        let curves: Vec<Sampled> = drawing
            .curves()
            .iter()
            .map(|c| Sampled::new(&c.spline, c.from, c.to))
            .collect();
        let grid = SegmentGrid::new(
            GRID_CELL,
            curves.iter().enumerate().flat_map(|(c, s)| {
                s.points
                    .windows(2)
                    .enumerate()
                    .map(move |(j, w)| GridSegment {
                        key: (c as u32, j as u32),
                        a: w[0],
                        b: w[1],
                    })
            }),
        )
        .ok();
        let spot_at = |id: SpotId| drawing.spot(id);

        // Gaps to the frame and between spots, exact.
        let mut least: Option<Gap> = None;
        let offer = |least: &mut Option<Gap>, pixels: f64, between: Thing, and: Thing| {
            if least.is_none_or(|g| pixels < g.pixels) {
                *least = Some(Gap {
                    pixels,
                    between,
                    and,
                });
            }
        };
        let to_frame = |p: Point| p.x.min(p.y).min(world.width - p.x).min(world.height - p.y);
        let spots = drawing.spots();
        for (i, s) in spots.iter().enumerate() {
            offer(
                &mut least,
                to_frame(s.centre) - s.radius,
                Thing::Spot(s.id.get()),
                Thing::Frame,
            );
            for t in &spots[i + 1..] {
                offer(
                    &mut least,
                    (s.centre - t.centre).norm() - s.radius - t.radius,
                    Thing::Spot(s.id.get()),
                    Thing::Spot(t.id.get()),
                );
            }
        }
        for (c, s) in curves.iter().enumerate() {
            if let Some(d) = s.points.iter().map(|&p| to_frame(p)).reduce(f64::min) {
                offer(&mut least, d, Thing::Curve(c as u32), Thing::Frame);
            }
        }
        // Curves against spots and curves, searched out to the least gap found so far.
        if let Some(grid) = &grid {
            let mut near = Vec::new();
            // A spot farther than this from every segment's box is farther than the window.
            let cap = search_cap(grid) + world.width + world.height;
            for s in spots {
                let reach = least.map_or(f64::INFINITY, |g| g.pixels) + s.radius;
                if let Some((d, c)) = nearest_to_spot(grid, &curves, s, (reach, cap), &mut near) {
                    offer(
                        &mut least,
                        d - s.radius,
                        Thing::Curve(c),
                        Thing::Spot(s.id.get()),
                    );
                }
            }
            let reach = least.map_or(f64::INFINITY, |g| g.pixels);
            if let Some((d, c, e)) = nearest_curves(grid, &curves, &spot_at, reach) {
                offer(&mut least, d, Thing::Curve(c), Thing::Curve(e));
            }
        }

        let crowding = grid
            .as_ref()
            .map(|g| crowding(g, &curves, &spot_at))
            .unwrap_or_default();
        let turns = turning(drawing, &curves);
        let spots_shrunk = spots
            .iter()
            .filter(|s| s.radius < settings.spot_radius)
            .count();
        let labels_clipped = spots
            .iter()
            .filter(|s| {
                let (lo, hi) = crate::svg::label_box(s);
                lo.x < 0.0 || lo.y < 0.0 || hi.x > world.width || hi.y > world.height
            })
            .count();
        PictureQuality {
            least_gap: least,
            curve_length: crowding.length,
            within_8: crowding.share(crowding.within_8),
            within_20: crowding.share(crowding.within_20),
            sharpest_turn: turns.sharpest,
            sharpest_turn_at: turns.at,
            sharp_starts: turns.sharp_starts,
            spots_shrunk,
            labels_clipped,
            window_used: window_used(drawing, &curves),
        }
    }

    /// The report of `board`'s picture with its settings.
    pub fn of_board(board: &Board) -> PictureQuality {
        PictureQuality::of(board.drawing(), board.settings())
    }

    /// The least gap in pixels (infinite for an empty picture).
    pub fn least_gap_pixels(&self) -> f64 {
        self.least_gap.map_or(f64::INFINITY, |g| g.pixels)
    }
}

impl std::fmt::Display for PictureQuality {
    /// One line: `least gap 6.2 px (curve 3 and spot 7), 1.5% of curve length within 8 px, ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.least_gap {
            Some(g) => write!(
                f,
                "least gap {:.1} px ({} and {})",
                g.pixels, g.between, g.and
            )?,
            None => f.write_str("least gap none")?,
        }
        write!(
            f,
            ", {:.1}% of curve length within 8 px and {:.1}% within 20 px of another curve, \
             sharpest turn {:.0} degrees within 16 px{}, {} curves turning over 60 degrees just \
             past a spot, {} spots shrunk, {} labels clipped, {:.0}% of the window used",
            100.0 * self.within_8,
            100.0 * self.within_20,
            self.sharpest_turn,
            self.sharpest_turn_at
                .map_or(String::new(), |p| format!(" at ({:.0}, {:.0})", p.x, p.y)),
            self.sharp_starts,
            self.spots_shrunk,
            self.labels_clipped,
            100.0 * self.window_used
        )
    }
}

/// A curve sampled: points at most [`SAMPLE_STEP`] apart, the arc length at each, the tangent
/// angle at each (unwrapped, radians), and its end spots.
struct Sampled {
    points: Vec<Point>,
    arc: Vec<f64>,
    angle: Vec<f64>,
    from: SpotId,
    to: SpotId,
}

impl Sampled {
    fn new(spline: &Spline, from: SpotId, to: SpotId) -> Sampled {
        let mut points = vec![spline.start()];
        let mut tangents = Vec::new();
        for (k, piece) in spline.pieces().iter().enumerate() {
            let n = (piece.bez.polygon_length() / SAMPLE_STEP)
                .ceil()
                .clamp(1.0, 1e5) as usize;
            if k == 0 {
                tangents.push(piece.bez.deriv(0.0));
            }
            for i in 1..=n {
                let t = i as f64 / n as f64;
                points.push(piece.bez.eval(t));
                tangents.push(piece.bez.deriv(t));
            }
        }
        let mut arc = Vec::with_capacity(points.len());
        let mut s = 0.0;
        arc.push(0.0);
        for w in points.windows(2) {
            s += (w[1] - w[0]).norm();
            arc.push(s);
        }
        // A vanishing derivative (a cusp of the parameterisation) takes the chord's direction.
        let mut angle = Vec::with_capacity(points.len());
        for (i, &tangent) in tangents.iter().enumerate() {
            let mut v: Vector = tangent;
            // Written so that a NaN length takes the chord too.
            if v.norm().partial_cmp(&1e-9) != Some(std::cmp::Ordering::Greater) {
                let j = (i + 1).min(points.len() - 1);
                let k = i.saturating_sub(1);
                v = points[j] - points[k];
            }
            let a = v.y.atan2(v.x);
            angle.push(match angle.last() {
                Some(&prev) => unwrap_near(a, prev),
                None => a,
            });
        }
        Sampled {
            points,
            arc,
            angle,
            from,
            to,
        }
    }

    fn length(&self) -> f64 {
        self.arc.last().copied().unwrap_or(0.0)
    }

    fn ends_at(&self, spot: SpotId) -> bool {
        self.from == spot || self.to == spot
    }
}

/// `a` moved by whole turns to lie within half a turn of `prev`.
fn unwrap_near(a: f64, prev: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    a + tau * ((prev - a) / tau).round()
}

/// The distance between segments `[a0, a1]` and `[b0, b1]` (0 when they meet).
fn segment_distance(a0: Point, a1: Point, b0: Point, b1: Point) -> f64 {
    if segments_intersect(a0, a1, b0, b1) {
        return 0.0;
    }
    point_segment_distance(a0, b0, b1)
        .min(point_segment_distance(a1, b0, b1))
        .min(point_segment_distance(b0, a0, a1))
        .min(point_segment_distance(b1, a0, a1))
}

/// Whether leg `i` of curve `c` and leg `j` of curve `e` are measured against each other (the
/// conventions of [`PictureQuality`]), given their distance `d`.
fn compared<'a>(
    curves: &[Sampled],
    spot_at: &impl Fn(SpotId) -> Option<&'a DrawnSpot>,
    (c, i): (usize, usize),
    (e, j): (usize, usize),
    d: f64,
) -> bool {
    let (a, b) = (&curves[c], &curves[e]);
    if c == e {
        let apart = (a.arc[i] - a.arc[j]).abs() - SAMPLE_STEP;
        return i.abs_diff(j) > 1 && apart > FOLD_RATIO * d;
    }
    let mid =
        |c: &Sampled, i: usize| Point::from(0.5 * (c.points[i].coords + c.points[i + 1].coords));
    let (pa, pb) = (mid(a, i), mid(b, j));
    // Near a spot both end at, the curves meet by design: they are measured against each other
    // only beyond SHARED_SPOT_REACH, and only where they run closer than half their distance
    // from the spot (where they leave it less than about 30 degrees apart).
    let apart_at = |s: SpotId| {
        spot_at(s).is_none_or(|spot| {
            let r = (pa - spot.centre).norm().max((pb - spot.centre).norm());
            r > SHARED_SPOT_REACH && d < SHARED_SPOT_RATIO * r
        })
    };
    [a.from, a.to]
        .into_iter()
        .filter(|&s| b.ends_at(s))
        .all(apart_at)
}

/// The curve nearest to spot `s` among those not ending at it, within `reach` of its centre:
/// `(distance from the centre, curve)`. The search widens from [`NEAR`] until it finds one, or
/// reaches `reach` or `cap` (beyond which every segment has been seen).
fn nearest_to_spot(
    grid: &SegmentGrid<(u32, u32)>,
    curves: &[Sampled],
    s: &DrawnSpot,
    (reach, cap): (f64, f64),
    near: &mut Vec<usize>,
) -> Option<(f64, u32)> {
    let limit = reach.min(cap);
    let mut r = NEAR.min(limit);
    loop {
        let mut best: Option<(f64, u32)> = None;
        near.clear();
        grid.near_point(s.centre, r, near);
        for &k in near.iter() {
            let seg = &grid.segments()[k];
            if curves[seg.key.0 as usize].ends_at(s.id) {
                continue;
            }
            let d = point_segment_distance(s.centre, seg.a, seg.b);
            if d <= r && best.is_none_or(|b| d < b.0) {
                best = Some((d, seg.key.0));
            }
        }
        if best.is_some() || r >= limit {
            return best;
        }
        r = (2.0 * r).min(limit);
    }
}

/// A reach beyond which a query from within the grid's segments meets every stored segment.
fn search_cap(grid: &SegmentGrid<(u32, u32)>) -> f64 {
    let mut lo = Point::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for s in grid.segments() {
        for p in [s.a, s.b] {
            lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
        }
    }
    if lo.x > hi.x {
        return 0.0;
    }
    (hi - lo).norm() + 1.0
}

/// The least distance between two curves (or two stretches of one) measured against each other,
/// if below `reach`: `(distance, curve, curve)`.
fn nearest_curves<'a>(
    grid: &SegmentGrid<(u32, u32)>,
    curves: &[Sampled],
    spot_at: &impl Fn(SpotId) -> Option<&'a DrawnSpot>,
    reach: f64,
) -> Option<(f64, u32, u32)> {
    let cap = search_cap(grid);
    let mut r = NEAR.min(reach);
    let mut near = Vec::new();
    loop {
        let mut best: Option<(f64, u32, u32)> = None;
        for (k, seg) in grid.segments().iter().enumerate() {
            near.clear();
            grid.near_segment(seg.a, seg.b, r, &mut near);
            for &m in &near {
                if m <= k {
                    continue;
                }
                let other = &grid.segments()[m];
                let d = segment_distance(seg.a, seg.b, other.a, other.b);
                if d > r || best.is_some_and(|b| d >= b.0) {
                    continue;
                }
                let (c, i) = (seg.key.0 as usize, seg.key.1 as usize);
                let (e, j) = (other.key.0 as usize, other.key.1 as usize);
                if compared(curves, spot_at, (c, i), (e, j), d) {
                    best = Some((d, seg.key.0, other.key.0));
                }
            }
        }
        if best.is_some() || r >= reach || r >= cap {
            return best;
        }
        r = (2.0 * r).min(reach).min(cap);
    }
}

/// The crowding shares: curve length in total and within [`CROWDED`] and [`NEAR`] of another
/// curve.
#[derive(Default)]
struct Crowding {
    length: f64,
    within_8: f64,
    within_20: f64,
}

impl Crowding {
    fn share(&self, part: f64) -> f64 {
        if self.length > 0.0 {
            part / self.length
        } else {
            0.0
        }
    }
}

/// Each leg of each curve counts with its length for the distance from its middle to the
/// nearest leg it is measured against.
fn crowding<'a>(
    grid: &SegmentGrid<(u32, u32)>,
    curves: &[Sampled],
    spot_at: &impl Fn(SpotId) -> Option<&'a DrawnSpot>,
) -> Crowding {
    let mut out = Crowding::default();
    let mut near = Vec::new();
    for seg in grid.segments() {
        let len = (seg.b - seg.a).norm();
        out.length += len;
        let mid = Point::from(0.5 * (seg.a.coords + seg.b.coords));
        near.clear();
        grid.near_point(mid, NEAR, &mut near);
        let (c, i) = (seg.key.0 as usize, seg.key.1 as usize);
        let mut least = f64::INFINITY;
        for &m in &near {
            let other = &grid.segments()[m];
            let (e, j) = (other.key.0 as usize, other.key.1 as usize);
            if (c, i) == (e, j) {
                continue;
            }
            let d = point_segment_distance(mid, other.a, other.b);
            if d < least && compared(curves, spot_at, (c, i), (e, j), d) {
                least = d;
            }
        }
        if least <= CROWDED {
            out.within_8 += len;
        }
        if least <= NEAR {
            out.within_20 += len;
        }
    }
    out
}

/// The turning figures of a picture.
struct Turns {
    sharpest: f64,
    at: Option<Point>,
    sharp_starts: usize,
}

/// The largest change of tangent angle (degrees) between two samples at most [`TURN_WINDOW`]
/// apart in arc length, among samples whose arc length lies in `range`.
fn sharpest_in(arc: &[f64], angle: &[f64], range: (f64, f64)) -> f64 {
    sharpest_where(arc, angle, range).0
}

/// [`sharpest_in`] and the index of the sample where that turn starts.
fn sharpest_where(arc: &[f64], angle: &[f64], range: (f64, f64)) -> (f64, usize) {
    let mut best: f64 = 0.0;
    let mut at = 0;
    for i in 0..arc.len() {
        if arc[i] < range.0 || arc[i] > range.1 {
            continue;
        }
        for j in i + 1..arc.len() {
            if arc[j] - arc[i] > TURN_WINDOW || arc[j] > range.1 {
                break;
            }
            let turn = (angle[j] - angle[i]).abs();
            if turn > best {
                best = turn;
                at = i;
            }
        }
    }
    (best.to_degrees(), at)
}

/// The sharpest turn (degrees) of the polyline `pts` within [`TURN_WINDOW`] of arc: the
/// largest change of a segment's direction to that of a later segment starting at most that
/// far along.
pub(crate) fn polyline_sharpest_turn(pts: &[Point]) -> f64 {
    let mut arc = Vec::with_capacity(pts.len());
    let mut angle: Vec<f64> = Vec::with_capacity(pts.len());
    let mut s = 0.0;
    for w in pts.windows(2) {
        let d = w[1] - w[0];
        let len = d.norm();
        if len < 1e-9 {
            continue;
        }
        let a = d.y.atan2(d.x);
        arc.push(s);
        angle.push(angle.last().map_or(a, |&prev| unwrap_near(a, prev)));
        s += len;
    }
    sharpest_in(&arc, &angle, (0.0, s))
}

/// The sharpest turn along every curve and across every move's spot of two curves, and the curves that
/// turn sharply just past a spot they end at.
fn turning(drawing: &Drawing, curves: &[Sampled]) -> Turns {
    let mut sharpest: f64 = 0.0;
    let mut sharpest_at = None;
    let mut sharp_starts = 0;
    let radius = |s: SpotId| drawing.spot(s).map_or(0.0, |s| s.radius);
    for c in curves {
        let len = c.length();
        let (turn, i) = sharpest_where(&c.arc, &c.angle, (0.0, len));
        if sharpest_at.is_none() || turn > sharpest {
            sharpest = turn;
            sharpest_at = c.points.get(i).copied();
        }
        let start = radius(c.from);
        let end = radius(c.to);
        let at_start = sharpest_in(&c.arc, &c.angle, (start, start + TURN_WINDOW));
        let at_end = sharpest_in(&c.arc, &c.angle, (len - end - TURN_WINDOW, len - end));
        if at_start.max(at_end) > SHARP_TURN {
            sharp_starts += 1;
        }
    }
    // Across the spot a move made, while it has only the move's two curves, they make one line.
    for spot in drawing.spots() {
        let at: Vec<usize> = drawing.curves_at(spot.id).map(|c| c.index()).collect();
        let [a, b] = at[..] else { continue };
        let pair = drawing.move_pair(CurveId(a as u32));
        if a == b || pair.is_none_or(|(f, g)| f.index().min(g.index()) != a.min(b)) {
            continue;
        }
        let (ca, cb) = (&curves[a], &curves[b]);
        // The line through the spot: `a` arriving at it, then `b` leaving it.
        let mut arc = Vec::new();
        let mut angle = Vec::new();
        let into = |c: &Sampled, arriving: bool, arc: &mut Vec<f64>, angle: &mut Vec<f64>| {
            let n = c.points.len();
            let len = c.length();
            let half = std::f64::consts::PI;
            for k in 0..n {
                // Arriving: walk the curve so that it ends at the spot.
                let (idx, s) = match (arriving, c.to == spot.id) {
                    (true, true) => (k, c.arc[k] - len),
                    (true, false) => (n - 1 - k, -c.arc[n - 1 - k]),
                    (false, true) => (n - 1 - k, len - c.arc[n - 1 - k]),
                    (false, false) => (k, c.arc[k]),
                };
                if s.abs() > TURN_WINDOW {
                    continue;
                }
                let forward = (arriving && c.to == spot.id) || (!arriving && c.from == spot.id);
                let a = if forward {
                    c.angle[idx]
                } else {
                    c.angle[idx] + half
                };
                arc.push(s);
                angle.push(match angle.last() {
                    Some(&prev) => unwrap_near(a, prev),
                    None => a,
                });
            }
        };
        into(ca, true, &mut arc, &mut angle);
        into(cb, false, &mut arc, &mut angle);
        let turn = sharpest_in(&arc, &angle, (-TURN_WINDOW, TURN_WINDOW));
        if turn > sharpest {
            sharpest = turn;
            sharpest_at = Some(spot.centre);
        }
    }
    Turns {
        sharpest,
        at: sharpest_at,
        sharp_starts,
    }
}

/// The share of the drawing area inside the convex hull of the picture's points held to it.
fn window_used(drawing: &Drawing, curves: &[Sampled]) -> f64 {
    let world = drawing.world();
    let hold = |p: Point| Point::new(p.x.clamp(0.0, world.width), p.y.clamp(0.0, world.height));
    let mut pts: Vec<Point> = curves
        .iter()
        .flat_map(|c| c.points.iter().map(|&p| hold(p)))
        .collect();
    for s in drawing.spots() {
        for k in 0..8 {
            let a = std::f64::consts::FRAC_PI_4 * f64::from(k);
            pts.push(hold(s.centre + s.radius * Vector::new(a.cos(), a.sin())));
        }
    }
    hull_area(&mut pts) / (world.width * world.height)
}

/// The area of the convex hull of `pts` (Andrew's monotone chain).
fn hull_area(pts: &mut [Point]) -> f64 {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    if pts.len() < 3 {
        return 0.0;
    }
    let cross = |o: Point, a: Point, b: Point| (a - o).perp(&(b - o));
    let mut hull: Vec<Point> = Vec::with_capacity(2 * pts.len());
    for &p in pts.iter() {
        while hull.len() >= 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    let lower = hull.len() + 1;
    for &p in pts.iter().rev().skip(1) {
        while hull.len() >= lower && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop();
    sprouts_geom::signed_area(&hull).abs()
}

#[cfg(test)]
mod tests;
