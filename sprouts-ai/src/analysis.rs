//! The analysis board: everything the solver can say about a position within a budget, told
//! as it is found.
//!
//! In order: the bounds on the moves left ([`crate::bounds`], instant), the position's
//! independent parts (its canonical lands) each with its nimber, the outcome (from the
//! parts' nimbers when they are all known, else searched for), then every distinct move with
//! the nimber of the position it leads to and its verdict (winning when that nimber is 0). Each
//! answer is reported to the caller's observer as soon as it is known. What the budget did not
//! settle is `None` ("unknown"), never a guess: a move's verdict without its nimber comes
//! from the child's outcome alone.
//!
//! Normal play only (the nimbers and the verdicts of moves are normal-play values).

use std::collections::HashMap;

use sprouts_topo::{LandForm, Move, Position};

use crate::impartial::{Nimber, Outcome};
use crate::limits::Limits;
use crate::solver::Solver;

/// The most moves an analysis lists (a position of a few hundred seeds has hundreds of
/// thousands of distinct moves: the first ones are listed, the count says how many there are).
pub const MAX_LISTED_MOVES: usize = 2000;

/// One independent part of the position: a canonical land and its nimber.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartVerdict {
    /// The land in canonical GLOP notation.
    pub land: String,
    /// Its nimber, when settled within the budget.
    pub nimber: Option<u32>,
}

/// One distinct move of the position and what it leads to.
#[derive(Clone, Debug)]
pub struct MoveVerdict {
    /// The move (a move of the analysed position).
    pub mv: Move,
    /// The move in words.
    pub words: String,
    /// The canonical form of the position it leads to.
    pub child: String,
    /// The nimber of that position, when settled.
    pub nimber: Option<u32>,
    /// Whether the move wins (the position it leads to is lost for the player to move then),
    /// when settled.
    pub winning: Option<bool>,
}

/// What is known of a position (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct BoardReport {
    /// The canonical form.
    pub canonical: String,
    /// The fewest moves any game from here can take (`m`).
    pub lower: u32,
    /// The most moves any game from here can take (`M`).
    pub upper: u32,
    /// The independent parts.
    pub parts: Vec<PartVerdict>,
    /// The position's nimber, when settled.
    pub nimber: Option<u32>,
    /// Whether the player to move wins, when settled.
    pub outcome: Option<Outcome>,
    /// The distinct moves (interchangeable boundaries counted, not listed), at most
    /// [`MAX_LISTED_MOVES`] of them.
    pub moves: Vec<MoveVerdict>,
    /// How many distinct moves the position has (more than `moves` lists when it has more
    /// than [`MAX_LISTED_MOVES`]).
    pub move_count: u128,
    /// Nodes the solver expanded.
    pub nodes: u64,
}

impl BoardReport {
    /// The moves known to win.
    pub fn winning_moves(&self) -> impl Iterator<Item = &MoveVerdict> {
        self.moves.iter().filter(|m| m.winning == Some(true))
    }
}

/// One step of an analysis, as it is found.
#[derive(Clone, Debug)]
pub enum BoardEvent {
    /// The canonical form, the bounds, the parts (nimbers not yet known) and the moves
    /// (verdicts not yet known).
    Started(Box<BoardReport>),
    /// Part `index` has its nimber (or is given up: `None`).
    Part {
        /// Index into [`BoardReport::parts`].
        index: usize,
        /// The nimber, or `None` when the budget ran out.
        nimber: Option<u32>,
    },
    /// The position's outcome and nimber.
    Outcome {
        /// The nimber, when known.
        nimber: Option<u32>,
        /// The outcome, when known.
        outcome: Option<Outcome>,
    },
    /// Move `index` has its verdict.
    Move {
        /// Index into [`BoardReport::moves`].
        index: usize,
        /// The nimber of the position it leads to, when known.
        nimber: Option<u32>,
        /// Whether it wins, when known.
        winning: Option<bool>,
    },
}

/// Analyses `pos` within `limits` (see the module docs), telling `observer` each step, and
/// returns the whole report. The deadline and stop flag of `limits` bound the whole analysis;
/// its node limit bounds each search.
pub fn analyse_board(
    pos: &Position,
    solver: &Solver,
    limits: &Limits,
    observer: &mut dyn FnMut(&BoardEvent),
) -> BoardReport {
    let nodes_before = solver.nodes_expanded();
    let bounds = crate::bounds::bounds(pos);
    let form = pos.canonical();
    let lands: Vec<LandForm> = pos.land_forms();
    let mut report = BoardReport {
        canonical: form.as_str().to_owned(),
        lower: bounds.lower,
        upper: bounds.upper,
        parts: lands
            .iter()
            .map(|l| PartVerdict {
                land: l.to_string(),
                nimber: None,
            })
            .collect(),
        ..BoardReport::default()
    };
    report.move_count = pos
        .families()
        .iter()
        .fold(0u128, |n, f| n.saturating_add(f.distinct_move_count()));
    let moves: Vec<Move> = pos.distinct_moves().take(MAX_LISTED_MOVES).collect();
    let mut children = Vec::with_capacity(moves.len());
    for mv in &moves {
        let child = pos.play(mv).expect("a move the position listed");
        report.moves.push(MoveVerdict {
            mv: mv.clone(),
            words: mv.describe(pos),
            child: child.canonical().as_str().to_owned(),
            nimber: None,
            winning: None,
        });
        children.push(child);
    }
    observer(&BoardEvent::Started(Box::new(report.clone())));
    // The parts, one by one.
    for (index, land) in lands.iter().enumerate() {
        let nimber = solver
            .known_nimber(land)
            .or_else(|| solver.nimber(&land.to_position(), limits).value)
            .map(|n| n.0);
        report.parts[index].nimber = nimber;
        observer(&BoardEvent::Part { index, nimber });
    }
    // The outcome: the nim sum of the parts, else a search for the outcome alone.
    report.nimber = report
        .parts
        .iter()
        .try_fold(0u32, |acc, p| p.nimber.map(|n| acc ^ n));
    report.outcome = match report.nimber {
        Some(0) => Some(Outcome::Loss),
        Some(_) => Some(Outcome::Win),
        None => solver.outcome(pos, limits).value,
    };
    observer(&BoardEvent::Outcome {
        nimber: report.nimber,
        outcome: report.outcome,
    });
    // The moves; children with the same canonical form are solved once.
    let mut solved: HashMap<String, (Option<u32>, Option<bool>)> = HashMap::new();
    for (index, child) in children.iter().enumerate() {
        let key = report.moves[index].child.clone();
        let (nimber, winning) = match solved.get(&key) {
            Some(&v) => v,
            None => {
                let v = child_verdict(child, solver, limits);
                solved.insert(key, v);
                v
            }
        };
        report.moves[index].nimber = nimber;
        report.moves[index].winning = winning;
        observer(&BoardEvent::Move {
            index,
            nimber,
            winning,
        });
    }
    report.nodes = solver.nodes_expanded() - nodes_before;
    report
}

/// The nimber of the position a move leads to and whether the move wins.
fn child_verdict(
    child: &Position,
    solver: &Solver,
    limits: &Limits,
) -> (Option<u32>, Option<bool>) {
    if limits.interrupted() {
        return (None, None);
    }
    match solver.nimber(child, limits).value {
        Some(Nimber(n)) => (Some(n), Some(n == 0)),
        None => {
            let winning = match solver.outcome(child, limits).value {
                Some(Outcome::Loss) => Some(true),
                Some(Outcome::Win) => Some(false),
                None => None,
            };
            (None, winning)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolverConfig;

    /// The verdicts against the generic reference: a move wins exactly when the plain
    /// recursive outcome of its child is a loss, and the nimbers are the mex of the children's.
    #[test]
    fn verdicts_equal_the_plain_recursion_on_small_positions() {
        let solver = Solver::new(SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        })
        .expect("the solver starts");
        for text in ["0*2", "0*3", "0*4", "0.1a1a", "0*2.AB|AB", "0*5"] {
            let pos = Position::parse_glop(text).unwrap();
            let mut events = 0;
            let report = analyse_board(&pos, &solver, &Limits::none(), &mut |_| events += 1);
            assert_eq!(events, 2 + report.parts.len() + report.moves.len());
            let mut memo = HashMap::new();
            let g = reference_nimber(&pos, &mut memo);
            assert_eq!(report.nimber, Some(g), "{text}");
            assert_eq!(report.outcome == Some(Outcome::Win), g != 0, "{text}");
            for m in &report.moves {
                let child = pos.play(&m.mv).unwrap();
                let cg = reference_nimber(&child, &mut memo);
                assert_eq!(m.nimber, Some(cg), "{text}: {}", m.words);
                assert_eq!(m.winning, Some(cg == 0), "{text}: {}", m.words);
            }
            assert_eq!(report.winning_moves().count() > 0, g != 0, "{text}");
            assert!(report.lower <= report.upper);
            assert_eq!(report.move_count, report.moves.len() as u128, "{text}");
        }
    }

    /// Plain mex over every child, memoised by canonical form.
    fn reference_nimber(pos: &Position, memo: &mut HashMap<String, u32>) -> u32 {
        let key = pos.canonical().as_str().to_owned();
        if let Some(&g) = memo.get(&key) {
            return g;
        }
        let mut seen = Vec::new();
        for mv in pos.moves() {
            let child = pos.play(&mv).unwrap();
            seen.push(reference_nimber(&child, memo));
        }
        let g = (0..).find(|g| !seen.contains(g)).unwrap();
        memo.insert(key, g);
        g
    }

    /// With no budget nothing is settled and nothing is guessed.
    #[test]
    fn an_empty_budget_says_unknown() {
        let solver = Solver::new(SolverConfig::default()).expect("the solver starts");
        let pos = Position::new(9);
        let report = analyse_board(&pos, &solver, &Limits::nodes(1), &mut |_| {});
        assert!(report.moves.iter().all(|m| m.nimber.is_none()));
        assert_eq!(report.nimber, None);
        assert_eq!(report.outcome, None);
    }

    /// A start of many seeds lists the first moves and counts them all.
    #[test]
    fn many_moves_are_counted_and_the_first_listed() {
        let solver = Solver::new(SolverConfig::default()).expect("the solver starts");
        let pos = Position::new(120);
        let report = analyse_board(&pos, &solver, &Limits::nodes(1), &mut |_| {});
        assert_eq!(report.moves.len(), MAX_LISTED_MOVES);
        assert!(report.move_count > MAX_LISTED_MOVES as u128);
    }
}
