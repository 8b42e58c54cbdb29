//! Hand-built pictures for every case of spec 2.3, read back to the positions they show.
//!
//! Each case is checked twice: against a position written out by hand (as a `sprouts-topo`
//! setup, compared by game key), and as a snapshot of the regions in the order `analyse` gives
//! them (re-bless with `INSTA_UPDATE=always cargo test`).

mod common;

use common::{expected, picture, s, several_boundaries, with_loops};
use sprouts_draw::{Analysis, Drawing, Sector, analyse};
use sprouts_geom::Point;
use sprouts_topo::Position;

/// The regions as `analyse` orders them, boundaries as spot sequences, then the lives.
fn describe(a: &Analysis) -> String {
    let p = a.position();
    let mut out = String::new();
    for r in p.regions() {
        let bs: Vec<String> = r
            .boundaries()
            .map(|b| {
                b.corners()
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join("-")
            })
            .collect();
        let kind = if Some(r.id()) == a.outside() {
            "outside"
        } else {
            "inner face"
        };
        out.push_str(&format!(
            "{kind}: {} ({} lives)\n",
            bs.join(" . "),
            r.lives()
        ));
    }
    let lives: Vec<String> = p.spots().map(|(s, l)| format!("{s}:{l}")).collect();
    out.push_str(&format!("lives {}\n", lives.join(" ")));
    out
}

#[track_caller]
fn check(name: &str, d: &Drawing, want: &[&[&[u32]]]) -> Analysis {
    let a = analyse(d).unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = expected(want);
    assert_eq!(
        a.position().game_key(),
        want.game_key(),
        "{name}: read {:?}, expected {want:?}",
        a.position()
    );
    insta::assert_snapshot!(name, describe(&a));
    a
}

#[test]
fn a_path() {
    let d = picture(
        &[(1, 100.0, 300.0), (2, 500.0, 300.0), (3, 300.0, 280.0)],
        &[(1, 3, &[(200.0, 250.0)]), (3, 2, &[(400.0, 320.0)])],
    );
    let a = check("a_path", &d, &[&[&[1, 3, 2, 3]]]);
    // Spot 3 in the middle of the path has two corners, one on each side.
    let above = a.corner_at(s(3), Point::new(300.0, 200.0)).unwrap();
    let below = a.corner_at(s(3), Point::new(300.0, 400.0)).unwrap();
    assert_ne!(above, below);
    for c in [above, below] {
        assert_eq!(a.position().spot_at(c), Some(s(3)));
        // The corner's angle lies between the two curves at 3, and a point in it finds the
        // corner again.
        match a.corner_sector(c).unwrap() {
            Sector::Between { leave, arrive } => {
                assert_eq!(a.tail(leave), s(3));
                assert_eq!(a.head(arrive), s(3));
                assert_eq!(a.corner_of(leave), c);
            }
            other => panic!("{other:?}"),
        }
    }
    let lone = picture(&[(1, 100.0, 100.0)], &[]);
    let la = analyse(&lone).unwrap();
    let c = la.corner_at(s(1), Point::new(0.0, 0.0)).unwrap();
    assert_eq!(la.corner_sector(c), Some(Sector::Full(s(1))));
    assert_eq!(a.region_at(Point::new(10.0, 10.0)), a.outside());
}

#[test]
fn a_loop() {
    let d = with_loops(
        &[(1, 100.0, 300.0), (2, 500.0, 300.0)],
        &[(1, 2, 300.0, 300.0, 200.0)],
        &[],
    );
    let a = check("a_loop", &d, &[&[&[1, 2]], &[&[2, 1]]]);
    let inside = a.region_at(Point::new(300.0, 300.0)).unwrap();
    assert_ne!(Some(inside), a.outside());
    assert_eq!(a.face_walk(inside).map(<[_]>::len), Some(2));
}

#[test]
fn parallel_curves() {
    // Two curves between spots 1 and 2, through 3 above and 4 below.
    let d = picture(
        &[
            (1, 100.0, 300.0),
            (2, 500.0, 300.0),
            (3, 300.0, 200.0),
            (4, 300.0, 400.0),
        ],
        &[
            (1, 3, &[(180.0, 230.0)]),
            (3, 2, &[(420.0, 230.0)]),
            (1, 4, &[(180.0, 370.0)]),
            (4, 2, &[(420.0, 370.0)]),
        ],
    );
    check("parallel_curves", &d, &[&[&[1, 3, 2, 4]], &[&[1, 4, 2, 3]]]);
}

#[test]
fn a_component_inside_a_face() {
    // A loop at 1 through 2 round a path 3-5-4.
    let d = with_loops(
        &[
            (1, 100.0, 300.0),
            (2, 500.0, 300.0),
            (3, 220.0, 300.0),
            (4, 380.0, 300.0),
            (5, 300.0, 310.0),
        ],
        &[(1, 2, 300.0, 300.0, 200.0)],
        &[(3, 5, &[(260.0, 280.0)]), (5, 4, &[(340.0, 330.0)])],
    );
    check(
        "a_component_inside_a_face",
        &d,
        &[&[&[1, 2]], &[&[2, 1], &[3, 5, 4, 5]]],
    );
}

#[test]
fn a_spot_alone_inside_a_face() {
    let d = with_loops(
        &[
            (1, 100.0, 300.0),
            (2, 500.0, 300.0),
            (3, 300.0, 300.0),
            (4, 560.0, 560.0),
        ],
        &[(1, 2, 300.0, 300.0, 200.0)],
        &[],
    );
    let a = check(
        "a_spot_alone_inside_a_face",
        &d,
        &[&[&[1, 2], &[4]], &[&[2, 1], &[3]]],
    );
    assert_eq!(
        a.region_at(Point::new(300.0, 250.0)),
        a.corner_at(s(3), Point::new(0.0, 0.0))
            .and_then(|c| a.position().region_of(c.boundary))
    );
}

#[test]
fn nested_cycles() {
    // Three loops, each inside the last, and a seed in the innermost.
    let d = with_loops(
        &[
            (1, 40.0, 300.0),
            (2, 560.0, 300.0),
            (3, 120.0, 300.0),
            (4, 480.0, 300.0),
            (5, 200.0, 300.0),
            (6, 400.0, 300.0),
            (7, 300.0, 300.0),
        ],
        &[
            (1, 2, 300.0, 300.0, 260.0),
            (3, 4, 300.0, 300.0, 180.0),
            (5, 6, 300.0, 300.0, 100.0),
        ],
        &[],
    );
    let a = check(
        "nested_cycles",
        &d,
        &[
            &[&[1, 2]],
            &[&[2, 1], &[3, 4]],
            &[&[4, 3], &[5, 6]],
            &[&[6, 5], &[7]],
        ],
    );
    // The point location follows the nesting.
    let at = |x: f64| a.region_at(Point::new(x, 300.0)).unwrap();
    let regions = [at(20.0), at(80.0), at(160.0), at(250.0)];
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(regions[i], regions[j]);
        }
    }
    assert_eq!(Some(regions[0]), a.outside());
}

#[test]
fn a_region_with_several_boundaries() {
    let d = several_boundaries();
    let a = check(
        "a_region_with_several_boundaries",
        &d,
        &[
            &[&[1, 2]],
            &[&[2, 1], &[3], &[4, 6, 5, 6], &[8, 7]],
            &[&[7, 8]],
        ],
    );
    let big = a.region_at(Point::new(300.0, 250.0)).unwrap();
    assert_eq!(a.position().region(big).unwrap().boundary_count(), 4);
}

/// The orientation convention of `sprouts-topo`: every boundary walked with its region on the
/// left, in the picture's coordinates read as a y-up frame. The region inside the triangle has
/// two boundaries: the triangle and a star of three curves round spot 7. Reversing the star's
/// boundary alone is another position (the order of 8, 9, 10 round 7 against the triangle's),
/// which the authority check would catch.
#[test]
fn orientation_is_the_one_sprouts_topo_uses() {
    let d = picture(
        &[
            (1, 100.0, 100.0),
            (2, 500.0, 100.0),
            (3, 300.0, 450.0),
            (7, 300.0, 250.0),
            (8, 300.0, 180.0),
            (9, 370.0, 300.0),
            (10, 230.0, 300.0),
        ],
        &[
            (1, 2, &[(300.0, 90.0)]),
            (2, 3, &[(410.0, 280.0)]),
            (3, 1, &[(190.0, 280.0)]),
            (7, 8, &[(302.0, 215.0)]),
            (7, 9, &[(335.0, 277.0)]),
            (7, 10, &[(265.0, 273.0)]),
        ],
    );
    // In y-up coordinates 1 -> 2 -> 3 runs counter-clockwise (positive shoelace area): the inside
    // of the triangle is on its left. Round spot 7 the curves leave by increasing angle to 9,
    // 10, 8, and the walk round the star with the triangle's inside on its left turns to the
    // curve just before the one it came along: 7, 8, 7, 10, 7, 9.
    let want: &[&[&[u32]]] = &[&[&[1, 3, 2]], &[&[1, 2, 3], &[7, 8, 7, 10, 7, 9]]];
    let a = check("orientation", &d, want);
    // Exactly, not only up to the mirror image: the boundaries at their least rotation.
    let norm = |p: &Position| {
        let mut rs: Vec<Vec<Vec<u32>>> = p
            .regions()
            .map(|r| {
                let mut bs: Vec<Vec<u32>> = r
                    .boundaries()
                    .map(|b| {
                        let mut cs: Vec<u32> = b.corners().iter().map(|c| c.get()).collect();
                        let k = (0..cs.len())
                            .min_by(|&a, &b| {
                                cs[a..]
                                    .iter()
                                    .chain(&cs[..a])
                                    .cmp(cs[b..].iter().chain(&cs[..b]))
                            })
                            .unwrap();
                        cs.rotate_left(k);
                        cs
                    })
                    .collect();
                bs.sort();
                bs
            })
            .collect();
        rs.sort();
        rs
    };
    assert_eq!(norm(a.position()), norm(&expected(want)));
    // One boundary reversed is another position: its key differs.
    let one_reversed = expected(&[&[&[1, 3, 2]], &[&[1, 2, 3], &[9, 7, 10, 7, 8, 7]]]);
    assert_ne!(a.position().game_key(), one_reversed.game_key());
    // The mirror image is the same position.
    assert_eq!(a.position().game_key(), a.position().mirrored().game_key());
}
