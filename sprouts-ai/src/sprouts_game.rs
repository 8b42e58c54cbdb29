//! Sprouts as an [`ImpartialGame`]: the bridge between `sprouts-topo` and the generic solvers of
//! [`impartial`](crate::impartial) (reference searches, nimbers by parts, misère trees).

use sprouts_topo::{CanonicalForm, Position};

use crate::impartial::ImpartialGame;

/// Sprouts positions as an impartial game.
///
/// - Children are the distinct children ([`Position::distinct_children`]), read back from their
///   canonical forms, so equal games are visited once.
/// - The key is the canonical form (GLOP's reductions), equal for equal games.
/// - Parts are the independent lands of the canonical form.
#[derive(Clone, Copy, Debug, Default)]
pub struct SproutsGame;

impl SproutsGame {
    /// A position read back from a canonical form (or a land of one).
    ///
    /// # Panics
    /// When `form` is not GLOP notation; canonical forms written by `sprouts-topo` always are.
    pub fn position_of(form: &str) -> Position {
        Position::parse_glop(form)
            .unwrap_or_else(|e| panic!("a canonical form reads back as a position: {form}: {e}"))
    }
}

impl ImpartialGame for SproutsGame {
    type Position = Position;
    type Key = CanonicalForm;

    fn key(&self, position: &Position) -> CanonicalForm {
        position.canonical()
    }

    fn children(&self, position: &Position, out: &mut Vec<Position>) {
        position.for_each_child_lands(|child| {
            if child.as_str() != "!" {
                out.push(Self::position_of(child.as_str()));
            } else {
                out.push(Position::new(0));
            }
        });
    }

    fn parts(&self, position: &Position, out: &mut Vec<Position>) {
        let form = position.canonical();
        out.extend(form.lands().map(Self::position_of));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::{
        Convention, MisereSolver, Nimber, NimberSolver, Outcome, OutcomeSolver,
    };

    /// Nimbers of the n-spot starts, by parts, against the oracle (n-spot-normal.tsv: 0 0 0 1 1 1).
    #[test]
    fn nimbers_of_small_starts() {
        let mut solver = NimberSolver::new(SproutsGame);
        let want = [0, 0, 0, 1, 1, 1];
        for (n, &w) in want.iter().enumerate() {
            assert_eq!(
                solver.nimber(&Position::new(n as u32)),
                Nimber(w),
                "{n} spots"
            );
        }
    }

    /// The decomposition against a plain search that ignores it, on small starts, both
    /// conventions; misère outcomes against the oracle (n-spot-misere.tsv: W L L L for 1..=4).
    #[test]
    fn parts_agree_with_plain_search() {
        struct Whole;
        impl ImpartialGame for Whole {
            type Position = Position;
            type Key = CanonicalForm;
            fn key(&self, p: &Position) -> CanonicalForm {
                p.canonical()
            }
            fn children(&self, p: &Position, out: &mut Vec<Position>) {
                SproutsGame.children(p, out);
            }
        }
        let misere = [Outcome::Win, Outcome::Loss, Outcome::Loss, Outcome::Loss];
        for n in 1..=4u32 {
            let start = Position::new(n);
            let normal = OutcomeSolver::new(Whole, Convention::Normal).outcome(&start);
            let by_parts = NimberSolver::new(SproutsGame).nimber(&start);
            assert_eq!(normal.is_win(), by_parts != Nimber(0), "{n} spots");
            let plain = OutcomeSolver::new(Whole, Convention::Misere).outcome(&start);
            let trees = MisereSolver::new(SproutsGame).outcome(&start);
            assert_eq!(plain, trees, "{n} spots, misère");
            assert_eq!(plain, misere[n as usize - 1], "{n} spots, misère oracle");
        }
    }

    #[test]
    fn game_over_has_no_parts_and_no_children() {
        let mut out = Vec::new();
        SproutsGame.children(&Position::new(0), &mut out);
        assert!(out.is_empty());
        SproutsGame.parts(&Position::new(0), &mut out);
        assert!(out.is_empty());
    }
}
