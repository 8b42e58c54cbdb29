//! Corridors a curve closes. A computer's curve drawn down a gap splits it in two, and where
//! either half is too narrow for a curve at the tight clearance the router falls back to,
//! the live spots on the two sides of that place can no longer be joined without making room.
//! The refusals of random 8-spot games drawn to the end are mostly such corridors, between
//! curves drawn one beside the other (README, "Drawing moves").
//!
//! [`cut_off`] counts, on the free space at that clearance, how many groups the live spots of
//! each region fall into, less one a region. A computer's move whose picture counts more than
//! the board before it is drawn again with the band leaning to one side and then the other
//! ([`super::band::relax_leaning`], [`LEAN`]), so that the curve keeps to one side of the gap
//! and leaves the other half passable, and the drawing that cuts off fewest is played.

use sprouts_geom::{Point, closest_on_segment};
use sprouts_topo::{RegionId, SpotId};

#[cfg(test)]
use super::TIGHT_CLEARANCES;
#[cfg(any(doc, test))]
use super::planner::GridBase;
use super::planner::{FreeGrid, Scene, cell_range, centre_of};
use crate::analyse::Analysis;
use crate::drawing::{Drawing, Settings};

/// How much more the obstacles on one side of the band weigh when a move that cuts spots
/// off is drawn again ([`super::band::relax_leaning`]): `1 + LEAN` times. Random 8-spot
/// games drawn to the end (README, "Drawing moves"): at 3, as many as without drawing again
/// on the first seed (95 of 100); at 10, one more on each seed tried.
pub(super) const LEAN: f64 = 10.0;

/// The clearance, as a fraction of `d0`, at which [`cut_off`] looks at the free space: the
/// router's last but one (`super::TIGHT_CLEARANCES`; the last, the certificate's own `0.6 d0`,
/// only mends pinches a fraction of a pixel wider than it, and a move that leaves such a pinch
/// is better drawn again).
const CUT_OFF_CLEARANCE: f64 = 0.62;

/// The live spots of each region with lives for a move, split into the groups the free space
/// at [`CUT_OFF_CLEARANCE`] joins, less one a region, summed over the regions: `0` when every
/// move of the position still has a way at that clearance (as far as its end spots' first
/// cells tell).
pub(super) fn cut_off(drawing: &Drawing, analysis: &Analysis, settings: &Settings) -> usize {
    let _span = tracing::debug_span!("cut_off").entered();
    let scene = Scene::new(drawing, settings);
    let grid = Open::new(&scene, settings.min_clearance * CUT_OFF_CLEARANCE);
    let label = grid.components();
    let pos = analysis.position();

    // Each live spot's components, per region with lives for a move that it faces.
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
            let comps = grid.access(&label, analysis, (id, centre, radius), r);
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

/// The open cells of the planner's grid at the clearance `d0` with every spot an obstacle
/// (what [`GridBase::new`] makes open without terminals: a cell is open when its centre keeps
/// `d0` from every spot's disc, curve and the window's edge), made without the step costs and
/// room the planner also needs.
struct Open {
    cell: f64,
    nx: usize,
    ny: usize,
    d0: f64,
    open: Vec<bool>,
}

impl Open {
    fn new(scene: &Scene, d0: f64) -> Open {
        let cell = FreeGrid::cell_width(d0);
        let nx = ((scene.width / cell).floor() as usize).max(1);
        let ny = ((scene.height / cell).floor() as usize).max(1);
        let mut open = vec![true; nx * ny];
        // Distances compared as the planner stores them, in `f32`.
        let lim = d0 as f32;
        let centre = |i: usize, j: usize| centre_of(cell, i, j);
        let range = |lo: f64, hi: f64, n: usize| cell_range(cell, lo, hi, n);
        // The window's edges: only the cells within `d0` of one.
        let k = ((d0 / cell).ceil() as usize + 1).min(nx.max(ny));
        for j in 0..ny {
            let rows = j < k || j + k >= ny;
            for i in 0..nx {
                if !rows && i >= k && i + k < nx {
                    continue;
                }
                let p = centre(i, j);
                let d = p.x.min(p.y).min(scene.width - p.x).min(scene.height - p.y) as f32;
                if d < lim {
                    open[j * nx + i] = false;
                }
            }
        }
        for &(_, c, r) in &scene.spots {
            let reach = r + d0;
            let (i0, i1) = range(c.x - reach, c.x + reach, nx);
            let (j0, j1) = range(c.y - reach, c.y + reach, ny);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    let d = ((centre(i, j) - c).norm() - r).max(0.0) as f32;
                    if d < lim {
                        open[j * nx + i] = false;
                    }
                }
            }
        }
        for (_, _, pts) in &scene.curves {
            for w in pts.windows(2) {
                let (a, b) = (w[0], w[1]);
                let (i0, i1) = range(a.x.min(b.x) - d0, a.x.max(b.x) + d0, nx);
                let (j0, j1) = range(a.y.min(b.y) - d0, a.y.max(b.y) + d0, ny);
                for j in j0..=j1 {
                    for i in i0..=i1 {
                        let at = j * nx + i;
                        if !open[at] {
                            continue;
                        }
                        let p = centre(i, j);
                        let (_, q) = closest_on_segment(p, a, b);
                        if ((p - q).norm() as f32) < lim {
                            open[at] = false;
                        }
                    }
                }
            }
        }
        Open {
            cell,
            nx,
            ny,
            d0,
            open,
        }
    }

    fn centre(&self, c: usize) -> Point {
        Point::new(
            ((c % self.nx) as f64 + 0.5) * self.cell,
            ((c / self.nx) as f64 + 0.5) * self.cell,
        )
    }

    /// The open cells' components, neighbours in eight directions (two open cells side by
    /// side or corner to corner have no curve between them: each keeps `d0` from everything,
    /// more than half the diagonal), found on the rows' runs of open cells: a run joins the
    /// runs of the row above that it touches or meets corner to corner.
    fn components(&self) -> Components {
        let nx = self.nx;
        let mut rows = Vec::with_capacity(self.ny + 1);
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for j in 0..self.ny {
            rows.push(runs.len());
            let row = &self.open[j * nx..(j + 1) * nx];
            let mut i = 0;
            while i < nx {
                if !row[i] {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < nx && row[i] {
                    i += 1;
                }
                runs.push((start as u32, i as u32));
            }
        }
        rows.push(runs.len());
        let mut parent: Vec<u32> = (0..runs.len() as u32).collect();
        fn find(p: &mut [u32], mut x: u32) -> u32 {
            while p[x as usize] != x {
                p[x as usize] = p[p[x as usize] as usize];
                x = p[x as usize];
            }
            x
        }
        for j in 1..self.ny {
            let (above, here) = (rows[j - 1]..rows[j], rows[j]..rows[j + 1]);
            let mut k = above.start;
            for r in here {
                let (a, b) = runs[r];
                // The runs above that end before this one's column `a - 1` cannot touch it
                // nor any later run of this row.
                while k < above.end && runs[k].1 < a {
                    k += 1;
                }
                let mut m = k;
                while m < above.end && runs[m].0 <= b {
                    let (x, y) = (find(&mut parent, r as u32), find(&mut parent, m as u32));
                    parent[x as usize] = y;
                    m += 1;
                }
            }
        }
        let root = (0..runs.len() as u32)
            .map(|r| find(&mut parent, r))
            .collect();
        Components {
            nx,
            rows,
            runs,
            root,
        }
    }

    /// The components of the open cells a spot leaves through into region `r`: the open cells
    /// round its disc through one of its corners in `r`, in rings of growing reach, the outer
    /// ones checked to lie in `r` (as [`FreeGrid::terminal_cells`] does for a move's ends).
    fn access(
        &self,
        label: &Components,
        analysis: &Analysis,
        (id, centre, radius): (SpotId, Point, f64),
        r: RegionId,
    ) -> Vec<u32> {
        let pos = analysis.position();
        for extra in [1.5, 3.0, 6.0] {
            let reach = radius + self.d0 + extra * self.cell;
            let k = (reach / self.cell).ceil() as i64 + 1;
            let ci = (centre.x / self.cell).floor() as i64;
            let cj = (centre.y / self.cell).floor() as i64;
            let mut out = Vec::new();
            for j in (cj - k).max(0)..=(cj + k).min(self.ny as i64 - 1) {
                for i in (ci - k).max(0)..=(ci + k).min(self.nx as i64 - 1) {
                    let c = j as usize * self.nx + i as usize;
                    let p = self.centre(c);
                    if !self.open[c] || (p - centre).norm() > reach {
                        continue;
                    }
                    let through = analysis
                        .corner_at(id, p)
                        .and_then(|k| pos.region_of(k.boundary));
                    if through != Some(r) || (extra > 1.5 && analysis.region_at(p) != Some(r)) {
                        continue;
                    }
                    out.extend(label.at(c));
                }
            }
            if !out.is_empty() {
                out.sort_unstable();
                out.dedup();
                return out;
            }
        }
        Vec::new()
    }
}

/// The components of [`Open`]'s cells, by rows' runs of open cells.
struct Components {
    nx: usize,
    /// Each row's first run (and, last, the number of runs).
    rows: Vec<usize>,
    /// Each run's first column and the column past its last.
    runs: Vec<(u32, u32)>,
    /// Each run's component.
    root: Vec<u32>,
}

impl Components {
    /// The component of open cell `c` (`None` for a closed cell).
    fn at(&self, c: usize) -> Option<u32> {
        let (i, j) = ((c % self.nx) as u32, c / self.nx);
        let row = &self.runs[self.rows[j]..self.rows[j + 1]];
        let k = row.partition_point(|r| r.1 <= i);
        row.get(k)
            .filter(|r| r.0 <= i)
            .map(|_| self.root[self.rows[j] + k])
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, WorldSize};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The open cells made without the planner's costs are the planner's own (its grid with no
    /// terminals) on the pictures of random games, cell for cell.
    /// The components by rows' runs are those of a plain flood fill from cell to cell over
    /// the eight neighbours, on random rasters from empty to full.
    #[test]
    fn the_components_by_runs_are_a_flood_fill_s() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for case in 0..200 {
            let (nx, ny) = (rng.random_range(1..30), rng.random_range(1..30));
            let density = f64::from(case % 10) / 9.0;
            let open: Vec<bool> = (0..nx * ny).map(|_| rng.random_bool(density)).collect();
            let grid = Open {
                cell: 1.0,
                nx,
                ny,
                d0: 1.0,
                open: open.clone(),
            };
            let runs = grid.components();
            // The flood fill.
            let mut label = vec![u32::MAX; nx * ny];
            let mut next = 0;
            for s in 0..nx * ny {
                if !open[s] || label[s] != u32::MAX {
                    continue;
                }
                label[s] = next;
                let mut stack = vec![s];
                while let Some(c) = stack.pop() {
                    let (i, j) = (c % nx, c / nx);
                    for b in j.saturating_sub(1)..=(j + 1).min(ny - 1) {
                        for a in i.saturating_sub(1)..=(i + 1).min(nx - 1) {
                            let m = b * nx + a;
                            if open[m] && label[m] == u32::MAX {
                                label[m] = next;
                                stack.push(m);
                            }
                        }
                    }
                }
                next += 1;
            }
            for c in 0..nx * ny {
                assert_eq!(runs.at(c).is_some(), open[c], "case {case}, cell {c}");
                for d in 0..nx * ny {
                    if open[c] && open[d] {
                        assert_eq!(
                            runs.at(c) == runs.at(d),
                            label[c] == label[d],
                            "case {case}, cells {c} and {d}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_open_cells_are_the_planner_s() {
        let settings = Settings::default();
        for seed in 0..3u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut board = Board::new(5, WorldSize::new(700.0, 450.0), settings).expect("a board");
            for _ in 0..10 {
                let pos = board.position().clone();
                let moves: Vec<_> = pos.moves().collect();
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[rng.random_range(0..moves.len())];
                if board.draw_move(mv, &mut |_| {}).is_err() {
                    break;
                }
                for k in TIGHT_CLEARANCES.into_iter().chain([1.0]) {
                    let mut scene = Scene::new(board.drawing(), &settings);
                    scene.d0 *= k;
                    let planner = GridBase::new(&scene, board.analysis(), &[]).grid;
                    let fast = Open::new(&scene, scene.d0);
                    assert_eq!((fast.nx, fast.ny), (planner.nx, planner.ny));
                    let differ = fast.open.iter().zip(&planner.open).filter(|(a, b)| a != b);
                    assert_eq!(differ.count(), 0, "seed {seed}, clearance {k} d0");
                }
            }
            assert!(board.moves().len() >= 5, "seed {seed}: a game to test on");
        }
    }

    /// Two spots in a window only a few pixels tall, its edges the corridor's sides: the spots
    /// are cut off from each other when the router cannot join them (at any of its
    /// clearances), over heights on both sides of the limit, and not when it can, but for
    /// corridors that only the router's last clearance (`0.6 d0`, below [`CUT_OFF_CLEARANCE`])
    /// passes: less than `2 × 0.62 d0` and a cell of that grid high.
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
            let d = CUT_OFF_CLEARANCE * settings.min_clearance;
            let sliver = h < 2.0 * d + FreeGrid::cell_width(d);
            assert!(
                (cut == 0) == drawn || (drawn && sliver),
                "height {h}: cut off {cut}, drawn {drawn}"
            );
            seen[usize::from(drawn)] = true;
        }
        assert!(seen[0] && seen[1], "both sides of the limit: {seen:?}");
    }
}
