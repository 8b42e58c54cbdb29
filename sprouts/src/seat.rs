//! The two seats of a game: a person, or a computer player built from its spec.

use std::fmt;
use std::sync::{Arc, Mutex};

use sprouts_ai::players::{Player, player_from_spec};

use crate::GameError;

/// The longest player spec accepted (`perfect:5s`, `montecarlo:200`, `parity-sharp:depth=6`
/// are a few bytes; a longer text is refused before it is read).
pub const MAX_SPEC_LEN: usize = 64;

/// Who sits in a seat.
///
/// A computer's player keeps its state between moves (its random generator, a perfect
/// player's tables), shared by the clones of the game that hold it, so a job running on
/// another thread thinks with the same player.
#[derive(Clone)]
pub enum Seat {
    /// A person: the game waits for [`crate::Game::play_human`].
    Human,
    /// A computer player: [`crate::Game::computer_step`] or [`crate::Game::computer_job`].
    Computer(Computer),
}

/// A computer seat: the player, its spec and the seed it was built with.
#[derive(Clone)]
pub struct Computer {
    spec: String,
    seed: Option<u64>,
    player: Arc<Mutex<Box<dyn Player>>>,
}

impl Computer {
    /// The player's spec (`random`, `montecarlo:200`, `perfect:2s`, ...).
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The seed the player was built with, when it was built from its spec.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The player, shared with every clone of this seat.
    pub(crate) fn player(&self) -> Arc<Mutex<Box<dyn Player>>> {
        Arc::clone(&self.player)
    }
}

impl Seat {
    /// A computer seat with the player `spec` names (see
    /// [`sprouts_ai::players::player_from_spec`]), seeded with `seed`.
    ///
    /// # Errors
    /// [`GameError::Player`] for a spec that is too long or names no player.
    pub fn computer(spec: &str, seed: u64) -> Result<Seat, GameError> {
        let spec = spec.trim();
        if spec.len() > MAX_SPEC_LEN {
            return Err(GameError::Player(format!(
                "a player spec has at most {MAX_SPEC_LEN} characters; this one has {}",
                spec.len()
            )));
        }
        let player = player_from_spec(spec, seed).map_err(|e| GameError::Player(e.to_string()))?;
        Ok(Seat::Computer(Computer {
            spec: spec.to_owned(),
            seed: Some(seed),
            player: Arc::new(Mutex::new(player)),
        }))
    }

    /// A computer seat with a player built elsewhere (any [`Player`], also one of your own);
    /// `spec` names it in records and logs.
    pub fn with_player(spec: impl Into<String>, player: Box<dyn Player>) -> Seat {
        Seat::Computer(Computer {
            spec: spec.into(),
            seed: None,
            player: Arc::new(Mutex::new(player)),
        })
    }

    /// Whether a person sits here.
    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human)
    }

    /// The computer's spec, or `None` for a person.
    pub fn spec(&self) -> Option<&str> {
        match self {
            Seat::Human => None,
            Seat::Computer(c) => Some(c.spec()),
        }
    }

    /// The seat in words: `human` or `computer (SPEC)`.
    pub fn words(&self) -> String {
        match self {
            Seat::Human => "human".to_owned(),
            Seat::Computer(c) => format!("computer ({})", c.spec),
        }
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => write!(f, "Human"),
            Seat::Computer(c) => write!(f, "Computer({:?}, seed {:?})", c.spec, c.seed),
        }
    }
}

/// Two seats are alike when both are people, or both computers with the same spec and seed.
impl PartialEq for Seat {
    fn eq(&self, other: &Seat) -> bool {
        match (self, other) {
            (Seat::Human, Seat::Human) => true,
            (Seat::Computer(a), Seat::Computer(b)) => a.spec == b.spec && a.seed == b.seed,
            _ => false,
        }
    }
}
