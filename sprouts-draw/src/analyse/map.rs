//! Steps 2 to 4 of [`analyse`](super::analyse): the planar map of a certified picture, and the
//! regions it makes.
//!
//! Once the curves' refined polygons are certified to be a plane drawing, everything else is
//! combinatorial or decided by exact predicates on those polygons: the rotation system (the
//! half-edges at each spot by the direction they leave in), the face walks it makes (each checked
//! per piece of curves by Euler's formula, with exactly one walk round the piece outside), which
//! inner face each piece of curves lies in (exact winding numbers), and the regions those give.

use std::cmp::Ordering;

use sprouts_geom::certified::{self, Orientation, cmp_around};
use sprouts_geom::{Point, RefinedPolygon, signed_area};
use sprouts_topo::{BoundaryId, SpotId};

use super::{AnalyseError, Walk, in_box};
use crate::drawing::{CurveId, Drawing, DrawnSpot, HalfEdgeId};

/// The half-edges of a picture and the rotation system (step 2): half-edges `2e` and `2e+1` of
/// curve `e`, and at each spot the half-edges leaving it by the direction of their first leg.
pub(super) struct Rotation {
    /// Drawing spot index of each half-edge's tail.
    pub(super) tail: Vec<usize>,
    /// A point of each half-edge's first leg other than its tail (its direction of leaving).
    pub(super) leave_point: Vec<Point>,
    /// Half-edges leaving each spot (by drawing index), by increasing angle.
    pub(super) rotation: Vec<Vec<HalfEdgeId>>,
    /// The place of each half-edge in the rotation at its tail.
    place: Vec<usize>,
}

/// The face walks of a picture (step 3).
pub(super) struct Faces {
    /// The half-edge after each on the walk round the face on its left.
    pub(super) next: Vec<HalfEdgeId>,
    /// The pieces of curves: spots joined by curves.
    uf: UnionFind,
    /// The walk of each half-edge and its place in it.
    pub(super) walk_of: Vec<(usize, usize)>,
    pub(super) walks: Vec<Walk>,
}

/// Where the pieces of curves lie (step 4).
pub(super) struct Nesting {
    /// The inner face walks.
    pub(super) inner: Vec<usize>,
    /// The drawing index of each piece's first spot.
    pieces: Vec<usize>,
    /// The inner face walk each piece lies in (`None`: the outside).
    lies_in: Vec<Option<usize>>,
}

/// The regions of a picture: what the position is set up from, and how its boundaries are
/// drawn.
pub(super) struct Regions {
    /// Each region's boundaries, as the spots of their corners.
    pub(super) regions: Vec<Vec<Vec<SpotId>>>,
    /// For each region, the walk of its inner face (`None` for the outside).
    pub(super) region_walk: Vec<Option<usize>>,
    /// The walk of each boundary, or the drawing index of its lone spot.
    pub(super) boundaries: Vec<Result<usize, usize>>,
    /// For each spot with no curve (by drawing index), its boundary.
    pub(super) lone_boundary: Vec<Option<BoundaryId>>,
}

/// Step 2: the half-edges and the rotation system, exactly ([`cmp_around`]).
///
/// # Errors
/// [`AnalyseError::DegenerateCurve`] for a curve end whose polygon does not leave its spot,
/// [`AnalyseError::SameDirection`] for two half-edges leaving a spot in one direction.
pub(super) fn rotation_system(
    drawing: &Drawing,
    polys: &[RefinedPolygon],
    index_of: &dyn Fn(SpotId) -> usize,
) -> Result<Rotation, AnalyseError> {
    let spots = drawing.spots();
    let n_half = 2 * drawing.curves().len();
    let mut tail = vec![0usize; n_half];
    let mut leave_point = vec![Point::origin(); n_half];
    let mut rotation: Vec<Vec<HalfEdgeId>> = vec![Vec::new(); spots.len()];
    for (e, c) in drawing.curves().iter().enumerate() {
        let pts = polys[e].points();
        let n = pts.len() - 1;
        let first = (1..=3).map(|k| pts[k]).find(|p| *p != pts[0]);
        let last = (1..=3).map(|k| pts[n - k]).find(|p| *p != pts[n]);
        for (h, spot, p) in [(2 * e, c.from, first), (2 * e + 1, c.to, last)] {
            let p = p.ok_or(AnalyseError::DegenerateCurve {
                curve: CurveId(e as u32),
                spot,
            })?;
            let i = index_of(spot);
            tail[h] = i;
            leave_point[h] = p;
            rotation[i].push(HalfEdgeId(h as u32));
        }
    }
    let mut place = vec![0usize; n_half];
    for (i, rot) in rotation.iter_mut().enumerate() {
        let c = spots[i].centre;
        rot.sort_by(|&a, &b| cmp_around(c, leave_point[a.index()], leave_point[b.index()]));
        for w in rot.windows(2) {
            if cmp_around(c, leave_point[w[0].index()], leave_point[w[1].index()])
                == Ordering::Equal
            {
                return Err(AnalyseError::SameDirection {
                    spot: spots[i].id,
                    a: w[0].curve(),
                    b: w[1].curve(),
                });
            }
        }
        for (k, h) in rot.iter().enumerate() {
            place[h.index()] = k;
        }
    }
    Ok(Rotation {
        tail,
        leave_point,
        rotation,
        place,
    })
}

/// Step 3: the face walks, `next(h)` being the half-edge just before `twin(h)` in the rotation
/// at the head of `h`, each with its polygon, area and piece of curves.
pub(super) fn face_walks(
    drawing: &Drawing,
    polys: &[RefinedPolygon],
    rot: &Rotation,
    index_of: &dyn Fn(SpotId) -> usize,
) -> Faces {
    let (tail, rotation, place) = (&rot.tail, &rot.rotation, &rot.place);
    let n_half = tail.len();
    let next: Vec<HalfEdgeId> = (0..n_half)
        .map(|h| {
            let twin = h ^ 1;
            let rot = &rotation[tail[twin]];
            rot[(place[twin] + rot.len() - 1) % rot.len()]
        })
        .collect();
    let mut uf = UnionFind((0..drawing.spots().len()).collect());
    for c in drawing.curves() {
        uf.union(index_of(c.from), index_of(c.to));
    }
    let mut walk_of = vec![(usize::MAX, 0usize); n_half];
    let mut walks: Vec<Walk> = Vec::new();
    for start in 0..n_half {
        if walk_of[start].0 != usize::MAX {
            continue;
        }
        let w = walks.len();
        let mut half_edges = Vec::new();
        let mut polygon = Vec::new();
        let mut h = start;
        loop {
            walk_of[h] = (w, half_edges.len());
            half_edges.push(HalfEdgeId(h as u32));
            let pts = polys[h / 2].points();
            if h % 2 == 0 {
                polygon.extend_from_slice(&pts[..pts.len() - 1]);
            } else {
                polygon.extend(pts[1..].iter().rev());
            }
            h = next[h].index();
            if h == start {
                break;
            }
        }
        let area = signed_area(&polygon);
        walks.push(Walk {
            bbox: bbox(&polygon),
            component: uf.find(tail[start]),
            half_edges,
            polygon,
            area,
            depth: 0,
            outer: false,
            boundary: BoundaryId::from_index(0),
        });
    }
    Faces {
        next,
        uf,
        walk_of,
        walks,
    }
}

/// Euler's formula and the outer walk, per piece of curves: its walks number `E - V + 2`, and
/// exactly one of them has non-positive signed area (decided exactly), the walk round the piece
/// outside (marked `outer`). Returns the number of spots of each piece (at its root).
///
/// # Errors
/// [`AnalyseError::Euler`] for a piece that breaks either.
pub(super) fn check_euler(
    drawing: &Drawing,
    faces: &mut Faces,
    index_of: &dyn Fn(SpotId) -> usize,
) -> Result<Vec<usize>, AnalyseError> {
    let spots = drawing.spots();
    let n_spots = spots.len();
    let (uf, walks) = (&mut faces.uf, &mut faces.walks);
    let mut piece_spots = vec![0usize; n_spots];
    let mut piece_curves = vec![0usize; n_spots];
    let mut piece_walks = vec![0usize; n_spots];
    let mut piece_outer = vec![0usize; n_spots];
    for i in 0..n_spots {
        let r = uf.find(i);
        piece_spots[r] += 1;
    }
    for c in drawing.curves() {
        piece_curves[uf.find(index_of(c.from))] += 1;
    }
    for walk in walks.iter_mut() {
        piece_walks[walk.component] += 1;
        walk.outer = area_is_not_positive(&walk.polygon, walk.area);
        if walk.outer {
            piece_outer[walk.component] += 1;
        }
    }
    for r in 0..n_spots {
        if piece_curves[r] == 0 || uf.find(r) != r {
            continue;
        }
        let expected = piece_curves[r] + 2 - piece_spots[r];
        if piece_walks[r] != expected || piece_outer[r] != 1 {
            return Err(AnalyseError::Euler {
                spot: spots[r].id,
                walks: piece_walks[r],
                outer: piece_outer[r],
                expected,
            });
        }
    }
    Ok(piece_spots)
}

/// Step 4, nesting: each piece of curves (and each spot with no curve) lies in the innermost
/// inner face of another piece that winds round its first spot (exact winding numbers), or in
/// the outside. Sets each walk's depth.
///
/// # Errors
/// [`AnalyseError::SpotOnWalk`] for a spot exactly on a walk's polygon, or a piece whose
/// surrounding faces are not nested.
pub(super) fn nesting(spots: &[DrawnSpot], faces: &mut Faces) -> Result<Nesting, AnalyseError> {
    let n_spots = spots.len();
    let (uf, walks) = (&mut faces.uf, &mut faces.walks);
    let inner: Vec<usize> = (0..walks.len()).filter(|&w| !walks[w].outer).collect();
    let mut pieces: Vec<usize> = Vec::new(); // drawing index of each piece's first spot
    let mut seen = vec![false; n_spots];
    for i in 0..n_spots {
        let r = uf.find(i);
        if !seen[r] {
            seen[r] = true;
            pieces.push(i);
        }
    }
    // The face each piece lies in (`None`: the outside).
    // Which inner faces (of other pieces) wind round each piece's first spot, exactly.
    let mut containing: Vec<Vec<usize>> = Vec::with_capacity(pieces.len());
    for &i in &pieces {
        let p = spots[i].centre;
        let root = uf.find(i);
        let mut around = Vec::new();
        for &w in &inner {
            let walk = &walks[w];
            if walk.component == root || !in_box(p, walk.bbox) {
                continue;
            }
            match certified::winding_number(p, &walk.polygon) {
                None => return Err(AnalyseError::SpotOnWalk { spot: spots[i].id }),
                Some(0) => {}
                Some(_) => around.push(w),
            }
        }
        containing.push(around);
    }
    // The faces round a piece are nested; the innermost is the one whose own piece lies inside
    // all the others (decided by the same exact tests, not by comparing areas).
    let piece_of_root: Vec<usize> = {
        let mut m = vec![usize::MAX; n_spots];
        for (k, &i) in pieces.iter().enumerate() {
            m[uf.find(i)] = k;
        }
        m
    };
    let lies_in: Vec<Option<usize>> = containing
        .iter()
        .map(|around| {
            around.iter().copied().find(|&f| {
                let inside = &containing[piece_of_root[walks[f].component]];
                around.iter().all(|&g| g == f || inside.contains(&g))
            })
        })
        .collect();
    for walk in walks.iter_mut() {
        walk.depth = containing[piece_of_root[walk.component]].len();
    }
    if let Some(k) = (0..pieces.len()).find(|&k| !containing[k].is_empty() && lies_in[k].is_none())
    {
        return Err(AnalyseError::SpotOnWalk {
            spot: spots[pieces[k]].id,
        });
    }
    Ok(Nesting {
        inner,
        pieces,
        lies_in,
    })
}

/// Step 4, regions: the outside, then one region per inner face, each with its boundaries (its
/// face walk, then the walks round the outside of the pieces lying in it, then its spots with
/// no curve). Sets each walk's boundary.
pub(super) fn regions(
    spots: &[DrawnSpot],
    degree: &[usize],
    piece_spots: &[usize],
    tail: &[usize],
    nesting: &Nesting,
    faces: &mut Faces,
) -> Regions {
    let n_spots = spots.len();
    let (uf, walks) = (&mut faces.uf, &mut faces.walks);
    let (inner, pieces, lies_in) = (&nesting.inner, &nesting.pieces, &nesting.lies_in);
    let mut region_walk: Vec<Option<usize>> = Vec::new();
    let mut regions: Vec<Vec<Vec<SpotId>>> = Vec::new();
    let mut boundaries: Vec<Result<usize, usize>> = Vec::new();
    let mut lone_boundary: Vec<Option<BoundaryId>> = vec![None; n_spots];
    let outer_walk_of_piece = |root: usize| -> usize {
        walks
            .iter()
            .position(|w| w.component == root && w.outer)
            .expect("a piece with curves has its outer walk")
    };
    let mut faces: Vec<Option<usize>> = vec![None];
    faces.extend(inner.iter().map(|&w| Some(w)));
    let mut walk_boundary: Vec<(usize, BoundaryId)> = Vec::new();
    for face in faces {
        let mut region = Vec::new();
        let mut push_walk = |w: usize, region: &mut Vec<Vec<SpotId>>, boundaries: &mut Vec<_>| {
            walk_boundary.push((w, BoundaryId::from_index(boundaries.len())));
            boundaries.push(Ok(w));
            region.push(
                walks[w]
                    .half_edges
                    .iter()
                    .map(|h| spots[tail[h.index()]].id)
                    .collect(),
            );
        };
        if let Some(w) = face {
            push_walk(w, &mut region, &mut boundaries);
        }
        for (k, &i) in pieces.iter().enumerate() {
            if lies_in[k] != face {
                continue;
            }
            if degree[i] == 0 && piece_spots[uf.find(i)] == 1 {
                lone_boundary[i] = Some(BoundaryId::from_index(boundaries.len()));
                boundaries.push(Err(i));
                region.push(vec![spots[i].id]);
            } else {
                push_walk(
                    outer_walk_of_piece(uf.find(i)),
                    &mut region,
                    &mut boundaries,
                );
            }
        }
        if face.is_none() && region.is_empty() {
            // A picture without spots has no region.
            continue;
        }
        region_walk.push(face);
        regions.push(region);
    }
    for (w, b) in walk_boundary {
        walks[w].boundary = b;
    }
    Regions {
        regions,
        region_walk,
        boundaries,
        lone_boundary,
    }
}

/// The bounding box of a non-empty list of points.
fn bbox(points: &[Point]) -> (Point, Point) {
    points.iter().fold((points[0], points[0]), |(lo, hi), p| {
        (
            Point::new(lo.x.min(p.x), lo.y.min(p.y)),
            Point::new(hi.x.max(p.x), hi.y.max(p.y)),
        )
    })
}

/// Union-find with path halving.
struct UnionFind(Vec<usize>);

impl UnionFind {
    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.0[ra] = rb;
    }
}

/// Whether a closed polygon's signed area is not positive, exactly: the floating-point shoelace
/// sum decides when it is farther from zero than its rounding can reach, and
/// [`certified::area_sign`] (exact expansions) decides otherwise.
fn area_is_not_positive(polygon: &[Point], area: f64) -> bool {
    let n = polygon.len();
    if n < 3 {
        return true;
    }
    // `signed_area` sums `u × v` over the fan from the first point: every term rounds with
    // relative error a few `u` (two differences, two products, one subtraction), and the sum of
    // n terms adds n roundings of the running sum, bounded by n u times the sum of magnitudes.
    let o = polygon[0];
    let mut mag = 0.0;
    for i in 1..n - 1 {
        let (u, v) = (polygon[i] - o, polygon[i + 1] - o);
        mag += (u.x * v.y).abs() + (u.y * v.x).abs();
    }
    let bound = 0.5 * mag * f64::EPSILON * (n as f64 + 8.0) * 4.0;
    if area > bound {
        return false;
    }
    if area < -bound {
        return true;
    }
    certified::area_sign(polygon) != Orientation::Clockwise
}
