//! Monte Carlo (spec 5.3): random games from every candidate, the best share of wins.

use std::time::Duration;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use sprouts_topo::Position;

use super::candidates::stopped_choice;
use super::{Candidate, Choice, Player, Report, candidates_within, mover_wins, playout};
use crate::Limits;
use crate::impartial::{Convention, Outcome};
use crate::seed::splitmix64;

/// How much a Monte Carlo player plays per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MonteCarloBudget {
    /// This many random games per candidate.
    Games(u32),
    /// Rounds of one game per candidate until the time is up (at least one round).
    Time(Duration),
}

/// The Monte Carlo player: for each candidate, random games to the end (Random's choices), and
/// the candidate whose games the mover won most often. Games run in parallel (rayon), each with
/// its own generator seeded from the player's seed, the move and the game, so the choice depends
/// on the seed only (with a game budget).
#[derive(Clone, Debug)]
pub struct MonteCarlo {
    budget: MonteCarloBudget,
    seed: u64,
    moves: u64,
}

impl MonteCarlo {
    /// A Monte Carlo player.
    pub fn new(budget: MonteCarloBudget, seed: u64) -> MonteCarlo {
        MonteCarlo {
            budget,
            seed,
            moves: 0,
        }
    }
}

/// Games per candidate in one round of a game budget: the limits are read between rounds.
const GAMES_PER_ROUND: u32 = 64;

/// Wins of the mover in `games` random games from each candidate's child; games are numbered
/// from `first` for the seeds.
fn play_round(
    cands: &[Candidate],
    games: u32,
    first: u64,
    seed: u64,
    convention: Convention,
) -> Vec<u32> {
    let total = cands.len() * games as usize;
    let mut wins = vec![0u32; cands.len()];
    let won: Vec<usize> = (0..total)
        .into_par_iter()
        .filter(|&i| {
            let c = i / games as usize;
            let g = first + (i % games as usize) as u64;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(splitmix64(
                seed ^ splitmix64(c as u64) ^ splitmix64(g << 20),
            ));
            mover_wins(playout(&cands[c].child, &mut rng), convention)
        })
        .map(|i| i / games as usize)
        .collect();
    for c in won {
        wins[c] += 1;
    }
    wins
}

/// Shares of wins for the mover over the candidates: `(wins, games)` per candidate.
pub(crate) fn monte_carlo_shares(
    cands: &[Candidate],
    budget: MonteCarloBudget,
    seed: u64,
    convention: Convention,
    limits: &Limits,
) -> (Vec<u32>, u32) {
    match budget {
        MonteCarloBudget::Games(n) => {
            // Rounds of at most `GAMES_PER_ROUND` games per candidate, the limits (a stop flag
            // or deadline) read between rounds; the games' seeds do not depend on the rounds,
            // so an unstopped search gives the same shares as one round of `n`.
            let n = n.max(1);
            let mut wins = vec![0u32; cands.len()];
            let mut games = 0u32;
            while games < n {
                let round = (n - games).min(GAMES_PER_ROUND);
                let w = play_round(cands, round, u64::from(games), seed, convention);
                for (a, b) in wins.iter_mut().zip(w) {
                    *a += b;
                }
                games += round;
                if limits.exceeded(0) {
                    break;
                }
            }
            (wins, games)
        }
        MonteCarloBudget::Time(d) => {
            let limits = limits.clone().with_time(d);
            let mut wins = vec![0u32; cands.len()];
            let mut games = 0u32;
            // Rounds of a few games per candidate (one game per candidate per worker).
            let per_round = rayon::current_num_threads().max(1) as u32;
            loop {
                let w = play_round(cands, per_round, u64::from(games), seed, convention);
                for (a, b) in wins.iter_mut().zip(w) {
                    *a += b;
                }
                games += per_round;
                if limits.exceeded(0) {
                    break;
                }
            }
            (wins, games)
        }
    }
}

impl Player for MonteCarlo {
    fn choose(
        &mut self,
        position: &Position,
        convention: Convention,
        limits: &Limits,
    ) -> Option<Choice> {
        let Ok(cands) = candidates_within(position, limits) else {
            return stopped_choice(position, splitmix64(self.seed ^ splitmix64(self.moves + 1)));
        };
        if cands.is_empty() {
            return None;
        }
        self.moves += 1;
        let seed = splitmix64(self.seed ^ splitmix64(self.moves));
        let (wins, games) = monte_carlo_shares(&cands, self.budget, seed, convention, limits);
        let best = *wins.iter().max().expect("candidates");
        let tied: Vec<usize> = (0..cands.len()).filter(|&i| wins[i] == best).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let pick = *tied.choose(&mut rng).expect("a best candidate");
        // A move that ends the game is a proved win in normal play.
        let verdict = match convention {
            Convention::Normal if cands.iter().any(|c| c.form.is_over()) => Some(Outcome::Win),
            _ => None,
        };
        Some(Choice {
            mv: cands[pick].mv.clone(),
            report: Report {
                depth: 0,
                candidates: cands.len(),
                verdict,
                value: Some(f64::from(best) / f64::from(games)),
                work: u64::from(games) * cands.len() as u64,
                words: format!("{games} random games per candidate, {best} won"),
            },
        })
    }

    fn name(&self) -> String {
        match self.budget {
            MonteCarloBudget::Games(n) => format!("montecarlo:{n}"),
            MonteCarloBudget::Time(d) => format!("montecarlo:{}s", d.as_secs_f64()),
        }
    }
}
