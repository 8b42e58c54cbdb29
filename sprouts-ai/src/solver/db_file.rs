//! The database on disk: checked before any work, loaded, and saved so that neither a crash nor
//! a second writer loses or breaks anything.
//!
//! - **Atomic replacement.** A save writes a new file beside the database under a unique name
//!   (`.NAME.XXXXXXXX.tmp`), flushes it to the disk (`fsync`), renames it over the database and
//!   flushes the directory. A reader, or a writer killed at any instant, sees the old database or
//!   the new one, never a mixture. The user's own files (`NAME.tmp`, anything else) are never
//!   touched.
//! - **One writer at a time, nothing lost.** Writers take an exclusive lock on `NAME.lock` (created
//!   beside the database and left there: removing a lock file while another process waits on it
//!   would let two writers in). Holding it, a writer reads the database as it is on disk now, adds
//!   its facts to its own tables (refusing a file that is corrupt or contradicts them, and then
//!   writing nothing), and writes the union. A second writer waits for the first and keeps both
//!   sets of facts. Temporary files left by a writer that died are removed by the next one.
//! - **Early checks.** [`check_output`] says before a long solve whether a path can be written.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};

use super::Solver;
use super::db::{DbError, LoadStats};

/// The random characters in a temporary file's name.
const RANDOM_CHARS: usize = 8;

/// A solver database file (see the module documentation for what saving guarantees).
#[derive(Clone, Debug)]
pub struct DbFile {
    path: PathBuf,
}

/// What a save did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaveStats {
    /// What the database on disk added to the tables before they were written (facts another
    /// writer saved since this one last read it).
    pub merged: LoadStats,
    /// Lands written.
    pub lands: usize,
}

fn file_error<'a>(
    what: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> DbError + 'a {
    move |source| DbError::File {
        what,
        path: path.to_path_buf(),
        source,
    }
}

/// The directory holding `path` and the file's name in it.
fn split(path: &Path) -> Result<(PathBuf, OsString), DbError> {
    let name = path.file_name().ok_or_else(|| DbError::Unwritable {
        path: path.to_path_buf(),
        reason: "it does not name a file".into(),
    })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name.to_os_string()))
}

/// Checks, without changing anything lasting, that `path` can be written by
/// [`write_atomically`]: its directory exists and takes new files, and the path is not a
/// directory or a read-only file. Meant to be called before a long computation whose result
/// goes there.
pub fn check_output(path: &Path) -> Result<(), DbError> {
    let unwritable = |reason: String| DbError::Unwritable {
        path: path.to_path_buf(),
        reason,
    };
    let (dir, _) = split(path)?;
    match std::fs::metadata(&dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(unwritable(format!(
                "`{}` is not a directory",
                dir.display()
            )));
        }
        Err(e) => return Err(unwritable(format!("directory `{}`: {e}", dir.display()))),
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return Err(unwritable("it is a directory".into())),
        Ok(m) if m.permissions().readonly() => return Err(unwritable("it is read-only".into())),
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(unwritable(e.to_string())),
    }
    // The one sure test of a directory's permissions: make a file there (removed at once).
    tempfile::Builder::new()
        .prefix(".sprouts-probe.")
        .tempfile_in(&dir)
        .map_err(|e| unwritable(format!("cannot create a file in `{}`: {e}", dir.display())))?;
    Ok(())
}

/// Writes a file whole or not at all: `fill` writes into a new file beside `path` under a unique
/// name, which is flushed to the disk and renamed over `path`; then the directory is flushed. On
/// any error the temporary file is removed and `path` is as it was. An existing file's
/// permissions are kept; a new file gets the usual ones (read and write as the umask allows).
pub fn write_atomically<T>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<T, DbError>,
) -> Result<T, DbError> {
    let (dir, name) = split(path)?;
    let mut prefix = OsString::from(".");
    prefix.push(&name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .suffix(".tmp")
        .rand_bytes(RANDOM_CHARS);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder
        .tempfile_in(&dir)
        .map_err(file_error("cannot create a file in", &dir))?;
    let temp_path = temp.path().to_path_buf();
    let value = {
        let mut out = BufWriter::new(temp.as_file_mut());
        let value = fill(&mut out)?;
        out.flush()
            .map_err(file_error("cannot write", &temp_path))?;
        value
    };
    if let Ok(meta) = std::fs::metadata(path) {
        temp.as_file()
            .set_permissions(meta.permissions())
            .map_err(file_error("cannot set the permissions of", temp.path()))?;
    }
    temp.as_file()
        .sync_all()
        .map_err(file_error("cannot flush", temp.path()))?;
    temp.persist(path)
        .map_err(|e| file_error("cannot replace", path)(e.error))?;
    sync_dir(&dir)?;
    Ok(value)
}

/// Flushes a directory's entries (the rename) to the disk, where the system allows it.
fn sync_dir(dir: &Path) -> Result<(), DbError> {
    #[cfg(unix)]
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(file_error("cannot flush the directory", dir))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

impl DbFile {
    /// The database at `path` (nothing is opened yet).
    pub fn new(path: impl Into<PathBuf>) -> DbFile {
        DbFile { path: path.into() }
    }

    /// The database's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The lock file writers hold: the database's name with `.lock` added.
    pub fn lock_path(&self) -> PathBuf {
        let mut name = self.path.as_os_str().to_os_string();
        name.push(".lock");
        PathBuf::from(name)
    }

    /// Checks before any work that the database can be read (if it exists) and saved: see
    /// [`check_output`]; the lock file must be creatable too.
    pub fn check(&self) -> Result<(), DbError> {
        check_output(&self.path)?;
        if self.path.exists() {
            File::open(&self.path).map_err(file_error("cannot open", &self.path))?;
        }
        self.open_lock().map(drop)
    }

    fn open_lock(&self) -> Result<File, DbError> {
        let path = self.lock_path();
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(file_error("cannot open the lock file", &path))
    }

    /// Adds the database's facts to `solver`'s tables (nothing when there is no file yet). The
    /// whole file is checked first: on any error nothing is added.
    pub fn load_into(&self, solver: &Solver) -> Result<Option<LoadStats>, DbError> {
        let file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(file_error("cannot open", &self.path)(e)),
        };
        solver.load(BufReader::new(file)).map(Some)
    }

    /// Saves `solver`'s facts together with those on disk (see the module documentation):
    /// waits for other writers, adds the database's current facts to the tables, and replaces
    /// the file with the union. A database on disk that is corrupt or contradicts the tables is
    /// left as it is and the save refused.
    pub fn save(&self, solver: &Solver) -> Result<SaveStats, DbError> {
        let lock = self.open_lock()?;
        lock.lock()
            .map_err(file_error("cannot lock", &self.lock_path()))?;
        self.remove_stale_temporaries();
        let merged = self.load_into(solver)?.unwrap_or_default();
        let lands = write_atomically(&self.path, |out| {
            solver.save(out)?;
            Ok(solver.table_len())
        })?;
        // Closing the file releases the lock; said explicitly for the reader.
        drop(lock);
        Ok(SaveStats { merged, lands })
    }

    /// Removes the temporary files of writers that died mid-save. Called with the lock held:
    /// only a writer holding it makes such files, so any found then is abandoned. Only names of
    /// exactly the form this module makes are touched.
    fn remove_stale_temporaries(&self) {
        let Ok((dir, name)) = split(&self.path) else {
            return;
        };
        let Some(name) = name.to_str() else {
            return;
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return;
        };
        let prefix = format!(".{name}.");
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let Some(f) = file_name.to_str() else {
                continue;
            };
            let random = f
                .strip_prefix(&prefix)
                .and_then(|rest| rest.strip_suffix(".tmp"));
            let ours = random.is_some_and(|r| {
                r.len() == RANDOM_CHARS && r.bytes().all(|b| b.is_ascii_alphanumeric())
            });
            if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}
