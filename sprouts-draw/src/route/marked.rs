//! Marked routes (spec 3.3): which boundaries a route puts on each side, judged on the route
//! itself ("the move performed virtually"), and the rays of the parity search.
//!
//! A one-boundary move from corner `x` to corner `y` of boundary `B` splits its region into the
//! region of `B_a = [x, .., y, z]` and that of `B_b`. The walk of `B_a` runs along `B` from `x`
//! to `y` (the *arc*) and back along the new curve, with its region on the left. So for a route
//! `P` from `x` to `y`, the closed polygon `Γ = arc + reverse(P)` has the region of `B_a` on its
//! left: inside `Γ` if `Γ` turns counter-clockwise (positive area in the y-up frame of
//! [`crate::Analysis`]), outside otherwise. A loop through one corner has no arc: then `B_a` is
//! the side of the loop away from the rest of `B` (either side for a spot with no curve).

use sprouts_geom::{Point, Spline, Vector, certified, signed_area};
use sprouts_topo::{BoundaryId, Corner, Position, SpotId};

use super::BoardView;
use super::fit::new_spot_cut;
use super::parity::{Ray, add_to_basis, in_span};
use super::planner::{Cell, FreeGrid, Scene, Terminal, Wall};
use crate::analyse::Analysed;
use crate::analyse::{Analysis, BoundaryPicture};

/// How the `B_a` side of a route is decided.
#[derive(Clone, Debug)]
enum Kind {
    /// Two different corners: by the orientation of `Γ`.
    Arc,
    /// A loop through one corner of a spot with curves: the side away from this point of `B`.
    LoopAwayFrom(Point),
    /// A loop at a spot with no curve: either side.
    LoopAtSeed,
}

/// The other boundaries of a one-boundary move's region and how a route sorts them.
#[derive(Clone, Debug)]
pub(crate) struct Enclosure {
    /// The region's boundaries other than the move's, with a point of each.
    pub others: Vec<(BoundaryId, Point)>,
    /// The arc of `B` from `x` to `y` (empty for a loop through one corner).
    arc: Vec<Point>,
    kind: Kind,
}

impl Enclosure {
    pub(crate) fn new(
        pos: &Position,
        analysis: &Analysis,
        scene: &Scene,
        from: Corner,
        to: Corner,
    ) -> Option<Enclosure> {
        let region = pos.region_of(from.boundary)?;
        let mut others = Vec::new();
        for b in pos.region(region)?.boundaries() {
            if b.id() == from.boundary {
                continue;
            }
            let spot = *b.corners().first()?;
            let (c, _) = scene.spot(spot)?;
            others.push((b.id(), c));
        }
        let (arc, kind) = match analysis.boundary(from.boundary)? {
            BoundaryPicture::Spot(_) => (Vec::new(), Kind::LoopAtSeed),
            BoundaryPicture::Walk(hs) => {
                let n = hs.len();
                let (i, j) = (from.index as usize, to.index as usize);
                if i == j {
                    let poly = scene.half_edge_polyline(hs[i]);
                    let mid = poly[poly.len() / 2];
                    (Vec::new(), Kind::LoopAwayFrom(mid))
                } else {
                    let mut arc = Vec::new();
                    let mut k = i;
                    while k != j {
                        let poly = scene.half_edge_polyline(hs[k]);
                        if arc.is_empty() {
                            arc.extend(poly);
                        } else {
                            arc.extend(poly.into_iter().skip(1));
                        }
                        k = (k + 1) % n;
                    }
                    (arc, Kind::Arc)
                }
            }
        };
        Some(Enclosure { others, arc, kind })
    }

    /// The arc of `B` from `x` to `y`, its region on the left in the y-up frame (empty for a
    /// loop through one corner).
    pub(crate) fn arc(&self) -> &[Point] {
        &self.arc
    }

    /// The closed polygon `Γ` of a route from `x` to `y`.
    fn gamma(&self, path: &[Point]) -> Vec<Point> {
        let mut g = self.arc.clone();
        if g.is_empty() {
            g.extend_from_slice(path);
        } else {
            // The arc ends where the route ends; go back along the route.
            g.extend(path.iter().rev().skip(1));
        }
        g.pop(); // the polygon closes implicitly
        g
    }

    /// For each other boundary, whether it is inside `Γ`.
    pub(crate) fn inside(&self, path: &[Point]) -> Vec<bool> {
        let g = self.gamma(path);
        self.others
            .iter()
            .map(|&(_, p)| certified::winding_number(p, &g).is_some_and(|w| w != 0))
            .collect()
    }

    /// The ways the route may sort the other boundaries onto the `B_a` side (one, or two for
    /// a loop at a seed).
    pub(crate) fn a_sides(&self, path: &[Point]) -> Vec<Vec<bool>> {
        let ins = self.inside(path);
        let flip: Vec<bool> = ins.iter().map(|&b| !b).collect();
        match self.kind {
            Kind::Arc => {
                if signed_area(&self.gamma(path)) > 0.0 {
                    vec![ins]
                } else {
                    vec![flip]
                }
            }
            Kind::LoopAwayFrom(q) => {
                let g = self.gamma(path);
                if certified::winding_number(q, &g).is_some_and(|w| w != 0) {
                    vec![flip]
                } else {
                    vec![ins]
                }
            }
            Kind::LoopAtSeed => vec![ins, flip],
        }
    }

    /// The boundaries a sorting puts with `B_a`.
    pub(crate) fn side_a_of(&self, a: &[bool]) -> Vec<BoundaryId> {
        self.others
            .iter()
            .zip(a)
            .filter(|&(_, &x)| x)
            .map(|(&(b, _), _)| b)
            .collect()
    }

    /// A ray from other boundary `k` out of the window, and the parity of the arc's crossings
    /// with it.
    pub(crate) fn ray(&self, k: usize, scene: &Scene) -> (Ray, bool) {
        let p = self.others[k].1;
        let mut best: Option<(f64, Ray)> = None;
        for i in 0..16 {
            // Directions off the grid's axes and diagonals, so that the ray meets no cell centre.
            let ang = f64::from(i) * std::f64::consts::PI / 8.0 + 0.123_456_7;
            let (s, c) = ang.sin_cos();
            let tx = if c > 0.0 {
                (scene.width + 1.0 - p.x) / c
            } else if c < 0.0 {
                (-1.0 - p.x) / c
            } else {
                f64::INFINITY
            };
            let ty = if s > 0.0 {
                (scene.height + 1.0 - p.y) / s
            } else if s < 0.0 {
                (-1.0 - p.y) / s
            } else {
                f64::INFINITY
            };
            let t = tx.min(ty).max(0.0) + 1.0;
            let ray = Ray {
                from: p,
                to: Point::new(p.x + t * c, p.y + t * s),
            };
            if best.as_ref().is_none_or(|(bt, _)| t < *bt) {
                best = Some((t, ray));
            }
        }
        let ray = best.expect("sixteen directions").1;
        let arc_parity = ray.parity(&self.arc);
        (ray, arc_parity)
    }
}

/// Whether a route drawn straight from spot to spot (as a route bowed out between two close
/// spots is) keeps to the move's sides: it leaves and arrives through the corners asked for
/// (`Analysis::corner_at` of its first and last legs) and, outside the two end spots' discs,
/// crosses no curve of the picture. Near an end spot the certificate leaves the curves that
/// meet there to the picture's own check; a route that passes to the other side of such a
/// curve just outside the disc would pass the certificate and be refused by that check.
pub(crate) fn keeps_its_sides(
    route: &[Point],
    scene: &Scene,
    analysis: &Analysis,
    (from, to): (&Terminal, &Terminal),
) -> bool {
    let n = route.len();
    if n < 2 {
        return false;
    }
    let corner_ok = |t: &Terminal, p: Point| {
        analysis
            .corner_at(t.spot, p)
            .is_some_and(|c| t.corners.contains(&c))
    };
    if !corner_ok(from, route[1]) || !corner_ok(to, route[n - 2]) {
        return false;
    }
    // The route outside the discs: each leg clipped to the parts farther than the radius from
    // both end spots' centres (a leg inside a disc is the spot's own business).
    let outside =
        |p: Point| (p - from.centre).norm() > from.radius && (p - to.centre).norm() > to.radius;
    let clip = |p: Point, q: Point| -> Option<(Point, Point)> {
        // Bisect towards the first outside point from each end (a disc cuts a short leg once).
        let (po, qo) = (outside(p), outside(q));
        let cut = |inside: Point, out: Point| {
            let (mut lo, mut hi) = (inside, out);
            for _ in 0..40 {
                let m = lo + (hi - lo) * 0.5;
                if outside(m) {
                    hi = m;
                } else {
                    lo = m;
                }
            }
            hi
        };
        match (po, qo) {
            (true, true) => Some((p, q)),
            (false, true) => Some((cut(p, q), q)),
            (true, false) => Some((p, cut(q, p))),
            (false, false) => None,
        }
    };
    let legs: Vec<(Point, Point)> = route.windows(2).filter_map(|w| clip(w[0], w[1])).collect();
    scene.curves.iter().all(|(_, _, pts)| {
        pts.windows(2).all(|s| {
            legs.iter()
                .all(|&(p, q)| !certified::segments_intersect(p, q, s[0], s[1]))
        })
    })
}

/// The walls of a loop through one corner of a spot with curves round marked boundaries (the
/// barrier tree of spec 3.3 drawn along ways with room): a wall from the spot to a root
/// `ra + 3 d0` out in a direction of the corner's sector, and from the root to each marked
/// boundary's point along a way that keeps the clearance of `g` from everything (room for the
/// wall and a strand of the loop on each side). Of five directions spread over the middle half
/// of the sector, the one whose ways are shortest, among those whose ways never come back nearer the spot than the root:
/// a way that turns back over the spot (the way to a far boundary round the end of the spot's
/// own curve, say) closes the spot's sides, so that the loop cannot leave on one side of the
/// wall. The sector's bisector wins ties. `None` when no direction has such ways; the wall
/// direction is returned with the walls, each of half-width `hw`. `g` is the free space the
/// ways keep to: a clearance of `3 d0`, or `1.5 d0` for thin walls where that has no way.
pub(crate) fn loop_walls_round(
    scene: &Scene,
    g: &FreeGrid,
    (ca, ra): (Point, f64),
    (ts, w): (f64, f64),
    inside: &[Point],
    hw: f64,
) -> Option<(Vec<Wall>, Vector)> {
    if inside.is_empty() {
        return None;
    }
    let _span = tracing::debug_span!("loop_walls_round", marks = inside.len()).entered();
    // Open cells of the wide grid within `r` of `p`.
    let near = |p: Point, r: f64| g.open_cells_within(p, r);
    // One Dijkstra from each marked boundary (the ways are read backwards from the roots).
    let fields: Vec<(Vec<f64>, Vec<Cell>)> = inside
        .iter()
        .map(|&p| {
            let r = scene.spots.iter().find(|s| s.1 == p).map_or(0.0, |s| s.2);
            let sources: Vec<(Cell, f64)> = near(p, r + g.d0 + 2.0 * g.cell)
                .into_iter()
                .map(|c| (c, (g.centre(c) - p).norm()))
                .collect();
            g.dijkstra(&sources)
        })
        .collect();
    let reach = ra + 3.0 * scene.d0;
    let mut best: Option<(f64, Vec<Wall>, Vector)> = None;
    // The bisector first, then outwards from it, so that it wins ties; at least a quarter of
    // the sector from its edges (a wall nearer a curve at the spot leaves no room for the
    // strand between them).
    for k in [4, 3, 5, 2, 6] {
        let t = ts + w * f64::from(k) / 8.0;
        let u = Vector::new(t.cos(), t.sin());
        let root = ca + u * reach;
        let starts = near(root, scene.d0 + 3.0 * g.cell);
        let mut walls = vec![(ca, root, hw)];
        let mut total = 0.0;
        let mut ok = true;
        for (&p, (dist, prev)) in inside.iter().zip(&fields) {
            let Some(&start) = starts
                .iter()
                .filter(|&&c| dist[c as usize].is_finite())
                .min_by(|&&x, &&y| {
                    (dist[x as usize] + (g.centre(x) - root).norm())
                        .total_cmp(&(dist[y as usize] + (g.centre(y) - root).norm()))
                })
            else {
                ok = false;
                break;
            };
            total += dist[start as usize] + (g.centre(start) - root).norm();
            let mut way = vec![root];
            let mut at = start;
            loop {
                way.push(g.centre(at));
                at = prev[at as usize];
                if at == Cell::MAX {
                    break;
                }
            }
            way.push(p);
            // Never back nearer the spot than the root (less a cell).
            if way[1..].iter().any(|&q| (q - ca).norm() < reach - g.cell) {
                ok = false;
                break;
            }
            walls.extend(way.windows(2).map(|s| (s[0], s[1], hw)));
        }
        if ok && best.as_ref().is_none_or(|b| total < b.0 - g.cell) {
            best = Some((total, walls, u));
        }
    }
    best.map(|(_, walls, u)| (walls, u))
}

/// The widest way that sorts the other boundaries as `want_inside` says (the refusal of a
/// wrong enclosure, as [`FreeGrid::widest`] is the refusal of no way at all): the largest
/// clearance `t` such that the cells of `grid` that are allowed and keep `t` join a source to
/// a target by a walk whose crossings with each boundary's ray (spec 3.3) have the parity the
/// boundary's side needs, and a cell of that clearance the walk cannot do without (where it
/// is narrowest). `None` if no walk over allowed cells has those parities at all.
///
/// Whether a walk with given parities exists at a clearance is decided without a search
/// (as the parity search's lift does): each connected piece of the cells that keep `t` gets a
/// spanning tree, the parities of each cell's tree path, and a basis of the parities of its
/// cycles; a walk from `s` to `t` in one piece can have exactly the parities of their tree
/// paths plus what the basis spans. The clearance is then bisected over the cells' values.
/// Only the first eight boundaries get rays (seven with `own`; more are rare; the others are
/// then unsorted, and the clearance an upper bound).
///
/// `own`: a ray from a point of the move's own boundary off the arc, and whether that point
/// must be inside `Γ` (which way round the own boundary the route goes: the side of `B_a`).
/// Parities are those of walks, not curves: a walk that crosses itself can have parities no
/// curve has, so the clearance is an upper bound on what a curve has.
pub(crate) fn widest_sorted(
    grid: &FreeGrid,
    e: &Enclosure,
    scene: &Scene,
    (ca, sources): (Point, &[Cell]),
    (cb, targets): (Point, &[Cell]),
    want_inside: &[bool],
    own: Option<(Ray, bool)>,
) -> Option<(f64, Cell)> {
    let _span = tracing::debug_span!("widest_sorted", others = e.others.len()).entered();
    let mut rays = Vec::new();
    let mut want = 0u8;
    let room = if own.is_some() { 7 } else { 8 };
    for (k, &inside) in want_inside
        .iter()
        .enumerate()
        .take(e.others.len().min(room))
    {
        let (ray, arc_parity) = e.ray(k, scene);
        if inside ^ arc_parity {
            want |= 1 << k;
        }
        rays.push(ray);
    }
    if let Some((ray, inside)) = own {
        if inside ^ ray.parity(&e.arc) {
            want |= 1 << rays.len();
        }
        rays.push(ray);
    }
    let bits_of = |p: Point, q: Point| crossing_bits(&rays, p, q);
    let n = grid.nx * grid.ny;
    let edge_bits = ray_edge_bits(grid, &rays);
    let bits = |c: usize, m: usize| -> u8 {
        let key = if c < m { (c, m) } else { (m, c) };
        edge_bits.get(&key).copied().unwrap_or(0)
    };
    let srcs: Vec<(usize, u8)> = sources
        .iter()
        .map(|&c| (c as usize, bits_of(ca, grid.centre(c))))
        .collect();
    let tgts: Vec<(usize, u8)> = targets
        .iter()
        .map(|&c| (c as usize, bits_of(grid.centre(c), cb)))
        .collect();
    let mut piece = vec![u32::MAX; n];
    let mut q = vec![0u8; n];
    let mut queue = std::collections::VecDeque::new();
    // The piece in which a walk with the wanted parities joins a source to a target.
    let mut feasible = |t: f32| -> Option<u32> {
        let keeps = |c: usize| grid.allowed[c] && grid.clear[c] >= t;
        piece.fill(u32::MAX);
        let mut spans: Vec<[u8; 8]> = Vec::new();
        for &(root, _) in &tgts {
            if piece[root] != u32::MAX || !keeps(root) {
                continue;
            }
            let k = spans.len() as u32;
            let mut span = [0u8; 8];
            piece[root] = k;
            q[root] = 0;
            queue.push_back(root);
            while let Some(c) = queue.pop_front() {
                for m in grid.neighbours(c as Cell).map(|(m, _)| m as usize) {
                    if !keeps(m) {
                        continue;
                    }
                    let v = q[c] ^ bits(c, m);
                    if piece[m] == u32::MAX {
                        piece[m] = k;
                        q[m] = v;
                        queue.push_back(m);
                    } else {
                        add_to_basis(&mut span, v ^ q[m]);
                    }
                }
            }
            spans.push(span);
        }
        srcs.iter().find_map(|&(s, bs)| {
            let k = piece[s];
            (k != u32::MAX
                && keeps(s)
                && tgts.iter().any(|&(t, bt)| {
                    piece[t] == k && in_span(&spans[k as usize], q[s] ^ q[t] ^ bs ^ bt ^ want)
                }))
            .then_some(k)
        })
    };
    let levels = clearance_levels(grid);
    // The largest level that is feasible: `lo` feasible, `hi` not (bisection on the index).
    if levels.is_empty() || feasible(levels[0]).is_none() {
        return None;
    }
    let (mut lo, mut hi) = (0, levels.len());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if feasible(levels[mid]).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = levels[lo];
    // A cell of exactly that clearance in the piece the walk is in (without the cells of
    // that clearance there is no such walk, so the walk needs one of them).
    let k = feasible(t)?;
    let at = (0..n)
        .find(|&c| grid.allowed[c] && grid.clear[c] == t && piece[c] == k)
        .unwrap_or(tgts[0].0);
    Some((f64::from(t), at as Cell))
}

/// The rays (by bit) the segment from `p` to `q` crosses.
fn crossing_bits(rays: &[Ray], p: Point, q: Point) -> u8 {
    rays.iter()
        .enumerate()
        .filter(|(_, r)| r.crosses(p, q))
        .fold(0, |acc, (k, _)| acc | (1 << k))
}

/// The rays each edge of `grid` crosses, by its cells `(c, m)`, `c < m`, for the edges that
/// cross any: the four edges forward from each cell (the other four are their neighbours'),
/// tested only for the cells near a ray (an edge is at most `sqrt 2` cells long).
fn ray_edge_bits(grid: &FreeGrid, rays: &[Ray]) -> std::collections::HashMap<(usize, usize), u8> {
    let (nx, ny) = (grid.nx, grid.ny);
    let n = nx * ny;
    // The four edges forward from each cell (the other four are their neighbours'), and the
    // rays each crosses: tested only for the cells near a ray (an edge is at most `sqrt 2`
    // cells long).
    const FORWARD: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
    let mut near_ray = vec![false; n];
    for ray in rays {
        let len = (ray.to - ray.from).norm();
        let steps = (len / (0.5 * grid.cell)).ceil() as usize + 1;
        for s in 0..=steps {
            let p = ray.from + (ray.to - ray.from) * (s as f64 / steps as f64);
            let (ci, cj) = (
                (p.x / grid.cell).floor() as i64,
                (p.y / grid.cell).floor() as i64,
            );
            for j in (cj - 2).max(0)..=(cj + 2).min(ny as i64 - 1) {
                for i in (ci - 2).max(0)..=(ci + 2).min(nx as i64 - 1) {
                    near_ray[j as usize * nx + i as usize] = true;
                }
            }
        }
    }
    let step = |c: usize, d: usize| -> Option<usize> {
        let (di, dj) = FORWARD[d];
        let (i, j) = ((c % nx) as i32 + di, (c / nx) as i32 + dj);
        (i >= 0 && j >= 0 && i < nx as i32 && j < ny as i32).then(|| j as usize * nx + i as usize)
    };
    let mut edge_bits: std::collections::HashMap<(usize, usize), u8> =
        std::collections::HashMap::new();
    for c in (0..n).filter(|&c| near_ray[c]) {
        for d in 0..4 {
            if let Some(m) = step(c, d) {
                let b = crossing_bits(rays, grid.centre(c as Cell), grid.centre(m as Cell));
                if b != 0 {
                    edge_bits.insert((c, m), b);
                }
            }
        }
    }
    edge_bits
}

/// The distinct positive clearances of the grid's allowed cells, ascending: the levels a
/// widest way is bisected over.
fn clearance_levels(grid: &FreeGrid) -> Vec<f32> {
    let mut levels: Vec<f32> = (0..grid.open.len())
        .filter(|&c| grid.allowed[c])
        .map(|c| grid.clear[c])
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    levels.sort_by(f32::total_cmp);
    levels.dedup();
    levels
}

/// The picture's own check (spec 2.3, [`crate::analyse()`]) of the picture with the move's
/// new curve in it, cut at arc length `cut_at` for the new spot, before the move is played:
/// what it refuses (a curve that crosses or touches itself, curves that touch or cross, a
/// curve through a spot, two curve ends leaving a spot in one direction) the board's
/// transaction would refuse too. The clearance certificate measures the curve against the
/// others, leaving the curves at its end spots to this check, and not against itself: a
/// fitted spline that turns back on itself in a cusp far below the pixel (a hairpin of the
/// band round the tip of a loop's thin wall, say), or that crosses a curve at its end spot
/// just outside the spot's disc, passes it. Asked here, such a curve is refused while the
/// route as found can still be fitted instead.
///
/// The picture passed is returned with its analysis, for the board's transaction: the move
/// is then read off the picture once (the transaction still makes its own picture, and takes
/// this reading only for a picture equal to it).
pub(crate) fn picture_check(
    view: &BoardView<'_>,
    (a, b): (SpotId, SpotId),
    spline: &Spline,
    cut_at: f64,
) -> Result<Analysed, String> {
    let _span = tracing::debug_span!("picture_check").entered();
    let cut = new_spot_cut(spline, cut_at).map_err(|e| e.to_string())?;
    let mut trial = view.drawing.clone();
    let index = view.move_index;
    trial
        .add_move_curves(
            (a, trial.next_spot(), b),
            cut.first,
            cut.second,
            index,
            view.settings.spot_radius,
        )
        .map_err(|e| e.to_string())?;
    Analysed::new(trial).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use sprouts_geom::CubicBez;

    use super::*;
    use crate::{Board, Settings, WorldSize};

    /// The widest sorted way against a slow reference: the parity search itself (A* over
    /// cells and ray parities, with every boundary's ray) on the grid with only the cells
    /// keeping a clearance open, bisected over the same levels. On a real 8-spot position (a
    /// loop at seed 7 that must go round seed 8, in a pocket with a mouth some 5 px wide)
    /// and both ways of sorting its boundaries.
    #[test]
    fn the_widest_sorted_way_agrees_with_the_parity_search() {
        let saved = include_str!("../../tests/data/loop_round_a_seed_through_a_narrow_mouth.json");
        let board = Board::from_json(saved).expect("the saved game loads");
        let pos = board.position();
        let mv = pos.moves().nth(11).expect("the move");
        let scene = Scene::new(board.drawing(), board.settings());
        let a = pos.spot_at(mv.from()).expect("a spot");
        let (ca, ra) = scene.spot(a).expect("its centre");
        let t = Terminal {
            spot: a,
            centre: ca,
            radius: ra,
            corners: vec![mv.from()],
        };
        let grid = FreeGrid::new(&scene, board.analysis(), std::slice::from_ref(&t), &[]);
        let cells = grid.terminal_cells(board.analysis(), &t);
        let e = Enclosure::new(pos, board.analysis(), &scene, mv.from(), mv.to()).expect("one");
        assert!(e.others.len() >= 2);
        let m: Vec<bool> = e
            .others
            .iter()
            .map(|(b, _)| mv.side_a().contains(b))
            .collect();
        let flip: Vec<bool> = m.iter().map(|x| !x).collect();
        for want_inside in [m, flip] {
            let fast = widest_sorted(
                &grid,
                &e,
                &scene,
                (ca, &cells),
                (ca, &cells),
                &want_inside,
                None,
            );
            let mut rays = Vec::new();
            let mut want = 0u32;
            for (k, &inside) in want_inside.iter().enumerate() {
                let (ray, arc_parity) = e.ray(k, &scene);
                if inside ^ arc_parity {
                    want |= 1 << k;
                }
                rays.push(ray);
            }
            let found = |level: f32| {
                let mut g = grid.clone();
                for c in 0..g.open.len() {
                    g.open[c] = g.allowed[c] && g.clear[c] >= level;
                }
                let srcs: Vec<Cell> = cells
                    .iter()
                    .copied()
                    .filter(|&c| g.open[c as usize])
                    .collect();
                super::super::parity::parity_search(
                    &g,
                    ca,
                    &srcs,
                    ca,
                    &srcs,
                    &rays,
                    want,
                    usize::MAX,
                )
                .is_some()
            };
            let levels = clearance_levels(&grid);
            let slow = if found(levels[0]) {
                let (mut lo, mut hi) = (0, levels.len());
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2;
                    if found(levels[mid]) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                Some(f64::from(levels[lo]))
            } else {
                None
            };
            assert_eq!(fast.map(|w| w.0), slow, "{want_inside:?}");
            if let Some((w, at)) = fast {
                assert_eq!(f64::from(grid.clear[at as usize]), w);
            }
        }
    }

    /// The picture's check before play: a straight curve between two seeds passes, a cubic
    /// whose control polygon makes it loop over itself (`b1` beyond `b3`, `b2` behind `b0`)
    /// is refused as the transaction would refuse it, and the board is untouched.
    #[test]
    fn the_picture_check_refuses_a_curve_that_crosses_itself() {
        let board =
            Board::new(2, WorldSize::new(1200.0, 800.0), Settings::default()).expect("a board");
        let before = board.to_json();
        let spots: Vec<(SpotId, Point)> = board
            .drawing()
            .spots()
            .iter()
            .map(|s| (s.id, s.centre))
            .collect();
        let ((a, pa), (b, pb)) = (spots[0], spots[1]);
        let v = (pb - pa) * 0.25;
        let n = Vector::new(-v.y, v.x);
        let half = |s: &Spline| 0.5 * sprouts_geom::approx::arc_length(s, 1e-6).expect("length");
        let straight = Spline::from_cubic(
            CubicBez {
                p0: pa,
                p1: pa + (pb - pa) / 3.0,
                p2: pa + (pb - pa) * (2.0 / 3.0),
                p3: pb,
            },
            1.0,
        )
        .expect("a spline");
        assert!(picture_check(&board.view(), (a, b), &straight, half(&straight)).is_ok());
        let looped = Spline::from_cubic(
            CubicBez {
                p0: pa,
                p1: pb + v * 4.0 + n,
                p2: pa - v * 4.0 + n,
                p3: pb,
            },
            1.0,
        )
        .expect("a spline");
        let e = picture_check(&board.view(), (a, b), &looped, half(&looped)).expect_err("crosses");
        assert!(
            e.contains("crosses or touches itself") || e.contains("cross"),
            "{e}"
        );
        assert_eq!(board.to_json(), before);
    }
}
