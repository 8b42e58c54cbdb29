//! The stable serde representation of splines (saved games store them).
//!
//! A spline is written as `{"pieces": [{"h": H, "points": [[x0, y0], [x1, y1], [x2, y2],
//! [x3, y3]]}, ...]}`. This layout is independent of the representation of the point type and
//! is part of the crate's stable interface: changing it is a breaking change. Reading checks
//! every invariant of [`Spline`] and reports the first violation.

use serde::{Deserialize, Serialize};

use crate::{CubicBez, Piece, Point, Spline, SplineError};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceRepr {
    h: f64,
    points: [[f64; 2]; 4],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SplineRepr {
    pieces: Vec<PieceRepr>,
}

impl Serialize for Spline {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let repr = SplineRepr {
            pieces: self
                .pieces()
                .iter()
                .map(|p| PieceRepr {
                    h: p.h,
                    points: p.bez.points().map(|q| [q.x, q.y]),
                })
                .collect(),
        };
        repr.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Spline {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Spline, D::Error> {
        let repr = SplineRepr::deserialize(deserializer)?;
        let pieces = repr
            .pieces
            .into_iter()
            .map(|p| {
                let [a, b, c, d] = p.points.map(|[x, y]| Point::new(x, y));
                Piece::new(CubicBez::new(a, b, c, d), p.h)
            })
            .collect();
        Spline::new(pieces).map_err(|e: SplineError| serde::de::Error::custom(e))
    }
}
