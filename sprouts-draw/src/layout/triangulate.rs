//! A simple triangulation of a map (spec 4.6 step 2).
//!
//! Every edge gets a subdivision vertex (two for an edge from a vertex to itself), so no two
//! edges are parallel. The boundaries of each region are joined in a chain by bridges, each
//! subdivided too, so the graph is connected and every region is one face with one closed
//! walk `u_0 u_1 .. u_{L-1}` (at least three corners, since every path has at least two
//! edges). Each face then gets a face vertex `f` and, for each corner `i`, a spoke vertex `d_i`
//! with the edges `f d_i`, `d_i u_i`, `d_i u_{i+1}` and `d_i d_{i+1}`: the face is cut into the
//! triangles `(f, d_i, d_{i+1})`, `(d_i, u_i, u_{i+1})` and `(d_i, u_{i+1}, d_{i+1})`. Each new
//! edge names something that exists once (a corner, its successor, a face), so the result is
//! simple; [`Triangulation::check`] confirms that every face is a triangle and Euler's formula
//! `V - E + F = 2`.

use super::LayoutError;
use super::map::{Bnd, Map};

/// What a vertex of the triangulation stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A spot (the map's vertex).
    Spot(usize),
    /// A subdivision vertex of a map edge (`k`-th of the edge's, from its first spot).
    Mid(usize, usize),
    /// The subdivision vertex of a bridge.
    Bridge,
    /// The face vertex of a region.
    Face(usize),
    /// A spoke vertex.
    Spoke,
}

/// A simple triangulation with its rotation system (neighbours counter-clockwise in the y-up
/// frame) and the outer face chosen for drawing: `(v1, v2, vn)`, `vn` the face vertex of the
/// region that is to be the outside.
#[derive(Clone, Debug)]
pub(crate) struct Triangulation {
    /// Neighbours of each vertex, counter-clockwise.
    pub rot: Vec<Vec<u32>>,
    /// What each vertex stands for.
    pub kind: Vec<Kind>,
    /// The subdivision vertices of each map edge, from its first spot to its second.
    pub subdiv: Vec<Vec<u32>>,
    /// The outer triangle `(v1, v2, vn)`.
    pub outer: (u32, u32, u32),
}

/// Inserts `w` into the rotation at `u` just after the neighbour `after` (or as the only
/// neighbour when `u` has none).
fn insert_after(rot: &mut [Vec<u32>], u: u32, after: Option<u32>, w: u32) {
    let r = &mut rot[u as usize];
    match after.and_then(|a| r.iter().position(|&x| x == a)) {
        Some(k) => r.insert(k + 1, w),
        None => r.push(w),
    }
}

/// The next directed edge on the face left of `a -> b`: `b -> c` with `c` just before `a` in
/// the rotation at `b`.
pub(crate) fn next_dart(rot: &[Vec<u32>], a: u32, b: u32) -> u32 {
    let r = &rot[b as usize];
    let k = r
        .iter()
        .position(|&x| x == a)
        .expect("the graph is undirected");
    r[(k + r.len() - 1) % r.len()]
}

/// The face walk left of `a -> b` as its vertices.
pub(crate) fn face_walk(rot: &[Vec<u32>], a: u32, b: u32) -> Vec<u32> {
    let (mut p, mut q) = (a, b);
    let mut w = Vec::new();
    loop {
        w.push(p);
        let r = next_dart(rot, p, q);
        p = q;
        q = r;
        if p == a && q == b {
            return w;
        }
        assert!(w.len() <= 8 * rot.len() + 8, "a face walk closes");
    }
}

impl Triangulation {
    /// The triangulation of `map`, with region `outside` as the outside. `None` for a map of
    /// one vertex and no edge (nothing to triangulate).
    pub(crate) fn new(map: &Map, outside: usize) -> Result<Option<Triangulation>, LayoutError> {
        let nv = map.spots.len();
        if map.edge_count() == 0 && nv <= 1 {
            return Ok(None);
        }
        let mut kind: Vec<Kind> = (0..nv).map(Kind::Spot).collect();
        let mut rot: Vec<Vec<u32>> = vec![Vec::new(); nv];
        let mut subdiv: Vec<Vec<u32>> = Vec::with_capacity(map.edge_count());
        for e in 0..map.edge_count() {
            let (a, b) = (map.tail[2 * e], map.tail[2 * e + 1]);
            let k = if a == b { 2 } else { 1 };
            let ids: Vec<u32> = (0..k).map(|j| (kind.len() + j) as u32).collect();
            for j in 0..k {
                kind.push(Kind::Mid(e, j));
                let prev = if j == 0 { a as u32 } else { ids[j - 1] };
                let next = if j + 1 == k { b as u32 } else { ids[j + 1] };
                rot.push(vec![prev, next]);
            }
            subdiv.push(ids);
        }
        // Rotation at spots: each half-edge becomes the edge to its first subdivision vertex.
        let first_sub = |h: usize, subdiv: &[Vec<u32>]| -> u32 {
            let s = &subdiv[h / 2];
            if h.is_multiple_of(2) {
                s[0]
            } else {
                s[s.len() - 1]
            }
        };
        for (v, r) in map.rot.iter().enumerate() {
            rot[v] = r.iter().map(|&h| first_sub(h, &subdiv)).collect();
        }
        // Bridges: a chain through each region's boundaries, from a corner of each.
        let mut start: Vec<Option<(u32, u32)>> = vec![None; map.regions.len()];
        for (ri, region) in map.regions.iter().enumerate() {
            // A corner of each boundary: (vertex, leaving neighbour).
            let corners: Vec<(u32, Option<u32>)> = region
                .iter()
                .map(|b| match b {
                    Bnd::Walk(hs) => (map.tail[hs[0]] as u32, Some(first_sub(hs[0], &subdiv))),
                    Bnd::Lone(v) => (*v as u32, None),
                })
                .collect();
            if let Some(&(u, Some(w))) = corners.first() {
                start[ri] = Some((u, w));
            }
            for pair in corners.windows(2) {
                let ((u, lu), (v, lv)) = (pair[0], pair[1]);
                let w = kind.len() as u32;
                kind.push(Kind::Bridge);
                rot.push(vec![u, v]);
                let lu = lu.or_else(|| rot[u as usize].first().copied());
                let lv = lv.or_else(|| rot[v as usize].first().copied());
                insert_after(&mut rot, u, lu, w);
                insert_after(&mut rot, v, lv, w);
                if start[ri].is_none() {
                    start[ri] = Some((u, w));
                }
            }
        }
        let nbase = kind.len();
        // Face walks of the regions.
        let mut walks = Vec::with_capacity(map.regions.len());
        for (ri, s) in start.iter().enumerate() {
            let (a, b) = s.ok_or_else(|| {
                LayoutError::Map(format!("region {ri} has no edge after bridging"))
            })?;
            walks.push(face_walk(&rot, a, b));
        }
        let darts: usize = walks.iter().map(Vec::len).sum();
        let edges: usize = rot[..nbase].iter().map(Vec::len).sum::<usize>() / 2;
        if darts != 2 * edges || nbase + walks.len() != edges + 2 {
            return Err(LayoutError::Map(format!(
                "bridged map: {nbase} vertices, {edges} edges, {} faces, {darts} darts",
                walks.len()
            )));
        }
        // Face and spoke vertices.
        let mut outer = None;
        for (ri, w) in walks.iter().enumerate() {
            let l = w.len();
            if l < 3 {
                return Err(LayoutError::Map(format!("face walk of length {l}")));
            }
            let f = kind.len() as u32;
            kind.push(Kind::Face(ri));
            let d0 = f + 1;
            let d = |i: usize| d0 + (i % l) as u32;
            rot.push((0..l).map(d).collect());
            for i in 0..l {
                kind.push(Kind::Spoke);
                let (ui, uj) = (w[i], w[(i + 1) % l]);
                rot.push(vec![d(i + 1), f, d(i + l - 1), ui, uj]);
            }
            for i in 0..l {
                let (ui, uj) = (w[i], w[(i + 1) % l]);
                let r = &mut rot[ui as usize];
                let k = r
                    .iter()
                    .position(|&x| x == uj)
                    .expect("a walk follows edges");
                r.insert(k + 1, d(i));
                r.insert(k + 2, d(i + l - 1));
            }
            if ri == outside {
                // The face left of f -> d_0 is (f, d_0, d_1): v1 = d_1, v2 = d_0, vn = f.
                outer = Some((d(1), d(0), f));
            }
        }
        let outer = outer.ok_or_else(|| LayoutError::Map(format!("no region {outside}")))?;
        let t = Triangulation {
            rot,
            kind,
            subdiv,
            outer,
        };
        if cfg!(debug_assertions) {
            t.check()?;
        }
        Ok(Some(t))
    }

    /// Checks that the graph is simple, every face a triangle, and `V - E + F = 2`.
    pub(crate) fn check(&self) -> Result<(), LayoutError> {
        let n = self.rot.len();
        let mut e2 = 0;
        for (v, r) in self.rot.iter().enumerate() {
            let mut s = r.clone();
            s.sort_unstable();
            s.dedup();
            if s.len() != r.len() || s.contains(&(v as u32)) {
                return Err(LayoutError::Map(format!("vertex {v}: not simple")));
            }
            for &u in r {
                if !self.rot[u as usize].contains(&(v as u32)) {
                    return Err(LayoutError::Map(format!("edge {v}-{u} one-sided")));
                }
            }
            e2 += r.len();
        }
        let e = e2 / 2;
        let mut seen = std::collections::HashSet::new();
        let mut faces = 0;
        for (v, r) in self.rot.iter().enumerate() {
            for &u in r {
                if seen.contains(&(v as u32, u)) {
                    continue;
                }
                let w = face_walk(&self.rot, v as u32, u);
                if w.len() != 3 {
                    return Err(LayoutError::Map(format!("a face of {} sides", w.len())));
                }
                for i in 0..3 {
                    seen.insert((w[i], w[(i + 1) % 3]));
                }
                faces += 1;
            }
        }
        if n + faces != e + 2 || e != 3 * n - 6 {
            return Err(LayoutError::Map(format!(
                "Euler: V {n} - E {e} + F {faces} != 2"
            )));
        }
        Ok(())
    }
}
