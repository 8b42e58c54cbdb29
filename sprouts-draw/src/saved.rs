//! Saved games: a versioned JSON format that reloads a game exactly (spec 7.4's files).
//!
//! ```json
//! {
//!   "format": "sprouts-game",
//!   "version": 1,
//!   "world": { "width": 1280.0, "height": 720.0 },
//!   "settings": { "min_clearance": 6.0, "comfort_distance": 40.0, "room_vs_length": 1.0, "spot_radius": 5.0 },
//!   "start": { "spots": 2 },
//!   "spots": [ { "id": 1, "x": 320.0, "y": 360.0, "radius": 5.0 }, ... ],
//!   "curves": [ { "from": 1, "to": 3, "origin": { "move": 0, "half": "first" },
//!                 "spline": { "pieces": [ { "h": 80.0, "points": [[320.0, 360.0], ...] } ] } }, ... ],
//!   "moves": [ { "words": "1 -> 2", "notation": "1-2@1,3,2,3;1:2,2:2,3:1;4" } ]
//! }
//! ```
//!
//! Loading checks everything: the JSON and its fields (unknown fields are refused), the version,
//! the spots and curves, every move replayed in `sprouts-topo` (its words must be the words of the
//! move it names), and the picture against the position the moves make (the authority check).

use serde::{Deserialize, Serialize};
use sprouts_geom::{Point, Spline};
use sprouts_topo::{Lives, MoveNotation, Position, Setup, SpotId};

use crate::board::{Board, BoardError};
use crate::drawing::{
    Curve, CurveOrigin, Drawing, DrawingError, DrawnSpot, MAX_SPOT_ID, Settings, WorldSize,
};

/// The version of the saved-game format this crate writes and reads.
pub const SAVED_GAME_VERSION: u32 = 1;

/// The value of the `format` field.
const FORMAT: &str = "sprouts-game";

/// Why a saved game could not be loaded. Nothing is changed by a failed load.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not JSON of the saved-game layout.
    #[error("not a saved game: {0}")]
    Json(String),
    /// The `format` field names another kind of file.
    #[error("not a saved game: the format is `{0}`, not `sprouts-game`")]
    Format(String),
    /// A version this program does not read.
    #[error("saved-game version {found} is not supported (this program reads version {supported})")]
    Version {
        /// The file's version.
        found: u32,
        /// The version this program reads.
        supported: u32,
    },
    /// The start position is not a drawable position.
    #[error("the start position is refused: {0}")]
    Start(String),
    /// A spot identity of 0.
    #[error("spot identities start at 1; the file has spot 0")]
    SpotZero,
    /// The spots and curves do not make a drawing.
    #[error("the picture is not well formed: {0}")]
    Drawing(#[from] DrawingError),
    /// A move's notation cannot be read.
    #[error("move {index}: {reason}")]
    Notation {
        /// The move's index (0 for the first move).
        index: usize,
        /// Why.
        reason: String,
    },
    /// A move's words are not the words of the move its notation names.
    #[error("move {index}: the file says `{saved}`, but its notation names the move `{actual}`")]
    Words {
        /// The move's index.
        index: usize,
        /// The words in the file.
        saved: String,
        /// The words of the move.
        actual: String,
    },
    /// The moves, the settings or the picture are refused: an illegal move, bad settings, a
    /// picture that is not a position or shows another position than the moves make.
    #[error(transparent)]
    Board(#[from] BoardError),
}

#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    version: Option<u32>,
}

/// What is wrong with the `format` and `version` fields that the project's saved files (saved
/// games, game records) start with ([`check_header`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderFault {
    /// The text is not JSON of an object, or a field is missing (the words say which).
    Layout(String),
    /// The `format` field names a kind of file not expected.
    Format(String),
    /// The kind of file expected, in a version this program does not read.
    Version {
        /// The file's version.
        found: u32,
        /// The version this program reads.
        supported: u32,
    },
}

/// Reads the `format` and `version` fields of a saved file's JSON before the rest, so that a
/// file of another kind or version is named as such rather than as a layout error. `accepted`
/// lists the formats expected, each with the one version read (`None`: not checked here).
/// Returns the format found, one of `accepted`'s.
///
/// # Errors
/// [`HeaderFault`] when the text is not such JSON, its format is not expected, or its version
/// is not the one read.
pub fn check_header<'a>(
    text: &str,
    accepted: &[(&'a str, Option<u32>)],
) -> Result<&'a str, HeaderFault> {
    let header: Header =
        serde_json::from_str(text).map_err(|e| HeaderFault::Layout(e.to_string()))?;
    let Some(format) = header.format else {
        return Err(HeaderFault::Layout("the field `format` is missing".into()));
    };
    let Some(&(name, supported)) = accepted.iter().find(|(name, _)| *name == format) else {
        return Err(HeaderFault::Format(format));
    };
    match (header.version, supported) {
        (_, None) => Ok(name),
        (Some(found), Some(supported)) if found == supported => Ok(name),
        (Some(found), Some(supported)) => Err(HeaderFault::Version { found, supported }),
        (None, Some(_)) => Err(HeaderFault::Layout("the field `version` is missing".into())),
    }
}

impl From<HeaderFault> for LoadError {
    fn from(fault: HeaderFault) -> LoadError {
        match fault {
            HeaderFault::Layout(why) => LoadError::Json(why),
            HeaderFault::Format(found) => LoadError::Format(found),
            HeaderFault::Version { found, supported } => LoadError::Version { found, supported },
        }
    }
}

/// Where a game started, keeping the spots' identities (which the moves' notation names):
/// `n` seeds, or a position given as regions of boundaries of spot numbers with every spot's
/// lives and the next spot (a custom start). Saved games and game records write it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
pub enum SavedStart {
    /// The start of an `n`-spot game.
    Spots(u32),
    /// Any drawable position.
    Position {
        /// The regions, each a list of boundaries, each the spots met walking round it.
        regions: Vec<Vec<Vec<u32>>>,
        /// Every spot with its lives.
        lives: Vec<(u32, u8)>,
        /// The identity the next new spot gets.
        next: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpotRepr {
    id: u32,
    x: f64,
    y: f64,
    radius: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CurveRepr {
    from: u32,
    to: u32,
    #[serde(default)]
    origin: Option<CurveOrigin>,
    spline: Spline,
}

/// A move as saved: in words (as the log wrote it) and in topological notation
/// ([`MoveNotation`]), which is what a load replays; the words must name the same move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedMove {
    /// The move in words: `3 -> 5`, `3 -> 5 enclosing 7, 8-9`.
    pub words: String,
    /// The move's notation (its spots and the key of the position it makes).
    pub notation: String,
}

/// A saved game: everything needed to reload a game exactly (world size, settings, spots,
/// curves, the moves in words and in topological form), in the JSON layout shown in the module
/// docs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    format: String,
    version: u32,
    world: WorldSize,
    settings: Settings,
    start: SavedStart,
    spots: Vec<SpotRepr>,
    curves: Vec<CurveRepr>,
    moves: Vec<SavedMove>,
}

impl SavedGame {
    /// The saved form of a board (its undo history is not saved).
    pub fn from_board(board: &Board) -> SavedGame {
        let d = board.drawing();
        SavedGame {
            format: FORMAT.to_owned(),
            version: SAVED_GAME_VERSION,
            world: d.world(),
            settings: *board.settings(),
            start: SavedStart::of(board.start()),
            spots: d
                .spots()
                .iter()
                .map(|s| SpotRepr {
                    id: s.id.get(),
                    x: s.centre.x,
                    y: s.centre.y,
                    radius: s.radius,
                })
                .collect(),
            curves: d
                .curves()
                .iter()
                .map(|c| CurveRepr {
                    from: c.from.get(),
                    to: c.to.get(),
                    origin: c.origin,
                    spline: c.spline.clone(),
                })
                .collect(),
            moves: board
                .moves()
                .iter()
                .map(|m| SavedMove {
                    words: m.words.clone(),
                    notation: m.notation.to_string(),
                })
                .collect(),
        }
    }

    /// Where the game started.
    pub fn start(&self) -> &SavedStart {
        &self.start
    }

    /// The moves, in order.
    pub fn moves(&self) -> &[SavedMove] {
        &self.moves
    }

    /// The drawing settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The drawing area.
    pub fn world(&self) -> WorldSize {
        self.world
    }

    /// The JSON text (pretty-printed, every number written so that it reads back exactly).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a saved game always serialises")
    }

    /// Reads the JSON text, checking its layout and version (the game itself is checked by
    /// [`SavedGame::into_board`]).
    ///
    /// # Errors
    /// [`LoadError::Json`], [`LoadError::Format`] or [`LoadError::Version`].
    pub fn from_json(text: &str) -> Result<SavedGame, LoadError> {
        check_header(text, &[(FORMAT, Some(SAVED_GAME_VERSION))])?;
        serde_json::from_str(text).map_err(|e| LoadError::Json(e.to_string()))
    }

    /// The board of the saved game: the picture is built, the moves replayed in `sprouts-topo`
    /// from the start, each move's words checked against the move its notation names, and the
    /// picture checked to show the position the moves make.
    ///
    /// # Errors
    /// Any [`LoadError`] but the JSON ones.
    pub fn into_board(self) -> Result<Board, LoadError> {
        // A drawing area larger than a drawing may have is refused here, and curves far
        // outside it by the analysis, first thing (the rules every board keeps).
        let mut drawing = Drawing::new(self.world)?;
        for s in &self.spots {
            drawing.add_spot(DrawnSpot {
                id: spot(s.id)?,
                centre: Point::new(s.x, s.y),
                radius: s.radius,
            })?;
        }
        for c in self.curves {
            drawing.add_curve(Curve {
                from: spot(c.from)?,
                to: spot(c.to)?,
                spline: c.spline,
                origin: c.origin,
            })?;
        }
        let notations: Vec<MoveNotation> = self
            .moves
            .iter()
            .enumerate()
            .map(|(index, m)| {
                m.notation
                    .parse::<MoveNotation>()
                    .map_err(|e| LoadError::Notation {
                        index,
                        reason: e.to_string(),
                    })
            })
            .collect::<Result<_, _>>()?;
        let start = self.start.to_position()?;
        let mut board = Board::from_game(start, &notations, drawing, self.settings)?;
        // The words name the same move as the notation (the order in which they list spots
        // depends on where the picture's boundaries start, so they are kept as written).
        for (index, (saved, n)) in self.moves.iter().zip(&notations).enumerate() {
            if !words_match(&saved.words, n) {
                return Err(LoadError::Words {
                    index,
                    saved: saved.words.clone(),
                    actual: board.moves()[index].words.clone(),
                });
            }
        }
        board.set_words(self.moves.into_iter().map(|m| m.words).collect());
        Ok(board)
    }
}

/// Whether move words (`3 -> 5`, `3 -> 5 enclosing 7, 8-9`, `3 -> 3 enclosing nothing`) name
/// the spots and the enclosed spots of a notation.
/// A spot identity from a file: from 1 to [`MAX_SPOT_ID`].
fn spot(n: u32) -> Result<SpotId, LoadError> {
    match SpotId::new(n) {
        Some(s) if n <= MAX_SPOT_ID => Ok(s),
        Some(s) => Err(LoadError::Drawing(DrawingError::SpotIdTooLarge(s))),
        None => Err(LoadError::SpotZero),
    }
}

/// Replays saved moves from `start` in `sprouts-topo`: each notation must name a legal move of
/// the position so far and its words the same move. Returns each move with its words as
/// saved, and the position they make.
///
/// # Errors
/// [`LoadError::Notation`], [`LoadError::Words`], or [`LoadError::Board`] for an illegal move.
pub fn replay_moves(
    start: &Position,
    moves: &[SavedMove],
) -> Result<(Vec<crate::PlayedMove>, Position), LoadError> {
    let mut pos = start.clone();
    let mut played = Vec::with_capacity(moves.len());
    for (index, m) in moves.iter().enumerate() {
        let notation = m
            .notation
            .parse::<MoveNotation>()
            .map_err(|e| LoadError::Notation {
                index,
                reason: e.to_string(),
            })?;
        let illegal = |reason: String| {
            LoadError::Board(BoardError::IllegalMove {
                index,
                notation: m.notation.clone(),
                reason,
            })
        };
        let mv = notation.to_move(&pos).map_err(|e| illegal(e.to_string()))?;
        if !words_match(&m.words, &notation) {
            return Err(LoadError::Words {
                index,
                saved: m.words.clone(),
                actual: mv.describe(&pos),
            });
        }
        pos = pos.play(&mv).map_err(|e| illegal(e.to_string()))?;
        played.push(crate::PlayedMove {
            words: m.words.clone(),
            notation,
        });
    }
    Ok((played, pos))
}

fn words_match(words: &str, n: &MoveNotation) -> bool {
    let (head, enclosing) = match words.split_once(" enclosing ") {
        Some((h, e)) => (h, Some(e)),
        None => (words, None),
    };
    let Some((from, to)) = head.split_once(" -> ") else {
        return false;
    };
    if from != n.from.to_string() || to != n.to.to_string() {
        return false;
    }
    let mut said: Vec<u32> = Vec::new();
    match enclosing {
        None => {}
        Some("nothing") => {}
        Some(list) => {
            for part in list.split(", ").flat_map(|b| b.split('-')) {
                match part.parse::<u32>() {
                    Ok(x) => said.push(x),
                    Err(_) => return false,
                }
            }
            if said.is_empty() {
                return false;
            }
        }
    }
    said.sort_unstable();
    said.dedup();
    let mut want: Vec<u32> = n.enclosed.iter().map(|s| s.get()).collect();
    want.sort_unstable();
    want.dedup();
    said == want
}

/// The start as `n` seeds when it is the start of an `n`-spot game, else spelled out.
impl SavedStart {
    /// The start as saved: `n` seeds when it is the start of an `n`-spot game (up to the
    /// mirror image), else spelled out.
    pub fn of(start: &Position) -> SavedStart {
        let n = u32::try_from(start.spot_count()).unwrap_or(u32::MAX);
        if n < u32::MAX && start.game_key() == Position::new(n).game_key() {
            return SavedStart::Spots(n);
        }
        SavedStart::Position {
            regions: start
                .regions()
                .map(|r| {
                    r.boundaries()
                        .map(|b| b.corners().iter().map(|c| c.get()).collect())
                        .collect()
                })
                .collect(),
            lives: start.spots().map(|(s, l)| (s.get(), l.get())).collect(),
            next: start.next_spot().get(),
        }
    }

    /// The position, checked: at most a quarter of the largest spot identity for `n` seeds;
    /// a spelled-out start must be a valid, drawable position.
    ///
    /// # Errors
    /// [`LoadError::Start`], [`LoadError::SpotZero`] or [`LoadError::Drawing`] for a spot
    /// identity out of range.
    pub fn to_position(&self) -> Result<Position, LoadError> {
        match self {
            SavedStart::Spots(n) => {
                let n = *n;
                if n > MAX_SPOT_ID / 4 {
                    return Err(LoadError::Start(format!("{n} spots are too many")));
                }
                Ok(Position::new(n))
            }
            SavedStart::Position {
                regions,
                lives,
                next,
            } => {
                let regions = regions
                    .iter()
                    .map(|r| {
                        r.iter()
                            .map(|b| b.iter().map(|&n| spot(n)).collect::<Result<Vec<_>, _>>())
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let lives = lives
                    .iter()
                    .map(|&(s, l)| {
                        Ok((
                            spot(s)?,
                            Lives::new(l).ok_or_else(|| {
                                LoadError::Start(format!("spot {s} is given {l} lives"))
                            })?,
                        ))
                    })
                    .collect::<Result<Vec<_>, LoadError>>()?;
                let setup = Setup {
                    regions,
                    lives,
                    next_spot: Some(spot(*next)?),
                };
                let pos =
                    Position::from_setup(setup).map_err(|e| LoadError::Start(e.to_string()))?;
                pos.check_drawable()
                    .map_err(|e| LoadError::Start(e.to_string()))?;
                Ok(pos)
            }
        }
    }
}

impl Board {
    /// The board as a saved game in JSON (see [`SavedGame`]).
    pub fn to_json(&self) -> String {
        SavedGame::from_board(self).to_json()
    }

    /// A board from a saved game in JSON, fully checked (see [`SavedGame::into_board`]).
    ///
    /// # Errors
    /// Any [`LoadError`].
    pub fn from_json(text: &str) -> Result<Board, LoadError> {
        SavedGame::from_json(text)?.into_board()
    }

    /// Replaces this board by the saved game in `text`, or leaves it exactly as it was if the
    /// text does not load.
    ///
    /// # Errors
    /// Any [`LoadError`].
    pub fn load_json(&mut self, text: &str) -> Result<(), LoadError> {
        *self = Board::from_json(text)?;
        Ok(())
    }
}
