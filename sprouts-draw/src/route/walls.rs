//! The third stage: the free space the search runs in, with walls. A loop through one corner
//! must leave on one side of a wall and come back on the other, or it would go round nothing;
//! a loop round marked boundaries gets walls from its spot to each of them (the barrier tree
//! of spec 3.3 drawn straight), so that its two strands stay apart. [`Walls::new`] takes a
//! [`Frame`] and gives the grid with the loop's wall as long as the room allows (shorter, then
//! thinner, then turned, where there is no way round it), the cells to leave from and arrive
//! at, and what the search needs to build other walled grids: the grid's walls-free base
//! measured once, the free space at `3 d0` and `1.5 d0` for the ways walls follow.

use std::cell::OnceCell;

use sprouts_geom::{Point, Vector, certified};

use super::frame::Frame;
use super::marked;
use super::parity::{self, Ray};
use super::planner::{self, Cell, FreeGrid, GridBase, Scene, Terminal, Wall};
use super::{MAX_STATES, Refusal};
use crate::analyse::Analysis;
use crate::analyse::BoundaryPicture;

/// The longest wall a loop through one corner goes round, in `d0` beyond the spot's disc.
const LOOP_WALL_MAX: f64 = 20.0;

/// The free space with the loop's wall, the cells the route leaves from and arrives at, and
/// the means to build other walled grids (the search's tries). Why a type: the search tries
/// several walled grids and falls back to this one, and the band, the new spot and the
/// certificate read its grid.
pub(super) struct Walls<'f> {
    frame: &'f Frame<'f>,
    /// The end spots as the grid's terminals.
    mask: Vec<Terminal>,
    /// What does not depend on the walls, measured once.
    base: GridBase,
    /// The free space at `3 d0` (ways with room for a thick wall and a strand on each side)
    /// and `1.5 d0` (room for a thin wall and the strands), built when first asked for.
    wide: OnceCell<FreeGrid>,
    narrow: OnceCell<FreeGrid>,
    /// The grid's cell width.
    pub(super) cell: f64,
    /// The free space the route is searched in.
    pub(super) grid: FreeGrid,
    /// The cells the route leaves from and arrives at.
    pub(super) sources: Vec<Cell>,
    pub(super) targets: Vec<Cell>,
    /// A loop's wall direction.
    pub(super) wall_dir: Option<Vector>,
    /// How far (in `d0` beyond the spot's disc) the loop's wall reaches, 0 if not long.
    pub(super) wall_reach: f64,
}

impl<'f> Walls<'f> {
    /// The free space of `frame` with the loop's wall (none for other moves).
    ///
    /// # Errors
    /// [`Refusal::NoRoomAtSpot`] when there is no cell to leave from or arrive at.
    pub(super) fn new(frame: &'f Frame<'f>) -> Result<Walls<'f>, Refusal> {
        let (scene, ca) = (&frame.scene, frame.ca);
        let analysis = frame.view.analysis;
        let mask = frame.mask();
        let base = GridBase::new(scene, analysis, &mask);
        // A loop through one corner leaves on one side of a wall along the sector's bisector
        // and comes back on the other.
        let wall_dir = frame
            .same_corner
            .then(|| loop_wall_direction(frame.sector_a, ca, frame.enclosure.as_ref(), scene));
        let cell = FreeGrid::cell_width(scene.d0);
        let grid = base.with_walls(&thick_walls(frame, cell, wall_dir, 5.0, 1.5));
        let mut walls = Walls {
            frame,
            grid,
            mask,
            base,
            wide: OnceCell::new(),
            narrow: OnceCell::new(),
            cell,
            sources: Vec::new(),
            targets: Vec::new(),
            wall_dir,
            wall_reach: 0.0,
        };
        walls.reach_out();
        (walls.sources, walls.targets) = walls.ends(&walls.grid, walls.wall_dir);
        if frame.same_corner {
            walls.shorter();
        }
        // A loop whose wall leaves no open cell on one of its sides (a seed at the end of a
        // pocket with the wall pointing into the pocket's end): a short wall in one of the
        // directions with the most room at the spot that leaves cells on both sides.
        if frame.same_corner && (walls.sources.is_empty() || walls.targets.is_empty()) {
            walls.turned();
        }
        if walls.sources.is_empty() {
            return Err(Refusal::NoRoomAtSpot(frame.a));
        }
        if walls.targets.is_empty() {
            return Err(Refusal::NoRoomAtSpot(frame.b));
        }
        Ok(walls)
    }

    /// A loop through one corner is not drawn tiny where there is room: its wall reaches as
    /// far as the room allows a strand on each side (at most [`LOOP_WALL_MAX`] `d0`), along
    /// the sector's bisector or, where that is shorter, along the direction in the middle of
    /// the sector with the most room, so that the loop's inside has room for later moves.
    fn reach_out(&mut self) {
        let Some(u) = self.wall_dir else {
            return;
        };
        let (ca, ra) = (self.frame.ca, self.frame.ra);
        let bisector = u;
        let mut wall_reach = loop_wall_reach(&self.grid, ca, ra, u);
        let mut wall_dir = self.wall_dir;
        if wall_reach < LOOP_WALL_MAX {
            // The middle of the sector, or every direction at a spot with no curve.
            let (t0, span) = match self.frame.sector_a {
                Some((ts, w)) => (ts + 0.3 * w, 0.4 * w),
                None => (0.0, std::f64::consts::TAU * 23.0 / 24.0),
            };
            for k in 0..=12 {
                let t = t0 + span * f64::from(k) / 12.0;
                let v = Vector::new(t.cos(), t.sin());
                let r = loop_wall_reach(&self.grid, ca, ra, v);
                if r > wall_reach + 2.0 {
                    (wall_reach, wall_dir) = (r, Some(v));
                }
            }
        }
        // The grid's wall where the loop's ends are sorted ([`Walls::ends`]): a wall turned to
        // another direction but no longer than the first one's `5 d0` is built there too (left
        // along the bisector, a loop's ends could be on the two sides of the new direction and
        // on one side of the wall, and the loop went round nothing).
        if wall_reach > 5.0 || wall_dir != Some(bisector) {
            let reach = wall_reach.max(5.0);
            self.grid = self.with_walls(&self.along(wall_dir, reach));
        }
        (self.wall_reach, self.wall_dir) = (wall_reach, wall_dir);
    }

    /// No way round the long wall (a loop in a narrow place): shorter walls, then a thin one
    /// (the strands closer together; not shorter, so that the cells the loop leaves and
    /// returns through, up to `d0` and two cells beyond the disc, stay on its two sides).
    fn shorter(&mut self) {
        let (ca, cb) = (self.frame.ca, self.frame.cb);
        for k in [(5.0, 1.5), (3.0, 1.5), (1.5, 1.5), (2.5, 0.5)]
            .into_iter()
            .filter(|&(k, _)| k < self.wall_reach.max(5.0))
        {
            let way = !self.sources.is_empty()
                && !self.targets.is_empty()
                && parity::parity_search(
                    &self.grid,
                    ca,
                    &self.sources,
                    cb,
                    &self.targets,
                    &[],
                    0,
                    MAX_STATES,
                )
                .is_some();
            if way {
                break;
            }
            self.grid = self.with_walls(&self.thick(self.wall_dir, k.0, k.1));
            (self.sources, self.targets) = self.ends(&self.grid, self.wall_dir);
        }
    }

    /// A short wall turned to one of the directions with the most room at the spot, the
    /// first that leaves cells on both its sides.
    fn turned(&mut self) {
        let (ca, ra, d0) = (self.frame.ca, self.frame.ra, self.frame.scene.d0);
        let sector_a = self.frame.sector_a;
        let (t0, span, m) = match sector_a {
            Some((ts, w)) => (ts, w, 12),
            None => (0.0, std::f64::consts::TAU, 24),
        };
        let mut dirs: Vec<(f64, Vector)> = (1..m)
            .chain(std::iter::once(m).filter(|_| sector_a.is_none()))
            .map(|j| {
                let t = t0 + span * f64::from(j) / f64::from(m);
                let v = Vector::new(t.cos(), t.sin());
                (self.grid.room_at(ca + v * (ra + 2.0 * d0)), v)
            })
            .collect();
        dirs.sort_by(|x, y| y.0.total_cmp(&x.0));
        for &(_, v) in dirs.iter().take(6) {
            let g = self.with_walls(&self.along(Some(v), 1.5));
            let (s, t) = self.ends(&g, Some(v));
            if !s.is_empty() && !t.is_empty() {
                (self.grid, self.sources, self.targets, self.wall_dir) = (g, s, t, Some(v));
                break;
            }
        }
    }

    /// The grid with `walls` (and nothing else walled).
    pub(super) fn with_walls(&self, walls: &[Wall]) -> FreeGrid {
        self.base.with_walls(walls)
    }

    /// The free space without walls at the clearance `3 d0`.
    pub(super) fn wide_grid(&self) -> &FreeGrid {
        self.at_clearance(&self.wide, 3.0)
    }

    /// The free space without walls at the clearance `1.5 d0`.
    pub(super) fn narrow_grid(&self) -> &FreeGrid {
        self.at_clearance(&self.narrow, 1.5)
    }

    /// The free space without walls at the clearance `k d0`, built when first asked for.
    fn at_clearance<'c>(&self, cell: &'c OnceCell<FreeGrid>, k: f64) -> &'c FreeGrid {
        let (scene, analysis) = (&self.frame.scene, self.frame.view.analysis);
        cell.get_or_init(|| {
            let mut w = scene.clone();
            w.d0 = k * scene.d0;
            FreeGrid::new(&w, analysis, &self.mask, &[])
        })
    }

    /// A loop's wall ([`thick_walls`]).
    pub(super) fn thick(&self, wall_dir: Option<Vector>, k: f64, h: f64) -> Vec<Wall> {
        thick_walls(self.frame, self.cell, wall_dir, k, h)
    }

    /// [`Walls::thick`] with half-width `1.5 d0`: the loop's strands `3 d0` apart at least.
    pub(super) fn along(&self, wall_dir: Option<Vector>, k: f64) -> Vec<Wall> {
        self.thick(wall_dir, k, 1.5)
    }

    /// The cells to leave from and arrive at in `grid` (on either side of a loop's wall
    /// along `wall`).
    pub(super) fn ends(&self, grid: &FreeGrid, wall: Option<Vector>) -> (Vec<Cell>, Vec<Cell>) {
        let analysis: &Analysis = self.frame.view.analysis;
        let ca = self.frame.ca;
        let mut sources = grid.terminal_cells(analysis, &self.frame.t_from);
        let mut targets = grid.terminal_cells(analysis, &self.frame.t_to);
        if let Some(u) = wall {
            let side = |c: &Cell| certified::orient(ca, ca + u, grid.centre(*c));
            let ahead = |c: &Cell| (grid.centre(*c) - ca).dot(&u) > 0.0;
            sources.retain(|c| side(c) == certified::Orientation::CounterClockwise && ahead(c));
            targets.retain(|c| side(c) == certified::Orientation::Clockwise && ahead(c));
        }
        (sources, targets)
    }

    /// A loop round marked boundaries (at `inside`): walls from the spot to each of them, so
    /// that the loop's two strands stay apart, with the direction they leave the spot in.
    /// `hw`: the walls' half-width. `round`: the walls along ways that do not turn back over
    /// the spot (`None` if there are none), else the walls from the sector's bisector (or
    /// straight towards the nearest mark). `ways`: the free space the walls' ways are found
    /// in. `None` but for a loop through one corner with marks.
    pub(super) fn round_marks(
        &self,
        inside: &[Point],
        hw: f64,
        round: bool,
        ways: &FreeGrid,
    ) -> Option<(Vec<Wall>, Vector)> {
        let f = self.frame;
        let (scene, ca, ra, sector_a, cell) = (&f.scene, f.ca, f.ra, f.sector_a, self.cell);
        if !f.same_corner || inside.is_empty() {
            return None;
        }
        // Walls along ways with room, in the direction of the sector whose ways do not turn
        // back over the spot (at a spot with no curve, within 90 degrees of the way to the
        // nearest marked boundary, with the wall across the spot's back).
        let sector = sector_a.or_else(|| {
            let near = inside
                .iter()
                .min_by(|p, q| (*p - ca).norm().total_cmp(&(*q - ca).norm()))?;
            let v = near - ca;
            (v.norm() > 1e-9)
                .then(|| (v.y.atan2(v.x) + std::f64::consts::PI, std::f64::consts::TAU))
        });
        if round {
            let (mut w, u) = marked::loop_walls_round(scene, ways, (ca, ra), sector?, inside, hw)?;
            if sector_a.is_none() {
                let n = Vector::new(-u.y, u.x) * (ra + 3.0 * scene.d0);
                w.push((ca - n, ca + n, cell));
            }
            return Some((w, u));
        }
        let (root, u) = match sector_a {
            Some((ts, w)) => {
                let t = ts + 0.5 * w;
                let u = Vector::new(t.cos(), t.sin());
                (ca + u * (ra + 3.0 * scene.d0), u)
            }
            None => {
                let near = inside
                    .iter()
                    .min_by(|p, q| (*p - ca).norm().total_cmp(&(*q - ca).norm()))?;
                let v = near - ca;
                if v.norm() < 1e-9 {
                    return None;
                }
                (ca, v.normalize())
            }
        };
        let mut w = vec![(ca, root, hw)];
        for &p in inside {
            // Along a way with room for a strand on each side of the wall when there is one,
            // else straight.
            match wide_way(scene, ways, root, p) {
                Some(way) => w.extend(way.windows(2).map(|s| (s[0], s[1], hw))),
                None => w.push((root, p, hw)),
            }
        }
        if sector_a.is_none() {
            let n = Vector::new(-u.y, u.x) * (ra + 3.0 * scene.d0);
            w.push((ca - n, ca + n, cell));
        }
        Some((w, u))
    }

    /// The grid with `walls` and its ends (on either side of a loop's wall along `wall`).
    pub(super) fn walled(
        &self,
        walls: &[Wall],
        wall: Option<Vector>,
    ) -> (FreeGrid, Vec<Cell>, Vec<Cell>) {
        let g = self.with_walls(walls);
        let (s, t) = self.ends(&g, wall);
        (g, s, t)
    }

    /// A ray from the move's own boundary, for the parity search: for a loop through one
    /// corner of a walk, from the middle of the curve leaving the corner, so that the search
    /// can also be asked to go round the rest of its own boundary (which the other
    /// boundaries' rays cannot tell; the judge's orientation can); likewise between two
    /// corners of one boundary, from the part of the boundary the arc leaves out (the curve
    /// leaving the second corner). `None` for a move joining two boundaries.
    pub(super) fn own_ray(&self) -> Option<Ray> {
        let f = self.frame;
        if !f.one_boundary {
            return None;
        }
        match f.view.analysis.boundary(f.plan.from.boundary) {
            Some(BoundaryPicture::Walk(hs)) => hs
                .get(f.plan.to.index as usize)
                .map(|&h| f.scene.half_edge_polyline(h))
                .filter(|poly| poly.len() >= 2)
                .and_then(|poly| ray_out(poly[poly.len() / 2], f.ca, &f.scene)),
            _ => None,
        }
    }
}

/// A loop's wall along `wall_dir`, `k d0` beyond the spot's disc (long, and shorter where the
/// region is narrow), its half-width `h d0`; at a spot with no curve, a second wall across the
/// spot closes its back, so that the loop goes round one of the walls instead of slipping round
/// the spot itself. None without a direction.
fn thick_walls(
    frame: &Frame<'_>,
    cell: f64,
    wall_dir: Option<Vector>,
    k: f64,
    h: f64,
) -> Vec<Wall> {
    let (ca, ra, d0) = (frame.ca, frame.ra, frame.scene.d0);
    wall_dir
        .map(|u| {
            let len = ra + k * d0;
            let mut w = vec![(ca, ca + u * len, h * d0)];
            if frame.sector_a.is_none() {
                // As long as the wall, so that the way round the back is no shortcut.
                let n = Vector::new(-u.y, u.x) * (ra + k.max(3.0) * d0);
                w.push((ca - n, ca + n, cell));
            }
            w
        })
        .unwrap_or_default()
}

/// Walls for a move between two corners of one boundary round marked boundaries (the barrier
/// tree of spec 3.3 drawn straight, as for a loop through one corner): from a point off the
/// middle of the arc, on its region side, to each boundary that must be inside, so that the
/// route's two strands cannot run along one corridor (the parity search's shortest way round
/// a far boundary from two close spots crosses itself). `None` without an arc or marks.
pub(super) fn arc_walls(arc: &[Point], inside: &[Point], scene: &Scene) -> Option<Vec<Wall>> {
    if arc.len() < 2 || inside.is_empty() {
        return None;
    }
    let total: f64 = arc.windows(2).map(|w| (w[1] - w[0]).norm()).sum();
    let mut left = 0.5 * total;
    let (mut mid, mut dir) = (arc[0], arc[1] - arc[0]);
    for w in arc.windows(2) {
        let l = (w[1] - w[0]).norm();
        if l >= left && l > 0.0 {
            mid = w[0] + (w[1] - w[0]) * (left / l);
            dir = w[1] - w[0];
            break;
        }
        left -= l;
    }
    if dir.norm() < 1e-9 {
        return None;
    }
    // The region is on the arc's left (y up).
    let n = Vector::new(-dir.y, dir.x) / dir.norm();
    let root = mid + n * (3.0 * scene.d0);
    let hw = 1.5 * scene.d0;
    let mut w = vec![(mid + n * (0.5 * scene.d0), root, hw)];
    w.extend(inside.iter().map(|&p| (root, p, hw)));
    Some(w)
}

/// A way from `from` to the spot at `to` that keeps `3 d0` from everything (room for a wall of
/// half-width `1.5 d0` with a strand of the loop on each side), as a polyline from `from` to
/// `to`; `None` if there is none. `g` is the free space at a clearance of `3 d0`.
pub(super) fn wide_way(scene: &Scene, g: &FreeGrid, from: Point, to: Point) -> Option<Vec<Point>> {
    let near = |p: Point, r: f64| g.open_cells_within(p, r);
    let r_to = scene.spots.iter().find(|s| s.1 == to).map_or(0.0, |s| s.2);
    let sources: Vec<(Cell, f64)> = near(from, scene.d0 + 3.0 * g.cell)
        .into_iter()
        .map(|c| (c, (g.centre(c) - from).norm()))
        .collect();
    let targets = near(to, r_to + g.d0 + 2.0 * g.cell);
    if sources.is_empty() || targets.is_empty() {
        return None;
    }
    let (dist, prev) = g.dijkstra(&sources);
    let &end = targets
        .iter()
        .filter(|&&c| dist[c as usize].is_finite())
        .min_by(|&&x, &&y| {
            (dist[x as usize] + (g.centre(x) - to).norm())
                .total_cmp(&(dist[y as usize] + (g.centre(y) - to).norm()))
        })?;
    let mut cells = vec![end];
    let mut at = end;
    while prev[at as usize] != Cell::MAX {
        at = prev[at as usize];
        cells.push(at);
    }
    cells.reverse();
    let mut way = vec![from];
    way.extend(cells.iter().map(|&c| g.centre(c)));
    way.push(to);
    Some(way)
}

/// The longest wall of a loop through one corner, as in [`LOOP_WALL_MAX`]: how far (in `d0`
/// beyond the spot's disc) along `u` from the spot the room keeps `3 d0` (the wall's
/// half-width, a strand's clearance and a little room), less `2 d0`; 0 if not even `3 d0`.
fn loop_wall_reach(grid: &FreeGrid, ca: Point, ra: f64, u: Vector) -> f64 {
    let d0 = grid.d0;
    let mut t = ra + 3.0 * d0;
    while t < ra + (LOOP_WALL_MAX + 2.0) * d0 && grid.room_at(ca + u * t) >= 3.0 * d0 {
        t += 0.5 * grid.cell;
    }
    let k = (t - ra) / d0 - 2.0;
    if k >= 3.0 { k.min(LOOP_WALL_MAX) } else { 0.0 }
}

/// A ray from `p` out of the window, along the shortest of sixteen directions (off the grid's
/// axes and diagonals) that do not head within 30 degrees of `avoid`.
pub(super) fn ray_out(p: Point, avoid: Point, scene: &Scene) -> Option<Ray> {
    let away = avoid - p;
    let mut best: Option<(f64, Ray)> = None;
    for i in 0..16 {
        let ang = f64::from(i) * std::f64::consts::PI / 8.0 + 0.123_456_7;
        let (s, c) = ang.sin_cos();
        let dir = Vector::new(c, s);
        if away.norm() > 1e-9 && planner::angle_between(dir, away) < std::f64::consts::PI / 6.0 {
            continue;
        }
        let tx = if c > 0.0 {
            (scene.width + 1.0 - p.x) / c
        } else {
            (-1.0 - p.x) / c
        };
        let ty = if s > 0.0 {
            (scene.height + 1.0 - p.y) / s
        } else {
            (-1.0 - p.y) / s
        };
        let t = tx.min(ty).max(0.0) + 1.0;
        if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
            best = Some((
                t,
                Ray {
                    from: p,
                    to: p + dir * t,
                },
            ));
        }
    }
    best.map(|b| b.1)
}

/// The direction of the wall of a loop through one corner: the sector's bisector, or for a
/// spot with no curve, towards the region's first other boundary (else the window's middle).
fn loop_wall_direction(
    sector: Option<(f64, f64)>,
    ca: Point,
    enclosure: Option<&marked::Enclosure>,
    scene: &Scene,
) -> Vector {
    if let Some((ts, w)) = sector {
        let t = ts + 0.5 * w;
        return Vector::new(t.cos(), t.sin());
    }
    let mid = Point::new(0.5 * scene.width, 0.5 * scene.height);
    let toward = enclosure
        .and_then(|e| {
            e.others
                .iter()
                .map(|&(_, p)| p)
                .min_by(|p, q| (p - ca).norm().total_cmp(&(q - ca).norm()))
        })
        .unwrap_or(mid);
    let v = toward - ca;
    if v.norm() > 1e-9 {
        v.normalize()
    } else {
        Vector::new(1.0, 0.0)
    }
}
