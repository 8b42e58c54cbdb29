//! The random player (spec 5.2) and random games to the end.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use smallvec::SmallVec;
use sprouts_topo::{BoundaryId, Corner, Move, Position, RegionId, SpotId};

use super::{Choice, Player, Report};
use crate::Limits;
use crate::impartial::Convention;

/// A random legal move: a family (pair of corners) uniformly, then how many of the region's
/// other live boundaries go inside, uniformly from 0 to k, then which ones (uniformly among the
/// sets of that size). Choosing the number first makes small and large enclosures equally likely.
/// `None` when there is no move.
///
/// The families are counted region by region without being listed (`c (c + 1) / 2` pairs of
/// the `c` live corners of a region, less those of one-life spots joined to themselves), and
/// only the chosen one is built: the same law as [`random_move_reference`], which lists every
/// family with [`Position::families`], at a fraction of the cost in random games.
pub fn random_move(position: &Position, rng: &mut impl Rng) -> Option<Move> {
    let mut per_region: SmallVec<[(usize, u64); 16]> = SmallVec::new();
    let mut total = 0u64;
    let mut ones: SmallVec<[SpotId; 32]> = SmallVec::new();
    for r in position.regions() {
        if r.lives() < 2 {
            continue;
        }
        let count = region_family_count(position, r, &mut ones);
        per_region.push((r.id().index(), count));
        total += count;
    }
    if total == 0 {
        return None;
    }
    let mut t = rng.random_range(0..total);
    let &(region, _) = per_region
        .iter()
        .find(|&&(_, c)| {
            if t < c {
                true
            } else {
                t -= c;
                false
            }
        })
        .expect("the draw falls in a region");
    let region = position
        .region(RegionId::from_index(region))
        .expect("a region of the position");
    // The live corners of the region, in order, and the t-th pair of them (as families() lists).
    let mut live: SmallVec<[(Corner, SpotId, u8); 32]> = SmallVec::new();
    for b in region.boundaries() {
        for (i, &s) in b.corners().iter().enumerate() {
            let l = lives(position, s);
            if l > 0 {
                let corner = Corner {
                    boundary: b.id(),
                    index: i as u32,
                };
                live.push((corner, s, l));
            }
        }
    }
    let (from, to) = 'found: {
        for a in 0..live.len() {
            for b in a..live.len() {
                if live[a].1 == live[b].1 && live[a].2 < 2 {
                    continue;
                }
                if t == 0 {
                    break 'found (live[a].0, live[b].0);
                }
                t -= 1;
            }
        }
        unreachable!("the region has as many families as counted");
    };
    let mut pool: SmallVec<[BoundaryId; 16]> = SmallVec::new();
    if from.boundary == to.boundary {
        pool.extend(
            region
                .boundaries()
                .filter(|b| b.id() != from.boundary && b.lives() > 0)
                .map(|b| b.id()),
        );
    }
    let k = pool.len();
    let take = rng.random_range(0..=k);
    // A partial Fisher-Yates shuffle: the first `take` are a uniform subset.
    for i in 0..take {
        let j = rng.random_range(i..k);
        pool.swap(i, j);
    }
    Some(
        position
            .make_move(from, to, &pool[..take])
            .expect("a family's move is legal"),
    )
}

/// The number of families of `position` (as `position.families().len()`), counted without
/// listing them.
pub fn family_count(position: &Position) -> u64 {
    let mut ones = SmallVec::new();
    position
        .regions()
        .filter(|r| r.lives() >= 2)
        .map(|r| region_family_count(position, r, &mut ones))
        .sum()
}

/// The families of a live region: pairs (a corner with itself included) of its live corners,
/// less the pairs at a one-life spot (a loop needs two lives).
fn region_family_count(
    position: &Position,
    region: sprouts_topo::Region<'_>,
    ones: &mut SmallVec<[SpotId; 32]>,
) -> u64 {
    let mut live = 0u64;
    ones.clear();
    for b in region.boundaries() {
        for &s in b.corners() {
            match lives(position, s) {
                0 => {}
                1 => {
                    live += 1;
                    ones.push(s);
                }
                _ => live += 1,
            }
        }
    }
    ones.sort_unstable();
    // A one-life spot has two corners; both in this region make one more pair to drop.
    let doubles = ones.windows(2).filter(|w| w[0] == w[1]).count() as u64;
    live * (live + 1) / 2 - ones.len() as u64 - doubles
}

fn lives(position: &Position, s: SpotId) -> u8 {
    position.lives(s).map_or(0, |l| l.get())
}

/// The random move of [`random_move`] by its definition: every family listed with
/// [`Position::families`], one drawn uniformly, then the enclosure. The reference for tests
/// and measurements.
pub fn random_move_reference(position: &Position, rng: &mut impl Rng) -> Option<Move> {
    let families = position.families();
    if families.is_empty() {
        return None;
    }
    let family = &families[rng.random_range(0..families.len())];
    let free = family.free_boundaries();
    let k = free.len();
    let take = rng.random_range(0..=k);
    let mut pool: SmallVec<[BoundaryId; 16]> = free.iter().copied().collect();
    for i in 0..take {
        let j = rng.random_range(i..k);
        pool.swap(i, j);
    }
    family.with_side_a(&pool[..take])
}

/// Plays random moves (as [`random_move`]) from `position` to the end; returns the number of
/// moves played.
pub fn playout(position: &Position, rng: &mut impl Rng) -> u32 {
    let mut pos = position.clone();
    let mut next = Position::new(0);
    let mut moves = 0;
    while let Some(mv) = random_move(&pos, rng) {
        pos.play_into(&mv, &mut next)
            .expect("random moves are legal");
        std::mem::swap(&mut pos, &mut next);
        moves += 1;
    }
    moves
}

/// [`playout`] with [`random_move_reference`] (a new position allocated every move): the
/// reference for measurements.
pub fn playout_reference(position: &Position, rng: &mut impl Rng) -> u32 {
    let mut pos = position.clone();
    let mut moves = 0;
    while let Some(mv) = random_move_reference(&pos, rng) {
        pos = pos.play(&mv).expect("random moves are legal");
        moves += 1;
    }
    moves
}

/// The random player of spec 5.2.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    /// A random player with a seeded generator.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, position: &Position, _: Convention, _: &Limits) -> Option<Choice> {
        let mv = random_move(position, &mut self.rng)?;
        Some(Choice {
            mv,
            report: Report {
                candidates: position.families().len(),
                words: "a random move".to_string(),
                ..Report::default()
            },
        })
    }

    fn name(&self) -> String {
        "random".to_string()
    }
}

#[cfg(test)]
mod tests {
    use rustc_hash::FxHashMap;

    use super::*;

    /// Positions along seeded random games from `spots`.
    fn positions(spots: u32, seed: u64) -> Vec<Position> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = Position::new(spots);
        let mut out = vec![pos.clone()];
        while let Some(mv) = random_move_reference(&pos, &mut rng) {
            pos = pos.play(&mv).unwrap();
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn families_counted_without_listing() {
        for spots in 1..=20 {
            for pos in positions(spots, u64::from(spots)) {
                assert_eq!(family_count(&pos), pos.families().len() as u64, "{pos:?}");
            }
        }
    }

    /// The exact law of the random move: a family uniformly, a count uniformly, a set of that
    /// size uniformly.
    fn law(pos: &Position) -> FxHashMap<Move, f64> {
        let families = pos.families();
        let mut out = FxHashMap::default();
        for f in &families {
            let k = f.free_boundaries().len() as i32;
            for mv in f.moves() {
                let size = mv.side_a().len() as i32;
                let sets: f64 = (0..size)
                    .map(|i| f64::from(k - i) / f64::from(i + 1))
                    .product();
                let p = 1.0 / families.len() as f64 / f64::from(k + 1) / sets;
                *out.entry(mv).or_insert(0.0) += p;
            }
        }
        out
    }

    /// Draws from the fast random move fit the exact law (a chi-square statistic far below its
    /// failure level, with fixed seeds), on positions with up to a few hundred moves.
    #[test]
    fn random_moves_follow_the_law() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut tested = 0;
        for (spots, seed) in [(3, 1), (4, 2), (5, 3), (6, 4)] {
            for pos in positions(spots, seed).iter().step_by(2) {
                let law = law(pos);
                if law.is_empty() || law.len() > 300 {
                    continue;
                }
                let draws = 200 * law.len() as u32;
                let mut seen: FxHashMap<Move, u32> = FxHashMap::default();
                for _ in 0..draws {
                    let mv = random_move(pos, &mut rng).unwrap();
                    assert!(law.contains_key(&mv), "{mv:?} outside the law at {pos:?}");
                    *seen.entry(mv).or_insert(0) += 1;
                }
                let chi2: f64 = law
                    .iter()
                    .map(|(mv, &p)| {
                        let want = p * f64::from(draws);
                        let got = f64::from(seen.get(mv).copied().unwrap_or(0));
                        (got - want).powi(2) / want
                    })
                    .sum();
                let df = (law.len() - 1).max(1) as f64;
                assert!(
                    chi2 < df + 6.0 * (2.0 * df).sqrt() + 10.0,
                    "chi2 {chi2:.1} for {df} degrees of freedom at {pos:?}"
                );
                tested += 1;
            }
        }
        assert!(tested >= 8, "{tested} positions tested");
    }
}
