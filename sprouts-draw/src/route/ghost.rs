//! The ghost of a move refused for lack of room (spec 4.4, step 1): the way the move would
//! take if there were room, found by the planner at the clearance the widest way actually has
//! (so it goes through the narrowest place the move cannot avoid), then relaxed by the band so
//! that it lies in the middle of what room there is. M pushes the curves near it apart.

use sprouts_geom::Point;
use sprouts_topo::Move;

use super::frame::Frame;
use super::plan::{Plan, Want, request_plans};
use super::planner::Scene;
use super::walls::Walls;
use super::{BoardView, DrawRequest, Refusal, computer, relax, search};

/// The least widest way, as a fraction of the minimum clearance, a ghost is looked for at
/// (a narrower way's grid would be very fine and its ghost of little use).
const LEAST_WIDEST: f64 = 0.25;

/// The clearance of the widest way a refusal names, if it names one.
pub(crate) fn widest_of(r: &Refusal) -> Option<f64> {
    match r {
        Refusal::NoPath { widest, .. } => Some(*widest),
        Refusal::WrongEnclosure { widest, .. } => *widest,
        Refusal::Equivalents { asked, .. } => widest_of(asked),
        _ => None,
    }
}

/// The ghost of `plan` at the clearance `widest` (pixels): the band's route, or the way as
/// found when the band's is not used; `None` when there is no way even there.
fn ghost_of_plan(view: &BoardView<'_>, plan: &Plan, widest: f64) -> Option<Vec<Point>> {
    let d0 = view.settings.min_clearance;
    // A NaN widest is no way either.
    if widest.is_nan() || widest < LEAST_WIDEST * d0 {
        return None;
    }
    let _span = tracing::debug_span!("ghost", widest).entered();
    let frame = Frame::new(view, plan, 0.95 * widest / d0).ok()?;
    let mut walls = Walls::new(&frame).ok()?;
    let way = search::find_way(&frame, &mut walls, false).ok()?;
    relax::routes_to_fit(&frame, &walls.grid, way.route, &mut |_| {})
        .into_iter()
        .next()
}

/// The ghost of the computer's move `mv` refused with `refused` (its boundaries chosen by the
/// nearest-cluster rule, as the router draws it).
pub(crate) fn ghost_of_move(
    view: &BoardView<'_>,
    mv: &Move,
    refused: &Refusal,
) -> Option<Vec<Point>> {
    let widest = widest_of(refused)?;
    let pos = view.position();
    let scene = Scene::new(view.drawing, view.settings);
    let want = if mv.is_one_boundary() {
        Want::SideA(computer::cluster_side_a(pos, &scene, mv))
    } else {
        Want::Any
    };
    let plan = Plan {
        from: mv.from(),
        to: mv.to(),
        want,
        stroke: None,
        lean: 0.0,
    };
    ghost_of_plan(view, &plan, widest)
}

/// The ghost of a person's `request` refused with `refused` (its first plan).
pub(crate) fn ghost_of_request(
    view: &BoardView<'_>,
    request: &DrawRequest,
    refused: &Refusal,
) -> Option<Vec<Point>> {
    let widest = widest_of(refused)?;
    let plans = request_plans(view, request).ok()?;
    let plan = plans.into_iter().find_map(Result::ok)?;
    ghost_of_plan(view, &plan, widest)
}
