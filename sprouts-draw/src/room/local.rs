//! M on the ladder (spec 4.1, 4.3, 4.4): room made locally for a waiting move, then the move
//! tried again. First the spots at the narrow place the refusal names slide (or every spot
//! that can move, when it names none that can); then, while the move is still refused,
//! rounds of pushing the curves near its ghost apart, the ghost being the last way the router
//! found for the move (the next round's ghost is the way found after the push). Rounds go on
//! while the room round the ghost keeps growing, three at most.

use std::sync::atomic::{AtomicBool, Ordering};

use sprouts_geom::Point;
use sprouts_topo::SpotId;

use super::RelaxOptions;
use super::push::{PushReport, push_words};
use super::slide::{SlideReport, movable_spots, slide_words};
use crate::board::Board;
use crate::drawn::DrawnMove;
use crate::route::Refusal;

/// The most rounds of pushing for one move.
pub const PUSH_ROUNDS: usize = 3;

/// The least growth of the room round the ghost (pixels) for another round of pushing.
const LEAST_GROWTH: f64 = 0.5;

/// What M did for a move.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LocalReport {
    /// The slide, if it moved any spot.
    pub slide: Option<SlideReport>,
    /// The rounds of pushing, in order.
    pub pushes: Vec<PushReport>,
}

/// M's report in words for the log.
pub fn local_words(r: &LocalReport) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(s) = &r.slide {
        parts.push(slide_words(s));
    }
    for p in &r.pushes {
        parts.push(push_words(p));
    }
    if parts.is_empty() {
        "M: nothing changed".into()
    } else {
        format!("M: {}", parts.join("; "))
    }
}

/// The spots at the narrow place a refusal names (the move asked's, for a refusal of a move
/// and its equivalents).
pub(crate) fn narrow_spots(r: &Refusal) -> Vec<SpotId> {
    match r {
        Refusal::NoPath { spots, .. }
        | Refusal::WrongEnclosure { spots, .. }
        | Refusal::Certificate { spots, .. } => spots.clone(),
        Refusal::NoRoomAtSpot(s) => vec![*s],
        Refusal::Equivalents { asked, .. } => narrow_spots(asked),
        _ => Vec::new(),
    }
}

/// A move tried on the board, its routes shown to an observer.
pub(crate) type TryMove<'a> =
    dyn FnMut(&mut Board, &mut dyn FnMut(&[Point])) -> Result<DrawnMove, Refusal> + 'a;

impl Board {
    /// M for a waiting move (see the module docs): slides, pushes and `attempt`s of the move
    /// in turn, until an attempt draws it. `refused` is the move's refusal and `ghost` the
    /// last way the router found for it (empty if none). Every change is a step of the
    /// history; the caller runs this inside [`Board::in_one_step`], which takes them back
    /// when the move is not drawn.
    ///
    /// # Errors
    /// A line for the log saying what was done and that the move is still refused.
    pub(crate) fn local_room(
        &mut self,
        refused: &Refusal,
        ghost: Vec<Point>,
        attempt: &mut TryMove<'_>,
        options: &RelaxOptions,
        stop: &AtomicBool,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<(DrawnMove, LocalReport), String> {
        let mut report = LocalReport::default();
        let mut ghost = ghost;
        let mut last = refused.clone();
        let mut notes: Vec<String> = Vec::new();
        // Tries the move, keeping the last way seen as the next ghost.
        let mut again = |b: &mut Board, ghost: &mut Vec<Point>| {
            let mut seen: Vec<Point> = Vec::new();
            let drawn = attempt(b, &mut |p: &[Point]| {
                seen.clear();
                seen.extend_from_slice(p);
                observer(p);
            });
            if !seen.is_empty() {
                *ghost = seen;
            }
            drawn
        };
        let named: Vec<SpotId> = movable_spots(self.drawing(), Some(&narrow_spots(refused)));
        let slid = if named.is_empty() {
            self.slide_spots(None)
        } else {
            self.slide_spots(Some(&named))
        };
        match slid {
            Ok(r) => {
                report.slide = Some(r);
                match again(self, &mut ghost) {
                    Ok(d) => return Ok((d, report)),
                    Err(e) => last = e,
                }
            }
            Err(e) => notes.push(format!("slide: {e}")),
        }
        for _ in 0..PUSH_ROUNDS {
            if stop.load(Ordering::Relaxed) {
                notes.push("stopped (Space)".into());
                break;
            }
            if ghost.len() < 2 {
                notes.push("push: no way found to push the curves from".into());
                break;
            }
            match self.push_curves(&ghost, options, stop) {
                Ok(r) => {
                    let grew = r.ghost_room.1 >= r.ghost_room.0 + LEAST_GROWTH;
                    report.pushes.push(r);
                    match again(self, &mut ghost) {
                        Ok(d) => return Ok((d, report)),
                        Err(e) => last = e,
                    }
                    if !grew {
                        break;
                    }
                }
                Err(e) => {
                    notes.push(format!("push: {e}"));
                    break;
                }
            }
        }
        let mut line = local_words(&report);
        for n in notes {
            line.push_str("; ");
            line.push_str(&n);
        }
        Err(format!(
            "{line}; the move still refused ({})",
            last.detail()
        ))
    }
}
