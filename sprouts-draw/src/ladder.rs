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
//! 3. the Room rungs A and R (spec 4.5, 5.9 step 2), each switched on by its box: the whole
//!    picture relaxed ([`Board::relax`]), then the same move drawn again in the new picture
//!    ([`Board::draw_move`], its interchangeable boundaries chosen afresh); the change and the
//!    move are one undo step, and a change after which the move still cannot be drawn is
//!    taken back;
//! 4. the move drawn with the whole picture afresh ([`Board::draw_move_fresh`], Z of spec 4.6),
//!    which needs no router.
//!
//! Each rung is tried at most once for a move. When every rung refuses, the first refusal is
//! returned and the board is exactly as it was. The stop flag skips rungs 2 and 3 (and ends a
//! relaxation where it is); rung 4 still runs, so a move whose thinking was stopped is drawn.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sprouts_geom::Point;
use sprouts_topo::Move;

use crate::{
    Board, DrawnMove, FreshOptions, FreshReport, Refusal, RelaxMode, RelaxOptions, RelaxReport,
    relax_words,
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
    /// Rung 3, A: the curves relaxed with the spots kept, then the move drawn again.
    pub adjust: bool,
    /// Rung 3, R: the whole picture relaxed, then the move drawn again.
    pub rearrange: bool,
    /// The options of A and R.
    pub relax_options: RelaxOptions,
    /// Rung 4: the whole picture drawn afresh with the move (Z).
    pub fresh: bool,
    /// The fresh layout's options.
    pub fresh_options: FreshOptions,
}

impl Default for LadderOptions {
    /// The computer's Room boxes of spec 4.1 (R and Z on, A off) and 24 equivalent moves
    /// within 20 s.
    fn default() -> LadderOptions {
        LadderOptions {
            equivalents: true,
            equivalents_tried: 24,
            equivalents_budget: Duration::from_secs(20),
            adjust: false,
            rearrange: true,
            relax_options: RelaxOptions::default(),
            fresh: true,
            fresh_options: FreshOptions::default(),
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
    /// Rung 3: the picture relaxed by A or R, then the move drawn (`equivalent` as in
    /// [`Rung::AsChosen`]).
    Room {
        /// What the relaxation did.
        report: RelaxReport,
        /// The move drawn in place of the one chosen, in words, if it was another.
        equivalent: Option<String>,
    },
    /// Rung 4: the whole picture drawn afresh with the move.
    Fresh(FreshReport),
}

impl Rung {
    /// The rung's number (1 to 4).
    pub fn number(&self) -> u8 {
        match self {
            Rung::AsChosen { .. } => 1,
            Rung::Equivalent(_) => 2,
            Rung::Room { .. } => 3,
            Rung::Fresh(_) => 4,
        }
    }

    /// The rung's short name for a report: `as chosen`, `equivalent`, `A`, `R` or `Z`.
    pub fn name(&self) -> &'static str {
        match self {
            Rung::AsChosen { .. } => "as chosen",
            Rung::Equivalent(_) => "equivalent",
            Rung::Room { report, .. } => report.mode.label(),
            Rung::Fresh(_) => "Z",
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
        "{} vertices on a {} x {} grid, clearance {:.1} px after {} polish steps",
        r.vertices, r.grid.0, r.grid.1, r.clearance, r.iterations
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
        if options.fresh {
            let started = Instant::now();
            match self.draw_move_fresh(mv, &options.fresh_options) {
                Ok(fresh) => {
                    log.push(format!(
                        "ladder step 4: {} drawn with the whole picture afresh in {:.2} s; {}",
                        fresh.words,
                        started.elapsed().as_secs_f64(),
                        fresh_words(&fresh.report)
                    ));
                    return Ok(LadderReport {
                        rung: Rung::Fresh(fresh.report),
                        words: fresh.words,
                        clearance: None,
                        log,
                    });
                }
                Err(r) => log.push(format!(
                    "ladder step 4, the picture afresh: refused ({})",
                    r.detail()
                )),
            }
        } else {
            log.push("ladder step 4 (the picture afresh) is off".into());
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
        let started = Instant::now();
        let mut relaxed = None;
        let drawn = self.in_one_step(|b| {
            let r = b
                .relax(mode, &options.relax_options, stop)
                .map_err(|e| format!("{key} refused: {e}"))?;
            let line = relax_words(&r);
            relaxed = Some(r);
            b.draw_move(mv, observer)
                .map_err(|e| format!("{line}; the move still refused ({})", e.detail()))
        });
        let seconds = started.elapsed().as_secs_f64();
        match drawn {
            Ok(drawn) => {
                let report = relaxed.expect("the relaxation ran");
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
