//! Moves (spec section 2.5): `Move`, `Family`, enumeration, and playing a move.

use std::fmt::Write as _;

use smallvec::SmallVec;
use thiserror::Error;

use crate::position::{BoundaryId, Corner, Position, RegionId};
use crate::spot::SpotId;

/// A move, relative to the position it was made for: a region, the two corners the curve joins,
/// and for a one-boundary move which of the region's other boundaries go with which side.
///
/// With `x` the spot at `from`, `y` the spot at `to` and `z` the new spot:
///
/// * a *two-boundary* move (the corners are on different boundaries) joins the two boundaries
///   into one, `[x, ..round the first.., x, z, y, ..round the second.., y, z]`; nothing else
///   changes;
/// * a *one-boundary* move (both corners on one boundary, possibly the same corner: a loop)
///   splits the region in two, with the boundaries `B_a = [x, .., y, z]` (reading the old
///   boundary from `x` to `y`) and `B_b = [y, .., x, z]`. Each of the region's other boundaries
///   goes with `B_a` (it is in [`Move::side_a`]) or with `B_b`.
///
/// Loops need two lives at the spot. A move is played with [`Position::play`], which checks it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub(crate) region: RegionId,
    pub(crate) from: Corner,
    pub(crate) to: Corner,
    pub(crate) from_spot: SpotId,
    pub(crate) to_spot: SpotId,
    pub(crate) new_spot: SpotId,
    pub(crate) side_a: SmallVec<[BoundaryId; 4]>,
}

impl Move {
    /// The region the move is played in.
    pub fn region(&self) -> RegionId {
        self.region
    }

    /// The corner the curve leaves from.
    pub fn from(&self) -> Corner {
        self.from
    }

    /// The corner the curve arrives at.
    pub fn to(&self) -> Corner {
        self.to
    }

    /// The two spots the curve joins (equal for a loop).
    pub fn spots(&self) -> (SpotId, SpotId) {
        (self.from_spot, self.to_spot)
    }

    /// The spot the move creates.
    pub fn new_spot(&self) -> SpotId {
        self.new_spot
    }

    /// Whether both corners are on one boundary (the move splits its region in two).
    pub fn is_one_boundary(&self) -> bool {
        self.from.boundary == self.to.boundary
    }

    /// Whether the curve goes from a spot back to itself.
    pub fn is_loop(&self) -> bool {
        self.from_spot == self.to_spot
    }

    /// The boundaries that go with `B_a = [x, .., y, z]`, in increasing order (empty for a
    /// two-boundary move).
    pub fn side_a(&self) -> &[BoundaryId] {
        &self.side_a
    }

    /// The region's other boundaries on each side: `(with B_a, with B_b)`, or `None` for a
    /// two-boundary move or a position the move does not belong to.
    pub fn sides(&self, pos: &Position) -> Option<(Vec<BoundaryId>, Vec<BoundaryId>)> {
        if !self.is_one_boundary() || self.region.index() >= pos.region_count() {
            return None;
        }
        let (bs, be) = pos.region_bounds(self.region.index());
        let mut a = Vec::new();
        let mut b = Vec::new();
        for i in bs..be {
            let id = BoundaryId::from_index(i);
            if id == self.from.boundary {
                continue;
            }
            if self.side_a.contains(&id) {
                a.push(id)
            } else {
                b.push(id)
            }
        }
        Some((a, b))
    }

    /// The distinct spots on the boundaries that go with `B_a` (what the curve encloses on that
    /// side), in increasing order.
    pub fn enclosed_spots(&self, pos: &Position) -> Vec<SpotId> {
        let mut spots: Vec<SpotId> = self
            .side_a
            .iter()
            .filter_map(|&b| pos.boundary(b))
            .flat_map(|b| b.corners().iter().copied())
            .collect();
        spots.sort_unstable();
        spots.dedup();
        spots
    }

    /// The move in words, as the log and the status line write it: `3 -> 5` for a two-boundary
    /// move, `3 -> 5 enclosing 7, 8-9` for a one-boundary move (each enclosed boundary by its
    /// distinct spots), `3 -> 3 enclosing nothing` for a one-boundary move with nothing on its
    /// `B_a` side.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// let p = Position::new(3);
    /// let descriptions: Vec<String> = p.moves().map(|m| m.describe(&p)).collect();
    /// assert!(descriptions.contains(&"1 -> 2".to_string()));
    /// assert!(descriptions.contains(&"1 -> 1 enclosing 2, 3".to_string()));
    /// assert!(descriptions.contains(&"1 -> 1 enclosing nothing".to_string()));
    /// ```
    pub fn describe(&self, pos: &Position) -> String {
        let mut s = format!("{} -> {}", self.from_spot, self.to_spot);
        if self.is_one_boundary() {
            if self.side_a.is_empty() {
                s.push_str(" enclosing nothing");
            } else {
                s.push_str(" enclosing ");
                for (i, &b) in self.side_a.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    let mut seen: SmallVec<[SpotId; 8]> = SmallVec::new();
                    if let Some(bd) = pos.boundary(b) {
                        for &c in bd.corners() {
                            if !seen.contains(&c) {
                                if !seen.is_empty() {
                                    s.push('-');
                                }
                                let _ = write!(s, "{c}");
                                seen.push(c);
                            }
                        }
                    }
                }
            }
        }
        s
    }
}

/// Why a move cannot be played in a position. The position is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveError {
    /// The region does not exist.
    #[error("there is no region {0:?}")]
    NoSuchRegion(RegionId),
    /// The corner does not exist.
    #[error("there is no corner {0:?}")]
    NoSuchCorner(Corner),
    /// The corner is not on a boundary of the move's region.
    #[error("corner {corner:?} is not in region {region:?}")]
    CornerNotInRegion {
        /// The corner.
        corner: Corner,
        /// The move's region.
        region: RegionId,
    },
    /// The corner holds another spot than the move says (the move was made for another
    /// position).
    #[error("corner {corner:?} is spot {found}, not spot {expected}")]
    SpotMismatch {
        /// The corner.
        corner: Corner,
        /// The spot the move names.
        expected: SpotId,
        /// The spot at the corner.
        found: SpotId,
    },
    /// The move creates another spot than the position's next (it was made for another position).
    #[error("the move creates spot {expected} but the next spot is {next}")]
    StaleMove {
        /// The spot the move creates.
        expected: SpotId,
        /// The position's next spot.
        next: SpotId,
    },
    /// A spot the curve joins has no life left.
    #[error("spot {spot} has no life left")]
    NoLife {
        /// The spot.
        spot: SpotId,
    },
    /// A loop needs two lives at its spot.
    #[error("a loop at spot {spot} needs two lives")]
    LoopNeedsTwoLives {
        /// The spot.
        spot: SpotId,
    },
    /// A two-boundary move encloses nothing.
    #[error("a move joining two boundaries cannot enclose boundaries")]
    EnclosureOfTwoBoundaryMove,
    /// An enclosed boundary is not one of the region's other boundaries.
    #[error("boundary {boundary:?} is not another boundary of the move's region")]
    EnclosedNotInRegion {
        /// The boundary.
        boundary: BoundaryId,
    },
}

impl Position {
    /// Builds the move from corner `from` to corner `to` (in one region), sending the boundaries
    /// `side_a` with `B_a` for a one-boundary move.
    ///
    /// # Errors
    ///
    /// Why the move is not legal here.
    pub fn make_move(
        &self,
        from: Corner,
        to: Corner,
        side_a: &[BoundaryId],
    ) -> Result<Move, MoveError> {
        let region = self
            .region_of(from.boundary)
            .ok_or(MoveError::NoSuchCorner(from))?;
        let mut side: SmallVec<[BoundaryId; 4]> = side_a.iter().copied().collect();
        side.sort_unstable();
        side.dedup();
        let mv = Move {
            region,
            from,
            to,
            from_spot: self.spot_at(from).ok_or(MoveError::NoSuchCorner(from))?,
            to_spot: self.spot_at(to).ok_or(MoveError::NoSuchCorner(to))?,
            new_spot: self.next,
            side_a: side,
        };
        self.check_move(&mv)?;
        Ok(mv)
    }

    /// The spot at `corner`, if the corner exists.
    pub fn spot_at(&self, corner: Corner) -> Option<SpotId> {
        let b = corner.boundary.index();
        if b >= self.boundary_count() {
            return None;
        }
        self.boundary_slice(b).get(corner.index as usize).copied()
    }

    /// Whether `mv` can be played here.
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Checks `mv` against this position.
    pub(crate) fn check_move(&self, mv: &Move) -> Result<(), MoveError> {
        let r = mv.region.index();
        if r >= self.region_count() {
            return Err(MoveError::NoSuchRegion(mv.region));
        }
        if mv.new_spot != self.next {
            return Err(MoveError::StaleMove {
                expected: mv.new_spot,
                next: self.next,
            });
        }
        let (bs, be) = self.region_bounds(r);
        for (corner, spot) in [(mv.from, mv.from_spot), (mv.to, mv.to_spot)] {
            let found = self
                .spot_at(corner)
                .ok_or(MoveError::NoSuchCorner(corner))?;
            let b = corner.boundary.index();
            if b < bs || b >= be {
                return Err(MoveError::CornerNotInRegion {
                    corner,
                    region: mv.region,
                });
            }
            if found != spot {
                return Err(MoveError::SpotMismatch {
                    corner,
                    expected: spot,
                    found,
                });
            }
        }
        let (x, y) = (mv.from_spot, mv.to_spot);
        for s in [x, y] {
            if self.lives_at(s) == 0 {
                return Err(MoveError::NoLife { spot: s });
            }
        }
        if x == y && self.lives_at(x) < 2 {
            return Err(MoveError::LoopNeedsTwoLives { spot: x });
        }
        if mv.is_one_boundary() {
            for w in mv.side_a.windows(2) {
                if w[0] >= w[1] {
                    return Err(MoveError::EnclosedNotInRegion { boundary: w[1] });
                }
            }
            for &b in &mv.side_a {
                let i = b.index();
                if i < bs || i >= be || b == mv.from.boundary {
                    return Err(MoveError::EnclosedNotInRegion { boundary: b });
                }
            }
        } else if !mv.side_a.is_empty() {
            return Err(MoveError::EnclosureOfTwoBoundaryMove);
        }
        Ok(())
    }

    /// Plays `mv` and returns the new position (with the new spot); `self` is unchanged.
    ///
    /// # Errors
    ///
    /// Why the move is illegal here.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// let p = Position::new(2);
    /// let mv = p.moves().find(|m| !m.is_loop()).unwrap();
    /// let q = p.play(&mv).unwrap();
    /// assert_eq!(q.to_glop(), "1a1a");
    /// assert_eq!(q.total_lives(), p.total_lives() - 1);
    /// ```
    pub fn play(&self, mv: &Move) -> Result<Position, MoveError> {
        let mut out = Position::empty_with_next(self.next);
        self.play_into(mv, &mut out)?;
        Ok(out)
    }

    /// Plays `mv` into `out`, reusing its storage (for move generation without allocation).
    ///
    /// # Errors
    ///
    /// Why the move is illegal here; `out` is then left empty.
    pub fn play_into(&self, mv: &Move, out: &mut Position) -> Result<(), MoveError> {
        out.clear_keeping_storage();
        self.check_move(mv)?;
        self.apply(mv, out);
        Ok(())
    }

    /// Plays `mv`, a move this position generated (so legal: not checked again outside debug
    /// builds), into `out`, reusing its storage.
    pub(crate) fn play_generated_into(&self, mv: &Move, out: &mut Position) {
        out.clear_keeping_storage();
        debug_assert_eq!(self.check_move(mv), Ok(()));
        self.apply(mv, out);
    }

    /// Plays a checked move into the cleared `out`.
    fn apply(&self, mv: &Move, out: &mut Position) {
        let z = mv.new_spot;
        let (x, y) = (mv.from_spot, mv.to_spot);
        out.lives.extend_from_slice(&self.lives);
        out.lives[x.index()] -= 1;
        out.lives[y.index()] -= 1;
        out.set_lives(z, 1);
        out.next = z.succ();
        let r = mv.region.index();
        let (bs, be) = self.region_bounds(r);
        // Regions before the move's region are copied.
        for q in 0..r {
            self.copy_region(q, out);
        }
        let j = mv.from.boundary.index();
        let bj = self.boundary_slice(j);
        let i = mv.from.index as usize;
        if mv.is_one_boundary() {
            let m = bj.len();
            let i2 = mv.to.index as usize;
            let p = (i2 + m - i) % m;
            // B_a = [b_i .. b_{i+p}, z], then the boundaries enclosed on its side.
            for k in 0..=p {
                out.corners.push(bj[(i + k) % m]);
            }
            out.corners.push(z);
            out.close_boundary();
            for &b in &mv.side_a {
                self.copy_boundary(b.index(), out);
            }
            out.finish_region();
            for q in r + 1..self.region_count() {
                self.copy_region(q, out);
            }
            // B_b = [b_{i+p} .. b_{i+m}, z] (a spot with no curve is met once), then the rest.
            if self.lives_at(x) == 3 {
                out.corners.push(x);
            } else {
                for k in p..=m {
                    out.corners.push(bj[(i + k) % m]);
                }
            }
            out.corners.push(z);
            out.close_boundary();
            for b in bs..be {
                if b != j && !mv.side_a.contains(&BoundaryId::from_index(b)) {
                    self.copy_boundary(b, out);
                }
            }
            out.finish_region();
        } else {
            let j2 = mv.to.boundary.index();
            let bk = self.boundary_slice(j2);
            let i2 = mv.to.index as usize;
            let (first, second) = (j.min(j2), j.max(j2));
            for b in bs..be {
                if b == first {
                    push_round(bj, i, self.lives_at(x) < 3, out);
                    out.corners.push(z);
                    push_round(bk, i2, self.lives_at(y) < 3, out);
                    out.corners.push(z);
                    out.close_boundary();
                } else if b != second {
                    self.copy_boundary(b, out);
                }
            }
            out.finish_region();
            for q in r + 1..self.region_count() {
                self.copy_region(q, out);
            }
        }
    }

    fn copy_boundary(&self, b: usize, out: &mut Position) {
        out.corners.extend_from_slice(self.boundary_slice(b));
        out.close_boundary();
    }

    fn copy_region(&self, r: usize, out: &mut Position) {
        let (bs, be) = self.region_bounds(r);
        for b in bs..be {
            self.copy_boundary(b, out);
        }
        out.finish_region();
    }

    /// Ends the boundary made of the corners pushed since the last one.
    pub(crate) fn close_boundary(&mut self) {
        self.bnd
            .push(u32::try_from(self.corners.len()).expect("corner count fits in u32"));
    }
}

/// Pushes the boundary `cs` read from offset `i` all the way round, and the corner's spot again
/// when it had curves (the walk passes it on both sides of the new curve).
fn push_round(cs: &[SpotId], i: usize, again: bool, out: &mut Position) {
    let m = cs.len();
    for k in 0..m {
        out.corners.push(cs[(i + k) % m]);
    }
    if again {
        out.corners.push(cs[i]);
    }
}

/// All the moves for one pair of corners: a two-boundary move, or a one-boundary move standing
/// for its `2^k` ways of sending the region's `k` other live boundaries to either side (spec 2.5;
/// boundaries with no life left always go with `B_b`).
///
/// Interchangeable boundaries (equal ones that share no live spot with anything else, such as
/// loose seeds) are grouped, so [`Family::distinct_moves`] can enumerate how many of each kind go
/// with `B_a` rather than which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    region: RegionId,
    from: Corner,
    to: Corner,
    from_spot: SpotId,
    to_spot: SpotId,
    new_spot: SpotId,
    /// The region's other live boundaries, grouped by interchangeability class.
    free: SmallVec<[BoundaryId; 8]>,
    /// The sizes of the groups of interchangeable boundaries in `free`, in order.
    classes: SmallVec<[u32; 8]>,
}

impl Family {
    /// The region.
    pub fn region(&self) -> RegionId {
        self.region
    }

    /// The two corners.
    pub fn corners(&self) -> (Corner, Corner) {
        (self.from, self.to)
    }

    /// The two spots the curve joins.
    pub fn spots(&self) -> (SpotId, SpotId) {
        (self.from_spot, self.to_spot)
    }

    /// Whether both corners are on one boundary.
    pub fn is_one_boundary(&self) -> bool {
        self.from.boundary == self.to.boundary
    }

    /// The region's other boundaries that still have lives (they may go to either side), grouped
    /// so that interchangeable ones are next to each other.
    pub fn free_boundaries(&self) -> &[BoundaryId] {
        &self.free
    }

    /// The sizes of the groups of interchangeable boundaries in
    /// [`Family::free_boundaries`], in order.
    pub fn interchangeable_groups(&self) -> &[u32] {
        &self.classes
    }

    /// The number of moves in the family (`2^k`), saturating at `u128::MAX`.
    pub fn move_count(&self) -> u128 {
        if self.free.len() >= 128 {
            u128::MAX
        } else {
            1u128 << self.free.len()
        }
    }

    /// The number of distinct moves (interchangeable boundaries counted, not chosen), saturating.
    pub fn distinct_move_count(&self) -> u128 {
        self.classes
            .iter()
            .fold(1u128, |acc, &n| acc.saturating_mul(u128::from(n) + 1))
    }

    /// The move sending exactly the boundaries `side_a` (which must be free boundaries of the
    /// family) with `B_a`; `None` if one is not.
    pub fn with_side_a(&self, side_a: &[BoundaryId]) -> Option<Move> {
        if side_a.iter().any(|b| !self.free.contains(b)) {
            return None;
        }
        let mut side: SmallVec<[BoundaryId; 4]> = side_a.iter().copied().collect();
        side.sort_unstable();
        side.dedup();
        Some(self.make(side))
    }

    /// Every move of the family (all `2^k` enclosures).
    pub fn moves(&self) -> FamilyMoves<'_> {
        FamilyMoves::new(self, false)
    }

    /// One move per choice of how many boundaries of each interchangeable group go with `B_a`.
    pub fn distinct_moves(&self) -> FamilyMoves<'_> {
        FamilyMoves::new(self, true)
    }

    fn make(&self, side_a: SmallVec<[BoundaryId; 4]>) -> Move {
        Move {
            region: self.region,
            from: self.from,
            to: self.to,
            from_spot: self.from_spot,
            to_spot: self.to_spot,
            new_spot: self.new_spot,
            side_a,
        }
    }
}

/// The moves of a family, as an odometer over the enclosure choices.
#[derive(Clone, Debug)]
pub struct FamilyMoves<'a> {
    family: &'a Family,
    distinct: bool,
    /// One digit per free boundary (0 or 1), or per group (how many go with `B_a`).
    digits: SmallVec<[u32; 8]>,
    done: bool,
}

impl<'a> FamilyMoves<'a> {
    fn new(family: &'a Family, distinct: bool) -> FamilyMoves<'a> {
        let n = if distinct {
            family.classes.len()
        } else {
            family.free.len()
        };
        FamilyMoves {
            family,
            distinct,
            digits: SmallVec::from_elem(0, n),
            done: false,
        }
    }

    fn radix(&self, i: usize) -> u32 {
        if self.distinct {
            self.family.classes[i] + 1
        } else {
            2
        }
    }
}

impl Iterator for FamilyMoves<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        if self.done {
            return None;
        }
        let mut side: SmallVec<[BoundaryId; 4]> = SmallVec::new();
        if self.distinct {
            let mut start = 0usize;
            for (g, &size) in self.family.classes.iter().enumerate() {
                let take = self.digits[g] as usize;
                side.extend_from_slice(&self.family.free[start..start + take]);
                start += size as usize;
            }
        } else {
            for (i, &d) in self.digits.iter().enumerate() {
                if d == 1 {
                    side.push(self.family.free[i]);
                }
            }
        }
        side.sort_unstable();
        let mv = self.family.make(side);
        // Advance the odometer.
        let mut i = 0;
        loop {
            if i == self.digits.len() {
                self.done = true;
                break;
            }
            self.digits[i] += 1;
            if self.digits[i] < self.radix(i) {
                break;
            }
            self.digits[i] = 0;
            i += 1;
        }
        Some(mv)
    }
}

/// Every move of a position, family by family; see [`Position::moves`].
#[derive(Clone, Debug)]
pub struct Moves {
    families: Vec<Family>,
    family: usize,
    distinct: bool,
    digits: SmallVec<[u32; 8]>,
    done_family: bool,
}

impl Iterator for Moves {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        loop {
            let fam = self.families.get(self.family)?;
            if self.done_family {
                self.family += 1;
                self.done_family = false;
                if let Some(f) = self.families.get(self.family) {
                    let n = if self.distinct {
                        f.classes.len()
                    } else {
                        f.free.len()
                    };
                    self.digits = SmallVec::from_elem(0, n);
                }
                continue;
            }
            let mut it = FamilyMoves {
                family: fam,
                distinct: self.distinct,
                digits: std::mem::take(&mut self.digits),
                done: false,
            };
            let mv = it.next();
            self.digits = it.digits;
            self.done_family = it.done;
            if let Some(mv) = mv {
                return Some(mv);
            }
        }
    }
}

impl Position {
    /// One family per pair of corners that a curve can join (spec 2.5, `ai.families`): for every
    /// region with two lives, every pair of corners of spots with a life (a corner with itself for
    /// a loop at a spot with two lives), in region order.
    pub fn families(&self) -> Vec<Family> {
        let mut out = Vec::new();
        let occ = self.occurrences();
        for r in 0..self.region_count() {
            if self.region_lives(r) < 2 {
                continue;
            }
            let (bs, be) = self.region_bounds(r);
            let classes = self.interchange_classes(r, &occ);
            // The live corners of the region, in order.
            let mut live: SmallVec<[Corner; 32]> = SmallVec::new();
            for b in bs..be {
                for (i, &c) in self.boundary_slice(b).iter().enumerate() {
                    if self.lives_at(c) > 0 {
                        live.push(Corner {
                            boundary: BoundaryId::from_index(b),
                            index: i as u32,
                        });
                    }
                }
            }
            for (a, &ca) in live.iter().enumerate() {
                let sa = self.spot_at(ca).expect("listed corner");
                for &cb in &live[a..] {
                    let sb = self.spot_at(cb).expect("listed corner");
                    if sa == sb && self.lives_at(sa) < 2 {
                        continue;
                    }
                    let mut fam = Family {
                        region: RegionId::from_index(r),
                        from: ca,
                        to: cb,
                        from_spot: sa,
                        to_spot: sb,
                        new_spot: self.next,
                        free: SmallVec::new(),
                        classes: SmallVec::new(),
                    };
                    if ca.boundary == cb.boundary {
                        // The other live boundaries, grouped by class.
                        let mut free: SmallVec<[(u32, BoundaryId); 8]> = SmallVec::new();
                        for b in bs..be {
                            let id = BoundaryId::from_index(b);
                            if id != ca.boundary && self.boundary_lives(b) > 0 {
                                free.push((classes[b - bs], id));
                            }
                        }
                        free.sort_unstable();
                        for (k, &(class, id)) in free.iter().enumerate() {
                            fam.free.push(id);
                            if k > 0 && free[k - 1].0 == class {
                                *fam.classes.last_mut().expect("a group is open") += 1;
                            } else {
                                fam.classes.push(1);
                            }
                        }
                    }
                    out.push(fam);
                }
            }
        }
        out
    }

    /// Every legal move (every family with all its enclosures; boundaries with no life left go
    /// with `B_b`). The number of moves can be astronomical in a region with many boundaries;
    /// see [`Position::distinct_moves`].
    pub fn moves(&self) -> Moves {
        self.moves_iter(false)
    }

    /// The legal moves with interchangeable boundaries enumerated by count: one move per family
    /// and per choice of how many boundaries of each interchangeable group go with `B_a`.
    /// Different moves may still give the same game (compare canonical forms for that).
    pub fn distinct_moves(&self) -> Moves {
        self.moves_iter(true)
    }

    fn moves_iter(&self, distinct: bool) -> Moves {
        let families = self.families();
        let digits = match families.first() {
            Some(f) => SmallVec::from_elem(
                0,
                if distinct {
                    f.classes.len()
                } else {
                    f.free.len()
                },
            ),
            None => SmallVec::new(),
        };
        Moves {
            families,
            family: 0,
            distinct,
            digits,
            done_family: false,
        }
    }

    /// How many times each spot index is met.
    pub(crate) fn occurrences(&self) -> Vec<u8> {
        let mut occ = vec![0u8; self.lives.len()];
        for c in &self.corners {
            occ[c.index()] = occ[c.index()].saturating_add(1);
        }
        occ
    }

    /// A class per boundary of region `r` (by offset in the region): equal classes mean
    /// interchangeable boundaries. A boundary is interchangeable with another when neither shares
    /// a live spot with anything else and they are equal up to rotation and renaming of their
    /// spots (stumps ignored: they are dead).
    pub(crate) fn interchange_classes(&self, r: usize, occ: &[u8]) -> SmallVec<[u32; 16]> {
        let (bs, be) = self.region_bounds(r);
        let mut keys: SmallVec<[(SmallVec<[u32; 8]>, usize); 16]> = SmallVec::new();
        let mut classes: SmallVec<[u32; 16]> = SmallVec::from_elem(0, be - bs);
        let mut next_unique = u32::MAX;
        for b in bs..be {
            let cs = self.boundary_slice(b);
            let live: SmallVec<[SpotId; 8]> = cs
                .iter()
                .copied()
                .filter(|&c| self.lives_at(c) > 0)
                .collect();
            let closed = live
                .iter()
                .all(|&c| live.iter().filter(|&&d| d == c).count() == usize::from(occ[c.index()]));
            if !closed || live.is_empty() {
                classes[b - bs] = next_unique;
                next_unique -= 1;
                continue;
            }
            keys.push((local_word_key(self, &live), b - bs));
        }
        keys.sort_unstable();
        let mut class = 0u32;
        for k in 0..keys.len() {
            if k > 0 && keys[k - 1].0 != keys[k].0 {
                class += 1;
            }
            classes[keys[k].1] = class;
        }
        classes
    }
}

/// The least rotation of a closed boundary's live word, spots written by lives and repeated spots
/// numbered in order of appearance.
fn local_word_key(pos: &Position, live: &[SpotId]) -> SmallVec<[u32; 8]> {
    let m = live.len();
    let mut best: SmallVec<[u32; 8]> = SmallVec::new();
    let mut cur: SmallVec<[u32; 8]> = SmallVec::new();
    let mut names: SmallVec<[SpotId; 8]> = SmallVec::new();
    for rot in 0..m {
        cur.clear();
        names.clear();
        for k in 0..m {
            let c = live[(rot + k) % m];
            let l = u32::from(pos.lives_at(c));
            let repeated = live.iter().filter(|&&d| d == c).count() > 1;
            let code = if repeated {
                let idx = match names.iter().position(|&n| n == c) {
                    Some(i) => i,
                    None => {
                        names.push(c);
                        names.len() - 1
                    }
                };
                16 + idx as u32
            } else {
                l
            };
            cur.push(code);
        }
        if rot == 0 || cur < best {
            best = cur.clone();
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_from_two_seeds() {
        let p = Position::new(2);
        let fams = p.families();
        // Loops at 1 and at 2, and the join 1-2.
        assert_eq!(fams.len(), 3);
        let all: Vec<Move> = p.moves().collect();
        // Each loop encloses the other seed or not: 2 + 2, plus the join.
        assert_eq!(all.len(), 5);
        // The other seed is interchangeable with nothing else: still 2 choices per loop.
        assert_eq!(p.distinct_moves().count(), 5);
        for mv in &all {
            let q = p.play(mv).unwrap();
            q.check_invariants().unwrap();
            assert_eq!(q.total_lives(), 5);
            assert_eq!(q.next_spot().get(), 4);
        }
    }

    #[test]
    fn seeds_are_enumerated_by_count() {
        let p = Position::new(5);
        let loops_at_1 = p
            .families()
            .into_iter()
            .find(|f| f.spots() == (SpotId::new(1).unwrap(), SpotId::new(1).unwrap()))
            .unwrap();
        assert_eq!(loops_at_1.move_count(), 16);
        assert_eq!(loops_at_1.distinct_move_count(), 5);
        assert_eq!(loops_at_1.distinct_moves().count(), 5);
        assert_eq!(loops_at_1.moves().count(), 16);
    }

    #[test]
    fn illegal_moves_leave_the_position_alone() {
        let p = Position::new(2);
        let mv = p.moves().next().unwrap();
        let q = p.play(&mv).unwrap();
        // The same move again is stale.
        assert!(matches!(q.play(&mv), Err(MoveError::StaleMove { .. })));
        let mut bad = mv.clone();
        bad.new_spot = q.next_spot();
        assert!(q.play(&bad).is_err());
        assert_eq!(p, Position::new(2));
    }
}
