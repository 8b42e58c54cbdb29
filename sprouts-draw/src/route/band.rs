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
//! Felt only up to `D` (the band's own far parts) or `2 D` (everything else), as before, the
//! energy was flat beyond: a converged band sat at that distance from what it bent round
//! however much room there was (a long empty loop's two strands `D` apart), instead of in the
//! middle of its room.

use sprouts_geom::{GridSegment, Point, SegmentGrid, Vector, closest_on_segment};
use sprouts_topo::SpotId;

use super::planner::Scene;
use crate::drawing::Settings;

/// The band's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BandSettings {
    /// The minimum clearance `d0` the barrier rises to (pixels).
    pub min_clearance: f64,
    /// The comfort distance `D` (pixels).
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

impl BandSettings {
    /// The band for a board's settings (its `λ` is `ROOM_WEIGHT` times the setting).
    pub fn from_settings(s: &Settings) -> BandSettings {
        BandSettings {
            min_clearance: s.min_clearance,
            comfort: s.comfort_distance,
            lambda: ROOM_WEIGHT * s.room_vs_length,
            reach: 256.0,
            spacing: 5.0,
            max_steps: 100,
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

/// One obstacle's distance and direction at a point.
struct Feel {
    r: f64,
    /// Unit vector from the obstacle to the point.
    dir: Vector,
    /// The distance beyond which the obstacle is not felt (the barrier is shifted so that it
    /// and its force vanish there).
    cut: f64,
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
                });
            }
        }
        for &(id, c, rad) in &s.spots {
            if self.ends.iter().any(|e| e.0 == id) {
                continue;
            }
            let v = p - c;
            let d = v.norm();
            if d - rad < self.reach && d > 1e-9 {
                out.push(Feel {
                    r: d - rad,
                    dir: v / d,
                    cut: self.reach,
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
        l.w += band.lambda * p;
        l.grad += band.lambda * dp * f.dir;
        if curv && d2p > 0.0 {
            l.curv.push((f.dir, band.lambda * d2p));
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
        let mut nearest: Option<(f64, Vector)> = None;
        for &k in scratch.iter() {
            let j = own.segments()[k].key as usize;
            let along = (arc[i] - arc[j]).abs().min((arc[i] - arc[j + 1]).abs());
            if along < 3.0 * d0 {
                continue;
            }
            let (_, q) = closest_on_segment(pts[i], pts[j], pts[j + 1]);
            let v = pts[i] - q;
            let d = v.norm();
            if d < cut && along > 1.3 * d && d > 1e-9 && nearest.is_none_or(|(b, _)| d < b) {
                nearest = Some((d, v / d));
            }
        }
        if let Some((r, dir)) = nearest {
            near[i].push(Feel { r, dir, cut });
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
    mu: f64,
) -> Option<Vec<Point>> {
    let n = pts.len();
    let locals: Vec<Local> = near
        .iter()
        .zip(dh)
        .map(|(f, &h)| local(f, h, band, true))
        .collect::<Option<_>>()?;
    let seg: Vec<(Vector, f64, f64)> = pts
        .windows(2)
        .enumerate()
        .map(|(k, w)| {
            let v = w[1] - w[0];
            let l = v.norm().max(1e-9);
            (v / l, l, 0.5 * (locals[k].w + locals[k + 1].w))
        })
        .collect();
    let perp = |t: Vector| Vector::new(-t.y, t.x);
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
        let grad = ds * locals[i].grad + wa * ta - wb * tb;
        let mut h = wa * nv.dot(&perp(ta)).powi(2) / la + wb * nv.dot(&perp(tb)).powi(2) / lb;
        for &(dir, d2) in &locals[i].curv {
            h += ds * d2 * dir.dot(&nv).powi(2);
        }
        diag[i] = h * (1.0 + mu) + 1e-9;
        rhs[i] = -grad.dot(&nv);
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

/// Relaxes `route` (from one end spot's centre to the other's) and returns the relaxed
/// polyline; the observer sees it every few steps.
pub(crate) fn relax(
    route: &[Point],
    scene: &Scene,
    ends: &[SpotId],
    band: &BandSettings,
    observer: &mut dyn FnMut(&[Point]),
) -> Vec<Point> {
    let _span = tracing::debug_span!("band", points = route.len()).entered();
    if route.len() < 3 {
        return route.to_vec();
    }
    let field = Field {
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
    };
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
    // Vertices near the ends stay (the stubs replace them).
    let is_fixed = |pts: &[Point]| -> Vec<bool> {
        pts.iter()
            .map(|p| {
                field
                    .ends
                    .iter()
                    .any(|e| (p - e.1).norm() < 1.25 * (e.2 + 0.5 * band.min_clearance))
            })
            .collect()
    };
    let d0 = band.min_clearance;
    let own_cut = band.reach;
    let feel_all =
        |pts: &[Point], fixed: &[bool], feels: &mut Vec<Feel>, scratch: &mut Vec<usize>| {
            let mut near: Vec<Vec<Feel>> = Vec::with_capacity(pts.len());
            for &p in pts {
                field.feel(p, feels, scratch);
                near.push(std::mem::take(feels));
            }
            own_parts(pts, fixed, d0, own_cut, &mut near);
            near
        };
    let mut fixed = is_fixed(&pts);
    let mut targets = barrier_targets(&pts, band);
    let mut near = feel_all(&pts, &fixed, &mut feels, &mut scratch);
    // Levenberg-Marquardt damping: lowered after a step that lowers the energy, raised after
    // one that does not (or that folds the band).
    let mut mu = 1e-3;
    let simple = super::is_simple(&pts);
    let mut accepted = 0;
    let mut since_resample = 0;
    for step in 0..band.max_steps {
        let dh = barriers(&near, &targets, accepted);
        let e0 = energy(&pts, &near, &dh, band);
        let Some(trial) = newton_step(&pts, &near, &dh, &fixed, band, mu) else {
            break;
        };
        let moved = pts
            .iter()
            .zip(&trial)
            .map(|(p, q)| (p - q).norm())
            .fold(0.0, f64::max);
        // A step that folds the band over itself (vertices moved across each other at a tight
        // bend) is refused like one that raises the energy.
        let trial_near = (!simple || super::is_simple(&trial))
            .then(|| feel_all(&trial, &fixed, &mut feels, &mut scratch));
        let e1 = trial_near
            .as_ref()
            .map_or(f64::INFINITY, |t| energy(&trial, t, &dh, band));
        tracing::trace!(step, n = pts.len(), e0, e1, moved, mu, "band step");
        let Some(trial_near) = trial_near.filter(|_| e1 < e0) else {
            // Refused: a smaller step next time, unless the steps are already below what
            // the energy can tell apart.
            if moved < 0.01 || mu > 1e8 {
                break;
            }
            mu *= 6.0;
            continue;
        };
        mu = (mu * 0.3).max(1e-4);
        pts = trial;
        near = trial_near;
        accepted += 1;
        since_resample += 1;
        if step % 10 == 0 {
            observer(&pts);
        }
        // Converged: the barrier at its height, the shape and the energy no longer changing.
        if accepted > BARRIER_STEPS && moved < 0.05 && e0 - e1 < 1e-5 * e0 {
            break;
        }
        // Keep the spacing to the room: resample now and then.
        if since_resample >= 25 {
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
                pts = r;
                fixed = is_fixed(&pts);
                targets = barrier_targets(&pts, band);
                near = feel_all(&pts, &fixed, &mut feels, &mut scratch);
            }
        }
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;
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
        };
        let out = relax(&route, &scene, &[s(3), s(4)], &band, &mut |_| {});
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
        let out = relax(&route, &scene, &[s(5), s(6)], &settings_spec(), &mut |_| {});
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
        }
    }

    /// Distance from `c` to the polyline `pts`.
    fn distance_to(pts: &[Point], c: Point) -> f64 {
        pts.windows(2)
            .map(|w| sprouts_geom::point_segment_distance(c, w[0], w[1]))
            .fold(f64::INFINITY, f64::min)
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
        let out = relax(&route, &scene, &[s(1), s(2)], &band, &mut |_| {});
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
}
