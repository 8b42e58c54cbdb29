//! Octal games as [`ImpartialGame`]s: positions are multisets of rows, and each row is a part.

use std::fmt;

use super::OctalCode;
use crate::impartial::ImpartialGame;

/// A position of an octal game: the lengths of its rows, sorted, without empty rows.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rows(Vec<u32>);

impl Rows {
    /// The position with rows of these lengths (in any order; empty rows are dropped).
    pub fn new(lengths: impl IntoIterator<Item = u32>) -> Self {
        let mut lengths: Vec<u32> = lengths.into_iter().filter(|&n| n > 0).collect();
        lengths.sort_unstable();
        Rows(lengths)
    }

    /// The lengths of the rows, shortest first.
    pub fn lengths(&self) -> &[u32] {
        &self.0
    }

    /// The number of pins on the board.
    pub fn pins(&self) -> u64 {
        self.0.iter().map(|&n| u64::from(n)).sum()
    }

    /// Every position of `pins` pins in all, each once (the partitions of `pins`).
    pub fn with_pins(pins: u32) -> Vec<Rows> {
        fn extend(left: u32, largest: u32, prefix: &mut Vec<u32>, out: &mut Vec<Rows>) {
            if left == 0 {
                out.push(Rows::new(prefix.iter().copied()));
                return;
            }
            for part in (1..=largest.min(left)).rev() {
                prefix.push(part);
                extend(left - part, part, prefix, out);
                prefix.pop();
            }
        }
        let mut out = Vec::new();
        extend(pins, pins, &mut Vec::new(), &mut out);
        out
    }
}

impl fmt::Display for Rows {
    /// Writes the rows as `3+5+7` (`empty` for no row).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "empty");
        }
        for (idx, n) in self.0.iter().enumerate() {
            if idx > 0 {
                write!(f, "+")?;
            }
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

/// An octal game played on rows of pins, as an [`ImpartialGame`].
///
/// Children are listed row by row (shortest row first, each length once), then by the number of
/// pins taken, then whole row, from an end, from the middle (the shorter piece growing). This is
/// the general, slow route to the values; [`GrundyTable`](super::GrundyTable) is the fast one.
#[derive(Clone, Debug)]
pub struct OctalGame {
    code: OctalCode,
}

impl OctalGame {
    /// The game with these rules.
    pub fn new(code: OctalCode) -> Self {
        OctalGame { code }
    }

    /// The rules.
    pub fn code(&self) -> &OctalCode {
        &self.code
    }

    /// Appends what a row of `n` pins can become in one move, as pairs of rows (0 for none).
    pub fn row_moves(&self, n: u32, out: &mut Vec<(u32, u32)>) {
        let code = &self.code;
        if code.splits_without_taking() {
            out.extend((1..=n / 2).map(|a| (a, n - a)));
        }
        for k in 1..=code.max_removal().min(n as usize) {
            let left = n - k as u32;
            if code.allows(k, 0) && left == 0 {
                out.push((0, 0));
            }
            if code.allows(k, 1) && left > 0 {
                out.push((left, 0));
            }
            if code.allows(k, 2) {
                out.extend((1..=left / 2).map(|a| (a, left - a)));
            }
        }
    }
}

impl ImpartialGame for OctalGame {
    type Position = Rows;
    type Key = Rows;

    fn key(&self, position: &Rows) -> Rows {
        position.clone()
    }

    fn children(&self, position: &Rows, out: &mut Vec<Rows>) {
        let rows = position.lengths();
        let mut moves = Vec::new();
        for (idx, &n) in rows.iter().enumerate() {
            if idx > 0 && rows[idx - 1] == n {
                continue;
            }
            moves.clear();
            self.row_moves(n, &mut moves);
            for &(a, b) in &moves {
                let others = rows[..idx].iter().chain(&rows[idx + 1..]).copied();
                out.push(Rows::new(others.chain([a, b])));
            }
        }
    }

    fn parts(&self, position: &Rows, out: &mut Vec<Rows>) {
        out.extend(position.lengths().iter().map(|&n| Rows(vec![n])));
    }
}
