//! The fourth stage: the grid search for a way (spec 3.2, 3.3). [`find_way`] takes a
//! [`Frame`] and its [`Walls`] and gives a [`Way`]: the person's stroke when it is usable;
//! else the shortest way on the grid for a move that need not sort boundaries; else, for a
//! one-boundary move, the barrier trees (two corners, or a loop's thin wall) and then the
//! marked parity search on walled grids in turn, every candidate judged by the frame; each
//! way shortened within its homotopy class. With no way it refuses with the widest way and
//! what is at its narrowest.

use sprouts_geom::{Point, certified};
use sprouts_topo::{BoundaryId, Corner, Position, SpotId};

use super::frame::Frame;
use super::marked::{self, Enclosure};
use super::parity::{self, Ray};
use super::plan::{Plan, Want};
use super::planner::{Cell, FreeGrid, Obstacle, Scene, Terminal, Wall};
use super::walls::{Walls, arc_walls, ray_out};
use super::{MAX_STATES, Refusal, barrier, crossing, fit};
use crate::analyse::{Analysis, BoundaryPicture};
use crate::drawing::CurveId;

/// How a route was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteMethod {
    /// The person's stroke.
    Stroke,
    /// The shortest way on the grid.
    Shortest,
    /// The shortest way that avoids the barrier trees of spec 3.3.
    Barrier,
    /// The parity search with this many rays.
    Parity(usize),
    /// The person's stroke kept exactly as drawn (heroic mode, spec 4.7).
    Exact,
}

/// A way found on the grid: a polyline from the first spot's centre to the second's that the
/// frame's judge accepts (the relaxation and the certificate take it from here), and how it
/// was found.
pub(super) struct Way {
    /// The polyline, shortened within its homotopy class.
    pub(super) route: Vec<Point>,
    /// How it was found.
    pub(super) method: RouteMethod,
}

/// The way for `frame` in `walls`' free space. `explain`: whether a wrong enclosure is refused
/// with the widest way that sorts the boundaries ([`wrong_enclosure`]: a search per
/// hypothesis over the whole grid, most of the time a refused move takes); tries whose
/// refusal is never shown go without it.
///
/// # Errors
/// [`Refusal::WrongEnclosure`] when there are ways but none sorts the boundaries as the plan
/// wants, [`Refusal::NoPath`] when there is none.
pub(super) fn find_way(
    frame: &Frame<'_>,
    walls: &mut Walls<'_>,
    explain: bool,
) -> Result<Way, Refusal> {
    let mut found = stroke(frame, walls);
    if found.is_none() {
        found = if frame.hypotheses.is_empty() {
            shortest(frame, walls)
        } else {
            sorted(frame, walls)
        };
    }
    found.ok_or_else(|| refusal(frame, walls, explain))
}

/// The stroke as the route, when it leaves and reaches the spots through the right sides,
/// sees its way from point to point through open cells, and the judge accepts it.
fn stroke(frame: &Frame<'_>, walls: &Walls<'_>) -> Option<Way> {
    let Some(stroke) = &frame.plan.stroke else {
        return None;
    };
    if stroke.len() < 2 {
        return None;
    }
    let (ca, ra, cb, rb, d0) = (frame.ca, frame.ra, frame.cb, frame.rb, frame.scene.d0);
    // The stroke is checked against the curves and spots only: a loop's walls guide the
    // search round what it must enclose, and a hand-drawn loop that crosses one (going round
    // close to its own spot) encloses what the judge says it does.
    let unwalled = walls.with_walls(&[]);
    let grid = &unwalled;
    let mut route = vec![ca];
    route.extend(
        stroke
            .iter()
            .copied()
            .filter(|p| (p - ca).norm() > ra + d0 && (p - cb).norm() > rb + d0),
    );
    route.push(cb);
    let usable = route.len() > 2
        && route[1..route.len() - 1]
            .windows(2)
            .all(|w| grid.visible(w[0], w[1]))
        && first_last_ok(
            grid,
            frame.view.analysis,
            &route,
            (&frame.t_from, &frame.t_to),
        );
    (usable && frame.judge(&route)).then_some(Way {
        route,
        method: RouteMethod::Stroke,
    })
}

/// The shortest way on the grid, shortened when the judge still accepts it.
fn shortest(frame: &Frame<'_>, walls: &Walls<'_>) -> Option<Way> {
    let (grid, ca, cb) = (&walls.grid, frame.ca, frame.cb);
    let cells = parity::parity_search(
        grid,
        ca,
        &walls.sources,
        cb,
        &walls.targets,
        &[],
        0,
        MAX_STATES,
    )?;
    let route = polyline(grid, ca, &cells, cb);
    let pulled = string_pull(grid, &route, &frame.scene, &[frame.a, frame.b]);
    let route = if frame.judge(&pulled) { pulled } else { route };
    Some(Way {
        route,
        method: RouteMethod::Shortest,
    })
}

/// A way that sorts the boundaries as the frame's hypotheses say: the barrier trees first
/// (two different corners, or a loop's thin wall), the marked parity search after.
fn sorted(frame: &Frame<'_>, walls: &mut Walls<'_>) -> Option<Way> {
    let e = frame
        .enclosure
        .as_ref()
        .expect("hypotheses need an enclosure");
    let barrier = if !frame.same_corner {
        barrier_between_corners(frame, walls, e)
    } else if let Some(u) = walls.wall_dir {
        barrier_round_the_wall(frame, walls, e, u)
    } else {
        None
    };
    if let Some(route) = barrier {
        return Some(Way {
            route,
            method: RouteMethod::Barrier,
        });
    }
    parity_on_walled_grids(frame, walls, e)
}

/// The clearance the barrier trees keep from a spot of radius `r`.
fn keep(frame: &Frame<'_>, walls: &Walls<'_>, r: f64) -> f64 {
    r + frame.scene.d0 + 2.0 * walls.cell
}

/// The barrier route between two corners: for a computer's move, `B_a` inside with the
/// region side of the arc, or outside without; for a person's marks, the marked boundaries
/// inside, the region side of the arc either way.
fn barrier_between_corners(
    frame: &Frame<'_>,
    walls: &mut Walls<'_>,
    e: &Enclosure,
) -> Option<Vec<Point>> {
    let h = &frame.hypotheses;
    let tries: Vec<(&[bool], bool)> = match frame.plan.want {
        Want::SideA(_) => vec![(&h[0], true), (&h[1], false)],
        _ => vec![(&h[0], true), (&h[0], false)],
    };
    let (keep_a, keep_b) = (keep(frame, walls, frame.ra), keep(frame, walls, frame.rb));
    let Walls {
        grid,
        sources,
        targets,
        ..
    } = walls;
    barrier_route(
        (
            grid,
            &frame.scene,
            frame.view.position(),
            frame.view.analysis,
        ),
        e,
        (frame.plan.from, frame.plan.to),
        (frame.ca, sources, keep_a),
        (frame.cb, targets, keep_b),
        &tries,
        [&[], &[]],
        &|r| frame.judge(r),
        &[frame.a, frame.b],
    )
}

/// A loop through one corner: a thin wall along `u`, the inside tree joined to its far end,
/// the spot's own boundary with the outside. The wall as long as the room allows first (a
/// loop with room inside), then the short one.
///
/// At a seed (no curve, so no boundary of its own to go with the outside) a second thin wall
/// leaves the seed backwards, and its far end is a member of the outside tree: the two walls
/// and the two trees then leave the route no way from one side of the wall to the other but
/// round the whole inside tree. (A wall across the seed's back instead lets the shortest way
/// slip round the seed alone, which the judge refuses, and the loop was left to the parity
/// search and its seven rays.)
fn barrier_round_the_wall(
    frame: &Frame<'_>,
    walls: &Walls<'_>,
    e: &Enclosure,
    u: sprouts_geom::Vector,
) -> Option<Vec<Point>> {
    let (ca, ra, cell) = (frame.ca, frame.ra, walls.cell);
    let lens: Vec<f64> = if 0.75 * walls.wall_reach > 3.5 {
        vec![0.75 * walls.wall_reach, 3.0]
    } else {
        vec![3.0]
    };
    let h = &frame.hypotheses;
    let keep_a = keep(frame, walls, ra);
    let near = |g: &FreeGrid, at: Point| -> Vec<Cell> {
        (0..g.nx * g.ny)
            .map(|c| c as Cell)
            .filter(|&c| (g.centre(c) - at).norm() <= 2.5 * cell && g.allowed[c as usize])
            .collect()
    };
    for k in lens {
        let len = ra + k * frame.scene.d0;
        let root = ca + u * len;
        let mut w = vec![(ca, root, cell)];
        // Behind a seed: a wall reaching past the cells kept free round it, whose end the
        // outside tree holds.
        let back = frame
            .sector_a
            .is_none()
            .then(|| ca - u * (keep_a + 3.0 * cell));
        if let Some(back) = back {
            w.push((ca, back, cell));
        }
        let mut g = walls.with_walls(&w);
        let (srcs, tgts) = walls.ends(&g, Some(u));
        let tip = near(&g, root);
        let behind = back.map(|p| near(&g, p)).unwrap_or_default();
        // At a seed, the boundaries the move names inside first, and only then the others
        // (the same game on the sphere, but not the cluster the move chose).
        let tries: Vec<(&[bool], bool)> = match (&frame.plan.want, frame.sector_a) {
            (Want::SideA(_), None) => vec![(&h[0], true), (&h[1], true)],
            _ => vec![(&h[0], true)],
        };
        if srcs.is_empty() || tgts.is_empty() {
            continue;
        }
        for t in tries {
            let found = barrier_route(
                (
                    &mut g,
                    &frame.scene,
                    frame.view.position(),
                    frame.view.analysis,
                ),
                e,
                (frame.plan.from, frame.plan.to),
                (ca, &srcs, keep_a),
                (frame.cb, &tgts, keep(frame, walls, frame.rb)),
                &[t],
                [&tip, &behind],
                &|r| frame.judge(r),
                &[frame.a, frame.b],
            );
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// The marked parity search ([`marked_search`]) for each hypothesis in turn, on walled grids
/// in turn: the walls round the marks from the sector's bisector (or along ways that do not
/// turn back, or from the arc), the walls along ways that do not turn back (when the first
/// had the bisector's), the plain grid, walls from the arc along ways with room, walls one
/// cell thin. The first route the judge accepts, shortened.
fn parity_on_walled_grids(frame: &Frame<'_>, walls: &Walls<'_>, e: &Enclosure) -> Option<Way> {
    let own_ray = walls.own_ray();
    // The own boundary's curves (a move between two corners of one boundary).
    let own_curves: Vec<Vec<Point>> = match frame.view.analysis.boundary(frame.plan.from.boundary) {
        Some(BoundaryPicture::Walk(hs)) if frame.one_boundary => hs
            .iter()
            .map(|&h| frame.scene.half_edge_polyline(h))
            .collect(),
        _ => Vec::new(),
    };
    let hw = 1.5 * frame.scene.d0;
    for want_inside in &frame.hypotheses {
        let inside: Vec<Point> = e
            .others
            .iter()
            .zip(want_inside)
            .filter(|(_, w)| **w)
            .map(|(o, _)| o.1)
            .collect();
        // The walls from the bisector first: with the walls along ways that do not turn back
        // first, 8 and 12 of 30 random 8-spot games were drawn to the end on two seed sets,
        // against 14 and 11 this way (within noise on the second).
        let bisector_walls = walls.round_marks(&inside, hw, false, walls.wide_grid());
        let walled = bisector_walls
            .clone()
            .or_else(|| walls.round_marks(&inside, hw, true, walls.wide_grid()))
            .map(|(w, u)| walls.walled(&w, Some(u)))
            .or_else(|| {
                let w = arc_walls(e.arc(), &inside, &frame.scene)?;
                Some(walls.walled(&w, None))
            });
        // Last, for a move between two corners of one boundary, the walls from the middle of
        // the arc along ways with room (not straight): a straight wall to a boundary on the far
        // side of the spot's own boundary crosses it and shuts the way, and the parity
        // search's shortest route round such a boundary and round the own boundary the other
        // way is a figure eight.
        let wide_walled = || {
            if inside.is_empty()
                || walls
                    .round_marks(&inside, hw, false, walls.wide_grid())
                    .is_some()
            {
                return None;
            }
            let mut w = arc_walls(e.arc(), &inside, &frame.scene)?;
            // Only when a straight wall crosses the own boundary.
            let crosses = |(p, q, _): &Wall| {
                own_curves.iter().any(|c| {
                    c.windows(2)
                        .any(|s| certified::segments_intersect(*p, *q, s[0], s[1]))
                })
            };
            if !w[1..].iter().any(crosses) {
                return None;
            }
            // The first wall joins the arc to the root of the others.
            w.truncate(1);
            let (_, root, hw) = w[0];
            for &p in &inside {
                let way = super::walls::wide_way(&frame.scene, walls.wide_grid(), root, p)?;
                w.extend(way.windows(2).map(|s| (s[0], s[1], hw)));
            }
            Some(walls.walled(&w, None))
        };
        // Last for a loop, walls one cell thin: where the way to a marked boundary passes a
        // narrow place, both strands and a thick wall do not fit through; along ways with room
        // for the thin wall alone when the ways with room for a thick one are shut.
        let thin_walled = || {
            let (w, u) = walls
                .round_marks(&inside, walls.cell, true, walls.wide_grid())
                .or_else(|| walls.round_marks(&inside, walls.cell, true, walls.narrow_grid()))?;
            Some(walls.walled(&w, Some(u)))
        };
        // The tries in turn: the walled grid, the walls along ways that do not turn back
        // (when the first had others), the plain grid, the wide-walled one, the thin-walled
        // one.
        for k in 0..5 {
            let other: Option<(FreeGrid, Vec<Cell>, Vec<Cell>)>;
            let (g, srcs, tgts): (&FreeGrid, &[Cell], &[Cell]) = match k {
                0 => match &walled {
                    Some((g, s, t)) => (g, s, t),
                    None => continue,
                },
                // The walls along ways that do not turn back, when the first try had the
                // bisector's.
                1 => {
                    other = bisector_walls
                        .as_ref()
                        .and_then(|_| walls.round_marks(&inside, hw, true, walls.wide_grid()))
                        .map(|(w, u)| walls.walled(&w, Some(u)));
                    match &other {
                        Some((g, s, t)) => (g, s, t),
                        None => continue,
                    }
                }
                2 => (&walls.grid, &walls.sources, &walls.targets),
                _ => {
                    other = if k == 3 { wide_walled() } else { thin_walled() };
                    match &other {
                        Some((g, s, t)) => (g, s, t),
                        None => continue,
                    }
                }
            };
            if srcs.is_empty() || tgts.is_empty() {
                continue;
            }
            let Some((route, rays)) = marked_search(
                g,
                &frame.scene,
                e,
                (frame.ca, srcs),
                (frame.cb, tgts),
                want_inside,
                own_ray,
                &|r| frame.judge(r),
            ) else {
                continue;
            };
            if !frame.judge(&route) {
                continue;
            }
            // Shorten within the homotopy class, on the grid it was found on.
            let pulled = string_pull(g, &route, &frame.scene, &[frame.a, frame.b]);
            let route = if frame.judge(&pulled) { pulled } else { route };
            let method = if rays == 0 {
                RouteMethod::Shortest
            } else {
                RouteMethod::Parity(rays)
            };
            return Some(Way { route, method });
        }
    }
    None
}

/// The refusal when no way was found: a wrong enclosure when there is a way at all but none
/// sorts the boundaries, else no path.
fn refusal(frame: &Frame<'_>, walls: &Walls<'_>, explain: bool) -> Refusal {
    let (grid, scene, ca, cb) = (&walls.grid, &frame.scene, frame.ca, frame.cb);
    let (sources, targets) = (&walls.sources, &walls.targets);
    if !frame.hypotheses.is_empty() {
        // Is there a way at all?
        let any = parity::parity_search(grid, ca, sources, cb, targets, &[], 0, MAX_STATES);
        if let (Some(_), Some(e)) = (any, &frame.enclosure) {
            let words = frame.words();
            if !explain {
                return Refusal::WrongEnclosure {
                    words,
                    detail: "no way sorts the boundaries as asked (the widest way not looked for)"
                        .to_owned(),
                    widest: None,
                    needed: scene.d0,
                    spots: Vec::new(),
                    curves: Vec::new(),
                };
            }
            return wrong_enclosure(
                words,
                grid,
                scene,
                e,
                (ca, sources),
                (cb, targets),
                &frame.hypotheses,
                match frame.plan.want {
                    Want::SideA(_) => own_boundary_ray(frame.view.analysis, scene, frame.plan, ca),
                    _ => None,
                },
            );
        }
    }
    no_path(grid, scene, sources, targets)
}

/// The barrier route of spec 3.3: for each way of sorting the boundaries tried (which
/// boundaries are inside, and whether the region side of the arc is), the shortest way that
/// avoids both trees; the shortest of those the judge accepts, shortened.
#[allow(
    clippy::too_many_arguments,
    reason = "the picture, the move's ends and the judge are all needed"
)]
fn barrier_route(
    (grid, scene, pos, analysis): (&mut FreeGrid, &Scene, &Position, &Analysis),
    e: &Enclosure,
    corners: (Corner, Corner),
    (ca, sources, free_a): (Point, &[Cell], f64),
    (cb, targets, free_b): (Point, &[Cell], f64),
    tries: &[(&[bool], bool)],
    extra: [&[Cell]; 2],
    judge: &dyn Fn(&[Point]) -> bool,
    ends: &[SpotId],
) -> Option<Vec<Point>> {
    let others: Vec<BoundaryId> = e.others.iter().map(|o| o.0).collect();
    let bars = barrier::Barriers::new(
        grid,
        scene,
        pos,
        analysis,
        corners,
        &others,
        sources,
        &[(ca, free_a), (cb, free_b)],
    )?;
    let length = |r: &[Point]| r.windows(2).map(|w| (w[1] - w[0]).norm()).sum::<f64>();
    let mut best: Option<(f64, Vec<Point>)> = None;
    for &(want_inside, xy_inside) in tries {
        let searched = bars.with_trees(grid, want_inside, xy_inside, extra, |g| {
            let srcs: Vec<Cell> = sources
                .iter()
                .copied()
                .filter(|&c| g.open[c as usize])
                .collect();
            let tgts: Vec<Cell> = targets
                .iter()
                .copied()
                .filter(|&c| g.open[c as usize])
                .collect();
            if srcs.is_empty() || tgts.is_empty() {
                return None;
            }
            let cells = parity::parity_search(g, ca, &srcs, cb, &tgts, &[], 0, MAX_STATES)?;
            let route = polyline(g, ca, &cells, cb);
            if !judge(&route) {
                return None;
            }
            let pulled = string_pull(g, &route, scene, ends);
            Some(if judge(&pulled) { pulled } else { route })
        });
        let Some(Some(route)) = searched else {
            continue;
        };
        let l = length(&route);
        if best.as_ref().is_none_or(|(bl, _)| l < *bl) {
            best = Some((l, route));
        }
    }
    best.map(|b| b.1)
}

/// Whether a stroke's route leaves and reaches its spots through the right sides.
fn first_last_ok(
    grid: &FreeGrid,
    analysis: &Analysis,
    route: &[Point],
    (ta, tb): (&Terminal, &Terminal),
) -> bool {
    let n = route.len();
    let ok = |t: &Terminal, p: Point| {
        grid.cell_at(p).is_some_and(|c| grid.open[c as usize])
            && analysis
                .corner_at(t.spot, p)
                .is_some_and(|c| t.corners.contains(&c))
    };
    ok(ta, route[1]) && ok(tb, route[n - 2])
}

/// The lazy parity search: the shortest route first, then rays for the boundaries the last
/// candidate put on the wrong side (at most seven).
///
/// A route that runs out and back along the same cells (the shortest way round a boundary at
/// the end of a corridor, from two spots close together) is not a curve: the cells it uses
/// twice are closed with their four neighbours (a wall the route's two strands must keep to
/// either side of, one cell thin: the strip of spec 3.3 along the way out and back) and the
/// search is made again, up to [`SHARED_WALLS`] times.
#[allow(
    clippy::too_many_arguments,
    reason = "the grid, the ends, the marks and the judge are all needed"
)]
fn marked_search(
    grid: &FreeGrid,
    scene: &Scene,
    e: &Enclosure,
    (ca, sources): (Point, &[Cell]),
    (cb, targets): (Point, &[Cell]),
    want_inside: &[bool],
    own: Option<Ray>,
    judge: &dyn Fn(&[Point]) -> bool,
) -> Option<(Vec<Point>, usize)> {
    let mut ray_of: Vec<usize> = Vec::new();
    // The parity wanted on the own boundary's ray, once a route sorted the others right but
    // went round its own boundary the wrong way.
    let mut own_want: Option<bool> = None;
    // The grid with the walls between a route's strands, once there are any.
    let mut walled: Option<FreeGrid> = None;
    let mut walls = 0;
    loop {
        let grid = walled.as_ref().unwrap_or(grid);
        let mut rays = Vec::new();
        let mut want = 0u32;
        for (k, &o) in ray_of.iter().enumerate() {
            let (ray, arc_parity) = e.ray(o, scene);
            rays.push(ray);
            if want_inside[o] ^ arc_parity {
                want |= 1 << k;
            }
        }
        if let (Some(r), Some(w)) = (own, own_want) {
            if w {
                want |= 1 << rays.len();
            }
            rays.push(r);
        }
        let cells = parity::parity_search(grid, ca, sources, cb, targets, &rays, want, MAX_STATES)?;
        let route = polyline(grid, ca, &cells, cb);
        let route = if crossing::is_simple(&route) {
            route
        } else {
            crossing::uncross(&route)
        };
        if !crossing::is_simple(&route) {
            if walls >= SHARED_WALLS {
                return None;
            }
            walls += 1;
            walled = Some(wall_shared_cells(grid, &cells, (sources, targets))?);
            continue;
        }
        let ins = e.inside(&route);
        let wrong: Vec<usize> = (0..ins.len())
            .filter(|&k| ins[k] != want_inside[k])
            .collect();
        if wrong.is_empty() {
            if judge(&route) || own.is_none() || own_want.is_some() || ray_of.len() >= 7 {
                return Some((route, rays.len()));
            }
            // Right inside, wrong way round the spot's own boundary: the other parity there.
            own_want = own.map(|r| !r.parity(&route));
            continue;
        }
        let before = ray_of.len();
        for k in wrong {
            if !ray_of.contains(&k) {
                ray_of.push(k);
            }
        }
        if ray_of.len() == before || ray_of.len() > 7 {
            return None;
        }
    }
}

/// How many times [`marked_search`] walls off the cells a route used twice.
const SHARED_WALLS: usize = 3;

/// `grid` with the cells `cells` visits more than once closed, and their four neighbours
/// (so that no diagonal step slips between them), except the route's ends; `None` if no cell
/// is visited twice.
fn wall_shared_cells(
    grid: &FreeGrid,
    cells: &[Cell],
    (sources, targets): (&[Cell], &[Cell]),
) -> Option<FreeGrid> {
    let mut seen = std::collections::HashMap::new();
    for &c in cells {
        *seen.entry(c).or_insert(0usize) += 1;
    }
    let shared: Vec<Cell> = cells.iter().copied().filter(|c| seen[c] > 1).collect();
    if shared.is_empty() {
        return None;
    }
    let mut g = grid.clone();
    let keep = |c: Cell| sources.contains(&c) || targets.contains(&c);
    for &c in &shared {
        let near = g
            .neighbours(c)
            .filter(|&(_, w)| w <= 1.01 * g.cell)
            .map(|(m, _)| m)
            .collect::<Vec<_>>();
        for m in std::iter::once(c).chain(near) {
            if !keep(m) {
                g.open[m as usize] = false;
                g.allowed[m as usize] = false;
            }
        }
    }
    Some(g)
}

/// A grid route as a polyline: the first spot's centre, the cells' centres, the second's.
fn polyline(grid: &FreeGrid, a: Point, cells: &[Cell], b: Point) -> Vec<Point> {
    let mut pts = Vec::with_capacity(cells.len() + 2);
    pts.push(a);
    pts.extend(cells.iter().map(|&c| grid.centre(c)));
    pts.push(b);
    pts
}

/// The refusal when no route sorts the boundaries as the move must (`hypotheses`, the ways
/// of sorting them that would do): the widest way that sorts them
/// ([`marked::widest_sorted`]), its clearance and what is at its narrowest, as for
/// [`no_path`]; "no candidate route" when even that way keeps the clearance (the search did
/// not find it within its seven rays, or it found walks that cross themselves). `own`: the
/// ray from the own boundary ([`own_boundary_ray`]) for a computer's move, whose two
/// hypotheses also say which way round the own boundary the route goes.
#[allow(
    clippy::too_many_arguments,
    reason = "the grid, the move's ends and what it must sort are all needed"
)]
fn wrong_enclosure(
    words: String,
    grid: &FreeGrid,
    scene: &Scene,
    e: &Enclosure,
    (ca, sources): (Point, &[Cell]),
    (cb, targets): (Point, &[Cell]),
    hypotheses: &[Vec<bool>],
    own: Option<Ray>,
) -> Refusal {
    let widest = hypotheses
        .iter()
        .enumerate()
        .filter_map(|(h, want)| {
            // The own boundary's point is inside `Γ` when `B_a` is outside (the second
            // hypothesis of a computer's move; a person's marks have one, either way round).
            let own = own.map(|r| (r, h == 1));
            marked::widest_sorted(grid, e, scene, (ca, sources), (cb, targets), want, own)
        })
        .max_by(|x, y| x.0.total_cmp(&y.0));
    let (spots, curves) =
        widest.map_or_else(Default::default, |(_, at)| narrowest_at(grid, scene, at));
    let detail = match widest {
        Some((w, _)) if w < scene.d0 => "the way round a boundary is too narrow",
        Some(_) => {
            "a way wide enough crosses the boundaries' rays as the move must, but no candidate route within seven rays was a curve that puts every boundary on its side"
        }
        None => "no way over the free space puts every boundary on its side",
    };
    Refusal::WrongEnclosure {
        words,
        detail: detail.to_owned(),
        widest: widest.map(|w| w.0.max(0.0)),
        needed: scene.d0,
        spots,
        curves,
    }
}

/// A ray from a point of the move's own boundary off the arc (the middle of the first curve
/// of the part the arc leaves out that the arc does not walk too: a tree's curve is walked
/// on both sides; for a loop, the curve leaving its corner), out of the window away from
/// `ca`; `None` for a spot with no curve, or when every curve of that part is on the arc.
fn own_boundary_ray(analysis: &Analysis, scene: &Scene, plan: &Plan, ca: Point) -> Option<Ray> {
    let crate::analyse::BoundaryPicture::Walk(hs) = analysis.boundary(plan.from.boundary)? else {
        return None;
    };
    let (i, j, n) = (plan.from.index as usize, plan.to.index as usize, hs.len());
    if i >= n || j >= n {
        return None;
    }
    let arc: Vec<_> = (0..(j + n - i) % n)
        .map(|k| hs[(i + k) % n].curve())
        .collect();
    let rest = (0..n - arc.len()).map(|k| hs[(j + k) % n]);
    let h = rest.into_iter().find(|h| !arc.contains(&h.curve()))?;
    let poly = scene.half_edge_polyline(h);
    (poly.len() >= 2)
        .then(|| ray_out(poly[poly.len() / 2], ca, scene))
        .flatten()
}

/// The refusal when there is no way: the widest way's clearance and what is at its narrowest.
fn no_path(grid: &FreeGrid, scene: &Scene, sources: &[Cell], targets: &[Cell]) -> Refusal {
    let (widest, at) = grid.widest(sources, targets).unwrap_or((0.0, Cell::MAX));
    let (spots, curves) = narrowest_at(grid, scene, at);
    Refusal::NoPath {
        widest: widest.max(0.0),
        needed: scene.d0,
        spots,
        curves,
    }
}

/// The spots and curves around a way's narrowest cell (none for `Cell::MAX`).
fn narrowest_at(grid: &FreeGrid, scene: &Scene, at: Cell) -> (Vec<SpotId>, Vec<CurveId>) {
    let mut spots = Vec::new();
    let mut curves = Vec::new();
    if at != Cell::MAX {
        // The obstacles around the narrowest cell.
        let p = grid.centre(at);
        let r = 2.0 * scene.d0;
        for dj in -2i32..=2 {
            for di in -2i32..=2 {
                let q = Point::new(
                    p.x + f64::from(di) * grid.cell,
                    p.y + f64::from(dj) * grid.cell,
                );
                if let Some(c) = grid.cell_at(q)
                    && f64::from(grid.clear[c as usize]) < r
                {
                    match grid.near[c as usize] {
                        Obstacle::Spot(k) => spots.push(scene.spots[k as usize].0),
                        Obstacle::Curve(k) => curves.push(CurveId(k)),
                        Obstacle::Edge => {}
                    }
                }
            }
        }
    }
    spots.sort_unstable();
    spots.dedup();
    curves.sort_unstable();
    curves.dedup();
    (spots, curves)
}

/// Shortens a route by straight shortcuts through open cells that go round no spot (so the
/// route keeps its way round everything) and cost no more than what they replace under the
/// planner's clearance-weighted length.
fn string_pull(grid: &FreeGrid, route: &[Point], scene: &Scene, ends: &[SpotId]) -> Vec<Point> {
    let n = route.len();
    if n <= 3 {
        return route.to_vec();
    }
    let others: Vec<Point> = scene
        .spots
        .iter()
        .filter(|s| !ends.contains(&s.0))
        .map(|s| s.1)
        .collect();
    let encloses_nothing = |i: usize, j: usize| {
        let poly: Vec<Point> = route[i..=j].to_vec();
        others
            .iter()
            .all(|&p| certified::winding_number(p, &poly).is_none_or(|w| w == 0))
    };
    // The first and last legs (spot centre to cell) stay.
    let mut out = vec![route[0], route[1]];
    let mut i = 1;
    while i < n - 2 {
        let mut j = i + 1;
        let mut k = i + 2;
        // The shortcut must cost no more than the way it replaces under the planner's
        // clearance-weighted length (so that a route along the middle of free space is
        // straightened, not pulled back against what it passes).
        let mut along = grid.segment_cost(route[i], route[i + 1]);
        while k <= n - 2 && grid.visible(route[i], route[k]) {
            along += grid.segment_cost(route[k - 1], route[k]);
            if grid.segment_cost(route[i], route[k]) > along * 1.02 + 1e-9 {
                break;
            }
            j = k;
            k += 1;
        }
        while j > i + 1 && !encloses_nothing(i, j) {
            j = i + 1 + (j - i - 1) / 2;
        }
        out.push(route[j]);
        i = j;
    }
    out.push(route[n - 1]);
    // A shortcut may cross the route's own other strand (a loop's two sides share the cells).
    if !crossing::is_simple(&out) {
        return route.to_vec();
    }
    // Or pass within a pixel of it: the cells keep the strands apart, a straight shortcut
    // between two cells of one strand does not (a loop's strand cut across the corner where
    // the other comes back to the spot; fitted with its ports, the two crossed).
    let keep = scene.spots.first().map_or(5.0, |s| s.2) + 2.0 * scene.d0;
    let apart = 4.0 * scene.d0;
    let gap = own_gap(&out, apart, keep, scene.d0);
    if gap < scene.d0 && gap < own_gap(route, apart, keep, scene.d0) {
        return route.to_vec();
    }
    out
}

/// The least distance, up to `limit`, between two parts of a route that are at least `apart`
/// apart along it, leaving out the parts within `keep` of its ends (where a loop's two strands
/// meet at their spot); `limit` if there are none closer. The route is sampled every 2 px and
/// the samples bucketed in squares of `limit`, so that only near pairs are measured.
fn own_gap(route: &[Point], apart: f64, keep: f64, limit: f64) -> f64 {
    // Every 2 px, so that a long leg from near an end is measured beyond `keep`.
    let route = &fit::resample(route, 2.0);
    let n = route.len();
    if n < 4 || limit <= 0.0 {
        return limit;
    }
    let (a, b) = (route[0], route[n - 1]);
    let far = |p: Point| (p - a).norm() > keep && (p - b).norm() > keep;
    let mut s = vec![0.0; n];
    for i in 1..n {
        s[i] = s[i - 1] + (route[i] - route[i - 1]).norm();
    }
    let dist = |p: Point, q: Point, u: Point, v: Point| {
        if certified::segments_intersect(p, q, u, v) {
            return 0.0;
        }
        use sprouts_geom::point_segment_distance as d;
        d(p, u, v).min(d(q, u, v)).min(d(u, p, q)).min(d(v, p, q))
    };
    // Segments by the square of their first point (a segment is at most about 2 px long).
    let size = limit + 4.0;
    let key = |p: Point| ((p.x / size).floor() as i64, (p.y / size).floor() as i64);
    let mut buckets: std::collections::HashMap<(i64, i64), Vec<usize>> =
        std::collections::HashMap::new();
    for i in 0..n - 1 {
        if far(route[i]) && far(route[i + 1]) {
            buckets.entry(key(route[i])).or_default().push(i);
        }
    }
    let mut least = limit;
    for i in 0..n - 1 {
        if !far(route[i]) || !far(route[i + 1]) {
            continue;
        }
        let (kx, ky) = key(route[i]);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let Some(js) = buckets.get(&(kx + dx, ky + dy)) else {
                    continue;
                };
                for &j in js {
                    if j > i && s[j] - s[i + 1] >= apart {
                        least = least.min(dist(route[i], route[i + 1], route[j], route[j + 1]));
                    }
                }
            }
        }
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gap between a route's own strands (for the string pull's shortcuts) against a
    /// plain scan of every pair of samples, on hairpins 1.5 to 12 px wide.
    #[test]
    fn a_route_s_own_gap_agrees_with_a_plain_scan() {
        // Hairpins of several widths, with a wiggle, from a spot at the origin and back.
        for (k, width) in [1.5, 3.0, 5.0, 7.0, 12.0].into_iter().enumerate() {
            let mut route = vec![Point::new(0.0, 0.0)];
            for i in 0..=60 {
                let x = 20.0 + 4.0 * f64::from(i);
                route.push(Point::new(x, 0.3 * (x * 0.1 + k as f64).sin()));
            }
            for i in (0..=60).rev() {
                let x = 20.0 + 4.0 * f64::from(i);
                route.push(Point::new(x, width + 0.2 * (x * 0.07).cos()));
            }
            route.push(Point::new(0.0, 0.0));
            let (apart, keep, limit) = (24.0, 17.0, 6.0);
            let fast = own_gap(&route, apart, keep, limit);
            // The plain scan: every pair of 2 px samples' segments far enough apart.
            let r = fit::resample(&route, 2.0);
            let mut s = vec![0.0];
            for w in r.windows(2) {
                s.push(s[s.len() - 1] + (w[1] - w[0]).norm());
            }
            let far = |p: Point| p.x.hypot(p.y) > keep;
            let mut slow = limit;
            for i in 0..r.len() - 1 {
                for j in i + 1..r.len() - 1 {
                    if s[j] - s[i + 1] >= apart
                        && far(r[i])
                        && far(r[i + 1])
                        && far(r[j])
                        && far(r[j + 1])
                    {
                        use sprouts_geom::point_segment_distance as d;
                        let g = d(r[i], r[j], r[j + 1])
                            .min(d(r[i + 1], r[j], r[j + 1]))
                            .min(d(r[j], r[i], r[i + 1]))
                            .min(d(r[j + 1], r[i], r[i + 1]));
                        slow = slow.min(g);
                    }
                }
            }
            assert!(
                (fast - slow).abs() < 1e-9,
                "width {width}: {fast} against {slow}"
            );
            assert_eq!(fast < limit, width < 6.5, "width {width}: {fast}");
        }
    }
}
