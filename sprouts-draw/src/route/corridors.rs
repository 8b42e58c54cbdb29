//! Corridors a curve closes. A computer's curve drawn down a gap splits it in two, and where
//! either half is too narrow for a curve at the tightest clearance the router falls back to,
//! the live spots on the two sides of that place can no longer be joined without making room.
//! The refusals of random 8-spot games drawn to the end are mostly such corridors, between
//! curves drawn one beside the other (README, "Drawing moves").
//!
//! [`cut_off`] counts, on the free space at that clearance, how many groups the live spots of
//! each region fall into, less one a region. A computer's move whose picture counts more than
//! the board before it is drawn again with the band leaning to one side and then the other
//! ([`super::band::relax_leaning`], [`LEAN`]), so that the curve keeps to one side of the gap
//! and leaves the other half passable, and the drawing that cuts off fewest is played.

use sprouts_geom::Point;
use sprouts_topo::{RegionId, SpotId};

use super::TIGHT_CLEARANCES;
use super::planner::{FreeGrid, GridBase, Scene};
use crate::analyse::Analysis;
use crate::drawing::{Drawing, Settings};

/// How much more the obstacles on one side of the band weigh when a move that cuts spots
/// off is drawn again ([`super::band::relax_leaning`]): `1 + LEAN` times. Random 8-spot
/// games drawn to the end (README, "Drawing moves"): at 3, as many as without drawing again
/// on the first seed (95 of 100); at 10, one more on each seed tried.
pub(super) const LEAN: f64 = 10.0;

/// The live spots of each region with lives for a move, split into the groups the free space
/// at the tightest clearance joins, less one a region, summed over the regions: `0` when every
/// move of the position still has a way at that clearance (as far as its end spots' first
/// cells tell).
pub(super) fn cut_off(drawing: &Drawing, analysis: &Analysis, settings: &Settings) -> usize {
    let _span = tracing::debug_span!("cut_off").entered();
    let mut scene = Scene::new(drawing, settings);
    scene.d0 *= TIGHT_CLEARANCES[TIGHT_CLEARANCES.len() - 1];
    let grid = GridBase::new(&scene, analysis, &[]).grid;
    let label = components(&grid);
    let pos = analysis.position();

    // Each live spot's components, per region it faces.
    let mut items: Vec<(RegionId, SpotId, Vec<u32>)> = Vec::new();
    for &(id, centre, radius) in &scene.spots {
        if pos.lives(id).is_none_or(|l| l.get() == 0) {
            continue;
        }
        let mut regions: Vec<RegionId> = pos
            .corners_of(id)
            .iter()
            .filter_map(|c| pos.region_of(c.boundary))
            .collect();
        regions.sort_unstable();
        regions.dedup();
        for r in regions {
            if pos.region(r).is_none_or(|reg| reg.lives() < 2) {
                continue;
            }
            let comps = access(&grid, &label, analysis, (id, centre, radius), r);
            items.push((r, id, comps));
        }
    }
    items.sort_by_key(|&(r, id, _)| (r, id));

    let mut total = 0;
    let mut start = 0;
    while start < items.len() {
        let r = items[start].0;
        let end = start + items[start..].iter().take_while(|x| x.0 == r).count();
        total += groups(&items[start..end]) - 1;
        start = end;
    }
    total
}

/// How many groups `items` (the live spots of one region) fall into, two spots in one group
/// when they reach a common component.
fn groups(items: &[(RegionId, SpotId, Vec<u32>)]) -> usize {
    let n = items.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    let mut owner: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for (k, (_, _, comps)) in items.iter().enumerate() {
        for &c in comps {
            match owner.get(&c) {
                Some(&j) => {
                    let (a, b) = (find(&mut parent, j), find(&mut parent, k));
                    parent[a] = b;
                }
                None => {
                    owner.insert(c, k);
                }
            }
        }
    }
    (0..n).filter(|&k| find(&mut parent, k) == k).count()
}

/// The components of the open cells a spot leaves through into region `r`: the open cells
/// round its disc through one of its corners in `r`, in rings of growing reach, the outer ones
/// checked to lie in `r` (as [`FreeGrid::terminal_cells`] does for a move's ends).
fn access(
    grid: &FreeGrid,
    label: &[u32],
    analysis: &Analysis,
    (id, centre, radius): (SpotId, Point, f64),
    r: RegionId,
) -> Vec<u32> {
    let pos = analysis.position();
    for extra in [1.5, 3.0, 6.0] {
        let reach = radius + grid.d0 + extra * grid.cell;
        let mut out = Vec::new();
        for c in grid.open_cells_within(centre, reach) {
            let p = grid.centre(c);
            let through = analysis
                .corner_at(id, p)
                .and_then(|k| pos.region_of(k.boundary));
            if through != Some(r) || (extra > 1.5 && analysis.region_at(p) != Some(r)) {
                continue;
            }
            out.push(label[c as usize]);
        }
        if !out.is_empty() {
            out.sort_unstable();
            out.dedup();
            return out;
        }
    }
    Vec::new()
}

/// The open cells' components, neighbours in eight directions (two open cells side by side or
/// corner to corner have no curve between them: each keeps `d0` from everything, more than
/// half the diagonal).
fn components(grid: &FreeGrid) -> Vec<u32> {
    let (nx, ny) = (grid.nx, grid.ny);
    let mut label = vec![u32::MAX; nx * ny];
    let mut stack = Vec::new();
    let mut next = 0;
    for s in 0..nx * ny {
        if !grid.open[s] || label[s] != u32::MAX {
            continue;
        }
        label[s] = next;
        stack.push(s);
        while let Some(c) = stack.pop() {
            let (i, j) = ((c % nx) as i64, (c / nx) as i64);
            for dj in -1..=1 {
                for di in -1..=1 {
                    let (a, b) = (i + di, j + dj);
                    if a < 0 || b < 0 || a >= nx as i64 || b >= ny as i64 {
                        continue;
                    }
                    let m = b as usize * nx + a as usize;
                    if grid.open[m] && label[m] == u32::MAX {
                        label[m] = next;
                        stack.push(m);
                    }
                }
            }
        }
        next += 1;
    }
    label
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, WorldSize};

    /// Two spots in a window only a few pixels tall, its edges the corridor's sides: the spots
    /// are cut off from each other exactly when the router cannot join them (at any of its
    /// clearances), over heights on both sides of the limit.
    #[test]
    fn cut_off_agrees_with_the_router_in_a_corridor() {
        let settings = Settings::default();
        let mut seen = [false; 2];
        for tenth in (60..=140).step_by(5) {
            let h = f64::from(tenth) / 10.0;
            let Ok(mut board) = Board::new(2, WorldSize::new(300.0, h), settings) else {
                continue;
            };
            let cut = cut_off(board.drawing(), board.analysis(), &settings);
            let pos = board.position().clone();
            let mv = pos
                .moves()
                .find(|m| m.describe(&pos) == "1 -> 2")
                .expect("a move");
            let drawn = board.draw_move_strict(&mv, &mut |_| {}).is_ok();
            assert_eq!(cut == 0, drawn, "height {h}: cut off {cut}, drawn {drawn}");
            seen[usize::from(drawn)] = true;
        }
        assert!(seen[0] && seen[1], "both sides of the limit: {seen:?}");
    }
}
