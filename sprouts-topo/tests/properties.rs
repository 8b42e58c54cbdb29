//! Property tests: canonical forms do not see names, rotations, orders or the mirror image;
//! notation round-trips; the move list is exactly the legal moves; invariants hold after every move.

mod common;

use proptest::prelude::*;
use sprouts_topo::{BoundaryId, Corner, Lives, Position, Reductions, Setup, SpotId};

/// A position reached from `n` seeds by the moves `choices` picks (each an index into the moves).
fn play_out(n: u32, choices: &[u16], distinct: bool) -> Position {
    let mut p = Position::new(n);
    for &c in choices {
        let moves: Vec<_> = if distinct {
            p.distinct_moves().collect()
        } else {
            p.moves().collect()
        };
        if moves.is_empty() {
            break;
        }
        let mv = &moves[usize::from(c) % moves.len()];
        let q = p.play(mv).expect("listed moves are legal");
        q.check_invariants().expect("invariants hold after a move");
        q.check_drawable().expect("played positions can be drawn");
        p = q;
    }
    p
}

/// Positions from small starts after a few moves.
fn positions() -> impl Strategy<Value = Position> {
    (1u32..=6, prop::collection::vec(any::<u16>(), 0..14)).prop_map(|(n, c)| play_out(n, &c, true))
}

/// A transformation of a position that keeps it the same game: spots renamed, boundaries
/// rotated, boundaries and regions reordered, and possibly mirrored.
#[derive(Clone, Debug)]
struct Transform {
    rename: u64,
    rotations: Vec<u8>,
    order: u64,
    mirror: bool,
}

fn transforms() -> impl Strategy<Value = Transform> {
    (
        any::<u64>(),
        prop::collection::vec(any::<u8>(), 64),
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(rename, rotations, order, mirror)| Transform {
            rename,
            rotations,
            order,
            mirror,
        })
}

/// A deterministic shuffle.
fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut state = seed | 1;
    for i in (1..v.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = (state >> 33) as usize % (i + 1);
        v.swap(i, j);
    }
}

fn apply(p: &Position, t: &Transform, rename: bool) -> Position {
    let mut setup = p.to_setup();
    let mut k = 0;
    for region in &mut setup.regions {
        for boundary in region.iter_mut() {
            if t.mirror {
                boundary.reverse();
            }
            let r = usize::from(t.rotations[k % t.rotations.len()]) % boundary.len();
            boundary.rotate_left(r);
            k += 1;
        }
        shuffle(region, t.order ^ k as u64);
    }
    shuffle(&mut setup.regions, t.order);
    if rename {
        let mut ids: Vec<SpotId> = p.spots().map(|(s, _)| s).collect();
        let old = ids.clone();
        shuffle(&mut ids, t.rename);
        let map = |s: SpotId| ids[old.binary_search(&s).unwrap()];
        for c in setup.regions.iter_mut().flatten().flatten() {
            *c = map(*c);
        }
        for (s, _) in &mut setup.lives {
            *s = map(*s);
        }
    }
    match Position::from_setup(setup) {
        Ok(q) => q,
        Err(e) => e
            .ignore_incomplete()
            .expect("a transformed position is valid"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn canonical_forms_ignore_names_rotations_orders_and_mirrors(p in positions(), t in transforms()) {
        let q = apply(&p, &t, true);
        prop_assert_eq!(q.canonical(), p.canonical());
        prop_assert_eq!(q.canonical_unreduced(), p.canonical_unreduced());
        prop_assert_eq!(q.distinct_children(), p.distinct_children());
        prop_assert!(p.canonical().is_exact());
    }

    #[test]
    fn game_keys_ignore_rotations_orders_and_mirrors(p in positions(), t in transforms()) {
        let q = apply(&p, &t, false);
        prop_assert_eq!(q.game_key(), p.game_key());
        prop_assert!(q.same_position_as(&p));
    }

    #[test]
    fn notation_round_trips(p in positions()) {
        let text = p.to_glop();
        let q = Position::parse_glop(&text).unwrap();
        prop_assert_eq!(q.to_glop(), text.clone());
        let r = Position::parse_glop(&q.to_glop()).unwrap();
        prop_assert_eq!(&r, &q);
        prop_assert_eq!(q.canonical(), p.canonical());
        // Canonical forms read back to themselves.
        let c = p.canonical();
        prop_assert_eq!(Position::parse_glop(c.as_str()).unwrap().canonical(), c);
    }

    #[test]
    fn every_listed_move_is_legal_and_every_legal_move_is_listed(
        n in 1u32..=4,
        choices in prop::collection::vec(any::<u16>(), 0..8),
        probes in prop::collection::vec((any::<u16>(), any::<u16>(), any::<u16>(), any::<u32>()), 40),
    ) {
        let p = play_out(n, &choices, false);
        let listed: Vec<_> = p.moves().collect();
        for mv in &listed {
            prop_assert!(p.is_legal(mv));
        }
        // Against the naive generator, as positions.
        let mut naive: Vec<_> = common::naive_children(&p).iter().map(|q| q.game_key()).collect();
        let mut fast: Vec<_> = listed.iter().map(|m| p.play(m).unwrap().game_key()).collect();
        naive.sort();
        fast.sort();
        prop_assert_eq!(naive, fast);
        // Random corner pairs and enclosures: legal exactly when listed (dead boundaries aside).
        let nb = p.boundary_count() as u16;
        if nb == 0 {
            return Ok(());
        }
        for (b1, b2, i, mask) in probes {
            let (b1, b2) = (BoundaryId::from_index(usize::from(b1 % nb)), BoundaryId::from_index(usize::from(b2 % nb)));
            let from = Corner { boundary: b1, index: u32::from(i) % p.boundary(b1).unwrap().len() as u32 };
            let to = Corner { boundary: b2, index: u32::from(i / 7) % p.boundary(b2).unwrap().len() as u32 };
            let region = p.region_of(b1).unwrap();
            let side: Vec<BoundaryId> = p
                .region(region)
                .unwrap()
                .boundaries()
                .map(|b| b.id())
                .filter(|&b| b != b1 && b.index() < 32 && mask >> b.index() & 1 == 1 && p.boundary(b).unwrap().lives() > 0)
                .collect();
            let side = if b1 == b2 { side } else { Vec::new() };
            match p.make_move(from, to, &side) {
                Ok(mv) => {
                    // Listed up to where dead boundaries go (always with B_b in the list).
                    let form = p.play(&mv).unwrap().canonical_unreduced();
                    let twin = listed.iter().any(|m| p.play(m).unwrap().canonical_unreduced() == form);
                    prop_assert!(twin, "a legal move that is not listed: {}", mv.describe(&p));
                }
                Err(_) => {
                    let lives = |c: Corner| p.lives(p.spot_at(c).unwrap()).unwrap();
                    let same_region = p.region_of(b2) == Some(region);
                    let looped = p.spot_at(from) == p.spot_at(to);
                    let ok_lives = lives(from) > Lives::ZERO && lives(to) > Lives::ZERO && (!looped || lives(from) >= Lives::TWO);
                    prop_assert!(!(same_region && ok_lives), "a legal move was refused");
                }
            }
        }
    }

    #[test]
    fn invariants_hold_along_random_games(n in 1u32..=8, choices in prop::collection::vec(any::<u16>(), 0..30)) {
        let p = play_out(n, &choices, true);
        prop_assert_eq!(p.total_lives() as usize + p.spot_count() - n as usize, 3 * n as usize);
        prop_assert_eq!(p.is_over(), p.moves().next().is_none());
        let lands = p.lands();
        let land_lives: u32 = lands.iter().map(|l| l.regions().map(|r| r.lives()).sum::<u32>()).sum();
        let live_lives: u32 = p.regions().filter(|r| r.is_alive()).map(|r| r.lives()).sum();
        prop_assert_eq!(land_lives, live_lives);
        prop_assert_eq!(p.canonical().lands().count(), lands.len());
    }

    #[test]
    fn the_childrens_fast_path_agrees_with_playing_every_move(p in positions()) {
        let mut slow: Vec<_> = p.moves().map(|m| p.play(&m).unwrap().canonical()).collect();
        slow.sort();
        slow.dedup();
        prop_assert_eq!(p.distinct_children(), slow);
    }

    #[test]
    fn setups_of_played_positions_read_back(p in positions()) {
        let q = Position::from_setup(p.to_setup()).unwrap();
        prop_assert_eq!(q, p);
    }
}

/// Plain forms are at least as fine as GLOP forms: equal plain forms give equal GLOP forms.
#[test]
fn plain_forms_refine_glop_forms() {
    let mut seen = std::collections::HashMap::new();
    for n in 2..=5 {
        for p in common::random_positions(n, 1500, 7 + u64::from(n)) {
            let plain = p.canonical_with(Reductions::Plain, sprouts_topo::canon::DEFAULT_BUDGET);
            let glop = p.canonical();
            if let Some(g) = seen.insert(plain.clone(), glop.clone()) {
                assert_eq!(g, glop, "{plain}");
            }
        }
    }
}

/// A setup built by hand: a seed inside a loop.
#[test]
fn a_seed_inside_a_loop() {
    let s = |n| SpotId::new(n).unwrap();
    let setup = Setup::from_regions(vec![
        vec![vec![s(1), s(3)], vec![s(2)]],
        vec![vec![s(3), s(1)]],
    ]);
    let p = Position::from_setup(setup).unwrap();
    assert_eq!(p.canonical().as_str(), "0.AB|AB");
}
