//! Why a move was not drawn: [`Refusal`], with a line for the status bar (`Display`) and one
//! with the numbers for the log ([`Refusal::detail`]). Every stage of the route refuses with
//! one; the board is then left exactly as it was.

use std::fmt;

use sprouts_topo::SpotId;

use super::equivalent;
use crate::drawing::CurveId;

/// Why a move was not drawn. The board is left exactly as it was.
///
/// `Display` is for the status line (names spots and curves, no pixel numbers);
/// [`Refusal::detail`] adds the numbers for the log.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Refusal {
    /// The spot is not in the picture.
    UnknownSpot(SpotId),
    /// The spot has no life left.
    NoLife(SpotId),
    /// A loop needs two lives at its spot.
    LoopNeedsTwoLives(SpotId),
    /// The side asked for is not a side of the spot.
    NoSuchSide(SpotId),
    /// No side of the two spots faces a common region.
    NotInOneRegion(SpotId, SpotId),
    /// A marked spot is not in the move's region, or marks were given for a move that joins
    /// two boundaries (which encloses nothing).
    BadMarks(String),
    /// The move is not legal in the board's position.
    Illegal(String),
    /// There is no room at the spot to leave or arrive on that side.
    NoRoomAtSpot(SpotId),
    /// No way with the minimum clearance: the widest way and what it lacks.
    NoPath {
        /// The clearance of the widest way (pixels).
        widest: f64,
        /// The clearance needed.
        needed: f64,
        /// The spots at its narrowest place.
        spots: Vec<SpotId>,
        /// The curves at its narrowest place.
        curves: Vec<CurveId>,
    },
    /// No route found encloses what the move must (every candidate put a boundary on the
    /// wrong side).
    WrongEnclosure {
        /// The move in words.
        words: String,
        /// Which boundaries could not be put right, by their spots.
        detail: String,
        /// The clearance of the widest way that puts every boundary on its side (pixels),
        /// when one was measured: below `needed`, the way round a boundary is too narrow
        /// (a mouth narrower than two strands).
        widest: Option<f64>,
        /// The clearance needed.
        needed: f64,
        /// The spots at the widest way's narrowest place.
        spots: Vec<SpotId>,
        /// The curves at the widest way's narrowest place.
        curves: Vec<CurveId>,
    },
    /// The fitted curve did not keep the certified clearance.
    Certificate {
        /// Its least clearance (pixels).
        clearance: f64,
        /// The clearance needed.
        needed: f64,
        /// The spots too close.
        spots: Vec<SpotId>,
        /// The curves too close.
        curves: Vec<CurveId>,
        /// Whether the curve kept its clearance and only the new spot's disc did not: there
        /// is no room for a spot anywhere along it (a pocket or corridor narrower than a
        /// spot's disc and its clearance, two spots too close for one between them).
        new_spot: bool,
    },
    /// The route could not be fitted by a spline.
    Fit(String),
    /// The board's check refused the drawn picture (it is not a picture of a position).
    Picture(String),
    /// The board's check found another position than the intended one.
    Mismatch(String),
    /// A computer's move was refused, and so was every other move giving the same game that
    /// was tried in its place ([`crate::Board::draw_move`]).
    Equivalents {
        /// The move asked, in words.
        words: String,
        /// Why the move asked was refused.
        asked: Box<Refusal>,
        /// The moves giving the same game that were tried, in words, each with its refusal.
        tried: Vec<(String, Refusal)>,
    },
}

/// Where a way is narrowest, for the status line: " (at spots .. and curves ..)", or nothing.
fn write_where(f: &mut fmt::Formatter<'_>, spots: &[SpotId], curves: &[CurveId]) -> fmt::Result {
    match (spots.is_empty(), curves.is_empty()) {
        (false, false) => write!(f, " (at spots {} and curves {})", list(spots), list(curves)),
        (false, true) => write!(f, " (at spots {})", list(spots)),
        (true, false) => write!(f, " (at curves {})", list(curves)),
        (true, true) => Ok(()),
    }
}

fn list<T: fmt::Display>(xs: &[T]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownSpot(s) => write!(f, "there is no spot {s}"),
            Refusal::NoLife(s) => write!(f, "spot {s} has no life left"),
            Refusal::LoopNeedsTwoLives(s) => write!(f, "a loop at spot {s} needs two lives"),
            Refusal::NoSuchSide(s) => write!(f, "that is not a side of spot {s}"),
            Refusal::NotInOneRegion(a, b) => {
                write!(f, "spots {a} and {b} do not face a common region")
            }
            Refusal::BadMarks(w) => write!(f, "the marks cannot be applied: {w}"),
            Refusal::Illegal(w) => write!(f, "the move is not legal: {w}"),
            Refusal::NoRoomAtSpot(s) => write!(
                f,
                "there is no room to leave or reach spot {s} on that side"
            ),
            Refusal::NoPath { spots, curves, .. } => {
                write!(f, "the widest way is too narrow here")?;
                write_where(f, spots, curves)
            }
            Refusal::WrongEnclosure {
                words,
                widest,
                needed,
                spots,
                curves,
                ..
            } => {
                write!(f, "no way found that encloses what {words} must")?;
                if widest.is_some_and(|w| w < *needed) {
                    write!(f, ": the widest way that does is too narrow")?;
                    write_where(f, spots, curves)?;
                }
                Ok(())
            }
            Refusal::Certificate {
                spots,
                curves,
                new_spot,
                ..
            } => {
                if *new_spot {
                    write!(f, "there is no room for the new spot along the curve")?;
                } else {
                    write!(f, "the curve comes too close to something")?;
                }
                if !spots.is_empty() {
                    write!(f, " (spots {})", list(spots))?;
                }
                if !curves.is_empty() {
                    write!(f, " (curves {})", list(curves))?;
                }
                Ok(())
            }
            Refusal::Fit(_) => write!(f, "the way could not be made into a smooth curve"),
            Refusal::Picture(_) => write!(f, "the curve would not make a valid picture"),
            Refusal::Mismatch(_) => {
                write!(
                    f,
                    "the curve would show another position than the move makes"
                )
            }
            Refusal::Equivalents {
                words,
                asked,
                tried,
            } => equivalent::status_line(f, words, asked, tried),
        }
    }
}

impl std::error::Error for Refusal {}

impl Refusal {
    /// A move's drawing refused by the board's checked transaction, as a refusal.
    pub(crate) fn of_transaction(
        e: crate::board::TransactionError<crate::drawing::DrawingError>,
    ) -> Refusal {
        use crate::board::TransactionError;
        match e {
            TransactionError::Edit(e) => Refusal::Fit(e.to_string()),
            TransactionError::Illegal(e) => Refusal::Illegal(e.to_string()),
            TransactionError::Picture(e) => Refusal::Picture(e.to_string()),
            TransactionError::Mismatch(m) => Refusal::Mismatch(m.to_string()),
        }
    }

    /// Whether making room (M, A, R, Z, •) can help: the move found no way with the
    /// clearance, not a rule or a missing spot.
    pub fn wants_room(&self) -> bool {
        crate::ladder::wants_room(self)
    }

    /// The refusal for the log, with the numbers.
    pub fn detail(&self) -> String {
        match self {
            Refusal::NoPath {
                widest,
                needed,
                spots,
                curves,
            } if *widest <= 0.0 && spots.is_empty() && curves.is_empty() => format!(
                "no way: no way at all on the planner's grid (a passage narrower than its cells), {needed:.2} px needed"
            ),
            Refusal::NoPath {
                widest,
                needed,
                spots,
                curves,
            } => format!(
                "no way: the widest way has clearance {widest:.2} px, {needed:.2} px needed; narrowest at spots [{}] curves [{}]",
                list(spots),
                list(curves)
            ),
            Refusal::Certificate {
                clearance,
                needed,
                spots,
                curves,
                new_spot,
            } => format!(
                "certificate failed{}: clearance {clearance:.2} px, {needed:.2} px needed; spots [{}] curves [{}]",
                if *new_spot {
                    " (the new spot's disc)"
                } else {
                    ""
                },
                list(spots),
                list(curves)
            ),
            Refusal::WrongEnclosure {
                words,
                detail,
                widest,
                needed,
                spots,
                curves,
            } => match widest {
                Some(w) => format!(
                    "wrong enclosure for {words}: {detail}; the widest way that sorts every boundary has clearance {w:.2} px, {needed:.2} px needed; narrowest at spots [{}] curves [{}]",
                    list(spots),
                    list(curves)
                ),
                None => format!("wrong enclosure for {words}: {detail}"),
            },
            Refusal::Fit(w) => format!("fit failed: {w}"),
            Refusal::Picture(w) => format!("picture refused: {w}"),
            Refusal::Mismatch(w) => format!("authority check: {w}"),
            Refusal::Equivalents {
                words,
                asked,
                tried,
            } => equivalent::detail(words, asked, tried),
            other => other.to_string(),
        }
    }
}
