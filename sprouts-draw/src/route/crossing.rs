//! Whether a route crosses itself, and taking its crossings out: used by the search (a grid
//! route through a cell twice), the string pull and the band (each step must keep the route
//! simple), and the certificate's stage (a bulged polyline must stay a curve).

use sprouts_geom::{Point, certified};

/// A route's segments with their bounding boxes.
type Boxed = (Point, Point, [f64; 4]);

fn boxed_segments(route: &[Point]) -> Vec<Boxed> {
    route
        .windows(2)
        .map(|w| {
            let (p, q) = (w[0], w[1]);
            (
                p,
                q,
                [p.x.min(q.x), p.y.min(q.y), p.x.max(q.x), p.y.max(q.y)],
            )
        })
        .collect()
}

/// Whether segments `i < j` of `segs` (of a route closed or not) cross or touch, neighbours
/// and a loop's first and last excepted.
fn segments_cross(segs: &[Boxed], closed: bool, i: usize, j: usize) -> bool {
    let m = segs.len();
    if j < i + 2 || (closed && i == 0 && j == m - 1) {
        return false;
    }
    let (a, b) = (&segs[i].2, &segs[j].2);
    if a[0] > b[2] || b[0] > a[2] || a[1] > b[3] || b[1] > a[3] {
        return false;
    }
    certified::segments_intersect(segs[i].0, segs[i].1, segs[j].0, segs[j].1)
}

/// Routes of fewer segments are searched pair by pair (the grid is the faster from about 70
/// segments: 10 µs against 17 at 100, 43 against 382 at 500; `crossing_timing`).
const CROSSING_GRID_FROM: usize = 80;

/// The first pair of segments of a route that cross or touch (not neighbours; for a loop, not
/// its first and last): the least `(i, j)`, `i < j`, in the order of
/// [`first_crossing_pairwise`], the reference. A long route's segments are binned in a grid of
/// about one cell per segment, and only segments sharing a cell are compared (a band of some
/// 500 vertices is checked at every step of its relaxation).
pub(super) fn first_crossing(route: &[Point]) -> Option<(usize, usize)> {
    let n = route.len();
    if n < 4 {
        return None;
    }
    let closed = route[0] == route[n - 1];
    let segs = boxed_segments(route);
    let m = segs.len();
    if m < CROSSING_GRID_FROM {
        return first_crossing_in(&segs, closed);
    }
    let (mut lo, mut hi) = (route[0], route[0]);
    for p in route {
        lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    let (w, h) = (hi.x - lo.x, hi.y - lo.y);
    if !(w.is_finite() && h.is_finite()) {
        return first_crossing_in(&segs, closed);
    }
    // Square cells, about `m` of them over the route's box.
    let side = ((w * h / m as f64).sqrt())
        .max(w.max(h) / m as f64)
        .max(1e-9);
    let cols = ((w / side) as usize + 1).min(m);
    let rows = ((h / side) as usize + 1).min(m);
    let col = |x: f64| (((x - lo.x) / side) as usize).min(cols - 1);
    let row = |y: f64| (((y - lo.y) / side) as usize).min(rows - 1);
    // The segments of each cell, in increasing order, as one list by cells (counted first).
    let cell_range = |b: &[f64; 4]| (row(b[1])..=row(b[3]), col(b[0])..=col(b[2]));
    let mut start = vec![0u32; cols * rows + 1];
    for seg in &segs {
        let (rs, cs) = cell_range(&seg.2);
        for r in rs {
            for c in cs.clone() {
                start[r * cols + c + 1] += 1;
            }
        }
    }
    for k in 0..cols * rows {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut members = vec![0u32; start[cols * rows] as usize];
    for (k, seg) in segs.iter().enumerate() {
        let (rs, cs) = cell_range(&seg.2);
        for r in rs {
            for c in cs.clone() {
                let slot = &mut fill[r * cols + c];
                members[*slot as usize] = k as u32;
                *slot += 1;
            }
        }
    }
    let mut best: Option<(usize, usize)> = None;
    for cell in start.windows(2) {
        let cell = &members[cell[0] as usize..cell[1] as usize];
        for (x, &i) in cell.iter().enumerate() {
            for &j in &cell[x + 1..] {
                // Filled in increasing order, so `i < j`.
                let (i, j) = (i as usize, j as usize);
                if best.is_some_and(|b| b <= (i, j)) {
                    continue;
                }
                if segments_cross(&segs, closed, i, j) {
                    best = Some((i, j));
                }
            }
        }
    }
    best
}

/// [`first_crossing`] pair by pair over the segments.
fn first_crossing_in(segs: &[Boxed], closed: bool) -> Option<(usize, usize)> {
    let m = segs.len();
    (0..m).find_map(|i| {
        (i + 2..m)
            .find(|&j| segments_cross(segs, closed, i, j))
            .map(|j| (i, j))
    })
}

/// The reference for [`first_crossing`]: every pair of segments in turn.
#[cfg(test)]
fn first_crossing_pairwise(route: &[Point]) -> Option<(usize, usize)> {
    let n = route.len();
    if n < 4 {
        return None;
    }
    first_crossing_in(&boxed_segments(route), route[0] == route[n - 1])
}

/// Takes the crossings out of a route by reversing the stretch between two crossing segments
/// (a 2-opt move: the ends are kept, each step shortens the route, so it ends). The parity
/// search may return a route through a cell twice that crosses itself; the result is judged
/// again by the caller.
pub(super) fn uncross(route: &[Point]) -> Vec<Point> {
    let mut r = route.to_vec();
    for _ in 0..200 {
        match first_crossing(&r) {
            None => break,
            Some((i, j)) => r[i + 1..=j].reverse(),
        }
    }
    r
}

/// Whether a route does not cross or touch itself (its first and last segments may share the
/// spot of a loop).
pub(super) fn is_simple(route: &[Point]) -> bool {
    first_crossing(route).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A route of `k` points from small integer steps (so that segments often touch, overlap
    /// and meet at vertices), closed when `close` is set.
    fn route_of(steps: &[(i8, i8)], scale: f64, close: bool) -> Vec<Point> {
        let mut p = Point::new(0.0, 0.0);
        let mut r = vec![p];
        for &(dx, dy) in steps {
            p = Point::new(p.x + scale * f64::from(dx), p.y + scale * f64::from(dy));
            r.push(p);
        }
        if close {
            r.push(r[0]);
        }
        r
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The grid finds the same first crossing as every pair in turn, on routes long enough
        /// to be binned.
        #[test]
        fn first_crossing_equals_the_pairwise_search(
            steps in prop::collection::vec((-3i8..=3, -3i8..=3), 60..240),
            scale in prop_oneof![Just(1.0), Just(0.37), 1.0f64..20.0],
            close in any::<bool>(),
        ) {
            let r = route_of(&steps, scale, close);
            prop_assert_eq!(first_crossing(&r), first_crossing_pairwise(&r));
        }

        /// The same on routes that walk mostly one way (few crossings, far apart, as a band).
        #[test]
        fn first_crossing_equals_the_pairwise_search_on_long_walks(
            steps in prop::collection::vec((0i8..=3, -2i8..=2), 48..400),
            back in prop::collection::vec((-3i8..=0, -2i8..=2), 0..40),
        ) {
            let mut all = steps.clone();
            all.extend(back);
            let r = route_of(&all, 2.5, false);
            prop_assert_eq!(first_crossing(&r), first_crossing_pairwise(&r));
        }
    }

    /// Times the grid and the pairwise search on simple spirals, the measure behind
    /// [`CROSSING_GRID_FROM`]; both must find the spirals simple.
    #[test]
    #[ignore = "a timing: cargo test -p sprouts-draw --lib -- --ignored --nocapture crossing_timing"]
    fn crossing_timing() {
        for n in [30usize, 50, 100, 200, 500, 1000] {
            let spiral: Vec<Point> = (0..n)
                .map(|k| {
                    let t = 30.0 * k as f64 / n as f64;
                    Point::new((10.0 + 3.0 * t) * t.cos(), (10.0 + 3.0 * t) * t.sin())
                })
                .collect();
            let reps = 200_000 / n;
            let t = std::time::Instant::now();
            for _ in 0..reps {
                assert!(std::hint::black_box(first_crossing(&spiral)).is_none());
            }
            let fast = t.elapsed().as_secs_f64() / reps as f64;
            let t = std::time::Instant::now();
            for _ in 0..reps {
                assert!(std::hint::black_box(first_crossing_pairwise(&spiral)).is_none());
            }
            let slow = t.elapsed().as_secs_f64() / reps as f64;
            eprintln!(
                "{n} points: grid {:.1} us, pairwise {:.1} us",
                fast * 1e6,
                slow * 1e6
            );
        }
    }

    #[test]
    fn a_long_spiral_is_simple_and_a_crossing_is_found() {
        // A spiral of 600 points does not cross itself.
        let spiral: Vec<Point> = (0..600)
            .map(|k| {
                let t = f64::from(k) * 0.05;
                Point::new((10.0 + 3.0 * t) * t.cos(), (10.0 + 3.0 * t) * t.sin())
            })
            .collect();
        assert_eq!(first_crossing(&spiral), None);
        assert_eq!(first_crossing_pairwise(&spiral), None);
        // Its last point brought back across its first turn.
        let mut crossed = spiral.clone();
        crossed.push(Point::new(0.0, 0.0));
        let got = first_crossing(&crossed);
        assert!(got.is_some());
        assert_eq!(got, first_crossing_pairwise(&crossed));
    }
}
