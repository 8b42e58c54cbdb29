//! The ladder (spec 4.1, 5.9): how a move chosen in the topological layer gets drawn when the
//! router refuses it. Every frontend that draws a computer's move (the web UI, self-play,
//! network play, the examples) climbs this one ladder through [`Board::draw_computer_move`].
//!
//! The rungs, each tried once and only when the ones before it refused:
//! 1. the move as chosen ([`Board::draw_move`], which itself tries the few nearest moves giving
//!    the same game; [`Board::draw_move_strict`] once the stop flag is set);
//! 2. the other moves of the position whose child is the same game
//!    ([`Board::equivalent_moves`]) that rung 1 did not try, each drawn by
//!    [`Board::draw_move_strict`], within a time budget; the game goes on as the player chose,
//!    its picture differs;
//! 3. the Room rungs M, A and R (spec 4.3 to 4.5, 5.9 step 2), each switched on by its box.
//!    M makes room locally: the spots at the narrow place slide along their move's spline
//!    and seeds move ([`Board::slide_spots`]), then the curves near the move's ghost (the
//!    last way the router found for it) are pushed apart ([`Board::push_curves`]), in
//!    rounds, the move drawn again after each change. A and R relax the whole picture
//!    ([`Board::relax`]), then the same move is drawn again in the new picture
//!    ([`Board::draw_move`], its interchangeable boundaries chosen afresh). Each rung's
//!    changes and the move are one undo step, and changes after which the move still cannot
//!    be drawn are taken back;
//! 4. the move drawn with the whole picture afresh ([`Board::draw_move_fresh`], Z of spec 4.6),
//!    which needs no router;
//! 5. •: the same, with the spots in tight places drawn smaller (never below the settings'
//!    least size). When Z and • are both on they are one layout run whose layouts with
//!    smaller spots are kept aside and taken only when none has every spot at full size
//!    (spec 4.6); the rung reported is then • ([`Rung::Smaller`]).
//!
//! Each rung is tried at most once for a move. When every rung refuses, the first refusal is
//! returned and the board is exactly as it was. The stop flag skips rungs 2 and 3 (and ends a
//! relaxation where it is); rungs 4 and 5 still run (their descents end at once), so a move
//! whose thinking was stopped is drawn.
//!
//! A person's move drawn on the picture ([`Board::draw_human_request`]) climbs the human's
//! boxes ([`HumanRoom`]) when the router finds no room for it: M and A if checked, then R, Z
//! and • as far as they are checked in a row (an unchecked M is skipped like an unchecked A:
//! boxes kept by a frontend that knows no M still climb to R), each a change of the picture and the move drawn again
//! in one undo step. Space stops the climb.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sprouts_geom::Point;
use sprouts_topo::Move;

use crate::{
    Board, DrawRequest, DrawnMove, FreshOptions, FreshReport, LocalReport, Refusal, RelaxMode,
    RelaxOptions, RelaxReport, relax_words,
};

/// Which rungs of the ladder may be climbed, and their budgets (the "Room" choices for the
/// computer's moves).
#[derive(Clone, Debug, PartialEq)]
pub struct LadderOptions {
    /// Rung 2: the other moves giving the same game.
    pub equivalents: bool,
    /// The most moves rung 2 tries to draw.
    pub equivalents_tried: usize,
    /// The time after which rung 2 tries no further move.
    pub equivalents_budget: Duration,
    /// Rung 3, M: spots slid and seeds moved, then curves pushed apart round the move's ghost
    /// (spec 4.3, 4.4), the move drawn again after each change.
    pub local: bool,
    /// Rung 3, A: the curves relaxed with the spots kept, then the move drawn again.
    pub adjust: bool,
    /// Rung 3, R: the whole picture relaxed, then the move drawn again.
    pub rearrange: bool,
    /// The options of A and R.
    pub relax_options: RelaxOptions,
    /// Rung 4: the whole picture drawn afresh with the move (Z).
    pub fresh: bool,
    /// Rung 5, •: the picture afresh with spots drawn smaller where there is no room.
    pub smaller_spots: bool,
    /// The fresh layout's options (its `smaller_spots` is set by the rung).
    pub fresh_options: FreshOptions,
    /// The Room boxes for a person's moves drawn on the picture.
    pub human: HumanRoom,
}

impl Default for LadderOptions {
    /// The computer's Room boxes: R, Z and • on, A off, and M off: measured, it drew no more
    /// games to the end than R alone, slower and more crowded (docs/drawing.md, M measured);
    /// 24 equivalent moves within 20 s, and the human's defaults ([`HumanRoom::default`]).
    fn default() -> LadderOptions {
        LadderOptions {
            equivalents: true,
            equivalents_tried: 24,
            equivalents_budget: Duration::from_secs(20),
            local: false,
            adjust: false,
            rearrange: true,
            relax_options: RelaxOptions::default(),
            fresh: true,
            smaller_spots: true,
            fresh_options: FreshOptions::default(),
            human: HumanRoom::default(),
        }
    }
}

/// The Room boxes for a person's moves (spec 4.1): which steps are taken automatically when
/// the router finds no room for a move drawn on the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HumanRoom {
    /// M: spots slid and seeds moved, curves pushed apart (skipped when unchecked).
    pub local: bool,
    /// A: the curves relaxed with the spots kept (skipped when unchecked).
    pub adjust: bool,
    /// R: the whole picture relaxed.
    pub rearrange: bool,
    /// Z: the whole picture drawn afresh (taken only if R is checked too).
    pub fresh: bool,
    /// •: drawn afresh with spots smaller where there is no room (taken only if R and Z are).
    pub smaller_spots: bool,
}

impl Default for HumanRoom {
    /// R (spec 4.1 also checks M, off here for the reason [`LadderOptions::default`] gives).
    fn default() -> HumanRoom {
        HumanRoom {
            local: false,
            adjust: false,
            rearrange: true,
            fresh: false,
            smaller_spots: false,
        }
    }
}

/// A step of making room for a move (spec 4.1), in the ladder's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RoomStep {
    /// M: spots slid and seeds moved, curves pushed apart round the move's way.
    Local,
    /// A: the curves relaxed with the spots kept.
    Adjust,
    /// R: the whole picture relaxed.
    Rearrange,
    /// Z: the whole picture drawn afresh.
    Fresh,
    /// •: drawn afresh with spots smaller where there is no room.
    Smaller,
}

impl RoomStep {
    /// The steps in the ladder's order.
    pub const ALL: [RoomStep; 5] = [
        RoomStep::Local,
        RoomStep::Adjust,
        RoomStep::Rearrange,
        RoomStep::Fresh,
        RoomStep::Smaller,
    ];

    /// The step's key: M, A, R, Z or `.`.
    pub fn key(self) -> &'static str {
        match self {
            RoomStep::Local => "M",
            RoomStep::Adjust => "A",
            RoomStep::Rearrange => "R",
            RoomStep::Fresh => "Z",
            RoomStep::Smaller => ".",
        }
    }
}

impl HumanRoom {
    fn checked(&self, step: RoomStep) -> bool {
        match step {
            RoomStep::Local => self.local,
            RoomStep::Adjust => self.adjust,
            RoomStep::Rearrange => self.rearrange,
            RoomStep::Fresh => self.fresh,
            RoomStep::Smaller => self.smaller_spots,
        }
    }

    /// The steps a person's move climbs (spec 4.1): `pressed` (a step pressed by hand while the
    /// move waits) and the checked ones above it, or the checked ones from the bottom, as far
    /// as the boxes are checked in a row (an unchecked M or A is skipped).
    pub fn climb(&self, pressed: Option<RoomStep>) -> Vec<RoomStep> {
        let mut steps = Vec::new();
        for step in RoomStep::ALL {
            if pressed.is_some_and(|p| step < p) {
                continue;
            }
            if Some(step) == pressed || self.checked(step) {
                steps.push(step);
            } else if !matches!(step, RoomStep::Local | RoomStep::Adjust) {
                break;
            }
        }
        steps
    }

    /// No step taken automatically (heroic mode, or a frontend that offers the steps by hand).
    pub fn none() -> HumanRoom {
        HumanRoom {
            local: false,
            adjust: false,
            rearrange: false,
            fresh: false,
            smaller_spots: false,
        }
    }
}

/// The rung that drew a move.
#[derive(Clone, Debug, PartialEq)]
pub enum Rung {
    /// Rung 1: the move as chosen, or one of the nearest moves giving the same game that
    /// [`Board::draw_move`] tries itself (`equivalent` is then the move drawn, in words).
    AsChosen {
        /// The move drawn in place of the one chosen, in words, if it was another.
        equivalent: Option<String>,
    },
    /// Rung 2: another move giving the same game, in words.
    Equivalent(String),
    /// Rung 3, M: room made locally (spots slid, seeds moved, curves pushed apart), then the
    /// move drawn (`equivalent` as in [`Rung::AsChosen`]).
    Local {
        /// What M did.
        report: LocalReport,
        /// The move drawn in place of the one chosen, in words, if it was another.
        equivalent: Option<String>,
    },
    /// Rung 3: the picture relaxed by A or R, then the move drawn (`equivalent` as in
    /// [`Rung::AsChosen`]).
    Room {
        /// What the relaxation did.
        report: RelaxReport,
        /// The move drawn in place of the one chosen, in words, if it was another.
        equivalent: Option<String>,
    },
    /// Rung 4: the whole picture drawn afresh with the move (for a person's move: the
    /// picture afresh, then the move drawn in it).
    Fresh(FreshReport),
    /// Rung 5 (•): as rung 4, with some spots drawn smaller
    /// ([`FreshReport::smaller_spots`]).
    Smaller(FreshReport),
}

impl Rung {
    /// The rung's number (1 to 5).
    pub fn number(&self) -> u8 {
        match self {
            Rung::AsChosen { .. } => 1,
            Rung::Equivalent(_) => 2,
            Rung::Local { .. } | Rung::Room { .. } => 3,
            Rung::Fresh(_) => 4,
            Rung::Smaller(_) => 5,
        }
    }

    /// The rung's short name for a report: `as chosen`, `equivalent`, `M`, `A`, `R`, `Z` or
    /// `•`.
    pub fn name(&self) -> &'static str {
        match self {
            Rung::AsChosen { .. } => "as chosen",
            Rung::Equivalent(_) => "equivalent",
            Rung::Local { .. } => "M",
            Rung::Room { report, .. } => report.mode.label(),
            Rung::Fresh(_) => "Z",
            Rung::Smaller(_) => "•",
        }
    }

    /// The fresh layout's report, for rungs 4 and 5.
    pub fn fresh_report(&self) -> Option<&FreshReport> {
        match self {
            Rung::Fresh(r) | Rung::Smaller(r) => Some(r),
            _ => None,
        }
    }

    /// The rung for a fresh layout: • if it drew spots smaller, else Z.
    fn of_fresh(report: FreshReport) -> Rung {
        if report.smaller_spots.is_empty() {
            Rung::Fresh(report)
        } else {
            Rung::Smaller(report)
        }
    }

    /// Whether the move was drawn as another move giving the same game.
    pub fn is_equivalent(&self) -> bool {
        matches!(
            self,
            Rung::AsChosen {
                equivalent: Some(_)
            } | Rung::Room {
                equivalent: Some(_),
                ..
            } | Rung::Local {
                equivalent: Some(_),
                ..
            } | Rung::Equivalent(_)
        )
    }
}

/// How a move was drawn: the rung that drew it, the move drawn in words, and a line for the
/// log per step tried.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderReport {
    /// The rung that drew the move.
    pub rung: Rung,
    /// The move drawn, in words (the board's history records it so).
    pub words: String,
    /// The move drawn (a move of the position before it; another move giving the same game
    /// than the one chosen when [`Rung::is_equivalent`]).
    pub mv: Move,
    /// The certified clearance of the new curve (pixels), for rungs 1 and 2.
    pub clearance: Option<f64>,
    /// One line per step tried, in order.
    pub log: Vec<String>,
}

/// A move no rung could draw: the first refusal (the move as chosen), and a line per step.
#[derive(Clone, Debug)]
pub struct LadderRefusal {
    /// Why the move as chosen was refused.
    pub refusal: Box<Refusal>,
    /// One line per step tried, in order.
    pub log: Vec<String>,
}

impl std::fmt::Display for LadderRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.refusal)
    }
}

impl std::error::Error for LadderRefusal {}

/// What a fresh layout did, in words for the log.
pub fn fresh_words(r: &FreshReport) -> String {
    let mut s = format!(
        "{} vertices on a {} x {} grid, region {} outside (layouts made {}, kept {}), \
         least gap {:.1} px after {} spreading steps and {} stages of R ({} L-BFGS steps)",
        r.vertices,
        r.grid.0,
        r.grid.1,
        r.outside.index(),
        r.layouts.0,
        r.layouts.1,
        r.clearance,
        r.iterations,
        r.descent.0,
        r.descent.1
    );
    if !r.smaller_spots.is_empty() {
        s.push_str(&format!(", {} spots drawn smaller", r.smaller_spots.len()));
    }
    if !r.straight_curves.is_empty() {
        s.push_str(&format!(
            ", {} curves left as polylines",
            r.straight_curves.len()
        ));
    }
    s
}

fn drawn_line(d: &DrawnMove) -> String {
    format!(
        "drawn with clearance {:.1} px ({:?})",
        d.clearance, d.method
    )
}

impl Board {
    /// Draws the computer's move `mv` (a move of [`Board::position`]) by the ladder of spec
    /// 4.1 / 5.9 (see the module docs), climbing only the rungs `options` allows. `stop` (the
    /// user's Space) ends rungs 2 and 3 and makes rung 1 draw the move itself only; rung 4
    /// still runs (it is bounded and needs no search). `observer` sees the routes as they are found.
    ///
    /// # Errors
    /// A [`LadderRefusal`] with the first refusal and the log; the board is then exactly as it
    /// was.
    pub fn draw_computer_move(
        &mut self,
        mv: &Move,
        options: &LadderOptions,
        stop: &AtomicBool,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<LadderReport, LadderRefusal> {
        let _span = tracing::debug_span!("draw_computer_move").entered();
        let mut log = Vec::new();
        let pos = self.position().clone();
        // The last way the router showed: M's first ghost.
        let seen = std::cell::RefCell::new(Vec::<Point>::new());
        let observer = &mut |p: &[Point]| {
            let mut s = seen.borrow_mut();
            s.clear();
            s.extend_from_slice(p);
            observer(p);
        };
        let drawn = if stop.load(Ordering::Relaxed) {
            self.draw_move_strict(mv, observer)
        } else {
            self.draw_move(mv, observer)
        };
        let first = match drawn {
            Ok(drawn) => {
                if let Some(e) = &drawn.equivalent_of {
                    log.push(format!(
                        "ladder step 1, the move as chosen: refused ({})",
                        e.refusal.detail()
                    ));
                    for (w, r) in &e.refused {
                        log.push(format!(
                            "ladder step 1, equivalent move {w}: refused ({})",
                            r.detail()
                        ));
                    }
                    log.push(format!(
                        "ladder step 1: {} (the same game)",
                        e.words_with(&drawn.words)
                    ));
                }
                log.push(drawn_line(&drawn));
                return Ok(LadderReport {
                    rung: Rung::AsChosen {
                        equivalent: drawn.equivalent_of.as_ref().map(|_| drawn.words.clone()),
                    },
                    mv: drawn.mv,
                    words: drawn.words,
                    clearance: Some(drawn.clearance),
                    log,
                });
            }
            Err(refusal) => refusal,
        };
        log.push(format!(
            "ladder step 1, the move as chosen: refused ({})",
            first.detail()
        ));
        if options.equivalents {
            if let Some(report) =
                self.rung_equivalents(mv, &first, options, stop, observer, &mut log)
            {
                return Ok(report);
            }
        } else {
            log.push("ladder step 2 (moves giving the same game) is off".into());
        }
        if options.local {
            let mut ghost = seen.borrow().clone();
            if ghost.is_empty() {
                ghost = crate::route::ghost_of_move(&self.view(), mv, &first).unwrap_or_default();
            }
            let mut attempt = |b: &mut Board, o: &mut dyn FnMut(&[Point])| b.draw_move(mv, o);
            if let Some(report) = self.rung_local(
                &first,
                ghost,
                &mut attempt,
                options,
                stop,
                observer,
                &mut log,
            ) {
                return Ok(report);
            }
        }
        for (on, mode) in [
            (options.adjust, RelaxMode::Adjust),
            (options.rearrange, RelaxMode::Rearrange),
        ] {
            if !on {
                continue;
            }
            if let Some(report) = self.rung_room(mv, mode, options, stop, observer, &mut log) {
                return Ok(report);
            }
        }
        if options.fresh || options.smaller_spots {
            let started = Instant::now();
            let fresh_options = FreshOptions {
                smaller_spots: options.smaller_spots,
                ..options.fresh_options
            };
            let step = if options.fresh { "4" } else { "5" };
            match self.draw_move_fresh_with_stop(mv, &fresh_options, stop) {
                Ok(fresh) => {
                    let rung = Rung::of_fresh(fresh.report);
                    let report = rung.fresh_report().expect("a fresh rung");
                    log.push(format!(
                        "ladder step {} ({}): {} drawn with the whole picture afresh in {:.2} s; {}",
                        rung.number(),
                        rung.name(),
                        fresh.words,
                        started.elapsed().as_secs_f64(),
                        fresh_words(report)
                    ));
                    return Ok(LadderReport {
                        rung,
                        mv: fresh.mv,
                        words: fresh.words,
                        clearance: None,
                        log,
                    });
                }
                Err(r) => log.push(format!(
                    "ladder step {step}, the picture afresh: refused ({})",
                    r.detail()
                )),
            }
        } else {
            log.push("ladder steps 4 and 5 (the picture afresh) are off".into());
        }
        log.push(format!(
            "ladder: every step refused ({})",
            mv.describe(&pos)
        ));
        Err(LadderRefusal {
            refusal: Box::new(first),
            log,
        })
    }

    /// Rung 3, M: room made locally and the move drawn by `attempt` after each change, as one
    /// undo step ([`Board::local_room`]); the board is as it was unless the move was drawn.
    #[allow(
        clippy::too_many_arguments,
        reason = "the move's refusal, ghost and attempt beside the ladder's own arguments"
    )]
    fn rung_local(
        &mut self,
        first: &Refusal,
        ghost: Vec<Point>,
        attempt: &mut crate::room::local::TryMove<'_>,
        options: &LadderOptions,
        stop: &AtomicBool,
        observer: &mut dyn FnMut(&[Point]),
        log: &mut Vec<String>,
    ) -> Option<LadderReport> {
        if stop.load(Ordering::Relaxed) {
            log.push("Room step M skipped: stop asked (Space)".into());
            return None;
        }
        let started = Instant::now();
        let drawn = self.in_one_step(|b| {
            b.local_room(
                first,
                ghost,
                attempt,
                &options.relax_options,
                stop,
                observer,
            )
        });
        let seconds = started.elapsed().as_secs_f64();
        match drawn {
            Ok((drawn, report)) => {
                log.push(format!(
                    "Room step M: {} in {seconds:.2} s; {} {}",
                    crate::local_words(&report),
                    drawn.words,
                    drawn_line(&drawn)
                ));
                Some(LadderReport {
                    rung: Rung::Local {
                        equivalent: drawn.equivalent_of.as_ref().map(|_| drawn.words.clone()),
                        report,
                    },
                    mv: drawn.mv,
                    words: drawn.words,
                    clearance: Some(drawn.clearance),
                    log: std::mem::take(log),
                })
            }
            Err(why) => {
                log.push(format!("Room step M, in {seconds:.2} s: {why}"));
                None
            }
        }
    }

    /// Rung 3: the picture relaxed by `mode`, then the move drawn in it, as one undo step; the
    /// board is as it was unless the move was drawn.
    fn rung_room(
        &mut self,
        mv: &Move,
        mode: RelaxMode,
        options: &LadderOptions,
        stop: &AtomicBool,
        observer: &mut dyn FnMut(&[Point]),
        log: &mut Vec<String>,
    ) -> Option<LadderReport> {
        let key = mode.label();
        if stop.load(Ordering::Relaxed) {
            log.push(format!("ladder step 3 ({key}) skipped: stop asked (Space)"));
            return None;
        }
        let (drawn, seconds) = self.changed_then_drawn(
            |b| {
                b.relax(mode, &options.relax_options, stop)
                    .map_err(|e| format!("{key} refused: {e}"))
            },
            relax_words,
            |b| b.draw_move(mv, observer),
        );
        match drawn {
            Ok((report, drawn)) => {
                log.push(format!(
                    "ladder step 3 ({key}): {} in {seconds:.2} s; {} {}",
                    relax_words(&report),
                    drawn.words,
                    drawn_line(&drawn)
                ));
                Some(LadderReport {
                    rung: Rung::Room {
                        equivalent: drawn.equivalent_of.as_ref().map(|_| drawn.words.clone()),
                        report,
                    },
                    mv: drawn.mv,
                    words: drawn.words,
                    clearance: Some(drawn.clearance),
                    log: std::mem::take(log),
                })
            }
            Err(why) => {
                log.push(format!("ladder step 3 ({key}), in {seconds:.2} s: {why}"));
                None
            }
        }
    }

    /// Rung 2: the other moves giving the same game that rung 1 did not try.
    fn rung_equivalents(
        &mut self,
        mv: &Move,
        first: &Refusal,
        options: &LadderOptions,
        stop: &AtomicBool,
        observer: &mut dyn FnMut(&[Point]),
        log: &mut Vec<String>,
    ) -> Option<LadderReport> {
        if stop.load(Ordering::Relaxed) {
            log.push("ladder step 2 skipped: stop asked (Space)".into());
            return None;
        }
        let pos = self.position().clone();
        let tried: Vec<String> = match first {
            Refusal::Equivalents { tried, .. } => tried.iter().map(|(w, _)| w.clone()).collect(),
            _ => Vec::new(),
        };
        let started = Instant::now();
        let others: Vec<Move> = self
            .equivalent_moves(mv)
            .into_iter()
            .filter(|m| !tried.contains(&m.describe(&pos)))
            .collect();
        log.push(format!(
            "ladder step 2: {} other moves give the same game (found in {:.2} s); trying up to {}",
            others.len(),
            started.elapsed().as_secs_f64(),
            options.equivalents_tried
        ));
        for (i, other) in others.iter().take(options.equivalents_tried).enumerate() {
            if stop.load(Ordering::Relaxed) {
                log.push("ladder stopped (Space)".into());
                return None;
            }
            if started.elapsed() > options.equivalents_budget {
                log.push(format!(
                    "ladder step 2 ended after {:.0} s",
                    options.equivalents_budget.as_secs_f64()
                ));
                return None;
            }
            match self.draw_move_strict(other, observer) {
                Ok(drawn) => {
                    log.push(format!(
                        "ladder step 2, equivalent move {} of {}: {} drawn instead; {}",
                        i + 1,
                        others.len(),
                        drawn.words,
                        drawn_line(&drawn)
                    ));
                    return Some(LadderReport {
                        rung: Rung::Equivalent(drawn.words.clone()),
                        mv: drawn.mv,
                        words: drawn.words,
                        clearance: Some(drawn.clearance),
                        log: std::mem::take(log),
                    });
                }
                Err(r) => log.push(format!(
                    "ladder step 2, equivalent move {}: {} refused ({})",
                    i + 1,
                    other.describe(&pos),
                    r.detail()
                )),
            }
        }
        None
    }
}

impl Board {
    /// A change of the picture (`change`, its report put in words by `words`), then the move
    /// drawn in it by `draw`, as one undo step: the board is as it was unless both were done.
    /// Returns the change's report and the move drawn, or why not in words, with the seconds
    /// the two took.
    fn changed_then_drawn<R>(
        &mut self,
        change: impl FnOnce(&mut Board) -> Result<R, String>,
        words: fn(&R) -> String,
        draw: impl FnOnce(&mut Board) -> Result<DrawnMove, Refusal>,
    ) -> (Result<(R, DrawnMove), String>, f64) {
        let started = Instant::now();
        let mut changed = None;
        let drawn = self.in_one_step(|b| {
            let r = change(b)?;
            let line = words(&r);
            changed = Some(r);
            draw(b).map_err(|e| format!("{line}; the move still refused ({})", e.detail()))
        });
        let seconds = started.elapsed().as_secs_f64();
        let drawn = drawn.map(|d| (changed.expect("the change was made"), d));
        (drawn, seconds)
    }
}

/// Whether a refusal says the picture lacks room for the move (and not that the move asked is
/// not a move here): only then does making room help.
pub(crate) fn wants_room(r: &Refusal) -> bool {
    matches!(
        r,
        Refusal::NoRoomAtSpot(_)
            | Refusal::NoPath { .. }
            | Refusal::WrongEnclosure { .. }
            | Refusal::Certificate { .. }
            | Refusal::Fit(_)
    )
}

/// A person's move on the picture drawn by the human's ladder.
impl Board {
    /// Draws a person's move asked on the picture ([`Board::draw_request`]); when the router
    /// finds no room for it, climbs the human's Room boxes of `options` (see the module docs):
    /// each step changes the picture and draws the request again (its stroke dropped: it was
    /// drawn on the picture before the change), the change and the move one undo step. A
    /// refusal that is not about room (no life, no such side) is returned at once. `stop` (the
    /// user's Space) stops the climb.
    ///
    /// # Errors
    /// A [`LadderRefusal`] with the first refusal and a line per step; the board is then
    /// exactly as it was.
    pub fn draw_human_request(
        &mut self,
        request: &DrawRequest,
        options: &LadderOptions,
        stop: &AtomicBool,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<LadderReport, LadderRefusal> {
        self.draw_human_request_from(request, options, None, stop, observer)
    }

    /// [`Board::draw_human_request`] with `pressed`, a step pressed by hand while the move
    /// waits for room (spec 4.1): when the router still finds no room, that step is taken
    /// first, then the checked ones above it ([`HumanRoom::climb`]).
    ///
    /// # Errors
    /// As [`Board::draw_human_request`].
    pub fn draw_human_request_from(
        &mut self,
        request: &DrawRequest,
        options: &LadderOptions,
        pressed: Option<RoomStep>,
        stop: &AtomicBool,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<LadderReport, LadderRefusal> {
        let _span = tracing::debug_span!("draw_human_request").entered();
        let seen = std::cell::RefCell::new(Vec::<Point>::new());
        let observer = &mut |p: &[Point]| {
            let mut s = seen.borrow_mut();
            s.clear();
            s.extend_from_slice(p);
            observer(p);
        };
        let first = match self.draw_request(request, observer) {
            Ok(drawn) => {
                let line = format!(
                    "drawn {} ({:?}), certified clearance {:.1} px",
                    drawn.words, drawn.method, drawn.clearance
                );
                return Ok(LadderReport {
                    rung: Rung::AsChosen { equivalent: None },
                    mv: drawn.mv,
                    words: drawn.words,
                    clearance: Some(drawn.clearance),
                    log: vec![line],
                });
            }
            Err(r) => r,
        };
        let mut log = vec![format!("the move asked: refused ({})", first.detail())];
        if !wants_room(&first) {
            return Err(LadderRefusal {
                refusal: Box::new(first),
                log,
            });
        }
        let again = DrawRequest {
            stroke: None,
            ..request.clone()
        };
        let shown = seen.borrow().clone();
        let human = HumanStep {
            request,
            again: &again,
            first: &first,
            options,
            stop,
        };
        for step in options.human.climb(pressed) {
            if stop.load(Ordering::Relaxed) {
                log.push("the Room steps stopped (Space)".into());
                break;
            }
            let drawn = match step {
                RoomStep::Local => self.human_local(&human, shown.clone(), observer, &mut log),
                RoomStep::Adjust => self.human_relax(&human, RelaxMode::Adjust, observer, &mut log),
                RoomStep::Rearrange => {
                    self.human_relax(&human, RelaxMode::Rearrange, observer, &mut log)
                }
                RoomStep::Fresh => self.human_fresh(&human, false, observer, &mut log),
                RoomStep::Smaller => self.human_fresh(&human, true, observer, &mut log),
            };
            if let Some(report) = drawn {
                return Ok(report);
            }
        }
        if !stop.load(Ordering::Relaxed) {
            log.push(
                "the Room steps checked are used up; M, A, R, Z and . can be pressed by hand"
                    .into(),
            );
        }
        Err(LadderRefusal {
            refusal: Box::new(first),
            log,
        })
    }

    /// A or R for a person's move: the picture relaxed, then the move drawn again.
    fn human_relax(
        &mut self,
        step: &HumanStep<'_>,
        mode: RelaxMode,
        observer: &mut dyn FnMut(&[Point]),
        log: &mut Vec<String>,
    ) -> Option<LadderReport> {
        let key = mode.label();
        let (drawn, seconds) = self.changed_then_drawn(
            |b| {
                b.relax(mode, &step.options.relax_options, step.stop)
                    .map_err(|e| format!("{key} refused: {e}"))
            },
            relax_words,
            |b| b.draw_request(step.again, observer),
        );
        let drawn = drawn.map(|(report, drawn)| {
            let words = relax_words(&report);
            let rung = Rung::Room {
                report,
                equivalent: None,
            };
            (rung, words, drawn)
        });
        room_step_report(key, drawn, seconds, log)
    }

    /// Z or • for a person's move: the picture drawn afresh, then the move drawn again.
    fn human_fresh(
        &mut self,
        step: &HumanStep<'_>,
        smaller: bool,
        observer: &mut dyn FnMut(&[Point]),
        log: &mut Vec<String>,
    ) -> Option<LadderReport> {
        let fresh_options = FreshOptions {
            smaller_spots: smaller,
            ..step.options.fresh_options
        };
        let (drawn, seconds) = self.changed_then_drawn(
            |b| {
                b.redraw_fresh_with_stop(&fresh_options, step.stop)
                    .map_err(|e| format!("refused: {e}"))
            },
            fresh_words,
            |b| b.draw_request(step.again, observer),
        );
        let name = if smaller { "•" } else { "Z" };
        let drawn = drawn.map(|(fresh, drawn)| {
            let rung = Rung::of_fresh(fresh);
            let words = fresh_words(rung.fresh_report().expect("a fresh rung"));
            (rung, words, drawn)
        });
        room_step_report(name, drawn, seconds, log)
    }

    /// M for a person's move: the ghost is the route last shown for the stroke, or the
    /// planner's way for the request when none was shown; `None` when M did not draw it.
    fn human_local(
        &mut self,
        step: &HumanStep<'_>,
        shown: Vec<Point>,
        observer: &mut dyn FnMut(&[Point]),
        log: &mut Vec<String>,
    ) -> Option<LadderReport> {
        let ghost = if shown.is_empty() {
            crate::route::ghost_of_request(&self.view(), step.request, step.first)
                .unwrap_or_default()
        } else {
            shown
        };
        let again = step.again;
        let mut attempt = |b: &mut Board, o: &mut dyn FnMut(&[Point])| b.draw_request(again, o);
        let mut report = self.rung_local(
            step.first,
            ghost,
            &mut attempt,
            step.options,
            step.stop,
            observer,
            log,
        )?;
        report.rung = match report.rung {
            Rung::Local { report, .. } => Rung::Local {
                report,
                equivalent: None,
            },
            other => other,
        };
        Some(report)
    }
}

/// A Room step of a person's move in the log and, when it drew the move, its report: `drawn`
/// is the rung, the change in words and the move drawn, or why the step did not draw it.
fn room_step_report(
    name: &str,
    drawn: Result<(Rung, String, DrawnMove), String>,
    seconds: f64,
    log: &mut Vec<String>,
) -> Option<LadderReport> {
    match drawn {
        Ok((rung, change, drawn)) => {
            log.push(format!(
                "Room step {name}: {change} in {seconds:.2} s; {} {}",
                drawn.words,
                drawn_line(&drawn)
            ));
            Some(LadderReport {
                rung,
                mv: drawn.mv,
                words: drawn.words,
                clearance: Some(drawn.clearance),
                log: std::mem::take(log),
            })
        }
        Err(why) => {
            log.push(format!("Room step {name}, in {seconds:.2} s: {why}"));
            None
        }
    }
}

/// What M needs of a person's refused request.
struct HumanStep<'a> {
    /// The request as asked (its stroke gives the ghost when no route was shown).
    request: &'a DrawRequest,
    /// The request without its stroke, drawn again after each change.
    again: &'a DrawRequest,
    /// The first refusal.
    first: &'a Refusal,
    options: &'a LadderOptions,
    stop: &'a AtomicBool,
}
