//! The spatial grid returns every segment within the query distance (brute force decides),
//! each once, whatever the cell size and the segments' lengths.

mod common;

use proptest::prelude::*;
use rand::Rng;
use sprouts_geom::{GridSegment, Point, SegmentGrid, certified, point_segment_distance};

/// Distance between two segments in floating point: 0 if they intersect, else the least end
/// point-segment distance.
fn seg_dist(a0: Point, a1: Point, b0: Point, b1: Point) -> f64 {
    if certified::segments_intersect(a0, a1, b0, b1) {
        return 0.0;
    }
    point_segment_distance(a0, b0, b1)
        .min(point_segment_distance(a1, b0, b1))
        .min(point_segment_distance(b0, a0, a1))
        .min(point_segment_distance(b1, a0, a1))
}

#[track_caller]
fn check_queries(segs: &[(Point, Point)], cell: f64, queries: &[(Point, Point, f64)]) {
    let grid = SegmentGrid::new(
        cell,
        segs.iter()
            .enumerate()
            .map(|(key, &(a, b))| GridSegment { key, a, b }),
    )
    .unwrap();
    let mut res = Vec::new();
    for &(a, b, r) in queries {
        res.clear();
        grid.near_segment(a, b, r, &mut res);
        assert!(
            res.windows(2).all(|w| w[0] < w[1]),
            "sorted, without repeats"
        );
        for (i, &(p, q)) in segs.iter().enumerate() {
            let d = seg_dist(a, b, p, q);
            if d <= r {
                assert!(
                    res.contains(&i),
                    "segment {i} at distance {d} <= {r} missed"
                );
            }
        }
        // Candidates are near: they meet a cell that meets the query's box widened by `r`
        // (row by row), so they are within `√2 (r + cell)` plus a cell of the query.
        let cell = grid.cell_size();
        for &i in &res {
            let (p, q) = segs[i];
            let far = 1.5 * (r + 2.0 * cell);
            assert!(seg_dist(a, b, p, q) <= far, "far candidate {i}");
        }
        if a == b {
            let mut by_point = Vec::new();
            grid.near_point(a, r, &mut by_point);
            assert_eq!(by_point, res);
        }
    }
}

#[test]
fn queries_find_everything_near() {
    let mut rng = common::rng(64);
    for round in 0..40 {
        let n = rng.random_range(0..300);
        let segs: Vec<(Point, Point)> = (0..n)
            .map(|_| {
                let a = common::point(&mut rng, 500.0);
                // Mostly short legs, some very long ones, some points.
                let len = match rng.random_range(0..10) {
                    0 => 0.0,
                    1 => 600.0,
                    _ => 20.0,
                };
                (a, a + common::point(&mut rng, len).coords)
            })
            .collect();
        let queries: Vec<(Point, Point, f64)> = (0..60)
            .map(|k| {
                let a = common::point(&mut rng, 600.0);
                let b = if k % 3 == 0 {
                    a
                } else {
                    a + common::point(&mut rng, 100.0).coords
                };
                (a, b, rng.random_range(0.0..80.0))
            })
            .collect();
        let cell = [64.0, 7.0, 300.0][round % 3];
        check_queries(&segs, cell, &queries);
    }
}

#[test]
fn huge_extents_get_coarser_cells() {
    let segs = [
        (Point::new(-1e12, 0.0), Point::new(-1e12 + 1.0, 0.0)),
        (Point::new(1e12, 5.0), Point::new(1e12, 6.0)),
    ];
    let grid = SegmentGrid::new(
        64.0,
        segs.iter()
            .enumerate()
            .map(|(key, &(a, b))| GridSegment { key, a, b }),
    )
    .unwrap();
    assert!(grid.cell_size() > 64.0);
    check_queries(
        &segs,
        64.0,
        &[(Point::new(1e12, 0.0), Point::new(1e12, 0.0), 10.0)],
    );
}

#[test]
fn bad_input_is_refused() {
    let seg = GridSegment {
        key: (),
        a: Point::new(f64::NAN, 0.0),
        b: Point::new(0.0, 0.0),
    };
    assert!(SegmentGrid::new(64.0, [seg]).is_err());
    assert!(SegmentGrid::<()>::new(0.0, []).is_err());
    assert!(SegmentGrid::<()>::new(f64::INFINITY, []).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn proptest_queries(
        segs in prop::collection::vec(((-300.0f64..300.0, -300.0f64..300.0), (-50.0f64..50.0, -50.0f64..50.0)), 0..80),
        qs in prop::collection::vec(((-350.0f64..350.0, -350.0f64..350.0), (-30.0f64..30.0, -30.0f64..30.0), 0.0f64..100.0), 1..10),
        cell in 1.0f64..200.0,
    ) {
        let segs: Vec<(Point, Point)> = segs
            .into_iter()
            .map(|((x, y), (dx, dy))| (Point::new(x, y), Point::new(x + dx, y + dy)))
            .collect();
        let qs: Vec<(Point, Point, f64)> = qs
            .into_iter()
            .map(|((x, y), (dx, dy), r)| (Point::new(x, y), Point::new(x + dx, y + dy), r))
            .collect();
        check_queries(&segs, cell, &qs);
    }
}
