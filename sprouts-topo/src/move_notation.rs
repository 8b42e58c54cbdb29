//! `MoveNotation`: a move written without reference to corners, for saved games and the network.

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;
use thiserror::Error;

use crate::key::GameKey;
use crate::moves::{Move, MoveError};
use crate::position::{BoundaryId, Position};
use crate::spot::SpotId;

/// A move as spots: its two end spots, the spots it encloses on one side (for a one-boundary
/// move), and the [`GameKey`] of the position it produces (spec section 6).
///
/// Spot identities agree between two programs that play the same game, so the notation means the
/// same move to both; the key settles what the spots alone cannot (which corner of a spot, which
/// side), so [`MoveNotation::to_move`] finds the move whatever corners the other side chose, and
/// either way round (the key is mirror-invariant).
///
/// The text form is `x-y`, then `:` and the enclosed spots separated by `,` if any, then `@` and
/// the game key's text: `1-1:2@1,4.2;...`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MoveNotation {
    /// The spot the curve leaves from.
    pub from: SpotId,
    /// The spot the curve arrives at.
    pub to: SpotId,
    /// Spots on the boundaries that go with one side of a one-boundary move (empty otherwise).
    pub enclosed: Vec<SpotId>,
    /// The key of the position after the move.
    pub result: GameKey,
}

/// Why a move notation names no legal move of a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum IllegalMove {
    /// One of the spots is not in the position or has no life.
    #[error("spot {0} is not a spot with a life in this position")]
    NoSuchSpot(SpotId),
    /// No legal move joining these spots produces the named position.
    #[error("no legal move from {from} to {to} gives the named position")]
    NoMatch {
        /// The spot the curve leaves from.
        from: SpotId,
        /// The spot the curve arrives at.
        to: SpotId,
    },
}

/// Why a text is not a move notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("not a move notation: {0}")]
pub struct MoveNotationParseError(String);

impl MoveNotation {
    /// The notation of `mv` played in `pos`.
    ///
    /// # Errors
    ///
    /// If the move is illegal in `pos`.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::{MoveNotation, Position};
    /// let p = Position::new(3);
    /// for mv in p.moves() {
    ///     let n = MoveNotation::from_move(&p, &mv).unwrap();
    ///     let back = n.to_move(&p).unwrap();
    ///     assert_eq!(p.play(&back).unwrap().game_key(), p.play(&mv).unwrap().game_key());
    ///     let text = n.to_string();
    ///     assert_eq!(text.parse::<MoveNotation>().unwrap(), n);
    /// }
    /// ```
    pub fn from_move(pos: &Position, mv: &Move) -> Result<MoveNotation, MoveError> {
        let result = pos.play(mv)?.game_key();
        let (from, to) = mv.spots();
        let enclosed = if mv.is_one_boundary() {
            mv.enclosed_spots(pos)
        } else {
            Vec::new()
        };
        Ok(MoveNotation {
            from,
            to,
            enclosed,
            result,
        })
    }

    /// The legal move of `pos` this notation names: joining its spots and producing its position
    /// (up to the mirror image).
    ///
    /// # Errors
    ///
    /// If no legal move of `pos` fits.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalMove> {
        for s in [self.from, self.to] {
            if pos.lives(s).is_none_or(|l| l.get() == 0) {
                return Err(IllegalMove::NoSuchSpot(s));
            }
        }
        let from_corners = pos.corners_of(self.from);
        let to_corners = pos.corners_of(self.to);
        let mut tried: Vec<Move> = Vec::new();
        for swap in [false, true] {
            let (ca, cb) = if swap {
                (&to_corners, &from_corners)
            } else {
                (&from_corners, &to_corners)
            };
            for &x in ca.iter() {
                for &y in cb.iter() {
                    let (Some(rx), Some(ry)) =
                        (pos.region_of(x.boundary), pos.region_of(y.boundary))
                    else {
                        continue;
                    };
                    if rx != ry {
                        continue;
                    }
                    let candidates: SmallVec<[Vec<BoundaryId>; 2]> = if x.boundary == y.boundary {
                        // The boundaries holding enclosed spots on side a, or all the others.
                        let (bs, be) = pos.region_bounds(rx.index());
                        let mut inside = Vec::new();
                        let mut outside = Vec::new();
                        for bi in bs..be {
                            let id = BoundaryId::from_index(bi);
                            if id == x.boundary {
                                continue;
                            }
                            let holds = pos
                                .boundary_slice(bi)
                                .iter()
                                .any(|c| self.enclosed.contains(c));
                            if holds {
                                inside.push(id)
                            } else {
                                outside.push(id)
                            }
                        }
                        SmallVec::from_iter([inside, outside])
                    } else {
                        if !self.enclosed.is_empty() {
                            continue;
                        }
                        SmallVec::from_iter([Vec::new()])
                    };
                    for side in candidates {
                        let Ok(mv) = pos.make_move(x, y, &side) else {
                            continue;
                        };
                        if tried.contains(&mv) {
                            continue;
                        }
                        if pos.play(&mv).is_ok_and(|q| q.game_key() == self.result) {
                            return Ok(mv);
                        }
                        tried.push(mv);
                    }
                }
            }
        }
        Err(IllegalMove::NoMatch {
            from: self.from,
            to: self.to,
        })
    }
}

impl fmt::Display for MoveNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)?;
        if !self.enclosed.is_empty() {
            f.write_str(":")?;
            for (i, s) in self.enclosed.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{s}")?;
            }
        }
        write!(f, "@{}", self.result)
    }
}

impl FromStr for MoveNotation {
    type Err = MoveNotationParseError;

    fn from_str(s: &str) -> Result<MoveNotation, MoveNotationParseError> {
        let bad = |what: &str| MoveNotationParseError(what.to_string());
        let (head, key) = s
            .trim()
            .split_once('@')
            .ok_or_else(|| bad("missing `@` and key"))?;
        let (spots, enclosed) = match head.split_once(':') {
            Some((a, b)) => (a, Some(b)),
            None => (head, None),
        };
        let (from, to) = spots
            .split_once('-')
            .ok_or_else(|| bad("the spots need `x-y`"))?;
        let spot = |t: &str| -> Result<SpotId, MoveNotationParseError> {
            t.parse::<u32>()
                .ok()
                .and_then(SpotId::new)
                .ok_or_else(|| bad("a spot is a number from 1"))
        };
        let enclosed = match enclosed {
            Some(e) => e.split(',').map(spot).collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        let result = key.parse::<GameKey>().map_err(|e| bad(&e.to_string()))?;
        Ok(MoveNotation {
            from: spot(from)?,
            to: spot(to)?,
            enclosed,
            result,
        })
    }
}
