//! The search against the peeling reference: every small multigraph exhaustively, random
//! graphs grown by moves (always accepted), random graphs by proptest; every grouping found is
//! checked move by move by a checker of its own.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

fn s(n: u32) -> SpotId {
    SpotId::new(n).expect("not zero")
}

/// Checks a history against the graph it was found for, independently of the search: every
/// curve in exactly one move, each move's curves joining its ends to its middle, the seeds
/// and middles together the spots once each, and each move's ends there before it.
#[track_caller]
fn check_history(spots: &[SpotId], curves: &[(SpotId, SpotId)], h: &MoveHistory) {
    let mut used = vec![false; curves.len()];
    let mut there: HashSet<SpotId> = h.seeds.iter().copied().collect();
    assert_eq!(there.len(), h.seeds.len(), "seeds once each");
    assert_eq!(h.moves.len() * 2, curves.len(), "two curves a move");
    for m in &h.moves {
        assert!(
            there.contains(&m.from) && there.contains(&m.to),
            "{m:?}: ends first"
        );
        assert!(there.insert(m.middle), "{m:?}: a middle once, not a seed");
        for (c, end) in m.curves.iter().zip([m.from, m.to]) {
            let (a, b) = curves[c.index()];
            assert!(
                (a, b) == (end, m.middle) || (b, a) == (end, m.middle),
                "{m:?}: curve {c} joins {a} and {b}"
            );
            assert!(!used[c.index()], "{m:?}: curve {c} in two moves");
            used[c.index()] = true;
        }
    }
    let mut all: Vec<SpotId> = there.into_iter().collect();
    all.sort_unstable();
    let mut want = spots.to_vec();
    want.sort_unstable();
    assert_eq!(all, want, "the seeds and middles are the spots");
}

/// The fast search and the reference agree; a grouping found passes the checker.
#[track_caller]
fn check_agrees(spots: &[SpotId], curves: &[(SpotId, SpotId)]) -> bool {
    let fast = group_moves(spots, curves);
    let slow = group_moves_by_peeling(spots, curves);
    match (&fast, slow) {
        (Ok(h), Some(k)) => {
            assert_eq!(h.moves.len(), k);
            check_history(spots, curves, h);
        }
        (Err(e), None) => {
            assert!(
                !matches!(e, Unreachable::TooIntricate),
                "{curves:?}: gave up"
            );
        }
        _ => panic!("{spots:?} {curves:?}: fast {fast:?}, reference {slow:?}"),
    }
    fast.is_ok()
}

/// Every multigraph of up to 5 spots and 6 curves (loops and parallel curves included) with
/// at most three ends a spot.
#[test]
fn every_small_graph_agrees_with_the_reference() {
    let spots: Vec<SpotId> = (1..=5).map(s).collect();
    let pairs: Vec<(SpotId, SpotId)> = (0..5)
        .flat_map(|i| (i..5).map(move |j| (s(i + 1), s(j + 1))))
        .collect();
    // Multisets of pairs, as non-decreasing index lists.
    fn walk(
        pairs: &[(SpotId, SpotId)],
        spots: &[SpotId],
        from: usize,
        chosen: &mut Vec<(SpotId, SpotId)>,
        counts: &mut (u64, u64),
    ) {
        let degree_ok = spots.iter().all(|&z| {
            chosen
                .iter()
                .map(|&(a, b)| usize::from(a == z) + usize::from(b == z))
                .sum::<usize>()
                <= 3
        });
        if !degree_ok {
            return;
        }
        counts.0 += 1;
        counts.1 += u64::from(check_agrees(spots, chosen));
        if chosen.len() == 6 {
            return;
        }
        for p in from..pairs.len() {
            chosen.push(pairs[p]);
            walk(pairs, spots, p, chosen, counts);
            chosen.pop();
        }
    }
    let mut counts = (0, 0);
    walk(&pairs, &spots, 0, &mut Vec::new(), &mut counts);
    let (graphs, reachable) = counts;
    // Both answers come up often.
    assert!(graphs > 5_000, "{graphs}");
    assert!(reachable > 100 && reachable < graphs / 2, "{reachable}");
}

/// A graph grown by `moves` random moves from `n` seeds (any two spots with lives; no picture,
/// so planarity plays no part), with its spots and curves shuffled.
fn grown(
    n: u32,
    moves: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> (Vec<SpotId>, Vec<(SpotId, SpotId)>) {
    let mut spots: Vec<SpotId> = (1..=n).map(s).collect();
    let mut curves = Vec::new();
    let mut lives: HashMap<SpotId, u32> = spots.iter().map(|&z| (z, 3)).collect();
    for _ in 0..moves {
        let alive: Vec<SpotId> = spots.iter().copied().filter(|z| lives[z] > 0).collect();
        if alive.is_empty() {
            break;
        }
        let x = alive[rng.random_range(0..alive.len())];
        let y = alive[rng.random_range(0..alive.len())];
        if x == y && lives[&x] < 2 {
            continue;
        }
        *lives.get_mut(&x).expect("alive") -= 1;
        *lives.get_mut(&y).expect("alive") -= 1;
        let z = s(u32::try_from(spots.len()).expect("small") + 1);
        spots.push(z);
        lives.insert(z, 1);
        let (first, second) = if rng.random::<bool>() {
            ((x, z), (z, y))
        } else {
            ((z, x), (y, z))
        };
        curves.push(first);
        curves.push(second);
    }
    // Shuffled, so that the order of the list says nothing.
    for i in (1..curves.len()).rev() {
        curves.swap(i, rng.random_range(0..=i));
    }
    for i in (1..spots.len()).rev() {
        spots.swap(i, rng.random_range(0..=i));
    }
    (spots, curves)
}

#[test]
fn graphs_grown_by_moves_are_accepted_with_their_move_count() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(47);
    for round in 0..400 {
        let n = rng.random_range(1..=8);
        let k = rng.random_range(0..=3 * n as usize);
        let (spots, curves) = grown(n, k, &mut rng);
        let h = group_moves(&spots, &curves)
            .unwrap_or_else(|e| panic!("round {round}: {curves:?} refused: {e}"));
        assert_eq!(h.moves.len() * 2, curves.len());
        check_history(&spots, &curves, &h);
        if curves.len() <= 24 {
            assert_eq!(
                group_moves_by_peeling(&spots, &curves),
                Some(curves.len() / 2)
            );
        }
    }
}

/// Large grown graphs are found well within the step limit.
#[test]
fn a_long_game_is_grouped_quickly() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for _ in 0..20 {
        let (spots, curves) = grown(10, 29, &mut rng);
        let graph = Graph::new(&spots, &curves).expect("a graph");
        let mut search = Search::new(&graph);
        for piece in graph.pieces() {
            search.solve(&piece).expect("grown by moves");
        }
        assert!(search.steps < 100_000, "{} steps", search.steps);
    }
}

#[test]
fn the_reasons_name_what_is_wrong() {
    // A curve from a spot to itself.
    let e = group_moves(&[s(1)], &[(s(1), s(1))]).unwrap_err();
    assert_eq!(
        e,
        Unreachable::LoopCurve {
            curve: CurveId(0),
            spot: s(1)
        }
    );
    // Two lone segments: each curve's spots have only that curve.
    let e = group_moves(&[s(1), s(2), s(3), s(4)], &[(s(1), s(2)), (s(3), s(4))]).unwrap_err();
    assert!(matches!(e, Unreachable::OddCurves { curves: 1, .. }), "{e}");
    // A path of four curves 1-2-3-4-5: the middle spots 2 and 4 take two each.
    let path = [(s(1), s(2)), (s(2), s(3)), (s(3), s(4)), (s(4), s(5))];
    let h = group_moves(&[s(1), s(2), s(3), s(4), s(5)], &path).unwrap();
    assert_eq!(h.seeds, [s(1), s(3), s(5)]);
    // Two spots joined twice, each with a curve to a spot of its own: each of the two must
    // take one of the parallel curves, so each move needs the other's spot first.
    let knot = [(s(1), s(2)), (s(1), s(2)), (s(1), s(3)), (s(2), s(4))];
    let e = group_moves(&[s(1), s(2), s(3), s(4)], &knot).unwrap_err();
    match &e {
        Unreachable::NoGrouping {
            first: Conflict::Cycle { spots },
            ..
        } => {
            let mut sorted = spots.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [s(1), s(2)]);
        }
        other => panic!("{other}"),
    }
    assert!(
        e.to_string().contains("each need the other's spot first"),
        "{e}"
    );
    assert_eq!(
        group_moves_by_peeling(&[s(1), s(2), s(3), s(4)], &knot),
        None
    );
    // Spot 3 has four ends.
    let e = group_moves(
        &[s(1), s(2), s(3)],
        &[(s(1), s(3)), (s(2), s(3)), (s(3), s(3))],
    )
    .unwrap_err();
    assert_eq!(
        e,
        Unreachable::TooManyEnds {
            spot: s(3),
            ends: 4
        }
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random graphs of up to 7 spots and 10 curves: the search and the reference agree.
    #[test]
    fn random_graphs_agree_with_the_reference(
        n in 1u32..=7,
        picks in proptest::collection::vec((0u32..7, 0u32..7), 0..=10),
    ) {
        let spots: Vec<SpotId> = (1..=n).map(s).collect();
        let mut curves = Vec::new();
        let mut ends = vec![0u32; n as usize];
        for (a, b) in picks {
            let (a, b) = (a % n, b % n);
            let need = if a == b { 2 } else { 1 };
            if ends[a as usize] + need > 3 || ends[b as usize] + u32::from(a != b) > 3 {
                continue;
            }
            ends[a as usize] += 1;
            ends[b as usize] += 1;
            curves.push((s(a + 1), s(b + 1)));
        }
        check_agrees(&spots, &curves);
    }
}
