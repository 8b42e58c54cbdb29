//! The elastic band (spec 3.4): a polyline relaxed under the clearance energy
//! `E = ∫ (1 + λ Σ_o φ(r_o(s))) ds` with the barrier `φ(r) = ((D - d_h) / (r - d_h))²`, summed
//! over distinct obstacles (each curve, each spot, each window side and the band's own
//! far-away parts, by their nearest points) felt up to 256 px, each obstacle's barrier less
//! its tangent there so that it and its force vanish at the reach without a jump.
//!
//! The minimisation is a damped Newton iteration projected across the band: each free vertex
//! moves along its normal, the displacements solving the tridiagonal system of the energy's
//! Hessian in them (the length terms exactly, the barriers by their second derivative along
//! the normal), with Levenberg-Marquardt damping; a step is kept only if it lowers the energy
//! and leaves the band simple, else the damping grows. (A diagonal step per vertex moved the
//! smooth modes of a long band very slowly and let others oscillate; after its 100 steps the
//! band was far from its minimum.) Each vertex's barrier rises by continuation towards `d0`,
//! always below its present room, and a step never takes a vertex more than `0.3` of its room
//! to the barrier, so the band cannot pass through anything. A long band is sampled at half
//! the room where the room is small (so that a chord between two vertices cannot cut in
//! towards an obstacle it bends round), coarser in the open.
//!
//! A one-boundary move's band also feels the pressure of the two regions it makes
//! ([`Pressure`]): the area term `-μ Σ lives log(area)` of spec 4.5's whole-picture energy,
//! applied to the one curve being drawn, so that each side keeps room in proportion to the
//! lives on it. Its gradient at a vertex is the pressure difference times the area the vertex
//! sweeps along its normal, which the Newton step takes as it takes the barrier's.
//!
//! A spot with lives left weighs more ([`LIVE_SPOT_WEIGHT`] a life): the curves later drawn
//! from it need room round it, which a dead spot does not.
//!
//! Felt only up to `D` (the band's own far parts) or `2 D` (everything else), as before, the
//! energy was flat beyond: a converged band sat at that distance from what it bent round
//! however much room there was (a long empty loop's two strands `D` apart), instead of in the
//! middle of its room.

use sprouts_geom::{GridSegment, Point, SegmentGrid, Vector, closest_on_segment};
use sprouts_topo::SpotId;

use super::planner::Scene;
pub(crate) use super::pressure::Pressure;
use crate::drawing::Settings;

/// The band's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BandSettings {
    /// The minimum clearance `d0` the barrier rises to (pixels).
    pub min_clearance: f64,
    /// The comfort distance `D` of the barrier (pixels; for a board, `BARRIER_COMFORT`
    /// times its setting).
    pub comfort: f64,
    /// Room against length, `λ`.
    pub lambda: f64,
    /// How far obstacles, the band's own far parts among them, are felt (pixels; spec 3.4:
    /// 256).
    pub reach: f64,
    /// The spacing the band is resampled at (pixels).
    pub spacing: f64,
    /// Most Newton steps.
    pub max_steps: usize,
    /// The weight `μ` (px², `0` for none) of the pressure of the two regions a one-boundary
    /// move makes: the term `-μ (L₁ log A₁ + L₂ log A₂)` of the band's energy, `A` the free
    /// area and `L` the lives on each side.
    pub pressure: f64,
}

/// The barrier's weight against length at the setting `λ = 1` (the band's `λ` is this times
/// the board's Room vs length setting).
///
/// With the spec's weight 1 a converged band is not in the middle of its room where it turns:
/// the length term pulls a bend in towards what it bends round (`w κ` against the barrier's
/// push, where `w = 1 + λ Σ φ` is the weight of the band's length), so that a big loop round a
/// few seeds stays some 55 px from them with hundreds of pixels free outside, and the curves
/// drawn later round the same seed or tip are squeezed between it and them, each round the
/// last. At 3 the same loop keeps 85 px, the later curves have that much more room, and more
/// games are drawn to the end (8 spots, 30 random games on the same seeds: 21 to the end at
/// 1, 25 at 3 and at 6; 100 games: see the README, "Drawing moves").
pub(crate) const ROOM_WEIGHT: f64 = 3.0;

/// The comfort distance of the band's barrier as a share of the board's `D`.
///
/// The barrier `((D - d_h) / (r - d_h))²` is felt out to the band's reach, so `D` sets how
/// hard obstacles push rather than where they stop pushing: at three quarters of `D` the push
/// is about half as strong against the length, a curve keeps a little closer to what it
/// passes, and more of a corridor is left to the curves drawn after it. Random 8-spot games
/// drawn to the end (100 games on each of five seeds, every game its own stream; README,
/// "Drawing moves"): 96, 91, 95, 91 and 92 at `D` (465 of 500), 96, 94, 97, 92 and 93 at
/// `0.75 D` (472). On the second and fourth seeds, 89 and 92 at `0.65 D`, 92 and 92 at
/// `0.85 D`; 90 at `0.5 D` on the second, 94 at `1.375 D` on the first. The response is not
/// smooth from setting to setting (a few games a seed are noise); the five seeds' sum is the
/// measure.
pub(crate) const BARRIER_COMFORT: f64 = 0.75;

/// The weight of the regions' pressure ([`Pressure`]) in units of `D²` at the setting `λ = 1`
/// (the band's `μ` is this times `D²` times the setting).
///
/// Random games drawn to the end (same games per size; see the README, "Drawing moves"):
/// 8 spots, 100 games, 82 without the pressure, 81 at 0.02, 89 at 0.1, 90 at 0.3, 88 at 0.6;
/// at 0.1 and 0.3 against none, 100 other 8-spot games 84 and 83 against 77, 30 a size at 3 to
/// 8 spots 172 and 179 against 169, 20 games at 11 spots 15 and 10 against 13. The lighter
/// weight is the one better than none on every count.
pub(crate) const PRESSURE_WEIGHT: f64 = 0.1;

impl BandSettings {
    /// The band for a board's settings (its `λ` is `ROOM_WEIGHT` times the setting, its `D`
    /// `BARRIER_COMFORT` times the board's).
    pub fn from_settings(s: &Settings) -> BandSettings {
        BandSettings {
            min_clearance: s.min_clearance,
            comfort: BARRIER_COMFORT * s.comfort_distance,
            lambda: ROOM_WEIGHT * s.room_vs_length,
            reach: 256.0,
            spacing: 5.0,
            max_steps: 100,
            pressure: PRESSURE_WEIGHT * s.room_vs_length * s.comfort_distance.powi(2),
        }
    }
}

/// The scene's curves in runs of a few segments with their bounding boxes, for the nearest
/// point of each curve within the reach: a run is looked at only while its box is nearer than
/// the best point of its curve so far (runs taken in order of their boxes' distance).
struct Chunks {
    runs: Vec<Run>,
    /// Each curve's polyline.
    polys: Vec<Vec<Point>>,
}

/// Segments `start..end` of curve `key`'s polyline, in the box `lo`-`hi`.
struct Run {
    key: u32,
    lo: Point,
    hi: Point,
    start: usize,
    end: usize,
}

/// Segments per run.
const RUN: usize = 12;

impl Chunks {
    fn new(scene: &Scene) -> Chunks {
        let mut runs = Vec::new();
        let polys: Vec<Vec<Point>> = scene.curves.iter().map(|c| c.2.clone()).collect();
        for (k, poly) in polys.iter().enumerate() {
            let segs = poly.len().saturating_sub(1);
            let mut start = 0;
            while start < segs {
                let end = (start + RUN).min(segs);
                let (mut lo, mut hi) = (poly[start], poly[start]);
                for q in &poly[start..=end] {
                    lo = Point::new(lo.x.min(q.x), lo.y.min(q.y));
                    hi = Point::new(hi.x.max(q.x), hi.y.max(q.y));
                }
                runs.push(Run {
                    key: k as u32,
                    lo,
                    hi,
                    start,
                    end,
                });
                start = end;
            }
        }
        Chunks { runs, polys }
    }

    /// The nearest point of each curve within `reach` of `p`: `(curve, distance, point)`.
    fn nearest(&self, p: Point, reach: f64, order: &mut Vec<usize>) -> Vec<(u32, f64, Point)> {
        let boxed = |r: &Run| {
            let dx = (r.lo.x - p.x).max(p.x - r.hi.x).max(0.0);
            let dy = (r.lo.y - p.y).max(p.y - r.hi.y).max(0.0);
            dx * dx + dy * dy
        };
        order.clear();
        let reach2 = reach * reach;
        order.extend((0..self.runs.len()).filter(|&k| boxed(&self.runs[k]) < reach2));
        order.sort_by(|&a, &b| boxed(&self.runs[a]).total_cmp(&boxed(&self.runs[b])));
        let mut best: Vec<(u32, f64, Point)> = Vec::new();
        for &k in order.iter() {
            let run = &self.runs[k];
            let lb = boxed(run).sqrt();
            let slot = best.iter().position(|b| b.0 == run.key);
            if slot.is_some_and(|j| best[j].1 <= lb) {
                continue;
            }
            let poly = &self.polys[run.key as usize];
            let mut here: Option<(f64, Point)> = None;
            for j in run.start..run.end {
                let (_, q) = closest_on_segment(p, poly[j], poly[j + 1]);
                let d = (p - q).norm();
                if here.is_none_or(|h| d < h.0) {
                    here = Some((d, q));
                }
            }
            let Some((d, q)) = here else { continue };
            match slot {
                Some(j) if d < best[j].1 => best[j] = (run.key, d, q),
                None if d < reach => best.push((run.key, d, q)),
                _ => {}
            }
        }
        best
    }
}

/// How much more a spot's barrier weighs per life it has left: a seed with three lives pushes
/// the band seven times as hard as a dead spot at the same distance, so that a curve passing
/// a spot with moves still to make leaves it room for them. Random 8-spot games drawn to the
/// end, three sets of 100 on the same seeds: 89, 84 and 90 with every spot weighing 1; 91 and
/// 83 (two sets) at 1 a life; 92, 88 and 90 at 2.
const LIVE_SPOT_WEIGHT: f64 = 2.0;

/// One obstacle's distance and direction at a point.
struct Feel {
    r: f64,
    /// Unit vector from the obstacle to the point.
    dir: Vector,
    /// The distance beyond which the obstacle is not felt (the barrier is shifted so that it
    /// and its force vanish there).
    cut: f64,
    /// The obstacle's weight (1 but for live spots).
    weight: f64,
    /// For the band's own far part: the segment `(j, j + 1)` felt and where along it
    /// (`0..=1`), whose ends the felt force pushes back on.
    own: Option<(usize, f64)>,
}

struct Field<'a> {
    scene: &'a Scene,
    curves: Chunks,
    ends: Vec<(SpotId, Point, f64)>,
    reach: f64,
    near_end: f64,
    rho: f64,
}

impl Field<'_> {
    fn new<'a>(scene: &'a Scene, ends: &[SpotId], band: &BandSettings) -> Field<'a> {
        Field {
            scene,
            curves: Chunks::new(scene),
            ends: scene
                .spots
                .iter()
                .filter(|s| ends.contains(&s.0))
                .copied()
                .collect(),
            reach: band.reach,
            near_end: band.min_clearance,
            rho: scene.end_rho(ends),
        }
    }

    /// The distinct obstacles felt at `p`, nearest point of each.
    fn feel(&self, p: Point, out: &mut Vec<Feel>, scratch: &mut Vec<usize>) {
        out.clear();
        let s = self.scene;
        // Window sides.
        for (r, dir) in [
            (p.x, Vector::new(1.0, 0.0)),
            (s.width - p.x, Vector::new(-1.0, 0.0)),
            (p.y, Vector::new(0.0, 1.0)),
            (s.height - p.y, Vector::new(0.0, -1.0)),
        ] {
            if r < self.reach {
                out.push(Feel {
                    r,
                    dir,
                    cut: self.reach,
                    weight: 1.0,
                    own: None,
                });
            }
        }
        for (k, &(id, c, rad)) in s.spots.iter().enumerate() {
            if self.ends.iter().any(|e| e.0 == id) {
                continue;
            }
            let v = p - c;
            let d = v.norm();
            if d - rad < self.reach && d > 1e-9 {
                let lives = s.spot_lives.get(k).copied().unwrap_or(0);
                out.push(Feel {
                    r: d - rad,
                    dir: v / d,
                    cut: self.reach,
                    weight: 1.0 + LIVE_SPOT_WEIGHT * f64::from(lives),
                    own: None,
                });
            }
        }
        // Nearest point per curve.
        let best = self.curves.nearest(p, self.reach, scratch);
        for (k, d, q) in best {
            let (from, to, _) = &s.curves[k as usize];
            // A curve at an end spot is measured by its angle there (spec 3.4), and not felt
            // at all very near the spot.
            let mut d = d;
            for e in &self.ends {
                if e.0 != *from && e.0 != *to {
                    continue;
                }
                let rp = p - e.1;
                if rp.norm() < self.near_end + e.2 {
                    d = f64::INFINITY;
                } else if rp.norm() < self.rho {
                    let rq = q - e.1;
                    if rq.norm() > 1e-9 {
                        d = d.max(super::planner::angle_between(rp, rq) * self.rho);
                    }
                }
            }
            let v = p - q;
            if d < self.reach && v.norm() > 1e-9 {
                out.push(Feel {
                    r: d,
                    dir: v / v.norm(),
                    cut: self.reach,
                    weight: 1.0,
                    own: None,
                });
            }
        }
    }
}

impl Field<'_> {
    /// The least distance to an obstacle felt at `p` (`reach` if none is felt).
    fn room(&self, p: Point, feels: &mut Vec<Feel>, scratch: &mut Vec<usize>) -> f64 {
        self.feel(p, feels, scratch);
        feels.iter().map(|f| f.r).fold(self.reach, f64::min)
    }

    /// Points along `route` (its ends kept) each half its room from the last, but at least
    /// `fine` and at most `coarse` apart: the polyline between two of them keeps within half
    /// the room of the first, so it cannot reach an obstacle (unless the room is below
    /// `2 fine`).
    fn resample(
        &self,
        route: &[Point],
        fine: f64,
        coarse: f64,
        feels: &mut Vec<Feel>,
        scratch: &mut Vec<usize>,
    ) -> Vec<Point> {
        let Some(&end) = route.last() else {
            return Vec::new();
        };
        let mut out = vec![route[0]];
        let (mut p, mut j) = (route[0], 0);
        'walk: loop {
            let h = (0.5 * self.room(p, feels, scratch)).clamp(fine, coarse.max(fine));
            let mut left = h;
            loop {
                if j + 1 >= route.len() {
                    break 'walk;
                }
                let d = (route[j + 1] - p).norm();
                if d >= left {
                    p += (route[j + 1] - p) * (left / d);
                    break;
                }
                left -= d;
                p = route[j + 1];
                j += 1;
            }
            out.push(p);
        }
        // The last point is the route's end; one closer than half a step to it goes.
        if out.len() > 1 && (out[out.len() - 1] - end).norm() < 0.5 * fine {
            out.pop();
        }
        if out.len() == 1 || out[out.len() - 1] != end {
            out.push(end);
        }
        out.dedup();
        out
    }
}

/// The barrier `φ(r) = ((D - d_h) / (r - d_h))²` less its tangent at `cut` (so that it and its
/// force vanish there), with its first and second derivatives: `(φ, φ', φ'')`, zero beyond
/// `cut`, `None` at or inside the barrier.
fn barrier(r: f64, dh: f64, comfort: f64, cut: f64) -> Option<(f64, f64, f64)> {
    if r >= cut {
        return Some((0.0, 0.0, 0.0));
    }
    let x = r - dh;
    if x <= 0.0 {
        return None;
    }
    let k = (comfort - dh).powi(2);
    let xc = (cut - dh).max(1e-6);
    Some((
        k / (x * x) - k / (xc * xc) + 2.0 * k / xc.powi(3) * (r - cut),
        -2.0 * k / x.powi(3) + 2.0 * k / xc.powi(3),
        6.0 * k / x.powi(4),
    ))
}

/// What the band feels at one vertex: the weight `w = 1 + λ Σ φ` of its length, the gradient
/// of `w`, and the obstacles' directions with `λ φ''` (for the Hessian across the band).
struct Local {
    w: f64,
    grad: Vector,
    curv: Vec<(Vector, f64)>,
    room: f64,
}

/// The weight of one vertex for the barrier `dh` (`None` if an obstacle is at or inside it).
fn local(feels: &[Feel], dh: f64, band: &BandSettings, curv: bool) -> Option<Local> {
    let mut l = Local {
        w: 1.0,
        grad: Vector::zeros(),
        curv: Vec::new(),
        room: band.reach,
    };
    for f in feels {
        l.room = l.room.min(f.r);
        let (p, dp, d2p) = barrier(f.r, dh, band.comfort, f.cut)?;
        let lw = band.lambda * f.weight;
        l.w += lw * p;
        l.grad += lw * dp * f.dir;
        if curv && d2p > 0.0 {
            l.curv.push((f.dir, lw * d2p));
        }
    }
    Some(l)
}

/// The band's energy `Σ_k l_k (w_k + w_{k+1}) / 2` (the trapezoid rule for `∫ w ds`), each
/// vertex's weight for its own barrier distance `dh[i]`; infinite if a vertex is at or inside
/// its barrier.
fn energy(pts: &[Point], near: &[Vec<Feel>], dh: &[f64], band: &BandSettings) -> f64 {
    let mut w = Vec::with_capacity(pts.len());
    for (f, &h) in near.iter().zip(dh) {
        match local(f, h, band, false) {
            Some(l) => w.push(l.w),
            None => return f64::INFINITY,
        }
    }
    pts.windows(2)
        .zip(w.windows(2))
        .map(|(p, w)| (p[1] - p[0]).norm() * 0.5 * (w[0] + w[1]))
        .sum()
}

/// The band's own far-away parts felt at each vertex (spec 3.4): the nearest point of the band
/// much farther along it than across, felt up to `cut`.
fn own_parts(pts: &[Point], fixed: &[bool], d0: f64, cut: f64, near: &mut [Vec<Feel>]) {
    let n = pts.len();
    let mut arc = vec![0.0; n];
    for i in 1..n {
        arc[i] = arc[i - 1] + (pts[i] - pts[i - 1]).norm();
    }
    let Ok(own) = SegmentGrid::new(
        cut.max(8.0),
        pts.windows(2).enumerate().map(|(j, w)| GridSegment {
            key: j as u32,
            a: w[0],
            b: w[1],
        }),
    ) else {
        return;
    };
    let mut scratch = Vec::new();
    for i in 1..n - 1 {
        if fixed[i] {
            continue;
        }
        scratch.clear();
        own.near_point(pts[i], cut, &mut scratch);
        let mut nearest: Option<(f64, Vector, usize, f64)> = None;
        for &k in scratch.iter() {
            let j = own.segments()[k].key as usize;
            let along = (arc[i] - arc[j]).abs().min((arc[i] - arc[j + 1]).abs());
            if along < 3.0 * d0 {
                continue;
            }
            let (t, q) = closest_on_segment(pts[i], pts[j], pts[j + 1]);
            let v = pts[i] - q;
            let d = v.norm();
            if d < cut && along > 1.3 * d && d > 1e-9 && nearest.is_none_or(|(b, ..)| d < b) {
                nearest = Some((d, v / d, j, t));
            }
        }
        if let Some((r, dir, j, t)) = nearest {
            near[i].push(Feel {
                r,
                dir,
                cut,
                weight: 1.0,
                own: Some((j, t)),
            });
        }
    }
}

/// Solves the symmetric tridiagonal system `(diag, off) x = rhs` (`off[i]` joins `i` and
/// `i + 1`; positive definite) in place of `rhs`.
fn solve_tridiagonal(diag: &[f64], off: &[f64], rhs: &mut [f64]) {
    let n = diag.len();
    if n == 0 {
        return;
    }
    let mut c = vec![0.0; n];
    let mut d = diag[0];
    c[0] = if n > 1 { off[0] / d } else { 0.0 };
    rhs[0] /= d;
    for i in 1..n {
        d = diag[i] - off[i - 1] * c[i - 1];
        if i + 1 < n {
            c[i] = off[i] / d;
        }
        rhs[i] = (rhs[i] - off[i - 1] * rhs[i - 1]) / d;
    }
    for i in (0..n - 1).rev() {
        rhs[i] -= c[i] * rhs[i + 1];
    }
}

/// The weights and lengths of the band's segments: `(unit direction, length, mean weight)`.
fn segments(pts: &[Point], locals: &[Local]) -> Vec<(Vector, f64, f64)> {
    pts.windows(2)
        .enumerate()
        .map(|(k, w)| {
            let v = w[1] - w[0];
            let l = v.norm().max(1e-9);
            (v / l, l, 0.5 * (locals[k].w + locals[k + 1].w))
        })
        .collect()
}

/// The gradient of [`energy`] in each vertex, with the curvature the band's own far parts add
/// along their forces (for the Hessian).
///
/// A vertex's weight moves with the vertex (`ds_i ∇w_i`), the lengths pull it towards its
/// neighbours, and the band's own far part felt at vertex `i` is a segment `(j, j + 1)` of the
/// band: the energy `ds_i λ φ(r_i)` moves with that segment's ends too, so their gradient takes
/// the opposite force, shared as the nearest point divides the segment.
fn gradient(
    near: &[Vec<Feel>],
    dh: &[f64],
    band: &BandSettings,
    locals: &[Local],
    seg: &[(Vector, f64, f64)],
) -> (Vec<Vector>, Vec<Vec<(Vector, f64)>>) {
    let n = locals.len();
    let mut grad = vec![Vector::zeros(); n];
    let mut curv: Vec<Vec<(Vector, f64)>> = vec![Vec::new(); n];
    for (i, feels) in near.iter().enumerate() {
        let (ta, la, wa) = if i > 0 {
            seg[i - 1]
        } else {
            (Vector::zeros(), 0.0, 0.0)
        };
        let (tb, lb, wb) = if i + 1 < n {
            seg[i]
        } else {
            (Vector::zeros(), 0.0, 0.0)
        };
        let ds = 0.5 * (la + lb);
        grad[i] += ds * locals[i].grad + wa * ta - wb * tb;
        for f in feels {
            let Some((j, t)) = f.own else { continue };
            let Some((_, dp, d2p)) = barrier(f.r, dh[i], band.comfort, f.cut) else {
                continue;
            };
            let lw = band.lambda * f.weight * ds;
            for (k, share) in [(j, 1.0 - t), (j + 1, t)] {
                if k < n {
                    grad[k] -= lw * dp * share * f.dir;
                    if d2p > 0.0 {
                        curv[k].push((f.dir, lw * d2p * share * share));
                    }
                }
            }
        }
    }
    (grad, curv)
}

/// One Newton step across the band: each free vertex moves along its normal by `u_i`, the
/// solution of the tridiagonal system of the energy's Hessian in those displacements (the
/// length terms exactly, the barrier's by its second derivative along the normal; the
/// Levenberg-Marquardt damping `mu` added to the diagonal), each displacement at most
/// `0.3` of its vertex's room to its barrier. Returns the moved band (`None` if some vertex
/// is at its barrier).
fn newton_step(
    pts: &[Point],
    near: &[Vec<Feel>],
    dh: &[f64],
    fixed: &[bool],
    band: &BandSettings,
    pressure: Option<&Pressure>,
    mu: f64,
) -> Option<Vec<Point>> {
    let n = pts.len();
    let (slope, curvature) = pressure.map_or((0.0, 0.0), |p| p.slope(pts));
    let locals: Vec<Local> = near
        .iter()
        .zip(dh)
        .map(|(f, &h)| local(f, h, band, true))
        .collect::<Option<_>>()?;
    let seg = segments(pts, &locals);
    let perp = |t: Vector| Vector::new(-t.y, t.x);
    let (gradient, reaction_curv) = gradient(near, dh, band, &locals, &seg);
    let mut normals = vec![Vector::zeros(); n];
    let mut diag = vec![1.0; n];
    let mut off = vec![0.0; n];
    let mut rhs = vec![0.0; n];
    for i in 1..n - 1 {
        let t = pts[i + 1] - pts[i - 1];
        if fixed[i] || t.norm() < 1e-9 {
            continue;
        }
        let nv = perp(t / t.norm());
        normals[i] = nv;
        let (ta, la, wa) = seg[i - 1];
        let (tb, lb, wb) = seg[i];
        let ds = 0.5 * (la + lb);
        let grad = gradient[i];
        // Moving this vertex by `u` along `nv` sweeps `u |t| / 2` of area towards `nv`.
        let sweep = 0.5 * t.norm();
        let mut h = wa * nv.dot(&perp(ta)).powi(2) / la
            + wb * nv.dot(&perp(tb)).powi(2) / lb
            + curvature * sweep * sweep;
        for &(dir, d2) in &locals[i].curv {
            h += ds * d2 * dir.dot(&nv).powi(2);
        }
        for &(dir, d2) in &reaction_curv[i] {
            h += d2 * dir.dot(&nv).powi(2);
        }
        diag[i] = h * (1.0 + mu) + 1e-9;
        rhs[i] = -grad.dot(&nv) - slope * sweep;
    }
    for i in 1..n - 2 {
        let (ni, nj) = (normals[i], normals[i + 1]);
        if ni == Vector::zeros() || nj == Vector::zeros() {
            continue;
        }
        let (t, l, w) = seg[i];
        off[i] = -w * ni.dot(&perp(t)) * nj.dot(&perp(t)) / l;
    }
    solve_tridiagonal(&diag, &off, &mut rhs);
    let mut next = pts.to_vec();
    for i in 1..n - 1 {
        if normals[i] == Vector::zeros() {
            continue;
        }
        let limit = 0.3 * (locals[i].room - dh[i]).max(0.0);
        let u = rhs[i].clamp(-limit, limit);
        next[i] = pts[i] + normals[i] * u;
    }
    Some(next)
}

/// The accepted steps over which the barrier rises to its full height.
const BARRIER_STEPS: usize = 20;

/// The distance each vertex's barrier rises to: `d0` (a vertex that must keep more room, as
/// near the place of the new spot, would be given more here).
fn barrier_targets(pts: &[Point], band: &BandSettings) -> Vec<f64> {
    vec![band.min_clearance; pts.len()]
}

/// The barrier at each vertex after `step` accepted steps: raised from half its target to the
/// target over the first [`BARRIER_STEPS`] (the continuation of spec 3.4, so that a route
/// drawn close to something can be eased away from it), always below `0.9` of the vertex's
/// present room.
fn barriers(near: &[Vec<Feel>], targets: &[f64], step: usize) -> Vec<f64> {
    let rise = 0.5 + 0.5 * (step as f64 / BARRIER_STEPS as f64).min(1.0);
    near.iter()
        .zip(targets)
        .map(|(f, &t)| {
            let room = f.iter().map(|f| f.r).fold(f64::INFINITY, f64::min);
            (t * rise).min(0.9 * room).max(0.0)
        })
        .collect()
}

/// [`relax_leaning`] leaning to neither side.
#[cfg(test)]
pub(crate) fn relax(
    route: &[Point],
    scene: &Scene,
    ends: &[SpotId],
    band: &BandSettings,
    pressure: Option<&Pressure>,
    observer: &mut dyn FnMut(&[Point]),
) -> Vec<Point> {
    relax_leaning(route, scene, ends, band, pressure, 0.0, observer)
}

/// Which vertices of `pts` stay: those near the ends (the stubs replace them).
fn fixed_near_the_ends(field: &Field<'_>, pts: &[Point], band: &BandSettings) -> Vec<bool> {
    pts.iter()
        .map(|p| {
            field
                .ends
                .iter()
                .any(|e| (p - e.1).norm() < 1.25 * (e.2 + 0.5 * band.min_clearance))
        })
        .collect()
}

/// What each vertex of the band `pts` feels: the field's obstacles (those on the side the
/// band leans to weighing `1 + |lean|` times as much) and the band's own far parts.
fn feel_band(
    field: &Field<'_>,
    pts: &[Point],
    fixed: &[bool],
    band: &BandSettings,
    lean: f64,
    (feels, scratch): (&mut Vec<Feel>, &mut Vec<usize>),
) -> Vec<Vec<Feel>> {
    let mut near: Vec<Vec<Feel>> = Vec::with_capacity(pts.len());
    for (i, &p) in pts.iter().enumerate() {
        field.feel(p, feels, scratch);
        if lean != 0.0 {
            let t = pts[(i + 1).min(pts.len() - 1)] - pts[i.saturating_sub(1)];
            let left = Vector::new(-t.y, t.x);
            for f in feels.iter_mut() {
                // `dir` points from the obstacle to the band: away from the left for an
                // obstacle on the left.
                let on_left = f.dir.dot(&left) < 0.0;
                if on_left == (lean > 0.0) {
                    f.weight *= 1.0 + lean.abs();
                }
            }
        }
        near.push(std::mem::take(feels));
    }
    own_parts(pts, fixed, band.min_clearance, band.reach, &mut near);
    near
}

/// Relaxes `route` (from one end spot's centre to the other's) and returns the relaxed
/// polyline; the observer sees it every few steps.
///
/// With `lean` other than `0`, the obstacles on one side of the band weigh `1 + |lean|` times
/// as much: those on its left (the side `perp(t) = (-t.y, t.x)` of its direction) for a
/// positive `lean`, on its right for a negative one, so that the band keeps more room on that
/// side (a corridor the curve splits keeps a half wide enough for a later curve there).
pub(crate) fn relax_leaning(
    route: &[Point],
    scene: &Scene,
    ends: &[SpotId],
    band: &BandSettings,
    pressure: Option<&Pressure>,
    lean: f64,
    observer: &mut dyn FnMut(&[Point]),
) -> Vec<Point> {
    let _span = tracing::debug_span!("band", points = route.len()).entered();
    if route.len() < 3 {
        return route.to_vec();
    }
    let field = Field::new(scene, ends, band);
    let mut feels = Vec::new();
    let mut scratch = Vec::new();
    // Vertices half the room apart (so that no chord between neighbours can reach an
    // obstacle), at least `spacing` apart, and at most as far apart as equal spacing with about
    // 150 vertices would put them.
    let length: f64 = route.windows(2).map(|w| (w[1] - w[0]).norm()).sum();
    let coarse = band.spacing.max(length / 150.0);
    // A short route keeps every vertex of its own (a small loop's sharp turn, cut, can cross
    // itself once fitted) and its even spacing.
    let adaptive = coarse > band.spacing;
    let mut pts = if adaptive {
        field.resample(route, band.spacing, coarse, &mut feels, &mut scratch)
    } else {
        super::fit::resample(route, band.spacing)
    };
    if pts.len() < 3 {
        return pts;
    }
    let is_fixed = |pts: &[Point]| fixed_near_the_ends(&field, pts, band);
    let feel_all =
        |pts: &[Point], fixed: &[bool], feels: &mut Vec<Feel>, scratch: &mut Vec<usize>| {
            feel_band(&field, pts, fixed, band, lean, (feels, scratch))
        };
    let mut fixed = is_fixed(&pts);
    let mut targets = barrier_targets(&pts, band);
    let mut near = feel_all(&pts, &fixed, &mut feels, &mut scratch);
    // Levenberg-Marquardt damping: lowered after a step that lowers the energy, raised after
    // one that does not (or that folds the band). The damping scales a clamped step little
    // until it is large, so a refused step is also cut by half (`scale`), and a step that is
    // accepted lets the next one grow back.
    let mut mu = 1e-3;
    let mut scale: f64 = 1.0;
    let simple = super::crossing::is_simple(&pts);
    let mut accepted = 0;
    let mut since_resample = 0;
    let mut folded = false;
    for step in 0..band.max_steps {
        // Keep the spacing to the room: resample now and then.
        if since_resample >= 25 || (folded && since_resample > 0) {
            folded = false;
            since_resample = 0;
            let n = pts.len();
            let r = if adaptive {
                field.resample(&pts, band.spacing, coarse, &mut feels, &mut scratch)
            } else {
                let mut r = super::fit::resample_even(&pts, n);
                (r[0], r[n - 1]) = (pts[0], pts[n - 1]);
                r
            };
            if r.len() >= 3 {
                scale = 1.0;
                pts = r;
                fixed = is_fixed(&pts);
                targets = barrier_targets(&pts, band);
                near = feel_all(&pts, &fixed, &mut feels, &mut scratch);
            }
        }
        let dh = barriers(&near, &targets, accepted);
        let total = |pts: &[Point], near: &[Vec<Feel>]| {
            energy(pts, near, &dh, band) + pressure.map_or(0.0, |p| p.energy(pts))
        };
        let e0 = total(&pts, &near);
        let Some(full) = newton_step(&pts, &near, &dh, &fixed, band, pressure, mu) else {
            break;
        };
        let trial: Vec<Point> = if scale < 1.0 {
            pts.iter()
                .zip(&full)
                .map(|(p, q)| p + (q - p) * scale)
                .collect()
        } else {
            full
        };
        let moved = pts
            .iter()
            .zip(&trial)
            .map(|(p, q)| (p - q).norm())
            .fold(0.0, f64::max);
        // A step that folds the band over itself (vertices moved across each other at a tight
        // bend) is refused like one that raises the energy.
        let trial_near = (!simple || super::crossing::is_simple(&trial))
            .then(|| feel_all(&trial, &fixed, &mut feels, &mut scratch));
        let trial_near_missing = trial_near.is_none();
        let e1 = trial_near
            .as_ref()
            .map_or(f64::INFINITY, |t| total(&trial, t));
        tracing::trace!(step, n = pts.len(), e0, e1, moved, mu, "band step");
        let Some(trial_near) = trial_near.filter(|_| e1 < e0) else {
            // Refused: a smaller step next time, unless the steps are already below what
            // the energy can tell apart.
            // A fold at a hairpin of the band (a short segment doubling back, which steps
            // along the normals cannot undo) is resampled away first.
            if trial_near_missing && since_resample > 0 {
                folded = true;
                continue;
            }
            if moved < 0.01 || mu > 1e8 {
                break;
            }
            mu *= 6.0;
            scale *= 0.5;
            continue;
        };
        mu = (mu * 0.3).max(1e-4);
        scale = (scale * 2.0).min(1.0);
        pts = trial;
        near = trial_near;
        accepted += 1;
        since_resample += 1;
        if step % 10 == 0 {
            observer(&pts);
        }
        // Converged: the barrier at its height, the shape and the energy no longer changing.
        if accepted > BARRIER_STEPS && moved < 0.05 && e0 - e1 < 1e-5 * e0.abs() {
            break;
        }
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::planner::FreeGrid;
    use sprouts_topo::SpotId;

    /// A band started along a curve at the minimum clearance moves off it, towards the
    /// comfort distance, smoothly (away from its fixed ends).
    #[test]
    fn band_leaves_a_curve_it_starts_on() {
        let s = |k: u32| SpotId::new(k).unwrap();
        let scene = Scene::for_test(
            (800.0, 600.0),
            &[
                (1, 50.0, 300.0),
                (2, 750.0, 300.0),
                (3, 150.0, 280.0),
                (4, 650.0, 280.0),
            ],
            vec![(
                1,
                2,
                (0..=70)
                    .map(|k| Point::new(50.0 + 10.0 * f64::from(k), 300.0))
                    .collect(),
            )],
        );
        let mut route = vec![Point::new(150.0, 280.0)];
        route.extend((0..=50).map(|k| Point::new(150.0 + 10.0 * f64::from(k), 294.0)));
        route.push(Point::new(650.0, 280.0));
        let band = BandSettings {
            min_clearance: 6.0,
            comfort: 40.0,
            lambda: 1.0,
            reach: 80.0,
            spacing: 5.0,
            max_steps: 100,
            pressure: 0.0,
        };
        let out = relax(&route, &scene, &[s(3), s(4)], &band, None, &mut |_| {});
        let mid = out[out.len() / 2];
        let m = out.len();
        let wiggle = out[m / 5..m - m / 5]
            .windows(3)
            .map(|w| ((w[0] + (w[2] - w[0]) * 0.5) - w[1]).norm())
            .fold(0.0, f64::max);

        assert!(
            300.0 - mid.y > 20.0,
            "the middle is {} px from the curve",
            300.0 - mid.y
        );
        assert!(wiggle < 1.0, "wiggle {wiggle}");
    }

    /// A long band whose ends are close to one side of a wide corridor (two parallel curves
    /// 400 px apart) moves towards the middle of the corridor: the converged band sits in the
    /// middle of its room. (Felt only up to `2 D` and stopped after 100 diagonal steps, the
    /// band came to rest about `2 D` from the near side, 80 px from the ends' line.)
    #[test]
    fn a_band_moves_to_the_middle_of_a_wide_corridor() {
        let s = |k: u32| SpotId::new(k).unwrap();
        let line = |y: f64| -> Vec<Point> {
            (0..=100)
                .map(|k| Point::new(50.0 + 25.0 * f64::from(k), y))
                .collect()
        };
        let scene = Scene::for_test(
            (2600.0, 800.0),
            &[
                (1, 50.0, 200.0),
                (2, 2550.0, 200.0),
                (3, 50.0, 600.0),
                (4, 2550.0, 600.0),
                (5, 200.0, 215.0),
                (6, 2400.0, 215.0),
            ],
            vec![(1, 2, line(200.0)), (3, 4, line(600.0))],
        );
        let route: Vec<Point> = (0..=110)
            .map(|k| Point::new(200.0 + 20.0 * f64::from(k), 215.0))
            .collect();
        let out = relax(
            &route,
            &scene,
            &[s(5), s(6)],
            &settings_spec(),
            None,
            &mut |_| {},
        );
        let mid = out
            .iter()
            .min_by(|p, q| (p.x - 1300.0).abs().total_cmp(&(q.x - 1300.0).abs()))
            .unwrap();
        assert!(
            (mid.y - 400.0).abs() < 60.0,
            "the middle of the band is at y = {:.1} (the corridor's middle at 400)",
            mid.y
        );
    }

    /// The nearest point of each curve found through the runs' boxes is the nearest point of
    /// every segment (a plain scan of all of them), on random wiggly curves and points.
    #[test]
    fn runs_find_the_nearest_point_of_each_curve() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let s = |k: u32| SpotId::new(k).unwrap();
        for _ in 0..20 {
            let curves: Vec<(SpotId, SpotId, Vec<Point>)> = (0..5)
                .map(|_| {
                    let mut p =
                        Point::new(rng.random_range(0.0..800.0), rng.random_range(0.0..600.0));
                    let pts = (0..rng.random_range(2..80))
                        .map(|_| {
                            p += Vector::new(
                                rng.random_range(-20.0..20.0),
                                rng.random_range(-20.0..20.0),
                            );
                            p
                        })
                        .collect();
                    (s(1), s(2), pts)
                })
                .collect();
            let scene = Scene {
                width: 800.0,
                height: 600.0,
                d0: 6.0,
                rho: 40.0,
                spots: Vec::new(),
                spot_lives: Vec::new(),
                curves,
            };
            let chunks = Chunks::new(&scene);
            let mut order = Vec::new();
            for _ in 0..50 {
                let p = Point::new(rng.random_range(0.0..800.0), rng.random_range(0.0..600.0));
                let reach = rng.random_range(10.0..300.0);
                let got = chunks.nearest(p, reach, &mut order);
                for (k, (_, _, poly)) in scene.curves.iter().enumerate() {
                    let want = poly
                        .windows(2)
                        .map(|w| sprouts_geom::point_segment_distance(p, w[0], w[1]))
                        .fold(f64::INFINITY, f64::min);
                    match got.iter().find(|g| g.0 == k as u32) {
                        Some(g) => {
                            assert!((g.1 - want).abs() < 1e-9, "{} against {want}", g.1);
                            assert!(((p - g.2).norm() - g.1).abs() < 1e-9);
                        }
                        None => assert!(want >= reach, "curve {k} at {want} missed"),
                    }
                }
            }
        }
    }

    /// The band's settings as a board has them by default (spec 3.4: felt up to 256 px).
    fn settings_spec() -> BandSettings {
        BandSettings::from_settings(&crate::drawing::Settings::default())
    }

    fn settings() -> BandSettings {
        BandSettings {
            min_clearance: 6.0,
            comfort: 40.0,
            lambda: 1.0,
            reach: 80.0,
            spacing: 5.0,
            max_steps: 100,
            pressure: 0.0,
        }
    }

    /// The gradient the Newton step follows is the energy's own: on a hairpin band whose two
    /// strands feel each other (40 px apart, felt up to 80) beside a curve, every vertex's
    /// gradient matches central differences of [`energy`] with all the feels measured again.
    /// Without the reaction on the segments a vertex feels, the step is no descent direction
    /// and the band stalls with the barrier half raised.
    #[test]
    fn the_gradient_is_the_energy_s() {
        let s = |k: u32| SpotId::new(k).unwrap();
        let scene = Scene::for_test(
            (800.0, 600.0),
            &[
                (1, 100.0, 300.0),
                (2, 100.0, 340.0),
                (3, 80.0, 250.0),
                (4, 720.0, 250.0),
            ],
            vec![(
                3,
                4,
                (0..=64)
                    .map(|k| Point::new(80.0 + 10.0 * f64::from(k), 250.0 + f64::from(k % 3)))
                    .collect(),
            )],
        );
        let band = settings();
        let field = Field::new(&scene, &[s(1), s(2)], &band);
        // Out along y = 300, round a half circle, back along y = 340, a little uneven.
        let mut pts: Vec<Point> = (0..=50)
            .map(|k| Point::new(100.0 + 10.0 * f64::from(k), 300.0))
            .collect();
        pts.extend((1..12).map(|k| {
            let a = std::f64::consts::PI * (f64::from(k) / 12.0 - 0.5);
            Point::new(600.0 + 20.0 * a.cos(), 320.0 + 20.0 * a.sin())
        }));
        pts.extend((0..=50).map(|k| Point::new(600.0 - 10.0 * f64::from(k), 340.0)));
        let n = pts.len();
        for (k, p) in pts.iter_mut().enumerate().take(n - 1).skip(1) {
            p.y += 1.5 * ((k as f64) * 0.7).sin();
        }
        let fixed: Vec<bool> = (0..n).map(|i| i == 0 || i == n - 1).collect();
        let feel_all = |pts: &[Point]| {
            let (mut feels, mut scratch) = (Vec::new(), Vec::new());
            let mut near: Vec<Vec<Feel>> = pts
                .iter()
                .map(|&p| {
                    field.feel(p, &mut feels, &mut scratch);
                    std::mem::take(&mut feels)
                })
                .collect();
            own_parts(pts, &fixed, band.min_clearance, band.reach, &mut near);
            near
        };
        let dh = vec![0.5 * band.min_clearance; n];
        let near = feel_all(&pts);
        let owned = near
            .iter()
            .filter(|f| f.iter().any(|f| f.own.is_some()))
            .count();
        assert!(owned > 60, "{owned} vertices feel the other strand");
        let locals: Vec<Local> = near
            .iter()
            .zip(&dh)
            .map(|(f, &h)| local(f, h, &band, true).unwrap())
            .collect();
        let (grad, _) = gradient(&near, &dh, &band, &locals, &segments(&pts, &locals));
        let h = 1e-5;
        let mut worst: f64 = 0.0;
        for i in (10..n - 10).step_by(3) {
            for e in [Vector::new(h, 0.0), Vector::new(0.0, h)] {
                let at = |sign: f64| {
                    let mut q = pts.clone();
                    q[i] += sign * e;
                    energy(&q, &feel_all(&q), &dh, &band)
                };
                let numeric = (at(1.0) - at(-1.0)) / (2.0 * h);
                let analytic = grad[i].dot(&e) / h;
                let err = (numeric - analytic).abs() / analytic.abs().max(1.0);
                worst = worst.max(err);
                assert!(
                    err < 1e-3,
                    "vertex {i} {e:?}: numeric {numeric}, analytic {analytic}"
                );
            }
        }
        assert!(worst > 0.0);
    }

    /// Distance from `c` to the polyline `pts`.
    fn distance_to(pts: &[Point], c: Point) -> f64 {
        pts.windows(2)
            .map(|w| sprouts_geom::point_segment_distance(c, w[0], w[1]))
            .fold(f64::INFINITY, f64::min)
    }

    /// Down a corridor between two curves 30 px apart, the band runs in the middle. Its left
    /// (`perp(t)`, `(0, 1)` for a band going along `x`) is the curve at `y = 215`: leaning
    /// left it keeps more room from that curve (it moves to smaller `y`), leaning right from
    /// the other, by the same amount.
    #[test]
    fn a_leaning_band_keeps_more_room_on_that_side() {
        let s = |k: u32| SpotId::new(k).unwrap();
        let line = |y: f64| {
            (0..=60)
                .map(|k| Point::new(100.0 + 10.0 * f64::from(k), y))
                .collect()
        };
        let scene = Scene::for_test(
            (800.0, 400.0),
            &[
                (1, 50.0, 200.0),
                (2, 750.0, 200.0),
                (3, 100.0, 185.0),
                (4, 700.0, 185.0),
                (5, 100.0, 215.0),
                (6, 700.0, 215.0),
            ],
            vec![(3, 4, line(185.0)), (5, 6, line(215.0))],
        );
        let route: Vec<Point> = (0..=70)
            .map(|k| Point::new(50.0 + 10.0 * f64::from(k), 200.0))
            .collect();
        let band = settings();
        let mid_y = |lean: f64| {
            let out = relax_leaning(
                &route,
                &scene,
                &[s(1), s(2)],
                &band,
                None,
                lean,
                &mut |_| {},
            );
            let at = out
                .iter()
                .min_by(|p, q| (p.x - 400.0).abs().total_cmp(&(q.x - 400.0).abs()))
                .expect("a vertex");
            at.y
        };
        let (plain, left, right) = (mid_y(0.0), mid_y(10.0), mid_y(-10.0));
        assert!((plain - 200.0).abs() < 0.5, "in the middle: {plain}");
        // Leaning left: away from the lower curve (y 215), so up.
        assert!(left < plain - 3.0, "leaning left: {left} against {plain}");
        assert!(
            right > plain + 3.0,
            "leaning right: {right} against {plain}"
        );
        assert!(
            ((plain - left) - (right - plain)).abs() < 0.5,
            "the same amount: {left}, {plain}, {right}"
        );
    }

    /// On a long route (coarse spacing in the open), the band is sampled finely where it
    /// passes close to something: resampled at equal spacing, a chord between two vertices
    /// on either side of a spot it bends round came closer to the spot than the vertices.
    #[test]
    fn a_long_band_is_fine_where_it_bends_round_a_spot() {
        let s = |k: u32| SpotId::new(k).unwrap();
        // A curve round below the spot, 45 px from it, that keeps the band close to it.
        let scene = Scene::for_test(
            (3200.0, 800.0),
            &[
                (1, 100.0, 100.0),
                (2, 3100.0, 100.0),
                (3, 1600.0, 400.0),
                (4, 1555.0, 380.0),
                (5, 1645.0, 380.0),
            ],
            vec![(
                4,
                5,
                (0..=36)
                    .map(|k| {
                        let a = std::f64::consts::PI * f64::from(k) / 36.0;
                        Point::new(1600.0 - 45.0 * a.cos(), 380.0 + 45.0 * a.sin())
                    })
                    .collect(),
            )],
        );
        // Down to the spot, round below it at 25 px, and back up.
        let mut route = vec![Point::new(100.0, 100.0)];
        route.extend((0..=12).map(|k| {
            let a = std::f64::consts::PI * f64::from(k) / 12.0;
            Point::new(1600.0 - 25.0 * a.cos(), 400.0 + 25.0 * a.sin())
        }));
        route.push(Point::new(3100.0, 100.0));
        // Resampled after 25 steps.
        let band = BandSettings {
            max_steps: 25,
            ..settings()
        };
        let out = relax(&route, &scene, &[s(1), s(2)], &band, None, &mut |_| {});
        let c = Point::new(1600.0, 400.0);
        let by_vertex = out
            .iter()
            .map(|p| (p - c).norm())
            .fold(f64::INFINITY, f64::min);
        let by_chord = distance_to(&out, c);
        assert!(
            by_chord > by_vertex - 1.0,
            "vertices {by_vertex:.1} px from the spot, chords {by_chord:.1} px"
        );
    }

    /// A grid of `scene` whose cells are open where their centres keep `d0` from the spots
    /// (other than the two ends) and the window's edge.
    fn open_grid(scene: &Scene, ends: [u32; 2]) -> FreeGrid {
        let cell = FreeGrid::cell_width(scene.d0);
        let (nx, ny) = (
            (scene.width / cell) as usize,
            (scene.height / cell) as usize,
        );
        let mut clear = Vec::with_capacity(nx * ny);
        for j in 0..ny {
            for i in 0..nx {
                let p = Point::new((i as f64 + 0.5) * cell, (j as f64 + 0.5) * cell);
                let mut d = p.x.min(p.y).min(scene.width - p.x).min(scene.height - p.y);
                for &(id, c, r) in &scene.spots {
                    if !ends.contains(&id.get()) {
                        d = d.min((p - c).norm() - r);
                    }
                }
                clear.push(d as f32);
            }
        }
        let open: Vec<bool> = clear.iter().map(|&c| f64::from(c) >= scene.d0).collect();
        FreeGrid {
            cell,
            nx,
            ny,
            near: vec![super::super::planner::Obstacle::Edge; nx * ny],
            allowed: vec![true; nx * ny],
            room: clear.clone(),
            clear,
            open,
            d0: scene.d0,
            cost: vec![1.0; nx * ny],
        }
    }

    /// A route across the window from edge to edge splits it in two: the areas are the open
    /// cells on each side, the lives those of the spots on each side (one more for the new
    /// spot), and the band moves away from the side with more lives for its room, sweeping
    /// exactly the area the term accounts for. A route that splits nothing has no pressure.
    #[test]
    fn pressure_gives_the_side_with_more_lives_more_room() {
        let s = |k: u32| SpotId::new(k).unwrap();
        let mut scene = Scene::for_test(
            (400.0, 300.0),
            &[(1, 8.0, 150.0), (2, 392.0, 150.0), (3, 200.0, 40.0)],
            Vec::new(),
        );
        scene.spot_lives = vec![2, 3, 3];
        // The end spots' lives count on neither side.
        let grid = open_grid(&scene, [1, 2]);
        let route: Vec<Point> = (0..=40)
            .map(|k| Point::new(8.0 + 9.6 * f64::from(k), 150.0))
            .collect();
        let p = Pressure::new(&grid, &route, &scene, [s(1), s(2)], 500.0).expect("two sides");
        // The normals point down the screen (+y): the bottom side, without the seed.
        assert_eq!(p.lives, [1.0, 4.0]);
        let open = grid.open.iter().filter(|&&o| o).count() as f64 * grid.cell * grid.cell;
        assert!(
            p.area[0] > 0.4 * open && p.area[1] > 0.35 * open,
            "{:?} of {open}",
            p.area
        );
        assert!(p.area[0] + p.area[1] < open);
        assert!(
            p.slope(&route).0 < 0.0,
            "the energy falls towards the bottom"
        );

        let band = settings();
        let plain = relax(&route, &scene, &[s(1), s(2)], &band, None, &mut |_| {});
        let pressed = relax(&route, &scene, &[s(1), s(2)], &band, Some(&p), &mut |_| {});
        let (y0, y1) = (plain[plain.len() / 2].y, pressed[pressed.len() / 2].y);
        assert!(
            y1 > y0 + 20.0,
            "the middle at {y0:.1} without, {y1:.1} with the pressure"
        );
        // The swept area is the area between the two polylines.
        let swept: f64 = pressed
            .windows(2)
            .map(|w| 0.5 * (w[1].x - w[0].x) * (w[0].y + w[1].y - 300.0))
            .sum();
        let a = p.areas(&pressed);
        assert!(
            (p.area[0] - a[0] - swept).abs() < 0.02 * swept,
            "{swept} {a:?}"
        );
        assert!(p.energy(&pressed) < p.energy(&route));

        // From one spot to another in the open: one region on both sides.
        let mut open_scene = scene.clone();
        open_scene.spots[0].1 = route[10];
        open_scene.spots[1].1 = route[30];
        let grid = open_grid(&open_scene, [1, 2]);
        let short: Vec<Point> = route[10..=30].to_vec();
        assert!(Pressure::new(&grid, &short, &open_scene, [s(1), s(2)], 500.0).is_none());
    }

    /// A band between two spots at the same distance passes nearer the dead one: a spot's
    /// barrier weighs more for each life it has left (without lives, by symmetry, the band
    /// stays in the middle).
    #[test]
    fn a_band_leaves_more_room_to_a_spot_with_lives() {
        let s = |k: u32| SpotId::new(k).unwrap();
        let mut scene = Scene::for_test(
            (800.0, 600.0),
            &[
                (1, 100.0, 300.0),
                (2, 700.0, 300.0),
                (3, 400.0, 270.0),
                (4, 400.0, 330.0),
            ],
            Vec::new(),
        );
        let route: Vec<Point> = (0..=60)
            .map(|k| Point::new(100.0 + 10.0 * f64::from(k), 300.0))
            .collect();
        let band = settings();
        let middle = |scene: &Scene| {
            let out = relax(&route, scene, &[s(1), s(2)], &band, None, &mut |_| {});
            let c = Point::new(400.0, 270.0);
            (
                distance_to(&out, c),
                distance_to(&out, Point::new(400.0, 330.0)),
            )
        };
        scene.spot_lives = vec![1, 1, 0, 0];
        let (up, down) = middle(&scene);
        assert!(
            (up - down).abs() < 1.0,
            "{up:.1} and {down:.1} px without lives"
        );
        scene.spot_lives = vec![1, 1, 3, 0];
        let (up, down) = middle(&scene);
        assert!(
            up > down + 4.0,
            "{up:.1} px from the seed with three lives, {down:.1} px from the dead spot"
        );
    }

    /// A route along the window's top edge at the clearance has no open cell above it: that
    /// side is a strip a cell wide, with the new spot's life only, and the energy falls as the
    /// band moves away from it.
    #[test]
    fn a_side_with_no_open_cell_is_a_thin_strip_that_the_band_opens() {
        let s = |k: u32| SpotId::new(k).unwrap();
        let mut scene = Scene::for_test(
            (400.0, 300.0),
            &[(1, 8.0, 9.0), (2, 392.0, 9.0), (3, 200.0, 150.0)],
            Vec::new(),
        );
        scene.spot_lives = vec![2, 3, 3];
        let grid = open_grid(&scene, [1, 2]);
        let route: Vec<Point> = (0..=40)
            .map(|k| Point::new(8.0 + 9.6 * f64::from(k), 9.0))
            .collect();
        let p = Pressure::new(&grid, &route, &scene, [s(1), s(2)], 500.0).expect("two sides");
        assert_eq!(p.lives, [4.0, 1.0]);
        let strip = grid.cell * 384.0;
        assert!(
            (p.area[1] - strip).abs() < 1e-6,
            "{:?} against {strip}",
            p.area
        );
        assert!(p.area[0] > 50.0 * strip, "{:?}", p.area);
        assert!(
            p.slope(&route).0 < 0.0,
            "the energy falls away from the strip"
        );
    }
}
