//! Saving, loading and merging the table of proved facts; a text export of losing couples.
//!
//! The file format: the 8 bytes `SPROUTDB`, a format version (`u32`, little endian), then the
//! postcard encoding of the entries (land canonical form, nimber if proved, bitmask of heaps
//! `k < 64` with `L + *k` proved a win), sorted by land. Loading checks the header, decodes,
//! and checks every entry before anything is added to the tables: a bad file changes nothing.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};
use sprouts_topo::Position;
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
struct Entry {
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
pub(crate) fn decode(bytes: &[u8]) -> Result<Vec<(String, Facts)>, DbError> {
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
    let entries: Vec<Entry> = postcard::from_bytes(&bytes[12..])?;
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
        let pos = Position::parse_glop(&e.land).map_err(|err| DbError::BadEntry {
            index,
            reason: format!("`{}` is not GLOP notation: {err}", e.land),
        })?;
        let form = pos.canonical();
        if form.as_str() != e.land || form.lands().count() != 1 {
            return Err(DbError::BadEntry {
                index,
                reason: format!("`{}` is not the canonical form of one land", e.land),
            });
        }
        out.push((e.land, facts));
    }
    Ok(out)
}

impl Solver {
    /// Writes the table of proved facts (see the module documentation for the format).
    pub fn save(&self, mut out: impl Write) -> Result<(), DbError> {
        let entries: Vec<Entry> = self
            .inner
            .facts
            .entries()
            .into_iter()
            .map(|(land, f)| Entry {
                land,
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
        let entries = decode(&bytes)?;
        for (land, f) in &entries {
            if let Some(old) = self.inner.facts.get(land) {
                let mut merged = old;
                merged.merge(f);
                if !consistent(&merged)
                    || (old.nimber.is_some() && f.nimber.is_some() && old.nimber != f.nimber)
                {
                    return Err(DbError::Conflict { land: land.clone() });
                }
            }
        }
        let mut stats = LoadStats {
            entries: entries.len(),
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
