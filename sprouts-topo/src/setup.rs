//! `Setup`: an unchecked description of a position, and the rules a `Position` must satisfy.

use std::fmt;

use rustc_hash::FxHashMap;
use thiserror::Error;

use crate::position::{ABSENT, Position};
use crate::spot::{Lives, SpotId};

/// A not necessarily valid position: regions of boundaries of spot identities, as a drawing or a
/// file describes them. [`Position::from_setup`] checks it.
///
/// Boundaries are read with their region on the left (GLOP's convention: the outer boundary of a
/// region counter-clockwise, the others clockwise, with the plane's usual orientation). A spot with
/// no curve is a boundary of its own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The regions, each a list of boundaries, each the cyclic list of spots met walking round it.
    pub regions: Vec<Vec<Vec<SpotId>>>,
    /// Lives given explicitly. A spot not listed gets `3 - curves`, its curves counted from its
    /// corners (a spot that is a boundary of its own has none).
    pub lives: Vec<(SpotId, Lives)>,
    /// The identity of the next spot; by default one more than the largest spot.
    pub next_spot: Option<SpotId>,
}

impl Setup {
    /// A setup with these regions and lives derived from the corners.
    pub fn from_regions(regions: Vec<Vec<Vec<SpotId>>>) -> Setup {
        Setup {
            regions,
            lives: Vec::new(),
            next_spot: None,
        }
    }
}

/// One rule a setup breaks.
///
/// Regions and boundaries are numbered from 0 in the order the setup (or text) gives them.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SetupProblem {
    /// Lives above 3 were given.
    #[error("spot {spot} is given {lives} lives; a spot has at most 3")]
    LivesOutOfRange {
        /// The spot.
        spot: SpotId,
        /// The lives given.
        lives: u8,
    },
    /// Lives were given twice for one spot.
    #[error("the lives of spot {spot} are given twice")]
    DuplicateLives {
        /// The spot.
        spot: SpotId,
    },
    /// Lives were given for a spot that is on no boundary.
    #[error("spot {spot} is given lives but is on no boundary")]
    SpotOnNoBoundary {
        /// The spot.
        spot: SpotId,
    },
    /// A spot has more than three curves.
    #[error("spot {spot} is met {corners} times, so it has more than three curves")]
    TooManyCurves {
        /// The spot.
        spot: SpotId,
        /// How often it is met.
        corners: usize,
    },
    /// A spot is met more often than it has curves (for example a 1-life spot met three times).
    #[error("spot {spot} has {lives} lives, so {} curves, but is met {corners} times", lives.curves())]
    TooManyCorners {
        /// The spot.
        spot: SpotId,
        /// Its lives.
        lives: Lives,
        /// How often it is met.
        corners: usize,
    },
    /// A spot is met less often than it has curves. GLOP's reductions produce such spots (its
    /// `2`), so this is accepted by [`SetupError::ignore_incomplete`].
    #[error("spot {spot} has {lives} lives, so {} curves, but is met only {corners} times", lives.curves())]
    MissingCorners {
        /// The spot.
        spot: SpotId,
        /// Its lives.
        lives: Lives,
        /// How often it is met.
        corners: usize,
    },
    /// A spot with no curve must be a boundary of its own, and only that.
    #[error("spot {spot} has no curve but is not a boundary of its own")]
    SeedNotAlone {
        /// The spot.
        spot: SpotId,
    },
    /// A spot with curves forms a boundary of one corner. Reduced GLOP positions have these
    /// (the rest of the boundary was dead), so this is accepted by
    /// [`SetupError::ignore_incomplete`].
    #[error("spot {spot} has curves but forms a boundary on its own")]
    LoneSpotWithCurves {
        /// The spot.
        spot: SpotId,
    },
    /// A boundary has no corner.
    #[error("boundary {boundary} of region {region} is empty")]
    EmptyBoundary {
        /// The region's index.
        region: usize,
        /// The boundary's index within its region.
        boundary: usize,
    },
    /// A region has no boundary.
    #[error("region {region} has no boundary")]
    EmptyRegion {
        /// The region's index.
        region: usize,
    },
    /// A spot is on two different boundaries of one region (its curves would connect them into
    /// one boundary).
    #[error("spot {spot} is on two boundaries of region {region}")]
    SpotOnTwoBoundaries {
        /// The spot.
        spot: SpotId,
        /// The region's index.
        region: usize,
    },
    /// The regions and the connected pieces of curves do not nest as they must on a sphere:
    /// region `region` is linked to a piece of curves that reaches it again through other regions.
    #[error(
        "region {region} is linked to itself through other regions, which no drawing on a sphere can do"
    )]
    RegionsNotNested {
        /// The region's index.
        region: usize,
    },
    /// The next spot identity is not above every spot.
    #[error("the next spot {next} is not above every spot of the position")]
    NextSpotTooLow {
        /// The next spot given.
        next: SpotId,
    },
    /// The walks do not traverse every curve once in each direction.
    #[error(
        "the boundaries go from spot {from} to spot {to} {forward} times but back {backward} times; every curve is walked once each way"
    )]
    CurvesNotClosed {
        /// One end.
        from: SpotId,
        /// The other end.
        to: SpotId,
        /// Steps from `from` to `to`.
        forward: usize,
        /// Steps from `to` to `from`.
        backward: usize,
    },
    /// A connected piece of curves has a number of boundary walks that Euler's formula
    /// (`V - E + F = 2` for a connected map on the sphere) rules out.
    #[error(
        "the piece of curves through spot {spot} has {walks} boundary walks; Euler's formula wants {expected}"
    )]
    EulerMismatch {
        /// A spot of the piece.
        spot: SpotId,
        /// The walks found.
        walks: usize,
        /// The walks Euler's formula gives.
        expected: usize,
    },
    /// The number of regions does not fit the pieces of curves (on a sphere there are
    /// `1 + sum(walks - 1)` regions over the connected pieces).
    #[error("there are {regions} regions where the pieces of curves make {expected}")]
    RegionCountMismatch {
        /// Regions given.
        regions: usize,
        /// Regions the pieces make.
        expected: usize,
    },
}

impl SetupProblem {
    /// Whether the problem only says the position is partial, as reduced GLOP positions are.
    pub fn is_incompleteness(&self) -> bool {
        matches!(
            self,
            SetupProblem::MissingCorners { .. } | SetupProblem::LoneSpotWithCurves { .. }
        )
    }
}

/// Why a setup is not a valid position: every rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    problems: Vec<SetupProblem>,
    position: Option<Box<Position>>,
}

impl SetupError {
    /// Every rule the setup breaks.
    pub fn problems(&self) -> &[SetupProblem] {
        &self.problems
    }

    /// The position, if the only problems are that some spots are met fewer times than they have
    /// curves (a partial position, as GLOP's reductions make).
    ///
    /// # Errors
    ///
    /// Gives the error back if any other problem remains.
    pub fn ignore_incomplete(self) -> Result<Position, SetupError> {
        if self.problems.iter().all(SetupProblem::is_incompleteness)
            && let Some(p) = self.position
        {
            return Ok(*p);
        }
        Err(self)
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a valid position: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}

impl Position {
    /// Checks a setup and makes it a position.
    ///
    /// Positions from a setup must be complete: every spot met as many times as it has curves.
    /// On top of the rules every position keeps (see [`Position::check_invariants`]) a complete
    /// position is checked to be drawable: every curve walked once each way, Euler's formula per
    /// connected piece of curves, and the number of regions.
    ///
    /// # Errors
    ///
    /// Every broken rule, in a [`SetupError`]; if the only problems are missing corners,
    /// [`SetupError::ignore_incomplete`] gives the (partial) position.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::{Position, Setup, SpotId};
    /// let s = |n| SpotId::new(n).unwrap();
    /// // Two seeds joined by a curve through the new spot 3: one region, one boundary.
    /// let setup = Setup::from_regions(vec![vec![vec![s(1), s(3), s(2), s(3)]]]);
    /// let p = Position::from_setup(setup).unwrap();
    /// assert_eq!(p.to_glop(), "1a1a");
    ///
    /// // A spot met three times with one life is rejected.
    /// let bad = Setup {
    ///     regions: vec![vec![vec![s(1), s(2), s(1), s(2), s(1)]]],
    ///     lives: vec![(s(1), sprouts_topo::Lives::ONE)],
    ///     next_spot: None,
    /// };
    /// assert!(Position::from_setup(bad).is_err());
    /// ```
    pub fn from_setup(setup: Setup) -> Result<Position, SetupError> {
        let mut problems = Vec::new();
        let mut occ: FxHashMap<SpotId, (usize, bool)> = FxHashMap::default();
        let mut max_id = 0u32;
        for region in &setup.regions {
            for boundary in region {
                for &c in boundary {
                    let e = occ.entry(c).or_insert((0, false));
                    e.0 += 1;
                    if boundary.len() == 1 {
                        e.1 = true;
                    }
                    max_id = max_id.max(c.get());
                }
            }
        }
        let mut explicit: FxHashMap<SpotId, u8> = FxHashMap::default();
        for &(spot, lives) in &setup.lives {
            if explicit.insert(spot, lives.get()).is_some() {
                problems.push(SetupProblem::DuplicateLives { spot });
            }
            if !occ.contains_key(&spot) {
                problems.push(SetupProblem::SpotOnNoBoundary { spot });
            }
        }
        let next = match setup.next_spot {
            Some(n) => n,
            None => SpotId::new(max_id + 1).expect("max + 1 is not zero"),
        };
        let mut pos = Position::empty_with_next(next);
        let mut spots: Vec<_> = occ.iter().map(|(&s, &v)| (s, v)).collect();
        spots.sort_unstable_by_key(|&(s, _)| s);
        for (spot, (count, lone)) in spots {
            let lives = match explicit.get(&spot) {
                Some(&l) => l,
                None if lone && count == 1 => 3,
                None => {
                    if count > 3 {
                        problems.push(SetupProblem::TooManyCurves {
                            spot,
                            corners: count,
                        });
                    }
                    3u8.saturating_sub(u8::try_from(count).unwrap_or(u8::MAX))
                }
            };
            pos.set_lives(spot, lives);
        }
        for region in &setup.regions {
            for boundary in region {
                pos.push_boundary(boundary);
            }
            pos.finish_region();
        }
        problems.extend(validate(&pos, true));
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(SetupError {
                problems,
                position: Some(Box::new(pos)),
            })
        }
    }

    /// Re-derives every rule a position keeps and reports the broken ones (none, for every
    /// position this crate builds: tests call it after every move).
    ///
    /// The rules: lives at most 3; a spot with no curve is a boundary of its own; a spot with
    /// curves is met at most as many times as it has curves; no empty boundary or region; a spot
    /// is on at most one boundary of a region; the regions and the connected pieces of curves nest
    /// as on a sphere (they form a forest); the next spot is above every spot.
    ///
    /// Drawability (every curve walked once each way, Euler's formula) is not a rule of every
    /// position: GLOP's reduced positions, which are games but not pictures, break it. Positions
    /// played from [`Position::new`] keep it; [`Position::check_drawable`] checks it.
    ///
    /// # Errors
    ///
    /// The broken rules.
    pub fn check_invariants(&self) -> Result<(), SetupError> {
        let problems: Vec<_> = validate(self, false)
            .into_iter()
            .filter(|p| !p.is_incompleteness())
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(SetupError {
                problems,
                position: None,
            })
        }
    }

    /// Checks that the position is complete and can be drawn on the sphere: every spot met as
    /// often as it has curves, every curve walked once each way, Euler's formula for every
    /// connected piece of curves, and the number of regions, on top of
    /// [`Position::check_invariants`]. True of every position played from [`Position::new`].
    ///
    /// # Errors
    ///
    /// The broken rules.
    pub fn check_drawable(&self) -> Result<(), SetupError> {
        let problems = validate(self, true);
        if problems.is_empty() {
            Ok(())
        } else {
            Err(SetupError {
                problems,
                position: None,
            })
        }
    }
}

/// Checks the structural rules of `pos`; with `drawable`, a complete position is also checked to
/// be drawable on the sphere.
pub(crate) fn validate(pos: &Position, drawable: bool) -> Vec<SetupProblem> {
    let mut problems = Vec::new();
    let n_ids = pos.lives.len();
    let mut occ = vec![0usize; n_ids];
    let mut lone = vec![0usize; n_ids];
    for (i, &l) in pos.lives.iter().enumerate() {
        if l != ABSENT && l > 3 {
            problems.push(SetupProblem::LivesOutOfRange {
                spot: SpotId::from_index(i),
                lives: l,
            });
        }
    }
    for r in 0..pos.region_count() {
        let (bs, be) = pos.region_bounds(r);
        if bs == be {
            problems.push(SetupProblem::EmptyRegion { region: r });
        }
        for b in bs..be {
            let cs = pos.boundary_slice(b);
            if cs.is_empty() {
                problems.push(SetupProblem::EmptyBoundary {
                    region: r,
                    boundary: b - bs,
                });
            }
            for &c in cs {
                if c.index() >= n_ids || pos.lives[c.index()] == ABSENT {
                    // Cannot happen through the public constructors; report it as missing lives.
                    problems.push(SetupProblem::SpotOnNoBoundary { spot: c });
                    continue;
                }
                occ[c.index()] += 1;
                if cs.len() == 1 {
                    lone[c.index()] += 1;
                }
            }
        }
    }
    if !problems.is_empty() {
        return problems;
    }
    let mut complete = true;
    for i in 0..n_ids {
        let l = pos.lives[i];
        if l == ABSENT {
            continue;
        }
        let spot = SpotId::from_index(i);
        let lives = Lives::new(l.min(3)).expect("clamped");
        let o = occ[i];
        if o == 0 {
            problems.push(SetupProblem::SpotOnNoBoundary { spot });
        } else if l == 3 {
            if o != 1 || lone[i] != 1 {
                problems.push(SetupProblem::SeedNotAlone { spot });
            }
        } else {
            let curves = usize::from(3 - l);
            if o > curves {
                problems.push(SetupProblem::TooManyCorners {
                    spot,
                    lives,
                    corners: o,
                });
            } else if o < curves {
                problems.push(SetupProblem::MissingCorners {
                    spot,
                    lives,
                    corners: o,
                });
                complete = false;
            }
            if lone[i] > 0 {
                problems.push(SetupProblem::LoneSpotWithCurves { spot });
                complete = false;
            }
        }
    }
    if pos.next.index() < n_ids && pos.lives[pos.next.index()..].iter().any(|&l| l != ABSENT) {
        problems.push(SetupProblem::NextSpotTooLow { next: pos.next });
    }
    check_nesting(pos, &mut problems);
    if drawable && complete && problems.is_empty() {
        check_drawable(pos, &mut problems);
    }
    problems
}

/// Union-find with path halving.
#[derive(Debug, Default)]
pub(crate) struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    pub(crate) fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n as u32).collect(),
        }
    }

    /// Resets to `n` singletons, reusing the storage.
    pub(crate) fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n as u32);
    }

    pub(crate) fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = p;
            x = p;
        }
        x
    }

    /// Joins the sets of `a` and `b`, the lesser root becoming the root of both. When every
    /// union is made this way, an element's parent is never above it (path halving keeps it so)
    /// and every set's root is its least element: see [`UnionFind::least_roots`].
    #[inline]
    pub(crate) fn union_least(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.parent[ra.max(rb) as usize] = ra.min(rb);
    }

    /// The parents of the elements `0..n` (with [`UnionFind::union_least`] only, each is at
    /// most its element, and the roots are the elements that are their own parents).
    pub(crate) fn parents(&self, n: usize) -> &[u32] {
        &self.parent[..n]
    }

    /// The root of each of the elements `0..n` into `roots`, in one pass and without changing
    /// the forest, when every union was made by [`UnionFind::union_least`]: an element's parent
    /// is then before it, so its root is already known.
    pub(crate) fn least_roots(&self, n: usize, roots: &mut Vec<u32>) {
        roots.clear();
        for (x, &p) in self.parent[..n].iter().enumerate() {
            let root = if p as usize == x {
                p
            } else {
                roots[p as usize]
            };
            roots.push(root);
        }
    }

    /// Joins the sets of `a` and `b`; returns false if they were already one.
    #[inline]
    pub(crate) fn union(&mut self, a: u32, b: u32) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.parent[ra as usize] = rb;
        true
    }
}

/// Checks that no spot is on two boundaries of a region and that regions and connected pieces of
/// curves (boundaries linked by shared spots) form a forest.
fn check_nesting(pos: &Position, problems: &mut Vec<SetupProblem>) {
    let nb = pos.boundary_count();
    let nr = pos.region_count();
    // Boundaries that share a spot belong to one piece of curves.
    let mut pieces = UnionFind::new(nb);
    let mut first_boundary = vec![u32::MAX; pos.lives.len()];
    let mut region_of_boundary = vec![0u32; nb];
    for r in 0..nr {
        let (bs, be) = pos.region_bounds(r);
        for b in bs..be {
            region_of_boundary[b] = r as u32;
        }
    }
    let mut reported = Vec::new();
    for b in 0..nb {
        for &c in pos.boundary_slice(b) {
            let fb = first_boundary[c.index()];
            if fb == u32::MAX {
                first_boundary[c.index()] = b as u32;
            } else if fb != b as u32 {
                pieces.union(fb, b as u32);
                let r = region_of_boundary[b] as usize;
                if region_of_boundary[fb as usize] as usize == r && !reported.contains(&c) {
                    reported.push(c);
                    problems.push(SetupProblem::SpotOnTwoBoundaries { spot: c, region: r });
                }
            }
        }
    }
    if !reported.is_empty() {
        return;
    }
    // The graph with regions and pieces as nodes and boundaries as edges must have no cycle.
    let mut forest = UnionFind::new(nr + nb);
    for b in 0..nb {
        let piece = pieces.find(b as u32);
        let r = region_of_boundary[b];
        if !forest.union(r, nr as u32 + piece) {
            problems.push(SetupProblem::RegionsNotNested { region: r as usize });
            return;
        }
    }
}

/// Checks a complete position for drawability: curves walked once each way, Euler's formula per
/// piece of curves, the number of regions.
fn check_drawable(pos: &Position, problems: &mut Vec<SetupProblem>) {
    let mut steps: FxHashMap<(SpotId, SpotId), usize> = FxHashMap::default();
    let n_ids = pos.lives.len();
    let mut comps = UnionFind::new(n_ids);
    for b in 0..pos.boundary_count() {
        let cs = pos.boundary_slice(b);
        if cs.len() < 2 {
            continue;
        }
        for i in 0..cs.len() {
            let (x, y) = (cs[i], cs[(i + 1) % cs.len()]);
            *steps.entry((x, y)).or_default() += 1;
            comps.union(x.index() as u32, y.index() as u32);
        }
    }
    let mut pairs: Vec<_> = steps.iter().map(|(&k, &v)| (k, v)).collect();
    pairs.sort_unstable();
    for &((x, y), forward) in &pairs {
        if x <= y {
            let backward = steps.get(&(y, x)).copied().unwrap_or(0);
            if forward != backward {
                problems.push(SetupProblem::CurvesNotClosed {
                    from: x,
                    to: y,
                    forward,
                    backward,
                });
            }
        } else if !steps.contains_key(&(y, x)) {
            problems.push(SetupProblem::CurvesNotClosed {
                from: y,
                to: x,
                forward: 0,
                backward: forward,
            });
        }
    }
    if !problems.is_empty() {
        return;
    }
    // Per connected piece: spots V, curves E (each walked twice), walks W; W = E - V + 2.
    let mut v = vec![0usize; n_ids];
    let mut darts = vec![0usize; n_ids];
    let mut walks = vec![0usize; n_ids];
    for (i, &l) in pos.lives.iter().enumerate() {
        if l != ABSENT {
            let root = comps.find(i as u32) as usize;
            v[root] += 1;
        }
    }
    for b in 0..pos.boundary_count() {
        let cs = pos.boundary_slice(b);
        let root = comps.find(cs[0].index() as u32) as usize;
        walks[root] += 1;
        if cs.len() >= 2 {
            darts[root] += cs.len();
        }
    }
    let mut expected_regions = 1usize;
    let mut any = false;
    for root in 0..n_ids {
        if v[root] == 0 {
            continue;
        }
        any = true;
        let edges = darts[root] / 2;
        let expected = (edges + 2).saturating_sub(v[root]);
        if walks[root] != expected {
            problems.push(SetupProblem::EulerMismatch {
                spot: SpotId::from_index(root),
                walks: walks[root],
                expected,
            });
        }
        expected_regions += walks[root].saturating_sub(1);
    }
    if !any {
        expected_regions = 0;
    }
    if problems.is_empty() && pos.region_count() != expected_regions {
        problems.push(SetupProblem::RegionCountMismatch {
            regions: pos.region_count(),
            expected: expected_regions,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u32) -> SpotId {
        SpotId::new(n).unwrap()
    }

    fn problems(setup: Setup) -> Vec<SetupProblem> {
        match Position::from_setup(setup) {
            Ok(_) => Vec::new(),
            Err(e) => e.problems().to_vec(),
        }
    }

    #[test]
    fn a_loop_is_two_regions() {
        // Seed 1 with a loop through 2: inside [1, 2], outside [2, 1] (the same cycle).
        let ok = Setup::from_regions(vec![vec![vec![s(1), s(2)]], vec![vec![s(2), s(1)]]]);
        let p = Position::from_setup(ok).unwrap();
        assert_eq!(p.lives(s(1)), Some(Lives::ONE));
        assert!(p.check_invariants().is_ok());
        // The same walks in one region: two boundaries share spots, and the count is wrong.
        let bad = Setup::from_regions(vec![vec![vec![s(1), s(2)], vec![s(2), s(1)]]]);
        let ps = problems(bad);
        assert!(
            ps.iter()
                .any(|p| matches!(p, SetupProblem::SpotOnTwoBoundaries { .. })),
            "{ps:?}"
        );
    }

    #[test]
    fn every_problem_is_reported() {
        let bad = Setup {
            regions: vec![vec![vec![s(1), s(2), s(1), s(2), s(1)], vec![]], vec![]],
            lives: vec![(s(1), Lives::ONE), (s(9), Lives::TWO)],
            next_spot: None,
        };
        let ps = problems(bad);
        assert!(
            ps.iter()
                .any(|p| matches!(p, SetupProblem::SpotOnNoBoundary { .. })),
            "{ps:?}"
        );
        assert!(
            ps.iter()
                .any(|p| matches!(p, SetupProblem::EmptyBoundary { .. })),
            "{ps:?}"
        );
        assert!(
            ps.iter()
                .any(|p| matches!(p, SetupProblem::EmptyRegion { .. })),
            "{ps:?}"
        );
    }

    #[test]
    fn too_many_curves_and_corners() {
        let four = Setup::from_regions(vec![vec![vec![
            s(1),
            s(2),
            s(1),
            s(3),
            s(1),
            s(4),
            s(1),
            s(5),
        ]]]);
        let ps = problems(four);
        assert!(
            ps.contains(&SetupProblem::TooManyCurves {
                spot: s(1),
                corners: 4
            }),
            "{ps:?}"
        );
        let link = Setup {
            regions: vec![vec![vec![s(1), s(2), s(1), s(2), s(1)]]],
            lives: vec![(s(1), Lives::ONE)],
            next_spot: None,
        };
        let ps = problems(link);
        assert!(
            ps.contains(&SetupProblem::TooManyCorners {
                spot: s(1),
                lives: Lives::ONE,
                corners: 3
            }),
            "{ps:?}"
        );
    }

    #[test]
    fn seeds_stand_alone() {
        let bad = Setup {
            regions: vec![vec![vec![s(1), s(2)]]],
            lives: vec![(s(1), Lives::THREE)],
            next_spot: None,
        };
        assert!(problems(bad).contains(&SetupProblem::SeedNotAlone { spot: s(1) }));
    }

    #[test]
    fn drawability() {
        // A path walked one way only.
        let bad = Setup::from_regions(vec![vec![vec![s(1), s(2), s(3)]]]);
        let ps = problems(bad);
        assert!(
            ps.iter()
                .any(|p| matches!(p, SetupProblem::CurvesNotClosed { .. })),
            "{ps:?}"
        );
        // A path split into two regions: Euler wants one walk.
        let two = Setup::from_regions(vec![vec![vec![s(1), s(3), s(2), s(3)]], vec![vec![s(4)]]]);
        let ps = problems(two);
        assert!(
            ps.iter()
                .any(|p| matches!(p, SetupProblem::RegionCountMismatch { .. })),
            "{ps:?}"
        );
    }

    #[test]
    fn partial_positions_are_recoverable() {
        // A 1-life spot met once (GLOP's `2`) next to a sprout.
        let setup = Setup {
            regions: vec![vec![vec![s(1), s(2)]]],
            lives: vec![(s(1), Lives::TWO), (s(2), Lives::ONE)],
            next_spot: None,
        };
        let err = Position::from_setup(setup).unwrap_err();
        let p = err.ignore_incomplete().unwrap();
        assert!(!p.is_complete());
        assert!(p.check_invariants().is_ok());
    }
}
