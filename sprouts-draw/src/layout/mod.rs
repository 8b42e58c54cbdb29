//! Z: the picture drawn afresh from its combinatorial map alone (spec 4.6).
//!
//! 1. [`map`]: the rotation system, face walks and regions of the present picture, read off
//!    its [`Analysis`]; for a move, the move performed on the rotation system (spec 2.5 on
//!    half-edges).
//! 2. [`triangulate`]: a simple triangulation (subdivision vertices, bridges, face and spoke
//!    vertices), checked by Euler's formula.
//! 3. [`fpp`]: Kant's canonical ordering and the shift method of de Fraysseix, Pach and
//!    Pollack: straight edges on a `(2N - 4) x (N - 2)` grid, with the chosen region's face
//!    vertex as the apex of the outer triangle, so that region is the outside.
//! 4. The drawing is scaled into the window, the helpers dropped, each curve a polyline
//!    `u - m - v` through its subdivision vertex; [`polish`] spreads it out by capped
//!    force-directed steps (nothing can cross), spots too close to something start smaller,
//!    and each curve becomes its polyline with the corners cut by short arcs (or, where those
//!    would not keep the picture valid, the polyline itself as straight pieces).
//! 5. [`choose`]: one such layout per choice of outside region, in parallel, each polished by
//!    R's descent (spec 4.5) with the spots grown in stages and the curves refitted as clamped
//!    C² splines; the best by [`crate::PictureQuality`] is kept.
//!
//! The board's transactions ([`crate::Board::redraw_fresh`], [`crate::Board::draw_move_fresh`])
//! run the authority check on the result as on every other change.

pub(crate) mod choose;
pub(crate) mod fpp;
pub(crate) mod map;
pub(crate) mod polish;
pub(crate) mod start;
pub(crate) mod triangulate;

use sprouts_geom::{CubicBez, Piece, Point, Spline};
use sprouts_topo::{Move, RegionId, SpotId};

use crate::analyse::{Analysis, analyse};
use crate::drawing::{Curve, CurveId, Drawing, DrawingError, DrawnSpot, Settings, WorldSize};
use map::Map;
use polish::{Net, PolishParams};
use triangulate::{Kind, Triangulation};

/// Why a fresh layout could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    /// The map read off the picture, or the move performed on it, is inconsistent.
    #[error("the map is inconsistent: {0}")]
    Map(String),
    /// The grid drawing failed (an internal inconsistency, reported rather than trusted).
    #[error("the grid drawing failed: {0}")]
    Grid(String),
    /// The move is not a move of the position.
    #[error("the move is not legal here: {0}")]
    Illegal(String),
    /// The map after the move shows another position than the move makes.
    #[error("the move performed on the map gives another position")]
    WrongChild,
    /// No valid picture came out of the layout.
    #[error("the fresh picture is not valid: {0}")]
    Picture(String),
    /// The drawing could not be assembled.
    #[error(transparent)]
    Drawing(#[from] DrawingError),
}

/// How a fresh layout is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FreshOptions {
    /// The region (of the position drawn, before the move for a move) to draw as the outside;
    /// `None` for the region that is outside now. When a move splits that region, its side
    /// `B_b` (the one with the rest of the old walk) stays outside.
    pub outside: Option<RegionId>,
    /// Steps of the polish.
    pub iterations: u32,
    /// The weight of the regions' room in the polish (lives times the log of the area, spec
    /// 4.5), against the spreading of the points.
    pub room: f64,
    /// Whether each layout is polished by R's descent (spec 4.5, 4.6 step 4) with its spots
    /// grown in stages; without it the layout keeps the grid drawing's spread-out polylines
    /// with rounded corners.
    pub descent: bool,
    /// The most stages of R's descent, each after the spots drawn smaller have grown as far
    /// as their room allows.
    pub stages: u32,
    /// Layouts tried at once (one per choice of outside region, in parallel); 0 for as many
    /// as there are worker threads, at least two. Ignored when `outside` is given.
    pub layouts: usize,
    /// The • step (spec 4.6): a layout whose spots cannot all have the settings' size is kept
    /// with those spots smaller (never below [`crate::LEAST_SPOT_RADIUS`]) instead of failing.
    pub smaller_spots: bool,
}

impl Default for FreshOptions {
    /// 300 steps of the grid drawing's spreading, R's descent in up to three stages, a round
    /// of layouts as wide as the worker threads, spots at full size only.
    fn default() -> FreshOptions {
        FreshOptions {
            outside: None,
            iterations: 300,
            room: 1.0,
            descent: true,
            stages: 3,
            layouts: 0,
            smaller_spots: false,
        }
    }
}

/// What a fresh layout did.
#[derive(Clone, Debug, PartialEq)]
pub struct FreshReport {
    /// Vertices of the triangulation (spots, subdivision, bridge, face and spoke vertices).
    pub vertices: usize,
    /// The grid of the straight-line drawing, `(2N - 4, N - 2)`.
    pub grid: (i64, i64),
    /// The least gap of the picture kept ([`crate::PictureQuality::least_gap`], pixels); for
    /// a single layout made outside Z's choice, the least distance between a point of a
    /// curve's polyline and a curve or spot it is not on, after the spreading.
    pub clearance: f64,
    /// Polish steps taken.
    pub iterations: u32,
    /// Spots drawn smaller than the settings' radius (no room for their full size).
    pub smaller_spots: Vec<SpotId>,
    /// Curves left as polylines (their fitted spline would not keep the picture valid).
    pub straight_curves: Vec<CurveId>,
    /// The region of the drawn position that is the outside of the layout kept.
    pub outside: RegionId,
    /// Layouts made (one per choice of outside region), and how many of them could be kept.
    pub layouts: (usize, usize),
    /// Stages of R's descent run on the layout kept, and their L-BFGS steps.
    pub descent: (u32, u64),
    /// Why each layout not kept failed, for the log.
    pub failures: Vec<String>,
}

/// A move drawn by a fresh layout of the position after it.
#[derive(Clone, Debug)]
pub struct FreshMove {
    /// The move played (a move of the position before it).
    pub mv: Move,
    /// The move in words, as the board's history records it.
    pub words: String,
    /// The move's two curves.
    pub curves: (CurveId, CurveId),
    /// What the layout did.
    pub report: FreshReport,
}

/// The move's part in a fresh layout: the map with the move, the move's spots and index.
pub(crate) struct MovePart {
    pub x: SpotId,
    pub z: SpotId,
    pub y: SpotId,
    pub move_index: u32,
}

/// The picture of `map` drawn afresh in `drawing`'s world: the drawing's spots and curves
/// (same identities and order, new places and shapes), then for a move the new spot and the
/// move's two curves.
pub(crate) fn fresh_drawing(
    drawing: &Drawing,
    map: &Map,
    outside: usize,
    settings: &Settings,
    options: &FreshOptions,
    mv: Option<&MovePart>,
) -> Result<(Drawing, FreshReport), LayoutError> {
    let _span = tracing::debug_span!("fresh_drawing", spots = map.spots.len()).entered();
    let (lo, hi) = layout_box(drawing, settings);
    let (mut net, vertices, grid) = grid_net(map, outside, drawing.world(), lo, hi)?;
    let steps = spread_net(&mut net, map, lo, hi, options);
    let (clearance, _) = net.gaps();
    let (radius, smaller_spots) = spot_radii(&net, map, settings);
    let (straight, splines) = curve_splines(&net)?;
    let parts = FreshParts {
        drawing,
        net: &net,
        radius: &radius,
        mv,
    };
    let (d, straight_curves) = checked_drawing(&parts, splines, &straight)?;
    Ok((
        d,
        FreshReport {
            vertices,
            grid,
            clearance,
            iterations: steps,
            smaller_spots,
            straight_curves,
            outside: RegionId::from_index(outside),
            layouts: (1, 1),
            descent: (0, 0),
            failures: Vec::new(),
        },
    ))
}

/// The net of `map`'s grid drawing (`outside` drawn as the outside) placed in the box `lo` to
/// `hi`: its nodes the spots, then the subdivision vertices of the curves; with the vertices
/// of the triangulation and the grid's size. A map with no triangulation has its spots at the
/// world's centre.
fn grid_net(
    map: &Map,
    outside: usize,
    world: WorldSize,
    lo: Point,
    hi: Point,
) -> Result<(Net, usize, (i64, i64)), LayoutError> {
    let nv = map.spots.len();
    let ne = map.edge_count();
    Ok(match Triangulation::new(map, outside)? {
        None => {
            let c = Point::new(0.5 * world.width, 0.5 * world.height);
            (
                Net {
                    pts: vec![c; nv],
                    paths: Vec::new(),
                    spots: nv,
                    regions: Vec::new(),
                },
                nv,
                (0, 0),
            )
        }
        Some(t) => {
            let xy = fpp::shift_method(&t.rot, t.outer)?;
            let n = t.rot.len() as i64;
            let real: Vec<usize> = (0..t.rot.len())
                .filter(|&v| matches!(t.kind[v], Kind::Spot(_) | Kind::Mid(..)))
                .collect();
            let (mut x0, mut x1, mut y0, mut y1) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
            for &v in &real {
                x0 = x0.min(xy[v].0);
                x1 = x1.max(xy[v].0);
                y0 = y0.min(xy[v].1);
                y1 = y1.max(xy[v].1);
            }
            let map_axis = |g: i64, g0: i64, g1: i64, a: f64, b: f64| -> f64 {
                if g1 == g0 {
                    0.5 * (a + b)
                } else {
                    a + (b - a) * ((g - g0) as f64 / (g1 - g0) as f64)
                }
            };
            let place = |v: usize| {
                Point::new(
                    map_axis(xy[v].0, x0, x1, lo.x, hi.x),
                    map_axis(xy[v].1, y0, y1, lo.y, hi.y),
                )
            };
            let mut pts: Vec<Point> = (0..nv).map(place).collect();
            let mut paths = Vec::with_capacity(ne);
            for e in 0..ne {
                let mut p = vec![map.tail[2 * e]];
                for &s in &t.subdiv[e] {
                    pts.push(place(s as usize));
                    p.push(pts.len() - 1);
                }
                p.push(map.tail[2 * e + 1]);
                paths.push(p);
            }
            (
                Net {
                    pts,
                    paths,
                    spots: nv,
                    regions: region_walks(map, outside)?,
                },
                t.rot.len(),
                (2 * n - 4, n - 2),
            )
        }
    })
}

/// Spreads the net's points in the box `lo` to `hi` (two rounds of the polish, the long legs
/// split between them); returns the polish steps taken.
fn spread_net(net: &mut Net, map: &Map, lo: Point, hi: Point, options: &FreshOptions) -> u32 {
    let nv = map.spots.len();
    let ne = map.edge_count();
    let area = (hi.x - lo.x) * (hi.y - lo.y);
    let spacing = (area / (nv + 2 * ne).max(1) as f64).sqrt() * 0.6;
    // Two points per leg to start with; long legs are split again half way.
    split_each_leg(net);
    let params = PolishParams {
        lo,
        hi,
        spacing,
        iterations: options.iterations / 2,
        room: options.room,
    };
    let mut steps = polish::polish(net, &params);
    net.subdivide(1.5 * spacing);
    steps += polish::polish(
        net,
        &PolishParams {
            iterations: options.iterations - options.iterations / 2,
            ..params
        },
    );
    steps
}

/// Spot sizes: the settings' radius where there is room, else less; with the spots drawn
/// smaller.
fn spot_radii(net: &Net, map: &Map, settings: &Settings) -> (Vec<f64>, Vec<SpotId>) {
    let nv = map.spots.len();
    let gaps = net.spot_gaps();
    let mut radius = vec![settings.spot_radius; nv];
    let mut smaller_spots = Vec::new();
    for v in 0..nv {
        let room = 0.45 * gaps[v];
        if room < radius[v] {
            radius[v] = room;
            smaller_spots.push(map.spots[v]);
        }
    }
    (radius, smaller_spots)
}

/// The curves' splines: the polylines' straight splines, and the polylines with their
/// corners cut by short quadratic arcs (each within a quarter of its corner's least gap, so
/// nothing can meet), else the polylines.
fn curve_splines(net: &Net) -> Result<(Vec<Spline>, Vec<Spline>), LayoutError> {
    let (_, part) = net.gaps();
    let polylines: Vec<Vec<Point>> = net
        .paths
        .iter()
        .map(|p| p.iter().map(|&v| net.pts[v]).collect())
        .collect();
    let straight: Vec<Spline> = polylines
        .iter()
        .map(|p| straight_spline(p))
        .collect::<Result<_, _>>()?;
    let splines: Vec<Spline> = net
        .paths
        .iter()
        .zip(&straight)
        .map(|(p, s)| {
            let gaps: Vec<f64> = p.iter().map(|&v| part[v]).collect();
            let pts: Vec<Point> = p.iter().map(|&v| net.pts[v]).collect();
            rounded_spline(&pts, &gaps).unwrap_or_else(|| s.clone())
        })
        .collect();
    Ok((straight, splines))
}

/// What a fresh picture is assembled from beside its curves' splines: the drawing laid out
/// afresh (its spots and curves), the net, the spots' radii and the move's part.
struct FreshParts<'a> {
    drawing: &'a Drawing,
    net: &'a Net,
    radius: &'a [f64],
    mv: Option<&'a MovePart>,
}

impl FreshParts<'_> {
    /// The picture with these splines for the drawing's curves, then for the move's two.
    fn assemble(&self, splines: &[Spline]) -> Result<Drawing, LayoutError> {
        let FreshParts {
            drawing,
            net,
            radius,
            mv,
        } = *self;
        let world = drawing.world();
        let nv = radius.len();
        let spots: Vec<DrawnSpot> = drawing
            .spots()
            .iter()
            .enumerate()
            .map(|(v, s)| DrawnSpot {
                id: s.id,
                centre: net.pts[v],
                radius: radius[v],
            })
            .collect();
        let curves: Vec<Curve> = drawing
            .curves()
            .iter()
            .zip(splines)
            .map(|(c, s)| Curve {
                spline: s.clone(),
                ..c.clone()
            })
            .collect();
        let mut d = Drawing::from_parts(world, spots, curves)?;
        if let Some(m) = mv {
            let k = drawing.curves().len();
            d.add_move_curves(
                (m.x, m.z, m.y),
                splines[k].clone(),
                splines[k + 1].clone(),
                m.move_index,
                radius[nv - 1],
            )?;
        }
        Ok(d)
    }
}

/// The assembled picture that `analyse` takes: up to a few rounds of replacing the curves the
/// analysis names by their polylines, at last every curve as its polyline; with the curves
/// left as polylines.
fn checked_drawing(
    parts: &FreshParts<'_>,
    mut splines: Vec<Spline>,
    straight: &[Spline],
) -> Result<(Drawing, Vec<CurveId>), LayoutError> {
    let mut straight_curves: Vec<CurveId> = Vec::new();
    let mut done = None;
    for _ in 0..8 {
        let d = parts.assemble(&splines)?;
        match analyse(&d) {
            Ok(_) => {
                done = Some(d);
                break;
            }
            Err(e) => {
                let named = e.curves();
                let mut changed = false;
                for c in named {
                    let k = c.index();
                    if k < splines.len() && splines[k] != straight[k] {
                        splines[k] = straight[k].clone();
                        straight_curves.push(c);
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
    }
    let d = match done {
        Some(d) => d,
        None => {
            straight_curves = (0..splines.len()).map(|k| CurveId(k as u32)).collect();
            let d = parts.assemble(straight)?;
            analyse(&d).map_err(|e| LayoutError::Picture(e.to_string()))?;
            d
        }
    };
    Ok((d, straight_curves))
}

/// The box the spots of a fresh layout are placed in: a minimum clearance and a spot's radius
/// inside the frame, more above and to the right where the spots' labels go (the SVG
/// writer's label box: up to 9 px high and 8 px a digit wide, 2 px beyond the spot), so no
/// label is clipped. Each margin is at most a fifth of the window's shorter side.
fn layout_box(drawing: &Drawing, settings: &Settings) -> (Point, Point) {
    let world = drawing.world();
    let cap = 0.2 * world.width.min(world.height);
    let digits = drawing
        .spots()
        .iter()
        .map(|s| s.id.get())
        .max()
        .map_or(1, |m| (m + 1).to_string().len()) as f64;
    let base = settings.min_clearance + settings.spot_radius;
    let (left, bottom) = (base.min(cap), base.min(cap));
    let top = (base + 2.0 + 9.0).min(cap);
    let right = (base + 2.0 + 8.0 * digits).min(cap);
    (
        Point::new(left, top),
        Point::new(world.width - right, world.height - bottom),
    )
}

/// The inner regions with lives, as walks of half-edges (the outside has no area).
fn region_walks(map: &Map, outside: usize) -> Result<Vec<polish::RegionWalks>, LayoutError> {
    let pos = map.position()?;
    Ok(map
        .regions
        .iter()
        .enumerate()
        .filter(|&(r, _)| r != outside)
        .filter_map(|(r, bs)| {
            let lives = pos.region(RegionId::from_index(r))?.lives();
            let walks: Vec<Vec<usize>> = bs
                .iter()
                .filter_map(|b| match b {
                    map::Bnd::Walk(hs) => Some(hs.clone()),
                    map::Bnd::Lone(_) => None,
                })
                .collect();
            (lives > 0).then_some((f64::from(lives), walks))
        })
        .collect())
}

/// Adds a point in the middle of every leg.
fn split_each_leg(net: &mut Net) {
    for p in &mut net.paths {
        let mut out = vec![p[0]];
        for w in p.windows(2) {
            let m = Point::from((net.pts[w[0]].coords + net.pts[w[1]].coords) * 0.5);
            net.pts.push(m);
            out.push(net.pts.len() - 1);
            out.push(w[1]);
        }
        *p = out;
    }
}

/// The polyline as a spline of straight pieces.
fn straight_spline(p: &[Point]) -> Result<Spline, LayoutError> {
    Spline::polyline(p).map_err(|e| LayoutError::Picture(e.to_string()))
}

/// The polyline with each inner corner `p_i` cut by the quadratic arc from a point `a_i` on the
/// leg before to a point `b_i` on the leg after, both at distance `c_i` from `p_i`, where `c_i`
/// is at most half of each leg and a quarter of `gaps[i]` (the least distance between `p_i`
/// and anything it is not joined to, [`Net::gaps`]). The arc lies in the triangle
/// `a_i p_i b_i` (convex hull), within `c_i` of `p_i`, so two cut corners, or a cut corner and a
/// leg, stay at least half their gap apart: the picture keeps its position. The curve is
/// tangent-continuous and leaves its ends along its end legs. `None` if a piece would be
/// degenerate.
fn rounded_spline(p: &[Point], gaps: &[f64]) -> Option<Spline> {
    let n = p.len();
    if n < 3 {
        return None;
    }
    let mut pieces = Vec::with_capacity(2 * n);
    let mut at = p[0];
    let push = |pieces: &mut Vec<Piece>, bez: CubicBez, h: f64| {
        if h > 1e-9 {
            pieces.push(Piece::new(bez, h));
        }
    };
    for i in 1..n - 1 {
        let (lin, lout) = ((p[i] - p[i - 1]).norm(), (p[i + 1] - p[i]).norm());
        let c = (0.5 * lin).min(0.5 * lout).min(0.25 * gaps[i]) * (1.0 - 1e-6);
        if c.is_nan() || c <= 1e-6 {
            return None;
        }
        let a = p[i] + (p[i - 1] - p[i]) * (c / lin);
        let b = p[i] + (p[i + 1] - p[i]) * (c / lout);
        push(&mut pieces, CubicBez::line(at, a), (a - at).norm());
        let k = 2.0 / 3.0;
        let bez = CubicBez::new(a, a + (p[i] - a) * k, b + (p[i] - b) * k, b);
        push(&mut pieces, bez, 2.0 * c);
        at = b;
    }
    push(
        &mut pieces,
        CubicBez::line(at, p[n - 1]),
        (p[n - 1] - at).norm(),
    );
    Spline::new(pieces).ok()
}

/// The map of an analysed drawing (and the region that is outside).
pub(crate) fn map_of(drawing: &Drawing, analysis: &Analysis) -> Map {
    Map::from_analysis(drawing, analysis)
}

#[cfg(test)]
mod tests;
