//! The ghost of a move refused for lack of room (spec 4.4, step 1): the way the move would
//! take if there were room, found by the planner at the clearance the widest way actually has
//! (so it goes through the narrowest place the move cannot avoid), then relaxed by the band so
//! that it lies in the middle of what room there is. M pushes the curves near it apart.

use sprouts_geom::Point;
use sprouts_topo::Move;

use super::frame::Frame;
use super::plan::{Plan, request_plans};
use super::planner::Scene;
use super::walls::Walls;
use super::{BoardView, DrawRequest, Refusal, relax, search};

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
    let scene = Scene::new(view.drawing, view.settings);
    ghost_of_plan(view, &super::computer_plan(view, &scene, mv, 0.0), widest)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::drawing::{Settings, WorldSize};

    fn no_path(widest: f64) -> Refusal {
        Refusal::NoPath {
            widest,
            needed: 6.0,
            spots: Vec::new(),
            curves: Vec::new(),
        }
    }

    /// On an open board the ghost at a given clearance runs from one spot to the other through
    /// the free space; no ghost below a quarter of `d0`, nor for a refusal naming no way.
    #[test]
    fn a_ghost_runs_between_the_move_s_spots_at_the_widest_clearance() {
        let board = Board::new(2, WorldSize::new(400.0, 300.0), Settings::default()).unwrap();
        let pos = board.position().clone();
        let mv = pos.moves().find(|m| m.describe(&pos) == "1 -> 2").unwrap();
        let d = board.drawing();
        let (a, b) = (d.spots()[0].centre, d.spots()[1].centre);
        let ghost = ghost_of_move(&board.view(), &mv, &no_path(4.0)).expect("a ghost");
        let (first, last) = (ghost[0], *ghost.last().unwrap());
        let r = board.settings().spot_radius;
        assert!(
            (first - a).norm() <= r + 1e-6 || (first - b).norm() <= r + 1e-6,
            "{first:?}"
        );
        assert!(
            (last - a).norm() <= r + 1e-6 || (last - b).norm() <= r + 1e-6,
            "{last:?}"
        );
        for p in &ghost {
            assert!(
                p.x > 0.0 && p.y > 0.0 && p.x < 400.0 && p.y < 300.0,
                "{p:?}"
            );
        }
        assert!(ghost_of_move(&board.view(), &mv, &no_path(1.0)).is_none());
        assert!(ghost_of_move(&board.view(), &mv, &no_path(f64::NAN)).is_none());
        assert!(ghost_of_move(&board.view(), &mv, &Refusal::Illegal("x".into())).is_none());
        let wrapped = Refusal::Equivalents {
            words: "1 -> 2".into(),
            asked: Box::new(no_path(4.0)),
            tried: Vec::new(),
        };
        assert_eq!(widest_of(&wrapped), Some(4.0));
    }
}
