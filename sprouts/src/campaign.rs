//! The campaign: positions from real games to win against the perfect player.
//!
//! A [`Campaign`] is a list of [`Level`]s. Each level is a position taken part-way through a
//! game that two computer players played on a board (so every curve of its picture was drawn
//! by the router and checked by the board), and that the player to move wins. A level keeps
//! the position in GLOP notation, its canonical form, the picture as a [`GameRecord`] that
//! starts at the position (a person against the perfect player, the person to move), and what
//! was proved about it: its nimber, how many distinct moves it has, how many of them win, how
//! many nodes the solver expanded to prove the outcome from empty tables, and the length of
//! the win (the moves the game lasts when the winner wins as quickly as possible and the loser
//! holds out as long as possible).
//!
//! [`generate`] makes a campaign from a seed: the same seed and options give the same file.
//! [`Level::check`] proves a level again, by the solver's analysis board and, independently,
//! by a plain minimax over the whole game tree (the slow reference), and compares both with
//! what the level says.
//!
//! Levels are numbered in order of difficulty and grouped into [`GRADES`] grades of nearly
//! equal size. The difficulty of a level is its win length plus the base-2 logarithm of the
//! solver's nodes: longer wins and harder proofs come later.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use sprouts_ai::analysis::analyse_board;
use sprouts_ai::impartial::Outcome;
use sprouts_ai::seed::splitmix64;
use sprouts_ai::solver::{Solver, SolverConfig};
use sprouts_draw::{Board, Curve, Drawing, Settings, WorldSize};
use sprouts_topo::Position;

use crate::{Game, GameError, GameRecord, Limits, Seat};

/// The format name written in a campaign file.
pub const CAMPAIGN_FORMAT: &str = "sprouts-campaign";
/// The version of the campaign file's layout.
pub const CAMPAIGN_VERSION: u32 = 1;
/// How many grades the levels are grouped into.
pub const GRADES: u32 = 5;
/// The player the person plays against in a level.
pub const OPPONENT: &str = "perfect:5s";
/// The largest game tree (distinct canonical positions) the minimax of a level may visit:
/// positions with larger trees are not taken as levels.
pub const MAX_TREE: usize = 20_000;

/// Why a campaign file or one of its levels is not right.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The text is not a campaign file.
    #[error("not a campaign file: {0}")]
    Json(String),
    /// Another format or version.
    #[error(
        "a campaign file of format `{format}` version {version}; this program reads `{CAMPAIGN_FORMAT}` version {CAMPAIGN_VERSION}"
    )]
    Format {
        /// The format found.
        format: String,
        /// The version found.
        version: u32,
    },
    /// A level's picture does not load.
    #[error("level {level}: its picture does not load: {reason}")]
    Picture {
        /// The level's number.
        level: u32,
        /// Why.
        reason: String,
    },
    /// What a level says differs from what is proved or read again.
    #[error("level {level}: {what} is {stored} in the file but {found} when proved again")]
    Differs {
        /// The level's number.
        level: u32,
        /// Which value.
        what: &'static str,
        /// The value in the file.
        stored: String,
        /// The value found.
        found: String,
    },
    /// The game tree is larger than [`MAX_TREE`].
    #[error("the game tree has more than {MAX_TREE} positions")]
    TreeTooLarge,
    /// The solver could not start or settle the position.
    #[error("the solver: {0}")]
    Solver(String),
    /// A game could not be played or set up.
    #[error("a game: {0}")]
    Game(#[from] GameError),
    /// There is no level of that number.
    #[error("there is no level {0} (the campaign has {1})")]
    NoLevel(u32, usize),
}

/// What is proved about a position won by the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// The position's nimber (never 0: the player to move wins).
    pub nimber: u32,
    /// How many distinct moves the position has.
    pub moves: u32,
    /// How many of them win.
    pub winning_moves: u32,
    /// Nodes the solver expanded to prove the outcome from empty tables (one thread).
    pub nodes: u64,
    /// Moves the game lasts when the winner wins as quickly as it can and the loser holds out
    /// as long as it can.
    pub win_length: u32,
}

/// One level: a position, its picture, and what is proved about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// The level's number, from 1, in order of difficulty.
    pub number: u32,
    /// Its grade, from 1 to [`GRADES`].
    pub grade: u32,
    /// The position in GLOP notation, with the picture's spot numbers.
    pub glop: String,
    /// Its canonical form.
    pub canonical: String,
    /// Spots in the picture.
    pub spots: u32,
    /// Spots of the game it was taken from at its start, and moves played in it.
    pub from_game: (u32, u32),
    /// What is proved.
    pub proof: Proof,
    /// The level as a game: the picture, a person (Blue, to move) against [`OPPONENT`].
    pub record: GameRecord,
}

/// A campaign: the levels and how they were made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Campaign {
    format: String,
    version: u32,
    /// The seed the campaign was generated from.
    pub seed: u64,
    /// The levels, in order of difficulty.
    pub levels: Vec<Level>,
}

impl Campaign {
    /// The JSON text (one level a line, so that differences between files are readable).
    pub fn to_json(&self) -> String {
        let mut s = format!(
            "{{\"format\":\"{}\",\"version\":{},\"seed\":{},\"levels\":[\n",
            self.format, self.version, self.seed
        );
        for (i, l) in self.levels.iter().enumerate() {
            s.push_str(&serde_json::to_string(l).expect("a level always serialises"));
            s.push_str(if i + 1 < self.levels.len() {
                ",\n"
            } else {
                "\n"
            });
        }
        s.push_str("]}\n");
        s
    }

    /// Reads a campaign file, checking its format and version (the levels are checked by
    /// [`Level::check`]).
    ///
    /// # Errors
    /// [`CampaignError::Json`] or [`CampaignError::Format`].
    pub fn from_json(text: &str) -> Result<Campaign, CampaignError> {
        let c: Campaign =
            serde_json::from_str(text).map_err(|e| CampaignError::Json(e.to_string()))?;
        if c.format != CAMPAIGN_FORMAT || c.version != CAMPAIGN_VERSION {
            return Err(CampaignError::Format {
                format: c.format,
                version: c.version,
            });
        }
        Ok(c)
    }

    /// The level numbered `number`.
    ///
    /// # Errors
    /// [`CampaignError::NoLevel`].
    pub fn level(&self, number: u32) -> Result<&Level, CampaignError> {
        self.levels
            .iter()
            .find(|l| l.number == number)
            .ok_or(CampaignError::NoLevel(number, self.levels.len()))
    }
}

impl Level {
    /// The level's game: its picture, a person to move against [`OPPONENT`].
    ///
    /// # Errors
    /// [`CampaignError::Picture`] when the record does not load.
    pub fn game(&self) -> Result<Game, CampaignError> {
        self.record
            .clone()
            .into_game()
            .map_err(|e| CampaignError::Picture {
                level: self.number,
                reason: e.to_string(),
            })
    }

    /// Proves the level again and compares: the picture loads and shows the position, whose
    /// canonical form is the level's; the solver's analysis and a plain minimax over the game
    /// tree agree with each other and with the level's nimber (by the solver), move count,
    /// winning-move count and win length. The solver's node count is not compared: it is the
    /// effort measured when the level was made, and a faster solver may need fewer.
    ///
    /// # Errors
    /// The first difference found, or why the level could not be proved.
    pub fn check(&self) -> Result<(), CampaignError> {
        let game = self.game()?;
        let pos = game.position();
        let differs = |what: &'static str, stored: String, found: String| {
            if stored == found {
                Ok(())
            } else {
                Err(CampaignError::Differs {
                    level: self.number,
                    what,
                    stored,
                    found,
                })
            }
        };
        differs("the picture's position", self.glop.clone(), pos.to_glop())?;
        differs(
            "the canonical form",
            self.canonical.clone(),
            pos.canonical().as_str().to_owned(),
        )?;
        differs(
            "the person to move",
            "true".into(),
            game.human_to_move().to_string(),
        )?;
        let reference = minimax(pos)?;
        let proved = prove_given(pos, &reference)?;
        for (what, stored, solver, plain) in [
            (
                "the move count",
                self.proof.moves,
                proved.moves,
                reference.moves,
            ),
            (
                "the winning-move count",
                self.proof.winning_moves,
                proved.winning_moves,
                reference.winning_moves,
            ),
        ] {
            differs(what, stored.to_string(), solver.to_string())?;
            differs(what, stored.to_string(), plain.to_string())?;
        }
        differs(
            "the nimber",
            self.proof.nimber.to_string(),
            proved.nimber.to_string(),
        )?;
        differs(
            "the outcome",
            "a win".into(),
            if reference.wins { "a win" } else { "a loss" }.into(),
        )?;
        differs(
            "the win length",
            self.proof.win_length.to_string(),
            reference.length.to_string(),
        )
    }
}

/// A solver for one position: one thread (so its node count is reproducible), small tables.
fn small_solver() -> Result<Solver, CampaignError> {
    Solver::new(SolverConfig {
        threads: 1,
        child_cache_bytes: 16 << 20,
        number_table_bytes: 4 << 20,
        ..SolverConfig::default()
    })
    .map_err(|e| CampaignError::Solver(e.to_string()))
}

/// Proves a position with a solver with empty tables: its nimber, moves, winning moves and the
/// nodes the outcome took; the win length comes from [`minimax`]. A position lost for the
/// player to move, or one the solver cannot settle, is an error.
///
/// # Errors
/// [`CampaignError::Solver`], or [`CampaignError::TreeTooLarge`] from the minimax.
pub fn prove(pos: &Position) -> Result<Proof, CampaignError> {
    prove_given(pos, &minimax(pos)?)
}

/// [`prove`], with the minimax of the position already found.
fn prove_given(pos: &Position, plain: &Minimax) -> Result<Proof, CampaignError> {
    let solver = small_solver()?;
    let limits = Limits::none();
    let outcome = solver.outcome(pos, &limits);
    let nodes = outcome.nodes;
    if outcome.value != Some(Outcome::Win) {
        return Err(CampaignError::Solver(format!(
            "{} is not proved won for the player to move",
            pos.to_glop()
        )));
    }
    let report = analyse_board(pos, &solver, &limits, &mut |_| {});
    let unsettled = report.moves.iter().any(|m| m.winning.is_none());
    let (Some(nimber), false) = (report.nimber, unsettled) else {
        return Err(CampaignError::Solver(format!(
            "{} was not settled",
            pos.to_glop()
        )));
    };
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(Proof {
        nimber,
        moves: count(report.moves.len()),
        winning_moves: count(report.winning_moves().count()),
        nodes,
        win_length: plain.length,
    })
}

/// What the plain minimax found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Minimax {
    /// Whether the player to move wins.
    pub wins: bool,
    /// The win length (see [`Proof::win_length`]); for a lost position, how long the loser
    /// holds out.
    pub length: u32,
    /// Distinct moves.
    pub moves: u32,
    /// Distinct moves to a position lost for the player to move then.
    pub winning_moves: u32,
}

/// The slow reference: the outcome and the win length of `pos` by a minimax over every
/// distinct move, remembered by canonical form, without the solver.
///
/// # Errors
/// [`CampaignError::TreeTooLarge`] past [`MAX_TREE`] positions.
pub fn minimax(pos: &Position) -> Result<Minimax, CampaignError> {
    let mut memo: HashMap<String, (bool, u32)> = HashMap::new();
    let mut moves = 0u32;
    let mut winning_moves = 0u32;
    for mv in pos.distinct_moves() {
        let child = pos.play(&mv).expect("a move the position listed");
        let (wins, _) = tree_value(&child, &mut memo)?;
        moves += 1;
        winning_moves += u32::from(!wins);
    }
    let (wins, length) = tree_value(pos, &mut memo)?;
    Ok(Minimax {
        wins,
        length,
        moves,
        winning_moves,
    })
}

/// Whether the player to move wins `pos`, and the win length, remembered by canonical form.
fn tree_value(
    pos: &Position,
    memo: &mut HashMap<String, (bool, u32)>,
) -> Result<(bool, u32), CampaignError> {
    let key = pos.canonical().as_str().to_owned();
    if let Some(&v) = memo.get(&key) {
        return Ok(v);
    }
    if memo.len() >= MAX_TREE {
        return Err(CampaignError::TreeTooLarge);
    }
    // The quickest win through a lost child; else the longest defence.
    let mut quickest: Option<u32> = None;
    let mut longest = 0u32;
    for mv in pos.distinct_moves() {
        let child = pos.play(&mv).expect("a move the position listed");
        let (child_wins, length) = tree_value(&child, memo)?;
        if child_wins {
            longest = longest.max(length + 1);
        } else {
            quickest = Some(quickest.map_or(length + 1, |q| q.min(length + 1)));
        }
    }
    let v = match quickest {
        Some(q) => (true, q),
        None => (false, longest),
    };
    memo.insert(key, v);
    Ok(v)
}

/// How a campaign is generated.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// The seed: games, players and the positions taken all follow from it.
    pub seed: u64,
    /// How many levels.
    pub count: usize,
    /// The games' starts: from `spots.0` to `spots.1` spots.
    pub spots: (u32, u32),
    /// A position is taken when at most this many moves can be left (the bound `M`), so
    /// that the perfect player answers at once.
    pub max_left: u32,
    /// At most this many spots in a level's picture (dead ones too).
    pub max_spots: u32,
    /// At most this many levels from one game.
    pub per_game: usize,
    /// At most this many games are played.
    pub max_games: u32,
    /// The drawing area of the pictures.
    pub world: WorldSize,
    /// The computer players the games are played by (each seat picks one by the seed).
    pub players: Vec<String>,
}

impl Default for GenerateOptions {
    /// 160 levels from games of 3 to 8 spots, positions with at most 12 moves left and at
    /// most 18 spots in the picture, two a game at most, pictures of 900 x 600, games by
    /// `random` and `montecarlo:100`.
    fn default() -> Self {
        GenerateOptions {
            seed: 1,
            count: 160,
            spots: (3, 8),
            max_left: 12,
            max_spots: 18,
            per_game: 2,
            max_games: 5000,
            world: WorldSize::new(900.0, 600.0),
            players: vec!["random".into(), "montecarlo:100".into()],
        }
    }
}

/// A level before it is numbered and graded.
struct Found {
    glop: String,
    canonical: String,
    spots: u32,
    from_game: (u32, u32),
    proof: Proof,
    record: GameRecord,
}

/// Generates a campaign (see the module docs); `progress` hears each game played with the
/// levels found so far. Deterministic for the options.
///
/// # Errors
/// [`CampaignError::Solver`] if the solver cannot start, [`CampaignError::Game`] if a game
/// cannot be set up, or fewer levels than asked after `max_games` games.
pub fn generate(
    options: &GenerateOptions,
    progress: &mut dyn FnMut(u32, usize),
) -> Result<Campaign, CampaignError> {
    let mut seen: HashMap<String, ()> = HashMap::new();
    let mut found: Vec<Found> = Vec::new();
    let (lo, hi) = (options.spots.0.max(1), options.spots.1.max(options.spots.0));
    let mix = |g: u32, k: u64| splitmix64(options.seed ^ (u64::from(g) << 16) ^ k);
    let mut g = 0u32;
    while found.len() < options.count {
        if g >= options.max_games {
            return Err(CampaignError::Solver(format!(
                "only {} levels after {g} games",
                found.len()
            )));
        }
        g += 1;
        let n = lo + u32::try_from(mix(g, 1) % u64::from(hi - lo + 1)).unwrap_or(0);
        let pick = |k: u64| {
            let i = usize::try_from(mix(g, k) % options.players.len().max(1) as u64).unwrap_or(0);
            options.players.get(i).map_or("random", String::as_str)
        };
        let seats = [
            Seat::computer(pick(2), mix(g, 3))?,
            Seat::computer(pick(4), mix(g, 5))?,
        ];
        let mut game = Game::drawn_spots(n, options.world, Settings::default(), seats)?;
        let mut taken = 0;
        let mut ply = 0u32;
        while !game.is_over() && taken < options.per_game && found.len() < options.count {
            let pos = game.position().clone();
            // Every other eligible position is looked at, by the seed, so that the levels of
            // one game are not one move apart.
            let eligible = ply > 0
                && pos.spot_count() <= options.max_spots as usize
                && sprouts_ai::bounds::bounds(&pos).upper <= options.max_left
                && mix(g, 100 + u64::from(ply)) % 2 == 0;
            if eligible && let Some(f) = consider(&game, &pos, (n, ply), &mut seen)? {
                found.push(f);
                taken += 1;
            }
            match game.computer_step(&Limits::none()) {
                Ok(_) => ply += 1,
                // A move no rung could draw ends the game for the campaign: its levels need
                // pictures.
                Err(GameError::NotDrawn { .. } | GameError::WrongGame { .. }) => break,
                Err(e) => return Err(e.into()),
            }
        }
        progress(g, found.len());
    }
    Ok(grade(options.seed, found))
}

/// The position of `game` as a level, if it is a new one that the player to move wins with
/// at least one losing move to avoid, within the minimax's budget.
fn consider(
    game: &Game,
    pos: &Position,
    from_game: (u32, u32),
    seen: &mut HashMap<String, ()>,
) -> Result<Option<Found>, CampaignError> {
    let canonical = pos.canonical().as_str().to_owned();
    if seen.insert(canonical.clone(), ()).is_some() {
        return Ok(None);
    }
    let Some(board) = game.board() else {
        return Ok(None);
    };
    let plain = match minimax(pos) {
        Ok(m) => m,
        Err(CampaignError::TreeTooLarge) => return Ok(None),
        Err(e) => return Err(e),
    };
    if !plain.wins || plain.winning_moves == plain.moves {
        return Ok(None);
    }
    let proof = prove_given(pos, &plain)?;
    let seats = [Seat::Human, Seat::computer(OPPONENT, 1)?];
    let level_game = Game::drawn(rebased(board)?, seats);
    Ok(Some(Found {
        glop: pos.to_glop(),
        canonical,
        spots: u32::try_from(pos.spot_count()).unwrap_or(u32::MAX),
        from_game,
        proof,
        record: GameRecord::of(&level_game),
    }))
}

/// The board's picture as the start of a game: its position is the start, with no moves (so
/// undo stops there), and its curves are no move's.
fn rebased(board: &Board) -> Result<Board, CampaignError> {
    let d = board.drawing();
    let wrap = |e: &dyn std::fmt::Display| CampaignError::Game(GameError::Board(e.to_string()));
    let mut drawing = Drawing::new(d.world()).map_err(|e| wrap(&e))?;
    for s in d.spots() {
        drawing.add_spot(*s).map_err(|e| wrap(&e))?;
    }
    for c in d.curves() {
        drawing
            .add_curve(Curve {
                origin: None,
                ..c.clone()
            })
            .map_err(|e| wrap(&e))?;
    }
    Board::from_game(board.position().clone(), &[], drawing, *board.settings())
        .map_err(|e| wrap(&e))
}

/// The difficulty of a proof: the win length plus the base-2 logarithm of the nodes.
pub fn difficulty(p: &Proof) -> f64 {
    f64::from(p.win_length) + ((p.nodes + 1) as f64).log2()
}

/// Numbers the levels in order of difficulty (ties by canonical form) and grades them.
fn grade(seed: u64, mut found: Vec<Found>) -> Campaign {
    found.sort_by(|a, b| {
        difficulty(&a.proof)
            .total_cmp(&difficulty(&b.proof))
            .then_with(|| a.canonical.cmp(&b.canonical))
    });
    let total = found.len().max(1);
    let levels = found
        .into_iter()
        .enumerate()
        .map(|(i, f)| Level {
            number: u32::try_from(i + 1).unwrap_or(u32::MAX),
            grade: u32::try_from(i * GRADES as usize / total).unwrap_or(0) + 1,
            glop: f.glop,
            canonical: f.canonical,
            spots: f.spots,
            from_game: f.from_game,
            proof: f.proof,
            record: f.record,
        })
        .collect();
    Campaign {
        format: CAMPAIGN_FORMAT.to_owned(),
        version: CAMPAIGN_VERSION,
        seed,
        levels,
    }
}
