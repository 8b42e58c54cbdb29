//! Arbitrary pictures into `sprouts_draw::analyse`: it never panics, and a picture it reads is a
//! drawable position that it reads the same way twice and, mirrored, as the mirror image.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use sprouts_draw::{Curve, Drawing, DrawnSpot, WorldSize, analyse};
use sprouts_geom::{CubicBez, Piece, Point, Spline};
use sprouts_topo::SpotId;

#[derive(Debug, Arbitrary)]
struct SpotInput {
    id: u8,
    x: i8,
    y: i8,
    radius: u8,
}

#[derive(Debug, Arbitrary)]
struct CurveInput {
    /// Indices into the spots (taken modulo their number).
    from: u8,
    to: u8,
    /// Inner control points and knots: three points per piece, the last piece ending at `to`.
    points: Vec<(i8, i8)>,
}

#[derive(Debug, Arbitrary)]
struct Input {
    spots: Vec<SpotInput>,
    curves: Vec<CurveInput>,
    /// Exponent of a power-of-two scale (keeps coordinates exact).
    scale_exp: u8,
}

/// The picture, in coordinates `(x, y)` or mirrored `(x, -y)`.
fn picture(input: &Input, mirror: bool) -> Option<Drawing> {
    let scale = f64::from(1u32 << (input.scale_exp % 8));
    let flip = if mirror { -1.0 } else { 1.0 };
    let at = |x: i8, y: i8| Point::new(f64::from(x) * scale, flip * f64::from(y) * scale);
    let mut d = Drawing::new(WorldSize::new(256.0 * scale, 256.0 * scale)).ok()?;
    for s in input.spots.iter().take(12) {
        let _ = d.add_spot(DrawnSpot {
            id: SpotId::new(u32::from(s.id) + 1)?,
            centre: at(s.x, s.y),
            radius: f64::from(s.radius % 8) * scale / 4.0,
        });
    }
    let spots: Vec<(SpotId, Point)> = d.spots().iter().map(|s| (s.id, s.centre)).collect();
    if spots.is_empty() {
        return Some(d);
    }
    for c in input.curves.iter().take(12) {
        let (a, b) = (
            spots[usize::from(c.from) % spots.len()],
            spots[usize::from(c.to) % spots.len()],
        );
        let inner: Vec<Point> = c.points.iter().take(8).map(|&(x, y)| at(x, y)).collect();
        let mut pieces = Vec::new();
        let mut start = a.1;
        let mut k = 0;
        loop {
            let p1 = inner.get(k).copied().unwrap_or(start);
            let p2 = inner.get(k + 1).copied().unwrap_or(b.1);
            let end = if k + 3 < inner.len() {
                inner[k + 2]
            } else {
                b.1
            };
            pieces.push(Piece::new(CubicBez::new(start, p1, p2, end), 1.0));
            if end == b.1 {
                break;
            }
            start = end;
            k += 3;
        }
        if let Ok(spline) = Spline::new(pieces) {
            let _ = d.add_curve(Curve {
                from: a.0,
                to: b.0,
                spline,
                origin: None,
            });
        }
    }
    Some(d)
}

fuzz_target!(|input: Input| {
    let Some(d) = picture(&input, false) else {
        return;
    };
    let Ok(a) = analyse(&d) else {
        return;
    };
    let pos = a.position();
    pos.check_drawable()
        .expect("a picture reads back to a drawable position");
    assert_eq!(pos.spot_count(), d.spots().len());
    // Every walk's corners are the tails of its half-edges.
    for b in pos.boundaries() {
        match a.boundary(b.id()).expect("every boundary has a picture") {
            sprouts_draw::BoundaryPicture::Walk(hs) => {
                assert_eq!(hs.len(), b.corners().len());
                for (h, &c) in hs.iter().zip(b.corners()) {
                    assert_eq!(a.tail(*h), c);
                    assert_eq!(a.region_left_of(*h), b.region());
                }
            }
            sprouts_draw::BoundaryPicture::Spot(s) => assert_eq!(b.corners(), &[s]),
        }
    }
    for s in d.spots() {
        if let Some(c) = a.corner_at(s.id, Point::new(s.centre.x + 1.0, s.centre.y + 0.5)) {
            assert_eq!(pos.spot_at(c), Some(s.id));
        }
        if let Some(r) = a.region_at(Point::new(s.centre.x + 0.25, s.centre.y - 0.125)) {
            assert!(r.index() < pos.region_count());
        }
    }
    let again = analyse(&d).expect("the same picture reads the same");
    assert_eq!(again.position(), pos);
    // The mirror image reads as the mirror image: the same game key.
    if let Some(m) = picture(&input, true)
        && let Ok(b) = analyse(&m)
    {
        assert_eq!(b.position().game_key(), pos.game_key());
    }
});
