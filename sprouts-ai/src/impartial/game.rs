//! The impartial-game trait, outcomes and play conventions, and two small games built on the trait:
//! nim and couples (a position beside a nim heap).

use std::hash::Hash;

use super::Nimber;

/// Who wins a position with best play, seen from the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move wins (an N-position).
    Win,
    /// The player to move loses (a P-position).
    Loss,
}

impl Outcome {
    /// `Win` when `won` is true, `Loss` otherwise.
    pub fn from_win(won: bool) -> Self {
        match won {
            true => Outcome::Win,
            false => Outcome::Loss,
        }
    }

    /// Whether the player to move wins.
    pub fn is_win(self) -> bool {
        self == Outcome::Win
    }
}

/// Who wins when the player to move has no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Convention {
    /// The player who cannot move loses (the last player to move wins).
    Normal,
    /// The player who cannot move wins (the last player to move loses).
    Misere,
}

impl Convention {
    /// The outcome of a position with no move.
    pub fn terminal_outcome(self) -> Outcome {
        match self {
            Convention::Normal => Outcome::Loss,
            Convention::Misere => Outcome::Win,
        }
    }
}

/// A finite impartial game: both players have the same moves, and every game ends.
///
/// The solvers of this module ([`NimberSolver`](super::NimberSolver),
/// [`OutcomeSolver`](super::OutcomeSolver), [`MisereSolver`](super::MisereSolver)) work on any
/// implementation. A game describes its positions by three things:
///
/// - [`children`](Self::children): the positions one move away;
/// - [`key`](Self::key): the key under which solvers memoise a position, so it must identify the
///   position up to game equivalence (a canonical form: two positions with the same key must have
///   the same game tree up to isomorphism);
/// - [`parts`](Self::parts), optionally: the independent parts of a position, whose disjunctive sum
///   it is (a move is a move in exactly one part, the others unchanged). Solvers that work by parts
///   memoise parts rather than whole positions, which turns a product of game trees into a sum.
///
/// # Contract
/// The game must be finite (no infinite sequence of moves). `children` of a position must be the
/// union, over its parts, of that part's children each beside the unchanged other parts, up to
/// keys and order: the decomposition is a claim about the game, and the tests of an
/// implementation should check it against a solver that ignores it (as this module's tests do for
/// octal games). Duplicated children are allowed. Every method must be deterministic.
pub trait ImpartialGame {
    /// A position.
    type Position: Clone;
    /// The memoisation key of a position (its canonical form).
    type Key: Clone + Eq + Hash;

    /// The key of `position`.
    fn key(&self, position: &Self::Position) -> Self::Key;

    /// Appends every position one move away from `position` to `out`, in a deterministic order.
    fn children(&self, position: &Self::Position, out: &mut Vec<Self::Position>);

    /// Appends the independent parts of `position` to `out`. Parts with no move may be left out.
    /// The default is no decomposition: the position is its own single part.
    fn parts(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        out.push(position.clone());
    }
}

impl<G: ImpartialGame> ImpartialGame for &G {
    type Position = G::Position;
    type Key = G::Key;

    fn key(&self, position: &Self::Position) -> Self::Key {
        (**self).key(position)
    }

    fn children(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        (**self).children(position, out);
    }

    fn parts(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        (**self).parts(position, out);
    }
}

/// Nim: a position is a multiset of heaps, and a move takes any number of counters from one heap.
///
/// Positions are vectors of heap sizes; [`Nim::position`] sorts them and drops empty heaps, which
/// is the key. Each heap is a part.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

impl Nim {
    /// The position with the given heaps, normalised (sorted, no empty heap).
    pub fn position(heaps: impl IntoIterator<Item = u32>) -> Vec<u32> {
        let mut heaps: Vec<u32> = heaps.into_iter().filter(|&h| h > 0).collect();
        heaps.sort_unstable();
        heaps
    }
}

impl ImpartialGame for Nim {
    type Position = Vec<u32>;
    type Key = Vec<u32>;

    fn key(&self, position: &Vec<u32>) -> Vec<u32> {
        Nim::position(position.iter().copied())
    }

    fn children(&self, position: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        for (idx, &heap) in position.iter().enumerate() {
            if idx > 0 && position[idx - 1] == heap {
                continue;
            }
            for smaller in 0..heap {
                let mut child = position.clone();
                child[idx] = smaller;
                out.push(Nim::position(child));
            }
        }
    }

    fn parts(&self, position: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        out.extend(position.iter().filter(|&&h| h > 0).map(|&h| vec![h]));
    }
}

/// A position of a [`Couple`] game: a position of the inner game beside a nim heap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CouplePosition<P> {
    /// The position of the inner game.
    pub position: P,
    /// The size of the nim heap beside it.
    pub heap: Nimber,
}

/// The sum of a game and one nim heap, `P + *k`: the couples on which Lemoine and Viennot's
/// nimber search works ("Nimbers are inevitable", Theoretical Computer Science 462, 2012).
///
/// A move is a move of the inner game, or a move in the heap to any smaller size. The nimber of
/// `P` is the smallest `k` for which `P + *k` is a loss in normal play
/// ([`nimber_by_couples`](super::nimber_by_couples)). Couples are not decomposed: this is the game
/// on which a plain search is run.
#[derive(Clone, Copy, Debug)]
pub struct Couple<G>(pub G);

impl<G: ImpartialGame> ImpartialGame for Couple<G> {
    type Position = CouplePosition<G::Position>;
    type Key = (G::Key, Nimber);

    fn key(&self, position: &Self::Position) -> Self::Key {
        (self.0.key(&position.position), position.heap)
    }

    fn children(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        let mut inner = Vec::new();
        self.0.children(&position.position, &mut inner);
        out.extend(inner.into_iter().map(|child| CouplePosition {
            position: child,
            heap: position.heap,
        }));
        out.extend((0..position.heap.0).map(|smaller| CouplePosition {
            position: position.position.clone(),
            heap: Nimber(smaller),
        }));
    }
}
