//! Misère play: canonical trees (Conway's simplest forms) in a hash-consed store, sums of trees
//! and their outcomes, the misère nim rule, and a solver that computes trees by parts.

mod solver;
mod store;

#[cfg(test)]
mod tests;

pub use solver::MisereSolver;
pub use store::{MisereStore, TreeDisplay, TreeId};

use super::Outcome;

/// The misère outcome of a sum of nim heaps, for the player to move: a win exactly when the XOR
/// of the heaps is not 0, except when every heap is 0 or 1, and then exactly when it is 0
/// (Bouton 1902; Winning Ways, ch. 13).
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::{misere_nim_outcome, Outcome};
/// assert_eq!(misere_nim_outcome([1, 1]), Outcome::Win);
/// assert_eq!(misere_nim_outcome([1]), Outcome::Loss);
/// assert_eq!(misere_nim_outcome([2, 2]), Outcome::Loss);
/// assert_eq!(misere_nim_outcome([]), Outcome::Win);
/// ```
pub fn misere_nim_outcome(heaps: impl IntoIterator<Item = u32>) -> Outcome {
    let (xor, all_small) = heaps
        .into_iter()
        .fold((0, true), |(xor, small), h| (xor ^ h, small && h <= 1));
    match all_small {
        true => Outcome::from_win(xor == 0),
        false => Outcome::from_win(xor != 0),
    }
}
