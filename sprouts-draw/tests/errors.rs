//! Degenerate pictures are reported with the curves and spots at fault, never read as positions.

mod common;

use common::{picture, s, through};
use sprouts_draw::{AnalyseError, Curve, CurveId, Drawing, DrawnSpot, WorldSize, analyse};
use sprouts_geom::{CubicBez, Point, Spline};

#[track_caller]
fn error(d: &Drawing) -> AnalyseError {
    analyse(d).expect_err("a degenerate picture")
}

fn add(d: &mut Drawing, from: u32, to: u32, spline: Spline) {
    d.add_curve(Curve {
        from: s(from),
        to: s(to),
        spline,
        origin: None,
    })
    .unwrap();
}

#[test]
fn an_empty_picture_is_the_empty_position() {
    let d = Drawing::new(WorldSize::new(10.0, 10.0)).unwrap();
    let a = analyse(&d).unwrap();
    assert_eq!(a.position().region_count(), 0);
    assert_eq!(a.outside(), None);
    assert_eq!(a.region_at(Point::new(1.0, 1.0)), None);
}

#[test]
fn curves_must_end_at_their_spots() {
    let mut d = picture(&[(1, 100.0, 100.0), (2, 300.0, 100.0)], &[]);
    add(
        &mut d,
        1,
        2,
        through(&[(100.0, 100.0), (200.0, 50.0), (300.5, 100.0)]),
    );
    assert_eq!(
        error(&d),
        AnalyseError::CurveOffSpot {
            curve: CurveId(0),
            spot: s(2)
        }
    );
}

#[test]
fn at_most_three_curve_ends_at_a_spot() {
    let d = picture(
        &[
            (1, 300.0, 300.0),
            (2, 100.0, 300.0),
            (3, 500.0, 300.0),
            (4, 300.0, 100.0),
            (5, 300.0, 500.0),
        ],
        &[
            (1, 2, &[(200.0, 290.0)]),
            (1, 3, &[(400.0, 310.0)]),
            (1, 4, &[(290.0, 200.0)]),
            (1, 5, &[(310.0, 400.0)]),
        ],
    );
    assert_eq!(
        error(&d),
        AnalyseError::TooManyCurves {
            spot: s(1),
            ends: 4
        }
    );
}

#[test]
fn spots_at_one_point() {
    let d = picture(&[(1, 100.0, 100.0), (2, 100.0, 100.0)], &[]);
    assert_eq!(error(&d), AnalyseError::SpotsCoincide { a: s(1), b: s(2) });
}

#[test]
fn a_curve_that_crosses_itself() {
    // A path from 1 to 2 that loops over itself on the way.
    let d = picture(
        &[(1, 100.0, 300.0), (2, 500.0, 300.0)],
        &[(
            1,
            2,
            &[
                (300.0, 300.0),
                (350.0, 200.0),
                (250.0, 200.0),
                (300.0, 400.0),
            ],
        )],
    );
    assert_eq!(
        error(&d),
        AnalyseError::SelfIntersecting { curve: CurveId(0) }
    );
}

#[test]
fn curves_tangent_at_a_spot() {
    let mut d = picture(
        &[(1, 100.0, 100.0), (2, 300.0, 100.0), (3, 300.0, 140.0)],
        &[],
    );
    let c = Point::new(100.0, 100.0);
    // Both leave spot 1 straight to the right, then part.
    add(
        &mut d,
        1,
        2,
        Spline::from_cubic(
            CubicBez::new(
                c,
                Point::new(150.0, 100.0),
                Point::new(250.0, 80.0),
                Point::new(300.0, 100.0),
            ),
            200.0,
        )
        .unwrap(),
    );
    add(
        &mut d,
        1,
        3,
        Spline::from_cubic(
            CubicBez::new(
                c,
                Point::new(120.0, 100.0),
                Point::new(250.0, 160.0),
                Point::new(300.0, 140.0),
            ),
            200.0,
        )
        .unwrap(),
    );
    assert_eq!(
        error(&d),
        AnalyseError::SameDirection {
            spot: s(1),
            a: CurveId(0),
            b: CurveId(1)
        }
    );
}

#[test]
fn a_curve_with_no_extent() {
    let mut d = Drawing::new(WorldSize::new(200.0, 200.0)).unwrap();
    d.add_spot(DrawnSpot {
        id: s(1),
        centre: Point::new(50.0, 50.0),
        radius: 2.0,
    })
    .unwrap();
    let p = Point::new(50.0, 50.0);
    add(
        &mut d,
        1,
        1,
        Spline::from_cubic(CubicBez::new(p, p, p, p), 1.0).unwrap(),
    );
    assert_eq!(
        error(&d),
        AnalyseError::DegenerateCurve {
            curve: CurveId(0),
            spot: s(1)
        }
    );
}

#[test]
fn curves_that_touch() {
    // Two paths whose middles meet at a point without crossing (tangent from either side).
    let d = picture(
        &[
            (1, 100.0, 200.0),
            (2, 500.0, 200.0),
            (3, 100.0, 400.0),
            (4, 500.0, 400.0),
        ],
        &[(1, 2, &[(300.0, 300.0)]), (3, 4, &[(300.0, 300.0)])],
    );
    let err = error(&d);
    assert!(
        matches!(
            err,
            AnalyseError::CurvesTouch {
                a: CurveId(0),
                b: CurveId(1)
            } | AnalyseError::CurvesCross {
                a: CurveId(0),
                b: CurveId(1)
            }
        ),
        "{err}"
    );
    assert_eq!(err.curves(), vec![CurveId(0), CurveId(1)]);
}

/// A curve from a spot back to it with no other spot on it is named, not reported as an
/// internal inconsistency.
#[test]
fn a_loop_with_no_spot_on_it() {
    let mut d = picture(&[(1, 100.0, 100.0), (2, 400.0, 100.0)], &[]);
    add(
        &mut d,
        1,
        1,
        through(&[
            (100.0, 100.0),
            (200.0, 50.0),
            (250.0, 150.0),
            (100.0, 100.0),
        ]),
    );
    assert_eq!(
        error(&d),
        AnalyseError::BareLoop {
            curve: CurveId(0),
            spot: s(1)
        }
    );
}
