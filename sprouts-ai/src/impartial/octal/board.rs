//! The decomposition attacked: a board of cells as a bitmask, solved with no rows, no splitting
//! and no XOR, against the row values.

use thiserror::Error;

use super::OctalCode;
use crate::impartial::{
    Convention, Couple, CouplePosition, ImpartialGame, Nimber, Outcome, OutcomeSolver, mex,
};

/// The board size of the decomposition checks: 16 cells, 65,536 boards.
pub const BOARD_CELLS: u32 = 16;

/// The largest board a [`CellBoard`] may have.
pub const MAX_BOARD_CELLS: u32 = 24;

/// Why a code has no [`CellBoard`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The code splits rows without taking pins, which a board of cells cannot show.
    #[error("`{code}` splits rows without taking a pin, which has no move on a board of cells")]
    SplitWithoutTaking {
        /// The code.
        code: String,
    },
    /// Too many cells.
    #[error("a board of {cells} cells is too large; at most {MAX_BOARD_CELLS}")]
    TooManyCells {
        /// The cells asked for.
        cells: u32,
    },
}

/// An octal game on a line of cells, each holding a pin or not: a position is a bitmask (bit `i`
/// set when cell `i` holds a pin) and a move clears `k` adjacent set bits inside one run of set
/// bits, allowed by digit `d_k` according to how many non-empty pieces of that run remain.
///
/// Nothing here knows about rows as separate games: the board is one game, and its values are
/// computed from its own moves. That makes it an independent check of the decomposition.
#[derive(Clone, Debug)]
pub struct CellBoard {
    code: OctalCode,
    cells: u32,
}

impl CellBoard {
    /// The board of `cells` cells for `code`.
    ///
    /// # Errors
    /// [`BoardError`] when the code splits rows without taking pins or the board is larger than
    /// [`MAX_BOARD_CELLS`].
    pub fn new(code: OctalCode, cells: u32) -> Result<Self, BoardError> {
        if code.splits_without_taking() {
            return Err(BoardError::SplitWithoutTaking {
                code: code.to_string(),
            });
        }
        if cells > MAX_BOARD_CELLS {
            return Err(BoardError::TooManyCells { cells });
        }
        Ok(CellBoard { code, cells })
    }

    /// The number of cells.
    pub fn cells(&self) -> u32 {
        self.cells
    }

    /// The board holding a single row of `n` pins in its first cells (all 32 bits from 32 on).
    pub fn row(n: u32) -> u32 {
        1u32.checked_shl(n).map_or(u32::MAX, |bit| bit - 1)
    }

    /// The value of every board, by the mex rule over its own moves, indexed by mask.
    ///
    /// Every move clears bits, so a child's mask is smaller than its parent's: the masks are
    /// scored in increasing order.
    pub fn values(&self) -> Vec<Nimber> {
        let _span =
            tracing::info_span!("board_values", code = %self.code, cells = self.cells).entered();
        let mut values: Vec<Nimber> = Vec::with_capacity(1 << self.cells);
        let mut children = Vec::new();
        for mask in 0..1u32 << self.cells {
            children.clear();
            self.children(&mask, &mut children);
            values.push(mex(children.iter().map(|&child| values[child as usize])));
        }
        values
    }
}

impl ImpartialGame for CellBoard {
    type Position = u32;
    type Key = u32;

    fn key(&self, mask: &u32) -> u32 {
        *mask
    }

    fn children(&self, &mask: &u32, out: &mut Vec<u32>) {
        let mut start = 0;
        while start < self.cells {
            if mask >> start & 1 == 0 {
                start += 1;
                continue;
            }
            let run = (mask >> start).trailing_ones();
            for k in 1..=(self.code.max_removal() as u32).min(run) {
                for from in start..=start + run - k {
                    let left = from - start;
                    let right = start + run - (from + k);
                    let pieces = usize::from(left > 0) + usize::from(right > 0);
                    if self.code.allows(k as usize, pieces) {
                        out.push(mask & !(((1u32 << k) - 1) << from));
                    }
                }
            }
            start += run;
        }
    }
}

/// The result of [`check_decomposition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecompositionCheck {
    /// Boards compared.
    pub boards: usize,
    /// Boards whose value equals the nim sum of their rows' values.
    pub agreeing: usize,
    /// The first board that does not, if any.
    pub first_counterexample: Option<u32>,
}

/// Compares the value of every board of `board` (by its own moves) with the nim sum of the
/// values of its runs in `row_values`.
///
/// # Panics
/// When `row_values` does not hold `G(0)` to `G(cells)`.
pub fn check_decomposition(board: &CellBoard, row_values: &[Nimber]) -> DecompositionCheck {
    let values = board.values();
    let mut check = DecompositionCheck {
        boards: values.len(),
        agreeing: 0,
        first_counterexample: None,
    };
    for (mask, &value) in values.iter().enumerate() {
        let mask = mask as u32;
        let mut by_rows = Nimber::ZERO;
        let mut rest = mask;
        while rest != 0 {
            rest >>= rest.trailing_zeros();
            let run = rest.trailing_ones();
            by_rows ^= row_values[run as usize];
            rest = rest.checked_shr(run).unwrap_or(0);
        }
        match by_rows == value {
            true => check.agreeing += 1,
            false => {
                check.first_counterexample.get_or_insert(mask);
            }
        }
    }
    check
}

/// The result of [`play_the_definition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefinitionCheck {
    /// Games decided: a row beside a nim heap.
    pub games: usize,
    /// Games lost exactly when the heap is the row's value.
    pub agreeing: usize,
    /// The first (row, heap) that disagrees, if any.
    pub first_counterexample: Option<(u32, u32)>,
}

/// Plays the definition of the values: every row of `n ≤ cells` pins beside a nim heap of `h`
/// counters, for every `h ≤ max_heap`, decided by plain win/loss recursion on the board plus the
/// heap. The player to move must lose exactly when `h = G(n)`.
///
/// # Panics
/// When `row_values` does not hold `G(0)` to `G(cells)`.
pub fn play_the_definition(
    board: &CellBoard,
    row_values: &[Nimber],
    max_heap: u32,
) -> DefinitionCheck {
    let _span = tracing::info_span!("play_the_definition", cells = board.cells, max_heap).entered();
    let mut solver = OutcomeSolver::new(Couple(board), Convention::Normal);
    let mut check = DefinitionCheck {
        games: 0,
        agreeing: 0,
        first_counterexample: None,
    };
    for n in 0..=board.cells {
        for heap in 0..=max_heap {
            let couple = CouplePosition {
                position: CellBoard::row(n),
                heap: Nimber(heap),
            };
            let lost = solver.outcome(&couple) == Outcome::Loss;
            check.games += 1;
            match lost == (Nimber(heap) == row_values[n as usize]) {
                true => check.agreeing += 1,
                false => {
                    check.first_counterexample.get_or_insert((n, heap));
                }
            }
        }
    }
    check
}
