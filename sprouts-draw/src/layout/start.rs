//! A position drawn from nothing but its regions (a custom start): the combinatorial map is
//! rebuilt from the boundary walks, then laid out by Z like any picture (spec 4.6).
//!
//! Every step `u -> v` of a boundary walk is one half-edge. Its twin is a step `v -> u`; where
//! several curves join the same two spots (the two halves of a loop), every way of pairing
//! their steps is tried. At a spot, a corner reached along `in` and left along `out` says that
//! `out` comes just before the twin of `in` in the rotation; the pairing is kept when these
//! links close into one cycle at every spot, which makes the map's face walks exactly the
//! position's boundaries.

use sprouts_geom::{CubicBez, Point, Spline};
use sprouts_topo::{Position, SpotId};

use super::LayoutError;
use super::map::{Bnd, Map};
use crate::drawing::{Curve, Drawing, DrawnSpot, WorldSize};

/// The most pairings tried for the parallel curves of one position.
const MAX_PAIRINGS: usize = 1 << 12;

/// One step of a boundary walk: the walk (a boundary's index in the position) and the corner
/// it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    from: usize,
    to: usize,
}

/// The map of a drawable position (see the module docs), with `outside` its largest region.
///
/// # Errors
/// [`LayoutError::Map`] when the position is not drawable (its walks do not pair into curves
/// or do not close into a rotation at some spot).
pub(crate) fn map_of_position(pos: &Position) -> Result<Map, LayoutError> {
    pos.check_drawable()
        .map_err(|e| LayoutError::Map(format!("the position cannot be drawn: {e}")))?;
    let spots: Vec<SpotId> = pos.spots().map(|(s, _)| s).collect();
    let vertex = |s: SpotId| {
        spots
            .binary_search(&s)
            .map_err(|_| LayoutError::Map(format!("spot {s} is on a boundary but not listed")))
    };
    // The steps of every walk, numbered in walk order; `walk_steps[b]` the steps of boundary b.
    let mut steps: Vec<Step> = Vec::new();
    let mut walk_steps: Vec<Vec<usize>> = Vec::new();
    for b in pos.boundaries() {
        let cs = b.corners();
        let mut ws = Vec::new();
        if cs.len() >= 2 {
            for i in 0..cs.len() {
                ws.push(steps.len());
                steps.push(Step {
                    from: vertex(cs[i])?,
                    to: vertex(cs[(i + 1) % cs.len()])?,
                });
            }
        }
        walk_steps.push(ws);
    }
    // Groups of steps between the same two spots: forward (from the smaller) and backward.
    let mut groups: std::collections::BTreeMap<(usize, usize), (Vec<usize>, Vec<usize>)> =
        std::collections::BTreeMap::new();
    for (k, s) in steps.iter().enumerate() {
        if s.from == s.to {
            return Err(LayoutError::Map(format!(
                "a curve from spot {} to itself",
                spots[s.from]
            )));
        }
        let g = groups
            .entry((s.from.min(s.to), s.from.max(s.to)))
            .or_default();
        if s.from < s.to {
            g.0.push(k);
        } else {
            g.1.push(k);
        }
    }
    let groups: Vec<(Vec<usize>, Vec<usize>)> = groups.into_values().collect();
    if groups.iter().any(|(f, b)| f.len() != b.len()) {
        return Err(LayoutError::Map("curves not walked once each way".into()));
    }
    // Every pairing of each group's backward steps with its forward steps, odometer style.
    let choices: Vec<Vec<Vec<usize>>> = groups.iter().map(|(_, b)| permutations(b.len())).collect();
    let total = choices
        .iter()
        .try_fold(1usize, |acc, c| acc.checked_mul(c.len()))
        .filter(|&t| t <= MAX_PAIRINGS)
        .ok_or_else(|| LayoutError::Map("too many parallel curves to pair".into()))?;
    let mut pick = vec![0usize; groups.len()];
    for _ in 0..total {
        // Half-edge of each step: edge e has half-edges 2e (forward) and 2e + 1.
        let mut half = vec![0usize; steps.len()];
        let mut e = 0;
        for (g, (fw, bw)) in groups.iter().enumerate() {
            let perm = &choices[g][pick[g]];
            for (i, &f) in fw.iter().enumerate() {
                half[f] = 2 * e;
                half[bw[perm[i]]] = 2 * e + 1;
                e += 1;
            }
        }
        if let Some(map) = assemble(pos, &spots, &steps, &walk_steps, &half)? {
            return Ok(map);
        }
        // The next pairing.
        for (g, p) in pick.iter_mut().enumerate() {
            *p += 1;
            if *p < choices[g].len() {
                break;
            }
            *p = 0;
        }
    }
    Err(LayoutError::Map(
        "no pairing of the walks' steps closes a rotation at every spot".into(),
    ))
}

/// The map for one pairing of steps into half-edges, or `None` when some spot's corners do not
/// close into one rotation.
fn assemble(
    pos: &Position,
    spots: &[SpotId],
    steps: &[Step],
    walk_steps: &[Vec<usize>],
    half: &[usize],
) -> Result<Option<Map>, LayoutError> {
    let nh = steps.len();
    let mut tail = vec![0usize; nh];
    for (k, s) in steps.iter().enumerate() {
        tail[half[k]] = s.from;
    }
    // sigma(out) = twin(in) for every corner of a walk.
    let mut sigma = vec![usize::MAX; nh];
    for ws in walk_steps {
        for (i, &out) in ws.iter().enumerate() {
            let inn = ws[(i + ws.len() - 1) % ws.len()];
            sigma[half[out]] = half[inn] ^ 1;
        }
    }
    let mut leaving: Vec<Vec<usize>> = vec![Vec::new(); spots.len()];
    for (h, &t) in tail.iter().enumerate() {
        leaving[t].push(h);
    }
    let mut rot: Vec<Vec<usize>> = Vec::with_capacity(spots.len());
    for hs in &leaving {
        let Some(&h0) = hs.first() else {
            rot.push(Vec::new());
            continue;
        };
        let mut r = vec![h0];
        let mut h = sigma[h0];
        while h != h0 {
            if h == usize::MAX || r.len() > hs.len() {
                return Ok(None);
            }
            r.push(h);
            h = sigma[h];
        }
        if r.len() != hs.len() {
            return Ok(None);
        }
        rot.push(r);
    }
    let mut regions = Vec::with_capacity(pos.region_count());
    let mut bnd_index = Vec::with_capacity(pos.boundary_count());
    let mut b = 0;
    for region in pos.regions() {
        let mut bs = Vec::new();
        for bd in region.boundaries() {
            bnd_index.push((regions.len(), bs.len()));
            bs.push(if walk_steps[b].is_empty() {
                let s = bd.corners()[0];
                Bnd::Lone(spots.binary_search(&s).expect("listed above"))
            } else {
                Bnd::Walk(walk_steps[b].iter().map(|&k| half[k]).collect())
            });
            b += 1;
        }
        regions.push(bs);
    }
    let outside = pos
        .regions()
        .enumerate()
        .max_by_key(|(i, r)| {
            (
                r.boundaries().map(|b| b.len()).sum::<usize>(),
                usize::MAX - i,
            )
        })
        .map_or(0, |(i, _)| i);
    let map = Map {
        spots: spots.to_vec(),
        tail,
        rot,
        regions,
        bnd_index,
        outside,
        split: None,
    };
    if map.check().is_err() {
        return Ok(None);
    }
    Ok(Some(map))
}

/// Every permutation of `0..n` (n is at most 3 for curves between two spots of Sprouts).
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for k in 0..=p.len() {
            let mut q = p.clone();
            q.insert(k, n - 1);
            out.push(q);
        }
    }
    out
}

/// A stand-in picture of `map` for [`super::fresh_drawing`], which keeps only the identities
/// and order of spots and curves: spots on a diagonal, curves straight between them.
pub(crate) fn placeholder(map: &Map, world: WorldSize) -> Result<Drawing, LayoutError> {
    let n = map.spots.len().max(1) as f64;
    let at = |v: usize| {
        let t = (v as f64 + 1.0) / (n + 1.0);
        Point::new(t * world.width, t * world.height)
    };
    let spots: Vec<DrawnSpot> = map
        .spots
        .iter()
        .enumerate()
        .map(|(v, &id)| DrawnSpot {
            id,
            centre: at(v),
            radius: 1.0,
        })
        .collect();
    let curves = (0..map.edge_count())
        .map(|e| {
            let (a, b) = (map.tail[2 * e], map.tail[2 * e + 1]);
            let spline = Spline::from_cubic(CubicBez::line(at(a), at(b)), 1.0)
                .map_err(|err| LayoutError::Picture(err.to_string()))?;
            Ok(Curve {
                from: map.spots[a],
                to: map.spots[b],
                spline,
                origin: None,
            })
        })
        .collect::<Result<Vec<_>, LayoutError>>()?;
    Ok(Drawing::from_parts(world, spots, curves)?)
}

impl crate::Board {
    /// A board for a game from any drawable position (a custom start): the picture is drawn
    /// afresh from the position's regions alone (Z of spec 4.6; see the module docs), then
    /// read back and checked against the position like every picture of a board. The game has
    /// no moves and nothing to undo.
    ///
    /// # Errors
    /// [`crate::BoardError::BadSettings`], [`crate::BoardError::Drawing`] for a bad world,
    /// [`crate::BoardError::Layout`] for a position that cannot be drawn (with the rules it
    /// breaks) or a layout that failed, and the authority check's verdict.
    pub fn from_position(
        start: &Position,
        world: WorldSize,
        settings: crate::Settings,
        options: &super::FreshOptions,
    ) -> Result<crate::Board, crate::BoardError> {
        if !settings.is_valid() {
            return Err(crate::BoardError::BadSettings(settings));
        }
        Drawing::new(world)?;
        let map = map_of_position(start)?;
        let stand_in = placeholder(&map, world)?;
        let (drawing, _) =
            super::fresh_drawing(&stand_in, &map, map.outside, &settings, options, None)?;
        crate::Board::from_game(start.clone(), &[], drawing, settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_all_there() {
        assert_eq!(permutations(0).len(), 1);
        assert_eq!(permutations(3).len(), 6);
        let mut p = permutations(3);
        p.sort();
        p.dedup();
        assert_eq!(p.len(), 6);
    }
}
