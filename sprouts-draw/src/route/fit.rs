//! Ports, the fit and the certificate (spec 3.5, 3.6).

use std::f64::consts::{PI, TAU};

use sprouts_geom::{
    Cut, DRAWING_FIT_TOLERANCE, MIDDLE_CUT_SNAP, Point, SegmentGrid, Snap, Spline, SplineError,
    Vector, certified, fit_clamped, point_segment_distance, refined_polygon,
};
use sprouts_topo::{Corner, SpotId};

use super::planner::Scene;
use crate::analyse::{Analysis, Sector};
use crate::drawing::{CurveId, Drawing, HalfEdgeId};

/// The angle of a corner at its spot: `(start angle, width)`, counter-clockwise in the y-up
/// frame; `None` for a spot with no curve (the whole turn, any direction).
pub(crate) fn sector_angles(
    analysis: &Analysis,
    drawing: &Drawing,
    corner: Corner,
) -> Option<(f64, f64)> {
    match analysis.corner_sector(corner)? {
        Sector::Full(_) => None,
        Sector::Between { leave, arrive } => {
            let s = direction(drawing, leave)?;
            let e = direction(drawing, arrive.twin())?;
            let (ts, te) = (s.y.atan2(s.x), e.y.atan2(e.x));
            let mut w = (te - ts).rem_euclid(TAU);
            if leave == arrive.twin() || w == 0.0 {
                w = TAU;
            }
            Some((ts, w))
        }
    }
}

/// The direction a half-edge leaves its tail in.
fn direction(drawing: &Drawing, h: HalfEdgeId) -> Option<Vector> {
    let c = drawing.curve(h.curve())?;
    if h.is_forward() {
        c.spline.start_direction()
    } else {
        c.spline.end_direction().map(|v| -v)
    }
}

fn unit_at(angle: f64) -> Vector {
    Vector::new(angle.cos(), angle.sin())
}

/// The port rule of spec 3.5: in a sector of at least 60 degrees the band's own direction,
/// kept at least 30 degrees from the sector's curves; in a narrower one, the bisector.
pub(crate) fn port(sector: Option<(f64, f64)>, wanted: Vector) -> Vector {
    let Some((ts, w)) = sector else {
        return wanted.normalize();
    };
    if w < PI / 3.0 {
        return unit_at(ts + 0.5 * w);
    }
    let m = PI / 6.0;
    let rel = (wanted.y.atan2(wanted.x) - ts).rem_euclid(TAU);
    let rel = if rel >= m && rel <= w - m {
        rel
    } else if rel < m {
        m
    } else if rel <= w || rel - w < TAU - rel {
        w - m
    } else {
        m
    };
    unit_at(ts + rel)
}

/// Two ports in one sector for a loop through one corner: each by the rule, then spread
/// symmetrically about their mean if they are closer than a third of the sector (at most 60
/// degrees), keeping their order.
pub(crate) fn loop_ports(
    sector: Option<(f64, f64)>,
    out: Vector,
    back: Vector,
) -> (Vector, Vector) {
    let (p, q) = (port(sector, out), port(sector, back));
    let w = sector.map_or(TAU, |s| s.1);
    let want = (w / 3.0).min(PI / 3.0);
    let gap = super::planner::angle_between(p, q);
    if gap >= want {
        return (p, q);
    }
    let mid = p + q;
    let m = if mid.norm() > 1e-9 {
        mid.y.atan2(mid.x)
    } else {
        p.y.atan2(p.x) + 0.5 * PI
    };
    // `out` before `back` counter-clockwise (y-up), or after.
    let sign = if q.x * p.y - q.y * p.x >= 0.0 {
        1.0
    } else {
        -1.0
    };
    (
        unit_at(m + sign * 0.5 * want),
        unit_at(m - sign * 0.5 * want),
    )
}

/// The route with its stubs: the spot centres, short stubs in the port directions, and the
/// route's points away from the spots, resampled at about `spacing`.
pub(crate) fn with_stubs(
    route: &[Point],
    (a, ua): (Point, Vector),
    (b, ub): (Point, Vector),
    stub: f64,
    spacing: f64,
) -> Vec<Point> {
    let mut pts = vec![a, a + ua * stub];
    let keep = 1.25 * stub;
    let mid: Vec<Point> = route
        .iter()
        .copied()
        .filter(|p| (p - a).norm() > keep && (p - b).norm() > keep)
        .collect();
    pts.extend(mid);
    pts.push(b + ub * stub);
    pts.push(b);
    resample(&pts, spacing)
}

/// How far beyond its stub a route is eased into its port (pixels): one and a half times the
/// window in which the picture's quality counts a sharp start ([`crate::TURN_WINDOW`]), so that
/// a route that turns at its spot turns over this length.
pub(crate) const EASE: f64 = 24.0;

/// The route with its stubs eased into it ([`with_stubs`] joins a stub to the route's first
/// point past it, however sharp the turn): from each spot's centre along its port for `stub`,
/// then a cubic Hermite curve to the route's first point farther than `reach` from the spot,
/// arriving in the route's own direction there; the route in between; resampled at about
/// 3 px. `None` when the route has no point that far from both ends, or the eased polyline
/// crosses itself.
pub(crate) fn eased(
    route: &[Point],
    (a, ua): (Point, Vector),
    (b, ub): (Point, Vector),
    stub: f64,
    reach: f64,
) -> Option<Vec<Point>> {
    let n = route.len();
    let i = (0..n).find(|&k| (route[k] - a).norm() > reach)?;
    let j = (0..n).rev().find(|&k| (route[k] - b).norm() > reach)?;
    if i >= j {
        return None;
    }
    // The route's direction at a point, from its neighbours.
    let along = |k: usize| {
        let v = route[(k + 1).min(n - 1)] - route[k.saturating_sub(1)];
        (v.norm() > 1e-9).then(|| v / v.norm())
    };
    let mut pts = vec![a];
    pts.extend(hermite(a + ua * stub, ua, route[i], along(i)?, 8));
    pts.extend_from_slice(&route[i + 1..j]);
    pts.extend(hermite(route[j], along(j)?, b + ub * stub, -ub, 8));
    pts.push(b);
    let pts = resample(&pts, 3.0);
    super::crossing::is_simple(&pts).then_some(pts)
}

/// The cubic Hermite curve from `p` leaving along the unit vector `u` to `q` arriving along
/// the unit vector `v`, both tangents as long as the chord, at `k + 1` equal parameter steps
/// (both ends included).
fn hermite(p: Point, u: Vector, q: Point, v: Vector, k: usize) -> Vec<Point> {
    let m = (q - p).norm();
    (0..=k)
        .map(|s| {
            let t = s as f64 / k as f64;
            let (t2, t3) = (t * t, t * t * t);
            let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
            let h10 = t3 - 2.0 * t2 + t;
            let h01 = -2.0 * t3 + 3.0 * t2;
            let h11 = t3 - t2;
            let x = p.coords * h00 + u * (m * h10) + q.coords * h01 + v * (m * h11);
            Point::from(x)
        })
        .collect()
}

/// Points along a polyline at most `spacing` apart (every original vertex kept).
pub(crate) fn resample(pts: &[Point], spacing: f64) -> Vec<Point> {
    let mut out = vec![pts[0]];
    for w in pts.windows(2) {
        let len = (w[1] - w[0]).norm();
        let n = (len / spacing).ceil().max(1.0) as usize;
        for k in 1..=n {
            out.push(w[0] + (w[1] - w[0]) * (k as f64 / n as f64));
        }
    }
    out.dedup();
    out
}

/// The clamped least-squares spline of spec 3.6, within `tolerance` of the points (at most
/// [`DRAWING_FIT_TOLERANCE`]).
pub(crate) fn fit(
    points: &[Point],
    ua: Vector,
    ub: Vector,
    tolerance: f64,
) -> Result<Spline, String> {
    match fit_clamped(points, ua, -ub, tolerance.min(DRAWING_FIT_TOLERANCE)) {
        Ok(f) => Ok(f.spline),
        Err(e) => Err(e.to_string()),
    }
}

/// The certificate's verdict: the least clearance found and what it was measured against.
#[derive(Clone, Debug)]
pub(crate) struct Certificate {
    pub clearance: f64,
    pub spots: Vec<SpotId>,
    pub curves: Vec<CurveId>,
    /// The curve passed; only the new spot's disc failed.
    pub new_spot: bool,
}

/// The obstacles of a certificate: every curve's polyline in a grid.
pub(crate) struct Obstacles {
    grid: SegmentGrid<(u32, u32)>,
}

impl Obstacles {
    pub(crate) fn new(scene: &Scene) -> Option<Obstacles> {
        let segs = scene.curves.iter().enumerate().flat_map(|(k, (_, _, p))| {
            p.windows(2)
                .enumerate()
                .map(move |(j, w)| sprouts_geom::GridSegment {
                    key: (k as u32, j as u32),
                    a: w[0],
                    b: w[1],
                })
        });
        Some(Obstacles {
            grid: SegmentGrid::new(32.0, segs).ok()?,
        })
    }
}

/// Cuts a move's spline where its new spot goes: where the arc length reaches `at`, snapping
/// to a knot within [`MIDDLE_CUT_SNAP`] of its piece as the middle cut of spec 2.1 does.
///
/// # Errors
/// As [`Spline::cut_at_arc_length`].
pub(crate) fn new_spot_cut(spline: &Spline, at: f64) -> Result<Cut, SplineError> {
    let (lo, hi) = spline.control_bounds();
    spline.cut_at_arc_length(
        at,
        Snap::FractionOfPiece(MIDDLE_CUT_SNAP),
        1e-6 * (1.0 + (hi - lo).norm()),
    )
}

/// Certifies a spline from `a` to `b` (spec 3.6): its refined control polygon keeps `need`
/// from every spot, every curve and the window's edge, except that near `a` and `b` the curves
/// and discs of those spots are left to the picture's own check (cones at a spot); and the
/// new spot's disc, at arc length `cut_at`, keeps clear of everything.
pub(crate) fn certify(
    spline: &Spline,
    scene: &Scene,
    obstacles: &Obstacles,
    ends: [SpotId; 2],
    need: f64,
    cut_at: f64,
) -> Result<f64, Certificate> {
    let poly = match refined_polygon(spline, 0.25, 16.0) {
        Ok(p) => p,
        Err(_) => {
            return Err(Certificate {
                clearance: 0.0,
                spots: ends.to_vec(),
                curves: Vec::new(),
                new_spot: false,
            });
        }
    };
    let mut least = f64::INFINITY;
    let mut spots = Vec::new();
    let mut curves = Vec::new();
    let end_spots: Vec<(SpotId, Point, f64)> = scene
        .spots
        .iter()
        .filter(|s| ends.contains(&s.0))
        .copied()
        .collect();
    let mut near = Vec::new();
    let rho = scene.end_rho(&ends);
    for j in 0..poly.n_legs() {
        let (p, q) = poly.leg(j);
        let eps = poly.leg_eps(j);
        // Window.
        for x in [p, q] {
            let d = x.x.min(x.y).min(scene.width - x.x).min(scene.height - x.y) - eps;
            if d < least {
                least = d;
            }
        }
        for &(id, c, r) in &scene.spots {
            if ends.contains(&id) {
                continue;
            }
            let d = point_segment_distance(c, p, q) - r - eps;
            if d < need {
                spots.push(id);
            }
            least = least.min(d);
        }
        near.clear();
        obstacles
            .grid
            .near_segment(p, q, need + eps + 0.5, &mut near);
        for &k in &near {
            let seg = obstacles.grid.segments()[k];
            let (ci, _) = seg.key;
            let (cf, ct, _) = scene.curves[ci as usize];
            // Near an end spot, the curves there converge with the new one: very near, the
            // picture's own check (cones at the spot) judges them; within `rho`, they must
            // only not touch.
            let mut need_here = need;
            for &(id, c, r) in &end_spots {
                if cf != id && ct != id {
                    continue;
                }
                let close = r + scene.d0;
                let lp = point_segment_distance(c, p, q);
                let ls = point_segment_distance(c, seg.a, seg.b);
                if lp < close && ls < close {
                    need_here = f64::NEG_INFINITY;
                } else if lp < rho && ls < rho {
                    need_here = need_here.min(0.5);
                }
            }
            if need_here == f64::NEG_INFINITY {
                // Except a crossing outside the spots' discs: the new curve on the other side
                // of a curve at its end spot, which the picture's check refuses.
                let out = |x: Point| end_spots.iter().all(|&(_, c, r)| (x - c).norm() > r);
                if [p, q, seg.a, seg.b].into_iter().all(out)
                    && certified::segments_intersect(p, q, seg.a, seg.b)
                {
                    curves.push(CurveId(ci));
                    least = least.min(0.0);
                }
                continue;
            }
            let d = seg_seg(p, q, seg.a, seg.b) - eps - 0.25;
            if d < need_here {
                curves.push(CurveId(ci));
                least = least.min(d);
            } else {
                least = least.min(d.max(need));
            }
        }
    }
    // The new spot's disc, where the spline is cut (`cut_at`), must keep clear of every curve
    // and spot.
    let mut new_spot = false;
    if let Ok(cut) = new_spot_cut(spline, cut_at) {
        let disc = new_spot_clearance(cut.first.end(), scene, obstacles, need);
        if disc.margin < 0.0 {
            new_spot = least >= need;
            least = least.min(disc.least);
            spots.extend(disc.spots);
            curves.extend(disc.curves);
        }
    }
    if least >= need {
        Ok(least)
    } else {
        spots.sort_unstable();
        spots.dedup();
        curves.sort_unstable();
        curves.dedup();
        Err(Certificate {
            clearance: least.max(0.0),
            spots,
            curves,
            new_spot,
        })
    }
}

/// How clear a new spot's disc at a point is (the certificate's test of the new spot).
#[derive(Clone, Debug, Default)]
pub(crate) struct DiscClearance {
    /// The least, over every spot and curve, of the disc's distance to it less what it needs
    /// (`need` from a spot's disc, `need / 2` from a curve): not negative if the disc passes.
    pub margin: f64,
    /// The disc's least distance to a spot's disc or a curve that it is too close to.
    pub least: f64,
    /// The spots it is too close to.
    pub spots: Vec<SpotId>,
    /// The curves it is too close to.
    pub curves: Vec<CurveId>,
}

/// The certificate's test of the new spot's disc centred at `z` (of the spots' radius):
/// `need` from every spot's disc, the move's end spots too, and `need / 2` from every curve
/// (measured to its polyline, less the quarter pixel it may be off the curve). The router
/// places the new spot with it ([`super::spot::new_spot_at`]) and the certificate judges with it.
pub(crate) fn new_spot_clearance(
    z: Point,
    scene: &Scene,
    obstacles: &Obstacles,
    need: f64,
) -> DiscClearance {
    let r = scene.spots.first().map_or(5.0, |s| s.2);
    let mut out = DiscClearance {
        margin: f64::INFINITY,
        least: f64::INFINITY,
        ..DiscClearance::default()
    };
    for &(id, c, rs) in &scene.spots {
        let d = (z - c).norm() - rs - r;
        out.margin = out.margin.min(d - need);
        if d < need {
            out.spots.push(id);
            out.least = out.least.min(d);
        }
    }
    let mut near = Vec::new();
    obstacles.grid.near_point(z, r + need + 0.5, &mut near);
    for &k in &near {
        let seg = obstacles.grid.segments()[k];
        let d = point_segment_distance(z, seg.a, seg.b) - r - 0.25;
        out.margin = out.margin.min(d - 0.5 * need);
        if d < 0.5 * need {
            out.curves.push(CurveId(seg.key.0));
            out.least = out.least.min(d);
        }
    }
    out
}

fn seg_seg(a0: Point, a1: Point, b0: Point, b1: Point) -> f64 {
    if certified::segments_intersect(a0, a1, b0, b1) {
        return 0.0;
    }
    point_segment_distance(a0, b0, b1)
        .min(point_segment_distance(a1, b0, b1))
        .min(point_segment_distance(b0, a0, a1))
        .min(point_segment_distance(b1, a0, a1))
}

/// `n` points evenly spaced by arc length along a polyline (its ends kept).
pub(crate) fn resample_even(pts: &[Point], n: usize) -> Vec<Point> {
    if pts.len() < 2 || n < 2 {
        return pts.to_vec();
    }
    let mut acc = vec![0.0];
    for w in pts.windows(2) {
        let l = acc[acc.len() - 1] + (w[1] - w[0]).norm();
        acc.push(l);
    }
    let total = acc[acc.len() - 1];
    let mut out = Vec::with_capacity(n);
    let mut j = 0;
    for k in 0..n {
        let s = total * k as f64 / (n - 1) as f64;
        while j + 2 < acc.len() && acc[j + 1] < s {
            j += 1;
        }
        let seg = acc[j + 1] - acc[j];
        let t = if seg > 0.0 {
            ((s - acc[j]) / seg).clamp(0.0, 1.0)
        } else {
            0.0
        };
        out.push(pts[j] + (pts[j + 1] - pts[j]) * t);
    }
    out[n - 1] = pts[pts.len() - 1];
    out
}

/// A place along a polyline where the new spot's disc has room once the polyline is pushed a
/// little sideways there: the arc length, the point on the polyline, the unit normal and the
/// signed push along it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SpotRoom {
    /// Arc length along the polyline.
    pub at: f64,
    /// How far the polyline is pushed along `normal` there (pixels, signed).
    pub push: f64,
    /// The unit normal of the polyline there.
    pub normal: Vector,
}

/// The least distance from `z` to a spot's disc or a curve's polyline (less the quarter pixel
/// the polyline may be off its curve).
fn point_room(z: Point, scene: &Scene, obstacles: &Obstacles, reach: f64) -> f64 {
    let mut room = reach;
    for &(_, c, rs) in &scene.spots {
        room = room.min((z - c).norm() - rs);
    }
    let mut near = Vec::new();
    obstacles.grid.near_point(z, reach, &mut near);
    for &k in &near {
        let seg = obstacles.grid.segments()[k];
        room = room.min(point_segment_distance(z, seg.a, seg.b) - 0.25);
    }
    room
}

/// Where a curve along `pts` (from one end spot's centre to the other's) could make room for
/// its new spot by bulging (spec 2.1 puts the spot near the middle; the certificate's test of
/// its disc, [`new_spot_clearance`], decides): for each place between a tenth and nine tenths
/// of the length, the smallest push along the normal, either way, at which the disc passes
/// with `margin` to spare and the way out to it keeps `need` plus `margin` from everything;
/// places scored as the router places the spot (a pixel of push costs as much as 20 pixels
/// along the curve away from the middle). At most `count` places, at least `2 D`-ish apart
/// (`spread` pixels of arc length), best first.
pub(crate) fn spot_room_places(
    pts: &[Point],
    scene: &Scene,
    obstacles: &Obstacles,
    need: f64,
    (margin, max_push): (f64, f64),
    (count, spread): (usize, f64),
) -> Vec<SpotRoom> {
    let pts = resample(pts, 2.0);
    if pts.len() < 3 {
        return Vec::new();
    }
    let mut arc = vec![0.0; pts.len()];
    for i in 1..pts.len() {
        arc[i] = arc[i - 1] + (pts[i] - pts[i - 1]).norm();
    }
    let total = arc[arc.len() - 1];
    let middle = 0.5 * total;
    let step = 0.5;
    let mut scored: Vec<(f64, SpotRoom)> = Vec::new();
    for i in 1..pts.len() - 1 {
        let s = arc[i];
        if s < 0.1 * total || s > 0.9 * total {
            continue;
        }
        let t = pts[i + 1] - pts[i - 1];
        if t.norm() < 1e-9 {
            continue;
        }
        let normal = Vector::new(-t.y, t.x) / t.norm();
        let mut best: Option<f64> = None;
        for sign in [1.0, -1.0] {
            let mut k = 1.0;
            while k * step <= max_push {
                let push = sign * k * step;
                let z = pts[i] + normal * push;
                // The way out must keep the curve's own clearance.
                if point_room(z, scene, obstacles, need + margin + 1.0) < need + margin {
                    break;
                }
                if new_spot_clearance(z, scene, obstacles, need).margin >= margin {
                    if best.is_none_or(|b: f64| push.abs() < b.abs()) {
                        best = Some(push);
                    }
                    break;
                }
                k += 1.0;
            }
        }
        if let Some(push) = best {
            let score = push.abs() + 0.05 * (s - middle).abs();
            scored.push((
                score,
                SpotRoom {
                    at: s,
                    push,
                    normal,
                },
            ));
        }
    }
    scored.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut out: Vec<SpotRoom> = Vec::new();
    for (_, c) in scored {
        if out.len() >= count {
            break;
        }
        if out.iter().all(|o| (o.at - c.at).abs() >= spread) {
            out.push(c);
        }
    }
    out
}

/// `pts` pushed by `room.push` along `room.normal` at arc length `room.at`: fully within
/// `flat` pixels of arc length of it (where the new spot's disc sits), fading out with a half
/// cosine over `fade` pixels beyond; the points within `stub` of either end (the end spots'
/// centres and the stubs in the ports' directions) never move.
pub(crate) fn bulge(
    pts: &[Point],
    room: &SpotRoom,
    (flat, fade): (f64, f64),
    stub: f64,
) -> Vec<Point> {
    let mut out = Vec::with_capacity(pts.len());
    let mut s = 0.0;
    let last = pts.len().saturating_sub(1);
    let (a, b) = (pts[0], pts[last]);
    for (i, &p) in pts.iter().enumerate() {
        if i > 0 {
            s += (p - pts[i - 1]).norm();
        }
        let x = (s - room.at).abs();
        let w = if x <= flat {
            1.0
        } else if x < flat + fade {
            0.5 * (1.0 + (PI * (x - flat) / fade).cos())
        } else {
            0.0
        };
        let at_end = (p - a).norm() <= stub + 0.5 || (p - b).norm() <= stub + 0.5;
        if i == 0 || i == last || at_end || w == 0.0 {
            out.push(p);
        } else {
            out.push(p + room.normal * (room.push * w));
        }
    }
    out
}

/// How much room one side of a new curve leaves for a later move's new spot: a curve drawn
/// beside a curve of its own boundary (from one spot of it to another) cuts off a lens, and a
/// move later drawn inside the lens (between the end spot with a life left and the new spot)
/// needs its own new spot's disc inside it, as the certificate tests a disc
/// ([`new_spot_clearance`]: `need` from every spot's disc, the new spot's too, `need / 2`
/// from every curve, the new curve too).
///
/// Looked for along the normals of `curve` (from one end spot's centre to the other's) on
/// `side` (`1.0`: the side `(-t.y, t.x)` points to, `-1.0` the other), from the middle out,
/// each normal followed until it meets a curve or a spot: the best margin found (at least
/// `want` if some disc has it, the search then stops), the arc length of its place along the
/// curve and the curve's unit normal there.
pub(crate) fn side_room(
    curve: &[Point],
    new_spot: Point,
    scene: &Scene,
    obstacles: &Obstacles,
    need: f64,
    (side, want): (f64, f64),
) -> (f64, f64, Vector) {
    let pts = resample(curve, 2.0);
    let mut best = (f64::NEG_INFINITY, 0.0, Vector::zeros());
    if pts.len() < 3 {
        return best;
    }
    let r = scene.spots.first().map_or(5.0, |s| s.2);
    let mut arc = vec![0.0; pts.len()];
    for i in 1..pts.len() {
        arc[i] = arc[i - 1] + (pts[i] - pts[i - 1]).norm();
    }
    let total = arc[arc.len() - 1];
    // A disc's margin from the new curve and from its new spot.
    let from_curve = r + 0.5 * need + 0.25;
    let from_new_spot = 2.0 * r + need;
    let own = |z: Point| {
        let d = pts
            .windows(2)
            .map(|w| point_segment_distance(z, w[0], w[1]))
            .fold(f64::INFINITY, f64::min);
        (d - from_curve).min((z - new_spot).norm() - from_new_spot)
    };
    // The places from the middle out.
    let mut order: Vec<usize> = (1..pts.len() - 1)
        .filter(|&i| arc[i] > 0.05 * total && arc[i] < 0.95 * total)
        .collect();
    order.sort_by(|&i, &j| {
        (arc[i] - 0.5 * total)
            .abs()
            .total_cmp(&(arc[j] - 0.5 * total).abs())
    });
    // A normal that comes within half a pixel of a curve has crossed into another region.
    let crossed = -(r + 0.25 + 0.5 * need) + 0.5;
    for i in order {
        let t = pts[i + 1] - pts[i - 1];
        if t.norm() < 1e-9 {
            continue;
        }
        let normal = Vector::new(-t.y, t.x) / t.norm();
        let mut along = 1.0;
        while along <= from_curve + want.max(0.0) + 4.0 * r {
            let z = pts[i] + normal * (side * along);
            along += 1.0;
            let disc = new_spot_clearance(z, scene, obstacles, need).margin;
            if disc < crossed {
                break;
            }
            // The new curve is at most `along` away: its margin at most that less its need.
            let bound = disc.min(along - 1.0 - from_curve);
            if bound <= best.0 {
                continue;
            }
            let margin = disc.min(own(z));
            if margin > best.0 {
                best = (margin, arc[i], normal);
                if margin >= want {
                    return best;
                }
            }
        }
    }
    best
}

/// Whether a loop (a closed polyline from its spot at `loop_pts[0]` round and back) that holds
/// no spot leaves room inside for the move that a later curve may make between the loop's
/// spot and its new spot (placed near `new_spot`): some point inside keeps the new spot's
/// disc and its clearance from the loop (`r + need / 2` and the quarter pixel, as the
/// certificate's test of a disc) and from both spots' discs (`need`), with `margin` to spare.
/// A loop with a spot inside, or too large to look through (`cap` pixels across), counts as
/// having room.
pub(crate) fn empty_loop_has_room(
    loop_pts: &[Point],
    scene: &Scene,
    new_spot: Point,
    need: f64,
    (margin, cap): (f64, f64),
) -> bool {
    if loop_pts.len() < 4 {
        return false;
    }
    let a = loop_pts[0];
    if scene.spots.iter().any(|s| {
        (s.1 - a).norm() > s.2 && certified::winding_number(s.1, loop_pts).unwrap_or(0) != 0
    }) {
        return true;
    }
    let (mut lo, mut hi) = (a, a);
    for p in loop_pts {
        lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    if hi.x - lo.x > cap || hi.y - lo.y > cap {
        return true;
    }
    let r = scene.spots.first().map_or(5.0, |s| s.2);
    let from_curve = r + 0.5 * need + 0.25 + margin;
    let from_spot = 2.0 * r + need + margin;
    let mut y = lo.y + 0.5;
    while y < hi.y {
        let mut x = lo.x + 0.5;
        while x < hi.x {
            let z = Point::new(x, y);
            x += 1.0;
            if (z - a).norm() < from_spot || (z - new_spot).norm() < from_spot {
                continue;
            }
            // The cheap test first: most points are too near the loop.
            if loop_pts
                .windows(2)
                .all(|w| point_segment_distance(z, w[0], w[1]) >= from_curve)
                && certified::winding_number(z, loop_pts).unwrap_or(0) != 0
            {
                return true;
            }
        }
        y += 1.0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(k: u32) -> SpotId {
        SpotId::new(k).unwrap()
    }

    /// Two spots 200 px apart, joined by nothing, a curve 7 px below the line between them
    /// and one 20 px above it (a strip 27 px wide).
    fn strip() -> Scene {
        let line = |y: f64| -> Vec<Point> {
            (0..=40)
                .map(|k| Point::new(50.0 + 10.0 * f64::from(k), y))
                .collect()
        };
        Scene::for_test(
            (600.0, 400.0),
            &[
                (1, 100.0, 200.0),
                (2, 300.0, 200.0),
                (3, 40.0, 207.0),
                (4, 460.0, 207.0),
                (5, 40.0, 180.0),
                (6, 460.0, 180.0),
            ],
            vec![(3, 4, line(207.0)), (5, 6, line(180.0))],
        )
    }

    /// Along a curve 7 px from another, no place has room for the new spot's disc (7.05 px
    /// from the curve needed, and the margin); the smallest push that makes room is away from
    /// the near curve, by a few pixels, and the bulged polyline keeps its ends and stubs and
    /// has the disc's room at the place.
    #[test]
    fn a_curve_along_another_bulges_away_from_it_for_its_new_spot() {
        let scene = strip();
        let obstacles = Obstacles::new(&scene).unwrap();
        let need = 3.6;
        let pts = resample(&[Point::new(100.0, 200.0), Point::new(300.0, 200.0)], 2.0);
        assert!(
            pts.iter()
                .all(|&p| new_spot_clearance(p, &scene, &obstacles, need).margin < 0.0)
        );
        let places = spot_room_places(&pts, &scene, &obstacles, need, (1.0, 12.0), (3, 12.0));
        assert!(!places.is_empty());
        let best = places[0];
        // The normal of a left-to-right line points up (towards smaller y) or down; the push
        // must take the curve away from the curve at y = 207.
        let moved = best.normal * best.push;
        assert!(moved.y < 0.0, "{best:?}");
        assert!(best.push.abs() <= 4.0, "{best:?}");
        assert!((best.at - 100.0).abs() < 2.0, "{best:?}");
        let bulged = bulge(&pts, &best, (6.0, 15.0), 8.0);
        assert_eq!(bulged.len(), pts.len());
        assert_eq!(bulged[0], pts[0]);
        assert_eq!(bulged[bulged.len() - 1], pts[pts.len() - 1]);
        for (p, q) in pts.iter().zip(&bulged) {
            if (p - pts[0]).norm() <= 8.5 || (p - pts[pts.len() - 1]).norm() <= 8.5 {
                assert_eq!(p, q);
            }
        }
        let at = bulged
            .iter()
            .copied()
            .min_by(|a, b| (a.x - 200.0).abs().total_cmp(&(b.x - 200.0).abs()))
            .unwrap();
        assert!(new_spot_clearance(at, &scene, &obstacles, need).margin >= 1.0 - 1e-9);
    }

    /// With no room anywhere within the largest push (a strip too narrow for the disc), no
    /// place is offered.
    #[test]
    fn no_place_where_the_strip_is_too_narrow() {
        let mut scene = strip();
        // The upper curve 6 px above the line: a strip 13 px wide, the disc needs 14.1.
        scene.curves[1].2.iter_mut().for_each(|p| p.y = 194.0);
        let obstacles = Obstacles::new(&scene).unwrap();
        let pts = resample(&[Point::new(100.0, 200.0), Point::new(300.0, 200.0)], 2.0);
        let places = spot_room_places(&pts, &scene, &obstacles, 3.6, (1.0, 12.0), (3, 12.0));
        assert!(places.is_empty(), "{places:?}");
    }

    /// A loop from spot 1 round a circle: 16 px across, nothing fits inside for a later move
    /// between the spot and the loop's new spot; 70 px across, it does; a small loop round a
    /// spot counts as having room (other rules judge it).
    #[test]
    fn an_empty_loop_has_room_inside_only_when_wide_enough() {
        let scene = strip();
        let a = Point::new(100.0, 100.0);
        let circle = |d: f64| -> Vec<Point> {
            // Through `a`, the centre `d / 2` above it.
            let c = a + Vector::new(0.0, -0.5 * d);
            let mut pts: Vec<Point> = (0..=64)
                .map(|k| {
                    let t = std::f64::consts::TAU * f64::from(k) / 64.0 + 0.5 * PI;
                    c + Vector::new(t.cos(), t.sin()) * (0.5 * d)
                })
                .collect();
            pts[0] = a;
            pts[64] = a;
            pts
        };
        let far = |pts: &[Point]| pts[32];
        let small = circle(16.0);
        assert!(!empty_loop_has_room(
            &small,
            &scene,
            far(&small),
            3.6,
            (1.0, 400.0)
        ));
        let large = circle(70.0);
        assert!(empty_loop_has_room(
            &large,
            &scene,
            far(&large),
            3.6,
            (1.0, 400.0)
        ));
        let mut round_a_spot = scene.clone();
        round_a_spot
            .spots
            .push((s(9), a + Vector::new(0.0, -8.0), 2.0));
        assert!(empty_loop_has_room(
            &small,
            &round_a_spot,
            far(&small),
            3.6,
            (1.0, 400.0)
        ));
    }

    /// A curve drawn from spot 1 to spot 2 (80 px apart) beside the straight curve between
    /// them cuts off a lens: bowed 12 px out, the lens has no room for a later move's new
    /// spot (its disc needs 6.8 px from both curves and 13.6 px from the three spots' centres)
    /// while the open side has it at once; bowed 50 px out, the lens has room, near its
    /// middle. The curve runs left to right, so its normals point down, into the lens.
    #[test]
    fn a_thin_lens_has_no_room_for_the_next_move() {
        let straight: Vec<Point> = (0..=16)
            .map(|k| Point::new(100.0 + 5.0 * f64::from(k), 200.0))
            .collect();
        let scene = Scene::for_test(
            (600.0, 400.0),
            &[(1, 100.0, 200.0), (2, 180.0, 200.0)],
            vec![(1, 2, straight)],
        );
        let obstacles = Obstacles::new(&scene).unwrap();
        let bowed = |h: f64| -> Vec<Point> {
            (0..=40)
                .map(|k| {
                    let x = 100.0 + 2.0 * f64::from(k);
                    Point::new(x, 200.0 - h * (PI * (x - 100.0) / 80.0).sin())
                })
                .collect()
        };
        let room = |h: f64, side: f64| {
            side_room(
                &bowed(h),
                Point::new(140.0, 200.0 - h),
                &scene,
                &obstacles,
                3.6,
                (side, 1.0),
            )
        };
        let (lens, _, normal) = room(12.0, 1.0);
        assert!(lens < 0.0, "{lens}");
        assert!(normal.y > 0.9, "{normal:?}");
        assert!(room(12.0, -1.0).0 >= 1.0);
        let (lens, at, _) = room(50.0, 1.0);
        assert!(lens >= 1.0, "{lens}");
        let length: f64 = bowed(50.0).windows(2).map(|w| (w[1] - w[0]).norm()).sum();
        assert!(
            (at - 0.5 * length).abs() < 0.25 * length,
            "{at} of {length}"
        );
    }

    /// The largest change of direction of a polyline between two of its legs that start
    /// within `window` of arc of each other, past `from` along it (degrees).
    fn sharpest_past(pts: &[Point], from: f64, window: f64) -> f64 {
        let mut legs = Vec::new();
        let mut s = 0.0;
        for w in pts.windows(2) {
            let v = w[1] - w[0];
            if s >= from && s <= from + window {
                legs.push((s, v.y.atan2(v.x)));
            }
            s += v.norm();
        }
        let mut best: f64 = 0.0;
        for (i, &(si, ai)) in legs.iter().enumerate() {
            for &(sj, aj) in &legs[i + 1..] {
                if sj - si <= window {
                    let d = (aj - ai).rem_euclid(TAU);
                    best = best.max(d.min(TAU - d));
                }
            }
        }
        best.to_degrees()
    }

    /// A route that leaves its spot to the right and turns down 12 px out: joined to a stub
    /// in its port's direction it turns by some 70 degrees within 16 px past the spot's disc;
    /// eased into the port it turns by less than 60 there, ends at both spots' centres and
    /// leaves and arrives along the ports.
    #[test]
    fn a_route_turning_at_its_spot_is_eased_into_its_port() {
        let (a, b) = (Point::new(100.0, 100.0), Point::new(300.0, 300.0));
        let mut route = vec![a];
        route.extend((1..=3).map(|k| Point::new(100.0 + 4.0 * f64::from(k), 100.0)));
        route.extend((1..=50).map(|k| Point::new(112.0, 100.0 + 4.0 * f64::from(k))));
        route.extend((1..=47).map(|k| Point::new(112.0 + 4.0 * f64::from(k), 300.0)));
        route.push(b);
        let (r, stub) = (5.0, 8.0);
        let reach = stub + EASE;
        // The port wanted towards the first point past `reach`, as the certifier does.
        let first = route.iter().find(|p| (*p - a).norm() > reach).unwrap();
        let ua = (first - a).normalize();
        let ub = Vector::new(-1.0, 0.0);
        let plain = with_stubs(&route, (a, ua), (b, ub), stub, 3.0);
        let eased = eased(&route, (a, ua), (b, ub), stub, reach).expect("eased");
        assert!(
            sharpest_past(&plain, r, 16.0) > 60.0,
            "{}",
            sharpest_past(&plain, r, 16.0)
        );
        assert!(
            sharpest_past(&eased, r, 16.0) < 60.0,
            "{}",
            sharpest_past(&eased, r, 16.0)
        );
        assert_eq!((eased[0], eased[eased.len() - 1]), (a, b));
        assert!(((eased[1] - a).normalize() - ua).norm() < 1e-9);
        let n = eased.len();
        assert!(((eased[n - 2] - b).normalize() - ub).norm() < 1e-9);
        // Past the eased stretch the route is kept as it was.
        assert!(eased.contains(&Point::new(112.0, 200.0)));
        // Too short a route is not eased.
        assert!(eased_none_for_a_short_route());
    }

    fn eased_none_for_a_short_route() -> bool {
        let (a, b) = (Point::new(100.0, 100.0), Point::new(140.0, 100.0));
        let route: Vec<Point> = (0..=10)
            .map(|k| Point::new(100.0 + 4.0 * f64::from(k), 100.0))
            .collect();
        let u = Vector::new(1.0, 0.0);
        eased(&route, (a, u), (b, -u), 8.0, 32.0).is_none()
    }
}
