//! Periods of octal-game values, certified by the Guy–Smith periodicity theorem.

use thiserror::Error;

use super::GrundyTable;
use crate::impartial::Nimber;

/// A certified period of the values of an octal game: `G(n + period) = G(n)` for every
/// `n ≥ preperiod`, for all n, not only the ones computed.
///
/// The certificate is the Guy–Smith periodicity theorem (Guy and Smith, "The G-values of various
/// games", Proc. Cambridge Philos. Soc. 52 (1956) 514–526; Winning Ways, ch. 4): if
/// `G(n + p) = G(n)` for all `n0 ≤ n < 2·n0 + p + t`, where `t` is the most pins a move takes, then
/// it holds for all `n ≥ n0`. The finite check is what [`certify_period`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The period `p`.
    pub period: usize,
    /// The pre-period `n0`: the values are periodic from `G(n0)` on.
    pub preperiod: usize,
    /// The largest `n` whose value the check compared: `2·n0 + 2·p + t − 1`.
    pub checked_to: usize,
}

impl Periodicity {
    /// The last `n` with `G(n) ≠ G(n + p)`, if any (`preperiod − 1`, when the period found is the
    /// least and the pre-period the shortest, as [`find_period`] returns them).
    pub fn last_exception(&self) -> Option<usize> {
        self.preperiod.checked_sub(1)
    }
}

/// Why a claimed period is not certified.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PeriodError {
    /// A period of 0.
    #[error("a period must be at least 1")]
    ZeroPeriod,
    /// Not enough values were given for the theorem's check.
    #[error("the check needs the values up to G({needed}), only up to G({available}) are known")]
    TooFewValues {
        /// The largest `n` the check needs.
        needed: usize,
        /// The largest `n` given.
        available: usize,
    },
    /// A value breaks the claimed period.
    #[error(
        "not periodic from {preperiod} with period {period}: G({n}) = {value} but G({later}) = {later_value}"
    )]
    Broken {
        /// The claimed period.
        period: usize,
        /// The claimed pre-period.
        preperiod: usize,
        /// The first `n` that breaks it.
        n: usize,
        /// `G(n)`.
        value: u32,
        /// `n + period`.
        later: usize,
        /// `G(n + period)`.
        later_value: u32,
    },
}

/// No period was found within the values computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("no period certified with the values up to G({searched_to})")]
pub struct PeriodNotFound {
    /// The largest `n` whose value was computed.
    pub searched_to: usize,
}

/// Checks the claim "`values` are periodic with `period` from `preperiod` on, forever" for an
/// octal game whose moves take at most `max_removal` pins, by the Guy–Smith theorem.
///
/// # Errors
/// [`PeriodError::Broken`] with the first value that breaks the claim, [`PeriodError::TooFewValues`]
/// when the check needs values beyond those given, [`PeriodError::ZeroPeriod`].
///
/// # Examples
/// A claimed start of 70 for Kayles is rejected, the true one (71) certified:
/// ```
/// use sprouts_ai::impartial::octal::{certify_period, grundy_values, PeriodError};
/// let kayles = grundy_values(&"0.77".parse()?, 200);
/// assert!(matches!(certify_period(&kayles, 2, 12, 70), Err(PeriodError::Broken { n: 70, .. })));
/// assert_eq!(certify_period(&kayles, 2, 12, 71).map(|p| p.checked_to), Ok(167));
/// # Ok::<(), sprouts_ai::impartial::octal::OctalCodeError>(())
/// ```
pub fn certify_period(
    values: &[Nimber],
    max_removal: usize,
    period: usize,
    preperiod: usize,
) -> Result<Periodicity, PeriodError> {
    if period == 0 {
        return Err(PeriodError::ZeroPeriod);
    }
    let too_few = |needed| PeriodError::TooFewValues {
        needed,
        available: values.len().saturating_sub(1),
    };
    // end = 2·n0 + p + t; the check compares G(n) with G(n + p) for n0 ≤ n < end.
    let end = preperiod
        .checked_mul(2)
        .and_then(|twice| twice.checked_add(period))
        .and_then(|sum| sum.checked_add(max_removal))
        .ok_or(too_few(usize::MAX))?;
    let checked_to = end.checked_add(period - 1).ok_or(too_few(usize::MAX))?;
    if checked_to >= values.len() {
        return Err(too_few(checked_to));
    }
    match (preperiod..end).find(|&n| values[n] != values[n + period]) {
        Some(n) => Err(PeriodError::Broken {
            period,
            preperiod,
            n,
            value: values[n].0,
            later: n + period,
            later_value: values[n + period].0,
        }),
        None => Ok(Periodicity {
            period,
            preperiod,
            checked_to,
        }),
    }
}

/// Finds the least period of the values of `table`'s game and its shortest pre-period, certified
/// by the Guy–Smith theorem, computing values up to `G(max_n)` at most.
///
/// Values are computed in doubling steps. At each step, for every period `p` in increasing order,
/// the pre-period is the `n` after the last break of `G(n + p) = G(n)` among the known values; the
/// first `p` whose theorem range fits in the known values is certified. It is the least period:
/// a smaller period of the same tail would have a pre-period no longer and a range no wider, and
/// would have been found first.
///
/// # Errors
/// [`PeriodNotFound`] when no period is certified with the values up to `G(max_n)`; several octal
/// games (0.007, Treblecross, among them) have no known period.
pub fn find_period(table: &mut GrundyTable, max_n: usize) -> Result<Periodicity, PeriodNotFound> {
    let t = table.code().max_removal();
    let _span = tracing::info_span!("find_period", code = %table.code(), max_n).entered();
    let mut limit = max_n.min(64);
    loop {
        table.extend_to(limit);
        let values = &table.values()[..=limit];
        if let Some(found) = least_period(values, t) {
            return Ok(found);
        }
        if limit >= max_n {
            return Err(PeriodNotFound { searched_to: limit });
        }
        tracing::debug!(limit, "no period yet");
        limit = (limit * 2).min(max_n);
    }
}

/// The least period certified with `values` alone, with its shortest pre-period.
fn least_period(values: &[Nimber], t: usize) -> Option<Periodicity> {
    let last = values.len() - 1;
    // The theorem needs the values up to 2·n0 + 2·p + t − 1 ≥ 2·p + t − 1.
    let largest = (last + 1).saturating_sub(t) / 2;
    (1..=largest).find_map(|period| {
        let broken = (0..=last - period)
            .rev()
            .find(|&n| values[n] != values[n + period]);
        let preperiod = broken.map_or(0, |n| n + 1);
        certify_period(values, t, period, preperiod).ok()
    })
}
