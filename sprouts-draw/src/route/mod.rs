//! Drawing a move (spec 3): from a request (from spot `a` leaving on this side, to spot `b`
//! arriving on that side, going round these spots, perhaps along a stroke) to a certified
//! spline ready to play, or a [`Refusal`] that says why not. The route reads the board through
//! a [`BoardView`] and never changes it: what it gives, a [`Prepared`] move, is played by the
//! board's own checked transaction (`crate::drawn`).
//!
//! A move is drawn in stages, each a module that takes the previous stage's value and gives
//! the next one's:
//!
//! 1. [`plan`]: the request resolved into [`Plan`]s (corners, what to enclose, the stroke);
//!    a computer's move through [`computer`] (the nearest-cluster choice and the others).
//! 2. [`frame`]: the plan framed on the picture at one clearance, a [`frame::Frame`] (the end
//!    spots, their sectors, the [`marked::Enclosure`], the hypotheses and the judge of routes).
//! 3. [`walls`]: the free space ([`planner`]) with a loop's walls, a [`walls::Walls`] (the
//!    grid, the cells to leave from and arrive at, the means to build other walled grids).
//! 4. [`search`]: the grid search (Dijkstra/A*, the barrier trees of [`barrier`], the marked
//!    parity search of [`marked`]), a [`search::Way`]; no way is a refusal naming the widest.
//! 5. [`relax`]: the way relaxed by the elastic band ([`band`]), the routes to fit in turn.
//! 6. [`certify`]: ports, the clamped fit ([`fit`]), the new spot's place and room ([`spot`]),
//!    the certificate (the refined control polygon keeps `0.6 d0` from everything) and the
//!    picture's own check, a [`certify::Certified`] curve and the [`Prepared`] move it draws.
//!
//! [`ghost`] gives M (spec 4.4) the way a refused move would take if there were room.
//!
//! [`prepare`] runs the stages at the clearance `d0` and, where there is no way there, at the
//! [`TIGHT_CLEARANCES`] in turn: the clearance ladder. A computer's move is prepared with
//! other choices of its interchangeable boundaries ([`prepare_move`]), again with the band
//! leaning when it cuts corridors ([`corridors`]), or as a move giving the same game
//! ([`equivalent`]). [`reach`] lights up the spots a curve can reach.

mod band;
mod barrier;
mod certify;
mod computer;
mod corridors;
mod crossing;
mod equivalent;
mod fit;
mod frame;
mod ghost;
mod marked;
mod parity;
mod plan;
mod planner;
mod pressure;
mod reach;
mod refusal;
mod relax;
mod search;
mod spot;
mod view;
mod walls;

use sprouts_geom::Point;
use sprouts_topo::Move;

use frame::Frame;
use plan::Want;
use planner::Scene;
use walls::Walls;

pub use band::BandSettings;
pub(crate) use certify::Prepared;
pub use equivalent::Equivalent;
pub(crate) use equivalent::{EQUIVALENTS_TRIED, equivalents_to_try, same_game, worth_another_move};
pub(crate) use ghost::{ghost_of_move, ghost_of_request};
pub use plan::{DrawRequest, Side};
pub(crate) use plan::{Plan, request_plans};
pub use reach::Reachable;
pub(crate) use reach::reachable;
pub use refusal::Refusal;
pub use search::RouteMethod;
pub(crate) use view::BoardView;

/// Most states the parity search keeps before it gives up.
const MAX_STATES: usize = 3_000_000;

/// The clearances, as fractions of `d0`, the planner's free space is built with in turn when
/// there is no way at the full `d0`: a corridor narrower than `2 d0` still takes a curve the
/// certificate accepts (`0.6 d0` from everything), and the finer grid that comes with the
/// smaller clearance does not close it by rounding to cells.
///
/// The last is the certificate's own clearance: a pinch whose middle keeps a little more than
/// `0.6 d0` but less than `0.62 d0` plus the reach of a cell of that grid has no open cell
/// there at `0.62 d0` (its cells are 2.6 px, the band of centres kept open a fraction of a
/// pixel wide), and at `0.6 d0` the route through it is found and the certificate judges the
/// curve as always. Random 8-spot games drawn to the end, 100 a seed (`ROUTE_SEED` unset, 7,
/// 11, 13 and 17; README, "Drawing moves"): 96, 94, 97, 92 and 93 without it (472 of 500),
/// 96, 95, 97, 92 and 93 with it (473; seed 7's game 33, `23 -> 8 enclosing nothing` through
/// a pinch whose widest way measured 3.99 px at `d0`, is drawn to the end). The other refusals
/// are real: drawn again at `0.6 d0` on cells 1 px wide, 16 of the 19 looked at on the first
/// four seeds have no way (the widest keeps 1.7 to 3.3 px), one has a way whose fitted curve
/// keeps only 3.35 px, and two are drawn. A last try on cells 1.5 px wide, which draws those
/// two, drew the same 96, 95, 97 and 92 games to the end on those seeds (both games refused a
/// later move), at the cost of a grid of 1.6 million cells for every refused move, so it is
/// not made.
const TIGHT_CLEARANCES: [f64; 3] = [0.75, 0.62, 0.6];

/// The clearance ladder: `plan` prepared at the clearance `d0` first, then, when that has no
/// way, no room at an end spot or no way that sorts the boundaries as asked, at the
/// [`TIGHT_CLEARANCES`] in turn (the certificate asks `0.6 d0` all the same). A refusal is the
/// first one of another kind, else the one at `d0`.
///
/// A wrong enclosure is most often a way the free space at `d0` does not have: the move must
/// go round a boundary through a corridor narrower than `2 d0` (between two curves, or past
/// two close spots), and every way the search finds goes round it the other side.
///
/// `explain`: whether a wrong enclosure at `d0` is refused with the widest way that sorts the
/// boundaries ([`search::find_way`]); not for tries whose refusal is never shown, nor at the
/// tight clearances (the refusal shown is the one at `d0`).
pub(crate) fn prepare(
    view: &BoardView<'_>,
    plan: &Plan,
    explain: bool,
    observer: &mut dyn FnMut(&[Point]),
) -> Result<Prepared, Refusal> {
    let tighter = |e: &Refusal| {
        matches!(
            e,
            Refusal::NoPath { .. } | Refusal::NoRoomAtSpot(_) | Refusal::WrongEnclosure { .. }
        )
    };
    let first = match prepare_at(view, plan, 1.0, explain, observer) {
        Err(e) if tighter(&e) => e,
        other => return other,
    };
    for k in TIGHT_CLEARANCES {
        match prepare_at(view, plan, k, false, observer) {
            Err(e) if tighter(&e) => continue,
            Ok(p) => return Ok(p),
            Err(e) => return Err(e),
        }
    }
    Err(first)
}

/// One rung of the ladder: the stages in turn with the planner's clearance `tight d0` (the
/// certificate's stays `0.6 d0`). The observer sees the way found, the relaxed band as it
/// moves, and the polyline each route is fitted to.
fn prepare_at(
    view: &BoardView<'_>,
    plan: &Plan,
    tight: f64,
    explain: bool,
    observer: &mut dyn FnMut(&[Point]),
) -> Result<Prepared, Refusal> {
    let _span = tracing::debug_span!("prepare_move", tight).entered();
    let frame = Frame::new(view, plan, tight)?;
    let mut walls = Walls::new(&frame)?;
    let way = search::find_way(&frame, &mut walls, explain)?;
    observer(&way.route);
    let tries = relax::routes_to_fit(&frame, &walls.grid, way.route, observer);
    let certified = certify::first_certified(&frame, &walls.grid, tries, observer)?;
    certify::prepared(&frame, way.method, certified)
}

/// A computer's move `mv` prepared as itself, never another move (`crate::Board::
/// draw_move_strict`): [`prepare_move`] with the exact sameness test, then
/// [`sparing_corridors`].
///
/// # Errors
/// An illegal move, or the refusal of the move asked.
pub(crate) fn prepare_strict(
    view: &BoardView<'_>,
    mv: &Move,
    observer: &mut dyn FnMut(&[Point]),
) -> Result<Prepared, Refusal> {
    let pos = view.position();
    let intended = pos.play(mv).map_err(|e| Refusal::Illegal(e.to_string()))?;
    let same_game = |m: &Move| {
        pos.play(m).is_ok_and(|p| {
            p.game_key() == intended.game_key()
                || p.canonical_unreduced() == intended.canonical_unreduced()
        })
    };
    let prepared = prepare_move(view, mv, &same_game, 0.0, true, observer)?;
    Ok(sparing_corridors(view, mv, prepared, &same_game, observer))
}

/// `other`, a move giving the same game as the move asked (`words`), prepared as the move
/// asked is and kept only if what is prepared is the same game (`same`).
///
/// # Errors
/// Its refusal, or [`Refusal::Mismatch`] when the drawing made another game.
pub(crate) fn prepare_equivalent(
    view: &BoardView<'_>,
    other: &Move,
    same: &dyn Fn(&Move) -> bool,
    words: &str,
    observer: &mut dyn FnMut(&[Point]),
) -> Result<Prepared, Refusal> {
    let p = prepare_move(view, other, same, 0.0, false, observer)?;
    if same(&p.mv) {
        Ok(p)
    } else {
        Err(Refusal::Mismatch(format!(
            "the drawn move {} is not the same game as {words}",
            p.mv.describe(view.position())
        )))
    }
}

/// `prepared`, or the move drawn again when `prepared` cuts more live spots off the rest of
/// their regions ([`corridors::cut_off`]) than the board has now: with the band leaning to
/// one side, then to the other (until one cuts off no more than the board), the drawing that
/// cuts off fewest kept, `prepared` on a tie.
fn sparing_corridors(
    view: &BoardView<'_>,
    mv: &Move,
    prepared: Prepared,
    same_game: &dyn Fn(&Move) -> bool,
    observer: &mut dyn FnMut(&[Point]),
) -> Prepared {
    let settings = view.settings;
    let cut =
        |p: &Prepared| corridors::cut_off(p.picture.drawing(), p.picture.analysis(), settings);
    let after = cut(&prepared);
    if after == 0 {
        return prepared;
    }
    let before = corridors::cut_off(view.drawing, view.analysis, settings);
    if after <= before {
        return prepared;
    }
    let mut best = (after, prepared);
    for lean in [corridors::LEAN, -corridors::LEAN] {
        if let Ok(p) = prepare_move(view, mv, same_game, lean, false, observer) {
            let c = cut(&p);
            tracing::debug!(before, after, lean, cut = c, "drawn again, leaning");
            if c < best.0 {
                best = (c, p);
            }
        }
        if best.0 <= before {
            break;
        }
    }
    best.1
}

/// The plan of a computer's move `mv`: its interchangeable boundaries chosen by the
/// nearest-cluster rule (for a move on one boundary), no stroke.
pub(crate) fn computer_plan(view: &BoardView<'_>, scene: &Scene, mv: &Move, lean: f64) -> Plan {
    let want = if mv.is_one_boundary() {
        Want::SideA(computer::cluster_side_a(view.position(), scene, mv))
    } else {
        Want::Any
    };
    Plan {
        from: mv.from(),
        to: mv.to(),
        want,
        stroke: None,
        lean,
    }
}

/// A computer's move `mv` of the board's position made into a certified spline, not yet
/// played: the nearest-cluster rule's choice of its interchangeable boundaries, other choices
/// when that one cannot be drawn with the boundaries on their sides, and last the shortest
/// way; whatever is prepared is a move `same_game` accepts. `explain`: as for [`prepare`],
/// for the choice the rule made.
fn prepare_move(
    view: &BoardView<'_>,
    mv: &Move,
    same_game: &dyn Fn(&Move) -> bool,
    lean: f64,
    explain: bool,
    observer: &mut dyn FnMut(&[Point]),
) -> Result<Prepared, Refusal> {
    let pos = view.position();
    let scene = Scene::new(view.drawing, view.settings);
    let plan = computer_plan(view, &scene, mv, lean);
    let want = plan.want.clone();
    let mut first = prepare(view, &plan, explain, observer);
    if let (Err(Refusal::WrongEnclosure { .. }), Want::SideA(chosen)) = (&first, &want) {
        first = other_interchangeable(view, &plan, &scene, mv, chosen, same_game, observer)
            .ok_or(first.err().expect("a refusal"));
    }
    let prepared = match first {
        Ok(p) => p,
        Err(e) => {
            // The marks could not be applied: the shortest way, kept only if it is the same
            // move.
            if want == Want::Any {
                return Err(e);
            }
            let plain = Plan {
                want: Want::Any,
                ..plan
            };
            match prepare(view, &plain, explain, observer) {
                Ok(p) if same_game(&p.mv) => p,
                _ => {
                    let asked = mv.describe(pos);
                    return Err(computer::naming_the_move_asked(e, asked, &want, pos, mv));
                }
            }
        }
    };
    if !same_game(&prepared.mv) {
        return Err(Refusal::Mismatch(format!(
            "the drawn move {} is not the intended {}",
            prepared.mv.describe(pos),
            mv.describe(pos)
        )));
    }
    Ok(prepared)
}

/// The first of the [`computer::other_choices`] of a move's interchangeable boundaries that
/// is drawn as the same game, prepared; `None` if none is.
fn other_interchangeable(
    view: &BoardView<'_>,
    plan: &Plan,
    scene: &Scene,
    mv: &Move,
    chosen: &[sprouts_topo::BoundaryId],
    same_game: &dyn Fn(&Move) -> bool,
    observer: &mut dyn FnMut(&[Point]),
) -> Option<Prepared> {
    let choices =
        computer::other_choices(view.position(), scene, mv, chosen, computer::OTHER_CHOICES);
    for alt in choices {
        let other = Plan {
            from: plan.from,
            to: plan.to,
            want: Want::SideA(alt),
            stroke: None,
            lean: plan.lean,
        };
        if let Ok(p) = prepare(view, &other, false, observer)
            && same_game(&p.mv)
        {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::drawing::{Settings, WorldSize};

    /// A window 11 px high (less than `2 d0`) with two seeds: the free space at `d0` has no
    /// way between them, the one at the tight clearances has, and the curve drawn keeps the
    /// certificate's `0.6 d0` from the window's edges.
    #[test]
    fn a_corridor_narrower_than_two_d0_is_drawn_at_a_tight_clearance() {
        let settings = Settings::default();
        let d0 = settings.min_clearance;
        let mut board = Board::new(2, WorldSize::new(300.0, 11.0), settings).expect("a board");
        let pos = board.position().clone();
        let mv = pos
            .moves()
            .find(|m| m.describe(&pos) == "1 -> 2")
            .expect("a move");
        let plan = Plan {
            from: mv.from(),
            to: mv.to(),
            want: Want::Any,
            stroke: None,
            lean: 0.0,
        };
        let at_d0 = prepare_at(&board.view(), &plan, 1.0, true, &mut |_| {});
        assert!(
            matches!(
                at_d0,
                Err(Refusal::NoPath { .. } | Refusal::NoRoomAtSpot(_))
            ),
            "{:?}",
            at_d0.err()
        );
        let drawn = board.draw_move(&mv, &mut |_| {}).expect("drawn tight");
        assert!(drawn.clearance >= 0.6 * d0, "{}", drawn.clearance);
        for p in &drawn.route {
            assert!(
                p.y >= 0.6 * d0 - 1e-9 && p.y <= 11.0 - 0.6 * d0 + 1e-9,
                "{p:?}"
            );
        }
        assert_eq!(board.moves().len(), 1);
    }
}
