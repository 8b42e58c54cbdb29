//! Saving, loading and merging the table of proved facts; a text export of losing couples.
//!
//! # The file format (version 2)
//!
//! All integers are little endian.
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | `SPROUTDB` |
//! | 4 | format version, `2` |
//! | 4 | reserved, `0` |
//! | 8 | the number of records |
//! | per record | length `n` (`u32`, at most [`MAX_RECORD_BYTES`]), `n` bytes of postcard entry (land canonical form, nimber if proved, bitmask of heaps `k < 64` with `L + *k` proved a win), xxh3-64 of the length and the entry (`u64`) |
//! | 8 | xxh3-64 of every byte before it |
//!
//! and nothing after. Records are sorted by land. Reading streams the file record by record and
//! checks, before anything is added to the tables: the header, each record's checksum, that its
//! entry decodes exactly, that its land is the canonical form of one land, that its nimber is at
//! most the land's longest game allows (a nimber is at most the length of the longest game) and
//! contradicts no listed win, and at the end the file's checksum and that no byte follows. A bad
//! file changes nothing. The file on disk is written by [`DbFile`](super::DbFile).

use std::collections::hash_map::Entry;
use std::io::{ErrorKind, Read, Write};

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use sprouts_topo::LandForm;
use thiserror::Error;
use xxhash_rust::xxh3::{Xxh3Default, xxh3_64};

use super::Solver;
use super::table::Facts;

/// The first bytes of a database file.
pub const MAGIC: &[u8; 8] = b"SPROUTDB";
/// The format version written and read by this program.
pub const VERSION: u32 = 2;
/// The longest record (its encoded entry) a database may hold, in bytes.
pub const MAX_RECORD_BYTES: u32 = 1 << 16;
/// The length of the header: magic, version, reserved word and record count.
const HEADER_BYTES: usize = 24;

/// Why a database could not be read or written.
#[derive(Debug, Error)]
pub enum DbError {
    /// Reading or writing failed.
    #[error("input/output error: {0}")]
    Io(#[from] std::io::Error),
    /// A file operation on `path` failed.
    #[error("{what} `{path}`: {source}")]
    File {
        /// What was being done ("cannot write", "cannot lock", ...).
        what: &'static str,
        /// The file or directory.
        path: std::path::PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// An output path cannot be written (checked before any work is done).
    #[error("cannot write `{path}`: {reason}")]
    Unwritable {
        /// The path.
        path: std::path::PathBuf,
        /// Why not.
        reason: String,
    },
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
    /// A header field has a value the format does not allow.
    #[error("corrupt database header: {0}")]
    BadHeader(String),
    /// The file ends before the header, a record or the checksum is complete.
    #[error("database truncated at byte {offset} (in {part})")]
    Truncated {
        /// The length of the file.
        offset: u64,
        /// What was being read.
        part: String,
    },
    /// A record's checksum does not match its contents.
    #[error("corrupt database record {index} at byte {offset}: checksum mismatch")]
    RecordChecksum {
        /// The record's index in the file.
        index: u64,
        /// Where it starts.
        offset: u64,
    },
    /// The file's checksum does not match its contents.
    #[error("corrupt database: the file checksum does not match")]
    FileChecksum,
    /// Bytes follow the file's checksum.
    #[error("corrupt database: bytes after the end, at byte {offset}")]
    TrailingBytes {
        /// Where the extra bytes start.
        offset: u64,
    },
    /// The entries could not be encoded.
    #[error("cannot encode the database: {0}")]
    Decode(#[from] postcard::Error),
    /// An entry is malformed, names a land that is not a canonical form, or has facts out of
    /// bounds or contradicting each other.
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

/// Checks an entry's facts against its land: `most` is the largest nimber the land can have (the
/// length of its longest game bounds it). A proved nimber must be at most that, and when none is
/// proved, some heap up to it must still be open.
fn within_bounds(f: &Facts, most: u32) -> Result<(), String> {
    match f.nimber {
        Some(n) if n > most => Err(format!(
            "nimber {n} is more than the land allows (at most {most}, its lives less one)"
        )),
        None if most < 63 && (f.wins | !((2u64 << most) - 1)) == u64::MAX => Err(format!(
            "every heap from 0 to {most} is listed as a win, so no nimber is left for the land"
        )),
        _ => Ok(()),
    }
}

/// Checks one decoded entry against its land; `index` names it in errors.
fn check_entry(index: usize, e: DbEntry) -> Result<(LandForm, Facts), DbError> {
    let bad = |reason: String| DbError::BadEntry { index, reason };
    let facts = Facts {
        nimber: e.nimber,
        wins: e.wins,
    };
    if !consistent(&facts) {
        return Err(bad("its nimber is also listed as a win".into()));
    }
    let land = LandForm::parse(&e.land).map_err(|err| {
        bad(format!(
            "`{}` is not the canonical form of one land: {err}",
            excerpt(&e.land)
        ))
    })?;
    within_bounds(&facts, land.lives().saturating_sub(1)).map_err(bad)?;
    Ok((land, facts))
}

/// At most 60 characters of `text`, marked when cut.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

/// A reader that keeps the running checksum and position of what it has read.
struct Checked<R> {
    inner: R,
    hash: Xxh3Default,
    offset: u64,
}

impl<R: Read> Checked<R> {
    /// Fills `buf`, or says that the file ends inside `part`.
    fn exact(&mut self, buf: &mut [u8], part: &dyn Fn() -> String) -> Result<(), DbError> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.inner.read(&mut buf[filled..]) {
                Ok(0) => {
                    return Err(DbError::Truncated {
                        offset: self.offset + filled as u64,
                        part: part(),
                    });
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        self.hash.update(buf);
        self.offset += buf.len() as u64;
        Ok(())
    }
}

/// Reads a database image (header, records, checksum) into checked facts, record by record:
/// a bad byte is found without reading what follows it.
pub(crate) fn decode(input: impl Read) -> Result<Vec<(LandForm, Facts)>, DbError> {
    let mut r = Checked {
        inner: input,
        hash: Xxh3Default::new(),
        offset: 0,
    };
    let mut header = [0u8; HEADER_BYTES];
    // A file too short to hold the magic is not a database; one that holds it is truncated.
    if let Err(e) = r.exact(&mut header, &|| "the header".into()) {
        return Err(match e {
            DbError::Truncated { offset, .. } if offset < 8 => DbError::BadMagic,
            DbError::Truncated { .. } if &header[..8] != MAGIC => DbError::BadMagic,
            e => e,
        });
    }
    if &header[..8] != MAGIC {
        return Err(DbError::BadMagic);
    }
    let word = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().expect("4 bytes"));
    let version = word(8);
    if version != VERSION {
        return Err(DbError::Version {
            found: version,
            expected: VERSION,
        });
    }
    if word(12) != 0 {
        return Err(DbError::BadHeader(format!(
            "reserved word is {}, not 0",
            word(12)
        )));
    }
    let count = u64::from_le_bytes(header[16..24].try_into().expect("8 bytes"));
    // Room is made as records arrive, never from the count alone.
    let mut out = Vec::with_capacity(count.min(1 << 12) as usize);
    let mut body = Vec::new();
    for index in 0..count {
        let start = r.offset;
        let part = || format!("record {index}");
        let mut len = [0u8; 4];
        r.exact(&mut len, &part)?;
        let n = u32::from_le_bytes(len);
        if n > MAX_RECORD_BYTES {
            return Err(DbError::BadEntry {
                index: index as usize,
                reason: format!("its length {n} is more than {MAX_RECORD_BYTES} bytes"),
            });
        }
        body.resize(n as usize, 0);
        r.exact(&mut body, &part)?;
        let mut sum = [0u8; 8];
        r.exact(&mut sum, &part)?;
        if u64::from_le_bytes(sum) != record_checksum(&len, &body) {
            return Err(DbError::RecordChecksum {
                index,
                offset: start,
            });
        }
        let bad = |reason: String| DbError::BadEntry {
            index: index as usize,
            reason,
        };
        let (entry, rest) = postcard::take_from_bytes::<DbEntry>(&body)
            .map_err(|e| bad(format!("cannot be decoded: {e}")))?;
        if !rest.is_empty() {
            return Err(bad(format!("{} bytes after its entry", rest.len())));
        }
        out.push(check_entry(index as usize, entry)?);
    }
    let expected = r.hash.digest();
    let mut sum = [0u8; 8];
    r.exact(&mut sum, &|| "the file checksum".into())?;
    if u64::from_le_bytes(sum) != expected {
        return Err(DbError::FileChecksum);
    }
    let mut extra = [0u8; 1];
    loop {
        match r.inner.read(&mut extra) {
            Ok(0) => break,
            Ok(_) => return Err(DbError::TrailingBytes { offset: r.offset }),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(out)
}

/// The checksum of one record: its length word and its entry.
fn record_checksum(len: &[u8; 4], body: &[u8]) -> u64 {
    let mut framed = Vec::with_capacity(4 + body.len());
    framed.extend_from_slice(len);
    framed.extend_from_slice(body);
    xxh3_64(&framed)
}

/// A writer that keeps the running checksum of what it has written.
struct Summing<W> {
    inner: W,
    hash: Xxh3Default,
}

impl<W: Write> Summing<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.inner.write_all(bytes)
    }
}

/// Writes `entries` as a database image.
fn encode(entries: impl ExactSizeIterator<Item = DbEntry>, out: impl Write) -> Result<(), DbError> {
    let mut w = Summing {
        inner: out,
        hash: Xxh3Default::new(),
    };
    w.put(MAGIC)?;
    w.put(&VERSION.to_le_bytes())?;
    w.put(&0u32.to_le_bytes())?;
    w.put(&(entries.len() as u64).to_le_bytes())?;
    for entry in entries {
        let body = postcard::to_stdvec(&entry)?;
        let len = u32::try_from(body.len())
            .ok()
            .filter(|&n| n <= MAX_RECORD_BYTES)
            .ok_or_else(|| DbError::BadEntry {
                index: 0,
                reason: format!("land `{}` is too long to save", excerpt(&entry.land)),
            })?
            .to_le_bytes();
        w.put(&len)?;
        w.put(&body)?;
        w.put(&record_checksum(&len, &body).to_le_bytes())?;
    }
    let sum = w.hash.digest();
    w.inner.write_all(&sum.to_le_bytes())?;
    w.inner.flush()?;
    Ok(())
}

impl Solver {
    /// Writes the table of proved facts (see the module documentation for the format).
    pub fn save(&self, out: impl Write) -> Result<(), DbError> {
        let entries = self.inner.facts.entries();
        let entries = entries.into_iter().map(|(land, f)| DbEntry {
            land: land.to_string(),
            nimber: f.nimber,
            wins: f.wins,
        });
        encode(entries, out)
    }

    /// Writes, in the format of [`Solver::save`], only the facts these tables hold that `base`
    /// does not: lands `base` does not know, and lands whose facts here say more (their merged
    /// facts are written). A search run on a solver loaded from `base`'s image gives, this way,
    /// the facts it proved, to be merged elsewhere. Returns how many lands were written.
    pub fn save_changed(&self, base: &Solver, out: impl Write) -> Result<usize, DbError> {
        let changed: Vec<DbEntry> = self
            .inner
            .facts
            .entries()
            .into_iter()
            .filter(|(land, f)| base.inner.facts.get(land) != Some(*f))
            .map(|(land, f)| DbEntry {
                land: land.to_string(),
                nimber: f.nimber,
                wins: f.wins,
            })
            .collect();
        let count = changed.len();
        encode(changed.into_iter(), out)?;
        Ok(count)
    }

    /// Reads a database and merges its facts into the tables. The whole file is checked first;
    /// on any error nothing is added.
    pub fn load(&self, input: impl Read) -> Result<LoadStats, DbError> {
        let decoded = decode(input)?;
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
        .expect("the solver starts")
    }

    /// A well-framed image of `entries`, checked or not.
    fn image(entries: Vec<DbEntry>) -> Vec<u8> {
        let mut bytes = Vec::new();
        encode(entries.into_iter(), &mut bytes).unwrap();
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
        let good = image(vec![entry("0*2", Some(0), 0b10)]);
        let mut v1 = good.clone();
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert!(matches!(
            s.load(v1.as_slice()),
            Err(DbError::Version { found: 1, .. })
        ));
        let mut reserved = good.clone();
        reserved[12] = 1;
        assert!(matches!(
            s.load(reserved.as_slice()),
            Err(DbError::BadHeader(_))
        ));
        assert!(matches!(
            s.load(&good[..good.len() - 2]),
            Err(DbError::Truncated { .. })
        ));
        let mut long = good.clone();
        long[24..28].copy_from_slice(&(MAX_RECORD_BYTES + 1).to_le_bytes());
        assert!(matches!(
            s.load(long.as_slice()),
            Err(DbError::BadEntry { index: 0, .. })
        ));
        for bad in [
            entry("0*2.Q", Some(0), 0),      // not notation
            entry("0.0", Some(0), 0),        // not the canonical form
            entry("0+0", Some(0), 0),        // two lands
            entry("0*2", Some(1), 0b10),     // nimber listed as a win
            entry("0*2", Some(6), 0),        // more than 6 lives allow
            entry("0*2", Some(u32::MAX), 0), // absurd
            entry("0*2", None, 0b11_1111),   // no nimber left from 0 to 5
        ] {
            let bytes = image(vec![entry("0*3", Some(1), 1), bad]);
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
        let conflicting = image(vec![entry("0*2", Some(1), 0)]);
        assert!(matches!(
            s.load(conflicting.as_slice()),
            Err(DbError::Conflict { .. })
        ));
        let land: LandForm = "0*2".parse().unwrap();
        assert_eq!(s.known_nimber(&land).map(|n| n.0), Some(0));
    }

    /// The facts of the 4-spot start's lands, saved.
    fn small_database() -> Vec<u8> {
        let s = solver();
        s.nimber(&Position::new(4), &Limits::none());
        let mut bytes = Vec::new();
        s.save(&mut bytes).unwrap();
        bytes
    }

    #[test]
    fn every_flipped_bit_is_refused_or_changes_nothing() {
        let good = small_database();
        let reference = solver();
        reference.load(good.as_slice()).unwrap();
        let facts = reference.inner.facts.entries();
        assert!(facts.len() >= 10, "{} lands", facts.len());
        let mut refused = 0;
        for bit in 0..good.len() * 8 {
            let mut bytes = good.clone();
            bytes[bit / 8] ^= 1 << (bit % 8);
            let s = solver();
            match s.load(bytes.as_slice()) {
                Err(_) => {
                    assert_eq!(s.table_len(), 0, "bit {bit}: a refused file added facts");
                    refused += 1;
                }
                Ok(_) => assert_eq!(s.inner.facts.entries(), facts, "bit {bit}: other facts"),
            }
        }
        // Every byte is covered by a checksum: no bit is padding.
        assert_eq!(refused, good.len() * 8);
    }

    #[test]
    fn every_truncation_and_any_trailing_bytes_are_refused() {
        let good = small_database();
        for len in 0..good.len() {
            let s = solver();
            let err = s.load(&good[..len]).expect_err("a truncated file loads");
            assert!(
                matches!(err, DbError::Truncated { .. } | DbError::BadMagic),
                "length {len}: {err}"
            );
            assert_eq!(s.table_len(), 0);
        }
        for extra in [&b"\0"[..], b"x", b"SPROUTDB"] {
            let mut bytes = good.clone();
            bytes.extend_from_slice(extra);
            let s = solver();
            assert!(matches!(
                s.load(bytes.as_slice()),
                Err(DbError::TrailingBytes { .. })
            ));
            assert_eq!(s.table_len(), 0);
        }
        // An endless input is refused at its first wrong byte, not read to its end.
        let endless = good.as_slice().chain(std::io::repeat(0));
        assert!(matches!(
            solver().load(endless),
            Err(DbError::TrailingBytes { .. })
        ));
        assert!(matches!(
            solver().load(std::io::repeat(0)),
            Err(DbError::BadMagic)
        ));
    }

    #[test]
    fn a_huge_record_count_allocates_nothing_and_is_refused() {
        let mut bytes = image(vec![entry("0*2", Some(0), 0)]);
        bytes[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        let s = solver();
        let err = s.load(bytes.as_slice()).expect_err("a wrong count loads");
        assert!(
            matches!(
                err,
                DbError::Truncated { .. } | DbError::BadEntry { index: 1, .. }
            ),
            "{err}"
        );
        assert_eq!(s.table_len(), 0);
    }

    #[test]
    fn a_land_listed_twice_must_agree_with_itself() {
        let s = solver();
        // "0*2" listed once with nimber 0 and once with "+ *0 is a win": a contradiction.
        let bad = image(vec![entry("0*2", Some(0), 0), entry("0*2", None, 1)]);
        assert!(matches!(
            s.load(bad.as_slice()),
            Err(DbError::Conflict { .. })
        ));
        assert_eq!(s.table_len(), 0);
        // Two entries that agree are combined into one land, and save back to a file that loads.
        let good = image(vec![entry("0*2", None, 0b10), entry("0*2", Some(0), 0)]);
        let stats = s.load(good.as_slice()).unwrap();
        assert_eq!((stats.entries, stats.new_lands, s.table_len()), (2, 1, 1));
        let mut saved = Vec::new();
        s.save(&mut saved).unwrap();
        solver().load(saved.as_slice()).unwrap();
    }

    #[test]
    fn save_changed_writes_what_a_search_proved_beyond_its_base() {
        let base = solver();
        assert!(
            base.outcome(&Position::new(4), &Limits::none())
                .value
                .is_some()
        );
        let mut image = Vec::new();
        base.save(&mut image).unwrap();

        // A solver loaded from the base's image writes nothing until it proves more.
        let worker = solver();
        worker.load(image.as_slice()).unwrap();
        let mut nothing = Vec::new();
        assert_eq!(worker.save_changed(&base, &mut nothing).unwrap(), 0);
        assert_eq!(decode(nothing.as_slice()).unwrap().len(), 0);

        assert!(
            worker
                .nimber(&Position::new(6), &Limits::none())
                .value
                .is_some()
        );
        let mut delta = Vec::new();
        let written = worker.save_changed(&base, &mut delta).unwrap();
        assert!(written > 0);
        // Every entry written differs from the base's, and base + delta = the worker's tables.
        for (land, f) in decode(delta.as_slice()).unwrap() {
            assert_ne!(base.inner.facts.get(&land), Some(f));
            assert_eq!(worker.inner.facts.get(&land), Some(f));
        }
        base.load(delta.as_slice()).unwrap();
        assert_eq!(base.inner.facts.entries(), worker.inner.facts.entries());
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
