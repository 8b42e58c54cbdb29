//! The quality report on hand-built pictures whose answers are known.

use sprouts_geom::{CubicBez, Piece, Point, Spline};
use sprouts_topo::SpotId;

use super::*;
use crate::drawing::{Curve, CurveOrigin, Drawing, DrawnSpot, Half, Settings, WorldSize};

fn s(n: u32) -> SpotId {
    SpotId::new(n).unwrap()
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A picture of `spots` (`(x, y, radius)`, numbered from 1) and curves, each a chain of cubics
/// given by their control points, from spot to spot.
fn picture(
    world: (f64, f64),
    spots: &[(f64, f64, f64)],
    curves: &[(u32, u32, Vec<[Point; 4]>)],
) -> Drawing {
    let mut d = Drawing::new(WorldSize::new(world.0, world.1)).unwrap();
    for (k, &(x, y, radius)) in spots.iter().enumerate() {
        d.add_spot(DrawnSpot {
            id: s(k as u32 + 1),
            centre: p(x, y),
            radius,
        })
        .unwrap();
    }
    for (from, to, cubics) in curves {
        let pieces = cubics
            .iter()
            .map(|c| {
                let bez = CubicBez::new(c[0], c[1], c[2], c[3]);
                Piece::new(bez, bez.polygon_length())
            })
            .collect();
        d.add_curve(Curve {
            from: s(*from),
            to: s(*to),
            spline: Spline::new(pieces).unwrap(),
            origin: None,
        })
        .unwrap();
    }
    d
}

/// A straight cubic from `a` to `b`.
fn line(a: Point, b: Point) -> [Point; 4] {
    let bez = CubicBez::line(a, b);
    [bez.p0, bez.p1, bez.p2, bez.p3]
}

fn quality(d: &Drawing) -> PictureQuality {
    PictureQuality::of(d, &Settings::default())
}

#[test]
fn parallel_curves_6_px_apart_are_all_crowded() {
    let d = picture(
        (1000.0, 600.0),
        &[
            (100.0, 200.0, 2.0),
            (500.0, 200.0, 2.0),
            (100.0, 206.0, 2.0),
            (500.0, 206.0, 2.0),
        ],
        &[
            (1, 2, vec![line(p(100.0, 200.0), p(500.0, 200.0))]),
            (3, 4, vec![line(p(100.0, 206.0), p(500.0, 206.0))]),
        ],
    );
    let q = quality(&d);
    assert!((q.curve_length - 800.0).abs() < 1e-9, "{}", q.curve_length);
    assert_eq!(q.within_8, 1.0);
    assert_eq!(q.within_20, 1.0);
    // The nearest things are the spots at the ends: 6 px between centres, 2 px radius each.
    let g = q.least_gap.unwrap();
    assert!((g.pixels - 2.0).abs() < 1e-9, "{g:?}");
    assert!(matches!(
        (g.between, g.and),
        (Thing::Spot(_), Thing::Spot(_))
    ));
    assert_eq!(q.sharpest_turn, 0.0);
    assert_eq!(q.sharp_starts, 0);
    // Radius 2 against the settings' 5: all four are shrunk.
    assert_eq!(q.spots_shrunk, 4);
    assert_eq!(q.labels_clipped, 0);
}

#[test]
fn curves_30_px_apart_are_not_crowded() {
    let d = picture(
        (1000.0, 600.0),
        &[
            (100.0, 200.0, 5.0),
            (500.0, 200.0, 5.0),
            (100.0, 230.0, 5.0),
            (500.0, 230.0, 5.0),
        ],
        &[
            (1, 2, vec![line(p(100.0, 200.0), p(500.0, 200.0))]),
            (3, 4, vec![line(p(100.0, 230.0), p(500.0, 230.0))]),
        ],
    );
    let q = quality(&d);
    assert_eq!(q.within_8, 0.0);
    assert_eq!(q.within_20, 0.0);
    assert_eq!(q.spots_shrunk, 0);
    // Spot to spot: 30 - 5 - 5.
    assert!((q.least_gap_pixels() - 20.0).abs() < 1e-9, "{q}");
}

#[test]
fn part_of_a_curve_beside_another_is_crowded() {
    // The second curve runs 7 px below the first from x = 300 to 480 only, then turns away.
    let d = picture(
        (1000.0, 800.0),
        &[
            (100.0, 200.0, 5.0),
            (500.0, 200.0, 5.0),
            (300.0, 700.0, 5.0),
            (480.0, 700.0, 5.0),
        ],
        &[
            (1, 2, vec![line(p(100.0, 200.0), p(500.0, 200.0))]),
            (
                3,
                4,
                vec![
                    line(p(300.0, 700.0), p(300.0, 207.0)),
                    line(p(300.0, 207.0), p(480.0, 207.0)),
                    line(p(480.0, 207.0), p(480.0, 700.0)),
                ],
            ),
        ],
    );
    let q = quality(&d);
    // Crowded: curve 1 from x = 300 to 480, and sqrt(8² - 7²) px beyond each corner; curve 2
    // along y = 207, and the pixel of each upright leg next to its corner.
    let total = 400.0 + 493.0 + 180.0 + 493.0;
    let crowded = 180.0 + 2.0 * 15f64.sqrt() + 180.0 + 2.0;
    assert!(
        (q.within_8 - crowded / total).abs() < 4.0 / total,
        "{} against {}",
        q.within_8,
        crowded / total
    );
    // Within 20 px: curve 1 along y = 207 and sqrt(20² - 7²) px beyond each corner, curve 2
    // its 180 px and 13 px of each upright leg.
    let near = (2.0 * (400f64 - 49.0).sqrt() + 180.0) + (180.0 + 26.0);
    assert!(
        (q.within_20 - near / total).abs() < 6.0 / total,
        "{} against {}",
        q.within_20,
        near / total
    );
    // Curve against curve: 7 px; spots are farther.
    let g = q.least_gap.unwrap();
    assert!((g.pixels - 7.0).abs() < 1e-9, "{g:?}");
    assert_eq!((g.between, g.and), (Thing::Curve(0), Thing::Curve(1)));
    // Two right angles, far from the spots, and the report says where one of them is.
    assert!((q.sharpest_turn - 90.0).abs() < 1e-6, "{}", q.sharpest_turn);
    let at = q.sharpest_turn_at.expect("curves");
    assert!(
        [p(300.0, 207.0), p(480.0, 207.0)]
            .iter()
            .any(|&corner| (at - corner).norm() <= 16.0),
        "{at:?}"
    );
    assert!(q.to_string().contains(" at ("), "{q}");
    assert_eq!(q.sharp_starts, 0);
}

#[test]
fn least_gap_between_curves_is_found_between_samples() {
    // A U whose lowest point (t = 1/2) is 25 px from a straight curve; the samples of the U
    // need not fall on that point.
    let d = picture(
        (1000.0, 1000.0),
        &[
            (100.0, 200.0, 5.0),
            (500.0, 200.0, 5.0),
            (200.0, 600.0, 5.0),
            (400.0, 600.0, 5.0),
        ],
        &[
            (1, 2, vec![line(p(100.0, 200.0), p(500.0, 200.0))]),
            (
                3,
                4,
                vec![[
                    p(200.0, 600.0),
                    p(200.0, 100.0),
                    p(400.0, 100.0),
                    p(400.0, 600.0),
                ]],
            ),
        ],
    );
    let q = quality(&d);
    let g = q.least_gap.unwrap();
    assert_eq!((g.between, g.and), (Thing::Curve(0), Thing::Curve(1)));
    assert!((g.pixels - 25.0).abs() < 0.05, "{g:?}");
}

#[test]
fn a_corner_just_past_a_spot_is_a_sharp_start() {
    // From spot 1 right for 12 px, then straight down: the corner is 7 px past the disc.
    let d = picture(
        (600.0, 600.0),
        &[(100.0, 100.0, 5.0), (112.0, 400.0, 5.0)],
        &[(
            1,
            2,
            vec![
                line(p(100.0, 100.0), p(112.0, 100.0)),
                line(p(112.0, 100.0), p(112.0, 400.0)),
            ],
        )],
    );
    let q = quality(&d);
    assert_eq!(q.sharp_starts, 1);
    assert!((q.sharpest_turn - 90.0).abs() < 1e-6);
    // The same corner 100 px from the spot is sharp, but not a sharp start.
    let d = picture(
        (600.0, 600.0),
        &[(100.0, 100.0, 5.0), (200.0, 400.0, 5.0)],
        &[(
            1,
            2,
            vec![
                line(p(100.0, 100.0), p(200.0, 100.0)),
                line(p(200.0, 100.0), p(200.0, 400.0)),
            ],
        )],
    );
    let q = quality(&d);
    assert_eq!(q.sharp_starts, 0);
    assert!((q.sharpest_turn - 90.0).abs() < 1e-6);
}

#[test]
fn a_gentle_arc_turns_by_its_curvature() {
    // A quarter circle of radius 200 (the standard cubic, within 0.03% of the circle): over
    // 16 px of arc it turns 16 / 200 radians.
    let r = 200.0;
    let k = 0.552_284_749_8 * r;
    let (cx, cy) = (100.0, 500.0);
    let d = picture(
        (800.0, 800.0),
        &[(cx + r, cy, 5.0), (cx, cy - r, 5.0)],
        &[(
            1,
            2,
            vec![[
                p(cx + r, cy),
                p(cx + r, cy - k),
                p(cx + k, cy - r),
                p(cx, cy - r),
            ]],
        )],
    );
    let q = quality(&d);
    let want = (16.0 / r).to_degrees();
    assert!(
        (q.sharpest_turn - want).abs() < 0.2 * want,
        "{} against {want}",
        q.sharpest_turn
    );
    assert_eq!(q.within_8, 0.0);
}

#[test]
fn a_hairpin_is_crowded_against_itself() {
    // Right for 300 px, round a half circle of radius 3, back left 6 px below.
    let k = 0.552_284_749_8 * 3.0;
    let d = picture(
        (800.0, 600.0),
        &[(100.0, 100.0, 2.0), (100.0, 106.0, 2.0)],
        &[(
            1,
            2,
            vec![
                line(p(100.0, 100.0), p(400.0, 100.0)),
                [
                    p(400.0, 100.0),
                    p(400.0 + k, 100.0),
                    p(403.0, 103.0 - k),
                    p(403.0, 103.0),
                ],
                [
                    p(403.0, 103.0),
                    p(403.0, 103.0 + k),
                    p(400.0 + k, 106.0),
                    p(400.0, 106.0),
                ],
                line(p(400.0, 106.0), p(100.0, 106.0)),
            ],
        )],
    );
    let q = quality(&d);
    assert!(q.within_8 > 0.9, "{q}");
    let g = q.least_gap.unwrap();
    assert!((g.pixels - 2.0).abs() < 1e-9, "{g:?}");
    // The curve against itself, in its straight stretches: 6 px.
    assert!(q.sharpest_turn > 170.0, "{}", q.sharpest_turn);
}

#[test]
fn curves_meeting_at_a_spot_are_not_crowded_there() {
    // Two curves leave spot 1 at a right angle.
    let mut d = picture(
        (800.0, 800.0),
        &[
            (100.0, 100.0, 5.0),
            (500.0, 100.0, 5.0),
            (100.0, 500.0, 5.0),
        ],
        &[
            (3, 1, vec![line(p(100.0, 500.0), p(100.0, 100.0))]),
            (1, 2, vec![line(p(100.0, 100.0), p(500.0, 100.0))]),
        ],
    );
    let q = quality(&d);
    assert_eq!(q.within_8, 0.0);
    // Two curves of different moves at a seed: no turn of a curve.
    assert_eq!(q.sharpest_turn, 0.0);
    // The curves are not measured against each other at spot 1, and spots 2 and 3 are 95 px
    // from the frame.
    assert!((q.least_gap_pixels() - 95.0).abs() < 1e-9, "{q}");
    // The two halves of one move through its spot 1: the line turns by the right angle there.
    let halves = [(0, Half::First), (1, Half::Second)];
    let mut e = Drawing::new(d.world()).unwrap();
    for spot in d.spots() {
        e.add_spot(*spot).unwrap();
    }
    for (k, half) in halves {
        let mut c = d.curves()[k].clone();
        c.origin = Some(CurveOrigin {
            move_index: 0,
            half,
        });
        e.add_curve(c).unwrap();
    }
    d = e;
    let q = quality(&d);
    assert!((q.sharpest_turn - 90.0).abs() < 1e-6, "{}", q.sharpest_turn);
}

#[test]
fn labels_past_the_frame_are_clipped_and_the_hull_measures_the_window_used() {
    let d = picture(
        (400.0, 300.0),
        &[
            (10.0, 10.0, 5.0),
            (390.0, 10.0, 5.0),
            (390.0, 290.0, 5.0),
            (10.0, 290.0, 5.0),
            (200.0, 150.0, 5.0),
        ],
        &[],
    );
    let q = quality(&d);
    // Spot 1's label rises above the top (its baseline is at y = 3); spots 2 and 3 run off the
    // right edge; spots 4 and 5 fit.
    assert_eq!(q.labels_clipped, 3);
    // The hull of the four corner discs: 390 x 290 less four small corners of the octagons.
    let want = 390.0 * 290.0 / (400.0 * 300.0);
    assert!(
        q.window_used < want && q.window_used > want - 0.002,
        "{}",
        q.window_used
    );
    // Spots 1 to 4 are 5 px from the frame.
    assert!((q.least_gap_pixels() - 5.0).abs() < 1e-9);
    let g = q.least_gap.unwrap();
    assert_eq!(g.and, Thing::Frame);
}

#[test]
fn an_empty_picture_has_no_gap() {
    let d = picture((400.0, 300.0), &[], &[]);
    let q = quality(&d);
    assert_eq!(q.least_gap, None);
    assert_eq!(q.curve_length, 0.0);
    assert_eq!(q.within_8, 0.0);
    assert_eq!(q.window_used, 0.0);
}
