//! The candidates at the root (spec 5.8): every legal move, duplicates by canonical form dropped.

use rayon::prelude::*;
use sprouts_topo::{CanonicalForm, Move, Position};

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

/// Every legal move of `position` (interchangeable boundaries counted, not chosen) with the
/// moves that lead to the same game dropped, in order of canonical form. The forms are computed
/// in parallel.
pub fn candidates(position: &Position) -> Vec<Candidate> {
    let moves: Vec<Move> = position.distinct_moves().collect();
    let mut out: Vec<Candidate> = moves
        .into_par_iter()
        .filter_map(|mv| {
            let child = position.play(&mv).ok()?;
            let form = child.canonical();
            Some(Candidate { mv, child, form })
        })
        .collect();
    // A stable order (by form, then by the move's place in the list) whatever the threads did.
    out.sort_by(|a, b| a.form.cmp(&b.form));
    out.dedup_by(|a, b| a.form == b.form);
    out
}
