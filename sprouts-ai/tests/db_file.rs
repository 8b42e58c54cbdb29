//! The solver database on disk: atomic saves beside the user's files, early checks of paths,
//! concurrent writers (threads) keeping every fact, and a writer killed mid-save leaving the old
//! or the new database, never a broken or wrong one.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use sprouts_ai::Limits;
use sprouts_ai::solver::{DbError, DbFile, Solver, SolverConfig, check_output};
use sprouts_topo::Position;

fn solver() -> Solver {
    Solver::new(SolverConfig {
        threads: 1,
        ..SolverConfig::default()
    })
    .expect("the solver starts")
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sprouts-db-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The facts of a database file as text lines (`land+*k` for the proved nimbers), and how many
/// lands it has.
fn facts(path: &Path) -> (usize, Vec<String>) {
    let s = solver();
    DbFile::new(path)
        .load_into(&s)
        .unwrap()
        .expect("a database");
    let mut text = Vec::new();
    s.export_losing_couples(&mut text).unwrap();
    let lines = String::from_utf8(text).unwrap();
    (s.table_len(), lines.lines().map(str::to_owned).collect())
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn a_save_touches_no_file_of_the_users() {
    let dir = scratch("users-files");
    std::fs::write(dir.join("results.tmp"), "the user's notes").unwrap();
    std::fs::write(dir.join(".results.notours.tmp"), "kept").unwrap();
    let s = solver();
    s.nimber(&Position::new(4), &Limits::none());
    let db = DbFile::new(dir.join("results"));
    db.check().unwrap();
    let stats = db.save(&s).unwrap();
    assert_eq!(stats.lands, s.table_len());
    assert_eq!(
        std::fs::read_to_string(dir.join("results.tmp")).unwrap(),
        "the user's notes"
    );
    assert_eq!(
        names(&dir),
        [
            ".results.notours.tmp",
            "results",
            "results.lock",
            "results.tmp"
        ]
    );
    // A database whose own name ends in .tmp is written beside itself and renamed too.
    let odd = DbFile::new(dir.join("foo.tmp"));
    odd.save(&s).unwrap();
    assert_eq!(facts(odd.path()), facts(db.path()));
    // A later save of a solver that knows less keeps everything on disk.
    let fresh = solver();
    fresh.nimber(&Position::new(2), &Limits::none());
    let stats = db.save(&fresh).unwrap();
    assert_eq!(stats.lands, s.table_len());
    assert_eq!(facts(db.path()).0, s.table_len());
}

#[test]
fn outputs_are_checked_before_any_work() {
    let dir = scratch("checks");
    let missing = dir.join("no-such-dir").join("x.db");
    assert!(matches!(
        check_output(&missing),
        Err(DbError::Unwritable { .. })
    ));
    assert!(matches!(
        check_output(&dir),
        Err(DbError::Unwritable { .. })
    ));
    let read_only = dir.join("ro.db");
    std::fs::write(&read_only, "x").unwrap();
    let mut perms = std::fs::metadata(&read_only).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&read_only, perms).unwrap();
    let err = check_output(&read_only).unwrap_err();
    assert!(err.to_string().contains("read-only"), "{err}");
    assert!(DbFile::new(&missing).check().is_err());
    // A fine path leaves nothing behind.
    check_output(&dir.join("new.db")).unwrap();
    assert_eq!(names(&dir), ["ro.db"]);
}

#[test]
fn a_corrupt_database_on_disk_is_not_overwritten() {
    let dir = scratch("corrupt");
    let path = dir.join("x.db");
    std::fs::write(&path, b"SPROUTDB but not really").unwrap();
    let s = solver();
    s.nimber(&Position::new(3), &Limits::none());
    assert!(DbFile::new(&path).save(&s).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), b"SPROUTDB but not really");
    assert_eq!(names(&dir), ["x.db", "x.db.lock"]);
}

#[test]
fn a_writers_dead_temporary_files_are_removed() {
    let dir = scratch("stale");
    for name in [".x.db.AbCd1234.tmp", ".x.db.short.tmp", "x.db.tmp"] {
        std::fs::write(dir.join(name), "x").unwrap();
    }
    let s = solver();
    s.nimber(&Position::new(2), &Limits::none());
    DbFile::new(dir.join("x.db")).save(&s).unwrap();
    assert_eq!(
        names(&dir),
        [".x.db.short.tmp", "x.db", "x.db.lock", "x.db.tmp"]
    );
}

#[test]
fn concurrent_writers_keep_every_fact() {
    let dir = scratch("threads");
    let path = dir.join("shared.db");
    let positions = ["0*2", "0*3", "0*4", "0*2.AB|0*2.AB", "0*5", "0.AB|0.AB|0*3"];
    std::thread::scope(|scope| {
        for text in positions {
            let path = &path;
            scope.spawn(move || {
                // Each writer saves several times, so the saves interleave.
                let s = solver();
                for n in 0..3 {
                    let p = Position::parse_glop(text).unwrap();
                    s.nimber(&p, &Limits::none());
                    if n > 0 {
                        s.nimber(&Position::new(n), &Limits::none());
                    }
                    DbFile::new(path).save(&s).unwrap();
                }
            });
        }
    });
    let merged = solver();
    DbFile::new(&path).load_into(&merged).unwrap();
    for text in positions {
        let form = Position::parse_glop(text).unwrap().canonical();
        let fresh = solver();
        let truth = fresh.nimber(&Position::parse_glop(text).unwrap(), &Limits::none());
        // Every land of every writer's position is on disk with its nimber: solving again
        // from the database takes no search.
        let again = merged.nimber(&Position::parse_glop(text).unwrap(), &Limits::none());
        assert_eq!(again.value, truth.value, "{text}");
        assert_eq!(again.nodes, 0, "{text} ({form}) was lost");
    }
}

/// The child of [`a_writer_killed_mid_save_leaves_the_old_or_the_new_database`]: loads the
/// facts of `SPROUTS_DB_SOURCE` and saves them to `SPROUTS_DB_TARGET` over and over, saying
/// `saved-once` on a line of its own after the first save.
fn save_forever(source: &str, target: &str) -> ! {
    let s = solver();
    DbFile::new(source).load_into(&s).unwrap();
    let db = DbFile::new(target);
    db.save(&s).unwrap();
    println!("\nsaved-once");
    loop {
        db.save(&s).unwrap();
    }
}

#[test]
fn a_writer_killed_mid_save_leaves_the_old_or_the_new_database() {
    if let (Ok(source), Ok(target)) = (
        std::env::var("SPROUTS_DB_SOURCE"),
        std::env::var("SPROUTS_DB_TARGET"),
    ) {
        save_forever(&source, &target);
    }
    let dir = scratch("kill");
    // The old database: the lands of 5 spots. The new: those of 7 spots as well.
    let old = solver();
    old.nimber(&Position::new(5), &Limits::none());
    let new = solver();
    new.nimber(&Position::new(5), &Limits::none());
    new.nimber(&Position::new(7), &Limits::none());
    let source = dir.join("source.db");
    DbFile::new(&source).save(&new).unwrap();
    let target = dir.join("target.db");
    let old_facts = {
        DbFile::new(&target).save(&old).unwrap();
        facts(&target)
    };
    let new_facts = facts(&source);
    assert!(new_facts.0 > old_facts.0 + 100, "{} lands", new_facts.0);
    let old_image = std::fs::read(&target).unwrap();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for round in 0..24u64 {
        std::fs::write(&target, &old_image).unwrap();
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "a_writer_killed_mid_save_leaves_the_old_or_the_new_database",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("SPROUTS_DB_SOURCE", &source)
            .env("SPROUTS_DB_TARGET", &target)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        // Half the rounds kill the child during its first save, half during a later one.
        if round % 2 == 1 {
            let ready = lines.find(|l| l.as_ref().is_ok_and(|l| l == "saved-once"));
            assert!(ready.is_some(), "the child did not save");
        }
        std::thread::sleep(Duration::from_micros(round * 700 % 9_000));
        child.kill().unwrap();
        child.wait().unwrap();
        if names(&dir).iter().any(|n| n.ends_with(".tmp")) {
            *seen.entry("a temporary file left").or_default() += 1;
        }
        let now = facts(&target);
        let which = if now == old_facts {
            "old"
        } else if now == new_facts {
            "new"
        } else {
            panic!("round {round}: neither the old nor the new database");
        };
        *seen.entry(which).or_default() += 1;
    }
    eprintln!("kills: {seen:?}");
    assert!(
        seen.contains_key("a temporary file left"),
        "no kill landed while a new file was being written: {seen:?}"
    );
}
