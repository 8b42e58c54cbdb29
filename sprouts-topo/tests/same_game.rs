//! `Position::same_game` against a reference without its shortcut: on every position reachable
//! from 1 to 3 spots and every seventh from 4 spots (one per game up to renumbering), every pair of children is the same game exactly when the game keys are
//! equal or the unreduced canonical forms are equal and exact.

mod common;

use sprouts_topo::Position;

/// A child with its key and unreduced form, computed once.
struct Named {
    position: Position,
    key: sprouts_topo::GameKey,
    form: sprouts_topo::CanonicalForm,
}

fn reference(a: &Named, b: &Named) -> bool {
    a.key == b.key || (a.form.is_exact() && b.form.is_exact() && a.form == b.form)
}

#[test]
fn same_game_matches_the_reference_on_every_pair_of_children() {
    let (mut pairs, mut same, mut same_but_other_key) = (0u64, 0u64, 0u64);
    let mut positions: Vec<Position> = (1..=3)
        .flat_map(|n| common::reachable_up_to_renumbering(&Position::new(n)))
        .collect();
    positions.extend(
        common::reachable_up_to_renumbering(&Position::new(4))
            .into_iter()
            .step_by(7),
    );
    {
        for p in positions {
            let children: Vec<Named> = p
                .moves()
                .map(|m| {
                    let position = p.play(&m).unwrap();
                    Named {
                        key: position.game_key(),
                        form: position.canonical_unreduced(),
                        position,
                    }
                })
                .collect();
            for (i, na) in children.iter().enumerate() {
                for nb in &children[i..] {
                    let (a, b) = (&na.position, &nb.position);
                    let got = a.same_game(b);
                    assert_eq!(got, reference(na, nb), "{a} and {b}");
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
    eprintln!("{pairs} pairs, {same} the same game, {same_but_other_key} of them by forms alone");
    assert!(pairs > 100_000, "{pairs} pairs");
    assert!(same > 10_000 && same < pairs, "{same} of {pairs}");
    assert!(same_but_other_key > 1_000, "{same_but_other_key}");
}
