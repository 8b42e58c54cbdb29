//! `Board`: position, picture and history, changed only by checked transactions (spec 1.2).

use std::fmt;
use std::sync::atomic::AtomicBool;

use sprouts_geom::Spline;
use sprouts_topo::{GameKey, Move, MoveError, MoveNotation, Position, SpotId};

use crate::analyse::{AnalyseError, Analysed, Analysis, analyse};
use crate::drawing::{CurveId, Drawing, DrawingError, Settings, WorldSize};

/// A move played on a board: in words and in topological form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move as the log writes it: `3 -> 5`, `3 -> 5 enclosing 7, 8-9`.
    pub words: String,
    /// The move as spots and the key of the position it made.
    pub notation: MoveNotation,
}

/// What a step of the history did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A move was drawn.
    Move(PlayedMove),
    /// The picture was rearranged (the label says how: "slide", "push", "A", "Z", ...).
    Rearrange(String),
}

impl fmt::Display for StepKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepKind::Move(m) => write!(f, "move {}", m.words),
            StepKind::Rearrange(label) => write!(f, "rearrange ({label})"),
        }
    }
}

/// One step of the history: what it did (several operations when they were grouped, such as
/// a rearrangement and the move it made room for).
#[derive(Clone, Debug)]
pub struct Step {
    /// The operations of the step, in order.
    pub kinds: Vec<StepKind>,
    /// The state on the other side of the step (before it on the undo stack, after it on the
    /// redo stack).
    state: State,
}

/// Everything a step changes.
#[derive(Clone, Debug)]
struct State {
    drawing: Drawing,
    analysis: Analysis,
    moves: Vec<PlayedMove>,
}

/// The position read back differs from the one it should be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The key of the position the picture should show.
    pub expected: GameKey,
    /// The key of the position it shows.
    pub found: GameKey,
    /// What differs, in words (spots whose lives differ, regions only one of them has), for the
    /// orientation of the found position closer to the expected one.
    pub differences: Vec<String>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the picture shows another position than it should: {}",
            self.differences.join("; ")
        )
    }
}

impl std::error::Error for Mismatch {}

/// [`analyse`] of a transaction's picture not read ahead, counted in tests.
fn read_back(drawing: &Drawing) -> Result<Analysis, AnalyseError> {
    #[cfg(test)]
    tally::count();
    analyse(drawing)
}

/// How many transaction pictures this thread has analysed itself, without a reading ahead
/// (tests only: a move checked before play is analysed once, by the check).
#[cfg(test)]
pub(crate) mod tally {
    use std::cell::Cell;

    thread_local! {
        static ANALYSES: Cell<u64> = const { Cell::new(0) };
    }

    pub(crate) fn count() {
        ANALYSES.with(|c| c.set(c.get() + 1));
    }

    /// The count so far.
    pub(crate) fn analyses() -> u64 {
        ANALYSES.with(Cell::get)
    }
}

/// Why a board operation was refused. The board is left exactly as it was.
#[derive(Debug, thiserror::Error)]
pub enum TransactionError<E> {
    /// The edit itself failed.
    #[error("the edit failed: {0}")]
    Edit(E),
    /// The move is not legal in the board's position.
    #[error("the move is not legal here: {0}")]
    Illegal(MoveError),
    /// The changed picture is not a picture of a position.
    #[error("the changed picture is not a picture of a position: {0}")]
    Picture(AnalyseError),
    /// The changed picture shows another position than it should.
    #[error(transparent)]
    Mismatch(Box<Mismatch>),
}

/// Why a board could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// The settings are out of range.
    #[error(
        "the settings are out of range (minimum clearance {}, comfort distance {}, room against length {}, spot radius {}): the clearance and the radius must be positive and the clearance below the comfort distance",
        .0.min_clearance,
        .0.comfort_distance,
        .0.room_vs_length,
        .0.spot_radius
    )]
    BadSettings(Settings),
    /// The drawing is not well formed.
    #[error(transparent)]
    Drawing(#[from] DrawingError),
    /// A move of the game is not legal where it is played.
    #[error("move {index} ({notation}) is not legal: {reason}")]
    IllegalMove {
        /// The move's index (0 for the first move).
        index: usize,
        /// Its notation.
        notation: String,
        /// Why.
        reason: String,
    },
    /// The picture is not a picture of a position.
    #[error("the picture is not a picture of a position: {0}")]
    Picture(#[from] AnalyseError),
    /// The picture shows another position than the moves make.
    #[error(transparent)]
    Mismatch(Box<Mismatch>),
    /// A position could not be drawn afresh (it is not drawable, or the layout failed).
    #[error(transparent)]
    Layout(#[from] crate::LayoutError),
}

/// What a move's drawing edit is told about the move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveContext {
    /// The spot the move's curve leaves.
    pub from: SpotId,
    /// The spot it reaches (the same for a loop).
    pub to: SpotId,
    /// The move's new spot.
    pub new_spot: SpotId,
    /// The move's index in the game (0 for the first move).
    pub move_index: u32,
    /// The radius new spots are drawn with.
    pub spot_radius: f64,
}

/// A game on a board: the position, the picture that shows it, the moves played, and the
/// history of steps for undo and redo.
///
/// # The authority check
/// The picture can be changed only through a transaction ([`Board::rearrange`],
/// [`Board::play`], [`Board::play_spline`]): the board keeps a copy of the picture, applies the
/// edit, reads the position back from scratch with [`analyse`], and compares it by game key (up
/// to the mirror image) with the position it should be, the one before for a rearrangement and
/// the one after the move for a move. On any failure the picture is put back exactly and the
/// error says what differed. There is no other way to change the picture, so the check cannot
/// be skipped.
///
/// The board's position is the one read off its picture (so its boundaries and corners are the
/// analysis's, [`Board::analysis`]); it always has the game key the rules say.
///
/// # Examples
///
/// The computer's move drawn, undone and redone; a refused edit leaves the board as it was:
///
/// ```
/// use sprouts_draw::{Board, Settings, WorldSize};
///
/// let mut board = Board::new(2, WorldSize::new(400.0, 300.0), Settings::default())?;
/// let mv = board.position().moves().next().expect("two spots have moves");
/// let drawn = board.draw_move(&mv, &mut |_route| {})?;
/// assert_eq!(board.moves().len(), 1);
/// println!("drew {} with {:.1} px to spare", drawn.words, drawn.clearance);
///
/// let saved = board.to_json();
/// // An edit that moves a spot onto another cannot keep the position: refused, nothing changed.
/// let refused = board.rearrange("bad", |drawing| {
///     let (first, second) = (drawing.spots()[0].id, drawing.spots()[1].centre);
///     drawing.set_spot_centre(first, second)
/// });
/// assert!(refused.is_err());
/// assert_eq!(board.to_json(), saved);
///
/// assert!(board.undo().is_some());
/// assert_eq!(board.moves().len(), 0);
/// assert!(board.redo().is_some());
/// assert_eq!(board.moves().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Board {
    settings: Settings,
    start: Position,
    state: State,
    undo: Vec<Step>,
    redo: Vec<Step>,
}

impl Board {
    /// A new game of `n` seeds laid out evenly in a world of the given size.
    ///
    /// # Errors
    /// [`BoardError::BadSettings`], [`BoardError::Drawing`] for a bad world size.
    pub fn new(n: u32, world: WorldSize, settings: Settings) -> Result<Board, BoardError> {
        if !settings.is_valid() {
            return Err(BoardError::BadSettings(settings));
        }
        let drawing = Drawing::with_seeds(world, n, settings.spot_radius)?;
        Board::from_game(Position::new(n), &[], drawing, settings)
    }

    /// A board for a game from `start` (usually `Position::new(n)`, or any drawable position
    /// for a custom start) after `moves` (in topological form), with its picture: the moves are
    /// replayed in `sprouts-topo` and the picture must show the position they make (the
    /// authority check).
    ///
    /// # Errors
    /// Bad settings, an illegal move, a picture that is not a position or shows another one.
    pub fn from_game(
        start: Position,
        moves: &[MoveNotation],
        drawing: Drawing,
        settings: Settings,
    ) -> Result<Board, BoardError> {
        if !settings.is_valid() {
            return Err(BoardError::BadSettings(settings));
        }
        let mut pos = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (index, n) in moves.iter().enumerate() {
            let mv = n.to_move(&pos).map_err(|e| BoardError::IllegalMove {
                index,
                notation: n.to_string(),
                reason: e.to_string(),
            })?;
            played.push(PlayedMove {
                words: mv.describe(&pos),
                notation: n.clone(),
            });
            pos = pos.play(&mv).map_err(|e| BoardError::IllegalMove {
                index,
                notation: n.to_string(),
                reason: e.to_string(),
            })?;
        }
        let analysis = analyse(&drawing)?;
        check(&pos, analysis.position()).map_err(BoardError::Mismatch)?;
        Ok(Board {
            settings,
            start,
            state: State {
                drawing,
                analysis,
                moves: played,
            },
            undo: Vec::new(),
            redo: Vec::new(),
        })
    }

    /// The position (read off the picture; see the type's docs).
    pub fn position(&self) -> &Position {
        self.state.analysis.position()
    }

    /// The picture.
    pub fn drawing(&self) -> &Drawing {
        &self.state.drawing
    }

    /// The analysis of the picture (regions, walks, corners, point location).
    pub fn analysis(&self) -> &Analysis {
        &self.state.analysis
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes the settings (they govern drawing, not the position; not a step of the history).
    ///
    /// # Errors
    /// [`BoardError::BadSettings`], leaving the settings as they were.
    pub fn set_settings(&mut self, settings: Settings) -> Result<(), BoardError> {
        if !settings.is_valid() {
            return Err(BoardError::BadSettings(settings));
        }
        self.settings = settings;
        Ok(())
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.state.moves
    }

    /// What the steps that can be undone did, oldest first.
    pub fn undo_steps(&self) -> impl Iterator<Item = &[StepKind]> {
        self.undo.iter().map(|s| s.kinds.as_slice())
    }

    /// What the steps that can be redone did, the next one to redo last.
    pub fn redo_steps(&self) -> impl Iterator<Item = &[StepKind]> {
        self.redo.iter().map(|s| s.kinds.as_slice())
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undoes the last step (a move, a rearrangement, or a group of them); returns what it did,
    /// or `None` if there was nothing to undo.
    pub fn undo(&mut self) -> Option<Vec<StepKind>> {
        let step = self.undo.pop()?;
        let current = std::mem::replace(&mut self.state, step.state);
        self.redo.push(Step {
            kinds: step.kinds.clone(),
            state: current,
        });
        Some(step.kinds)
    }

    /// Redoes the last undone step; returns what it did, or `None` if there was nothing to redo.
    pub fn redo(&mut self) -> Option<Vec<StepKind>> {
        let step = self.redo.pop()?;
        let current = std::mem::replace(&mut self.state, step.state);
        self.undo.push(Step {
            kinds: step.kinds.clone(),
            state: current,
        });
        Some(step.kinds)
    }

    /// Rearranges the picture: `edit` may change it in any way that keeps the position (slide
    /// spots, push curves, redraw everything); the position read back must be the one before.
    ///
    /// # Errors
    /// The edit's error, a broken picture, or a mismatch; the board is then exactly as before.
    pub fn rearrange<E>(
        &mut self,
        label: impl Into<String>,
        edit: impl FnOnce(&mut Drawing) -> Result<(), E>,
    ) -> Result<(), TransactionError<E>> {
        let expected = self.position().clone();
        let moves = self.state.moves.clone();
        self.transact(
            &expected,
            moves,
            StepKind::Rearrange(label.into()),
            None,
            edit,
        )
    }

    /// [`Board::rearrange`] by a step that makes a new picture from the old one and reports on
    /// it (A and R, M's slide and push): the new picture replaces the old, the report returned.
    pub(crate) fn rearrange_to<R, E>(
        &mut self,
        label: impl Into<String>,
        make: impl FnOnce(&Drawing) -> Result<(Drawing, R), E>,
    ) -> Result<R, TransactionError<E>> {
        let mut report = None;
        self.rearrange(label, |d| {
            let (made, r) = make(d)?;
            *d = made;
            report = Some(r);
            Ok(())
        })?;
        Ok(report.expect("the edit ran"))
    }

    /// Plays `mv` (a move of [`Board::position`]) by drawing it with `edit`, which is told the
    /// move's spots, new spot and index; the position read back must be the position after the
    /// move.
    ///
    /// # Errors
    /// An illegal move, the edit's error, a broken picture, or a mismatch; the board is then
    /// exactly as before.
    pub fn play<E>(
        &mut self,
        mv: &Move,
        edit: impl FnOnce(&mut Drawing, &MoveContext) -> Result<(), E>,
    ) -> Result<(), TransactionError<E>> {
        self.play_ahead(mv, None, edit)
    }

    /// As [`Board::play`], with the picture perhaps read ahead (see [`Analysed`]): when the
    /// edit makes a picture equal to `ahead`'s, its analysis is the read-back, else the
    /// picture is analysed here. Either way the position read back is checked.
    fn play_ahead<E>(
        &mut self,
        mv: &Move,
        ahead: Option<Analysed>,
        edit: impl FnOnce(&mut Drawing, &MoveContext) -> Result<(), E>,
    ) -> Result<(), TransactionError<E>> {
        let pos = self.position();
        let expected = pos.play(mv).map_err(TransactionError::Illegal)?;
        let notation = MoveNotation::from_move(pos, mv).map_err(TransactionError::Illegal)?;
        let played = PlayedMove {
            words: mv.describe(pos),
            notation,
        };
        let (from, to) = mv.spots();
        let ctx = MoveContext {
            from,
            to,
            new_spot: mv.new_spot(),
            move_index: u32::try_from(self.state.moves.len()).unwrap_or(u32::MAX),
            spot_radius: self.settings.spot_radius,
        };
        let mut moves = self.state.moves.clone();
        moves.push(played.clone());
        self.transact(&expected, moves, StepKind::Move(played), ahead, |d| {
            edit(d, &ctx)
        })
    }

    /// Plays `mv` drawn as `spline` from its first spot to its second: the spline is cut near
    /// half its arc length (spec 2.1), where the new spot goes, and stored as the move's two
    /// curves.
    ///
    /// # Errors
    /// As [`Board::play`]; a spline that cannot be cut is an edit error.
    pub fn play_spline(
        &mut self,
        mv: &Move,
        spline: &Spline,
    ) -> Result<(CurveId, CurveId), TransactionError<DrawingError>> {
        self.play_spline_cut(
            mv,
            || spline.cut_near_middle(1e-6 * (1.0 + spline_size(spline))),
            None,
        )
    }

    /// As [`Board::play_spline`], with the spline already cut where the new spot goes, and
    /// perhaps the picture it makes read ahead (see [`Analysed`]).
    pub(crate) fn play_spline_cut(
        &mut self,
        mv: &Move,
        cut: impl FnOnce() -> Result<sprouts_geom::Cut, sprouts_geom::SplineError>,
        ahead: Option<Analysed>,
    ) -> Result<(CurveId, CurveId), TransactionError<DrawingError>> {
        let mut ids = (CurveId(0), CurveId(0));
        self.play_ahead(mv, ahead, |d, ctx| {
            let cut = cut().map_err(DrawingError::BadSpline)?;
            ids = d.add_move_curves(
                (ctx.from, ctx.new_spot, ctx.to),
                cut.first,
                cut.second,
                ctx.move_index,
                ctx.spot_radius,
            )?;
            Ok(())
        })?;
        Ok(ids)
    }

    /// Runs `f` on the board as one step of the history: every operation it makes is undone and
    /// redone together (a rearrangement and the move it made room for). If `f` fails, the board
    /// is put back exactly as it was before `f`, and the error is returned.
    ///
    /// # Errors
    /// `f`'s error.
    pub fn in_one_step<T, E>(
        &mut self,
        f: impl FnOnce(&mut Board) -> Result<T, E>,
    ) -> Result<T, E> {
        let before_state = self.state.clone();
        let undo_len = self.undo.len();
        let redo = self.redo.clone();
        match f(self) {
            Ok(v) => {
                if self.undo.len() > undo_len + 1 {
                    let steps: Vec<Step> = self.undo.drain(undo_len..).collect();
                    let state = steps[0].state.clone();
                    let kinds = steps.into_iter().flat_map(|s| s.kinds).collect();
                    self.undo.push(Step { kinds, state });
                }
                Ok(v)
            }
            Err(e) => {
                self.state = before_state;
                self.undo.truncate(undo_len);
                self.redo = redo;
                Err(e)
            }
        }
    }

    /// Rebuilds the undo history of the moves from the picture alone, for a board read from a
    /// file (which keeps the last picture only): the picture before a move is the picture
    /// after it without the move's two curves and its new spot. Each earlier picture is
    /// analysed and checked against the position the moves make, like any transaction; the
    /// history goes back as far as that holds (a picture drawn afresh keeps every curve's
    /// move, so it normally reaches the start). Returns how many moves can be undone. The redo
    /// history is cleared; the present picture is unchanged.
    pub fn rebuild_move_history(&mut self) -> usize {
        let _span = tracing::debug_span!("rebuild_move_history").entered();
        let moves = self.state.moves.clone();
        let mut positions = vec![self.start.clone()];
        for m in &moves {
            let last = positions.last().expect("the start is there");
            let Some(next) = m
                .notation
                .to_move(last)
                .ok()
                .and_then(|mv| last.play(&mv).ok())
            else {
                return 0;
            };
            positions.push(next);
        }
        let mut steps = Vec::new();
        let mut drawing = self.state.drawing.clone();
        for k in (0..moves.len()).rev() {
            let new_spot = positions[k].next_spot();
            let spots: Vec<_> = drawing
                .spots()
                .iter()
                .filter(|s| s.id != new_spot)
                .cloned()
                .collect();
            let curves: Vec<_> = drawing
                .curves()
                .iter()
                .filter(|c| c.origin.is_none_or(|o| o.move_index as usize != k))
                .cloned()
                .collect();
            if curves.len() + 2 != drawing.curves().len() {
                break;
            }
            let Ok(before) = Drawing::from_parts(drawing.world(), spots, curves) else {
                break;
            };
            let Ok(analysis) = read_back(&before) else {
                break;
            };
            if check(&positions[k], analysis.position()).is_err() {
                break;
            }
            steps.push(Step {
                kinds: vec![StepKind::Move(moves[k].clone())],
                state: State {
                    drawing: before.clone(),
                    analysis,
                    moves: moves[..k].to_vec(),
                },
            });
            drawing = before;
        }
        steps.reverse();
        self.undo = steps;
        self.redo.clear();
        self.undo.len()
    }

    /// Replaces the words of the moves (a saved game keeps the words it was written with).
    pub(crate) fn set_words(&mut self, words: Vec<String>) {
        for (m, w) in self.state.moves.iter_mut().zip(words) {
            m.words = w;
        }
    }

    /// The transaction: snapshot, edit, analyse, compare, then keep or restore. `ahead`: the
    /// picture perhaps already analysed; its analysis is used only if the edit made a picture
    /// equal to it.
    fn transact<E>(
        &mut self,
        expected: &Position,
        moves: Vec<PlayedMove>,
        kind: StepKind,
        ahead: Option<Analysed>,
        edit: impl FnOnce(&mut Drawing) -> Result<(), E>,
    ) -> Result<(), TransactionError<E>> {
        let mut drawing = self.state.drawing.clone();
        edit(&mut drawing).map_err(TransactionError::Edit)?;
        let analysis = match ahead.and_then(|a| a.analysis_of(&drawing)) {
            Some(analysis) => analysis,
            None => read_back(&drawing).map_err(TransactionError::Picture)?,
        };
        check(expected, analysis.position()).map_err(TransactionError::Mismatch)?;
        let before = std::mem::replace(
            &mut self.state,
            State {
                drawing,
                analysis,
                moves,
            },
        );
        self.undo.push(Step {
            kinds: vec![kind],
            state: before,
        });
        self.redo.clear();
        Ok(())
    }
}

fn spline_size(s: &Spline) -> f64 {
    let (lo, hi) = s.control_bounds();
    (hi - lo).norm()
}

/// The authority check: `found` must have the game key of `expected` (which is
/// mirror-invariant).
fn check(expected: &Position, found: &Position) -> Result<(), Box<Mismatch>> {
    let (ek, fk) = (expected.game_key(), found.game_key());
    if ek == fk {
        return Ok(());
    }
    Err(Box::new(Mismatch {
        differences: differences(expected, found),
        expected: ek,
        found: fk,
    }))
}

/// Whether `a` and `b` have the same regions spot for spot (each boundary as a cyclic sequence
/// of spots), in the same orientation of the whole picture or the mirrored one.
pub(crate) fn region_forms_match(a: &Position, b: &Position) -> bool {
    let fa = region_forms(a, false);
    fa == region_forms(b, false) || fa == region_forms(b, true)
}

/// A region as sorted boundaries, each at its least rotation, optionally reversed.
fn region_forms(p: &Position, mirror: bool) -> Vec<Vec<Vec<u32>>> {
    let mut res: Vec<Vec<Vec<u32>>> = p
        .regions()
        .map(|r| {
            let mut bs: Vec<Vec<u32>> = r
                .boundaries()
                .map(|b| {
                    let mut cs: Vec<u32> = b.corners().iter().map(|s| s.get()).collect();
                    if mirror {
                        cs.reverse();
                    }
                    let k = (0..cs.len())
                        .min_by(|&a, &b| {
                            let ra = cs[a..].iter().chain(&cs[..a]);
                            let rb = cs[b..].iter().chain(&cs[..b]);
                            ra.cmp(rb)
                        })
                        .unwrap_or(0);
                    cs.rotate_left(k);
                    cs
                })
                .collect();
            bs.sort();
            bs
        })
        .collect();
    res.sort();
    res
}

fn region_text(r: &[Vec<u32>]) -> String {
    let bs: Vec<String> = r
        .iter()
        .map(|b| b.iter().map(u32::to_string).collect::<Vec<_>>().join("-"))
        .collect();
    format!("[{}]", bs.join(" . "))
}

/// What differs between two positions, in words.
fn differences(expected: &Position, found: &Position) -> Vec<String> {
    let mut out = Vec::new();
    let ids: std::collections::BTreeSet<SpotId> = expected
        .spots()
        .map(|(s, _)| s)
        .chain(found.spots().map(|(s, _)| s))
        .collect();
    for s in ids {
        let (a, b) = (expected.lives(s), found.lives(s));
        if a != b {
            let show = |l: Option<sprouts_topo::Lives>| {
                l.map_or("absent".to_owned(), |l| format!("{l} lives"))
            };
            out.push(format!(
                "spot {s} should have {} but has {}",
                show(a),
                show(b)
            ));
        }
    }
    if expected.next_spot() != found.next_spot() {
        out.push(format!(
            "the next spot should be {} but is {}",
            expected.next_spot(),
            found.next_spot()
        ));
    }
    let want = region_forms(expected, false);
    let mut best: Option<Vec<String>> = None;
    for mirror in [false, true] {
        let got = region_forms(found, mirror);
        let mut diff = Vec::new();
        for r in &want {
            if !got.contains(r) {
                diff.push(format!("region {} is missing", region_text(r)));
            }
        }
        for r in &got {
            if !want.contains(r) {
                diff.push(format!("region {} should not be there", region_text(r)));
            }
        }
        if best.as_ref().is_none_or(|b| diff.len() < b.len()) {
            best = Some(diff);
        }
    }
    out.extend(best.unwrap_or_default());
    if out.is_empty() {
        out.push("the regions differ".to_owned());
    }
    out
}

/// What a fresh layout of the board's picture needs beside the picture and the move's part.
struct FreshJob<'a> {
    map: &'a crate::layout::map::Map,
    expected: &'a GameKey,
    settings: Settings,
    options: &'a crate::FreshOptions,
    stop: &'a AtomicBool,
    /// The region tried first (alone when `options.outside` is given).
    outside: usize,
}

impl FreshJob<'_> {
    /// Replaces `d` by the best fresh layout of the map (`mv`: the move's part, for a move)
    /// and returns the layout's report.
    fn lay_out(
        &self,
        d: &mut Drawing,
        mv: Option<&crate::layout::MovePart>,
    ) -> Result<crate::FreshReport, crate::LayoutError> {
        let job = crate::layout::choose::Layouts {
            drawing: d,
            map: self.map,
            expected: self.expected,
            settings: &self.settings,
            options: self.options,
            mv,
            stop: self.stop,
        };
        let (fresh, report) = crate::layout::choose::best_fresh(&job, self.outside)?;
        *d = fresh;
        Ok(report)
    }
}

/// Z: the picture drawn afresh (spec 4.6), as board transactions.
impl Board {
    /// The fresh layout of `map` (the map after `mv`, for a move), to read back as `expected`.
    fn fresh_job<'a>(
        &self,
        map: &'a crate::layout::map::Map,
        expected: &'a GameKey,
        options: &'a crate::FreshOptions,
        stop: &'a AtomicBool,
        mv: Option<&Move>,
    ) -> FreshJob<'a> {
        FreshJob {
            map,
            expected,
            settings: self.settings,
            options,
            stop,
            outside: self.fresh_outside(map, options, mv),
        }
    }

    /// The region of the map after `mv` (or of the present map) to draw as the outside.
    fn fresh_outside(
        &self,
        map: &crate::layout::map::Map,
        options: &crate::FreshOptions,
        mv: Option<&Move>,
    ) -> usize {
        let _ = mv;
        // A move keeps every region's index but adds one (its side B_a) at the end.
        options
            .outside
            .map_or(map.outside, |r| r.index())
            .min(map.regions.len().saturating_sub(1))
    }

    /// Redraws the whole picture from its combinatorial map (spec 4.6): a rearrangement, so
    /// the position read back must be the one before (the authority check). With
    /// `options.outside` another region is made the outside; without it one layout per
    /// choice of outside region is made in parallel and the best kept (see
    /// [`Board::redraw_fresh_with_stop`]).
    ///
    /// # Errors
    /// A [`crate::LayoutError`] (inside [`TransactionError::Edit`]) or the check's verdict; the
    /// board is then exactly as before.
    pub fn redraw_fresh(
        &mut self,
        options: &crate::FreshOptions,
    ) -> Result<crate::FreshReport, TransactionError<crate::LayoutError>> {
        self.redraw_fresh_with_stop(options, &AtomicBool::new(false))
    }

    /// As [`Board::redraw_fresh`]; `stop` (the user's Space) ends the layouts' descents where
    /// they are and starts no further round of layouts, so the best layout so far is taken.
    ///
    /// # Errors
    /// As [`Board::redraw_fresh`].
    pub fn redraw_fresh_with_stop(
        &mut self,
        options: &crate::FreshOptions,
        stop: &AtomicBool,
    ) -> Result<crate::FreshReport, TransactionError<crate::LayoutError>> {
        let _span = tracing::debug_span!("redraw_fresh").entered();
        let map = crate::layout::map_of(&self.state.drawing, &self.state.analysis);
        let key = self.position().game_key();
        let job = self.fresh_job(&map, &key, options, stop, None);
        let mut report = None;
        self.rearrange(if options.smaller_spots { "•" } else { "Z" }, |d| {
            report = Some(job.lay_out(d, None)?);
            Ok(())
        })?;
        Ok(report.expect("the edit ran"))
    }

    /// Draws the computer's move `mv` (a move of [`Board::position`]) by drawing the position
    /// after it afresh (spec 4.6, 5.9 step 3): the move is performed on the picture's map and
    /// the whole map laid out, so no router is needed. Recorded in the history like
    /// [`Board::draw_move`], and checked by the authority check.
    ///
    /// # Errors
    /// A [`crate::Refusal`] saying why; the board is then exactly as it was.
    pub fn draw_move_fresh(
        &mut self,
        mv: &Move,
        options: &crate::FreshOptions,
    ) -> Result<crate::FreshMove, crate::Refusal> {
        self.draw_move_fresh_with_stop(mv, options, &AtomicBool::new(false))
    }

    /// As [`Board::draw_move_fresh`]; `stop` as in [`Board::redraw_fresh_with_stop`].
    ///
    /// # Errors
    /// As [`Board::draw_move_fresh`].
    pub fn draw_move_fresh_with_stop(
        &mut self,
        mv: &Move,
        options: &crate::FreshOptions,
        stop: &AtomicBool,
    ) -> Result<crate::FreshMove, crate::Refusal> {
        use crate::Refusal;
        let _span = tracing::debug_span!("draw_move_fresh").entered();
        let pos = self.position().clone();
        let intended = pos.play(mv).map_err(|e| Refusal::Illegal(e.to_string()))?;
        let map = crate::layout::map_of(&self.state.drawing, &self.state.analysis)
            .with_move(mv)
            .map_err(|e| Refusal::Picture(format!("fresh layout: {e}")))?;
        let drawn = map
            .position()
            .map_err(|e| Refusal::Picture(format!("fresh layout: {e}")))?;
        if drawn.game_key() != intended.game_key() {
            return Err(Refusal::Mismatch(format!(
                "fresh layout: {}",
                crate::LayoutError::WrongChild
            )));
        }
        let key = intended.game_key();
        let job = self.fresh_job(&map, &key, options, stop, Some(mv));
        let words = mv.describe(&pos);
        let mut report = None;
        let ncurves = self.state.drawing.curves().len() as u32;
        self.play(mv, |d, ctx| {
            let part = crate::layout::MovePart {
                x: ctx.from,
                z: ctx.new_spot,
                y: ctx.to,
                move_index: ctx.move_index,
            };
            report = Some(job.lay_out(d, Some(&part))?);
            Ok::<(), crate::LayoutError>(())
        })
        .map_err(|e| match e {
            TransactionError::Edit(e) => Refusal::Picture(format!("fresh layout: {e}")),
            TransactionError::Illegal(e) => Refusal::Illegal(e.to_string()),
            TransactionError::Picture(e) => Refusal::Picture(e.to_string()),
            TransactionError::Mismatch(m) => Refusal::Mismatch(m.to_string()),
        })?;
        Ok(crate::FreshMove {
            mv: mv.clone(),
            words,
            curves: (CurveId(ncurves), CurveId(ncurves + 1)),
            report: report.expect("the edit ran"),
        })
    }
}

#[cfg(test)]
mod tests {
    use sprouts_geom::{EndCondition, Point, interpolate};

    use super::*;

    /// A loop at spot 1 (150, 100) round seed 2 (450, 100), not round seed 3 (300, 300).
    fn loop_round_2() -> Spline {
        let pts: Vec<Point> = [
            (150.0, 100.0),
            (250.0, 20.0),
            (450.0, 12.0),
            (540.0, 100.0),
            (450.0, 188.0),
            (250.0, 180.0),
            (150.0, 100.0),
        ]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect();
        interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).expect("a spline")
    }

    /// The picture `board.play_spline_cut` makes of the loop, read ahead.
    fn read_ahead(board: &Board, spline: &Spline) -> Analysed {
        let cut = spline
            .cut_near_middle(1e-6 * (1.0 + spline_size(spline)))
            .expect("a cut");
        let mut d = board.drawing().clone();
        let one = SpotId::new(1).expect("spot 1");
        let index = u32::try_from(board.moves().len()).expect("few moves");
        d.add_move_curves(
            (one, d.next_spot(), one),
            cut.first,
            cut.second,
            index,
            board.settings().spot_radius,
        )
        .expect("the move's curves");
        Analysed::new(d).expect("a picture")
    }

    /// A transaction handed a picture read ahead takes its reading only for the picture it
    /// makes itself, and checks the position read back all the same: the wrong move with
    /// the right picture read ahead is refused (no second analysis) and leaves the board
    /// byte for byte as it was; a reading of another picture (the one before the move) is
    /// not taken (the picture is analysed, the move played); the right one is taken and the
    /// board ends exactly as with its own analysis.
    #[test]
    fn a_picture_read_ahead_is_taken_only_for_the_picture_made() {
        let mut board =
            Board::new(3, WorldSize::new(600.0, 400.0), Settings::default()).expect("a board");
        let p = board.position().clone();
        let find = |w: &str| {
            p.moves()
                .find(|m| m.describe(&p) == w)
                .unwrap_or_else(|| panic!("no move {w}"))
        };
        let (nothing, around) = (find("1 -> 1 enclosing nothing"), find("1 -> 1 enclosing 2"));
        let spline = loop_round_2();
        let cut = || spline.cut_near_middle(1e-6 * (1.0 + spline_size(&spline)));
        let before = board.to_json();

        let ahead = read_ahead(&board, &spline);
        let n = tally::analyses();
        let err = board
            .play_spline_cut(&nothing, cut, Some(ahead))
            .expect_err("another position");
        assert!(matches!(err, TransactionError::Mismatch(_)), "{err}");
        assert_eq!(tally::analyses(), n, "the reading ahead was not taken");
        assert_eq!(board.to_json(), before);

        let stale = Analysed::new(board.drawing().clone()).expect("a picture");
        board
            .play_spline_cut(&around, cut, Some(stale))
            .expect("the move");
        assert_eq!(
            tally::analyses(),
            n + 1,
            "a reading of another picture taken"
        );
        assert_eq!(
            board.position().game_key(),
            p.play(&around).expect("legal").game_key()
        );
        let afresh = board.to_json();

        board.undo().expect("a step");
        assert_eq!(board.to_json(), before);
        let ahead = read_ahead(&board, &spline);
        board
            .play_spline_cut(&around, cut, Some(ahead))
            .expect("the move");
        assert_eq!(tally::analyses(), n + 1, "the reading ahead was not taken");
        assert_eq!(board.to_json(), afresh);
    }
}
