//! A fixed list of positions whose total node count shows any change in the search's behaviour.

use sprouts_topo::{ParseError, Position};

use super::{Solver, SolverConfig};
use crate::Limits;
use crate::impartial::{Nimber, Outcome};

/// One bench position: what is asked about it and the answer it must give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchCase {
    /// The position in GLOP notation.
    pub position: &'static str,
    /// The outcome for the player to move (normal play).
    pub outcome: Outcome,
    /// The nimber, when the case asks for it too.
    pub nimber: Option<u32>,
}

const fn case(position: &'static str, win: bool, nimber: Option<u32>) -> BenchCase {
    BenchCase {
        position,
        outcome: if win { Outcome::Win } else { Outcome::Loss },
        nimber,
    }
}

/// The bench positions: n-spot starts (outcomes and nimbers from the published table), a
/// position met in a 12-spot game and sums of lands (their answers are regression values, as
/// this solver gave them). Each is solved by a fresh one-thread solver with the default tables.
pub const BENCH_CASES: [BenchCase; 9] = [
    case("0*6", false, Some(0)),
    case("0*7", false, Some(0)),
    case("0*8", false, None),
    case("0*9", true, None),
    case("0*10", true, None),
    case("0*4.1Aab1baBCD|ADCB+122", true, None),
    case("0*8.AB|0*3.AB", true, None),
    case("0*4.A|0*4.A+0*2.AB|AB", true, None),
    case("0*5+0*6", true, None),
];

/// What the bench list cost: the total nodes and the time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchReport {
    /// Nodes expanded over all the cases.
    pub nodes: u64,
    /// Seconds over all the cases.
    pub seconds: f64,
}

/// Why the bench list failed.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The solver could not start.
    #[error(transparent)]
    Solver(#[from] super::SolverError),
    /// A case's position does not parse.
    #[error("bench position `{position}`: {source}")]
    Parse {
        /// The position.
        position: &'static str,
        /// Why it does not parse.
        source: ParseError,
    },
    /// A case's answer differs from the one listed.
    #[error("bench position `{position}`: got {got}, expected {expected}")]
    Wrong {
        /// The position.
        position: &'static str,
        /// The answer found.
        got: String,
        /// The answer listed.
        expected: String,
    },
}

/// Solves every case of [`BENCH_CASES`] with a fresh one-thread solver (deterministic), checks
/// the answers and returns the total nodes and time.
pub fn run_bench_cases() -> Result<BenchReport, BenchError> {
    let mut nodes = 0;
    let mut seconds = 0.0;
    for case in BENCH_CASES {
        let pos = Position::parse_glop(case.position).map_err(|source| BenchError::Parse {
            position: case.position,
            source,
        })?;
        let solver = Solver::new(SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        })?;
        let got = solver.outcome(&pos, &Limits::none());
        nodes += got.nodes;
        seconds += got.elapsed.as_secs_f64();
        if got.value != Some(case.outcome) {
            return Err(BenchError::Wrong {
                position: case.position,
                got: format!("{:?}", got.value),
                expected: format!("{:?}", case.outcome),
            });
        }
        if let Some(want) = case.nimber {
            let got = solver.nimber(&pos, &Limits::none());
            nodes += got.nodes;
            seconds += got.elapsed.as_secs_f64();
            if got.value != Some(Nimber(want)) {
                return Err(BenchError::Wrong {
                    position: case.position,
                    got: format!("{:?}", got.value),
                    expected: format!("{want}"),
                });
            }
        }
    }
    Ok(BenchReport { nodes, seconds })
}
