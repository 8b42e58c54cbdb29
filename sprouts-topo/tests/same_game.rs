//! `Position::same_game` against a reference without its shortcut: on every position reachable
//! from 1 to 4 spots, every pair of children is the same game exactly when the game keys are
//! equal or the unreduced canonical forms are equal and exact.

mod common;

use sprouts_topo::Position;

fn reference(a: &Position, b: &Position) -> bool {
    if a.game_key() == b.game_key() {
        return true;
    }
    let (fa, fb) = (a.canonical_unreduced(), b.canonical_unreduced());
    fa.is_exact() && fb.is_exact() && fa == fb
}

#[test]
fn same_game_matches_the_reference_on_every_pair_of_children() {
    let (mut pairs, mut same, mut same_but_other_key) = (0u64, 0u64, 0u64);
    for n in 1..=4 {
        for p in common::reachable(&Position::new(n)) {
            let children: Vec<Position> = p.moves().map(|m| p.play(&m).unwrap()).collect();
            for (i, a) in children.iter().enumerate() {
                for b in &children[i..] {
                    let got = a.same_game(b);
                    assert_eq!(got, reference(a, b), "{a} and {b}");
                    assert_eq!(got, b.same_game(a), "not symmetric: {a} and {b}");
                    pairs += 1;
                    if got {
                        same += 1;
                        if !a.same_position_as(b) {
                            same_but_other_key += 1;
                        }
                    }
                }
            }
        }
    }
    // The test must see both answers and the case the canonical forms decide.
    assert!(pairs > 10_000, "{pairs} pairs");
    assert!(same > 1_000 && same < pairs, "{same} of {pairs}");
    assert!(same_but_other_key > 100, "{same_but_other_key}");
}
