//! Straight-line grid drawing of a triangulation (spec 4.6 step 3): Kant's canonical ordering
//! and the shift method of de Fraysseix, Pach and Pollack.
//!
//! - G. Kant, *Drawing planar graphs using the canonical ordering*, Algorithmica 16 (1996),
//!   pp. 4–32, doi:10.1007/BF02086606 (the ordering, computed by peeling vertices without
//!   chords off the outer cycle).
//! - H. de Fraysseix, J. Pach, R. Pollack, *How to draw a planar graph on a grid*,
//!   Combinatorica 10 (1990), pp. 41–51, doi:10.1007/BF02122694 (the shift method: every
//!   vertex on the `(2n - 4) x (n - 2)` grid, straight edges, no crossings).

use super::LayoutError;

/// One step of a canonical ordering: the vertex and its leftmost and rightmost neighbours on
/// the outer path of the vertices before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub v: u32,
    pub left: u32,
    pub right: u32,
}

/// A canonical ordering of a triangulation with outer face `(v1, v2, vn)` (the walk
/// `v1 -> vn -> v2` keeps the outer face on its left; `rot` counter-clockwise): `v1`, `v2`,
/// then a [`Step`] for each further vertex, `vn` last.
///
/// # Complexity
/// `O(sum of degrees times the largest degree)`.
pub(crate) fn canonical_order(
    rot: &[Vec<u32>],
    (v1, v2, vn): (u32, u32, u32),
) -> Result<Vec<Step>, LayoutError> {
    let n = rot.len();
    let bad = |w: &str| LayoutError::Grid(w.to_owned());
    if n < 3 {
        return Err(bad("fewer than three vertices"));
    }
    let none = u32::MAX;
    let mut prev = vec![none; n];
    let mut next = vec![none; n];
    let mut outer = vec![false; n];
    let mut removed = vec![false; n];
    let mut chords = vec![0i32; n];
    next[v1 as usize] = vn;
    prev[vn as usize] = v1;
    next[vn as usize] = v2;
    prev[v2 as usize] = vn;
    for v in [v1, v2, vn] {
        outer[v as usize] = true;
    }
    let mut cand = vec![vn];
    let mut steps = Vec::with_capacity(n - 2);
    let mut fresh = vec![false; n];
    while steps.len() < n - 2 {
        let v = loop {
            let v = cand.pop().ok_or_else(|| bad("no vertex without chords"))?;
            let vi = v as usize;
            if outer[vi] && !removed[vi] && chords[vi] == 0 && v != v1 && v != v2 {
                break v;
            }
        };
        let vi = v as usize;
        let (wp, wq) = (prev[vi], next[vi]);
        steps.push(Step {
            v,
            left: wp,
            right: wq,
        });
        // Inner neighbours: counter-clockwise from wp to wq.
        let r = &rot[vi];
        let k = r
            .iter()
            .position(|&x| x == wp)
            .ok_or_else(|| bad("outer path not along edges"))?;
        let mut inner = Vec::new();
        let mut j = (k + 1) % r.len();
        while r[j] != wq {
            let u = r[j];
            if removed[u as usize] || outer[u as usize] {
                return Err(bad("a vertex without chords sees the outer path"));
            }
            inner.push(u);
            j = (j + 1) % r.len();
            if inner.len() > r.len() {
                return Err(bad("right neighbour not in rotation"));
            }
        }
        removed[vi] = true;
        outer[vi] = false;
        if inner.is_empty() {
            next[wp as usize] = wq;
            prev[wq as usize] = wp;
            chords[wp as usize] -= 1;
            chords[wq as usize] -= 1;
            cand.push(wp);
            cand.push(wq);
            continue;
        }
        let mut last = wp;
        for &u in &inner {
            next[last as usize] = u;
            prev[u as usize] = last;
            outer[u as usize] = true;
            fresh[u as usize] = true;
            last = u;
        }
        next[last as usize] = wq;
        prev[wq as usize] = last;
        for &u in &inner {
            let ui = u as usize;
            for &x in &rot[ui] {
                let xi = x as usize;
                if outer[xi] && x != prev[ui] && x != next[ui] {
                    chords[ui] += 1;
                    if !fresh[xi] {
                        chords[xi] += 1;
                    }
                }
            }
        }
        for &u in &inner {
            fresh[u as usize] = false;
            cand.push(u);
        }
    }
    steps.reverse();
    Ok(steps)
}

/// The shift method: integer coordinates for every vertex, `v1` at `(0, 0)`, `v2` at
/// `(2n - 4, 0)`, `y` upwards, every straight edge free of crossings.
///
/// # Complexity
/// `O(n^2)` (the shifted sets are moved vertex by vertex).
pub(crate) fn shift_method(
    rot: &[Vec<u32>],
    outer: (u32, u32, u32),
) -> Result<Vec<(i64, i64)>, LayoutError> {
    let steps = canonical_order(rot, outer)?;
    let n = rot.len();
    let (v1, v2, _) = outer;
    let mut pos = vec![(0i64, 0i64); n];
    let mut next = vec![u32::MAX; n];
    let mut under: Vec<Vec<u32>> = (0..n as u32).map(|v| vec![v]).collect();
    let s3 = steps[0];
    if (s3.left, s3.right) != (v1, v2) {
        return Err(LayoutError::Grid("the third vertex is not on v1 v2".into()));
    }
    pos[v2 as usize] = (2, 0);
    pos[s3.v as usize] = (1, 1);
    next[v1 as usize] = s3.v;
    next[s3.v as usize] = v2;
    for st in &steps[1..] {
        let (wp, wq) = (st.left as usize, st.right as usize);
        // Contour strictly between wp and wq: shifted by one; wq and after: by two.
        let mut inner = Vec::new();
        let mut c = next[wp];
        while c as usize != wq {
            if c == u32::MAX {
                return Err(LayoutError::Grid(
                    "right neighbour not on the contour".into(),
                ));
            }
            inner.push(c);
            c = next[c as usize];
        }
        for &w in &inner {
            for &u in &under[w as usize] {
                pos[u as usize].0 += 1;
            }
        }
        let mut c = wq as u32;
        loop {
            for &u in &under[c as usize] {
                pos[u as usize].0 += 2;
            }
            if c == v2 {
                break;
            }
            c = next[c as usize];
        }
        let (xp, yp) = pos[wp];
        let (xq, yq) = pos[wq];
        let v = st.v as usize;
        pos[v] = ((xp + xq + yq - yp) / 2, (xq - xp + yq + yp) / 2);
        let mut set = std::mem::take(&mut under[v]);
        for &w in &inner {
            set.extend(std::mem::take(&mut under[w as usize]));
        }
        under[v] = set;
        next[wp] = st.v;
        next[v] = wq as u32;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::layout::triangulate::{face_walk, next_dart};

    /// A random triangulation on `n` vertices: a triangle, vertices stacked into random faces,
    /// then random edge flips (kept simple).
    fn random_triangulation(n: usize, flips: usize, seed: u64) -> Vec<Vec<u32>> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut rnd = |k: usize| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % k as u64) as usize
        };
        let mut rot: Vec<Vec<u32>> = vec![vec![1, 2], vec![2, 0], vec![0, 1]];
        let faces = |rot: &[Vec<u32>]| {
            let mut seen = std::collections::HashSet::new();
            let mut out = Vec::new();
            for (v, r) in rot.iter().enumerate() {
                for &u in r {
                    if seen.insert((v as u32, u)) {
                        let w = face_walk(rot, v as u32, u);
                        for i in 0..w.len() {
                            seen.insert((w[i], w[(i + 1) % w.len()]));
                        }
                        out.push(w);
                    }
                }
            }
            out
        };
        while rot.len() < n {
            let fs = faces(&rot);
            let f = &fs[rnd(fs.len())];
            let (a, b, c) = (f[0], f[1], f[2]);
            let v = rot.len() as u32;
            rot.push(vec![a, b, c]);
            for (x, after) in [(a, b), (b, c), (c, a)] {
                let r = &mut rot[x as usize];
                let k = r.iter().position(|&y| y == after).unwrap();
                r.insert(k + 1, v);
            }
        }
        for _ in 0..flips {
            let a = rnd(rot.len()) as u32;
            let b = rot[a as usize][rnd(rot[a as usize].len())];
            if rot[a as usize].len() <= 3 || rot[b as usize].len() <= 3 {
                continue;
            }
            let c = next_dart(&rot, a, b);
            let d = next_dart(&rot, b, a);
            if c == d || rot[c as usize].contains(&d) {
                continue;
            }
            rot[a as usize].retain(|&x| x != b);
            rot[b as usize].retain(|&x| x != a);
            let r = &mut rot[c as usize];
            let k = r.iter().position(|&y| y == a).unwrap();
            r.insert(k + 1, d);
            let r = &mut rot[d as usize];
            let k = r.iter().position(|&y| y == b).unwrap();
            r.insert(k + 1, c);
        }
        rot
    }

    fn orient(a: (i64, i64), b: (i64, i64), c: (i64, i64)) -> i128 {
        i128::from(b.0 - a.0) * i128::from(c.1 - a.1)
            - i128::from(b.1 - a.1) * i128::from(c.0 - a.0)
    }

    /// Whether two segments share a point other than a common end (exact).
    fn touch(a: (i64, i64), b: (i64, i64), c: (i64, i64), d: (i64, i64)) -> bool {
        let on = |p: (i64, i64), q: (i64, i64), r: (i64, i64)| {
            orient(p, q, r) == 0
                && r.0 >= p.0.min(q.0)
                && r.0 <= p.0.max(q.0)
                && r.1 >= p.1.min(q.1)
                && r.1 <= p.1.max(q.1)
        };
        let shared = [a, b].iter().filter(|p| **p == c || **p == d).count();
        if shared > 0 {
            // Sharing an end: they overlap only if collinear and pointing the same way.
            let (o, p, q) = if a == c {
                (a, b, d)
            } else if a == d {
                (a, b, c)
            } else if b == c {
                (b, a, d)
            } else {
                (b, a, c)
            };
            return orient(o, p, q) == 0
                && i128::from(p.0 - o.0) * i128::from(q.0 - o.0)
                    + i128::from(p.1 - o.1) * i128::from(q.1 - o.1)
                    > 0;
        }
        let (d1, d2) = (orient(a, b, c), orient(a, b, d));
        let (d3, d4) = (orient(c, d, a), orient(c, d, b));
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
        {
            return true;
        }
        on(a, b, c) || on(a, b, d) || on(c, d, a) || on(c, d, b)
    }

    /// Counter-clockwise angular comparison of directions `p` and `q` (exact).
    fn angle_cmp(p: (i64, i64), q: (i64, i64)) -> std::cmp::Ordering {
        let half = |v: (i64, i64)| u8::from(v.1 < 0 || (v.1 == 0 && v.0 < 0));
        half(p).cmp(&half(q)).then_with(|| {
            0.cmp(&(i128::from(p.0) * i128::from(q.1) - i128::from(p.1) * i128::from(q.0)))
        })
    }

    fn check_drawing(rot: &[Vec<u32>], outer: (u32, u32, u32)) {
        let n = rot.len() as i64;
        let xy = shift_method(rot, outer).unwrap();
        for &(x, y) in &xy {
            assert!(
                (0..=2 * n - 4).contains(&x) && (0..=n - 2).contains(&y),
                "{x},{y}"
            );
        }
        let mut edges = Vec::new();
        for (v, r) in rot.iter().enumerate() {
            for &u in r {
                if (v as u32) < u {
                    edges.push((v, u as usize));
                }
            }
        }
        for (i, &(a, b)) in edges.iter().enumerate() {
            for &(c, d) in &edges[i + 1..] {
                assert!(
                    !touch(xy[a], xy[b], xy[c], xy[d]),
                    "edges {a}-{b} and {c}-{d} meet"
                );
            }
        }
        // The drawing keeps the rotation system.
        for (v, r) in rot.iter().enumerate() {
            let dir = |u: u32| (xy[u as usize].0 - xy[v].0, xy[u as usize].1 - xy[v].1);
            let mut sorted = r.clone();
            sorted.sort_by(|&a, &b| angle_cmp(dir(a), dir(b)));
            let k = sorted.iter().position(|&u| u == r[0]).unwrap();
            sorted.rotate_left(k);
            assert_eq!(&sorted, r, "rotation at {v}");
        }
    }

    #[test]
    fn a_triangle_and_a_tetrahedron() {
        let tri = vec![vec![1, 2], vec![2, 0], vec![0, 1]];
        check_drawing(&tri, (0, 2, 1));
        let tet = random_triangulation(4, 0, 7);
        let w = face_walk(&tet, 0, tet[0][0]);
        check_drawing(&tet, (w[2], w[1], w[0]));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn random_triangulations_drawn_without_crossings(
            n in 3usize..60,
            flips in 0usize..200,
            seed in any::<u64>(),
            pick in any::<u32>(),
        ) {
            let rot = random_triangulation(n, flips, seed);
            // An outer face: the face left of some dart a -> b, walk a -> b -> c:
            // v1 = c, vn = a... any rotation of the walk (v1, vn, v2) = (c, a, b).
            let a = (pick as usize % rot.len()) as u32;
            let b = rot[a as usize][(pick as usize / 7) % rot[a as usize].len()];
            let w = face_walk(&rot, a, b);
            prop_assert_eq!(w.len(), 3);
            check_drawing(&rot, (w[2], w[1], w[0]));
        }
    }
}
