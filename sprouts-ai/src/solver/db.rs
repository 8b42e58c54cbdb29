//! Saving, loading and merging the table of proved facts; a text export of losing couples.
//!
//! The file format: the 8 bytes `SPROUTDB`, a format version (`u32`, little endian), then the
//! postcard encoding of the entries (land canonical form, nimber if proved, bitmask of heaps
//! `k < 64` with `L + *k` proved a win), sorted by land. Loading checks the header, decodes,
//! and checks every entry before anything is added to the tables: a bad file changes nothing.

use std::collections::hash_map::Entry;
use std::io::{Read, Write};

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use sprouts_topo::LandForm;
use thiserror::Error;

use super::Solver;
use super::table::Facts;

/// The first bytes of a database file.
pub const MAGIC: &[u8; 8] = b"SPROUTDB";
/// The format version written by this program.
pub const VERSION: u32 = 1;

/// Why a database could not be read or written.
#[derive(Debug, Error)]
pub enum DbError {
    /// Reading or writing failed.
    #[error("input/output error: {0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with the database header.
    #[error("not a sprouts solver database (bad header)")]
    BadMagic,
    /// The file was written by another version of the format.
    #[error("database format version {found}, this program reads version {expected}")]
    Version {
        /// The version in the file.
        found: u32,
        /// The version this program reads.
        expected: u32,
    },
    /// The entries could not be decoded.
    #[error("corrupt database: {0}")]
    Decode(#[from] postcard::Error),
    /// An entry names a land that is not a canonical form, or contradicts itself.
    #[error("corrupt database entry {index}: {reason}")]
    BadEntry {
        /// The entry's index in the file.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A fact in the file contradicts a fact already known.
    #[error("database contradicts known facts about land `{land}`")]
    Conflict {
        /// The land's canonical form.
        land: String,
    },
}

#[derive(Serialize, Deserialize)]
struct DbEntry {
    land: String,
    nimber: Option<u32>,
    wins: u64,
}

/// Counts of a text export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportStats {
    /// Losing couples written.
    pub couples: usize,
}

/// What a load added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Entries read from the file.
    pub entries: usize,
    /// Lands the tables did not know before.
    pub new_lands: usize,
}

/// Checks an entry's facts against each other: a proved nimber `n` must not be among the heaps
/// proved to be wins.
fn consistent(f: &Facts) -> bool {
    match f.nimber {
        Some(n) => n >= 64 || f.wins >> n & 1 == 0,
        None => true,
    }
}

/// Decodes a database image (header and entries) into checked facts.
pub(crate) fn decode(bytes: &[u8]) -> Result<Vec<(LandForm, Facts)>, DbError> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err(DbError::BadMagic);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(DbError::Version {
            found: version,
            expected: VERSION,
        });
    }
    let entries: Vec<DbEntry> = postcard::from_bytes(&bytes[12..])?;
    let mut out = Vec::with_capacity(entries.len());
    for (index, e) in entries.into_iter().enumerate() {
        let facts = Facts {
            nimber: e.nimber,
            wins: e.wins,
        };
        if !consistent(&facts) {
            return Err(DbError::BadEntry {
                index,
                reason: "its nimber is also listed as a win".into(),
            });
        }
        let land = LandForm::parse(&e.land).map_err(|err| DbError::BadEntry {
            index,
            reason: format!("`{}` is not the canonical form of one land: {err}", e.land),
        })?;
        out.push((land, facts));
    }
    Ok(out)
}

impl Solver {
    /// Writes the table of proved facts (see the module documentation for the format).
    pub fn save(&self, mut out: impl Write) -> Result<(), DbError> {
        let entries: Vec<DbEntry> = self
            .inner
            .facts
            .entries()
            .into_iter()
            .map(|(land, f)| DbEntry {
                land: land.to_string(),
                nimber: f.nimber,
                wins: f.wins,
            })
            .collect();
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        let body = postcard::to_stdvec(&entries)?;
        out.write_all(&body)?;
        out.flush()?;
        Ok(())
    }

    /// Reads a database and merges its facts into the tables. The whole file is checked first;
    /// on any error nothing is added.
    pub fn load(&self, mut input: impl Read) -> Result<LoadStats, DbError> {
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes)?;
        let decoded = decode(&bytes)?;
        let count = decoded.len();
        // A land may be listed more than once: its entries are combined, and must agree with
        // each other as they must with the tables.
        let mut combined: FxHashMap<LandForm, Facts> = FxHashMap::default();
        for (land, f) in decoded {
            match combined.entry(land) {
                Entry::Vacant(v) => {
                    v.insert(f);
                }
                Entry::Occupied(mut o) => {
                    let old = *o.get();
                    let mut merged = old;
                    merged.merge(&f);
                    if !consistent(&merged)
                        || (old.nimber.is_some() && f.nimber.is_some() && old.nimber != f.nimber)
                    {
                        return Err(DbError::Conflict {
                            land: o.key().to_string(),
                        });
                    }
                    *o.get_mut() = merged;
                }
            }
        }
        let mut entries: Vec<(LandForm, Facts)> = combined.into_iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (land, f) in &entries {
            if let Some(old) = self.inner.facts.get(land) {
                let mut merged = old;
                merged.merge(f);
                if !consistent(&merged)
                    || (old.nimber.is_some() && f.nimber.is_some() && old.nimber != f.nimber)
                {
                    return Err(DbError::Conflict {
                        land: land.to_string(),
                    });
                }
            }
        }
        let mut stats = LoadStats {
            entries: count,
            new_lands: 0,
        };
        for (land, f) in &entries {
            if self.inner.facts.get(land).is_none() {
                stats.new_lands += 1;
            }
            self.inner.facts.merge_one(land, f);
        }
        Ok(stats)
    }

    /// Merges the facts of `other` into this solver's tables.
    pub fn merge_from(&self, other: &Solver) -> Result<(), DbError> {
        let mut image = Vec::new();
        other.save(&mut image)?;
        self.load(image.as_slice()).map(|_| ())
    }

    /// Writes every losing couple the tables know, one a line, as `L+*k` in GLOP notation (as SPOTS
    /// prints couples), sorted by `L`: a land `L` with proved nimber `k` is exactly a losing couple
    /// `L + *k`.
    pub fn export_losing_couples(&self, mut out: impl Write) -> Result<ExportStats, DbError> {
        let mut stats = ExportStats::default();
        for (land, f) in self.inner.facts.entries() {
            if let Some(n) = f.nimber {
                writeln!(out, "{land}+*{n}")?;
                stats.couples += 1;
            }
        }
        out.flush()?;
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use crate::solver::SolverConfig;
    use sprouts_topo::Position;

    fn solver() -> Solver {
        Solver::new(SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        })
    }

    fn image(entries: &[DbEntry]) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend(postcard::to_stdvec(entries).unwrap());
        bytes
    }

    fn entry(land: &str, nimber: Option<u32>, wins: u64) -> DbEntry {
        DbEntry {
            land: land.into(),
            nimber,
            wins,
        }
    }

    #[test]
    fn save_then_load_gives_the_same_table_and_no_search() {
        let a = solver();
        a.nimber(&Position::new(5), &Limits::none());
        let mut bytes = Vec::new();
        a.save(&mut bytes).unwrap();
        let b = solver();
        let stats = b.load(bytes.as_slice()).unwrap();
        assert_eq!(stats.entries, a.table_len());
        assert_eq!(stats.new_lands, a.table_len());
        assert_eq!(a.inner.facts.entries(), b.inner.facts.entries());
        let again = b.nimber(&Position::new(5), &Limits::none());
        assert_eq!(again.nodes, 0);
        // Loading twice adds nothing new.
        assert_eq!(b.load(bytes.as_slice()).unwrap().new_lands, 0);
        // Merging solvers.
        let c = solver();
        c.merge_from(&a).unwrap();
        assert_eq!(c.table_len(), a.table_len());
    }

    #[test]
    fn bad_files_are_refused_and_change_nothing() {
        let s = solver();
        assert!(matches!(s.load(&b""[..]), Err(DbError::BadMagic)));
        assert!(matches!(
            s.load(&b"NOTADB\0\0\0\0\0\0"[..]),
            Err(DbError::BadMagic)
        ));
        let mut v2 = MAGIC.to_vec();
        v2.extend_from_slice(&2u32.to_le_bytes());
        assert!(matches!(
            s.load(v2.as_slice()),
            Err(DbError::Version { found: 2, .. })
        ));
        let good = image(&[entry("0*2", Some(0), 0b10)]);
        assert!(matches!(
            s.load(&good[..good.len() - 2]),
            Err(DbError::Decode(_))
        ));
        for bad in [
            entry("0*2.Q", Some(0), 0),  // not notation
            entry("0.0", Some(0), 0),    // not the canonical form
            entry("0+0", Some(0), 0),    // two lands
            entry("0*2", Some(1), 0b10), // nimber listed as a win
        ] {
            let bytes = image(&[entry("0*3", Some(1), 1), bad]);
            assert!(
                matches!(
                    s.load(bytes.as_slice()),
                    Err(DbError::BadEntry { index: 1, .. })
                ),
                "entry accepted"
            );
        }
        assert_eq!(s.table_len(), 0, "a refused file adds nothing");
        s.load(good.as_slice()).unwrap();
        let conflicting = image(&[entry("0*2", Some(1), 0)]);
        assert!(matches!(
            s.load(conflicting.as_slice()),
            Err(DbError::Conflict { .. })
        ));
        let land: LandForm = "0*2".parse().unwrap();
        assert_eq!(s.known_nimber(&land).map(|n| n.0), Some(0));
    }

    #[test]
    fn a_land_listed_twice_must_agree_with_itself() {
        let s = solver();
        // "0*2" listed once with nimber 0 and once with "+ *0 is a win": a contradiction.
        let bad = image(&[entry("0*2", Some(0), 0), entry("0*2", None, 1)]);
        assert!(matches!(
            s.load(bad.as_slice()),
            Err(DbError::Conflict { .. })
        ));
        assert_eq!(s.table_len(), 0);
        // Two entries that agree are combined into one land, and save back to a file that loads.
        let good = image(&[entry("0*2", None, 0b10), entry("0*2", Some(0), 0)]);
        let stats = s.load(good.as_slice()).unwrap();
        assert_eq!((stats.entries, stats.new_lands, s.table_len()), (2, 1, 1));
        let mut saved = Vec::new();
        s.save(&mut saved).unwrap();
        solver().load(saved.as_slice()).unwrap();
    }

    #[test]
    fn export_lists_losing_couples() {
        let s = solver();
        s.nimber(&Position::new(3), &Limits::none());
        let mut text = Vec::new();
        let stats = s.export_losing_couples(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text.lines().count(), stats.couples);
        assert!(text.lines().any(|l| l == "0*3+*1"), "{text}");
        // Every exported couple is a loss when solved afresh.
        let fresh = solver();
        for line in text.lines() {
            let (land, k) = line.rsplit_once("+*").unwrap();
            let pos = Position::parse_glop(land).unwrap();
            let k: u32 = k.parse().unwrap();
            let got = fresh.couple_outcome(&pos, crate::impartial::Nimber(k), &Limits::none());
            assert_eq!(got.value, Some(crate::impartial::Outcome::Loss), "{line}");
        }
    }
}
