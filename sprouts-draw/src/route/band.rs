//! The elastic band (spec 3.4): a polyline relaxed under the clearance energy
//! `E = ∫ (1 + λ Σ_o φ(r_o(s))) ds` with the barrier `φ(r) = ((D - d_h) / (r - d_h))²`, by a
//! diagonally preconditioned Newton iteration whose steps are projected across the band, the
//! barrier `d_h` raised by continuation towards `d0`. A step never takes a vertex more than a
//! fraction of its distance to the nearest obstacle, so the band cannot pass through anything.
//! Each obstacle is felt up to `reach`, its barrier shifted by its tangent there so that the
//! energy and its force fall to zero at the reach without a jump. A long band is sampled at half
//! the room where the room is small (so that a chord between two vertices cannot cut in
//! towards an obstacle it bends round), coarser in the open.

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
    /// How far obstacles are felt (pixels).
    pub reach: f64,
    /// The spacing the band is resampled at (pixels).
    pub spacing: f64,
    /// Most Newton steps.
    pub max_steps: usize,
}

impl BandSettings {
    /// The band for a board's settings.
    pub fn from_settings(s: &Settings) -> BandSettings {
        BandSettings {
            min_clearance: s.min_clearance,
            comfort: s.comfort_distance,
            lambda: s.room_vs_length,
            reach: (2.0 * s.comfort_distance).min(256.0),
            spacing: 5.0,
            max_steps: 100,
        }
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
    grid: SegmentGrid<u32>,
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
        scratch.clear();
        self.grid.near_point(p, self.reach, scratch);
        // Nearest point per curve.
        let mut best: Vec<(u32, f64, Point)> = Vec::new();
        for &k in scratch.iter() {
            let seg = self.grid.segments()[k];
            let (_, q) = closest_on_segment(p, seg.a, seg.b);
            let d = (p - q).norm();
            match best.iter_mut().find(|b| b.0 == seg.key) {
                Some(b) => {
                    if d < b.1 {
                        b.1 = d;
                        b.2 = q;
                    }
                }
                None => best.push((seg.key, d, q)),
            }
        }
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
    let segs = scene.curves.iter().enumerate().flat_map(|(k, (_, _, p))| {
        p.windows(2).map(move |w| GridSegment {
            key: k as u32,
            a: w[0],
            b: w[1],
        })
    });
    let Ok(grid) = SegmentGrid::new(64.0, segs) else {
        return route.to_vec();
    };
    let field = Field {
        scene,
        grid,
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
    let mut n = pts.len();
    if n < 3 {
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
    let mut fixed = is_fixed(&pts);
    let d0 = band.min_clearance;
    let dd = band.comfort;
    let mut last_energy = f64::INFINITY;
    for step in 0..band.max_steps {
        // The barrier: raised towards d0, always below the band's present least clearance.
        let mut least = f64::INFINITY;
        let mut near: Vec<Vec<Feel>> = Vec::with_capacity(n);
        for (i, &p) in pts.iter().enumerate() {
            field.feel(p, &mut feels, &mut scratch);
            if !fixed[i] {
                for f in &feels {
                    least = least.min(f.r);
                }
            }
            near.push(std::mem::take(&mut feels));
        }
        // The band's own far-away parts: vertices much farther along the band than across.
        let mut arc = vec![0.0; n];
        for i in 1..n {
            arc[i] = arc[i - 1] + (pts[i] - pts[i - 1]).norm();
        }
        let own = SegmentGrid::new(
            2.0 * dd,
            pts.windows(2).enumerate().map(|(j, w)| GridSegment {
                key: j as u32,
                a: w[0],
                b: w[1],
            }),
        );
        if let Ok(own) = own {
            for i in 1..n - 1 {
                if fixed[i] {
                    continue;
                }
                scratch.clear();
                own.near_point(pts[i], dd, &mut scratch);
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
                    if d < dd && along > 1.3 * d && d > 1e-9 && nearest.is_none_or(|(b, _)| d < b) {
                        nearest = Some((d, v / d));
                    }
                }
                if let Some((r, dir)) = nearest {
                    near[i].push(Feel { r, dir, cut: dd });
                    least = least.min(r);
                }
            }
        }
        let dh = (0.9 * least).min(d0 * (0.5 + 0.5 * (step as f64 / 20.0).min(1.0)));
        let dh = dh.max(0.0);
        let phi = |r: f64| ((dd - dh) / (r - dh).max(1e-6)).powi(2);
        let mut energy = 0.0;
        let mut moved: f64 = 0.0;
        let mut next = pts.clone();
        // Gauss-Seidel order (each vertex sees its predecessor's new place): simultaneous
        // Newton steps on the tension alone leave the zigzag mode undamped, which the
        // barrier terms then grow into wiggles.
        for i in 1..n - 1 {
            let (p, a, b) = (pts[i], next[i - 1], pts[i + 1]);
            let (la, lb) = ((p - a).norm().max(1e-9), (p - b).norm().max(1e-9));
            let ds = 0.5 * (la + lb);
            let mut w = 1.0;
            let mut grad = Vector::zeros();
            let mut hess = 0.0;
            let mut room = f64::INFINITY;
            for f in &near[i] {
                let r = f.r;
                room = room.min(r);
                if r <= dh {
                    continue;
                }
                if r >= f.cut {
                    continue;
                }
                // The barrier less its tangent at the cut: it and its force vanish there, so
                // that a vertex crossing the cut feels no jump (a jump kept bands oscillating).
                let x = r - dh;
                let xc = (f.cut - dh).max(1e-6);
                let dphi_c = -2.0 * (dd - dh).powi(2) / xc.powi(3);
                w += band.lambda * (phi(r) - phi(f.cut) - dphi_c * (r - f.cut));
                let dphi = -2.0 * (dd - dh).powi(2) / x.powi(3) - dphi_c;
                let d2phi = 6.0 * (dd - dh).powi(2) / x.powi(4);
                grad += band.lambda * ds * dphi * f.dir;
                hess += band.lambda * ds * d2phi;
            }
            energy += w * ds;
            if fixed[i] {
                continue;
            }
            grad += w * ((p - a) / la + (p - b) / lb);
            hess += w * (1.0 / la + 1.0 / lb);
            // Project across the band.
            let t = b - a;
            let tn = t.norm();
            if tn > 1e-9 {
                let t = t / tn;
                grad -= t * grad.dot(&t);
            }
            let mut delta = -grad / hess;
            let limit = 0.3 * (room - dh).max(0.0);
            let len = delta.norm();
            if len > limit {
                delta *= limit / len;
            }
            next[i] = p + delta;
            moved = moved.max(delta.norm());
        }
        pts = next;
        if step % 10 == 0 {
            observer(&pts);
        }
        let gain = (last_energy - energy).abs() / energy.max(1e-9);
        if moved < 0.05 && gain < 1e-4 {
            break;
        }
        last_energy = energy;
        // Keep the spacing to the room: resample now and then.
        if step % 25 == 24 {
            let r = if adaptive {
                field.resample(&pts, band.spacing, coarse, &mut feels, &mut scratch)
            } else {
                let mut r = super::fit::resample_even(&pts, n);
                (r[0], r[n - 1]) = (pts[0], pts[n - 1]);
                r
            };
            if r.len() >= 3 {
                pts = r;
                n = pts.len();
                fixed = is_fixed(&pts);
                last_energy = f64::INFINITY;
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
        let scene = Scene {
            width: 800.0,
            height: 600.0,
            d0: 6.0,
            rho: 40.0 * std::f64::consts::SQRT_2,
            spots: vec![
                (s(1), Point::new(50.0, 300.0), 5.0),
                (s(2), Point::new(750.0, 300.0), 5.0),
                (s(3), Point::new(150.0, 280.0), 5.0),
                (s(4), Point::new(650.0, 280.0), 5.0),
            ],
            spot_lives: Vec::new(),
            curves: vec![(
                s(1),
                s(2),
                (0..=70)
                    .map(|k| Point::new(50.0 + 10.0 * f64::from(k), 300.0))
                    .collect(),
            )],
        };
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
        let scene = Scene {
            width: 3200.0,
            height: 800.0,
            d0: 6.0,
            rho: 40.0 * std::f64::consts::SQRT_2,
            spots: vec![
                (s(1), Point::new(100.0, 100.0), 5.0),
                (s(2), Point::new(3100.0, 100.0), 5.0),
                (s(3), Point::new(1600.0, 400.0), 5.0),
                (s(4), Point::new(1555.0, 380.0), 5.0),
                (s(5), Point::new(1645.0, 380.0), 5.0),
            ],
            spot_lives: Vec::new(),
            // A curve round below the spot, 45 px from it, that keeps the band close to it.
            curves: vec![(
                s(4),
                s(5),
                (0..=36)
                    .map(|k| {
                        let a = std::f64::consts::PI * f64::from(k) / 36.0;
                        Point::new(1600.0 - 45.0 * a.cos(), 380.0 + 45.0 * a.sin())
                    })
                    .collect(),
            )],
        };
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
