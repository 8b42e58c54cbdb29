//! Hand pictures made into drawings, and the reasons a picture is refused.

use super::*;

fn s(n: u32) -> SpotId {
    SpotId::new(n).expect("not zero")
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn world() -> WorldSize {
    WorldSize::new(400.0, 300.0)
}

/// Checks the picture both ways: `reachable` and `valid` say what each legality gives (the
/// number of moves found, or a part of the reason).
#[track_caller]
fn check(picture: &HandPicture, reachable: Result<usize, &str>, valid: Result<(), &str>) {
    let d = picture.to_drawing(5.0);
    let got = d
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|d| check_picture(d, Legality::Reachable));
    match (got, reachable) {
        (Ok(l), Ok(k)) => assert_eq!(l.history.expect("asked for").moves.len(), k),
        (Err(e), Err(why)) => assert!(e.to_string().contains(why), "{e}"),
        (got, want) => panic!("reachable: got {got:?}, want {want:?}"),
    }
    let got = d
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|d| check_picture(d, Legality::Valid));
    match (got, valid) {
        (Ok(l), Ok(())) => assert!(l.history.is_none()),
        (Err(e), Err(why)) => assert!(e.to_string().contains(why), "{e}"),
        (got, want) => panic!("valid: got {got:?}, want {want:?}"),
    }
}

fn curve(from: u32, to: u32, points: &[(f64, f64)]) -> HandCurve {
    HandCurve {
        from: s(from),
        to: s(to),
        points: points.iter().map(|&(x, y)| p(x, y)).collect(),
    }
}

#[test]
fn a_move_drawn_by_hand_is_reached_and_a_bare_curve_is_only_valid() {
    // Spots 1 and 2, and the move 1 - 3 - 2 through spot 3 (a stroke with points on the
    // spots' discs, which are dropped).
    let mut pic = HandPicture {
        world: world(),
        spots: vec![p(100.0, 150.0), p(300.0, 150.0), p(200.0, 100.0)],
        curves: vec![
            curve(1, 3, &[(101.0, 149.0), (150.0, 110.0)]),
            curve(3, 2, &[(250.0, 110.0), (299.0, 149.0)]),
        ],
    };
    check(&pic, Ok(1), Ok(()));
    let d = pic.to_drawing(5.0).unwrap();
    assert_eq!(d.curves()[0].spline.start(), p(100.0, 150.0));
    assert_eq!(d.curves()[0].spline.end(), p(200.0, 100.0));
    assert_eq!(d.curves()[0].spline.n_pieces(), 2);
    // A bare curve from 1 to 2 below: valid, not reached (three curves).
    pic.curves.push(curve(1, 2, &[(200.0, 220.0)]));
    check(&pic, Err("3 curves, an odd number"), Ok(()));
    // A crossing curve is refused either way.
    pic.spots.push(p(180.0, 40.0));
    pic.spots.push(p(180.0, 280.0));
    pic.curves.push(curve(4, 5, &[]));
    check(&pic, Err("cross"), Err("cross"));
}

#[test]
fn a_spot_with_four_curves_and_other_faults_are_refused_with_the_reason() {
    // Spot 1 in the middle with four curves out to four spots.
    let pic = HandPicture {
        world: world(),
        spots: vec![
            p(200.0, 150.0),
            p(100.0, 150.0),
            p(300.0, 150.0),
            p(200.0, 50.0),
            p(200.0, 250.0),
        ],
        curves: (2..=5).map(|k| curve(1, k, &[])).collect(),
    };
    check(
        &pic,
        Err("spot 1 has 4 curve ends"),
        Err("spot 1 has 4 curve ends"),
    );
    let marks = check_picture(&pic.to_drawing(5.0).unwrap(), Legality::Valid)
        .unwrap_err()
        .marks();
    assert_eq!(marks.0, [s(1)]);
    // No spot, a loop that never leaves its spot, a curve to no spot, a point that is not a
    // number.
    let empty = HandPicture {
        world: world(),
        spots: vec![],
        curves: vec![],
    };
    check(&empty, Err("no spot"), Err("no spot"));
    let mut one = HandPicture {
        world: world(),
        spots: vec![p(50.0, 50.0)],
        curves: vec![curve(1, 1, &[(51.0, 50.0)])],
    };
    check(&one, Err("without leaving it"), Err("without leaving it"));
    one.curves = vec![curve(1, 2, &[])];
    check(&one, Err("not in the picture"), Err("not in the picture"));
    one.curves = vec![curve(1, 1, &[(f64::NAN, 3.0)])];
    check(&one, Err("not a finite number"), Err("not a finite number"));
    // A closed curve through spot 1 alone.
    one.curves = vec![curve(1, 1, &[(100.0, 20.0), (100.0, 80.0)])];
    check(&one, Err("no other spot on it"), Err("no other spot on it"));
}

#[test]
fn a_loop_move_drawn_by_hand_is_reached() {
    // Spot 1 and the loop 1 - 2 - 1 round spot 3.
    let pic = HandPicture {
        world: world(),
        spots: vec![p(100.0, 150.0), p(300.0, 150.0), p(200.0, 150.0)],
        curves: vec![
            curve(1, 2, &[(150.0, 60.0), (250.0, 60.0)]),
            curve(2, 1, &[(250.0, 240.0), (150.0, 240.0)]),
        ],
    };
    check(&pic, Ok(1), Ok(()));
}
