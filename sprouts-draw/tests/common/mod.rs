//! Helpers shared by the integration tests: pictures from spots and curves, positions written
//! out by hand.

#![allow(dead_code, reason = "each test file uses a different subset")]

use sprouts_draw::{Curve, Drawing, DrawnSpot, WorldSize};
use sprouts_geom::{EndCondition, Point, interpolate};
use sprouts_topo::{Position, Setup, SpotId};

/// A curve by its end spots and the points it passes in between.
pub(crate) type CurveSpec<'a> = (u32, u32, &'a [(f64, f64)]);
/// The same, owning its points.
pub(crate) type OwnedCurve = (u32, u32, Vec<(f64, f64)>);

pub(crate) fn s(n: u32) -> SpotId {
    SpotId::new(n).unwrap()
}

/// A picture: spots `(id, x, y)` and curves `(from, to, points in between)`, each curve the
/// natural C² spline through its spots' centres and the points given.
pub(crate) fn picture(spots: &[(u32, f64, f64)], curves: &[CurveSpec<'_>]) -> Drawing {
    let mut d = Drawing::new(WorldSize::new(600.0, 600.0)).unwrap();
    for &(id, x, y) in spots {
        d.add_spot(DrawnSpot {
            id: s(id),
            centre: Point::new(x, y),
            radius: 3.0,
        })
        .unwrap();
    }
    for &(from, to, via) in curves {
        let mut pts = vec![d.spot(s(from)).unwrap().centre];
        pts.extend(via.iter().map(|&(x, y)| Point::new(x, y)));
        pts.push(d.spot(s(to)).unwrap().centre);
        let spline = interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).unwrap();
        d.add_curve(Curve {
            from: s(from),
            to: s(to),
            spline,
            origin: None,
        })
        .unwrap();
    }
    d
}

/// The position written out by hand: regions of boundaries of spot numbers.
pub(crate) fn expected(regions: &[&[&[u32]]]) -> Position {
    let setup = Setup::from_regions(
        regions
            .iter()
            .map(|r| {
                r.iter()
                    .map(|b| b.iter().map(|&n| s(n)).collect())
                    .collect()
            })
            .collect(),
    );
    Position::from_setup(setup).unwrap()
}

/// A loop from `at` round the centre `(cx, cy)` with radius `r`, through spot `via` on the far
/// side: two curves, `at → via` over the top (smaller y) and back underneath.
pub(crate) fn loop_curves(at: u32, via: u32, cx: f64, cy: f64, r: f64) -> Vec<OwnedCurve> {
    let h = r * std::f64::consts::FRAC_1_SQRT_2;
    vec![
        (
            at,
            via,
            vec![(cx - h, cy - h), (cx, cy - r), (cx + h, cy - h)],
        ),
        (
            via,
            at,
            vec![(cx + h, cy + h), (cx, cy + r), (cx - h, cy + h)],
        ),
    ]
}

pub(crate) fn with_loops(
    spots: &[(u32, f64, f64)],
    loops: &[(u32, u32, f64, f64, f64)],
    extra: &[CurveSpec<'_>],
) -> Drawing {
    let owned: Vec<OwnedCurve> = loops
        .iter()
        .flat_map(|&(a, v, cx, cy, r)| loop_curves(a, v, cx, cy, r))
        .collect();
    let mut curves: Vec<CurveSpec<'_>> = owned
        .iter()
        .map(|(a, b, v)| (*a, *b, v.as_slice()))
        .collect();
    curves.extend_from_slice(extra);
    picture(spots, &curves)
}

/// A triangle 1-2-3 with a star of three curves round spot 7 inside it (leaves 8, 9, 10). With
/// `swap`, leaves 9 and 10 trade places, which reverses the order of the curves round 7.
pub(crate) fn star_picture(swap: bool) -> Drawing {
    let (p9, p10) = if swap {
        ((230.0, 300.0), (370.0, 300.0))
    } else {
        ((370.0, 300.0), (230.0, 300.0))
    };
    let (v9, v10) = if swap {
        ((265.0, 273.0), (335.0, 277.0))
    } else {
        ((335.0, 277.0), (265.0, 273.0))
    };
    picture(
        &[
            (1, 100.0, 100.0),
            (2, 500.0, 100.0),
            (3, 300.0, 450.0),
            (7, 300.0, 250.0),
            (8, 300.0, 180.0),
            (9, p9.0, p9.1),
            (10, p10.0, p10.1),
        ],
        &[
            (1, 2, &[(300.0, 90.0)]),
            (2, 3, &[(410.0, 280.0)]),
            (3, 1, &[(190.0, 280.0)]),
            (7, 8, &[(302.0, 215.0)]),
            (7, 9, &[v9]),
            (7, 10, &[v10]),
        ],
    )
}

/// The position of [`star_picture`] without the swap.
pub(crate) fn star_position() -> Position {
    expected(&[&[&[1, 3, 2]], &[&[1, 2, 3], &[7, 8, 7, 10, 7, 9]]])
}

/// A spline through points (natural ends).
pub(crate) fn through(points: &[(f64, f64)]) -> sprouts_geom::Spline {
    let pts: Vec<Point> = points.iter().map(|&(x, y)| Point::new(x, y)).collect();
    interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).unwrap()
}

/// A picture with a region of several boundaries: a loop at 1 through 2 round a seed 3, a path
/// 4-6-5 and a loop 7-8 (empty inside).
pub(crate) fn several_boundaries() -> Drawing {
    with_loops(
        &[
            (1, 40.0, 300.0),
            (2, 560.0, 300.0),
            (3, 300.0, 150.0),
            (4, 150.0, 420.0),
            (5, 250.0, 420.0),
            (6, 200.0, 430.0),
            (7, 330.0, 350.0),
            (8, 470.0, 350.0),
        ],
        &[(1, 2, 300.0, 300.0, 260.0), (7, 8, 400.0, 350.0, 70.0)],
        &[(4, 6, &[(175.0, 410.0)]), (6, 5, &[(225.0, 440.0)])],
    )
}
