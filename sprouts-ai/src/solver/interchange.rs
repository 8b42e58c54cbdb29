//! The databases of GLOP and SPOTS as text: reading them into the table of proved facts, and
//! writing the table's nimbers in their format.
//!
//! Both programs keep a land's nimber as a text file: a header line `[Positions+Nimber]`, then
//! one line per position, `POSITION NIMBER` (the position in GLOP notation, separated from the
//! nimber by white space), sorted. A line says that `POSITION + *NIMBER` is lost for the player
//! to move, that is, that the position's nimber is `NIMBER`. GLOP also keeps losing positions of
//! normal play under the header `[WinLoss:Losing_Position]` (one position a line: nimber 0), and
//! both keep losing positions of misère play under `[WinLoss_Misere:Losing_Position]`; misère
//! facts say nothing about nimbers, so those files are refused.
//!
//! The two programs write positions alike but for letter names (see
//! [`sprouts_topo::notation`]): SPOTS restarts lower-case letters on every boundary and writes
//! `n(26)` past `Y`. [`sprouts_topo::notation::parse`] reads both, so one reader serves both
//! formats; the writer writes each program's own way.
//!
//! Reading checks the whole file before anything is added, through [`Solver::merge_from`]: a
//! file with a bad line, two lines that contradict each other, or a line that contradicts the
//! tables changes nothing. A position is stored by the canonical form of its one land; a line
//! whose position has several lands is counted and left out (the table keeps facts of single
//! lands), and so is one whose position is an ended game, which must say nimber 0.

use std::io::{BufRead, Write};

use rustc_hash::FxHashMap;
use sprouts_topo::{LandForm, Position, notation};
use thiserror::Error;

use super::table::Facts;
use super::{DbError, Solver, SolverConfig};

/// The header of a nimber database.
pub const NIMBER_HEADER: &str = "[Positions+Nimber]";
/// The header of GLOP's database of losing positions in normal play.
pub const LOSING_HEADER: &str = "[WinLoss:Losing_Position]";
/// The header of a database of losing positions in misère play.
pub const MISERE_HEADER: &str = "[WinLoss_Misere:Losing_Position]";

/// Whose text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextFormat {
    /// Lemoine and Viennot's GLOP.
    Glop,
    /// Čížek, Balko and Schmid's SPOTS.
    Spots,
}

/// Why a text database could not be read or written.
#[derive(Debug, Error)]
pub enum InterchangeError {
    /// Reading or writing failed.
    #[error("input/output error: {0}")]
    Io(#[from] std::io::Error),
    /// The solver the facts are gathered in could not start.
    #[error(transparent)]
    Solver(#[from] super::SolverError),
    /// The first line is not a known header.
    #[error("line 1: expected the header `{NIMBER_HEADER}` or `{LOSING_HEADER}`, found `{found}`")]
    Header {
        /// The first line as found.
        found: String,
    },
    /// The file holds misère facts, which say nothing about normal play.
    #[error(
        "line 1: `{MISERE_HEADER}` is a database of misère play; only normal-play facts can be read"
    )]
    Misere,
    /// A line is not a position (and a nimber).
    #[error("line {line}: {reason}")]
    Line {
        /// The line number (from 1).
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Two lines give one land two nimbers.
    #[error("lines {first} and {second} give the land `{land}` nimbers {a} and {b}")]
    Contradiction {
        /// The land's canonical form.
        land: String,
        /// The earlier line.
        first: usize,
        /// The later line.
        second: usize,
        /// The nimber of the earlier line.
        a: u32,
        /// The nimber of the later line.
        b: u32,
    },
    /// The facts read could not be merged into the tables (they contradict them).
    #[error(transparent)]
    Db(#[from] DbError),
}

/// What reading a text database did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportStats {
    /// Lines holding a position.
    pub lines: usize,
    /// Distinct lands whose nimbers were read.
    pub lands: usize,
    /// Lands the tables did not know before.
    pub new_lands: usize,
    /// Lines left out: positions of several lands (the table keeps facts of single lands) and
    /// ended games.
    pub left_out: usize,
}

/// What writing a text database did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextExportStats {
    /// Lands written with their nimbers.
    pub lands: usize,
    /// Lands left out because only some of their couples are known (no nimber yet).
    pub without_nimber: usize,
}

/// What a line of the file says, once read.
enum Fact {
    /// The land with this canonical form has this nimber.
    Land(LandForm, u32),
    /// The position has several lands, or none.
    LeftOut,
}

/// Reads one line's position and nimber.
fn read_line(text: &str, nimber: u32, line: usize) -> Result<Fact, InterchangeError> {
    let pos = Position::parse_glop(text).map_err(|e| InterchangeError::Line {
        line,
        reason: format!("`{text}` is not a position: {e}"),
    })?;
    let forms = pos.land_forms();
    let mut lands = forms.into_iter();
    match (lands.next(), lands.next()) {
        (None, _) if nimber == 0 => Ok(Fact::LeftOut),
        (None, _) => Err(InterchangeError::Line {
            line,
            reason: format!("`{text}` is an ended game, whose nimber is 0, not {nimber}"),
        }),
        (Some(land), None) => Ok(Fact::Land(land, nimber)),
        (Some(_), Some(_)) => Ok(Fact::LeftOut),
    }
}

impl Solver {
    /// Reads a database of GLOP or SPOTS (a `[Positions+Nimber]` or `[WinLoss:Losing_Position]` header, then one position a line) into the tables.
    /// The whole file is read and checked first; on any error nothing is added. Both programs'
    /// files are read alike: the notation reader reads both programs' letters.
    pub fn import_text(&self, input: impl BufRead) -> Result<ImportStats, InterchangeError> {
        let mut lines = input.lines();
        let header = lines.next().transpose()?.unwrap_or_default();
        let with_nimbers = match header.trim() {
            NIMBER_HEADER => true,
            LOSING_HEADER => false,
            MISERE_HEADER => return Err(InterchangeError::Misere),
            other => {
                return Err(InterchangeError::Header {
                    found: other.chars().take(80).collect(),
                });
            }
        };
        let mut stats = ImportStats::default();
        // Land -> (nimber, line it was read on).
        let mut read: FxHashMap<LandForm, (u32, usize)> = FxHashMap::default();
        for (i, text) in lines.enumerate() {
            let line = i + 2;
            let text = text?;
            let mut fields = text.split_whitespace();
            let Some(position) = fields.next() else {
                continue;
            };
            let nimber = if with_nimbers {
                let field = fields.next().ok_or_else(|| InterchangeError::Line {
                    line,
                    reason: "a position without its nimber".into(),
                })?;
                field.parse::<u32>().map_err(|_| InterchangeError::Line {
                    line,
                    reason: format!("`{field}` is not a nimber"),
                })?
            } else {
                0
            };
            if let Some(extra) = fields.next() {
                return Err(InterchangeError::Line {
                    line,
                    reason: format!("unexpected `{extra}` after the position"),
                });
            }
            stats.lines += 1;
            match read_line(position, nimber, line)? {
                Fact::LeftOut => stats.left_out += 1,
                Fact::Land(land, n) => match read.get(&land) {
                    Some(&(m, first)) if m != n => {
                        return Err(InterchangeError::Contradiction {
                            land: land.to_string(),
                            first,
                            second: line,
                            a: m,
                            b: n,
                        });
                    }
                    Some(_) => {}
                    None => {
                        read.insert(land, (n, line));
                    }
                },
            }
        }
        // Gathered in a solver of their own, then merged through the database's checks, so
        // that facts contradicting the tables are refused as a contradicting database is.
        let gathered = Solver::new(SolverConfig {
            threads: 1,
            child_cache_bytes: 0,
            number_table_bytes: 0,
            ..SolverConfig::default()
        })?;
        for (land, (n, _)) in &read {
            gathered.inner.facts.merge_one(
                land,
                &Facts {
                    nimber: Some(*n),
                    wins: 0,
                },
            );
        }
        let before = self.table_len();
        self.merge_from(&gathered)?;
        stats.lands = read.len();
        stats.new_lands = self.table_len() - before;
        Ok(stats)
    }

    /// Writes every land whose nimber the tables know as a nimber database of GLOP or SPOTS
    /// (a `[Positions+Nimber]` or `[WinLoss:Losing_Position]` header, then one position a line), sorted, each land written as that program
    /// writes it. Lands of which only some couples are known are left out.
    pub fn export_text(
        &self,
        mut out: impl Write,
        format: TextFormat,
    ) -> Result<TextExportStats, InterchangeError> {
        let mut stats = TextExportStats::default();
        let mut lines = Vec::new();
        for (land, facts) in self.inner.facts.entries() {
            let Some(n) = facts.nimber else {
                stats.without_nimber += 1;
                continue;
            };
            let text = match format {
                TextFormat::Glop => land.to_string(),
                TextFormat::Spots => {
                    let pos =
                        Position::parse_glop(land.as_str()).map_err(|e| DbError::BadEntry {
                            index: lines.len(),
                            reason: format!("`{land}` is not GLOP notation: {e}"),
                        })?;
                    notation::write_spots(&pos)
                }
            };
            lines.push((text, n));
        }
        lines.sort_unstable();
        writeln!(out, "{NIMBER_HEADER}")?;
        for (text, n) in &lines {
            writeln!(out, "{text} {n}")?;
        }
        out.flush()?;
        stats.lands = lines.len();
        Ok(stats)
    }
}

/// The fuzz check of [`Solver::import_text`] (the `text_db_import` fuzz target and its corpus
/// replayed as a test): arbitrary bytes never panic; a file refused adds nothing; a file read
/// writes back, GLOP's way and SPOTS's way, to files that read as the same nimbers.
#[doc(hidden)]
pub fn check_text_import(data: &[u8]) {
    let config = SolverConfig {
        threads: 1,
        child_cache_bytes: 0,
        number_table_bytes: 0,
        ..SolverConfig::default()
    };
    let solver = Solver::new(config.clone()).expect("the solver starts");
    if solver.import_text(data).is_err() {
        assert_eq!(solver.table_len(), 0, "a refused file added facts");
        return;
    }
    let known = solver.inner.facts.entries();
    for format in [TextFormat::Glop, TextFormat::Spots] {
        let mut text = Vec::new();
        let stats = solver
            .export_text(&mut text, format)
            .expect("writing to memory works");
        assert_eq!(stats.lands, known.len());
        let again = Solver::new(config.clone()).expect("the solver starts");
        again
            .import_text(text.as_slice())
            .expect("an exported file reads");
        for (land, facts) in &known {
            assert_eq!(
                again.known_nimber(land).map(|n| n.0),
                facts.nimber,
                "{land}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use crate::impartial::{Nimber, Outcome};

    fn solver() -> Solver {
        Solver::new(SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        })
        .expect("the solver starts")
    }

    fn import(s: &Solver, text: &str) -> Result<ImportStats, InterchangeError> {
        s.import_text(text.as_bytes())
    }

    /// A GLOP database written by hand: lands in GLOP 2 and GLOP 1.0 notation, one of several
    /// lands (left out), one position that is an ended game.
    const GLOP_FILE: &str = "[Positions+Nimber]
0 0
0*2 0
0*3 1
0*4 1
0*5 1
0*2.AB|AB 2
12.AB.}AB.}]! 2
0*2+0*3 1
! 0
";

    /// The same facts as SPOTS writes them, with lower-case letters restarted per boundary.
    const SPOTS_FILE: &str = "[Positions+Nimber]
0 0
0*2.1a1a.1a2a 2
0*3 1
1a1a.1a1a 0
";

    #[test]
    fn a_glop_database_is_read_and_its_nimbers_are_true() {
        let s = solver();
        let stats = import(&s, GLOP_FILE).unwrap();
        assert_eq!(stats.lines, 9);
        assert_eq!(stats.left_out, 2, "`0*2+0*3` and `!`");
        assert_eq!(stats.lands, stats.new_lands);
        // Every nimber read equals the one the solver finds afresh.
        let fresh = solver();
        for line in GLOP_FILE.lines().skip(1) {
            let mut f = line.split_whitespace();
            let (Some(p), Some(n)) = (f.next(), f.next()) else {
                continue;
            };
            let pos = Position::parse_glop(p).unwrap();
            let n: u32 = n.parse().unwrap();
            let want = fresh.nimber(&pos, &Limits::none()).value;
            assert_eq!(want, Some(Nimber(n)), "{line}");
            if let [land] = pos.land_forms().as_slice() {
                assert_eq!(s.known_nimber(land), Some(Nimber(n)), "{line}");
            }
        }
        // The imported facts answer without search.
        let again = s.outcome(&Position::new(5), &Limits::none());
        assert_eq!((again.value, again.nodes), (Some(Outcome::Win), 0));
    }

    #[test]
    fn a_spots_database_with_letters_restarted_per_boundary_is_read() {
        let s = solver();
        let stats = import(&s, SPOTS_FILE).unwrap();
        assert_eq!((stats.lines, stats.left_out), (4, 0));
        let fresh = solver();
        for line in SPOTS_FILE.lines().skip(1) {
            let (p, n) = line.split_once(' ').unwrap();
            let pos = Position::parse_glop(p).unwrap();
            let n: u32 = n.parse().unwrap();
            assert_eq!(
                fresh.nimber(&pos, &Limits::none()).value,
                Some(Nimber(n)),
                "{line}"
            );
            let [land] = pos.land_forms().try_into().expect("one land");
            assert_eq!(s.known_nimber(&land), Some(Nimber(n)), "{line}");
        }
    }

    #[test]
    fn losing_positions_of_normal_play_have_nimber_zero() {
        let s = solver();
        let text = "[WinLoss:Losing_Position]\n0*2\n0*6\n0*2+0*2\n";
        let stats = import(&s, text).unwrap();
        assert_eq!((stats.lines, stats.lands, stats.left_out), (3, 2, 1));
        assert_eq!(s.known_nimber(&"0*6".parse().unwrap()), Some(Nimber(0)));
    }

    #[test]
    fn bad_files_are_refused_and_change_nothing() {
        let s = solver();
        type Expect = fn(&InterchangeError) -> bool;
        let cases: [(&str, Expect); 9] = [
            ("", |e| matches!(e, InterchangeError::Header { .. })),
            ("0*3 1\n", |e| matches!(e, InterchangeError::Header { .. })),
            ("[WinLoss_Misere:Losing_Position]\n0*2\n", |e| {
                matches!(e, InterchangeError::Misere)
            }),
            ("[Positions+Nimber]\n0*3 1\n0*4\n", |e| {
                matches!(e, InterchangeError::Line { line: 3, .. })
            }),
            ("[Positions+Nimber]\n0*3 x\n", |e| {
                matches!(e, InterchangeError::Line { line: 2, .. })
            }),
            ("[Positions+Nimber]\n0*3 1 2\n", |e| {
                matches!(e, InterchangeError::Line { line: 2, .. })
            }),
            ("[Positions+Nimber]\n0*3 1\n1aaaa 0\n", |e| {
                matches!(e, InterchangeError::Line { line: 3, .. })
            }),
            ("[Positions+Nimber]\n! 2\n", |e| {
                matches!(e, InterchangeError::Line { line: 2, .. })
            }),
            ("[Positions+Nimber]\n0*3 1\n0.0.0 2\n", |e| {
                matches!(
                    e,
                    InterchangeError::Contradiction {
                        first: 2,
                        second: 3,
                        ..
                    }
                )
            }),
        ];
        for (text, ok) in cases {
            let e = import(&s, text).expect_err(text);
            assert!(ok(&e), "{text:?}: {e}");
            assert_eq!(s.table_len(), 0, "{text:?} added facts");
        }
        // A file contradicting the tables is refused as a whole.
        import(&s, "[Positions+Nimber]\n0*3 1\n").unwrap();
        let e = import(&s, "[Positions+Nimber]\n0*4 1\n0*3 0\n").unwrap_err();
        assert!(
            matches!(e, InterchangeError::Db(DbError::Conflict { .. })),
            "{e}"
        );
        assert_eq!(s.table_len(), 1);
    }

    #[test]
    fn export_then_import_gives_the_same_nimbers_both_ways() {
        let a = solver();
        a.nimber(&Position::new(6), &Limits::none());
        a.nimber(
            &Position::parse_glop("0*2.1a1a.1b2b").unwrap(),
            &Limits::none(),
        );
        for format in [TextFormat::Glop, TextFormat::Spots] {
            let mut text = Vec::new();
            let stats = a.export_text(&mut text, format).unwrap();
            let text = String::from_utf8(text).unwrap();
            assert!(text.starts_with("[Positions+Nimber]\n"), "{text}");
            assert_eq!(text.lines().count(), stats.lands + 1);
            assert!(stats.lands > 10, "{text}");
            let sorted: Vec<&str> = text.lines().skip(1).collect();
            assert!(sorted.windows(2).all(|w| w[0] < w[1]), "sorted: {text}");
            let b = solver();
            let read = import(&b, &text).unwrap();
            assert_eq!((read.lands, read.left_out), (stats.lands, 0));
            for (land, facts) in a.inner.facts.entries() {
                assert_eq!(b.known_nimber(&land).map(|n| n.0), facts.nimber, "{land}");
            }
        }
    }

    #[test]
    fn spots_export_restarts_lower_case_letters_per_boundary() {
        let a = solver();
        import(&a, "[Positions+Nimber]\n0*2.1a1a.1b2b 2\n").unwrap();
        let mut glop = Vec::new();
        a.export_text(&mut glop, TextFormat::Glop).unwrap();
        let mut spots = Vec::new();
        a.export_text(&mut spots, TextFormat::Spots).unwrap();
        let (glop, spots) = (
            String::from_utf8(glop).unwrap(),
            String::from_utf8(spots).unwrap(),
        );
        let land = glop.lines().nth(1).unwrap().split(' ').next().unwrap();
        assert!(land.contains('b'), "{glop}");
        let spots_land = spots.lines().nth(1).unwrap().split(' ').next().unwrap();
        assert!(!spots_land.contains('b'), "{spots}");
        assert_eq!(
            Position::parse_glop(spots_land)
                .unwrap()
                .canonical()
                .as_str(),
            land
        );
    }
}
