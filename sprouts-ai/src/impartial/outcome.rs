//! Plain win/loss search: the reference every faster method of this module is checked against.

use rustc_hash::FxHashMap;

use super::{Convention, ImpartialGame, Outcome};

/// Decides positions of any [`ImpartialGame`] by the definition alone: a position is won when
/// some child is lost, and a position with no move is decided by the [`Convention`].
///
/// Whole positions are searched (the decomposition into parts is not used) and memoised by key.
/// This is the reference for the solvers that rest on theory: nimbers by parts, misère canonical
/// trees, octal-game values.
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::{Convention, Nim, Outcome, OutcomeSolver};
/// let mut normal = OutcomeSolver::new(Nim, Convention::Normal);
/// let mut misere = OutcomeSolver::new(Nim, Convention::Misere);
/// let one_one = Nim::position([1, 1]);
/// assert_eq!(normal.outcome(&one_one), Outcome::Loss);
/// assert_eq!(misere.outcome(&one_one), Outcome::Win);
/// ```
#[derive(Debug)]
pub struct OutcomeSolver<G: ImpartialGame> {
    game: G,
    convention: Convention,
    memo: FxHashMap<G::Key, Outcome>,
}

impl<G: ImpartialGame> OutcomeSolver<G> {
    /// A solver for `game` under `convention`, with an empty memo.
    pub fn new(game: G, convention: Convention) -> Self {
        OutcomeSolver {
            game,
            convention,
            memo: FxHashMap::default(),
        }
    }

    /// The game this solver works on.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The convention this solver plays under.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// The outcome of `position` for the player to move.
    ///
    /// # Complexity
    /// Each distinct key is expanded at most once; the recursion is as deep as the longest game.
    pub fn outcome(&mut self, position: &G::Position) -> Outcome {
        let key = self.game.key(position);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let mut children = Vec::new();
        self.game.children(position, &mut children);
        let outcome = match children.is_empty() {
            true => self.convention.terminal_outcome(),
            false => Outcome::from_win(
                children
                    .iter()
                    .any(|child| self.outcome(child) == Outcome::Loss),
            ),
        };
        self.memo.insert(key, outcome);
        outcome
    }

    /// The first child of `position` (in the game's order) that is lost for the player to move
    /// there, or `None` when `position` is lost or has no move.
    ///
    /// # Examples
    /// ```
    /// use sprouts_ai::impartial::{Convention, Nim, OutcomeSolver};
    /// let mut normal = OutcomeSolver::new(Nim, Convention::Normal);
    /// assert_eq!(normal.winning_move(&Nim::position([1, 2])), Some(Nim::position([1, 1])));
    /// let mut misere = OutcomeSolver::new(Nim, Convention::Misere);
    /// assert_eq!(misere.winning_move(&Nim::position([1, 2])), Some(Nim::position([1])));
    /// ```
    pub fn winning_move(&mut self, position: &G::Position) -> Option<G::Position> {
        let mut children = Vec::new();
        self.game.children(position, &mut children);
        children
            .into_iter()
            .find(|child| self.outcome(child) == Outcome::Loss)
    }

    /// How many distinct positions have been decided.
    pub fn decided(&self) -> usize {
        self.memo.len()
    }
}
