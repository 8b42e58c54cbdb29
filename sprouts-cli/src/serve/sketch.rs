//! From a pointer stroke or a planned route to a move on the board.
//!
//! A curve drawn on the picture is turned into the move it makes by the picture itself: the
//! curve is added to a copy of the drawing, the position is read back with
//! [`sprouts_draw::analyse`], and the legal move joining the two spots that gives that position
//! is looked up with [`MoveNotation::to_move`] (the spots enclosed on one side settle which
//! one-boundary move it is). The board then plays that move with the same spline, under its
//! authority check, so nothing here can corrupt a game.
//!
//! The planner here is a grid search (spec 3.2): free cells keep the minimum clearance from
//! every curve, spot and the window's edge; a curve leaves a spot through a ring of cells just
//! outside it, on the side asked for. A loop is routed round a short wall put out from its
//! spot. The path of cell centres is fitted with a C² spline ([`fit_clamped`]).

use std::collections::BinaryHeap;

use sprouts_draw::{Analysis, Board, Drawing, TransactionError, analyse};
use sprouts_geom::{Point, Spline, Vector, fit_clamped};
use sprouts_topo::{Move, MoveNotation, Position, SpotId};

/// A move worked out from a curve: the move and the spline that draws it.
#[derive(Clone, Debug)]
pub(crate) struct Sketched {
    /// The move.
    pub mv: Move,
    /// The curve from its first spot to its second.
    pub spline: Spline,
}

/// Why a curve makes no move.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SketchError {
    /// The curve could not be made into a spline.
    Fit(String),
    /// The curve meets something (the picture is not a picture of a position).
    Meets(String),
    /// The curve makes no legal move joining its spots.
    NoMove,
}

/// The spline through `points`, leaving the first and reaching the last along the first and
/// last legs, within `tolerance`.
pub(crate) fn fit_points(points: &[Point], tolerance: f64) -> Result<Spline, SketchError> {
    let pts = dedup(points);
    if pts.len() < 2 {
        return Err(SketchError::Fit("the curve is a single point".into()));
    }
    let n = pts.len();
    let d0 = pts[1] - pts[0];
    let d1 = pts[n - 1] - pts[n - 2];
    match fit_clamped(&pts, d0, d1, tolerance) {
        Ok(fit) => Ok(fit.spline),
        Err(sprouts_geom::FitError::ToleranceNotMet { best, .. }) => Ok(*best),
        Err(e) => Err(SketchError::Fit(e.to_string())),
    }
}

/// Points with exact repeats and near-repeats (closer than a hundredth of a pixel) removed.
fn dedup(points: &[Point]) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for &p in points {
        if !(p.x.is_finite() && p.y.is_finite()) {
            continue;
        }
        if out.last().is_none_or(|q| (p - q).norm() > 1e-2) {
            out.push(p);
        }
    }
    out
}

/// The move a spline from `from` to `to` makes in `board`'s picture, if it meets nothing.
pub(crate) fn identify(
    board: &Board,
    from: SpotId,
    to: SpotId,
    spline: &Spline,
) -> Result<Move, SketchError> {
    let pos = board.position();
    let z = pos.next_spot();
    let mut drawing: Drawing = board.drawing().clone();
    let cut = spline
        .cut_near_middle(1e-6 * (1.0 + spline.param_length()))
        .map_err(|e| SketchError::Fit(e.to_string()))?;
    let index = u32::try_from(board.moves().len()).unwrap_or(u32::MAX);
    drawing
        .add_move_curves(
            (from, z, to),
            cut.first,
            cut.second,
            index,
            board.settings().spot_radius,
        )
        .map_err(|e| SketchError::Meets(e.to_string()))?;
    let after = analyse(&drawing).map_err(|e| SketchError::Meets(e.to_string()))?;
    let new_pos = after.position();
    let notation = MoveNotation {
        from,
        to,
        enclosed: enclosed_beside(new_pos, z),
        result: new_pos.game_key(),
    };
    notation.to_move(pos).map_err(|_| SketchError::NoMove)
}

/// For a one-boundary move (the new spot `z` is on two regions), the spots of the other
/// boundaries of one of those regions; empty for a two-boundary move.
fn enclosed_beside(pos: &Position, z: SpotId) -> Vec<SpotId> {
    let regions: Vec<_> = pos
        .regions()
        .filter(|r| r.boundaries().any(|b| b.corners().contains(&z)))
        .collect();
    if regions.len() < 2 {
        return Vec::new();
    }
    let mut spots: Vec<SpotId> = regions[0]
        .boundaries()
        .filter(|b| !b.corners().contains(&z))
        .flat_map(|b| b.corners().iter().copied())
        .collect();
    spots.sort_unstable();
    spots.dedup();
    spots
}

/// Whether the move encloses exactly the boundaries of the marked spots on one side (spec
/// 3.1: the curve must enclose those spots, more exactly their boundaries, and not the others).
pub(crate) fn honours_marks(pos: &Position, mv: &Move, marks: &[SpotId]) -> bool {
    if marks.is_empty() {
        return true;
    }
    let Some((a, b)) = mv.sides(pos) else {
        return false;
    };
    let holds = |side: &[sprouts_topo::BoundaryId]| -> Vec<bool> {
        side.iter()
            .map(|&id| {
                pos.boundary(id)
                    .is_some_and(|bd| bd.corners().iter().any(|c| marks.contains(c)))
            })
            .collect()
    };
    // Every marked spot must be on some boundary of the region other than the move's own.
    let all_marked: Vec<SpotId> = a
        .iter()
        .chain(b.iter())
        .filter_map(|&id| pos.boundary(id))
        .flat_map(|bd| bd.corners().to_vec())
        .collect();
    if !marks.iter().all(|m| all_marked.contains(m)) {
        return false;
    }
    let (ha, hb) = (holds(&a), holds(&b));
    (ha.iter().all(|&x| x) && hb.iter().all(|&x| !x))
        || (hb.iter().all(|&x| x) && ha.iter().all(|&x| !x))
}

/// Plays a sketched move on the board (under the board's authority check).
pub(crate) fn play(board: &mut Board, s: &Sketched) -> Result<(), String> {
    board
        .play_spline(&s.mv, &s.spline)
        .map(|_| ())
        .map_err(|e| match e {
            TransactionError::Edit(e) => e.to_string(),
            other => other.to_string(),
        })
}

/// The grid planner over a board's picture.
pub(crate) struct Planner<'a> {
    drawing: &'a Drawing,
    analysis: &'a Analysis,
    position: &'a Position,
    cell: f64,
    d0: f64,
    nx: i32,
    ny: i32,
    /// Cells that keep the clearance from every curve, spot and edge.
    free: Vec<bool>,
}

/// Radius of the ring of start and end cells round a spot, in world pixels.
fn ring_radius(spot_r: f64, d0: f64, cell: f64) -> f64 {
    spot_r + d0 + 1.5 * cell
}

impl<'a> Planner<'a> {
    /// A planner for the board's picture with its minimum clearance.
    pub(crate) fn new(board: &'a Board) -> Planner<'a> {
        let d0 = board.settings().min_clearance;
        let drawing = board.drawing();
        let world = drawing.world();
        // Cells at most 0.7 d0 wide (spec 3.2), so that no search leaks through a curve.
        let mut cell = (0.7 * d0).clamp(2.0, 8.0);
        // Keep the grid to about a million cells in very large worlds.
        while (world.width / cell) * (world.height / cell) > 1.0e6 {
            cell *= 1.25;
        }
        let nx = (world.width / cell).ceil().max(1.0) as i32;
        let ny = (world.height / cell).ceil().max(1.0) as i32;
        let mut p = Planner {
            drawing,
            analysis: board.analysis(),
            position: board.position(),
            cell,
            d0,
            nx,
            ny,
            free: vec![true; (nx * ny) as usize],
        };
        p.block_everything();
        p
    }

    fn centre(&self, (i, j): (i32, i32)) -> Point {
        Point::new(
            (f64::from(i) + 0.5) * self.cell,
            (f64::from(j) + 0.5) * self.cell,
        )
    }

    fn idx(&self, (i, j): (i32, i32)) -> Option<usize> {
        (i >= 0 && j >= 0 && i < self.nx && j < self.ny).then(|| (j * self.nx + i) as usize)
    }

    /// Blocks every cell within `r` of `p`.
    fn block_disc(free: &mut [bool], nx: i32, ny: i32, cell: f64, p: Point, r: f64) {
        let (i0, i1) = (
            ((p.x - r) / cell - 0.5).floor() as i32,
            ((p.x + r) / cell - 0.5).ceil() as i32,
        );
        let (j0, j1) = (
            ((p.y - r) / cell - 0.5).floor() as i32,
            ((p.y + r) / cell - 0.5).ceil() as i32,
        );
        for j in j0.max(0)..=j1.min(ny - 1) {
            for i in i0.max(0)..=i1.min(nx - 1) {
                let c = Point::new((f64::from(i) + 0.5) * cell, (f64::from(j) + 0.5) * cell);
                if (c - p).norm() < r {
                    free[(j * nx + i) as usize] = false;
                }
            }
        }
    }

    fn block_everything(&mut self) {
        let (nx, ny, cell, d0) = (self.nx, self.ny, self.cell, self.d0);
        // The window's edge.
        for j in 0..ny {
            for i in 0..nx {
                let c = self.centre((i, j));
                let w = self.drawing.world();
                if c.x < d0 || c.y < d0 || c.x > w.width - d0 || c.y > w.height - d0 {
                    self.free[(j * nx + i) as usize] = false;
                }
            }
        }
        for s in self.drawing.spots() {
            Self::block_disc(&mut self.free, nx, ny, cell, s.centre, s.radius + d0);
        }
        // Curves, sampled every half cell: the clearance d0 from each sample, plus half a
        // sample step, covers the curve between samples.
        let step = 0.5 * cell;
        for c in self.drawing.curves() {
            for p in samples(&c.spline, step) {
                Self::block_disc(&mut self.free, nx, ny, cell, p, d0 + 0.5 * step);
            }
        }
    }

    /// The cells of the ring round `spot` that are free, with their points.
    fn ring(&self, spot: SpotId) -> Vec<(i32, i32)> {
        let Some(s) = self.drawing.spot(spot) else {
            return Vec::new();
        };
        let r = ring_radius(s.radius, self.d0, self.cell);
        let steps = ((std::f64::consts::TAU * r) / (0.5 * self.cell)).ceil() as usize;
        let mut out: Vec<(i32, i32)> = Vec::new();
        for k in 0..steps.max(8) {
            let t = std::f64::consts::TAU * k as f64 / steps.max(8) as f64;
            let p = s.centre + Vector::new(t.cos(), t.sin()) * r;
            let c = (
                (p.x / self.cell - 0.5).round() as i32,
                (p.y / self.cell - 0.5).round() as i32,
            );
            if self.idx(c).is_some_and(|i| self.free[i]) && !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// The ring cells of `spot` on the side of `toward` (any side if `None`); for a spot with
    /// one usable side only, that side whatever `toward` says (spec 3.1).
    fn ring_on_side(&self, spot: SpotId, toward: Option<Point>) -> Vec<(i32, i32)> {
        let ring = self.ring(spot);
        let Some(t) = toward else { return ring };
        let Some(want) = self.analysis.corner_at(spot, t) else {
            return ring;
        };
        let on: Vec<_> = ring
            .iter()
            .copied()
            .filter(|&c| self.analysis.corner_at(spot, self.centre(c)) == Some(want))
            .collect();
        if on.is_empty() { ring } else { on }
    }

    /// Dijkstra over free cells from `starts`; returns distances and predecessors.
    fn search(&self, starts: &[(i32, i32)], blocked: &[bool]) -> (Vec<f64>, Vec<u32>) {
        let n = (self.nx * self.ny) as usize;
        let mut dist = vec![f64::INFINITY; n];
        let mut prev = vec![u32::MAX; n];
        let mut heap = BinaryHeap::new();
        for &s in starts {
            if let Some(i) = self.idx(s) {
                dist[i] = 0.0;
                heap.push(Item(0.0, i as u32));
            }
        }
        while let Some(Item(d, i)) = heap.pop() {
            let i = i as usize;
            if d > dist[i] {
                continue;
            }
            let (x, y) = ((i as i32) % self.nx, (i as i32) / self.nx);
            for (dx, dy, w) in NEIGHBOURS {
                let Some(j) = self.idx((x + dx, y + dy)) else {
                    continue;
                };
                if !self.free[j] || blocked[j] {
                    continue;
                }
                let nd = d + w;
                if nd < dist[j] {
                    dist[j] = nd;
                    prev[j] = i as u32;
                    heap.push(Item(nd, j as u32));
                }
            }
        }
        (dist, prev)
    }

    /// The spots reachable from `from` leaving on the side of `toward`, with a life to take
    /// the curve (the spot itself when it has two lives and a loop can be routed).
    pub(crate) fn reachable(&self, from: SpotId, toward: Option<Point>) -> Vec<SpotId> {
        let starts = self.ring_on_side(from, toward);
        if starts.is_empty() {
            return Vec::new();
        }
        let none = vec![false; self.free.len()];
        let (dist, _) = self.search(&starts, &none);
        let mut out = Vec::new();
        for (id, lives) in self.position.spots() {
            if lives.get() == 0 {
                continue;
            }
            if id == from {
                if lives.get() >= 2 && self.route_loop(from, toward).is_some() {
                    out.push(id);
                }
                continue;
            }
            let reached = self
                .ring(id)
                .iter()
                .any(|&c| self.idx(c).is_some_and(|i| dist[i].is_finite()));
            if reached {
                out.push(id);
            }
        }
        out
    }

    /// The shortest route from `from` (leaving on the side of `from_side`) to `to` (reaching it
    /// on the side of `to_side` if possible), as points from centre to centre.
    pub(crate) fn route(
        &self,
        from: SpotId,
        to: SpotId,
        from_side: Option<Point>,
        to_side: Option<Point>,
    ) -> Option<Vec<Point>> {
        if from == to {
            return self.route_loop(from, from_side);
        }
        let starts = self.ring_on_side(from, from_side);
        let none = vec![false; self.free.len()];
        let (dist, prev) = self.search(&starts, &none);
        let mut ends = self.ring_on_side(to, to_side);
        ends.retain(|&c| self.idx(c).is_some_and(|i| dist[i].is_finite()));
        if ends.is_empty() {
            ends = self.ring(to);
        }
        let end = ends
            .into_iter()
            .filter_map(|c| self.idx(c).map(|i| (dist[i], i)))
            .filter(|(d, _)| d.is_finite())
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        Some(self.path_points(from, to, &prev, end))
    }

    fn path_points(&self, from: SpotId, to: SpotId, prev: &[u32], end: usize) -> Vec<Point> {
        let mut cells = vec![end];
        while prev[*cells.last().expect("not empty")] != u32::MAX {
            let p = prev[*cells.last().expect("not empty")] as usize;
            cells.push(p);
        }
        cells.reverse();
        let mut pts = vec![
            self.drawing
                .spot(from)
                .map_or(Point::origin(), |s| s.centre),
        ];
        for i in cells {
            let i = i as i32;
            pts.push(self.centre((i % self.nx, i / self.nx)));
        }
        pts.push(self.drawing.spot(to).map_or(Point::origin(), |s| s.centre));
        pts
    }

    /// A loop at `spot` round a short wall put out on the side of `toward`.
    fn route_loop(&self, spot: SpotId, toward: Option<Point>) -> Option<Vec<Point>> {
        let s = self.drawing.spot(spot)?;
        let ring = self.ring_on_side(spot, toward);
        if ring.len() < 3 {
            return None;
        }
        // The wall goes out through the middle of the free ring cells on that side.
        let angle = |c: (i32, i32)| {
            let v = self.centre(c) - s.centre;
            v.y.atan2(v.x)
        };
        let mut angles: Vec<f64> = ring.iter().map(|&c| angle(c)).collect();
        angles.sort_by(f64::total_cmp);
        // The widest free arc's middle: find the largest gap between blocked directions by
        // taking the mean direction of the ring cells nearest the pointer (or all of them).
        let dir = match toward {
            Some(t) if (t - s.centre).norm() > 1e-9 => (t - s.centre).normalize(),
            _ => {
                let sum = ring.iter().fold(Vector::zeros(), |acc, &c| {
                    acc + (self.centre(c) - s.centre).normalize()
                });
                if sum.norm() < 1e-9 {
                    Vector::new(1.0, 0.0)
                } else {
                    sum.normalize()
                }
            }
        };
        let base = dir.y.atan2(dir.x);
        let r = ring_radius(s.radius, self.d0, self.cell);
        let mut blocked = vec![false; self.free.len()];
        let wall_len = r + 4.0 * self.d0 + 4.0 * self.cell;
        let mut t = 0.0;
        while t <= wall_len {
            let p = s.centre + dir * t;
            Self::block_disc(&mut blocked, self.nx, self.ny, self.cell, p, self.d0);
            t += 0.5 * self.cell;
        }
        let rel = |c: (i32, i32)| {
            let mut a = angle(c) - base;
            while a <= -std::f64::consts::PI {
                a += std::f64::consts::TAU;
            }
            while a > std::f64::consts::PI {
                a -= std::f64::consts::TAU;
            }
            a
        };
        let free_of_wall = |c: &(i32, i32)| self.idx(*c).is_some_and(|i| !blocked[i]);
        let starts: Vec<_> = ring
            .iter()
            .copied()
            .filter(free_of_wall)
            .filter(|&c| rel(c) > 0.0 && rel(c) < 1.2)
            .collect();
        let ends: Vec<_> = ring
            .iter()
            .copied()
            .filter(free_of_wall)
            .filter(|&c| rel(c) < 0.0 && rel(c) > -1.2)
            .collect();
        if starts.is_empty() || ends.is_empty() {
            return None;
        }
        // Block the ring's cells between the two sides near the spot, so that the way round
        // is not straight across the wall's foot.
        let (dist, prev) = self.search(&starts, &blocked);
        let end = ends
            .into_iter()
            .filter_map(|c| self.idx(c).map(|i| (dist[i], i)))
            .filter(|(d, _)| d.is_finite())
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        Some(self.path_points(spot, spot, &prev, end))
    }

    /// The grid's cell size (world pixels), for the log.
    pub(crate) fn cell(&self) -> f64 {
        self.cell
    }
}

/// The eight grid neighbours and their step lengths.
const NEIGHBOURS: [(i32, i32, f64); 8] = [
    (1, 0, 1.0),
    (-1, 0, 1.0),
    (0, 1, 1.0),
    (0, -1, 1.0),
    (1, 1, std::f64::consts::SQRT_2),
    (1, -1, std::f64::consts::SQRT_2),
    (-1, 1, std::f64::consts::SQRT_2),
    (-1, -1, std::f64::consts::SQRT_2),
];

/// A heap item ordered by least distance first.
#[derive(PartialEq)]
struct Item(f64, u32);

impl Eq for Item {}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Item {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

/// Points along a spline at most `step` apart (by parameter length, which is roughly arc
/// length), ends included.
pub(crate) fn samples(spline: &Spline, step: f64) -> Vec<Point> {
    let mut out = Vec::new();
    for piece in spline.pieces() {
        let b = &piece.bez;
        let len = (b.p1 - b.p0).norm() + (b.p2 - b.p1).norm() + (b.p3 - b.p2).norm();
        let n = ((len / step).ceil() as usize).clamp(1, 10_000);
        for k in 0..n {
            out.push(b.eval(k as f64 / n as f64));
        }
    }
    out.push(spline.end());
    out
}

/// Simplifies a grid path (many points a cell apart) before fitting: keeps every `k`-th point
/// and the ends.
pub(crate) fn thin(points: &[Point], k: usize) -> Vec<Point> {
    if points.len() <= 4 || k <= 1 {
        return points.to_vec();
    }
    let n = points.len();
    let mut out = vec![points[0], points[1]];
    let mut i = 1 + k;
    while i < n - 2 {
        out.push(points[i]);
        i += k;
    }
    out.push(points[n - 2]);
    out.push(points[n - 1]);
    out
}
