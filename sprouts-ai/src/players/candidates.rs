//! The candidates at the root (spec 5.8): every legal move, duplicates by canonical form dropped.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use sprouts_topo::{CanonicalForm, Move, Position};

use super::{Choice, Report, random_move};
use crate::Limits;

/// A truly different move: the move, the position after it and its canonical form.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub child: Position,
    /// The child's canonical form.
    pub form: CanonicalForm,
}

/// The limits ended the listing of the candidates before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stopped before every candidate was listed")]
pub struct Stopped;

/// Every legal move of `position` (interchangeable boundaries counted, not chosen) with the
/// moves that lead to the same game dropped, in order of canonical form. The forms are computed
/// in parallel.
pub fn candidates(position: &Position) -> Vec<Candidate> {
    candidates_within(position, &Limits::none()).unwrap_or_default()
}

/// [`candidates`], reading the stop flag and the deadline of `limits` (not the node count)
/// before every move listed and every child canonicalised: a huge position answers promptly
/// when stopped. The list, when complete, is the same as [`candidates`]'s.
pub fn candidates_within(position: &Position, limits: &Limits) -> Result<Vec<Candidate>, Stopped> {
    let mut moves: Vec<Move> = Vec::new();
    for mv in position.distinct_moves() {
        if limits.interrupted() {
            return Err(Stopped);
        }
        moves.push(mv);
    }
    let mut out: Vec<Candidate> = moves
        .into_par_iter()
        .filter_map(|mv| {
            if limits.interrupted() {
                return Some(Err(Stopped));
            }
            let child = position.play(&mv).ok()?;
            let form = child.canonical();
            Some(Ok(Candidate { mv, child, form }))
        })
        .collect::<Result<_, _>>()?;
    // A stable order (by form, then by the move's place in the list) whatever the threads did.
    out.sort_by(|a, b| a.form.cmp(&b.form));
    out.dedup_by(|a, b| a.form == b.form);
    Ok(out)
}

/// The move of a player stopped before it had its candidates: a random legal move (seeded), so
/// that a stopped player still moves. `None` only when there is no move.
pub(crate) fn stopped_choice(position: &Position, seed: u64) -> Option<Choice> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mv = random_move(position, &mut rng)?;
    Some(Choice {
        mv,
        report: Report {
            words: "stopped before the moves were compared; a random move".into(),
            ..Report::default()
        },
    })
}
