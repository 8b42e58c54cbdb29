//! Heroic mode (spec 4.7): a person's curve kept exactly as drawn, as straight pieces between
//! the sampled points of the stroke, never smoothed, routed or moved. It must merely not touch
//! or cross anything; the move is the one the curve makes, read off the picture with the curve
//! in it, and played by the board's checked transaction like any other.

use sprouts_geom::{Cut, Point, Spline};
use sprouts_topo::{Move, Position, SpotId};

use crate::analyse::Analysed;
use crate::board::Board;
use crate::drawn::DrawnMove;
use crate::route::{Refusal, RouteMethod};

/// Sampled points closer than this to the one kept before them are dropped (pixels): a
/// straight piece must have a direction.
const LEAST_PIECE: f64 = 0.5;

impl Board {
    /// Draws a person's move exactly as `stroke` goes (heroic mode, spec 4.7): from the centre
    /// of `from`, through the stroke's points outside the two spots' discs, to the centre of
    /// `to`, in straight pieces, the new spot at half its length. The curve must not touch or
    /// cross anything; the move played is the one it makes.
    ///
    /// # Errors
    /// A [`Refusal`]: a spot unknown or without the lives the curve needs, a stroke that never
    /// leaves its spots, [`Refusal::Picture`] for a curve that touches or crosses something.
    /// The board is then exactly as it was.
    pub fn draw_exact(
        &mut self,
        from: SpotId,
        to: SpotId,
        stroke: &[Point],
    ) -> Result<DrawnMove, Refusal> {
        let _span = tracing::debug_span!("draw_exact", points = stroke.len()).entered();
        let pos = self.position().clone();
        let spot = |s: SpotId| self.drawing().spot(s).ok_or(Refusal::UnknownSpot(s));
        let (a, b) = (*spot(from)?, *spot(to)?);
        let lives = |s: SpotId| pos.lives(s).map_or(0, |l| l.get());
        for s in [from, to] {
            if lives(s) == 0 {
                return Err(Refusal::NoLife(s));
            }
        }
        if from == to && lives(from) < 2 {
            return Err(Refusal::LoopNeedsTwoLives(from));
        }
        let pts = exact_polyline(stroke, (a.centre, a.radius), (b.centre, b.radius))
            .ok_or_else(|| Refusal::Fit("the stroke never leaves its spots".into()))?;
        let accuracy = 1e-6 * (1.0 + (b.centre - a.centre).norm());
        let (mv, curve, ahead) = self.move_made(&pos, (from, to), pts, accuracy)?;
        let words = mv.describe(&pos);
        let cut = curve.cut.clone();
        let curves = self
            .play_spline_cut(&mv, || Ok(cut), ahead)
            .map_err(Refusal::of_transaction)?;
        Ok(DrawnMove {
            mv,
            words,
            curves,
            route: curve.pts,
            clearance: 0.0,
            method: RouteMethod::Exact,
            equivalent_of: None,
        })
    }

    /// The move of `pos` joining `ends` that the polyline `pts` (from the first end to the
    /// second) makes: the picture with the curve in it read off, and the move whose position is
    /// that one, spot for spot. Also the curve as that move's transaction stores it (from the
    /// move's first spot) and, when it is the picture read, that reading.
    fn move_made(
        &self,
        pos: &Position,
        (from, to): (SpotId, SpotId),
        pts: Vec<Point>,
        accuracy: f64,
    ) -> Result<(Move, Exact, Option<Analysed>), Refusal> {
        let candidates: Vec<Move> = pos
            .moves()
            .filter(|m| {
                let (x, y) = m.spots();
                (x, y) == (from, to) || (x, y) == (to, from)
            })
            .collect();
        let Some(first) = candidates.first() else {
            return Err(Refusal::NotInOneRegion(from, to));
        };
        // Read with the curve as the first candidate's transaction stores it.
        let curve = Exact::new(pts, first.spots().0 == from, accuracy)?;
        let (x, y) = first.spots();
        let mut drawing = self.drawing().clone();
        drawing
            .add_move_curves(
                (x, first.new_spot(), y),
                curve.cut.first.clone(),
                curve.cut.second.clone(),
                u32::try_from(self.moves().len()).unwrap_or(u32::MAX),
                self.settings().spot_radius,
            )
            .map_err(|e| Refusal::Fit(e.to_string()))?;
        let read = Analysed::new(drawing).map_err(|e| Refusal::Picture(e.to_string()))?;
        let found = read.analysis().position();
        let mv = candidates
            .iter()
            .find(|m| pos.play(m).is_ok_and(|p| same_spot_for_spot(&p, found)))
            .cloned()
            .ok_or_else(|| {
                Refusal::Mismatch(format!(
                    "the curve makes {}, which no move joining {from} and {to} gives",
                    found.to_glop()
                ))
            })?;
        if mv.spots().0 == x {
            return Ok((mv, curve, Some(read)));
        }
        // The move names its spots the other way round: the curve is stored reversed.
        let reversed = Exact::new(curve.pts, false, accuracy)?;
        Ok((mv, reversed, None))
    }
}

/// A curve kept exactly: its points and the spline of straight pieces through them, cut where
/// the new spot goes.
struct Exact {
    pts: Vec<Point>,
    cut: Cut,
}

impl Exact {
    /// `pts` (reversed unless `forward`) as straight pieces, cut near half their length.
    fn new(mut pts: Vec<Point>, forward: bool, accuracy: f64) -> Result<Exact, Refusal> {
        if !forward {
            pts.reverse();
        }
        let cut = Spline::polyline(&pts)
            .and_then(|s| s.cut_near_middle(accuracy))
            .map_err(|e| Refusal::Fit(e.to_string()))?;
        Ok(Exact { pts, cut })
    }
}

/// The stroke as the curve keeps it: the centre of the first spot, the stroke's points from
/// where it last leaves that spot's disc to where it first enters the other's (for a loop,
/// from its first exit to its last entry), the centre of the second spot; near-duplicate
/// points dropped. `None` when nothing of the stroke lies outside the discs.
fn exact_polyline(
    stroke: &[Point],
    (ca, ra): (Point, f64),
    (cb, rb): (Point, f64),
) -> Option<Vec<Point>> {
    let outside = |p: &Point| (*p - ca).norm() > ra && (*p - cb).norm() > rb;
    let loop_ = (ca - cb).norm() < 1e-9;
    let start = if loop_ {
        stroke.iter().position(outside)?
    } else {
        // The last point inside the first disc, then the one after it.
        stroke
            .iter()
            .rposition(|p| (*p - ca).norm() <= ra)
            .map_or(0, |i| i + 1)
    };
    let end = if loop_ {
        stroke.iter().rposition(outside)?
    } else {
        stroke
            .iter()
            .position(|p| (*p - cb).norm() <= rb)
            .map_or(stroke.len(), |i| i)
            .checked_sub(1)?
    };
    if start > end {
        return None;
    }
    let mut pts = vec![ca];
    for p in stroke[start..=end].iter().filter(|p| outside(p)) {
        if (*p - *pts.last().expect("not empty")).norm() >= LEAST_PIECE {
            pts.push(*p);
        }
    }
    if (cb - *pts.last().expect("not empty")).norm() < LEAST_PIECE {
        pts.pop();
    }
    pts.push(cb);
    (pts.len() >= 3 || (!loop_ && pts.len() == 2)).then_some(pts)
}

/// Whether two positions are the same spot for spot: the same regions, each with the same
/// boundaries as cyclic sequences of spots, in either orientation of the whole picture.
fn same_spot_for_spot(a: &Position, b: &Position) -> bool {
    a.game_key() == b.game_key() && crate::board::region_forms_match(a, b)
}

#[cfg(test)]
mod tests {
    use sprouts_geom::Point;
    use sprouts_topo::SpotId;

    use crate::{Board, Settings, WorldSize};

    fn board() -> Board {
        Board::new(3, WorldSize::new(600.0, 400.0), Settings::default()).expect("a board")
    }

    fn centre(b: &Board, s: u32) -> Point {
        b.drawing()
            .spot(SpotId::new(s).unwrap())
            .expect("a spot")
            .centre
    }

    /// A loop drawn by hand round spot 2 (and not 3) is kept exactly: its points are the
    /// stroke's, the move is the one it makes, one undo takes it back; a stroke through another
    /// spot or across a curve is refused with the board unchanged.
    #[test]
    fn a_curve_is_kept_exactly_as_drawn_or_refused() {
        let mut b = board();
        let before = b.to_json();
        let (c1, c2) = (centre(&b, 1), centre(&b, 2));
        let s = |n| SpotId::new(n).unwrap();
        // Round spot 2 at 30 px, from spot 1 and back.
        let mut stroke = vec![c1];
        let toward = (c1.y - c2.y).atan2(c1.x - c2.x);
        for t in 0..=60 {
            let ang = toward + 0.3 + f64::from(t) / 60.0 * (std::f64::consts::TAU - 0.6);
            stroke.push(Point::new(c2.x + 30.0 * ang.cos(), c2.y + 30.0 * ang.sin()));
        }
        stroke.push(c1);
        // From spot 3 to spot 1, the move naming its spots the other way round: kept, and
        // taken back.
        let c3 = centre(&b, 3);
        let bend = Point::new(0.5 * (c1.x + c3.x) + 40.0, 0.5 * (c1.y + c3.y) + 40.0);
        let drawn = b
            .draw_exact(s(3), s(1), &[c3, bend, c1])
            .expect("drawn from 3");
        assert!(drawn.route.iter().any(|p| (*p - bend).norm() < 1e-9));
        b.undo().expect("undo");
        assert_eq!(b.to_json(), before);
        // Straight through spot 2: refused.
        let through = vec![c1, c2 + (c2 - c1), c1 + (c2 - c1) * 3.0];
        let e = b.draw_exact(s(1), s(3), &through).unwrap_err();
        assert!(matches!(e, crate::Refusal::Picture(_)), "{e}");
        assert_eq!(b.to_json(), before);
        let drawn = b.draw_exact(s(1), s(1), &stroke).expect("drawn");
        assert!(drawn.words.contains("enclosing 2"), "{}", drawn.words);
        // Every point kept is a point of the stroke (or a spot's centre).
        for p in &drawn.route {
            assert!(
                stroke.iter().any(|q| (*q - *p).norm() < 1e-9),
                "{p:?} is not a point drawn"
            );
        }
        assert!(drawn.route.len() > 50);
        assert_eq!(b.moves().len(), 1);
        // From spot 3 into the loop and out to its new spot 4: it crosses the loop, refused,
        // nothing changed.
        let after = b.to_json();
        let c3 = centre(&b, 3);
        let c4 = centre(&b, 4);
        let inside = c2 + (c3 - c2) * (12.0 / (c3 - c2).norm());
        let e = b.draw_exact(s(3), s(4), &[c3, inside, c4]).unwrap_err();
        assert!(matches!(e, crate::Refusal::Picture(_)), "{e}");
        assert_eq!(b.to_json(), after);
        b.undo().expect("undo");
        assert_eq!(b.to_json(), before);
    }
}
