//! Grundy values of rows of an octal game, by the mex rule over the ways a row can be cut.

use super::OctalCode;
use crate::impartial::Nimber;

/// The Grundy values `G(0), G(1), …` of single rows of an octal game, extended on demand.
///
/// `G(n)` is the mex of the values of the positions a row of `n` pins can become, where a row cut
/// in two is worth the nim sum of the two pieces (Sprague–Grundy; Winning Ways, ch. 4). The
/// decomposition this rests on is checked independently by
/// [`check_decomposition`](super::check_decomposition).
///
/// # Complexity
/// `G(n)` costs O(1) per allowed move that leaves at most one row and O(n) per allowed move
/// that may split the row, so the first `N` values cost O(N²) per splitting move.
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::octal::{GrundyTable, OctalCode};
/// let mut kayles = GrundyTable::new("0.77".parse()?);
/// kayles.extend_to(11);
/// let values: Vec<u32> = kayles.values().iter().map(|v| v.0).collect();
/// assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
/// # Ok::<(), sprouts_ai::impartial::octal::OctalCodeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct GrundyTable {
    code: OctalCode,
    values: Vec<Nimber>,
    /// `seen[v] == stamp` when the value `v` is an option of the row being computed.
    seen: Vec<u32>,
    stamp: u32,
}

impl GrundyTable {
    /// The table of `code` holding `G(0) = 0`.
    pub fn new(code: OctalCode) -> Self {
        GrundyTable {
            code,
            values: vec![Nimber::ZERO],
            seen: Vec::new(),
            stamp: 0,
        }
    }

    /// The rules.
    pub fn code(&self) -> &OctalCode {
        &self.code
    }

    /// The values computed so far, `G(0)` to `G(len - 1)`.
    pub fn values(&self) -> &[Nimber] {
        &self.values
    }

    /// Computes the values up to `G(n)` if they are not known yet.
    pub fn extend_to(&mut self, n: usize) {
        while self.values.len() <= n {
            let value = self.next_value();
            self.values.push(value);
        }
    }

    /// `G(n)`, computing the values up to it if needed.
    pub fn value(&mut self, n: usize) -> Nimber {
        self.extend_to(n);
        self.values[n]
    }

    /// The value of the row one longer than the longest known.
    fn next_value(&mut self) -> Nimber {
        let GrundyTable {
            code,
            values,
            seen,
            stamp,
        } = self;
        let n = values.len();
        *stamp = stamp.wrapping_add(1);
        if *stamp == 0 {
            seen.fill(0);
            *stamp = 1;
        }
        let mut mark = |value: Nimber| {
            let v = value.0 as usize;
            if v >= seen.len() {
                seen.resize((v + 1).next_power_of_two(), 0);
            }
            seen[v] = *stamp;
        };
        if code.splits_without_taking() {
            for a in 1..=n / 2 {
                mark(values[a] ^ values[n - a]);
            }
        }
        for k in 1..=code.max_removal().min(n) {
            if code.allows(k, 0) && n == k {
                mark(Nimber::ZERO);
            }
            if code.allows(k, 1) && n > k {
                mark(values[n - k]);
            }
            if code.allows(k, 2) {
                // Pieces a and n - k - a, both at least 1; by symmetry a need not pass the middle.
                for a in 1..=(n - k) / 2 {
                    mark(values[a] ^ values[n - k - a]);
                }
            }
        }
        let free = (0..).find(|&v| seen.get(v).is_none_or(|&s| s != *stamp));
        Nimber(free.expect("some value is free") as u32)
    }
}

/// The Grundy values `G(0)` to `G(n)` of rows of the octal game `code`.
pub fn grundy_values(code: &OctalCode, n: usize) -> Vec<Nimber> {
    let mut table = GrundyTable::new(code.clone());
    table.extend_to(n);
    table.values
}
