//! Starting a page's game: New game (from spots or a typed position), Load, and a game kept
//! on the server, each built by a [`SetupJob`] off the async threads and taken by
//! [`Session::finish_setup`].

use std::sync::Arc;
use std::sync::atomic::Ordering;

use sprouts::draw::{Settings, WorldSize};
use sprouts::{Convention, Game, GameRecord, Seat};

use super::words::{convention_words, player_words};
use super::{COLOURS, MAX_SPOTS, PageGame, Reply, Session, WORLD_MAX, WORLD_MIN};
use crate::page::protocol::{ConventionName, PlayerSpec, ServerMsg};
use crate::page::store::GameStore;

/// What a [`SetupJob`] builds.
#[derive(Debug)]
pub(super) enum SetupKind {
    /// A new game: the spots placed in the drawing area.
    New {
        spots: u32,
        /// A position to start from instead of `spots` seeds.
        start: Option<Box<sprouts::topo::Position>>,
        world: WorldSize,
        settings: Settings,
        seats: Box<[Seat; 2]>,
        first: u8,
        convention: Convention,
    },
    /// A game record (or a saved game), read and replayed by the loader.
    Load { json: String },
    /// The game the server keeps under this id, read from its store and loaded.
    Kept { store: Arc<GameStore>, id: String },
    /// A picture drawn in the editor, checked and started from.
    Picture(Box<super::edited::PictureSetup>),
}

/// Building a new or loaded game, to run on a blocking thread: placing the spots is quick,
/// but the loader replays and checks every curve of a saved game, which takes a while for a
/// large one (it is bounded by the loader's limits, not by a stop flag).
#[derive(Debug)]
pub struct SetupJob {
    generation: u64,
    kind: SetupKind,
    /// The id the built game is kept under (a new one when `None`).
    keep_id: Option<String>,
}

/// What a [`SetupJob`] built.
#[derive(Debug)]
pub struct SetupResult {
    generation: u64,
    loaded: bool,
    outcome: Result<(Game, Vec<String>), String>,
    keep_id: Option<String>,
    /// For a picture refused: the spots and curves its reason names.
    refused_picture: Option<(Vec<u32>, Vec<u32>)>,
}

impl SetupJob {
    /// Builds the game (blocking; call it off the async threads). Never panics on a bad
    /// record: the loader's errors come back as the result's error.
    pub fn run(self) -> SetupResult {
        let loaded = matches!(self.kind, SetupKind::Load { .. } | SetupKind::Kept { .. });
        let mut refused_picture = None;
        let outcome = match self.kind {
            SetupKind::Picture(setup) => setup.run().map_err(|(why, marks)| {
                refused_picture = Some(marks);
                why
            }),
            SetupKind::New {
                start: Some(position),
                world,
                settings,
                seats,
                first,
                convention,
                ..
            } => Game::from_position(&position, *seats, convention, world, settings)
                .map(|g| (g.with_first(usize::from(first)), Vec::new()))
                .map_err(|e| format!("cannot start from this position: {e}")),
            SetupKind::New {
                spots,
                world,
                settings,
                seats,
                first,
                convention,
                ..
            } => Game::drawn_spots(spots, world, settings, *seats)
                .map(|g| {
                    let g = g.with_convention(convention).with_first(usize::from(first));
                    (g, Vec::new())
                })
                .map_err(|e| format!("cannot start the game: {e}")),
            SetupKind::Load { json } => load(&json),
            SetupKind::Kept { store, id } => store
                .read(&id)
                .map_err(|e| format!("cannot resume the game kept on the server: {e}"))
                .and_then(|kept| load(&kept.json)),
        };
        SetupResult {
            generation: self.generation,
            loaded,
            outcome,
            keep_id: self.keep_id,
            refused_picture,
        }
    }

    /// The result of a setup job that panicked: an error, the game unchanged.
    pub fn failed(generation: u64, what: &str) -> SetupResult {
        SetupResult {
            generation,
            loaded: false,
            outcome: Err(format!(
                "the game could not be set up (an internal error: {what})"
            )),
            keep_id: None,
            refused_picture: None,
        }
    }

    /// The job's generation (for [`SetupJob::failed`]).
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

/// A game record (or a saved game) as a page's game: it must have a picture whose drawing
/// area is in range.
fn load(json: &str) -> Result<(Game, Vec<String>), String> {
    let record = GameRecord::from_json(json).map_err(|e| format!("cannot load that game: {e}"))?;
    let log = record.log.clone();
    if record.picture.is_none() {
        return Err("cannot load that game: it has no picture to show".into());
    }
    let game = record
        .into_game()
        .map_err(|e| format!("cannot load that game: {e}"))?;
    let w = game.board().map(|b| b.drawing().world());
    if w.is_some_and(|w| {
        (WORLD_MIN..=WORLD_MAX).contains(&w.width) && (WORLD_MIN..=WORLD_MAX).contains(&w.height)
    }) {
        Ok((game, log))
    } else {
        Err("the saved game's drawing area is out of range".into())
    }
}

impl Session {
    #[allow(
        clippy::too_many_arguments,
        reason = "the fields of the message, unpacked"
    )]
    pub(super) fn new_game(
        &mut self,
        spots: u32,
        convention: ConventionName,
        players: [PlayerSpec; 2],
        first: u8,
        width: f64,
        height: f64,
    ) -> Reply {
        if spots == 0 {
            return Self::error("a game needs at least one spot");
        }
        if spots > MAX_SPOTS {
            return Self::error(format!(
                "at most {MAX_SPOTS} spots a game here; {spots} were asked for"
            ));
        }
        if first > 1 {
            return Self::error("`first` must be 0 (Blue) or 1 (Red)");
        }
        let in_range = |x: f64| x.is_finite() && (WORLD_MIN..=WORLD_MAX).contains(&x);
        if !(in_range(width) && in_range(height)) {
            return Self::error(format!(
                "the drawing area must be between {WORLD_MIN} and {WORLD_MAX} pixels a side"
            ));
        }
        // Each spot needs some room: at least 20 by 20 world pixels.
        if f64::from(spots) * 400.0 > width * height {
            return Self::error(format!(
                "{spots} spots do not fit a drawing area of {width:.0} x {height:.0}: make the window larger"
            ));
        }
        let seats = match self.seats(&players) {
            Ok(s) => s,
            Err(e) => return Self::error(e),
        };
        let settings = self
            .game
            .as_ref()
            .map_or_else(Settings::default, |g| *g.board().settings());
        self.start_setup(SetupKind::New {
            spots,
            start: None,
            world: WorldSize::new(width.round(), height.round()),
            settings,
            seats: Box::new(seats),
            first,
            convention: match convention {
                ConventionName::Normal => Convention::Normal,
                ConventionName::Misere => Convention::Misere,
            },
        })
    }

    /// A new game from a position typed in GLOP notation: read and checked here (a clear
    /// refusal for text that is not a position, or not a picture), drawn by the setup job.
    pub(super) fn new_game_from(
        &mut self,
        text: &str,
        convention: ConventionName,
        players: [PlayerSpec; 2],
        first: u8,
        width: f64,
        height: f64,
    ) -> Reply {
        let position = match crate::page::position_text::read_start(text) {
            Ok(p) => p,
            Err(e) => return Self::error(e),
        };
        let spots = u32::try_from(position.spot_count())
            .unwrap_or(u32::MAX)
            .max(1);
        // The checks of an n-spot game, for the position's spots.
        let mut reply = self.new_game(spots, convention, players, first, width, height);
        if let Some(SetupJob {
            kind: SetupKind::New { start, .. },
            ..
        }) = &mut reply.setup
        {
            *start = Some(Box::new(position));
        }
        reply
    }

    /// Starts building a game off the async threads; a setup asked for earlier is dropped
    /// when it comes back. The game now in play goes on until the new one is ready.
    pub(super) fn start_setup(&mut self, kind: SetupKind) -> Reply {
        self.start_setup_kept(kind, None)
    }

    /// Starts building a game that is kept under `keep_id` (a new id when `None`).
    pub(super) fn start_setup_kept(&mut self, kind: SetupKind, keep_id: Option<String>) -> Reply {
        self.setup_generation += 1;
        Reply {
            setup: Some(SetupJob {
                generation: self.setup_generation,
                kind,
                keep_id,
            }),
            ..Reply::default()
        }
    }

    /// Takes a built game: the new or loaded game replaces the one in play (its computation
    /// is stopped), unless a later New game or Load was asked for meanwhile. A game that
    /// could not be built is an error, and the game in play goes on unchanged.
    pub fn finish_setup(&mut self, result: SetupResult) -> Reply {
        if result.generation != self.setup_generation {
            return Reply::default();
        }
        if self.net_resume.is_some() {
            return self.net_resumed(result.outcome.map(|(g, _)| g));
        }
        let (game, saved_log) = match (result.outcome, result.refused_picture) {
            (Ok(g), _) => g,
            (Err(reason), Some((spots, curves))) => {
                return Reply::msgs(vec![ServerMsg::PictureRefused {
                    reason,
                    spots,
                    curves,
                }]);
            }
            (Err(e), None) => return Self::error(e),
        };
        self.stop_running();
        if let Some((_, _, stop)) = self.analysing.take() {
            stop.store(true, Ordering::Relaxed);
        }
        self.keep_id = match result.keep_id {
            Some(id) => id,
            None => self.new_keep_id(),
        };
        self.games += 1;
        let mut msgs = Vec::new();
        let mut game = game;
        game.set_ladder(self.ladder.clone());
        let mut page = PageGame {
            game,
            // A loaded game waits for the person to go on when a computer is to move.
            paused: result.loaded,
            refusal: None,
            waiting: None,
            computer_waiting: None,
            retry: None,
            verdict: None,
            number: self.games,
        };
        let w = page.board().drawing().world();
        let players = page.players();
        let line = if result.loaded {
            format!(
                "game {}: loaded, {} moves, {} play, Blue: {}, Red: {}; Drawing area is {} x {}",
                page.number,
                page.k(),
                convention_words(page.convention()),
                player_words(&players[0]),
                player_words(&players[1]),
                w.width,
                w.height
            )
        } else {
            format!(
                "game {}: {} spots, {} play, Blue: {}, Red: {}, {} starts; Drawing area is {} x {}",
                page.number,
                page.game.start().spot_count(),
                convention_words(page.convention()),
                player_words(&players[0]),
                player_words(&players[1]),
                COLOURS[page.game.first()],
                w.width,
                w.height,
            )
        };
        if !page.game.computer_to_move() {
            page.paused = false;
        }
        for l in saved_log {
            // A game saved again after a load keeps its earlier lines marked once.
            let line = if l.starts_with("  (saved) ") {
                l
            } else {
                format!("  (saved) {l}")
            };
            self.note(line, &mut msgs);
        }
        self.game = Some(page);
        self.note(line, &mut msgs);
        self.after_change(msgs)
    }
}
