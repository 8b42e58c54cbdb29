//! A drawer for tests and benches: legal moves drawn as lattice polylines on a fine grid
//! (feature `testing`).
//!
//! The grid drawer is deliberately simple and independent of [`crate::analyse`]: it routes a
//! curve by breadth-first search through grid cells that keep a free cell between it and every
//! other curve and spot (except right at its two ends), and it works out which `sprouts-topo`
//! move it drew on its own, from the raster: the corners from the curves round the two end
//! spots, the boundaries enclosed on each side by flood-filling the free cells. The move is then
//! played on the [`Board`], whose authority check compares the picture read back by `analyse`
//! with the position `sprouts-topo` computes. Loops, nesting and regions with many boundaries
//! all come up in random games.
//!
//! Curves are splines of straight cubic pieces between cell centres, so they are C⁰ only; that
//! is all `analyse` needs.

use std::collections::{HashMap, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_geom::{CubicBez, Piece, Point, Spline, fit_clamped, point_segment_distance};
use sprouts_topo::{BoundaryId, Corner, Move, Position, SpotId};

use crate::board::{Board, BoardError, TransactionError};
use crate::drawing::{Drawing, DrawingError, DrawnSpot, Settings, WorldSize};

/// A cell of the grid, as column and row.
type CellPos = (i32, i32);

/// What a cell holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Free,
    Spot(SpotId),
    /// A cell a curve runs through, with the curve's index.
    Curve(u32),
}

/// The four lattice directions, by increasing angle in the picture's coordinates.
const DIRS: [CellPos; 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// A move the grid drawer drew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnMove {
    /// The move in words.
    pub words: String,
    /// How many different positions the drawn curve could have made, as far as the raster can
    /// tell (1 unless parallel curves make two corners of a spot look alike).
    pub candidates: usize,
}

/// A move the drawer drew but the board refused (the test has found a disagreement).
#[derive(Debug)]
pub struct Refused {
    /// The candidate moves, in words.
    pub moves: Vec<String>,
    /// The board's reason for the last candidate.
    pub reason: String,
    /// The picture with the curve drawn (which the board refused).
    pub drawing: Drawing,
}

/// Draws random legal moves as lattice polylines (see the module docs).
#[derive(Debug)]
pub struct GridDrawer {
    cell: f64,
    nx: i32,
    ny: i32,
    rng: Xoshiro256PlusPlus,
    /// How far (in steps) from the start the random waypoint of a curve may be.
    reach: u32,
    /// Whether curves are smoothed (fitted splines near the lattice polylines).
    smooth: bool,
    /// The lattice cells of the smoothed curves this drawer drew, by the spline's fingerprint.
    cells: HashMap<u64, Vec<CellPos>>,
}

/// A fingerprint of a spline's numbers.
fn fingerprint(spline: &Spline) -> u64 {
    let mut h = DefaultHasher::new();
    for piece in spline.pieces() {
        for p in piece.bez.points() {
            p.x.to_bits().hash(&mut h);
            p.y.to_bits().hash(&mut h);
        }
    }
    h.finish()
}

/// The two spots of a move with their cells, and the cells of its curve.
struct Route<'a> {
    x: (SpotId, CellPos),
    y: (SpotId, CellPos),
    cells: &'a [CellPos],
}

impl GridDrawer {
    /// A drawer on a grid of `nx` by `ny` cells of `cell` pixels, with a seeded random source.
    pub fn new(nx: i32, ny: i32, cell: f64, seed: u64) -> GridDrawer {
        GridDrawer {
            cell,
            nx,
            ny,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            reach: u32::MAX,
            smooth: false,
            cells: HashMap::new(),
        }
    }

    /// Draws curves as smooth splines fitted near the lattice polylines, as real pictures have
    /// them, with the polyline as a fall-back when the fit would meet something or strays
    /// farther than 7/8 of a cell from the polyline (a fit keeps only the cells it was fitted
    /// to within 3 pixels). A later curve that would meet a smoothed one is skipped rather
    /// than reported; a picture that reads back to another position than intended is still
    /// reported.
    pub fn smooth(mut self) -> GridDrawer {
        self.smooth = true;
        self
    }

    /// Keeps each curve's random waypoint and its end within `steps` grid steps of its start
    /// (unlimited by default), so that curves stay short and long games fit.
    pub fn with_reach(mut self, steps: u32) -> GridDrawer {
        self.reach = steps;
        self
    }

    /// The world the grid covers.
    pub fn world(&self) -> WorldSize {
        WorldSize::new(
            f64::from(self.nx) * self.cell,
            f64::from(self.ny) * self.cell,
        )
    }

    fn centre(&self, (i, j): CellPos) -> Point {
        Point::new(
            (f64::from(i) + 0.5) * self.cell,
            (f64::from(j) + 0.5) * self.cell,
        )
    }

    fn cell_of(&self, p: Point) -> CellPos {
        (
            (p.x / self.cell - 0.5).round() as i32,
            (p.y / self.cell - 0.5).round() as i32,
        )
    }

    fn inside(&self, (i, j): CellPos) -> bool {
        i >= 0 && j >= 0 && i < self.nx && j < self.ny
    }

    fn idx(&self, (i, j): CellPos) -> usize {
        (j * self.nx + i) as usize
    }

    /// A new game of `n` seeds at random cells, at least 5 cells apart and 3 from the edge.
    ///
    /// # Errors
    /// If the seeds do not fit or the board refuses them.
    pub fn new_board(&mut self, n: u32, settings: Settings) -> Result<Board, BoardError> {
        let mut cells: Vec<CellPos> = Vec::new();
        let mut tries = 0;
        while cells.len() < n as usize {
            tries += 1;
            if tries > 100_000 {
                return Err(BoardError::Drawing(DrawingError::BadWorld {
                    width: self.world().width,
                    height: self.world().height,
                }));
            }
            let c = (
                self.rng.random_range(3..self.nx - 3),
                self.rng.random_range(3..self.ny - 3),
            );
            if cells
                .iter()
                .all(|d| (d.0 - c.0).abs().max((d.1 - c.1).abs()) >= 5)
            {
                cells.push(c);
            }
        }
        let mut drawing = Drawing::new(self.world())?;
        for (k, &c) in cells.iter().enumerate() {
            drawing.add_spot(DrawnSpot {
                id: SpotId::new(k as u32 + 1).expect("not zero"),
                centre: self.centre(c),
                radius: settings.spot_radius,
            })?;
        }
        Board::from_game(Position::new(n), &[], drawing, settings)
    }

    /// The cells a curve of this drawer runs through, from its start to its end.
    fn curve_cells(&self, spline: &Spline) -> Vec<CellPos> {
        if let Some(cells) = self.cells.get(&fingerprint(spline)) {
            return cells.clone();
        }
        let mut res = Vec::new();
        for piece in spline.pieces() {
            let (a, b) = (self.cell_of(piece.bez.p0), self.cell_of(piece.bez.p3));
            let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs());
            let (di, dj) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
            let skip = usize::from(!res.is_empty());
            for k in skip as i32..=steps {
                res.push((a.0 + k * di, a.1 + k * dj));
            }
        }
        res
    }

    /// The raster of a drawing made by this drawer (curves along cell centres).
    fn raster(&self, drawing: &Drawing) -> Vec<Cell> {
        let mut occ = vec![Cell::Free; (self.nx * self.ny) as usize];
        for (e, c) in drawing.curves().iter().enumerate() {
            for q in self.curve_cells(&c.spline) {
                if self.inside(q) {
                    let i = self.idx(q);
                    occ[i] = Cell::Curve(e as u32);
                }
            }
        }
        for s in drawing.spots() {
            let i = self.idx(self.cell_of(s.centre));
            occ[i] = Cell::Spot(s.id);
        }
        occ
    }

    /// Draws one random legal move on `board`, if it finds one it can draw in `tries` attempts.
    ///
    /// # Errors
    /// [`Refused`] if the board refused every move the drawn curve could be: the picture read
    /// back disagrees with `sprouts-topo` (or with this drawer), which is what tests look for.
    pub fn random_move(
        &mut self,
        board: &mut Board,
        tries: usize,
    ) -> Result<Option<DrawnMove>, Refused> {
        for _ in 0..tries {
            if let Some(res) = self.try_move(board)? {
                return Ok(Some(res));
            }
        }
        Ok(None)
    }

    fn try_move(&mut self, board: &mut Board) -> Result<Option<DrawnMove>, Refused> {
        let pos = board.position().clone();
        let drawing = board.drawing().clone();
        let occ = self.raster(&drawing);
        let alive: Vec<SpotId> = pos
            .spots()
            .filter(|(_, l)| l.get() > 0)
            .map(|(s, _)| s)
            .collect();
        if alive.is_empty() {
            return Ok(None);
        }
        let x = alive[self.rng.random_range(0..alive.len())];
        let xc = self.cell_of(drawing.spot(x).expect("spot").centre);
        // Start: a free neighbour of x whose only blocked neighbours are x and its curves, then
        // one more cell straight on that is clear of everything.
        let Some((s, p1)) = self.pick_end(&occ, &drawing, xc, x) else {
            return Ok(None);
        };
        let clear_mask: Vec<bool> = (0..self.nx * self.ny)
            .map(|k| self.is_clear(&occ, (k % self.nx, k / self.nx)))
            .collect();
        let (nx, ny) = (self.nx, self.ny);
        let clear = |q: CellPos| {
            q.0 >= 0 && q.1 >= 0 && q.0 < nx && q.1 < ny && clear_mask[(q.1 * nx + q.0) as usize]
        };
        let dist = self.bfs(p1, &|q| clear(q) && q != s);
        let reachable: Vec<CellPos> = (0..self.nx * self.ny)
            .map(|k| (k % self.nx, k / self.nx))
            .filter(|&q| dist[self.idx(q)] <= self.reach)
            .collect();
        if reachable.is_empty() {
            return Ok(None);
        }
        // The end: a spot with a life (two for a loop) with a good pair of end cells reachable.
        let mut ends: Vec<(SpotId, CellPos, CellPos)> = Vec::new();
        for &y in &alive {
            if y == x && pos.lives(x).map_or(0, |l| l.get()) < 2 {
                continue;
            }
            let yc = self.cell_of(drawing.spot(y).expect("spot").centre);
            for &(di, dj) in &DIRS {
                let t = (yc.0 + di, yc.1 + dj);
                let q = (t.0 + di, t.1 + dj);
                if t == s || q == s || q == p1 || !self.inside(q) || dist[self.idx(q)] > self.reach
                {
                    continue;
                }
                if self.end_ok(&occ, &drawing, yc, y, t) {
                    ends.push((y, t, q));
                }
            }
        }
        if ends.is_empty() {
            return Ok(None);
        }
        let (y, t, q) = ends[self.rng.random_range(0..ends.len())];
        // Through a random waypoint, the second leg kept a cell away from the first.
        let w = reachable[self.rng.random_range(0..reachable.len())];
        let Some(leg1) = self.path(&dist, p1, w) else {
            return Ok(None);
        };
        let mut banned: Vec<CellPos> = vec![s, t];
        for &c in &leg1[..leg1.len() - 1] {
            if (c.0 - w.0).abs() + (c.1 - w.1).abs() > 1 {
                banned.push(c);
                for &(di, dj) in &DIRS {
                    let n = (c.0 + di, c.1 + dj);
                    if (n.0 - w.0).abs() + (n.1 - w.1).abs() > 1 {
                        banned.push(n);
                    }
                }
            }
        }
        let dist2 = self.bfs(w, &|c| clear(c) && !banned.contains(&c));
        let Some(leg2) = self.path(&dist2, w, q) else {
            return Ok(None);
        };
        let mut cells = vec![s];
        cells.extend_from_slice(&leg1);
        cells.extend_from_slice(&leg2[1..]);
        cells.push(t);
        // Cells of the curve that are not consecutive may not be side by side, nor corner to
        // corner unless they are two apart (a staircase): otherwise the free cells between them
        // would not be connected as the free space is. The two ends of a loop are exempt.
        let m = cells.len() - 1;
        for a in 0..cells.len() {
            for b in a + 2..cells.len() {
                let (p, r) = (cells[a], cells[b]);
                let (di, dj) = ((p.0 - r.0).abs(), (p.1 - r.1).abs());
                let near = if b - a == 2 {
                    di + dj <= 1
                } else {
                    di.max(dj) <= 1
                };
                if near && !(x == y && a == 0 && b == m) {
                    return Ok(None);
                }
            }
        }
        let yc = self.cell_of(drawing.spot(y).expect("spot").centre);
        let route = Route {
            x: (x, xc),
            y: (y, yc),
            cells: &cells,
        };
        self.play(board, &pos, &drawing, &occ, &route)
    }

    /// Whether a cell is free and has no blocked cell among its eight neighbours.
    fn is_clear(&self, occ: &[Cell], q: CellPos) -> bool {
        if !self.inside(q) || occ[self.idx(q)] != Cell::Free {
            return false;
        }
        for di in -1..=1 {
            for dj in -1..=1 {
                // The ring of cells along the grid's edge stays free, so that flood fills go
                // round everything as the plane does.
                let r = (q.0 + di, q.1 + dj);
                if !self.inside(r) || occ[self.idx(r)] != Cell::Free {
                    return false;
                }
            }
        }
        true
    }

    /// A random start at spot `sp` (cell `sc`): the cell beside the spot and the one beyond.
    fn pick_end(
        &mut self,
        occ: &[Cell],
        drawing: &Drawing,
        sc: CellPos,
        sp: SpotId,
    ) -> Option<(CellPos, CellPos)> {
        let mut options = Vec::new();
        for &(di, dj) in &DIRS {
            let t = (sc.0 + di, sc.1 + dj);
            if self.end_ok(occ, drawing, sc, sp, t) {
                options.push((t, (t.0 + di, t.1 + dj)));
            }
        }
        (!options.is_empty()).then(|| options[self.rng.random_range(0..options.len())])
    }

    /// Whether `t`, beside spot `sp` at `sc`, can be the first cell of a curve there: free, its
    /// blocked neighbours only the spot and cells of the spot's curves right beside the spot,
    /// and the cell beyond it clear.
    fn end_ok(&self, occ: &[Cell], drawing: &Drawing, sc: CellPos, sp: SpotId, t: CellPos) -> bool {
        if !self.inside(t) || occ[self.idx(t)] != Cell::Free {
            return false;
        }
        for di in -1..=1 {
            for dj in -1..=1 {
                let r = (t.0 + di, t.1 + dj);
                if !self.inside(r) {
                    return false;
                }
                match occ[self.idx(r)] {
                    Cell::Free => {}
                    Cell::Spot(id) => {
                        if id != sp {
                            return false;
                        }
                    }
                    Cell::Curve(e) => {
                        let c = &drawing.curves()[e as usize];
                        let near = (r.0 - sc.0).abs().max((r.1 - sc.1).abs()) <= 1;
                        if !(near && (c.from == sp || c.to == sp)) {
                            return false;
                        }
                    }
                }
            }
        }
        let beyond = (2 * t.0 - sc.0, 2 * t.1 - sc.1);
        self.is_clear(occ, beyond)
    }

    /// Breadth-first distances from `from` over the cells `ok` accepts (4-connected).
    fn bfs(&self, from: CellPos, ok: &dyn Fn(CellPos) -> bool) -> Vec<u32> {
        let mut dist = vec![u32::MAX; (self.nx * self.ny) as usize];
        if !ok(from) {
            return dist;
        }
        dist[self.idx(from)] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            let d = dist[self.idx(c)];
            for &(di, dj) in &DIRS {
                let n = (c.0 + di, c.1 + dj);
                if self.inside(n) && dist[self.idx(n)] == u32::MAX && ok(n) {
                    dist[self.idx(n)] = d + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// A random shortest path from `from` to `to` down the distances of a search from `from`.
    fn path(&mut self, dist: &[u32], from: CellPos, to: CellPos) -> Option<Vec<CellPos>> {
        if !self.inside(to) || dist[self.idx(to)] == u32::MAX {
            return None;
        }
        let mut res = vec![to];
        let mut c = to;
        while c != from {
            let d = dist[self.idx(c)];
            let options: Vec<CellPos> = DIRS
                .iter()
                .map(|&(di, dj)| (c.0 + di, c.1 + dj))
                .filter(|&n| self.inside(n) && dist[self.idx(n)].wrapping_add(1) == d)
                .collect();
            c = options[self.rng.random_range(0..options.len())];
            res.push(c);
        }
        res.reverse();
        Some(res)
    }

    /// Works out the move the cells draw and plays it on the board.
    fn play(
        &mut self,
        board: &mut Board,
        pos: &Position,
        drawing: &Drawing,
        occ: &[Cell],
        route: &Route<'_>,
    ) -> Result<Option<DrawnMove>, Refused> {
        let cells = route.cells;
        let ((x, xc), (y, yc)) = (route.x, route.y);
        let m = cells.len() - 1;
        let k = m / 2;
        // The corners the curve leaves and reaches.
        let from_corners = self.corners(pos, drawing, occ, x, xc, cells[0]);
        let to_corners = self.corners(pos, drawing, occ, y, yc, cells[m]);
        // The raster after drawing: the free cells on the right of the curve (from x to y) are
        // the region of B_a = [x, .., y, z], which walks the new curve from y back to x.
        let mut after = occ.to_vec();
        for &c in cells {
            let i = self.idx(c);
            after[i] = Cell::Curve(u32::MAX);
        }
        let labels = self.flood(&after);
        let (a, b) = (cells[k], cells[k + 1]);
        let right = (a.0 + (b.1 - a.1), a.1 - (b.0 - a.0));
        if !self.inside(right) || after[self.idx(right)] != Cell::Free {
            return Ok(None);
        }
        let left = (a.0 - (b.1 - a.1), a.1 + (b.0 - a.0));
        if !self.inside(left) || after[self.idx(left)] != Cell::Free {
            return Ok(None);
        }
        let (right_label, left_label) = (labels[self.idx(right)], labels[self.idx(left)]);
        // A loop from a corner back to the same corner: B_a = [x, z] is the face of the loop
        // alone, the side away from x's other curves (the drawing direction does not decide).
        let x_curve_cells: Vec<CellPos> = DIRS
            .iter()
            .map(|&(di, dj)| (xc.0 + di, xc.1 + dj))
            .filter(|&r| self.inside(r) && matches!(occ[self.idx(r)], Cell::Curve(_)))
            .collect();
        let beside = |c: CellPos, label: u32| {
            DIRS.iter().any(|&(di, dj)| {
                let n = (c.0 + di, c.1 + dj);
                self.inside(n) && after[self.idx(n)] == Cell::Free && labels[self.idx(n)] == label
            })
        };
        if std::env::var("GRID_DEBUG").is_ok() {
            let out = self.raster_text(&after, &labels);
            eprintln!("{out}x {x} y {y} right {right:?} {right_label} left {left:?} {left_label}");
        }
        let loop_alone = if x_curve_cells.iter().any(|&c| beside(c, right_label)) {
            left_label
        } else {
            right_label
        };
        let candidates = self.candidate_moves(
            pos,
            drawing,
            (&after, &labels),
            (&from_corners, &to_corners),
            (right_label, loop_alone),
        );
        if candidates.is_empty() {
            return Ok(None);
        }
        let mut keys: Vec<_> = candidates
            .iter()
            .filter_map(|mv| pos.play(mv).ok().map(|p| p.game_key()))
            .collect();
        keys.sort();
        keys.dedup();
        let start = drawing.spot(x).expect("spot").centre;
        let end = drawing.spot(y).expect("spot").centre;
        let mut first = vec![start];
        first.extend(cells[..=k].iter().map(|&c| self.centre(c)));
        let mut second: Vec<Point> = cells[k..].iter().map(|&c| self.centre(c)).collect();
        second.push(end);
        let mut reason = String::new();
        let mut mismatch = false;
        let lattice = (polyline(&first), polyline(&second));
        let (Ok(lattice_a), Ok(lattice_b)) = lattice else {
            return Ok(None);
        };
        let mut shapes = Vec::new();
        if self.smooth
            && let (Some(a), Some(b)) = (
                fitted(&first, MAX_STRAY * self.cell),
                fitted(&second, MAX_STRAY * self.cell),
            )
        {
            shapes.push((a, b));
        }
        shapes.push((lattice_a, lattice_b));
        let mut cells_a = vec![xc];
        cells_a.extend_from_slice(&cells[..=k]);
        let mut cells_b = cells[k..].to_vec();
        cells_b.push(yc);
        'moves: for mv in &candidates {
            let words = mv.describe(pos);
            for (a, b) in &shapes {
                let res = board.play(mv, |d, ctx| -> Result<(), DrawingError> {
                    d.add_move_curves(
                        (ctx.from, ctx.new_spot, ctx.to),
                        a.clone(),
                        b.clone(),
                        ctx.move_index,
                        ctx.spot_radius,
                    )?;
                    Ok(())
                });
                match res {
                    Ok(()) => {
                        self.cells.insert(fingerprint(a), cells_a);
                        self.cells.insert(fingerprint(b), cells_b);
                        return Ok(Some(DrawnMove {
                            words,
                            candidates: keys.len(),
                        }));
                    }
                    // The smoothed curve touches something: try the polyline.
                    Err(TransactionError::Picture(e)) => reason = e.to_string(),
                    Err(TransactionError::Mismatch(m)) => {
                        reason = m.to_string();
                        mismatch = true;
                        continue 'moves;
                    }
                    Err(e) => {
                        reason = e.to_string();
                        continue 'moves;
                    }
                }
            }
        }
        // Smoothed curves of earlier moves may stray from their cells far enough to meet a new
        // lattice curve: in smooth mode a curve that meets something is a move not drawn. A
        // position that differs from the one intended is always reported.
        if self.smooth && !mismatch {
            return Ok(None);
        }
        let mut tried = drawing.clone();
        if let (Ok(a), Ok(b)) = (polyline(&first), polyline(&second)) {
            let _ = tried.add_move_curves((x, pos.next_spot(), y), a, b, 0, 2.0);
        }
        Err(Refused {
            moves: candidates.iter().map(|m| m.describe(pos)).collect(),
            reason,
            drawing: tried,
        })
    }

    /// The raster `after` as text, a line a row: free cells by the letter of their label in
    /// `labels`, spots `O`, the new curve `*`, other curves `#` (for debugging).
    fn raster_text(&self, after: &[Cell], labels: &[u32]) -> String {
        let mut out = String::new();
        for j in 0..self.ny {
            for i in 0..self.nx {
                let c = (i, j);
                out.push(match after[self.idx(c)] {
                    Cell::Free => (b'a' + (labels[self.idx(c)] % 26) as u8) as char,
                    Cell::Spot(_) => 'O',
                    Cell::Curve(u32::MAX) => '*',
                    Cell::Curve(_) => '#',
                });
            }
            out.push('\n');
        }
        out
    }

    /// The distinct legal moves the cells can draw: from a corner of `from_corners` to one of
    /// `to_corners` in the same region, with (between two corners of one boundary) the
    /// region's other boundaries that touch the free cells labelled `right_label` on the
    /// curve's right in the raster `after` (`loop_alone` for a loop from a corner back to
    /// itself).
    fn candidate_moves(
        &self,
        pos: &Position,
        drawing: &Drawing,
        (after, labels): (&[Cell], &[u32]),
        (from_corners, to_corners): (&[Corner], &[Corner]),
        (right_label, loop_alone): (u32, u32),
    ) -> Vec<Move> {
        let mut candidates: Vec<Move> = Vec::new();
        for &cx in from_corners {
            for &cy in to_corners {
                let (Some(rx), Some(ry)) = (pos.region_of(cx.boundary), pos.region_of(cy.boundary))
                else {
                    continue;
                };
                if rx != ry {
                    continue;
                }
                let mut side_a: Vec<BoundaryId> = Vec::new();
                let side_a_label = if cx == cy { loop_alone } else { right_label };
                if cx.boundary == cy.boundary {
                    let region = pos.region(rx).expect("region");
                    for bd in region.boundaries() {
                        if bd.id() != cx.boundary
                            && self.touches(drawing, after, labels, bd.corners(), side_a_label)
                        {
                            side_a.push(bd.id());
                        }
                    }
                }
                if let Ok(mv) = pos.make_move(cx, cy, &side_a)
                    && !candidates.contains(&mv)
                {
                    candidates.push(mv);
                }
            }
        }
        candidates
    }

    /// The corners of spot `sp` (cell `sc`) whose angle holds the cell `t` beside it, matched by
    /// the spots before and after the corner on the walk of the region on the left.
    fn corners(
        &self,
        pos: &Position,
        drawing: &Drawing,
        occ: &[Cell],
        sp: SpotId,
        sc: CellPos,
        t: CellPos,
    ) -> Vec<Corner> {
        // The curve ends at the spot by increasing angle, with the spot at the other end.
        let mut ends: Vec<(usize, SpotId)> = Vec::new();
        for (d, &(di, dj)) in DIRS.iter().enumerate() {
            let r = (sc.0 + di, sc.1 + dj);
            if !self.inside(r) {
                continue;
            }
            if let Cell::Curve(e) = occ[self.idx(r)] {
                let c = &drawing.curves()[e as usize];
                let cs = self.curve_cells(&c.spline);
                if c.from == sp && cs.get(1) == Some(&r) {
                    ends.push((d, c.to));
                } else if c.to == sp && cs.len() >= 2 && cs[cs.len() - 2] == r {
                    ends.push((d, c.from));
                }
            }
        }
        if ends.is_empty() {
            return pos.corners_of(sp);
        }
        let dt = DIRS
            .iter()
            .position(|&(di, dj)| (sc.0 + di, sc.1 + dj) == t)
            .expect("t is beside the spot");
        // The last end at or before the direction of t, cyclically; the angle from it to the
        // next end belongs to the walk that leaves along it and arrives along the next one.
        let at = ends
            .iter()
            .rposition(|&(d, _)| d <= dt)
            .unwrap_or(ends.len() - 1);
        let next = ends[at].1;
        let prev = ends[(at + 1) % ends.len()].1;
        pos.corners_of(sp)
            .into_iter()
            .filter(|c| {
                let b = pos.boundary(c.boundary).expect("boundary").corners();
                let n = b.len();
                let i = c.index as usize;
                n >= 2 && b[(i + n - 1) % n] == prev && b[(i + 1) % n] == next
            })
            .collect()
    }

    /// Labels of the 4-connected components of free cells.
    fn flood(&self, occ: &[Cell]) -> Vec<u32> {
        let mut labels = vec![u32::MAX; occ.len()];
        let mut next = 0;
        for start in 0..occ.len() {
            if occ[start] != Cell::Free || labels[start] != u32::MAX {
                continue;
            }
            labels[start] = next;
            let mut stack = vec![start];
            while let Some(k) = stack.pop() {
                let c = ((k as i32) % self.nx, (k as i32) / self.nx);
                for &(di, dj) in &DIRS {
                    let n = (c.0 + di, c.1 + dj);
                    if self.inside(n) {
                        let i = self.idx(n);
                        if occ[i] == Cell::Free && labels[i] == u32::MAX {
                            labels[i] = next;
                            stack.push(i);
                        }
                    }
                }
            }
            next += 1;
        }
        labels
    }

    /// Whether the spots of a boundary, or the curves at them, border the free cells labelled
    /// `label`.
    fn touches(
        &self,
        drawing: &Drawing,
        occ: &[Cell],
        labels: &[u32],
        spots: &[SpotId],
        label: u32,
    ) -> bool {
        let borders = |c: CellPos| {
            DIRS.iter().any(|&(di, dj)| {
                let n = (c.0 + di, c.1 + dj);
                self.inside(n) && occ[self.idx(n)] == Cell::Free && labels[self.idx(n)] == label
            })
        };
        for &s in spots {
            if borders(self.cell_of(drawing.spot(s).expect("spot").centre)) {
                return true;
            }
        }
        drawing
            .curves()
            .iter()
            .filter(|c| spots.contains(&c.from) || spots.contains(&c.to))
            .any(|c| self.curve_cells(&c.spline).into_iter().any(borders))
    }
}

/// A smooth spline near the polyline through `points` (a lattice path): fitted within 3
/// pixels to every third point, leaving and arriving along the first and last legs; fitted
/// again to every second point and then to every point if it strays more than `max_stray` from
/// the polyline anywhere; `None` if no fit stays that near, or the fit fails.
///
/// The stray bound is what lets the drawer read moves off its raster (see [`MAX_STRAY`]).
/// Between the points it was fitted to, a fit may swing round a neighbouring spot and draw
/// another move than its lattice path.
fn fitted(points: &[Point], max_stray: f64) -> Option<Spline> {
    let n = points.len();
    if n < 4 {
        return None;
    }
    let near_path = |p: Point| {
        points
            .windows(2)
            .any(|w| point_segment_distance(p, w[0], w[1]) <= max_stray)
    };
    let stays_near = |spline: &Spline| {
        spline.pieces().iter().all(|piece| {
            (0..=STRAY_SAMPLES)
                .all(|k| near_path(piece.bez.eval(f64::from(k) / f64::from(STRAY_SAMPLES))))
        })
    };
    for step in [3, 2, 1] {
        let mut sample: Vec<Point> = points[..n - 1].iter().step_by(step).copied().collect();
        sample.push(points[n - 1]);
        let Ok(fit) = fit_clamped(
            &sample,
            points[1] - points[0],
            points[n - 1] - points[n - 2],
            3.0,
        ) else {
            continue;
        };
        if fit.spline.start() == points[0]
            && fit.spline.end() == points[n - 1]
            && stays_near(&fit.spline)
        {
            return Some(fit.spline);
        }
    }
    None
}

/// How far, in cells, a smoothed curve may stray from its lattice path.
///
/// A lattice path keeps a free cell between its cells and every other spot or curve cell, and
/// between its own cells that are not consecutive, so away from its two ends every other thing
/// is at least two cells from it. A tube of under one cell round the path therefore meets no
/// other spot and no other tube there, and a curve inside it is the path's curve up to a
/// deformation that meets nothing: the raster of lattice cells tells its move, and curves drawn
/// later along the lattice stay clear of it. At its ends the fit leaves and reaches its spots
/// along the lattice legs; a curve that meets a neighbour there is refused by the board as a
/// crossing, not read as another move.
const MAX_STRAY: f64 = 0.875;

/// Points a fitted piece is checked at against its polyline (pieces span a few cells, so the
/// samples are well under a pixel apart).
const STRAY_SAMPLES: u32 = 64;

/// A uniformly random legal move of `pos` (one draw from `rng`), or `None` when the game is
/// over (no draw then): the random games of the router's tests and examples.
pub fn random_move(pos: &Position, rng: &mut impl Rng) -> Option<Move> {
    let moves: Vec<Move> = pos.moves().collect();
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.random_range(0..moves.len())].clone())
}

/// A spline of straight pieces through points, with runs in one direction merged.
///
/// # Errors
/// [`DrawingError::BadSpline`] if two consecutive points coincide or there are fewer than two.
pub fn polyline(points: &[Point]) -> Result<Spline, DrawingError> {
    let mut corners = vec![points[0]];
    for k in 1..points.len() {
        if k + 1 < points.len() {
            let (a, b, c) = (points[k - 1], points[k], points[k + 1]);
            let (u, v) = (b - a, c - b);
            if u.perp(&v) == 0.0 && u.dot(&v) > 0.0 {
                continue;
            }
        }
        corners.push(points[k]);
    }
    let pieces: Vec<Piece> = corners
        .windows(2)
        .map(|w| Piece::new(CubicBez::line(w[0], w[1]), (w[1] - w[0]).norm()))
        .collect();
    Spline::new(pieces).map_err(DrawingError::BadSpline)
}
