//! The combinatorial map of a picture (spec 4.6 step 1): rotation system, face walks and
//! regions, read off an [`Analysis`], and a `sprouts-topo` move performed on it (the surgery of
//! spec 2.5, on half-edges).

use sprouts_topo::{Move, Position, Setup, SpotId};

use super::LayoutError;
use crate::analyse::{Analysis, BoundaryPicture};
use crate::drawing::Drawing;

/// One boundary of a region in a [`Map`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bnd {
    /// A face walk: half-edges in order, the region on their left.
    Walk(Vec<usize>),
    /// A vertex with no edge.
    Lone(usize),
}

/// A planar map with nesting: vertices (spots), half-edges `2e` and `2e + 1` of edge `e` (the
/// drawing's curve ids), the rotation at each vertex (counter-clockwise in the y-up frame, as
/// [`Analysis::rotation`]), and the regions, each a list of boundaries, as the position lists
/// them (so a `sprouts-topo` boundary index is a place in [`Map::bnd_index`]).
#[derive(Clone, Debug)]
pub(crate) struct Map {
    /// The spot of each vertex.
    pub spots: Vec<SpotId>,
    /// The tail vertex of each half-edge.
    pub tail: Vec<usize>,
    /// The half-edges leaving each vertex, counter-clockwise.
    pub rot: Vec<Vec<usize>>,
    /// The regions, each a list of boundaries.
    pub regions: Vec<Vec<Bnd>>,
    /// `(region, k)` of each boundary in the position's order.
    pub bnd_index: Vec<(usize, usize)>,
    /// The region that is the outside of the picture.
    pub outside: usize,
    /// The region the last move was played in that kept its index (the side `B_b`) and the
    /// one it made (`B_a`), if the map was made by [`Map::with_move`].
    pub split: Option<(usize, usize)>,
}

impl Map {
    /// The map of an analysed picture.
    pub(crate) fn from_analysis(drawing: &Drawing, analysis: &Analysis) -> Map {
        let spots: Vec<SpotId> = drawing.spots().iter().map(|s| s.id).collect();
        let index_of = |id: SpotId| {
            spots
                .iter()
                .position(|&s| s == id)
                .expect("the analysis names the drawing's spots")
        };
        let ne = drawing.curves().len();
        let tail: Vec<usize> = (0..2 * ne)
            .map(|h| index_of(analysis.tail(crate::HalfEdgeId(h as u32))))
            .collect();
        let rot: Vec<Vec<usize>> = spots
            .iter()
            .map(|&s| analysis.rotation(s).iter().map(|h| h.index()).collect())
            .collect();
        let pos = analysis.position();
        let mut regions = Vec::with_capacity(pos.region_count());
        let mut bnd_index = Vec::with_capacity(pos.boundary_count());
        for (r, region) in pos.regions().enumerate() {
            let mut bs = Vec::new();
            for b in region.boundaries() {
                bnd_index.push((r, bs.len()));
                bs.push(match analysis.boundary(b.id()) {
                    Some(BoundaryPicture::Walk(hs)) => {
                        Bnd::Walk(hs.iter().map(|h| h.index()).collect())
                    }
                    Some(BoundaryPicture::Spot(s)) => Bnd::Lone(index_of(s)),
                    None => unreachable!("every boundary of the position is in the picture"),
                });
            }
            regions.push(bs);
        }
        let outside = analysis.outside().map_or(0, |r| r.index());
        Map {
            spots,
            tail,
            rot,
            regions,
            bnd_index,
            outside,
            split: None,
        }
    }

    /// The number of edges.
    pub(crate) fn edge_count(&self) -> usize {
        self.tail.len() / 2
    }

    /// The vertex a half-edge reaches.
    pub(crate) fn head(&self, h: usize) -> usize {
        self.tail[h ^ 1]
    }

    /// The half-edge after `h` on the walk round the face on its left: the one just before
    /// `twin(h)` in the rotation at `h`'s head.
    pub(crate) fn next(&self, h: usize) -> usize {
        let r = &self.rot[self.head(h)];
        let k = r
            .iter()
            .position(|&g| g == h ^ 1)
            .expect("a half-edge is in the rotation at its tail");
        r[(k + r.len() - 1) % r.len()]
    }

    /// The walk through `h`.
    pub(crate) fn walk_from(&self, h: usize) -> Vec<usize> {
        let mut w = vec![h];
        let mut g = self.next(h);
        while g != h {
            w.push(g);
            g = self.next(g);
            assert!(w.len() <= self.tail.len(), "a walk closes");
        }
        w
    }

    /// The position the map shows (its next spot one after its largest spot).
    pub(crate) fn position(&self) -> Result<Position, LayoutError> {
        let regions: Vec<Vec<Vec<SpotId>>> = self
            .regions
            .iter()
            .map(|r| {
                r.iter()
                    .map(|b| match b {
                        Bnd::Walk(hs) => hs.iter().map(|&h| self.spots[self.tail[h]]).collect(),
                        Bnd::Lone(v) => vec![self.spots[*v]],
                    })
                    .collect()
            })
            .collect();
        let next = self.spots.iter().map(|s| s.get()).max().unwrap_or(0) + 1;
        let setup = Setup {
            next_spot: SpotId::new(next),
            ..Setup::from_regions(regions)
        };
        Position::from_setup(setup).map_err(|e| LayoutError::Map(e.to_string()))
    }

    /// Checks the map: every half-edge on exactly one boundary walk, each walk a cycle of
    /// [`Map::next`], and Euler's formula for each connected piece.
    pub(crate) fn check(&self) -> Result<(), LayoutError> {
        let nh = self.tail.len();
        let mut seen = vec![false; nh];
        for r in &self.regions {
            for b in r {
                if let Bnd::Walk(hs) = b {
                    for (k, &h) in hs.iter().enumerate() {
                        if seen[h] {
                            return Err(LayoutError::Map(format!("half-edge {h} on two walks")));
                        }
                        seen[h] = true;
                        if self.next(h) != hs[(k + 1) % hs.len()] {
                            return Err(LayoutError::Map(format!("walk broken after {h}")));
                        }
                    }
                }
            }
        }
        if seen.iter().any(|s| !s) {
            return Err(LayoutError::Map("a half-edge on no walk".into()));
        }
        Ok(())
    }

    /// The corner `c` of the position as `(vertex, leave, arrive)`: the walk leaves the vertex
    /// along `leave` and arrives along `arrive`; both `None` for a vertex with no edge.
    fn corner(
        &self,
        c: sprouts_topo::Corner,
    ) -> Result<(usize, Option<(usize, usize)>), LayoutError> {
        let &(r, k) = self
            .bnd_index
            .get(c.boundary.index())
            .ok_or_else(|| LayoutError::Map(format!("no boundary {:?}", c.boundary)))?;
        match &self.regions[r][k] {
            Bnd::Lone(v) => Ok((*v, None)),
            Bnd::Walk(hs) => {
                let i = c.index as usize;
                if i >= hs.len() {
                    return Err(LayoutError::Map(format!("no corner {c:?}")));
                }
                let leave = hs[i];
                let arrive = hs[(i + hs.len() - 1) % hs.len()];
                Ok((self.tail[leave], Some((leave, arrive))))
            }
        }
    }

    /// The map after `mv` (a move of [`Map::position`]): the new spot `z`, edges `x -> z`
    /// (half-edges `2 e1`, `2 e1 + 1`) and `z -> y` (`2 e2`, `2 e2 + 1`) numbered after the
    /// existing ones, as [`Drawing::add_move_curves`] numbers them.
    ///
    /// At `y` the half-edge `y -> z` goes just after the corner's leaving half-edge; at `x` the
    /// half-edge `x -> z` just before the twin of its arriving one (for a loop, both in one
    /// corner, in that order). Then the walk through `z -> x` is `B_a = [x, .., y, z]` and the
    /// one through `x -> z` is `B_b` (one walk for a two-boundary move).
    pub(crate) fn with_move(&self, mv: &Move) -> Result<Map, LayoutError> {
        let (x, from) = self.corner(mv.from())?;
        let (y, to) = self.corner(mv.to())?;
        if self.spots[x] != mv.spots().0 || self.spots[y] != mv.spots().1 {
            return Err(LayoutError::Map(
                "the move's corners name other spots".into(),
            ));
        }
        let mut m = self.clone();
        let e1 = self.edge_count();
        let e2 = e1 + 1;
        let z = m.spots.len();
        m.spots.push(mv.new_spot());
        m.tail.extend([x, z, z, y]);
        m.rot.push(vec![2 * e1 + 1, 2 * e2]);
        // At y: just after the leaving half-edge.
        match to {
            None => m.rot[y].push(2 * e2 + 1),
            Some((leave, _)) => {
                let k = m.rot[y]
                    .iter()
                    .position(|&g| g == leave)
                    .expect("leave at y");
                m.rot[y].insert(k + 1, 2 * e2 + 1);
            }
        }
        // At x: just before the twin of the arriving half-edge.
        match from {
            None => m.rot[x].push(2 * e1),
            Some((_, arrive)) => {
                let k = m.rot[x]
                    .iter()
                    .position(|&g| g == arrive ^ 1)
                    .expect("twin of arrive at x");
                m.rot[x].insert(k, 2 * e1);
            }
        }
        let r = mv.region().index();
        let (j, _) = self.bnd_index[mv.from().boundary.index()];
        let (j2, _) = self.bnd_index[mv.to().boundary.index()];
        if j != r || j2 != r {
            return Err(LayoutError::Map(
                "the move's corners are not in its region".into(),
            ));
        }
        let kj = self.bnd_index[mv.from().boundary.index()].1;
        let kj2 = self.bnd_index[mv.to().boundary.index()].1;
        let wb = m.walk_from(2 * e1);
        let mut rest: Vec<(usize, Bnd)> = self.regions[r]
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != kj && k != kj2)
            .map(|(k, b)| (k, b.clone()))
            .collect();
        let mut regions = self.regions.clone();
        if mv.is_one_boundary() {
            let wa = m.walk_from(2 * e1 + 1);
            if wa.contains(&(2 * e1)) {
                return Err(LayoutError::Map("a one-boundary move made one walk".into()));
            }
            let side_a: Vec<usize> = mv
                .side_a()
                .iter()
                .map(|b| self.bnd_index[b.index()].1)
                .collect();
            let mut a = vec![Bnd::Walk(wa)];
            let mut b = vec![Bnd::Walk(wb)];
            for (k, bd) in rest.drain(..) {
                if side_a.contains(&k) {
                    a.push(bd);
                } else {
                    b.push(bd);
                }
            }
            regions[r] = b;
            regions.push(a);
            m.split = Some((r, regions.len() - 1));
        } else {
            if !wb.contains(&(2 * e1 + 1)) {
                return Err(LayoutError::Map(
                    "a two-boundary move made two walks".into(),
                ));
            }
            let mut b = vec![Bnd::Walk(wb)];
            b.extend(rest.drain(..).map(|(_, bd)| bd));
            regions[r] = b;
            m.split = None;
        }
        m.regions = regions;
        m.bnd_index = m
            .regions
            .iter()
            .enumerate()
            .flat_map(|(r, bs)| (0..bs.len()).map(move |k| (r, k)))
            .collect();
        m.check()?;
        Ok(m)
    }
}
