//! The server's copy of the pages' games: every game a page plays is kept in a data directory
//! as its [`sprouts::GameRecord`] (with the log), rewritten after every settled action, so that
//! a game survives a restart of the server and can be resumed from another browser.
//!
//! One file a game, `game-<id>.json`, where the id is 16 lowercase hexadecimal digits; other
//! files in the directory are neither read nor removed. A file is written whole to a temporary
//! file in the same directory, flushed to the disk and renamed over the old one, so a crash
//! leaves either the old copy or the new one, never half of one. At most [`MAX_KEPT_GAMES`]
//! games are kept (the oldest go first), each at most [`MAX_KEPT_BYTES`] long; a larger record
//! is not kept. A file that is too long, not UTF-8, not a kept game, or whose id is not its
//! name's is refused with the reason and left where it is; the record inside is checked again
//! by the loader when a page resumes it.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The most games kept on disk; when one more is written, the oldest beyond this are removed.
pub const MAX_KEPT_GAMES: usize = 32;

/// The longest game record kept, in bytes (a page keeps at most as much in its own storage).
pub const MAX_KEPT_BYTES: usize = 2_000_000;

/// The longest file read: the record, its envelope and some slack.
const MAX_FILE_BYTES: u64 = MAX_KEPT_BYTES as u64 + 4096;

/// What the kept files say they are.
const FORMAT: &str = "sprouts-kept-game";

/// Why the store could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file system refused.
    #[error("{what} {path}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A kept file is not a kept game.
    #[error("the kept game {path} is refused: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A record too long to keep.
    #[error("a game record of {bytes} bytes is too long to keep (at most {MAX_KEPT_BYTES})")]
    TooLong {
        /// Its length.
        bytes: usize,
    },
    /// An id that is not 16 lowercase hexadecimal digits.
    #[error("`{0}` is not a kept game's id (16 hexadecimal digits)")]
    BadId(String),
    /// No game is kept under that id.
    #[error("no game is kept under the id {0}")]
    Unknown(String),
}

/// What is known of a kept game without reading its record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptSummary {
    /// The game's id.
    pub id: String,
    /// When it was kept: milliseconds since the Unix epoch, by the server's clock.
    pub at: u64,
    /// Moves played.
    pub k: u32,
    /// Whether the game has ended.
    pub over: bool,
}

/// A kept game: its summary and its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptGame {
    /// Id, time, moves, whether over.
    pub summary: KeptSummary,
    /// The [`sprouts::GameRecord`] as JSON text.
    pub json: String,
}

/// The file's contents: the summary beside the record (kept as text, parsed by the loader).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope {
    format: String,
    version: u32,
    id: String,
    at: u64,
    k: u32,
    over: bool,
    record: String,
}

/// The data directory and what it holds (see the module docs).
#[derive(Debug)]
pub struct GameStore {
    dir: PathBuf,
    /// The kept games' summaries by id, read at opening and updated by every write.
    index: Mutex<HashMap<String, KeptSummary>>,
    /// The files refused when the directory was read, with their reasons.
    refused: Vec<StoreError>,
}

/// A write of one game to the store, to run on a blocking thread (see
/// [`super::Session::keep`]).
#[derive(Debug)]
pub struct KeepJob {
    pub(crate) store: std::sync::Arc<GameStore>,
    pub(crate) game: KeptGame,
}

impl KeepJob {
    /// What is being kept.
    pub fn summary(&self) -> &KeptSummary {
        &self.game.summary
    }

    /// Writes the game (blocking file work). Returns whether it was written (false: a newer
    /// copy was already kept).
    pub fn run(self) -> Result<bool, StoreError> {
        self.store.write(&self.game)
    }
}

/// Whether `id` is a kept game's id: 16 lowercase hexadecimal digits.
pub fn is_kept_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Milliseconds since the Unix epoch by this computer's clock (0 if it is set before 1970).
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

impl GameStore {
    /// Opens (creating it if need be) the data directory and reads the summaries of the games
    /// kept there. Files that are refused are listed by [`GameStore::refused`], not read again.
    pub fn open(dir: &Path) -> Result<GameStore, StoreError> {
        let io = |what, source| StoreError::Io {
            what,
            path: dir.to_owned(),
            source,
        };
        fs::create_dir_all(dir).map_err(|e| io("cannot create the data directory", e))?;
        let mut index = HashMap::new();
        let mut refused = Vec::new();
        for entry in fs::read_dir(dir).map_err(|e| io("cannot read the data directory", e))? {
            let entry = entry.map_err(|e| io("cannot read the data directory", e))?;
            let name = entry.file_name();
            let Some(id) = name.to_str().and_then(id_of_file) else {
                continue;
            };
            match read_file(&entry.path(), id) {
                Ok(kept) => {
                    index.insert(id.to_owned(), kept.summary);
                }
                Err(e) => refused.push(e),
            }
        }
        Ok(GameStore {
            dir: dir.to_owned(),
            index: Mutex::new(index),
            refused,
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The files refused when the directory was opened.
    pub fn refused(&self) -> &[StoreError] {
        &self.refused
    }

    fn index(&self) -> std::sync::MutexGuard<'_, HashMap<String, KeptSummary>> {
        // A writer that panicked left the index as it was before or after its write.
        self.index
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The most recently kept game, if any (finished or not).
    pub fn last(&self) -> Option<KeptSummary> {
        self.index()
            .values()
            .max_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)))
            .cloned()
    }

    /// How many games are kept.
    pub fn len(&self) -> usize {
        self.index().len()
    }

    /// Whether no game is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps a game, replacing the copy under its id unless that copy is newer (a write that
    /// comes late changes nothing). Removes the oldest games beyond [`MAX_KEPT_GAMES`].
    /// Returns whether the game was written.
    pub fn write(&self, kept: &KeptGame) -> Result<bool, StoreError> {
        let s = &kept.summary;
        if !is_kept_id(&s.id) {
            return Err(StoreError::BadId(s.id.clone()));
        }
        if kept.json.len() > MAX_KEPT_BYTES {
            return Err(StoreError::TooLong {
                bytes: kept.json.len(),
            });
        }
        let text = serde_json::to_string(&Envelope {
            format: FORMAT.into(),
            version: 1,
            id: s.id.clone(),
            at: s.at,
            k: s.k,
            over: s.over,
            record: kept.json.clone(),
        })
        .map_err(|e| StoreError::Corrupt {
            path: self.path_of(&s.id),
            reason: e.to_string(),
        })?;
        // Writers take turns, so that the index and the files agree.
        let mut index = self.index();
        if index.get(&s.id).is_some_and(|old| old.at > s.at) {
            return Ok(false);
        }
        let path = self.path_of(&s.id);
        write_atomically(&self.dir, &path, text.as_bytes())?;
        index.insert(s.id.clone(), s.clone());
        while index.len() > MAX_KEPT_GAMES {
            let Some(oldest) = index
                .values()
                .min_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)))
                .map(|o| o.id.clone())
            else {
                break;
            };
            index.remove(&oldest);
            let old = self.path_of(&oldest);
            if let Err(e) = fs::remove_file(&old)
                && e.kind() != std::io::ErrorKind::NotFound
            {
                tracing::warn!("cannot remove the old kept game {}: {e}", old.display());
            }
        }
        Ok(true)
    }

    /// Reads the game kept under `id`.
    pub fn read(&self, id: &str) -> Result<KeptGame, StoreError> {
        if !is_kept_id(id) {
            return Err(StoreError::BadId(id.chars().take(40).collect()));
        }
        if !self.index().contains_key(id) {
            return Err(StoreError::Unknown(id.to_owned()));
        }
        read_file(&self.path_of(id), id)
    }

    fn path_of(&self, id: &str) -> PathBuf {
        self.dir.join(format!("game-{id}.json"))
    }
}

/// The id in a kept game's file name, if it is one.
fn id_of_file(name: &str) -> Option<&str> {
    name.strip_prefix("game-")
        .and_then(|n| n.strip_suffix(".json"))
        .filter(|id| is_kept_id(id))
}

/// Reads and checks a kept file (its length first, then its envelope).
fn read_file(path: &Path, id: &str) -> Result<KeptGame, StoreError> {
    let file = File::open(path).map_err(|source| StoreError::Io {
        what: "cannot open the kept game",
        path: path.to_owned(),
        source,
    })?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| StoreError::Io {
            what: "cannot read the kept game",
            path: path.to_owned(),
            source,
        })?;
    parse_kept(&bytes, id).map_err(|reason| StoreError::Corrupt {
        path: path.to_owned(),
        reason,
    })
}

/// Reads the bytes of a kept game's file named for `id`: the game, or why it is refused. The
/// record inside is not read here (the loader reads and checks it).
pub fn parse_kept(bytes: &[u8], id: &str) -> Result<KeptGame, String> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("it is longer than {MAX_FILE_BYTES} bytes"));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("it is not UTF-8 text (byte {})", e.valid_up_to()))?;
    let env: Envelope =
        serde_json::from_str(text).map_err(|e| format!("it is not a kept game ({e})"))?;
    if env.format != FORMAT || env.version != 1 {
        return Err(format!(
            "it is `{}` version {}, not `{FORMAT}` version 1",
            env.format.chars().take(40).collect::<String>(),
            env.version
        ));
    }
    if env.id != id {
        return Err(format!(
            "it names the id `{}`, not its file's",
            env.id.chars().take(40).collect::<String>()
        ));
    }
    if env.record.len() > MAX_KEPT_BYTES {
        return Err("its record is too long".into());
    }
    Ok(KeptGame {
        summary: KeptSummary {
            id: env.id,
            at: env.at,
            k: env.k,
            over: env.over,
        },
        json: env.record,
    })
}

/// Writes `bytes` to `path` through a temporary file in `dir`, flushed, then renamed.
fn write_atomically(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let io = |what, source| StoreError::Io {
        what,
        path: path.to_owned(),
        source,
    };
    let tmp = dir.join(format!(
        ".{}.{}-{:x}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("game"),
        std::process::id(),
        rand::random::<u64>()
    ));
    let result = (|| {
        let mut f = File::create(&tmp).map_err(|e| io("cannot create a temporary file for", e))?;
        f.write_all(bytes)
            .map_err(|e| io("cannot write the kept game", e))?;
        f.sync_all()
            .map_err(|e| io("cannot flush the kept game", e))?;
        fs::rename(&tmp, path).map_err(|e| io("cannot put in place the kept game", e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary directory, removed when dropped.
    struct Dir(PathBuf);
    impl Dir {
        fn new(name: &str) -> Dir {
            let p = std::env::temp_dir().join(format!(
                "sprouts-store-{name}-{}-{:x}",
                std::process::id(),
                rand::random::<u64>()
            ));
            Dir(p)
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn game(id: &str, at: u64, k: u32, json: &str) -> KeptGame {
        KeptGame {
            summary: KeptSummary {
                id: id.into(),
                at,
                k,
                over: false,
            },
            json: json.into(),
        }
    }

    const A: &str = "00000000000000aa";
    const B: &str = "00000000000000bb";

    #[test]
    fn a_kept_game_reads_back_after_reopening() {
        let dir = Dir::new("round");
        let store = GameStore::open(&dir.0).unwrap();
        assert!(store.is_empty() && store.last().is_none());
        let a = game(A, 10, 3, r#"{"record":"a \" quoted \u00e9"}"#);
        assert!(store.write(&a).unwrap());
        assert!(store.write(&game(B, 20, 1, "{}")).unwrap());
        assert_eq!(store.read(A).unwrap(), a);
        assert_eq!(store.last().unwrap().id, B);
        // A late write (older than the copy kept) changes nothing.
        assert!(!store.write(&game(A, 5, 1, "{}")).unwrap());
        let again = GameStore::open(&dir.0).unwrap();
        assert_eq!(again.len(), 2);
        assert_eq!(again.read(A).unwrap(), a);
        assert_eq!(again.last().unwrap(), game(B, 20, 1, "").summary);
        assert!(again.refused().is_empty());
    }

    #[test]
    fn corrupt_and_hostile_files_are_refused_with_the_reason() {
        let dir = Dir::new("corrupt");
        let store = GameStore::open(&dir.0).unwrap();
        store.write(&game(A, 10, 3, "{}")).unwrap();
        let other = "00000000000000cc";
        let cases: [(&str, Vec<u8>, &str); 5] = [
            ("0000000000000001", b"{\"format\":".to_vec(), "not a kept game"),
            ("0000000000000002", vec![0xff, 0xfe, b'{'], "not UTF-8"),
            (
                "0000000000000003",
                vec![b' '; MAX_FILE_BYTES as usize + 1],
                "longer than",
            ),
            (
                "0000000000000004",
                format!(
                    r#"{{"format":"{FORMAT}","version":1,"id":"{other}","at":1,"k":0,"over":false,"record":"{{}}"}}"#
                )
                .into_bytes(),
                "not its file's",
            ),
            (
                "0000000000000005",
                br#"{"format":"something-else","version":1,"id":"0000000000000005","at":1,"k":0,"over":false,"record":""}"#.to_vec(),
                "not `sprouts-kept-game`",
            ),
        ];
        for (id, bytes, _) in &cases {
            fs::write(dir.0.join(format!("game-{id}.json")), bytes).unwrap();
        }
        // Files of other names are not read.
        fs::write(dir.0.join("game-../../x.json"), b"x").ok();
        fs::write(dir.0.join("notes.txt"), b"not a game").unwrap();
        let store = GameStore::open(&dir.0).unwrap();
        assert_eq!(store.len(), 1, "only the good game is kept");
        assert_eq!(store.refused().len(), cases.len());
        for (id, _, why) in &cases {
            let found = store
                .refused()
                .iter()
                .find(|e| e.to_string().contains(id))
                .unwrap_or_else(|| panic!("{id} refused"));
            assert!(found.to_string().contains(why), "{found}");
            // Refused files are not readable through the store either.
            assert!(matches!(store.read(id), Err(StoreError::Unknown(_))));
        }
        assert!(matches!(
            store.read("../../etc/passwd"),
            Err(StoreError::BadId(_))
        ));
        assert!(matches!(
            store.write(&game("../x", 1, 0, "{}")),
            Err(StoreError::BadId(_))
        ));
        // A file spoiled after opening is refused when read.
        fs::write(dir.0.join(format!("game-{A}.json")), b"[1,2]").unwrap();
        let e = store.read(A).unwrap_err();
        assert!(matches!(e, StoreError::Corrupt { .. }), "{e}");
        assert!(fs::read_to_string(dir.0.join("notes.txt")).is_ok());
    }

    #[test]
    fn writes_replace_whole_files_and_leave_no_temporary_ones() {
        let dir = Dir::new("atomic");
        let store = GameStore::open(&dir.0).unwrap();
        let long = "x".repeat(100_000);
        for at in 1..=20u64 {
            let json = if at % 2 == 0 {
                long.clone()
            } else {
                "{}".into()
            };
            store.write(&game(A, at, at as u32, &json)).unwrap();
            // After each write the file is one whole copy: the last one.
            let read = GameStore::open(&dir.0).unwrap().read(A).unwrap();
            assert_eq!(read.summary.at, at);
            assert_eq!(read.json, json);
        }
        let names: Vec<String> = fs::read_dir(&dir.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, vec![format!("game-{A}.json")]);
        // Too long a record is refused and the copy kept stays.
        let e = store
            .write(&game(A, 99, 0, &"y".repeat(MAX_KEPT_BYTES + 1)))
            .unwrap_err();
        assert!(matches!(e, StoreError::TooLong { .. }));
        assert_eq!(store.read(A).unwrap().summary.at, 20);
    }

    #[test]
    fn the_oldest_games_go_beyond_the_count() {
        let dir = Dir::new("count");
        let store = GameStore::open(&dir.0).unwrap();
        for i in 0..MAX_KEPT_GAMES as u64 + 5 {
            store
                .write(&game(&format!("{i:016x}"), 100 + i, 0, "{}"))
                .unwrap();
        }
        assert_eq!(store.len(), MAX_KEPT_GAMES);
        let files = fs::read_dir(&dir.0).unwrap().count();
        assert_eq!(files, MAX_KEPT_GAMES);
        for i in 0..5u64 {
            assert!(store.read(&format!("{i:016x}")).is_err());
        }
        assert_eq!(
            store.last().unwrap().id,
            format!("{:016x}", MAX_KEPT_GAMES as u64 + 4)
        );
    }
}
