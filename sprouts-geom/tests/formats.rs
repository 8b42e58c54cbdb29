//! The stable formats: serde JSON of splines (a fixed sample) and SVG path data.

use sprouts_geom::{CubicBez, Piece, Point, Spline};

/// Two pieces meeting at (30, 10); the sample a saved game would contain.
fn sample() -> Spline {
    let p = Point::new;
    Spline::new(vec![
        Piece::new(
            CubicBez::new(p(0.0, 0.0), p(10.0, -5.0), p(20.0, 0.5), p(30.0, 10.0)),
            32.5,
        ),
        Piece::new(
            CubicBez::new(p(30.0, 10.0), p(40.0, 19.5), p(55.25, 20.0), p(60.0, 0.0)),
            41.0,
        ),
    ])
    .unwrap()
}

#[cfg(feature = "serde")]
const SAMPLE_JSON: &str = r#"{"pieces":[{"h":32.5,"points":[[0.0,0.0],[10.0,-5.0],[20.0,0.5],[30.0,10.0]]},{"h":41.0,"points":[[30.0,10.0],[40.0,19.5],[55.25,20.0],[60.0,0.0]]}]}"#;

#[cfg(feature = "serde")]
#[test]
fn json_format_is_stable() {
    assert_eq!(serde_json::to_string(&sample()).unwrap(), SAMPLE_JSON);
    let back: Spline = serde_json::from_str(SAMPLE_JSON).unwrap();
    assert_eq!(back, sample());
}

#[cfg(feature = "serde")]
#[test]
fn json_round_trips_arbitrary_floats() {
    let p = Point::new;
    let s = Spline::from_cubic(
        CubicBez::new(
            p(0.1, 1.0 / 3.0),
            p(1e-300, -2.5e17),
            p(3.0, 4.0),
            p(5.0, 6.0),
        ),
        std::f64::consts::PI,
    )
    .unwrap();
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<Spline>(&json).unwrap(), s);
}

#[cfg(feature = "serde")]
#[test]
fn json_reading_checks_invariants() {
    let cases = [
        (r#"{"pieces":[]}"#, "at least one piece"),
        (
            r#"{"pieces":[{"h":0.0,"points":[[0,0],[1,0],[2,0],[3,0]]}]}"#,
            "parameter length",
        ),
        (
            r#"{"pieces":[{"h":1.0,"points":[[0,0],[1,0],[2,0],[3,0]]},{"h":1.0,"points":[[4,0],[5,0],[6,0],[7,0]]}]}"#,
            "ends at",
        ),
        (
            r#"{"pieces":[{"h":1.0,"points":[[0,0],[1,0],[2,0]]}]}"#,
            "4",
        ),
        (r#"{"pieces":[],"extra":1}"#, "unknown field"),
        (
            r#"{"pieces":[{"h":1.0,"points":[[0,0],[1,0],[2,0],[3,"x"]]}]}"#,
            "invalid type",
        ),
    ];
    for (json, why) in cases {
        let err = serde_json::from_str::<Spline>(json)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(why),
            "{json}: error {err:?} does not mention {why:?}"
        );
    }
}

#[test]
fn svg_path_data() {
    assert_eq!(
        sample().svg_path(),
        "M0 0 C10 -5 20 0.5 30 10 C40 19.5 55.25 20 60 0"
    );
    let p = Point::new;
    let s = Spline::from_cubic(
        CubicBez::new(
            p(-0.0001, 2.0 / 3.0),
            p(1e6, -1.23456),
            p(0.0005, 0.0),
            p(7.0, 8.0),
        ),
        1.0,
    )
    .unwrap();
    assert_eq!(s.svg_path(), "M0 0.667 C1000000 -1.235 0.001 0 7 8");
    let mut out = String::new();
    s.write_svg_path(&mut out, 1).unwrap();
    assert_eq!(out, "M0 0.7 C1000000 -1.2 0 0 7 8");
}
