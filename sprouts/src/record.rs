//! [`GameRecord`]: a game as a file. It keeps what makes the game: where it started, the
//! moves (in topological notation, with their words), who sits in each seat, the play
//! convention, who moved first, and the picture with its settings when the game has one.
//! Versioned; written as JSON (people and browsers read it) or postcard (compact).
//!
//! ```json
//! {
//!   "format": "sprouts-record",
//!   "version": 1,
//!   "start": { "spots": 3 },
//!   "moves": [ { "words": "1 -> 2", "notation": "..." } ],
//!   "seats": [ "human", { "computer": { "spec": "perfect:2s", "seed": 7 } } ],
//!   "first": 0,
//!   "convention": "misere",
//!   "picture": null,
//!   "log": []
//! }
//! ```
//!
//! Loading checks everything: the layout and the version, every move replayed in
//! `sprouts-topo` (its words must name the same move), the seats' specs, and with a picture
//! the saved game's own checks (the authority check) and that its start and moves are the
//! record's.

use serde::{Deserialize, Serialize};
use sprouts_ai::impartial::Convention;
use sprouts_draw::{HeaderFault, LoadError, SavedGame, SavedMove, SavedStart, check_header};

use crate::game::{Game, GameError, Plain, Surface};
use crate::seat::Seat;

/// The version of the record format this crate writes and reads.
pub const GAME_RECORD_VERSION: u32 = 1;

/// The value of the `format` field.
const FORMAT: &str = "sprouts-record";

/// The largest record read, in bytes (a picture of a few hundred moves is well under it).
const MAX_RECORD_BYTES: usize = 64 << 20;

/// The most log lines a record keeps (the latest ones).
pub const MAX_LOG_LINES: usize = 10_000;

/// Why a record could not be read or made into a game. Nothing is changed by a failed load.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// Not JSON (or postcard) of the record's layout.
    #[error("not a game record: {0}")]
    Layout(String),
    /// The `format` field names another kind of file.
    #[error("not a game record: the format is `{0}`, not `sprouts-record`")]
    Format(String),
    /// A version this program does not read.
    #[error(
        "game record version {found} is not supported (this program reads version {supported})"
    )]
    Version {
        /// The file's version.
        found: u32,
        /// The version this program reads.
        supported: u32,
    },
    /// Larger than the most a record may have (64 MiB).
    #[error("the record is {0} bytes; at most {MAX_RECORD_BYTES} are read")]
    TooLarge(usize),
    /// The start, a move, or the picture is refused.
    #[error(transparent)]
    Game(#[from] LoadError),
    /// A seat's spec names no player.
    #[error("seat {seat}: {reason}")]
    Seat {
        /// The seat (0 or 1).
        seat: usize,
        /// Why.
        reason: String,
    },
    /// `first` is not 0 or 1.
    #[error("`first` must be 0 or 1, not {0}")]
    First(u8),
    /// The picture's start or moves are not the record's.
    #[error("the picture is of another game than the record's moves: {0}")]
    PictureDiffers(String),
}

/// A seat as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum SeatRecord {
    /// A person.
    Human,
    /// A computer player: its spec and the seed its player is built with.
    Computer {
        /// The player's spec.
        spec: String,
        /// The seed.
        seed: u64,
    },
}

/// The play convention as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ConventionRecord {
    Normal,
    Misere,
}

/// A game as a file (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    format: String,
    version: u32,
    /// Where the game started (spot identities kept).
    pub start: SavedStart,
    /// The moves, in order.
    pub moves: Vec<SavedMove>,
    /// The seats.
    pub seats: [SeatRecord; 2],
    /// The seat that moved first.
    pub first: u8,
    convention: ConventionRecord,
    /// The picture with its settings, when the game has one.
    pub picture: Option<SavedGame>,
    /// The game's log, for people (not checked).
    pub log: Vec<String>,
}

impl From<HeaderFault> for RecordError {
    fn from(fault: HeaderFault) -> RecordError {
        match fault {
            HeaderFault::Layout(why) => RecordError::Layout(why),
            HeaderFault::Format(found) => RecordError::Format(found),
            HeaderFault::Version { found, supported } => RecordError::Version { found, supported },
        }
    }
}

impl GameRecord {
    /// The record of `game` (its undo history is its moves; redo is not kept), with no log.
    pub fn of(game: &Game) -> GameRecord {
        let seats = game.seats().clone().map(|s| match s {
            Seat::Human => SeatRecord::Human,
            Seat::Computer(c) => SeatRecord::Computer {
                spec: c.spec().to_owned(),
                seed: c.seed().unwrap_or(0),
            },
        });
        GameRecord {
            format: FORMAT.to_owned(),
            version: GAME_RECORD_VERSION,
            start: SavedStart::of(game.start()),
            moves: game
                .moves()
                .iter()
                .map(|m| SavedMove {
                    words: m.words.clone(),
                    notation: m.notation.to_string(),
                })
                .collect(),
            seats,
            first: u8::from(game.first() == 1),
            convention: match game.convention() {
                Convention::Normal => ConventionRecord::Normal,
                Convention::Misere => ConventionRecord::Misere,
            },
            picture: game.board().map(SavedGame::from_board),
            log: Vec::new(),
        }
    }

    /// The same record with `log` (its last [`MAX_LOG_LINES`] lines).
    pub fn with_log(mut self, log: &[String]) -> GameRecord {
        let from = log.len().saturating_sub(MAX_LOG_LINES);
        self.log = log[from..].to_vec();
        self
    }

    /// The play convention.
    pub fn convention(&self) -> Convention {
        match self.convention {
            ConventionRecord::Normal => Convention::Normal,
            ConventionRecord::Misere => Convention::Misere,
        }
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serialises")
    }

    /// The postcard bytes.
    pub fn to_postcard(&self) -> Vec<u8> {
        postcard::to_stdvec(self).expect("a record always serialises")
    }

    /// Reads a record from JSON, checking its layout and version (the game itself is checked
    /// by [`GameRecord::into_game`]). A saved game of `sprouts-draw` (format `sprouts-game`)
    /// is read too, as the record of a game between two people under normal play.
    ///
    /// # Errors
    /// [`RecordError::TooLarge`], [`RecordError::Layout`], [`RecordError::Format`],
    /// [`RecordError::Version`], or the saved game's own errors.
    pub fn from_json(text: &str) -> Result<GameRecord, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge(text.len()));
        }
        let saved_game = "sprouts-game";
        if check_header(
            text,
            &[(FORMAT, Some(GAME_RECORD_VERSION)), (saved_game, None)],
        )? == saved_game
        {
            let saved = SavedGame::from_json(text)?;
            return Ok(GameRecord {
                format: FORMAT.to_owned(),
                version: GAME_RECORD_VERSION,
                start: saved.start().clone(),
                moves: saved.moves().to_vec(),
                seats: [SeatRecord::Human, SeatRecord::Human],
                first: 0,
                convention: ConventionRecord::Normal,
                picture: Some(saved),
                log: Vec::new(),
            });
        }
        serde_json::from_str(text).map_err(|e| RecordError::Layout(e.to_string()))
    }

    /// Reads a record from postcard bytes, checking its layout and version.
    ///
    /// # Errors
    /// [`RecordError::TooLarge`], [`RecordError::Layout`], [`RecordError::Format`],
    /// [`RecordError::Version`].
    pub fn from_postcard(bytes: &[u8]) -> Result<GameRecord, RecordError> {
        if bytes.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge(bytes.len()));
        }
        let (record, rest): (GameRecord, &[u8]) =
            postcard::take_from_bytes(bytes).map_err(|e| RecordError::Layout(e.to_string()))?;
        if !rest.is_empty() {
            return Err(RecordError::Layout(format!(
                "{} bytes after the record",
                rest.len()
            )));
        }
        if record.format != FORMAT {
            return Err(RecordError::Format(record.format));
        }
        if record.version != GAME_RECORD_VERSION {
            return Err(RecordError::Version {
                found: record.version,
                supported: GAME_RECORD_VERSION,
            });
        }
        Ok(record)
    }

    /// The game the record describes, fully checked (see the module docs). A drawn game gets
    /// the undo history of its moves back from its picture
    /// ([`sprouts_draw::Board::rebuild_move_history`]).
    ///
    /// # Errors
    /// Any [`RecordError`] but the layout ones.
    pub fn into_game(self) -> Result<Game, RecordError> {
        if self.first > 1 {
            return Err(RecordError::First(self.first));
        }
        let start = self.start.to_position()?;
        let (played, _) = sprouts_draw::replay_moves(&start, &self.moves)?;
        let mut seats = [Seat::Human, Seat::Human];
        for (i, s) in self.seats.iter().enumerate() {
            if let SeatRecord::Computer { spec, seed } = s {
                seats[i] = Seat::computer(spec, *seed).map_err(|e| RecordError::Seat {
                    seat: i,
                    reason: e.to_string(),
                })?;
            }
        }
        let convention = self.convention();
        let first = usize::from(self.first);
        let mut game = match self.picture {
            Some(picture) => {
                if picture.start() != &self.start {
                    return Err(RecordError::PictureDiffers("its start".into()));
                }
                if picture.moves() != self.moves.as_slice() {
                    return Err(RecordError::PictureDiffers("its moves".into()));
                }
                Game::drawn(picture.into_board()?, seats)
            }
            None => {
                let mut plain = Plain::new(start);
                for (m, p) in played.iter().zip(&self.moves) {
                    let pos = plain.positions.last().expect("the start is there");
                    let mv = m
                        .notation
                        .to_move(pos)
                        .map_err(|e| RecordError::PictureDiffers(e.to_string()))?;
                    let after = pos
                        .play(&mv)
                        .map_err(|e| RecordError::PictureDiffers(e.to_string()))?;
                    plain.positions.push(after);
                    plain.moves.push(sprouts_draw::PlayedMove {
                        words: p.words.clone(),
                        notation: m.notation.clone(),
                    });
                }
                let mut g = Game::new(plain.start.clone(), seats);
                g.surface = Surface::Plain(plain);
                g
            }
        };
        game = game.with_convention(convention).with_first(first);
        game.rebuild_history();
        Ok(game)
    }
}

impl Game {
    /// The game's record (see [`GameRecord`]).
    pub fn record(&self) -> GameRecord {
        GameRecord::of(self)
    }

    /// The game a record describes (see [`GameRecord::into_game`]).
    ///
    /// # Errors
    /// [`GameError::Record`].
    pub fn from_record(record: GameRecord) -> Result<Game, GameError> {
        Ok(record.into_game()?)
    }
}
