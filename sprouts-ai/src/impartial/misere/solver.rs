//! Misère canonical trees of the positions of any impartial game, computed by parts.

use rustc_hash::FxHashMap;

use super::{MisereStore, TreeId};
use crate::impartial::{ImpartialGame, Outcome};

/// Misère canonical trees of positions of any [`ImpartialGame`], by parts (spec 5.7).
///
/// The tree of a part is the simplest form of the game whose options are the trees of its
/// children; the tree of a position is the sum of its parts' trees. Parts are memoised by key, and
/// the trees live in the solver's [`MisereStore`], so trees of different positions (and of
/// different games sharing the store through [`with_store`](Self::with_store)) can be compared by
/// id and added.
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::{MisereSolver, Nim, Outcome};
/// let mut solver = MisereSolver::new(Nim);
/// let position = Nim::position([2, 2]);
/// assert_eq!(solver.outcome(&position), Outcome::Loss);
/// let three = solver.store_mut().heap(3);
/// assert_eq!(solver.tree(&Nim::position([3])), three);
/// ```
#[derive(Debug)]
pub struct MisereSolver<G: ImpartialGame> {
    game: G,
    store: MisereStore,
    parts: FxHashMap<G::Key, TreeId>,
}

impl<G: ImpartialGame> MisereSolver<G> {
    /// A solver for `game` with a fresh store.
    pub fn new(game: G) -> Self {
        MisereSolver::with_store(game, MisereStore::new())
    }

    /// A solver for `game` that adds its trees to `store`.
    pub fn with_store(game: G, store: MisereStore) -> Self {
        MisereSolver {
            game,
            store,
            parts: FxHashMap::default(),
        }
    }

    /// The game this solver works on.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The store of trees.
    pub fn store(&self) -> &MisereStore {
        &self.store
    }

    /// The store of trees, to build trees or sums beside the solver's.
    pub fn store_mut(&mut self) -> &mut MisereStore {
        &mut self.store
    }

    /// Gives the store back.
    pub fn into_store(self) -> MisereStore {
        self.store
    }

    /// The trees of the parts of `position`, in the order of [`ImpartialGame::parts`].
    pub fn part_trees(&mut self, position: &G::Position) -> Vec<TreeId> {
        let mut parts = Vec::new();
        self.game.parts(position, &mut parts);
        parts.iter().map(|part| self.part_tree(part)).collect()
    }

    /// The canonical tree of `position`: the sum of its parts' trees.
    pub fn tree(&mut self, position: &G::Position) -> TreeId {
        let trees = self.part_trees(position);
        self.store.sum_all(&trees)
    }

    /// The canonical tree of a position that is a single part.
    pub fn part_tree(&mut self, part: &G::Position) -> TreeId {
        let key = self.game.key(part);
        if let Some(&known) = self.parts.get(&key) {
            return known;
        }
        let mut children = Vec::new();
        self.game.children(part, &mut children);
        let options: Vec<TreeId> = children.iter().map(|child| self.tree(child)).collect();
        let tree = self.store.game(&options);
        self.parts.insert(key, tree);
        tree
    }

    /// The misère outcome of `position` for the player to move, decided from its parts' trees.
    pub fn outcome(&mut self, position: &G::Position) -> Outcome {
        let trees = self.part_trees(position);
        self.store.outcome_of_sum(&trees)
    }

    /// How many distinct parts have their tree.
    pub fn solved_parts(&self) -> usize {
        self.parts.len()
    }
}
