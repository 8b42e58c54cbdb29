//! The `sprouts` Python module: positions in GLOP notation, the normal-play solver with its
//! databases, misère outcomes and saved-game records, for researchers who work in Python.
//!
//! Every search takes optional limits (`nodes`, `seconds`) and answers `None` when they run out
//! ("unknown", never a guess); the interpreter lock is released while it runs, so other Python
//! threads go on. Errors are Python exceptions: [`NotationError`] (a `ValueError`, with the byte
//! `offset` of the problem), [`DatabaseError`], [`GameRecordError`] (a `ValueError`), and
//! `OSError` for files. How to build and use it: `docs/python.md`.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::time::{Duration, Instant};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sprouts_ai::impartial::{Nimber, Outcome};
use sprouts_ai::misere_play::MisereSproutsSolver;
use sprouts_ai::solver::{DbError, InterchangeError, Solver, SolverConfig, TextFormat};
use sprouts_ai::{Limits, Solved};
use sprouts_draw::SavedGame;
use sprouts_topo::{ParseError, Position, notation};

create_exception!(
    sprouts,
    NotationError,
    PyValueError,
    "A text is not a position in GLOP notation; `offset` is the byte where the problem is."
);
create_exception!(
    sprouts,
    DatabaseError,
    PyException,
    "A database could not be read, written or merged (bad file, or facts that contradict)."
);
create_exception!(
    sprouts,
    GameRecordError,
    PyValueError,
    "A saved game could not be read or replayed."
);

/// A [`ParseError`] as a `NotationError` carrying its offset.
fn notation_error(py: Python<'_>, e: &ParseError) -> PyErr {
    let err = NotationError::new_err(e.to_string());
    // Setting an attribute on a fresh exception object cannot fail; if it did, the message
    // still says where.
    let _ = err.value(py).setattr("offset", e.offset());
    err
}

fn db_error(e: DbError) -> PyErr {
    match e {
        DbError::Io(io) => io.into(),
        other => DatabaseError::new_err(other.to_string()),
    }
}

fn interchange_error(e: InterchangeError) -> PyErr {
    match e {
        InterchangeError::Io(io) => io.into(),
        InterchangeError::Db(db) => db_error(db),
        other => DatabaseError::new_err(other.to_string()),
    }
}

/// The limits of one search: `nodes` expanded and `seconds` of wall time, each optional.
fn limits(nodes: Option<u64>, seconds: Option<f64>) -> PyResult<Limits> {
    let mut limits = Limits::none();
    limits.nodes = nodes;
    if let Some(s) = seconds {
        if !(s.is_finite() && s >= 0.0) {
            return Err(PyValueError::new_err(
                "seconds must be a non-negative number",
            ));
        }
        limits.deadline = Instant::now().checked_add(Duration::from_secs_f64(s.min(1e9)));
    }
    Ok(limits)
}

/// Reads a question's arguments (a position, its limits) and answers it with `answer`, the
/// Python lock released meanwhile: what every solver method does.
fn ask<T: Send>(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    nodes: Option<u64>,
    seconds: Option<f64>,
    answer: impl FnOnce(&Position, &Limits) -> T + Send,
) -> PyResult<T> {
    let pos = position_arg(py, position)?;
    let limits = limits(nodes, seconds)?;
    Ok(py.detach(|| answer(&pos, &limits)))
}

fn outcome_word(o: Option<Outcome>) -> Option<&'static str> {
    o.map(|o| match o {
        Outcome::Win => "W",
        Outcome::Loss => "L",
    })
}

/// A position of Sprouts (the regions, their boundaries, the spots and their lives).
///
/// `Position("0*8.AB|0*3.AB")` reads GLOP notation (and SPOTS's, whose lower-case letters
/// restart on every boundary); `Position.start(n)` is the n-spot start.
#[pyclass(module = "sprouts", name = "Position", frozen, eq)]
#[derive(Clone, PartialEq)]
struct PyPosition {
    inner: Position,
}

/// A position given as a `Position` or as text in GLOP notation.
fn position_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().inner.clone());
    }
    let text: String = obj.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("a position is a sprouts.Position or a str")
    })?;
    Position::parse_glop(&text).map_err(|e| notation_error(py, &e))
}

#[pymethods]
impl PyPosition {
    /// Reads a position in GLOP notation; raises `NotationError` if it is not one.
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<Self> {
        Position::parse_glop(text)
            .map(|inner| PyPosition { inner })
            .map_err(|e| notation_error(py, &e))
    }

    /// The start with `n` seeds.
    #[staticmethod]
    fn start(n: u32) -> PyResult<Self> {
        if n > 1000 {
            return Err(PyValueError::new_err(format!(
                "{n} spots is more than this module is meant for"
            )));
        }
        Ok(PyPosition {
            inner: Position::new(n),
        })
    }

    /// The canonical form: equal games (up to renumbering and mirror image) give equal text.
    fn canonical(&self) -> String {
        self.inner.canonical().into_string()
    }

    /// The position in GLOP notation as it stands (nothing reduced).
    fn glop(&self) -> String {
        notation::write(&self.inner)
    }

    /// The position as SPOTS writes it (lower-case letters restarted on every boundary).
    fn spots(&self) -> String {
        notation::write_spots(&self.inner)
    }

    /// The independent parts (lands) of the position, each a position of its own.
    fn parts(&self) -> Vec<PyPosition> {
        self.inner
            .lands()
            .into_iter()
            .map(|inner| PyPosition { inner })
            .collect()
    }

    /// The canonical forms of the lands of the canonical form.
    fn lands(&self) -> Vec<String> {
        self.inner.canonical().lands().map(str::to_string).collect()
    }

    /// The canonical forms of the positions one move away, each once.
    fn children(&self, py: Python<'_>) -> Vec<String> {
        let inner = &self.inner;
        py.detach(|| {
            inner
                .distinct_children()
                .into_iter()
                .map(|c| c.into_string())
                .collect()
        })
    }

    /// The number of spots.
    #[getter]
    fn spot_count(&self) -> usize {
        self.inner.spot_count()
    }

    /// The number of regions.
    #[getter]
    fn region_count(&self) -> usize {
        self.inner.region_count()
    }

    /// The lives left in the position.
    #[getter]
    fn lives(&self) -> u32 {
        self.inner.total_lives()
    }

    /// Whether no move is left.
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    fn __str__(&self) -> String {
        notation::write(&self.inner)
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", notation::write(&self.inner))
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        notation::write(&self.inner).hash(&mut h);
        h.finish()
    }
}

/// The normal-play solver: outcomes, nimbers and couples `P + *k`, with tables of proved facts
/// that grow across calls and can be saved, loaded, merged, and read from or written as the
/// nimber databases of GLOP and SPOTS.
#[pyclass(module = "sprouts", name = "Solver", frozen)]
struct PySolver {
    inner: Solver,
}

#[pymethods]
impl PySolver {
    /// `threads` workers (default 1: deterministic node counts); `cache_mb` megabytes for the
    /// cache of children lists.
    #[new]
    #[pyo3(signature = (threads = 1, cache_mb = 256))]
    fn new(threads: usize, cache_mb: usize) -> PyResult<Self> {
        if threads == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        Ok(PySolver {
            inner: Solver::new(SolverConfig {
                threads,
                child_cache_bytes: cache_mb.saturating_mul(1 << 20),
                ..SolverConfig::default()
            })
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?,
        })
    }

    /// `"W"` if the player to move wins, `"L"` if they lose, `None` if the limits ran out first.
    #[pyo3(signature = (position, nodes = None, seconds = None))]
    fn outcome(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        nodes: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<Option<&'static str>> {
        let solver = &self.inner;
        let r: Solved<Outcome> = ask(py, position, nodes, seconds, |pos, limits| {
            solver.outcome(pos, limits)
        })?;
        Ok(outcome_word(r.value))
    }

    /// The nimber, or `None` if the limits ran out first.
    #[pyo3(signature = (position, nodes = None, seconds = None))]
    fn nimber(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        nodes: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<Option<u32>> {
        let solver = &self.inner;
        let r: Solved<Nimber> = ask(py, position, nodes, seconds, |pos, limits| {
            solver.nimber(pos, limits)
        })?;
        Ok(r.value.map(|n| n.0))
    }

    /// The outcome of the couple `position + *heap` (a nim heap beside it), or `None`.
    #[pyo3(signature = (position, heap, nodes = None, seconds = None))]
    fn couple(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        heap: u32,
        nodes: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<Option<&'static str>> {
        let solver = &self.inner;
        let r = ask(py, position, nodes, seconds, |pos, limits| {
            solver.couple_outcome(pos, Nimber(heap), limits)
        })?;
        Ok(outcome_word(r.value))
    }

    /// The nimber of the land with this canonical form, if the tables know it; raises
    /// `ValueError` for a text that is not one land written canonically.
    fn known_nimber(&self, land: &str) -> PyResult<Option<u32>> {
        let land = sprouts_topo::LandForm::parse(land)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        Ok(self.inner.known_nimber(&land).map(|n| n.0))
    }

    /// `"W"` or `"L"` for the couple `land + *heap` if the tables know it (a lookup, no
    /// search), else `None`; raises `ValueError` for a text that is not one land written
    /// canonically.
    fn known_couple(&self, land: &str, heap: u32) -> PyResult<Option<&'static str>> {
        let land = sprouts_topo::LandForm::parse(land)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        Ok(outcome_word(self.inner.known_couple(&land, Nimber(heap))))
    }

    /// Nodes expanded by all searches so far.
    #[getter]
    fn nodes(&self) -> u64 {
        self.inner.nodes_expanded()
    }

    /// The number of lands with proved facts.
    fn __len__(&self) -> usize {
        self.inner.table_len()
    }

    /// Writes the tables to a database file (the solver's own binary format).
    fn save(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let file = File::create(&path)?;
        let solver = &self.inner;
        py.detach(|| solver.save(BufWriter::new(file)))
            .map_err(db_error)
    }

    /// Reads a database file into the tables; returns `(entries, new_lands)`. A bad file, or
    /// one that contradicts the tables, raises `DatabaseError` and changes nothing.
    fn load(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<(usize, usize)> {
        let file = File::open(&path)?;
        let solver = &self.inner;
        let stats = py
            .detach(|| solver.load(BufReader::new(file)))
            .map_err(db_error)?;
        Ok((stats.entries, stats.new_lands))
    }

    /// The tables as a database image (`bytes`, the format `save` writes).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let solver = &self.inner;
        let mut image = Vec::new();
        py.detach(|| solver.save(&mut image)).map_err(db_error)?;
        Ok(PyBytes::new(py, &image))
    }

    /// Merges a database image (`bytes`, as `to_bytes` or `save` write it) into the tables;
    /// returns `(entries, new_lands)`. A bad or contradicting image raises `DatabaseError` and
    /// changes nothing.
    fn load_bytes(&self, py: Python<'_>, image: &[u8]) -> PyResult<(usize, usize)> {
        let solver = &self.inner;
        let stats = py.detach(|| solver.load(image)).map_err(db_error)?;
        Ok((stats.entries, stats.new_lands))
    }

    /// The facts these tables hold that `base`'s do not, as a database image (`bytes`): what
    /// searches on a solver loaded from `base`'s image proved.
    fn changed_since<'py>(
        &self,
        py: Python<'py>,
        base: &PySolver,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let (a, b) = (&self.inner, &base.inner);
        let mut image = Vec::new();
        py.detach(|| a.save_changed(b, &mut image))
            .map_err(db_error)?;
        Ok(PyBytes::new(py, &image))
    }

    /// Adds the facts of another solver to this one's tables (`DatabaseError` if they
    /// contradict; nothing is changed then).
    fn merge(&self, py: Python<'_>, other: &PySolver) -> PyResult<()> {
        let (a, b) = (&self.inner, &other.inner);
        py.detach(|| a.merge_from(b)).map_err(db_error)
    }

    /// The lands whose nimbers are known, as a nimber database of GLOP (`format="glop"`) or
    /// SPOTS (`format="spots"`): `[Positions+Nimber]`, then `LAND NIMBER` lines, sorted.
    #[pyo3(signature = (format = "glop"))]
    fn export_text(&self, format: &str) -> PyResult<String> {
        let format = match format {
            "glop" => TextFormat::Glop,
            "spots" => TextFormat::Spots,
            other => {
                return Err(PyValueError::new_err(format!(
                    "format is \"glop\" or \"spots\", not {other:?}"
                )));
            }
        };
        let mut out = Vec::new();
        self.inner
            .export_text(&mut out, format)
            .map_err(interchange_error)?;
        String::from_utf8(out).map_err(|e| DatabaseError::new_err(e.to_string()))
    }

    /// Reads a nimber database of GLOP or SPOTS (text) into the tables; returns the number of
    /// lands read. A bad or contradicting text raises `DatabaseError` and changes nothing.
    fn import_text(&self, py: Python<'_>, text: &str) -> PyResult<usize> {
        let solver = &self.inner;
        let stats = py
            .detach(|| solver.import_text(text.as_bytes()))
            .map_err(interchange_error)?;
        Ok(stats.lands)
    }
}

/// Misère play (the player who cannot move wins): outcomes by misère canonical trees of lands.
#[pyclass(module = "sprouts", name = "MisereSolver", frozen)]
struct PyMisereSolver {
    inner: MisereSproutsSolver,
}

#[pymethods]
impl PyMisereSolver {
    /// A misère solver with empty tables.
    #[new]
    fn new() -> Self {
        PyMisereSolver {
            inner: MisereSproutsSolver::new(),
        }
    }

    /// `"W"` or `"L"` for the player to move in misère play, `None` if the limits ran out.
    #[pyo3(signature = (position, nodes = None, seconds = None))]
    fn outcome(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        nodes: Option<u64>,
        seconds: Option<f64>,
    ) -> PyResult<Option<&'static str>> {
        let solver = &self.inner;
        let r = ask(py, position, nodes, seconds, |pos, limits| {
            solver.outcome(pos, limits)
        })?;
        Ok(outcome_word(r.value))
    }
}

/// A saved game, replayed: its start, its moves and the position after each.
#[pyclass(module = "sprouts", name = "GameRecord", frozen)]
struct PyGameRecord {
    #[pyo3(get)]
    start: PyPosition,
    /// The moves in words (`3 -> 5 enclosing 7`).
    #[pyo3(get)]
    moves: Vec<String>,
    /// The moves as spots and the key of the position each made.
    #[pyo3(get)]
    notations: Vec<String>,
    /// The position after each move.
    #[pyo3(get)]
    positions: Vec<PyPosition>,
}

#[pymethods]
impl PyGameRecord {
    /// The position at the end of the record.
    #[getter]
    fn position(&self) -> PyPosition {
        self.positions.last().unwrap_or(&self.start).clone()
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }
}

/// Reads a saved game (the JSON the drawing program saves) and replays its moves; raises
/// `GameRecordError` if it does not read or its moves do not replay.
#[pyfunction]
fn read_game(py: Python<'_>, text: &str) -> PyResult<PyGameRecord> {
    py.detach(|| -> Result<PyGameRecord, String> {
        let board = SavedGame::from_json(text)
            .and_then(SavedGame::into_board)
            .map_err(|e| e.to_string())?;
        let start = board.start().clone();
        let mut pos = start.clone();
        let mut record = PyGameRecord {
            start: PyPosition { inner: start },
            moves: Vec::new(),
            notations: Vec::new(),
            positions: Vec::new(),
        };
        for (i, m) in board.moves().iter().enumerate() {
            let mv = m
                .notation
                .to_move(&pos)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            pos = pos.play(&mv).map_err(|e| format!("move {}: {e}", i + 1))?;
            record.moves.push(m.words.clone());
            record.notations.push(m.notation.to_string());
            record.positions.push(PyPosition { inner: pos.clone() });
        }
        Ok(record)
    })
    .map_err(GameRecordError::new_err)
}

/// One job of a distributed search: the couple `position + *heap` searched with a node budget
/// on a fresh solver loaded from the database image `image` (`bytes` or `None`). Returns
/// `(verdict, nodes, facts)`: `"W"`, `"L"` or `None` (the budget ran out), the nodes expanded,
/// and the facts the search proved beyond the image, as a database image to merge with
/// `Solver.load_bytes` (proved facts are kept even when the verdict is unknown). The interpreter
/// lock is released for the whole job.
#[pyfunction]
#[pyo3(signature = (image, position, heap, nodes = None, seconds = None, threads = 1))]
fn solve_job<'py>(
    py: Python<'py>,
    image: Option<&[u8]>,
    position: &Bound<'py, PyAny>,
    heap: u32,
    nodes: Option<u64>,
    seconds: Option<f64>,
    threads: usize,
) -> PyResult<(Option<&'static str>, u64, Bound<'py, PyBytes>)> {
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let pos = position_arg(py, position)?;
    let limits = limits(nodes, seconds)?;
    // The table of proof numbers is sized to the budget (a fresh 64 MB table costs more to
    // clear than a small job costs to run); the base only holds the image's facts.
    let numbers = nodes.map_or(64 << 20, |n| n.saturating_mul(64).clamp(64 << 10, 64 << 20));
    let config = SolverConfig {
        threads,
        number_table_bytes: numbers as usize,
        ..SolverConfig::default()
    };
    let base_config = SolverConfig {
        threads: 1,
        child_cache_bytes: 0,
        number_table_bytes: 0,
        ..SolverConfig::default()
    };
    let (verdict, expanded, facts) = py.detach(|| -> PyResult<_> {
        let start = |c| Solver::new(c).map_err(|e| PyRuntimeError::new_err(e.to_string()));
        let base = start(base_config)?;
        let worker = start(config)?;
        if let Some(image) = image {
            base.load(image).map_err(db_error)?;
            worker.load(image).map_err(db_error)?;
        }
        let r = worker.couple_outcome(&pos, Nimber(heap), &limits);
        let mut facts = Vec::new();
        worker.save_changed(&base, &mut facts).map_err(db_error)?;
        Ok((r.value, r.nodes, facts))
    })?;
    Ok((outcome_word(verdict), expanded, PyBytes::new(py, &facts)))
}

/// The `sprouts` Python module.
#[pymodule(name = "sprouts")]
fn sprouts_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<PySolver>()?;
    m.add_class::<PyMisereSolver>()?;
    m.add_class::<PyGameRecord>()?;
    m.add_function(wrap_pyfunction!(read_game, m)?)?;
    m.add_function(wrap_pyfunction!(solve_job, m)?)?;
    m.add("NotationError", m.py().get_type::<NotationError>())?;
    m.add("DatabaseError", m.py().get_type::<DatabaseError>())?;
    m.add("GameRecordError", m.py().get_type::<GameRecordError>())?;
    Ok(())
}
