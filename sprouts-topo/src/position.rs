//! `Position`: the set representation of spec section 2.4, with borrowed views of its regions and
//! boundaries.

use std::fmt;

use crate::spot::{Lives, SpotId};

/// Marks an identity that is not a spot of the position in `Position::lives`.
pub(crate) const ABSENT: u8 = u8::MAX;

/// The index of a region in one position.
///
/// Region ids are indices, valid for the position they were read from only: a move renumbers
/// regions (in practice the split region keeps its index for one side and the other side is
/// appended, but do not rely on it). Use spots, which keep their identities, to follow things
/// across moves.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct RegionId(pub(crate) u32);

impl RegionId {
    /// The region's index in its position (`0..region_count()`).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The region with this index (check it against `Position::region_count`).
    pub fn from_index(index: usize) -> RegionId {
        RegionId(u32::try_from(index).expect("region index fits in u32"))
    }
}

/// The index of a boundary in one position (boundaries are numbered across all regions).
///
/// Like `RegionId`, valid for the position it was read from only.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct BoundaryId(pub(crate) u32);

impl BoundaryId {
    /// The boundary's index in its position (`0..boundary_count()`).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The boundary with this index (check it against `Position::boundary_count`).
    pub fn from_index(index: usize) -> BoundaryId {
        BoundaryId(u32::try_from(index).expect("boundary index fits in u32"))
    }
}

/// A corner: one occurrence of a spot on a boundary, by the boundary and the offset in its cyclic
/// sequence.
///
/// A spot with `d >= 1` curves has `d` corners; a spot with no curve is a boundary of its own, and
/// that single occurrence is its corner. Moves go from a corner to a corner.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Corner {
    /// The boundary the corner is on.
    pub boundary: BoundaryId,
    /// The offset of the corner in the boundary's sequence.
    pub index: u32,
}

/// A Sprouts position in the set representation (spec section 2.4, after Applegate, Jacobson and
/// Sleator, "Computer Analysis of Sprouts", CMU-CS-91-144, 1991).
///
/// A position is a list of regions; a region is a list of boundaries; a boundary is the cyclic
/// sequence of spot corners met walking once round it with the region on the left. A spot with no
/// curve is a boundary of its own. Which region is the outside is not recorded: the game is the
/// same on the sphere. Every spot carries its lives.
///
/// A `Position` is built only by [`Position::new`], by reading notation
/// ([`Position::parse_glop`]), by [`Position::from_setup`] or by playing a move, and every one of
/// them upholds the invariants that [`Position::check_invariants`] re-derives.
///
/// Positions read from GLOP notation may be *partial*: GLOP's reductions drop dead regions and
/// stumps, so a spot may be met fewer times than it has curves (GLOP's `2`). Such a position is
/// still a game, and every operation here works on it; [`Position::is_complete`] tells them apart.
///
/// # Equality
///
/// `==` compares the stored representation: the same spots with the same lives, the same regions
/// in the same order, the same boundaries in the same order and rotation. For the same position up
/// to rotation, order and the mirror image use [`Position::game_key`]; for the same *game* (up to
/// renumbering, dead regions and the verified reductions) use [`Position::canonical`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// Lives by spot index (`id - 1`); `ABSENT` for identities that are not spots here.
    pub(crate) lives: Vec<u8>,
    /// The corners of every boundary, concatenated.
    pub(crate) corners: Vec<SpotId>,
    /// Boundary `b` is `corners[bnd[b]..bnd[b + 1]]`.
    pub(crate) bnd: Vec<u32>,
    /// Region `r` is the boundaries `reg[r]..reg[r + 1]`.
    pub(crate) reg: Vec<u32>,
    /// The identity the next move gives its new spot.
    pub(crate) next: SpotId,
}

impl Position {
    /// The start of a game with `n` spots: one region holding the seeds `1..=n`, each a boundary
    /// of its own. `Position::new(0)` is the empty position (no region, no move).
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// let p = Position::new(3);
    /// assert_eq!(p.to_glop(), "0*3");
    /// assert_eq!(p.total_lives(), 9);
    /// ```
    ///
    /// # Panics
    ///
    /// Panics if `n` does not fit the spot numbering (`n >= u32::MAX`).
    pub fn new(n: u32) -> Position {
        assert!(n < u32::MAX, "too many spots");
        let n_us = n as usize;
        let corners: Vec<SpotId> = (0..n_us).map(SpotId::from_index).collect();
        let bnd: Vec<u32> = (0..=n).collect();
        let reg = if n == 0 { vec![0] } else { vec![0, n] };
        Position {
            lives: vec![3; n_us],
            corners,
            bnd,
            reg,
            next: SpotId::new(n + 1).expect("n + 1 is not zero"),
        }
    }

    /// An empty position with room reserved, for building positions in place.
    pub(crate) fn empty_with_next(next: SpotId) -> Position {
        Position {
            lives: Vec::new(),
            corners: Vec::new(),
            bnd: vec![0],
            reg: vec![0],
            next,
        }
    }

    /// Empties the position (no regions), keeping its tables' storage for reuse.
    pub(crate) fn clear_keeping_storage(&mut self) {
        self.lives.clear();
        self.corners.clear();
        self.bnd.clear();
        self.bnd.push(0);
        self.reg.clear();
        self.reg.push(0);
    }

    /// The number of regions.
    pub fn region_count(&self) -> usize {
        self.reg.len() - 1
    }

    /// The number of boundaries, over all regions.
    pub fn boundary_count(&self) -> usize {
        self.bnd.len() - 1
    }

    /// The number of spots (stumps included).
    pub fn spot_count(&self) -> usize {
        self.lives.iter().filter(|&&l| l != ABSENT).count()
    }

    /// The regions, in order.
    pub fn regions(&self) -> impl ExactSizeIterator<Item = Region<'_>> + '_ {
        (0..self.region_count()).map(move |r| Region {
            pos: self,
            id: RegionId::from_index(r),
        })
    }

    /// The region `id`, or `None` if there is no such region.
    pub fn region(&self, id: RegionId) -> Option<Region<'_>> {
        (id.index() < self.region_count()).then_some(Region { pos: self, id })
    }

    /// Every boundary, region by region.
    pub fn boundaries(&self) -> impl ExactSizeIterator<Item = Boundary<'_>> + '_ {
        (0..self.boundary_count()).map(move |b| Boundary {
            pos: self,
            id: BoundaryId::from_index(b),
        })
    }

    /// The boundary `id`, or `None` if there is no such boundary.
    pub fn boundary(&self, id: BoundaryId) -> Option<Boundary<'_>> {
        (id.index() < self.boundary_count()).then_some(Boundary { pos: self, id })
    }

    /// The lives of `spot`, or `None` if it is not a spot of this position.
    pub fn lives(&self, spot: SpotId) -> Option<Lives> {
        match self.lives.get(spot.index()) {
            Some(&l) if l != ABSENT => Lives::new(l),
            _ => None,
        }
    }

    /// The spots with their lives, in increasing order of identity.
    pub fn spots(&self) -> impl Iterator<Item = (SpotId, Lives)> + '_ {
        self.lives
            .iter()
            .enumerate()
            .filter(|(_, l)| **l != ABSENT)
            .map(|(i, &l)| {
                (
                    SpotId::from_index(i),
                    Lives::new(l).expect("stored lives are at most 3"),
                )
            })
    }

    /// Asks the processor for the memory of the position's tables without waiting for it: a
    /// hint that the position will be read soon, with no effect on any value (nothing on other
    /// processors than x86_64). Worth it over positions held in memory, issued a position or two
    /// before each is read, as [`Canonicalizer::canonical_each`] does.
    ///
    /// [`Canonicalizer::canonical_each`]: crate::canon::Canonicalizer::canonical_each
    #[inline]
    pub fn prefetch(&self) {
        crate::prefetch::slice(&self.corners);
        crate::prefetch::slice(&self.bnd);
        crate::prefetch::slice(&self.reg);
        crate::prefetch::slice(&self.lives);
    }

    /// The identity the next move will give its new spot.
    pub fn next_spot(&self) -> SpotId {
        self.next
    }

    /// The lives of all spots together. Every move removes exactly one.
    pub fn total_lives(&self) -> u32 {
        self.lives
            .iter()
            .filter(|&&l| l != ABSENT)
            .map(|&l| u32::from(l))
            .sum()
    }

    /// Whether the game is over: no region has two lives (spec section 1.1).
    pub fn is_over(&self) -> bool {
        self.regions().all(|r| !r.is_alive())
    }

    /// The corners of `spot`, in the order they are stored (empty if it is not a spot here).
    pub fn corners_of(&self, spot: SpotId) -> Vec<Corner> {
        let mut res = Vec::new();
        for b in 0..self.boundary_count() {
            let (s, e) = self.bounds(b);
            for (i, &c) in self.corners[s..e].iter().enumerate() {
                if c == spot {
                    res.push(Corner {
                        boundary: BoundaryId::from_index(b),
                        index: i as u32,
                    });
                }
            }
        }
        res
    }

    /// The region `boundary` belongs to.
    pub fn region_of(&self, boundary: BoundaryId) -> Option<RegionId> {
        if boundary.index() >= self.boundary_count() {
            return None;
        }
        let b = boundary.0;
        // Regions are contiguous runs of boundaries: find the run holding `b`.
        let r = self.reg.partition_point(|&start| start <= b) - 1;
        Some(RegionId::from_index(r))
    }

    /// Whether every spot is met exactly as many times as it has curves (a spot with no curve
    /// once, as a boundary of its own). Positions played from `Position::new` are complete;
    /// positions read from reduced GLOP notation may not be.
    pub fn is_complete(&self) -> bool {
        let mut occ = vec![0u8; self.lives.len()];
        for c in &self.corners {
            occ[c.index()] = occ[c.index()].saturating_add(1);
        }
        for b in 0..self.boundary_count() {
            let (s, e) = self.bounds(b);
            if e - s == 1 && self.lives[self.corners[s].index()] != 3 {
                return false;
            }
        }
        self.lives
            .iter()
            .zip(&occ)
            .all(|(&l, &o)| l == ABSENT || o == (3 - l).max(1))
    }

    /// The mirror image: every boundary reversed. The same game (spec 2.6), drawn the other way
    /// round; reversing one boundary alone is in general another game.
    pub fn mirrored(&self) -> Position {
        let mut out = self.clone();
        for b in 0..self.boundary_count() {
            let (s, e) = self.bounds(b);
            out.corners[s..e].reverse();
        }
        out
    }

    /// The position as a setup (every spot's lives given explicitly), for transforming it and
    /// checking it again with [`Position::from_setup`].
    pub fn to_setup(&self) -> crate::Setup {
        let regions = self
            .regions()
            .map(|r| r.boundaries().map(|b| b.corners().to_vec()).collect())
            .collect();
        let lives = self.spots().collect();
        crate::Setup {
            regions,
            lives,
            next_spot: Some(self.next),
        }
    }

    /// The corner range of boundary `b`.
    #[inline]
    pub(crate) fn bounds(&self, b: usize) -> (usize, usize) {
        (self.bnd[b] as usize, self.bnd[b + 1] as usize)
    }

    /// The boundary range of region `r`.
    #[inline]
    pub(crate) fn region_bounds(&self, r: usize) -> (usize, usize) {
        (self.reg[r] as usize, self.reg[r + 1] as usize)
    }

    /// The corners of boundary `b`.
    #[inline]
    pub(crate) fn boundary_slice(&self, b: usize) -> &[SpotId] {
        let (s, e) = self.bounds(b);
        &self.corners[s..e]
    }

    /// Lives of the spot at zero-based index `i` (the spot must be present).
    #[inline]
    pub(crate) fn lives_at(&self, spot: SpotId) -> u8 {
        self.lives[spot.index()]
    }

    /// The lives of region `r`: the lives of the distinct spots on its boundaries.
    pub(crate) fn region_lives(&self, r: usize) -> u32 {
        let (bs, be) = self.region_bounds(r);
        (bs..be).map(|b| self.boundary_lives(b)).sum()
    }

    /// The lives of boundary `b`: the lives of the distinct spots on it.
    pub(crate) fn boundary_lives(&self, b: usize) -> u32 {
        let cs = self.boundary_slice(b);
        let mut total = 0;
        for (i, &c) in cs.iter().enumerate() {
            let l = self.lives_at(c);
            if l != 0 && !cs[..i].contains(&c) {
                total += u32::from(l);
            }
        }
        total
    }

    /// Appends a boundary to the region being built (see `finish_region`).
    pub(crate) fn push_boundary(&mut self, corners: &[SpotId]) {
        self.corners.extend_from_slice(corners);
        self.bnd
            .push(u32::try_from(self.corners.len()).expect("corner count fits in u32"));
    }

    /// Closes the region made of the boundaries pushed since the last region.
    pub(crate) fn finish_region(&mut self) {
        self.reg
            .push(u32::try_from(self.boundary_count()).expect("boundary count fits in u32"));
    }

    /// Sets the lives of `spot`, growing the table as needed.
    pub(crate) fn set_lives(&mut self, spot: SpotId, lives: u8) {
        if self.lives.len() <= spot.index() {
            self.lives.resize(spot.index() + 1, ABSENT);
        }
        self.lives[spot.index()] = lives;
    }
}

impl fmt::Debug for Position {
    /// Writes the regions with spot identities: boundaries as `1-2-3`, separated by `.`, regions
    /// by `|`, followed by the lives of every spot.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(")?;
        for (r, region) in self.regions().enumerate() {
            if r > 0 {
                write!(f, " | ")?;
            }
            for (i, b) in region.boundaries().enumerate() {
                if i > 0 {
                    write!(f, ".")?;
                }
                for (j, c) in b.corners().iter().enumerate() {
                    if j > 0 {
                        write!(f, "-")?;
                    }
                    write!(f, "{c}")?;
                }
            }
        }
        write!(f, "; lives")?;
        for (s, l) in self.spots() {
            write!(f, " {s}:{l}")?;
        }
        write!(f, "; next {})", self.next)
    }
}

impl fmt::Display for Position {
    /// Writes the position in GLOP notation (see [`Position::to_glop`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_glop())
    }
}

/// A borrowed view of one region of a position.
#[derive(Clone, Copy)]
pub struct Region<'a> {
    pos: &'a Position,
    id: RegionId,
}

impl<'a> Region<'a> {
    /// The region's id in its position.
    pub fn id(self) -> RegionId {
        self.id
    }

    /// The region's boundaries, in order.
    pub fn boundaries(self) -> impl ExactSizeIterator<Item = Boundary<'a>> + 'a {
        let (s, e) = self.pos.region_bounds(self.id.index());
        let pos = self.pos;
        (s..e).map(move |b| Boundary {
            pos,
            id: BoundaryId::from_index(b),
        })
    }

    /// The number of boundaries.
    pub fn boundary_count(self) -> usize {
        let (s, e) = self.pos.region_bounds(self.id.index());
        e - s
    }

    /// The lives of the region: the sum of the lives of the distinct spots on its boundaries.
    pub fn lives(self) -> u32 {
        self.pos.region_lives(self.id.index())
    }

    /// Whether a move is possible in this region (it has at least two lives).
    pub fn is_alive(self) -> bool {
        self.lives() >= 2
    }
}

impl fmt::Debug for Region<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.boundaries()).finish()
    }
}

/// A borrowed view of one boundary of a position.
#[derive(Clone, Copy)]
pub struct Boundary<'a> {
    pos: &'a Position,
    id: BoundaryId,
}

impl<'a> Boundary<'a> {
    /// The boundary's id in its position.
    pub fn id(self) -> BoundaryId {
        self.id
    }

    /// The region the boundary belongs to.
    pub fn region(self) -> RegionId {
        self.pos
            .region_of(self.id)
            .expect("a boundary belongs to a region")
    }

    /// The spot corners met walking round the boundary with its region on the left (a cyclic
    /// sequence; its first element is where the position happens to start it).
    pub fn corners(self) -> &'a [SpotId] {
        self.pos.boundary_slice(self.id.index())
    }

    /// The number of corners.
    pub fn len(self) -> usize {
        self.corners().len()
    }

    /// Whether the boundary has no corner (never true of a valid position).
    pub fn is_empty(self) -> bool {
        self.corners().is_empty()
    }

    /// Whether the boundary is a spot with no curve.
    pub fn is_lone_spot(self) -> bool {
        let cs = self.corners();
        cs.len() == 1 && self.pos.lives_at(cs[0]) == 3
    }

    /// The lives of the distinct spots on the boundary.
    pub fn lives(self) -> u32 {
        self.pos.boundary_lives(self.id.index())
    }
}

impl fmt::Debug for Boundary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.corners().iter().map(|c| c.get()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_positions() {
        let p = Position::new(4);
        assert_eq!(p.region_count(), 1);
        assert_eq!(p.boundary_count(), 4);
        assert_eq!(p.spot_count(), 4);
        assert_eq!(p.next_spot().get(), 5);
        assert_eq!(p.total_lives(), 12);
        assert!(!p.is_over());
        assert!(p.is_complete());
        let r = p.regions().next().unwrap();
        assert_eq!(r.lives(), 12);
        assert!(r.boundaries().all(|b| b.is_lone_spot()));
        assert_eq!(p.region_of(BoundaryId(3)), Some(RegionId(0)));

        let e = Position::new(0);
        assert_eq!(e.region_count(), 0);
        assert!(e.is_over());
        let one = Position::new(1);
        assert!(!one.is_over(), "a lone seed can still make a loop");
    }
}
