//! The random player (spec 5.2) and random games to the end.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use smallvec::SmallVec;
use sprouts_topo::{BoundaryId, Move, Position};

use super::{Choice, Player, Report};
use crate::Limits;
use crate::impartial::Convention;

/// A random legal move: a family (pair of corners) uniformly, then how many of the region's
/// other live boundaries go inside, uniformly from 0 to k, then which ones (uniformly among the
/// sets of that size). Choosing the number first makes small and large enclosures equally likely.
/// `None` when there is no move.
pub fn random_move(position: &Position, rng: &mut impl Rng) -> Option<Move> {
    let families = position.families();
    if families.is_empty() {
        return None;
    }
    let family = &families[rng.random_range(0..families.len())];
    let free = family.free_boundaries();
    let k = free.len();
    let take = rng.random_range(0..=k);
    let mut pool: SmallVec<[BoundaryId; 16]> = free.iter().copied().collect();
    // A partial Fisher-Yates shuffle: the first `take` are a uniform subset.
    for i in 0..take {
        let j = rng.random_range(i..k);
        pool.swap(i, j);
    }
    family.with_side_a(&pool[..take])
}

/// Plays random moves (as [`random_move`]) from `position` to the end; returns the number of
/// moves played.
pub fn playout(position: &Position, rng: &mut impl Rng) -> u32 {
    let mut pos = position.clone();
    let mut moves = 0;
    while let Some(mv) = random_move(&pos, rng) {
        pos = pos.play(&mv).expect("random moves are legal");
        moves += 1;
    }
    moves
}

/// The random player of spec 5.2.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    /// A random player with a seeded generator.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, position: &Position, _: Convention, _: &Limits) -> Option<Choice> {
        let mv = random_move(position, &mut self.rng)?;
        Some(Choice {
            mv,
            report: Report {
                candidates: position.families().len(),
                words: "a random move".to_string(),
                ..Report::default()
            },
        })
    }

    fn name(&self) -> String {
        "random".to_string()
    }
}
