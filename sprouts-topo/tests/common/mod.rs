//! Slow references for the integration tests: a naive move generator, the reductions written
//! again on plain vectors, a brute-force canonical form over every relabelling, a brute-force
//! nimber, and exhaustive enumeration of reachable positions.
//!
//! Nothing here shares code with the fast paths it checks beyond `Position`'s accessors.

#![allow(dead_code, reason = "each test file uses part of the helpers")]

use std::collections::{HashMap, HashSet};

use sprouts_topo::{Lives, Position, Setup, SpotId};

/// A position as plain nested vectors of spot numbers, with lives by spot number.
#[derive(Clone, Debug)]
pub(crate) struct Plain {
    pub(crate) regions: Vec<Vec<Vec<u32>>>,
    pub(crate) lives: HashMap<u32, u8>,
    pub(crate) next: u32,
}

pub(crate) fn to_plain(p: &Position) -> Plain {
    Plain {
        regions: p
            .regions()
            .map(|r| {
                r.boundaries()
                    .map(|b| b.corners().iter().map(|c| c.get()).collect())
                    .collect()
            })
            .collect(),
        lives: p.spots().map(|(s, l)| (s.get(), l.get())).collect(),
        next: p.next_spot().get(),
    }
}

pub(crate) fn from_plain(p: &Plain) -> Position {
    let s = |n: u32| SpotId::new(n).unwrap();
    let setup = Setup {
        regions: p
            .regions
            .iter()
            .map(|r| {
                r.iter()
                    .map(|b| b.iter().map(|&c| s(c)).collect())
                    .collect()
            })
            .collect(),
        lives: p
            .lives
            .iter()
            .map(|(&k, &l)| (s(k), Lives::new(l).unwrap()))
            .collect(),
        next_spot: Some(s(p.next)),
    };
    match Position::from_setup(setup) {
        Ok(p) => p,
        Err(e) => e.ignore_incomplete().expect("a valid position"),
    }
}

/// Every child of `p`, by the rules of spec 2.5 applied naively: every region, every pair of
/// corners (ordered, including a corner with itself), every subset of the other boundaries
/// (dead ones included, then kept only with `B_b`), legality checked from lives.
pub(crate) fn naive_children(p: &Position) -> Vec<Position> {
    let pl = to_plain(p);
    let z = pl.next;
    let mut out = Vec::new();
    for (ri, region) in pl.regions.iter().enumerate() {
        let mut corners = Vec::new();
        for (bi, b) in region.iter().enumerate() {
            for ci in 0..b.len() {
                corners.push((bi, ci));
            }
        }
        for &(b1, c1) in &corners {
            for &(b2, c2) in &corners {
                let x = region[b1][c1];
                let y = region[b2][c2];
                let (lx, ly) = (pl.lives[&x], pl.lives[&y]);
                if lx == 0 || ly == 0 || (x == y && lx < 2) {
                    continue;
                }
                let mut lives = pl.lives.clone();
                *lives.get_mut(&x).unwrap() -= 1;
                *lives.get_mut(&y).unwrap() -= 1;
                lives.insert(z, 1);
                if b1 != b2 {
                    // Only one order of each unordered pair of boundaries.
                    if (b1, c1) > (b2, c2) {
                        continue;
                    }
                    let mut joined = Vec::new();
                    let (bx, by) = (&region[b1], &region[b2]);
                    for k in 0..bx.len() {
                        joined.push(bx[(c1 + k) % bx.len()]);
                    }
                    if pl.lives[&x] < 3 {
                        joined.push(x);
                    }
                    joined.push(z);
                    for k in 0..by.len() {
                        joined.push(by[(c2 + k) % by.len()]);
                    }
                    if pl.lives[&y] < 3 {
                        joined.push(y);
                    }
                    joined.push(z);
                    let mut regions = pl.regions.clone();
                    let mut nr: Vec<Vec<u32>> = Vec::new();
                    for (k, b) in region.iter().enumerate() {
                        if k == b1 {
                            nr.push(joined.clone());
                        } else if k != b2 {
                            nr.push(b.clone());
                        }
                    }
                    regions[ri] = nr;
                    out.push(from_plain(&Plain {
                        regions,
                        lives,
                        next: z + 1,
                    }));
                } else {
                    // Unordered pairs of corners on one boundary (and a corner with itself).
                    if c1 > c2 {
                        continue;
                    }
                    let b = &region[b1];
                    let m = b.len();
                    let d = (c2 + m - c1) % m;
                    let mut ba: Vec<u32> = (0..=d).map(|k| b[(c1 + k) % m]).collect();
                    ba.push(z);
                    let mut bb: Vec<u32> = if pl.lives[&x] == 3 {
                        vec![x]
                    } else {
                        (d..=m).map(|k| b[(c1 + k) % m]).collect()
                    };
                    bb.push(z);
                    let others: Vec<usize> = (0..region.len()).filter(|&k| k != b1).collect();
                    for mask in 0u64..(1 << others.len()) {
                        let mut ra = vec![ba.clone()];
                        let mut rb = vec![bb.clone()];
                        let mut dead_on_a = false;
                        for (i, &k) in others.iter().enumerate() {
                            if mask >> i & 1 == 1 {
                                if region[k].iter().all(|c| pl.lives[c] == 0) {
                                    dead_on_a = true;
                                }
                                ra.push(region[k].clone());
                            } else {
                                rb.push(region[k].clone());
                            }
                        }
                        if dead_on_a {
                            continue;
                        }
                        let mut regions = pl.regions.clone();
                        regions[ri] = ra;
                        regions.push(rb);
                        out.push(from_plain(&Plain {
                            regions,
                            lives: lives.clone(),
                            next: z + 1,
                        }));
                    }
                }
            }
        }
    }
    out
}

/// Marks a boundary as a bag (a merged small region: the order of its spots does not matter) when
/// it is the first symbol.
pub(crate) const BAG: Sym = Sym::Anon(255);

/// A spot as the brute force sees it: an anonymous class or a label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Sym {
    Anon(u8),
    Label(u32),
}

/// Regions of boundaries of symbols.
pub(crate) type Shape = Vec<Vec<Vec<Sym>>>;

/// Dead regions and stumps dropped (spec 2.6); 1-life spots met twice are labels, once `2`.
pub(crate) fn reduce_plain(p: &Position) -> Shape {
    reduce(p, false, false)
}

/// `reduce_plain` and GLOP's reductions: repeated adjacent spots met once, and the boundaries of
/// regions with 2 or 3 lives merged (shared spots, seeds and sprouts in order, then a `2` for
/// every private 1-life spot).
pub(crate) fn reduce_glop(p: &Position) -> Shape {
    reduce(p, true, true)
}

/// `reduce_plain` with each of GLOP's reductions on or off: `collapse` (a spot met twice in a row
/// is met once) and `merge` (regions with two or three lives as one bag).
pub(crate) fn reduce(p: &Position, collapse: bool, merge: bool) -> Shape {
    let pl = to_plain(p);
    let region_lives = |r: &Vec<Vec<u32>>| -> u32 {
        let mut spots: Vec<u32> = r.iter().flatten().copied().collect();
        spots.sort_unstable();
        spots.dedup();
        spots.iter().map(|s| u32::from(pl.lives[s])).sum()
    };
    let mut kept: Vec<(Vec<Vec<u32>>, u32)> = Vec::new();
    for r in &pl.regions {
        let lives = region_lives(r);
        if lives < 2 {
            continue;
        }
        let mut nr = Vec::new();
        for b in r {
            let mut nb: Vec<u32> = b.iter().copied().filter(|c| pl.lives[c] > 0).collect();
            if collapse {
                let mut changed = true;
                while changed && nb.len() > 1 {
                    changed = false;
                    for k in 0..nb.len() {
                        if nb.len() > 1 && nb[k] == nb[(k + 1) % nb.len()] {
                            nb.remove(k);
                            changed = true;
                            break;
                        }
                    }
                }
            }
            if !nb.is_empty() {
                nr.push(nb);
            }
        }
        if !nr.is_empty() {
            kept.push((nr, lives));
        }
    }
    if merge {
        let count = |kept: &Vec<(Vec<Vec<u32>>, u32)>| {
            let mut occ: HashMap<u32, Vec<usize>> = HashMap::new();
            for (ri, (r, _)) in kept.iter().enumerate() {
                for c in r.iter().flatten() {
                    occ.entry(*c).or_default().push(ri);
                }
            }
            occ
        };
        let occ = count(&kept);
        for (r, lives) in kept.iter_mut() {
            if !(2..=3).contains(lives) {
                continue;
            }
            let mut merged = Vec::new();
            let mut privates = Vec::new();
            for &c in r.iter().flatten() {
                let regions = &occ[&c];
                let shared = regions.iter().any(|&x| x != regions[0]);
                if pl.lives[&c] >= 2 || shared {
                    merged.push(c);
                } else if !privates.contains(&c) {
                    privates.push(c);
                }
            }
            merged.extend(privates);
            merged.insert(0, 0);
            *r = vec![merged];
        }
    }
    let mut occ: HashMap<u32, usize> = HashMap::new();
    for c in kept.iter().flat_map(|(r, _)| r.iter().flatten()) {
        if *c != 0 {
            *occ.entry(*c).or_default() += 1;
        }
    }
    // Spot 0 (no spot has it) marks a merged region's bag.
    kept.into_iter()
        .map(|(r, _)| {
            r.into_iter()
                .map(|b| {
                    b.into_iter()
                        .map(|c| {
                            if c == 0 {
                                BAG
                            } else if occ[&c] >= 2 {
                                Sym::Label(c)
                            } else {
                                Sym::Anon(3 - pl.lives[&c])
                            }
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// A shape written in GLOP notation that [`Position::parse_glop`] reads: every label an extended
/// upper-case letter `Z(k)` (so its scope is the whole text), all regions in one land, bags in the
/// order given. The empty shape is `!`.
pub(crate) fn write_shape(shape: &Shape) -> String {
    let mut names: HashMap<u32, usize> = HashMap::new();
    let mut out = String::new();
    for (r, region) in shape.iter().enumerate() {
        if r > 0 {
            out.push('|');
        }
        for (i, b) in region.iter().enumerate() {
            if i > 0 {
                out.push('.');
            }
            for s in b {
                match s {
                    s if *s == BAG => {}
                    Sym::Anon(c) => out.push((b'0' + c) as char),
                    Sym::Label(l) => {
                        let n = names.len() + 1;
                        let k = *names.entry(*l).or_insert(n);
                        out.push_str(&format!("Z({k})"));
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out.push('!');
    }
    out
}

/// The shape as a position (through its GLOP text).
pub(crate) fn shape_position(shape: &Shape) -> Position {
    let text = write_shape(shape);
    Position::parse_glop(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The whole position, nothing dropped: every spot met more than once is a label; anonymous spots
/// by their lives.
pub(crate) fn full_shape(p: &Position) -> Shape {
    let pl = to_plain(p);
    let mut occ: HashMap<u32, usize> = HashMap::new();
    for c in pl.regions.iter().flatten().flatten() {
        *occ.entry(*c).or_default() += 1;
    }
    pl.regions
        .iter()
        .map(|r| {
            r.iter()
                .map(|b| {
                    b.iter()
                        .map(|c| {
                            if occ[c] >= 2 {
                                Sym::Label(*c)
                            } else {
                                Sym::Anon(3 - pl.lives[c])
                            }
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The number of labels of a shape.
pub(crate) fn label_count(shape: &Shape) -> usize {
    let mut labels: Vec<u32> = shape
        .iter()
        .flatten()
        .flatten()
        .filter_map(|s| {
            if let Sym::Label(l) = s {
                Some(*l)
            } else {
                None
            }
        })
        .collect();
    labels.sort_unstable();
    labels.dedup();
    labels.len()
}

/// The independent lands of `shape`: regions joined by a label met in both.
pub(crate) fn split_lands(shape: &Shape) -> Vec<Shape> {
    let n = shape.len();
    let mut land: Vec<usize> = (0..n).collect();
    fn root(land: &mut [usize], mut x: usize) -> usize {
        while land[x] != x {
            x = land[x];
        }
        x
    }
    let mut first: HashMap<u32, usize> = HashMap::new();
    for (r, region) in shape.iter().enumerate() {
        for s in region.iter().flatten() {
            if let Sym::Label(l) = s {
                let f = *first.entry(*l).or_insert(r);
                let (a, b) = (root(&mut land, f), root(&mut land, r));
                land[a] = b;
            }
        }
    }
    let mut groups: Vec<(usize, Shape)> = Vec::new();
    for (r, region) in shape.iter().enumerate() {
        let g = root(&mut land, r);
        match groups.iter_mut().find(|(k, _)| *k == g) {
            Some((_, s)) => s.push(region.clone()),
            None => groups.push((g, vec![region.clone()])),
        }
    }
    groups.into_iter().map(|(_, s)| s).collect()
}

/// The canonical form of `shape` by brute force: each independent land on its own (lands are
/// independent games, so a land and its mirror image are interchangeable inside a sum), the
/// lands' forms sorted. See [`brute_canon_land`].
pub(crate) fn brute_canon(shape: &Shape) -> Vec<u32> {
    let mut lands: Vec<Vec<u32>> = split_lands(shape).iter().map(brute_canon_land).collect();
    lands.sort();
    let mut out = Vec::new();
    for l in lands {
        out.extend(l);
        out.push(u32::MAX);
    }
    out
}

/// The least representation of `shape` over every renaming of its labels, every rotation, every
/// order and the mirror image: for a fixed naming, boundaries are least-rotated and sorted,
/// regions sorted; the least over all namings (and both orientations) is canonical. The class of
/// a label (how often it is met) is written with its name. Exponential in the number of labels.
pub(crate) fn brute_canon_land(shape: &Shape) -> Vec<u32> {
    let mut labels: Vec<u32> = shape
        .iter()
        .flatten()
        .flatten()
        .filter_map(|s| {
            if let Sym::Label(l) = s {
                Some(*l)
            } else {
                None
            }
        })
        .collect();
    labels.sort_unstable();
    let mut counts: HashMap<u32, u32> = HashMap::new();
    for &l in &labels {
        *counts.entry(l).or_default() += 1;
    }
    labels.dedup();
    let k = labels.len();
    let mut perm: Vec<usize> = (0..k).collect();
    let mut best: Option<Vec<u32>> = None;
    let encode = |perm: &[usize], mirror: bool| -> Vec<u32> {
        let name = |l: u32| -> u32 {
            let i = labels.binary_search(&l).unwrap();
            100 + perm[i] as u32 * 4 + counts[&l]
        };
        let mut regions: Vec<Vec<Vec<u32>>> = shape
            .iter()
            .map(|r| {
                let mut bs: Vec<Vec<u32>> = r
                    .iter()
                    .map(|b| {
                        let bag = b.first() == Some(&BAG);
                        let mut w: Vec<u32> = b
                            .iter()
                            .filter(|&&s| s != BAG)
                            .map(|s| match s {
                                Sym::Anon(c) => u32::from(*c) + 10,
                                Sym::Label(l) => name(*l),
                            })
                            .collect();
                        if bag {
                            // A bag: its spots in increasing order, marked.
                            w.sort_unstable();
                            w.insert(0, 2);
                            return w;
                        }
                        if mirror {
                            w.reverse();
                        }
                        (0..w.len())
                            .map(|r| w[r..].iter().chain(&w[..r]).copied().collect::<Vec<u32>>())
                            .min()
                            .unwrap_or_default()
                    })
                    .collect();
                bs.sort();
                bs
            })
            .collect();
        regions.sort();
        let mut out = Vec::new();
        for r in regions {
            for b in r {
                out.extend(b);
                out.push(1);
            }
            out.push(0);
        }
        out
    };
    // Heap's algorithm over all permutations.
    let mut c = vec![0usize; k];
    let mut consider = |perm: &[usize]| {
        for mirror in [false, true] {
            let e = encode(perm, mirror);
            if best.as_ref().is_none_or(|b| e < *b) {
                best = Some(e);
            }
        }
    };
    consider(&perm);
    let mut i = 0;
    while i < k {
        if c[i] < i {
            if i % 2 == 0 {
                perm.swap(0, i);
            } else {
                perm.swap(c[i], i);
            }
            consider(&perm);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    best.unwrap_or_default()
}

/// Every position reachable from `start` (itself included), one per game key.
pub(crate) fn reachable(start: &Position) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = vec![start.clone()];
    seen.insert(start.game_key());
    let mut i = 0;
    while i < out.len() {
        let p = out[i].clone();
        i += 1;
        for mv in p.moves() {
            let q = p.play(&mv).unwrap();
            if seen.insert(q.game_key()) {
                out.push(q);
            }
        }
    }
    out
}

/// `count` positions met in random games from `n` seeds (every move equally likely, every
/// position of each game kept), so that the same position turns up under many names.
pub(crate) fn random_positions(n: u32, count: usize, seed: u64) -> Vec<Position> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut p = Position::new(n);
        loop {
            let moves: Vec<_> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            p = p.play(&moves[rng.random_range(0..moves.len())]).unwrap();
            out.push(p.clone());
        }
    }
    out.truncate(count);
    out
}

/// Every position reachable from `start`, one per structure key (up to renumbering and mirror
/// image, nothing dropped).
pub(crate) fn reachable_up_to_renumbering(start: &Position) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = vec![start.clone()];
    seen.insert(sprouts_topo::canon::structure_key(start));
    let mut i = 0;
    while i < out.len() {
        let p = out[i].clone();
        i += 1;
        for mv in p.moves() {
            let q = p.play(&mv).unwrap();
            if seen.insert(sprouts_topo::canon::structure_key(&q)) {
                out.push(q);
            }
        }
    }
    out
}

/// Asserts that two naming functions induce the same partition of `items`.
#[track_caller]
pub(crate) fn assert_same_partition<
    K1: Eq + std::hash::Hash + Clone + std::fmt::Debug,
    K2: Eq + std::hash::Hash + Clone + std::fmt::Debug,
>(
    items: &[(K1, K2, String)],
) {
    let mut a_to_b: HashMap<K1, (K2, String)> = HashMap::new();
    let mut b_to_a: HashMap<K2, (K1, String)> = HashMap::new();
    for (a, b, what) in items {
        if let Some((b0, w0)) = a_to_b.get(a) {
            assert_eq!(b0, b, "equal references, different forms: {w0} and {what}");
        } else {
            a_to_b.insert(a.clone(), (b.clone(), what.clone()));
        }
        if let Some((a0, w0)) = b_to_a.get(b) {
            assert_eq!(a0, a, "equal forms, different references: {w0} and {what}");
        } else {
            b_to_a.insert(b.clone(), (a.clone(), what.clone()));
        }
    }
}
