//! The new spot's place and room (spec 2.1 puts the new spot near the middle of the curve):
//! where along a certified curve the new spot goes ([`new_spot_at`]); a route between two
//! close spots bowed out so the new spot does not crowd them ([`bow_out`]); loops with room
//! inside tried first ([`loops_with_room_first`]); a curve whose new spot has no room bulged
//! where its disc fits ([`room_for_the_new_spot`]); and a one-boundary move's lens widened for
//! the move later drawn inside it ([`room_for_the_next_move`]). Each takes a route or a
//! certified curve and gives one; the fitting and certifying is the caller's (`attempt`).

use sprouts_geom::{Point, Spline, Vector, refined_polygon};

use super::certify::Certified;
use super::fit;
use super::planner::{FreeGrid, Scene};

/// Where the new spot goes (spec 2.1 puts it near the middle; here, the widest place near
/// the middle): the arc length, between a quarter and three quarters of the curve, whose
/// point has the most room (to everything else, to the two end spots, and to the curve's own
/// parts farther along it than the room itself, as a loop's other strand), up to the comfort
/// distance; among places with about as much room, the one nearest the middle. The new spot's
/// disc must pass the certificate ([`fit::new_spot_clearance`]): when no place in the middle
/// half does, the rest of the curve is looked at too (a curve along a narrow corridor that
/// widens near one end); when none does at all, the least bad place in the middle half.
pub(super) fn new_spot_at(
    spline: &Spline,
    grid: &FreeGrid,
    scene: &Scene,
    obstacles: &fit::Obstacles,
    (ca, ra): (Point, f64),
    (cb, rb): (Point, f64),
    need: f64,
) -> f64 {
    let Ok(poly) = refined_polygon(spline, 0.25, 16.0) else {
        return 0.5 * sprouts_geom::approx::arc_length(spline, 1e-3).unwrap_or(0.0);
    };
    let pts = fit::resample(poly.points(), 2.0);
    let mut arc = vec![0.0; pts.len()];
    for i in 1..pts.len() {
        arc[i] = arc[i - 1] + (pts[i] - pts[i - 1]).norm();
    }
    let total = arc[arc.len() - 1];
    let middle = 0.5 * total;
    let comfort = scene.rho / std::f64::consts::SQRT_2;
    // The places between `lo` and `hi` of the length, best first: (score, arc length).
    let places = |lo: f64, hi: f64| -> Vec<(f64, f64)> {
        let mut scored = Vec::with_capacity(pts.len());
        for (i, &p) in pts.iter().enumerate() {
            let s = arc[i];
            if s < lo * total || s > hi * total {
                continue;
            }
            let mut room = grid
                .room_at(p)
                .min((p - ca).norm() - ra)
                .min((p - cb).norm() - rb)
                .min(comfort);
            for (j, &q) in pts.iter().enumerate() {
                if (arc[j] - s).abs() > 1.5 * room.max(0.0) + 2.0 * scene.d0 {
                    room = room.min((p - q).norm());
                }
            }
            // A pixel of room is worth 20 pixels along the curve; a place where the new
            // spot's disc would fail the certificate (judged by the certificate's own test)
            // only if there is no other, the least bad.
            let margin = fit::new_spot_clearance(p, scene, obstacles, need).margin;
            let score = room - 0.05 * (s - middle).abs() + 1000.0 * margin.min(0.0);
            if score.is_finite() {
                scored.push((score, s));
            }
        }
        scored.sort_by(|x, y| y.0.total_cmp(&x.0));
        scored
    };
    // The spline is cut where the arc length reaches the place, snapped to a knot nearby
    // ([`fit::new_spot_cut`]): the best places in turn, the first whose cut point's disc
    // passes (the polygon is within a quarter pixel of the curve, a snap can move the point
    // more).
    let passes = |s: f64| {
        fit::new_spot_cut(spline, s).is_ok_and(|cut| {
            fit::new_spot_clearance(cut.first.end(), scene, obstacles, need).margin >= 0.0
        })
    };
    let half = places(0.25, 0.75);
    if let Some(&(_, s)) = half.iter().take(16).find(|&&(_, s)| passes(s)) {
        return s;
    }
    let whole = places(0.02, 0.98);
    if let Some(&(_, s)) = whole.iter().take(16).find(|&&(_, s)| passes(s)) {
        return s;
    }
    // The cut needs `0 < at < length` of the spline, whose arc length the polygon's is within
    // a fraction of a pixel of.
    half.first().map_or(middle, |b| b.1)
}

/// A one-boundary move's curve drawn beside a curve of its own boundary cuts off a lens, and
/// when the lens is a region where the game goes on (the end spots keep a life), the move
/// later drawn inside it needs room there for its own new spot: the lens as thin as the band
/// left it (some 15 px across, between two spots 25 px apart) has none, and no drawing of
/// that later move passes without moving the curves round it. A side of the certified curve
/// `x` without room for a new spot's disc ([`fit::side_room`], a pixel to spare) is widened
/// by bulging the polyline away from it at its widest place (by what it lacks, and more),
/// each bulge fitted and certified again (`attempt`); the first that leaves both sides room
/// is taken, and `x` as it was if none does (or if both sides lack room: a curve down a
/// corridor).
pub(super) fn room_for_the_next_move(
    x: Certified,
    scene: &Scene,
    obstacles: &fit::Obstacles,
    (need, stub): (f64, f64),
    attempt: &dyn Fn(&[Point]) -> Option<Certified>,
) -> Certified {
    const WANT: f64 = 1.0;
    let rooms = |x: &Certified| -> Option<[(f64, f64, Vector); 2]> {
        let z = fit::new_spot_cut(&x.spline, x.cut_at).ok()?.first.end();
        Some(
            [1.0, -1.0]
                .map(|side| fit::side_room(&x.curve, z, scene, obstacles, need, (side, WANT))),
        )
    };
    let Some(before) = rooms(&x) else {
        return x;
    };
    let tight: Vec<usize> = (0..2).filter(|&k| before[k].0 < WANT).collect();
    let &[k] = tight.as_slice() else {
        return x;
    };
    let (best, at, normal) = before[k];
    if !best.is_finite() {
        return x;
    }
    let side = if k == 0 { 1.0 } else { -1.0 };
    let r = scene.spots.first().map_or(5.0, |s| s.2);
    let turn_allowed = crate::quality::polyline_sharpest_turn(&x.curve).max(crate::SHARP_TURN);
    let lack = WANT - best;
    for amount in [
        lack + 1.0,
        1.5 * lack + 2.0,
        2.0 * lack + 4.0,
        3.0 * lack + 8.0,
        4.0 * lack + 12.0,
    ] {
        let place = fit::SpotRoom {
            at,
            push: -side * amount,
            normal,
        };
        let bulged = fit::bulge(&x.pts, &place, (r + 1.0, (4.0 * amount).max(3.0 * r)), stub);
        let Some(y) = attempt(&bulged) else {
            continue;
        };
        // A widening that makes the curve turn sharply (a hook where the push fades) is
        // worse than the room it makes.
        if crate::quality::polyline_sharpest_turn(&y.curve) > turn_allowed {
            continue;
        }
        if rooms(&y).is_some_and(|after| after.iter().all(|a| a.0 >= WANT)) {
            tracing::debug!(lack, amount, "a lens widened for the next move");
            return y;
        }
    }
    x
}

/// A curve that passes the certificate but whose new spot has no room anywhere along it (it
/// runs at the minimum clearance past what it bends round, or down a strip a little narrower
/// than the disc and its clearance): the polyline bulged sideways where the disc would fit
/// with a little to spare ([`fit::spot_room_places`]), the smallest push near the middle
/// first, each tried in turn (`attempt` fits and certifies it) until one passes.
pub(super) fn room_for_the_new_spot<T>(
    pts: &[Point],
    scene: &Scene,
    obstacles: &fit::Obstacles,
    (need, stub): (f64, f64),
    attempt: &dyn Fn(&[Point]) -> Option<T>,
) -> Option<T> {
    let pts = fit::resample(pts, 2.0);
    let r = scene.spots.first().map_or(5.0, |s| s.2);
    // A pixel to spare (the spline is fitted within 1.5 px of the pushed polyline, and its
    // new spot placed afresh), then less where that finds nothing.
    [1.0, 0.4].into_iter().find_map(|margin| {
        let places = fit::spot_room_places(
            &pts,
            scene,
            obstacles,
            need,
            (margin, 2.0 * scene.d0),
            (4, 2.0 * scene.d0),
        );
        places.iter().find_map(|place| {
            let fade = (4.0 * place.push.abs()).max(3.0 * r);
            let bulged = fit::bulge(&pts, place, (r + 1.0, fade), stub);
            attempt(&bulged)
        })
    })
}

/// Loops tried in the order: those that hold a spot or leave room inside for a later move
/// between their spot and their new spot ([`fit::empty_loop_has_room`]) first. A band pulls
/// a loop with nothing inside tight, and the move inside it later, from the loop's spot to
/// its new spot, then has no room for its own new spot (a lens some 12 px wide); the route
/// as found, round its loop wall, is wider.
pub(super) fn loops_with_room_first(
    tries: Vec<Vec<Point>>,
    scene: &Scene,
    need: f64,
) -> Vec<Vec<Point>> {
    let (roomy, tight): (Vec<_>, Vec<_>) = tries
        .into_iter()
        .partition(|t| fit::empty_loop_has_room(t, scene, half_way(t), need, (1.0, 400.0)));
    roomy.into_iter().chain(tight).collect()
}

/// The point at half the length of a polyline.
fn half_way(route: &[Point]) -> Point {
    let total: f64 = route.windows(2).map(|w| (w[1] - w[0]).norm()).sum();
    let mut left = 0.5 * total;
    for w in route.windows(2) {
        let l = (w[1] - w[0]).norm();
        if l >= left && l > 0.0 {
            return w[0] + (w[1] - w[0]) * (left / l);
        }
        left -= l;
    }
    route[route.len() - 1]
}

/// A route between two spots so close that the new spot at its middle would crowd them (within
/// `D / 2` of them),
/// replaced by one that bows out to a side where the grid is open (the side the judge
/// accepts); otherwise the route as it was.
pub(super) fn bow_out(
    route: &[Point],
    grid: &FreeGrid,
    scene: &Scene,
    (ca, ra): (Point, f64),
    (cb, rb): (Point, f64),
    accept: &dyn Fn(&[Point]) -> bool,
) -> Vec<Point> {
    let r_new = scene.spots.first().map_or(5.0, |s| s.2);
    // The new spot `D / 2` from both (not only its disc clear of theirs), so that two close
    // spots and the new one do not end up in a cluster no later curve can pass through.
    let comfort = scene.rho / std::f64::consts::SQRT_2;
    let room = (ra.max(rb) + r_new + 0.6 * scene.d0 + 0.5 * scene.d0).max(0.5 * comfort);
    let mid = half_way(route);
    if (mid - ca).norm() >= room && (mid - cb).norm() >= room {
        return route.to_vec();
    }
    let chord = cb - ca;
    let half = 0.5 * chord.norm();
    if half < 1e-9 {
        return route.to_vec();
    }
    let h = (room * room - half * half).max(0.0).sqrt() + 0.5 * scene.d0;
    let n = Vector::new(-chord.y, chord.x) / chord.norm();
    // The side the route already leans to first.
    let lean = (mid - (ca + chord * 0.5)).dot(&n);
    let sides = if lean >= 0.0 {
        [1.0, -1.0]
    } else {
        [-1.0, 1.0]
    };
    for s in sides {
        let apex = ca + chord * 0.5 + n * (s * h);
        let open = |p: Point| grid.cell_at(p).is_some_and(|c| grid.open[c as usize]);
        let legs_open = (1..=4).all(|k| {
            let t = 0.5 + 0.1 * f64::from(k);
            open(ca + (apex - ca) * t) && open(cb + (apex - cb) * t)
        });
        if !open(apex) || !legs_open {
            continue;
        }
        let bowed = fit::resample_even(&[ca, apex, cb], 13);
        if accept(&bowed) {
            return bowed;
        }
    }
    route.to_vec()
}
