//! Octal codes: the rules of an octal game written as `0.d1d2d3…`, parsed with errors that say
//! what is wrong and where.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The most digits an [`OctalCode`] may have after the point.
pub const MAX_CODE_DIGITS: usize = 32;

/// The rules of an octal game (Guy and Smith 1956; Winning Ways, ch. 4).
///
/// A position is a set of rows of pins (heaps). Digit `d_k` of the code `d_0.d_1d_2d_3…` says in
/// which ways a move may take `k` adjacent pins from one row: bit 1 when they are the whole row,
/// bit 2 when they leave one row (taken from an end), bit 4 when they leave two rows (taken from
/// the middle, splitting it). Kayles is `0.77`, Dawson's Kayles `0.07`.
///
/// The digit before the point, `d_0`, is 0 or 4: with 4 a move may also split a row in two
/// without taking anything.
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::octal::OctalCode;
/// let kayles: OctalCode = "0.77".parse()?;
/// assert_eq!(kayles.max_removal(), 2);
/// assert!(kayles.allows(1, 2)); // one pin from the middle, leaving two rows
/// assert_eq!(kayles.name(), Some("Kayles"));
/// assert!("0.78".parse::<OctalCode>().is_err());
/// # Ok::<(), sprouts_ai::impartial::octal::OctalCodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    /// `d_0, d_1, …, d_t` with `d_t` non-zero unless `t = 0`.
    digits: Vec<u8>,
}

/// Why a string is not an octal code.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OctalCodeError {
    /// Nothing but white space.
    #[error("the octal code is empty; write it as `0.77` (Kayles) or `.07`")]
    Empty,
    /// No `.` in the code.
    #[error("`{code}` has no point; an octal code is written `0.77` (Kayles) or `.07`")]
    MissingPoint {
        /// The code as given.
        code: String,
    },
    /// Something other than nothing, `0` or `4` before the point.
    #[error(
        "`{found}` before the point: only `0` or `4` may stand there (a move that takes no pin \
         can only split a row in two)"
    )]
    BeforePoint {
        /// What stood before the point.
        found: String,
    },
    /// A character after the point that is not an octal digit.
    #[error("`{found}` at column {column} is not an octal digit (0 to 7)")]
    NotOctal {
        /// The character.
        found: char,
        /// Its column in the input, counting from 1.
        column: usize,
    },
    /// No digit after the point.
    #[error("no digit after the point; `0.0` is the game with no move")]
    NoDigits,
    /// Too many digits after the point.
    #[error("{digits} digits after the point; at most {MAX_CODE_DIGITS} are supported")]
    TooLong {
        /// How many digits were given.
        digits: usize,
    },
}

impl FromStr for OctalCode {
    type Err = OctalCodeError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let code = input.trim();
        if code.is_empty() {
            return Err(OctalCodeError::Empty);
        }
        let Some((before, after)) = code.split_once('.') else {
            return Err(OctalCodeError::MissingPoint {
                code: code.to_owned(),
            });
        };
        let d0 = match before {
            "" | "0" => 0,
            "4" => 4,
            _ => {
                return Err(OctalCodeError::BeforePoint {
                    found: before.to_owned(),
                });
            }
        };
        // Columns count characters of the input, leading white space included.
        let leading = input.len() - input.trim_start().len();
        let first_digit_column = input[..leading].chars().count() + before.chars().count() + 2;
        let mut digits = vec![d0];
        for (idx, found) in after.chars().enumerate() {
            match found.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => {
                    return Err(OctalCodeError::NotOctal {
                        found,
                        column: first_digit_column + idx,
                    });
                }
            }
        }
        match digits.len() - 1 {
            0 => return Err(OctalCodeError::NoDigits),
            n if n > MAX_CODE_DIGITS => return Err(OctalCodeError::TooLong { digits: n }),
            _ => {}
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(OctalCode { digits })
    }
}

impl fmt::Display for OctalCode {
    /// Writes the code as `0.77`; a game with no move is `0.0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl OctalCode {
    /// Digit `d_k` of the code (0 beyond the last digit).
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// The largest number of pins a move takes, `t` in the Guy–Smith periodicity theorem.
    pub fn max_removal(&self) -> usize {
        self.digits.len() - 1
    }

    /// Whether a move may take `k` pins and leave `rows_left` rows (0, 1 or 2) of the row it
    /// takes them from.
    pub fn allows(&self, k: usize, rows_left: usize) -> bool {
        rows_left <= 2 && self.digit(k) >> rows_left & 1 == 1
    }

    /// Whether a move may split a row in two without taking anything (`d_0 = 4`).
    pub fn splits_without_taking(&self) -> bool {
        self.digits[0] == 4
    }

    /// The usual name of the game, for the few that have one.
    pub fn name(&self) -> Option<&'static str> {
        match self.to_string().as_str() {
            "0.77" => Some("Kayles"),
            "0.07" => Some("Dawson's Kayles"),
            "0.137" => Some("Dawson's chess"),
            "0.007" => Some("Treblecross"),
            "0.6" => Some("Officers"),
            _ => None,
        }
    }

    /// The rules in words, one line per number of pins a move may take.
    pub fn rules(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.splits_without_taking() {
            lines.push("split a row in two without taking a pin".to_owned());
        }
        for k in 1..self.digits.len() {
            let ways: Vec<&str> = [
                "a whole row",
                "from an end of a longer row",
                "from the middle of a row, splitting it in two",
            ]
            .into_iter()
            .enumerate()
            .filter(|&(rows_left, _)| self.allows(k, rows_left))
            .map(|(_, way)| way)
            .collect();
            if !ways.is_empty() {
                let pins = if k == 1 { "pin" } else { "pins" };
                lines.push(format!("take {k} adjacent {pins}: {}", ways.join("; ")));
            }
        }
        if lines.is_empty() {
            lines.push("no move at all".to_owned());
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check_error(input: &str, expected: OctalCodeError) {
        assert_eq!(
            input.parse::<OctalCode>(),
            Err(expected),
            "parsing {input:?}"
        );
    }

    #[track_caller]
    fn check_code(input: &str, shown: &str, max_removal: usize) {
        let code: OctalCode = input.parse().expect("a valid code");
        assert_eq!(code.to_string(), shown, "display of {input:?}");
        assert_eq!(code.max_removal(), max_removal, "t of {input:?}");
    }

    #[test]
    fn valid_codes_parse_and_print_in_normal_form() {
        check_code("0.77", "0.77", 2);
        check_code(".07", "0.07", 2);
        check_code("  0.7770 ", "0.777", 3);
        check_code("4.07", "4.07", 2);
        check_code("0.0", "0.0", 0);
        check_code("4.0", "4.0", 0);
    }

    #[test]
    fn bad_codes_say_what_and_where() {
        check_error("", OctalCodeError::Empty);
        check_error("   ", OctalCodeError::Empty);
        check_error(
            "77",
            OctalCodeError::MissingPoint {
                code: "77".to_owned(),
            },
        );
        check_error(
            "0.78",
            OctalCodeError::NotOctal {
                found: '8',
                column: 4,
            },
        );
        check_error(
            " .7x",
            OctalCodeError::NotOctal {
                found: 'x',
                column: 4,
            },
        );
        check_error(
            "0.7.7",
            OctalCodeError::NotOctal {
                found: '.',
                column: 4,
            },
        );
        check_error(
            "1.77",
            OctalCodeError::BeforePoint {
                found: "1".to_owned(),
            },
        );
        check_error("0.", OctalCodeError::NoDigits);
        check_error(
            &format!("0.{}", "7".repeat(33)),
            OctalCodeError::TooLong { digits: 33 },
        );
        let message = "0.78".parse::<OctalCode>().unwrap_err().to_string();
        assert_eq!(message, "`8` at column 4 is not an octal digit (0 to 7)");
    }

    #[test]
    fn digits_read_as_ways_to_move() {
        let dawson: OctalCode = "0.07".parse().expect("valid");
        assert!(!dawson.allows(1, 0) && !dawson.allows(1, 1) && !dawson.allows(1, 2));
        assert!(dawson.allows(2, 0) && dawson.allows(2, 1) && dawson.allows(2, 2));
        assert!(!dawson.allows(3, 0));
        let officers: OctalCode = "0.6".parse().expect("valid");
        assert!(!officers.allows(1, 0) && officers.allows(1, 1) && officers.allows(1, 2));
        assert_eq!(
            dawson.rules(),
            [
                "take 2 adjacent pins: a whole row; from an end of a longer row; from the middle of a row, splitting it in two"
            ]
        );
    }
}
