//! The spots a curve can reach from a side of a spot, for lighting them up (spec 3.1): the
//! distance field of the ways leaving the corner over the free space, at `d0` and then at the
//! ladder's tight clearances, as the drawing itself falls back to them.

use sprouts_geom::Point;
use sprouts_topo::{Corner, Position, SpotId};

use super::plan::{Side, corners_for};
use super::planner::{Cell, FreeGrid, Scene, Terminal};
use super::{BoardView, Refusal, TIGHT_CLEARANCES};
use crate::analyse::Analysis;

/// The spots a curve can reach from a spot's side (for lighting them up).
#[derive(Clone, Debug, PartialEq)]
pub struct Reachable {
    /// The spot the curve would leave.
    pub from: SpotId,
    /// The side it would leave on.
    pub corner: Corner,
    /// The spots it can reach, with the side it would arrive on and the length of the way.
    pub spots: Vec<(SpotId, Corner, f64)>,
}

/// [`crate::Board::reachable`]: for each corner of `from` (the side asked first), the spots reached
/// in the free space at `d0`, then those still unreached at the [`TIGHT_CLEARANCES`] in turn,
/// the same fallback [`super::prepare`] takes, so that a spot the drawing would reach only through a
/// corridor narrower than `2 d0` is lit up too (with the length of the way at the largest
/// clearance that reaches it).
pub(crate) fn reachable(
    view: &BoardView<'_>,
    from: SpotId,
    side: Side,
) -> Result<Reachable, Refusal> {
    let _span = tracing::debug_span!("reachable").entered();
    let pos = view.position();
    let analysis = view.analysis;
    if pos.lives(from).is_none_or(|l| l.get() == 0) {
        return Err(if pos.lives(from).is_none() {
            Refusal::UnknownSpot(from)
        } else {
            Refusal::NoLife(from)
        });
    }
    let mut corners = corners_for(pos, analysis, from, side)?;
    // If the side pressed leads nowhere, the others are tried.
    for c in pos.corners_of(from) {
        if !corners.contains(&c) {
            corners.push(c);
        }
    }
    let mut first: Option<Reachable> = None;
    for corner in corners {
        let region = pos.region_of(corner.boundary);
        // The spots a move from this corner could join: live ones with a corner in its region
        // (the spot itself with two lives).
        let wanted = pos
            .spots()
            .filter(|&(id, lives)| {
                lives.get() >= if id == from { 2 } else { 1 }
                    && pos
                        .corners_of(id)
                        .into_iter()
                        .any(|k| pos.region_of(k.boundary) == region)
            })
            .count();
        let mut spots: Vec<(SpotId, Corner, f64)> = Vec::new();
        for k in std::iter::once(1.0).chain(TIGHT_CLEARANCES) {
            if spots.len() >= wanted {
                break;
            }
            for s in reached_at(view, from, corner, k)? {
                if spots.iter().all(|t| t.0 != s.0) {
                    spots.push(s);
                }
            }
        }
        let r = Reachable {
            from,
            corner,
            spots,
        };
        let leads = !r.spots.is_empty();
        if first.is_none() {
            first = Some(r.clone());
        }
        if leads {
            return Ok(r);
        }
    }
    first.ok_or(Refusal::NoSuchSide(from))
}

/// The way to spot `id` (centre `c`, radius `r`) through the reached cell in the ring just
/// outside its blocked disc (up to `2.5` cells beyond `r + d0`) whose corner is in `region`
/// and whose way is shortest: the length to the cell (`dist`) and on straight to the centre,
/// with the corner.
fn nearest_reached(
    grid: &FreeGrid,
    dist: &[f64],
    (pos, analysis): (&Position, &Analysis),
    region: Option<sprouts_topo::RegionId>,
    (id, c, r): (SpotId, Point, f64),
) -> Option<(f64, Corner)> {
    let reach = r + grid.d0 + 2.5 * grid.cell;
    let mut best: Option<(f64, Corner)> = None;
    let k = (reach / grid.cell).ceil() as i64 + 1;
    for dj in -k..=k {
        for di in -k..=k {
            let q = Point::new(c.x + di as f64 * grid.cell, c.y + dj as f64 * grid.cell);
            let Some(cell) = grid.cell_at(q) else {
                continue;
            };
            let p = grid.centre(cell);
            let d = dist[cell as usize];
            if !d.is_finite() || (p - c).norm() > reach {
                continue;
            }
            // The whole way's length, compared with the whole way's length.
            let total = d + (p - c).norm();
            if let Some(k) = analysis.corner_at(id, p)
                && pos.region_of(k.boundary) == region
                && best.is_none_or(|(bd, _)| total < bd)
            {
                best = Some((total, k));
            }
        }
    }
    best
}

/// The scene and free space at the clearance `tight d0`, the cells a way from a corner starts
/// from, and the length of the way to every cell (`f64::INFINITY` where none leads).
type DistanceField = (Scene, FreeGrid, Vec<(Cell, f64)>, Vec<f64>);

/// The distance field of the ways leaving `corner` of `from` at the clearance `tight d0`.
fn distance_field(
    view: &BoardView<'_>,
    from: SpotId,
    corner: Corner,
    tight: f64,
) -> Result<DistanceField, Refusal> {
    let analysis = view.analysis;
    let mut scene = Scene::new(view.drawing, view.settings);
    scene.d0 *= tight;
    let (ca, ra) = scene.spot(from).ok_or(Refusal::UnknownSpot(from))?;
    let t = Terminal {
        spot: from,
        centre: ca,
        radius: ra,
        corners: vec![corner],
    };
    let grid = FreeGrid::new(&scene, analysis, std::slice::from_ref(&t), &[]);
    let sources: Vec<(Cell, f64)> = grid
        .terminal_cells(analysis, &t)
        .into_iter()
        .map(|c| (c, (grid.centre(c) - ca).norm()))
        .collect();
    let (dist, _) = grid.dijkstra(&sources);
    Ok((scene, grid, sources, dist))
}

/// The spots a curve leaving `corner` of `from` reaches in the free space at the clearance
/// `tight d0`, each with the side it would arrive on and the length of the way.
fn reached_at(
    view: &BoardView<'_>,
    from: SpotId,
    corner: Corner,
    tight: f64,
) -> Result<Vec<(SpotId, Corner, f64)>, Refusal> {
    let pos = view.position();
    let analysis = view.analysis;
    let (scene, grid, sources, dist) = distance_field(view, from, corner, tight)?;
    let region = pos.region_of(corner.boundary);
    let mut spots = Vec::new();
    for &(id, c, r) in &scene.spots {
        if pos.lives(id).is_none_or(|l| l.get() == 0) {
            continue;
        }
        if id == from {
            if pos.lives(id).is_some_and(|l| l.get() >= 2) && !sources.is_empty() {
                spots.push((id, corner, 0.0));
            }
            continue;
        }
        let best = nearest_reached(&grid, &dist, (pos, analysis), region, (id, c, r));
        if let Some((d, k)) = best {
            spots.push((id, k, d));
        }
    }
    Ok(spots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drawing::{Settings, WorldSize};
    use crate::{Board, DrawRequest};

    /// The length `reached_at` gives each spot is the shortest whole way (to a reached cell
    /// of the ring round the spot, then straight to its centre), checked against every cell of
    /// the grid.
    #[test]
    fn reached_spots_have_the_shortest_whole_way() {
        let mut checked = 0;
        for n in 2..=4u32 {
            let mut board =
                Board::new(n, WorldSize::new(640.0, 480.0), Settings::default()).expect("a board");
            // A few moves, so that the ways bend round curves.
            for _ in 0..2 {
                let pos = board.position().clone();
                let Some(mv) = pos.moves().next() else { break };
                board.draw_move(&mv, &mut |_| {}).expect("drawn");
            }
            let pos = board.position().clone();
            let analysis = board.analysis();
            for (from, lives) in pos.spots() {
                if lives.get() == 0 {
                    continue;
                }
                for corner in pos.corners_of(from) {
                    let got = reached_at(&board.view(), from, corner, 1.0).expect("reached");
                    // The reference: every cell of the same grid.
                    let (scene, grid, _, dist) =
                        distance_field(&board.view(), from, corner, 1.0).expect("the spot");
                    let region = pos.region_of(corner.boundary);
                    for &(id, corner_b, len) in got.iter().filter(|s| s.0 != from) {
                        let (c, r) = scene.spot(id).expect("the spot");
                        let reach = r + scene.d0 + 2.5 * grid.cell;
                        let best = (0..grid.nx * grid.ny)
                            .filter_map(|k| {
                                let cell = k as Cell;
                                let p = grid.centre(cell);
                                let d = dist[k];
                                let k = analysis.corner_at(id, p)?;
                                (d.is_finite()
                                    && (p - c).norm() <= reach
                                    && pos.region_of(k.boundary) == region)
                                    .then(|| (d + (p - c).norm(), k))
                            })
                            .min_by(|x, y| x.0.total_cmp(&y.0))
                            .expect("a reached cell");
                        assert!(
                            (len - best.0).abs() < 1e-9,
                            "{from} -> {id}: {len} against the shortest {}",
                            best.0
                        );
                        assert_eq!(corner_b, best.1);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10, "{checked}");
    }

    /// On the same narrow window, the spots lit up from spot 1 agree with the drawing: the
    /// free space at `d0` reaches nothing, yet spot 2 is reachable (the tight clearances), and
    /// a request to it is drawn.
    #[test]
    fn reachable_agrees_with_the_drawing_in_a_narrow_corridor() {
        let settings = Settings::default();
        let mut board = Board::new(2, WorldSize::new(300.0, 11.0), settings).expect("a board");
        let pos = board.position().clone();
        let one = SpotId::new(1).expect("a spot");
        let two = SpotId::new(2).expect("a spot");
        let corner = pos.corners_of(one)[0];
        let at_d0 = reached_at(&board.view(), one, corner, 1.0).expect("a spot");
        assert!(at_d0.iter().all(|s| s.0 != two), "{at_d0:?}");
        let r = board.reachable(one, Side::Any).expect("reachable");
        let (_, arrive, len) = *r
            .spots
            .iter()
            .find(|s| s.0 == two)
            .unwrap_or_else(|| panic!("spot 2 not lit up: {r:?}"));
        assert_eq!(pos.spot_at(arrive), Some(two));
        assert!(len.is_finite() && len > 0.0, "{len}");
        let drawn = board.draw_request(&DrawRequest::new(one, two), &mut |_| {});
        assert!(drawn.is_ok(), "{:?}", drawn.err());
    }
}
