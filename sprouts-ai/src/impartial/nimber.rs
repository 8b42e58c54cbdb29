//! Normal play: nimbers, the mex rule, nim sums, and a memoised solver that computes nimbers by
//! parts (Sprague–Grundy).

use std::fmt;
use std::ops::{BitXor, BitXorAssign};

use rustc_hash::FxHashMap;

use super::{Couple, CouplePosition, ImpartialGame, Outcome, OutcomeSolver};

/// A nimber `*n`, the normal-play value of an impartial game (Sprague 1935, Grundy 1939).
///
/// Nimbers add by bitwise XOR ([`nim_sum`]); a position is lost for the player to move exactly
/// when its nimber is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nimber(pub u32);

impl Nimber {
    /// The nimber 0: a lost position in normal play.
    pub const ZERO: Nimber = Nimber(0);
}

impl BitXor for Nimber {
    type Output = Nimber;

    fn bitxor(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

impl BitXorAssign for Nimber {
    fn bitxor_assign(&mut self, rhs: Nimber) {
        self.0 ^= rhs.0;
    }
}

impl fmt::Display for Nimber {
    /// Writes the nimber as `*n` (`0` for zero), as in Winning Ways.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => write!(f, "0"),
            n => write!(f, "*{n}"),
        }
    }
}

/// The minimum excludant: the least nimber not among `values`.
///
/// # Complexity
/// O(m log m) for m values.
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::{mex, Nimber};
/// assert_eq!(mex([Nimber(0), Nimber(1), Nimber(3)]), Nimber(2));
/// assert_eq!(mex([]), Nimber(0));
/// ```
pub fn mex(values: impl IntoIterator<Item = Nimber>) -> Nimber {
    let mut values: Vec<u32> = values.into_iter().map(|v| v.0).collect();
    values.sort_unstable();
    values.dedup();
    let missing = values
        .iter()
        .enumerate()
        .find(|&(idx, &v)| v as usize != idx);
    match missing {
        Some((idx, _)) => Nimber(idx as u32),
        None => Nimber(values.len() as u32),
    }
}

/// The nim sum (bitwise XOR) of `values`: the nimber of a sum of games with these nimbers.
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::{nim_sum, Nimber};
/// assert_eq!(nim_sum([Nimber(1), Nimber(2), Nimber(3)]), Nimber(0));
/// ```
pub fn nim_sum(values: impl IntoIterator<Item = Nimber>) -> Nimber {
    values.into_iter().fold(Nimber::ZERO, |acc, v| acc ^ v)
}

/// Nimbers of positions of any [`ImpartialGame`], by parts.
///
/// The nimber of a position is the nim sum of the nimbers of its parts; the nimber of a part is
/// the mex of the nimbers of its children. Parts are memoised by key, so a sum costs the sum of
/// its parts' game trees instead of their product (spec 5.6; Berlekamp, Conway and Guy, *Winning
/// Ways*, ch. 4).
///
/// # Complexity
/// Each distinct part is expanded once; the recursion is as deep as the longest game.
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::{Nim, Nimber, NimberSolver};
/// let mut solver = NimberSolver::new(Nim);
/// assert_eq!(solver.nimber(&Nim::position([1, 2, 4])), Nimber(7));
/// ```
#[derive(Debug)]
pub struct NimberSolver<G: ImpartialGame> {
    game: G,
    parts: FxHashMap<G::Key, Nimber>,
}

impl<G: ImpartialGame> NimberSolver<G> {
    /// A solver for `game` with an empty memo.
    pub fn new(game: G) -> Self {
        NimberSolver {
            game,
            parts: FxHashMap::default(),
        }
    }

    /// The game this solver works on.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The nimber of `position`: the nim sum of its parts' nimbers.
    pub fn nimber(&mut self, position: &G::Position) -> Nimber {
        let mut parts = Vec::new();
        self.game.parts(position, &mut parts);
        parts
            .iter()
            .fold(Nimber::ZERO, |acc, part| acc ^ self.part_nimber(part))
    }

    /// The nimber of a position that is a single part: the mex of its children's nimbers.
    pub fn part_nimber(&mut self, part: &G::Position) -> Nimber {
        let key = self.game.key(part);
        if let Some(&known) = self.parts.get(&key) {
            return known;
        }
        let mut children = Vec::new();
        self.game.children(part, &mut children);
        let values: Vec<Nimber> = children.iter().map(|child| self.nimber(child)).collect();
        let value = mex(values);
        self.parts.insert(key, value);
        value
    }

    /// The nimber of the part with this key, if it has been computed.
    pub fn known(&self, key: &G::Key) -> Option<Nimber> {
        self.parts.get(key).copied()
    }

    /// How many distinct parts have been solved.
    pub fn solved_parts(&self) -> usize {
        self.parts.len()
    }
}

/// The nimber of `position` found the way Lemoine and Viennot search for it: the smallest `k`
/// such that the couple `position + *k` is a loss, each couple decided by plain win/loss search
/// (no mex, no decomposition).
///
/// An independent route to the same number as [`NimberSolver`]; the solver's memo keeps the
/// couples it has decided, so asking for several positions of one game shares the work.
///
/// Reference: J. Lemoine, S. Viennot, "Nimbers are inevitable", Theoretical Computer Science 462
/// (2012) 70–79.
pub fn nimber_by_couples<G: ImpartialGame>(
    solver: &mut OutcomeSolver<Couple<G>>,
    position: &G::Position,
) -> Nimber {
    // A position with k children has a nimber of at most k, so the loop ends.
    (0..)
        .map(Nimber)
        .find(|&heap| {
            let couple = CouplePosition {
                position: position.clone(),
                heap,
            };
            solver.outcome(&couple) == Outcome::Loss
        })
        .expect("every position has a nimber")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::{Convention, Nim};

    #[test]
    fn mex_of_gapped_and_repeated_values() {
        assert_eq!(mex([Nimber(1), Nimber(2)]), Nimber(0));
        assert_eq!(mex([Nimber(0), Nimber(0), Nimber(2)]), Nimber(1));
        assert_eq!(mex((0..5).map(Nimber)), Nimber(5));
    }

    #[test]
    fn nim_positions_have_the_xor_of_their_heaps() {
        let mut solver = NimberSolver::new(Nim);
        for a in 0..6 {
            for b in 0..6 {
                for c in 0..6 {
                    let position = Nim::position([a, b, c]);
                    assert_eq!(
                        solver.nimber(&position),
                        Nimber(a ^ b ^ c),
                        "heaps {a} {b} {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn couples_search_agrees_with_the_mex_solver_on_nim() {
        let mut by_parts = NimberSolver::new(Nim);
        let mut by_couples = OutcomeSolver::new(Couple(Nim), Convention::Normal);
        for a in 0..5 {
            for b in 0..5 {
                let position = Nim::position([a, b]);
                assert_eq!(
                    nimber_by_couples(&mut by_couples, &position),
                    by_parts.nimber(&position),
                    "heaps {a} {b}"
                );
            }
        }
    }

    #[test]
    fn nimbers_display_as_in_winning_ways() {
        assert_eq!(Nimber(0).to_string(), "0");
        assert_eq!(Nimber(3).to_string(), "*3");
    }
}
