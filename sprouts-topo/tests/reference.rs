//! The fast move generator and the fast canonical forms against slow references: a naive move
//! generator (every pair of corners, every subset) and a brute-force canonical form (every
//! renaming of the labels), on every position reachable from small starts.

mod common;

use std::collections::HashMap;

use common::{
    assert_same_partition, brute_canon, full_shape, label_count, naive_children, random_positions,
    reachable, reachable_up_to_renumbering, reduce_glop, reduce_plain,
};
use sprouts_topo::{GameKey, Position, canon};

/// The children of every position reachable from `n` seeds, naive and fast, as multisets of game
/// keys.
fn check_moves_from(n: u32, step: usize) {
    let positions = reachable_up_to_renumbering(&Position::new(n));
    for p in positions.iter().step_by(step) {
        let mut naive: Vec<GameKey> = naive_children(p).iter().map(|q| q.game_key()).collect();
        let mut fast: Vec<GameKey> = p.moves().map(|m| p.play(&m).unwrap().game_key()).collect();
        naive.sort();
        fast.sort();
        assert_eq!(naive, fast, "children of {p:?}");
        // Every listed move is legal; every distinct move is among the moves.
        let distinct: Vec<GameKey> = p
            .distinct_moves()
            .map(|m| p.play(&m).unwrap().game_key())
            .collect();
        for k in &distinct {
            assert!(fast.binary_search(k).is_ok());
        }
        // Distinct moves lose no game: the same set of canonical children.
        let mut all_forms: Vec<_> = p.moves().map(|m| p.play(&m).unwrap().canonical()).collect();
        let mut distinct_forms: Vec<_> = p
            .distinct_moves()
            .map(|m| p.play(&m).unwrap().canonical())
            .collect();
        all_forms.sort();
        all_forms.dedup();
        distinct_forms.sort();
        distinct_forms.dedup();
        assert_eq!(all_forms, distinct_forms, "distinct moves of {p:?}");
    }
}

#[test]
fn moves_match_the_naive_generator() {
    check_moves_from(1, 1);
    check_moves_from(2, 1);
    check_moves_from(3, 1);
    check_moves_from(4, 97);
}

/// The positions reachable from 1 to 3 seeds, and every `step`-th from 4, up to renumbering.
fn positions(step: usize) -> Vec<Position> {
    let mut out: Vec<Position> = (1..=3)
        .flat_map(|n| reachable_up_to_renumbering(&Position::new(n)))
        .collect();
    out.extend(
        reachable_up_to_renumbering(&Position::new(4))
            .into_iter()
            .step_by(step),
    );
    out
}

#[test]
fn plain_forms_match_brute_force() {
    let mut items = Vec::new();
    for p in positions(7) {
        let shape = reduce_plain(&p);
        if label_count(&shape) > 7 {
            continue;
        }
        let fast = p.canonical_unreduced();
        assert!(fast.is_exact());
        items.push((brute_canon(&shape), fast.into_string(), format!("{p:?}")));
    }
    assert!(items.len() > 1000, "{} positions checked", items.len());
    assert_same_partition(&items);
}

#[test]
fn glop_forms_match_brute_force_on_the_reduced_shape() {
    let mut items = Vec::new();
    for p in positions(7) {
        let shape = reduce_glop(&p);
        if label_count(&shape) > 7 {
            continue;
        }
        let fast = p.canonical();
        assert!(fast.is_exact());
        items.push((brute_canon(&shape), fast.into_string(), format!("{p:?}")));
    }
    assert!(items.len() > 1000, "{} positions checked", items.len());
    assert_same_partition(&items);
}

#[test]
fn structure_keys_match_brute_force() {
    let mut items = Vec::new();
    let mut candidates: Vec<Position> =
        (1..=2).flat_map(|n| reachable(&Position::new(n))).collect();
    for n in 3..=4 {
        candidates.extend(random_positions(n, 2000, u64::from(n)));
    }
    for p in candidates {
        let shape = full_shape(&p);
        if label_count(&shape) > 7 {
            continue;
        }
        let key = canon::structure_key(&p);
        assert!(key.is_exact());
        items.push((
            brute_canon(&shape),
            key.as_slice().to_vec(),
            format!("{p:?}"),
        ));
    }
    assert!(items.len() > 2000, "{} positions checked", items.len());
    assert_same_partition(&items);
}

/// Random games give the same positions under many names: the forms must agree.
#[test]
fn forms_of_random_positions_match_brute_force() {
    let mut plain = Vec::new();
    let mut glop = Vec::new();
    for n in 2..=5 {
        for p in random_positions(n, 2500, 100 + u64::from(n)) {
            let shape = reduce_plain(&p);
            if label_count(&shape) <= 7 {
                plain.push((
                    brute_canon(&shape),
                    p.canonical_unreduced().into_string(),
                    format!("{p:?}"),
                ));
            }
            let shape = reduce_glop(&p);
            if label_count(&shape) <= 7 {
                glop.push((
                    brute_canon(&shape),
                    p.canonical().into_string(),
                    format!("{p:?}"),
                ));
            }
        }
    }
    assert!(plain.len() > 5000 && glop.len() > 5000);
    assert_same_partition(&plain);
    assert_same_partition(&glop);
}

/// Canonical forms read back as positions with the same form.
#[test]
fn canonical_forms_are_fixed_points() {
    let mut seen: HashMap<String, ()> = HashMap::new();
    for p in positions(7) {
        if seen
            .insert(p.canonical_unreduced().into_string(), ())
            .is_some()
        {
            continue;
        }
        let glop = p.canonical();
        let back = Position::parse_glop(glop.as_str()).unwrap();
        back.check_invariants().unwrap();
        assert_eq!(back.canonical(), glop, "{p:?}");
        let plain = p.canonical_unreduced();
        let back = Position::parse_glop(plain.as_str()).unwrap();
        back.check_invariants().unwrap();
        assert_eq!(back.canonical_unreduced(), plain, "{p:?}");
    }
}
