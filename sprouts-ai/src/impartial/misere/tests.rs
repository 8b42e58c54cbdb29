//! Brute-force evidence for the misère rules: explicit game trees, decided by plain recursion,
//! against the store's simplest forms, sums and outcomes.

use rustc_hash::FxHashMap;

use super::*;
use crate::impartial::{Convention, Nim, OutcomeSolver};

/// Explicit game trees: a game is the set of its options, with no identification but structural
/// identity. Everything here is decided from the definition alone.
#[derive(Default)]
struct Explicit {
    options: Vec<Vec<usize>>,
    ids: FxHashMap<Vec<usize>, usize>,
}

impl Explicit {
    fn game(&mut self, mut options: Vec<usize>) -> usize {
        options.sort_unstable();
        options.dedup();
        if let Some(&id) = self.ids.get(&options) {
            return id;
        }
        let id = self.options.len();
        self.options.push(options.clone());
        self.ids.insert(options, id);
        id
    }

    /// Every explicit game born by day `day`: all sets of games born by the day before.
    fn born_by_day(&mut self, day: u32) -> Vec<usize> {
        let mut games = vec![self.game(Vec::new())];
        for _ in 0..day {
            games = (0u64..1 << games.len())
                .map(|subset| {
                    let options = (0..games.len())
                        .filter(|&bit| subset >> bit & 1 == 1)
                        .map(|bit| games[bit])
                        .collect();
                    self.game(options)
                })
                .collect();
        }
        games
    }

    /// Whether the player to move wins the sum of `parts` in misère play, by plain recursion over
    /// the sum's game tree (a move is a move in one part).
    fn sum_wins(&self, parts: &[usize], memo: &mut FxHashMap<Vec<usize>, bool>) -> bool {
        let mut key = parts.to_vec();
        key.sort_unstable();
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let mut has_move = false;
        let mut wins = false;
        for idx in 0..key.len() {
            for &option in &self.options[key[idx]] {
                has_move = true;
                let mut child = key.clone();
                child[idx] = option;
                if !self.sum_wins(&child, memo) {
                    wins = true;
                }
            }
        }
        let res = wins || !has_move;
        memo.insert(key, res);
        res
    }

    /// Conway's equality rule applied to explicit trees (spec 5.7), recursively:
    /// `g = h` iff same misère outcome, every option of `g` equals an option of `h` or has an
    /// option equal to `h`, and the same with `g` and `h` exchanged.
    fn equal_by_rule(
        &self,
        g: usize,
        h: usize,
        outcomes: &mut FxHashMap<Vec<usize>, bool>,
        memo: &mut FxHashMap<(usize, usize), bool>,
    ) -> bool {
        if g == h {
            return true;
        }
        let key = (g.min(h), g.max(h));
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let res = self.sum_wins(&[g], outcomes) == self.sum_wins(&[h], outcomes)
            && self.options[g].clone().into_iter().all(|g1| {
                self.options[h]
                    .clone()
                    .into_iter()
                    .any(|h1| self.equal_by_rule(g1, h1, outcomes, memo))
                    || self.options[g1]
                        .clone()
                        .into_iter()
                        .any(|g2| self.equal_by_rule(g2, h, outcomes, memo))
            })
            && self.options[h].clone().into_iter().all(|h1| {
                self.options[g]
                    .clone()
                    .into_iter()
                    .any(|g1| self.equal_by_rule(h1, g1, outcomes, memo))
                    || self.options[h1]
                        .clone()
                        .into_iter()
                        .any(|h2| self.equal_by_rule(h2, g, outcomes, memo))
            });
        memo.insert(key, res);
        res
    }
}

/// The store's tree of each explicit game.
fn trees_of(explicit: &Explicit, store: &mut MisereStore) -> Vec<TreeId> {
    let mut trees: Vec<TreeId> = Vec::with_capacity(explicit.options.len());
    for options in &explicit.options {
        // Options are created before the games that have them, so their trees are known.
        let option_trees: Vec<TreeId> = options.iter().map(|&o| trees[o]).collect();
        trees.push(store.game(&option_trees));
    }
    trees
}

/// The sum `a + b` by the definition, with no shortcut for heaps or zero.
fn sum_by_definition(
    store: &mut MisereStore,
    a: TreeId,
    b: TreeId,
    memo: &mut FxHashMap<(TreeId, TreeId), TreeId>,
) -> TreeId {
    if let Some(&known) = memo.get(&(a, b)) {
        return known;
    }
    let mut options = Vec::new();
    for a1 in store.options(a).to_vec() {
        options.push(sum_by_definition(store, a1, b, memo));
    }
    for b1 in store.options(b).to_vec() {
        options.push(sum_by_definition(store, a, b1, memo));
    }
    let res = store.game(&options);
    memo.insert((a, b), res);
    res
}

/// Every multiset of 1 to 3 elements of `0..n`.
fn sums_of_up_to_three(n: usize) -> Vec<Vec<usize>> {
    let mut sums = Vec::new();
    for a in 0..n {
        sums.push(vec![a]);
        for b in a..n {
            sums.push(vec![a, b]);
            for c in b..n {
                sums.push(vec![a, b, c]);
            }
        }
    }
    sums
}

#[test]
fn games_born_by_days_0_to_4_are_1_2_3_5_22() {
    let mut store = MisereStore::new();
    let counts: Vec<usize> = (0..=4)
        .map(|day| store.born_by_day(day).expect("small day").len())
        .collect();
    assert_eq!(
        counts,
        [1, 2, 3, 5, 22],
        "distinct misère games by birthday"
    );
}

/// Day 5 (Grundy and Smith; On Numbers and Games, ch. 12): every one of the 2^22 sets of games
/// born by day 4 simplified, about 8 s and 0.9 GB.
#[test]
fn games_born_by_day_5_are_4171780() {
    let mut store = MisereStore::new();
    let day5 = store.born_by_day(5).expect("day 5 is listable");
    assert_eq!(day5.len(), 4_171_780, "distinct misère games born by day 5");
    assert_eq!(store.len(), 4_171_780, "the store holds nothing else");
}

#[test]
fn every_explicit_game_born_by_day_4_reduces_to_one_of_22() {
    let mut explicit = Explicit::default();
    let games = explicit.born_by_day(4);
    assert_eq!(games.len(), 65_536, "explicit games born by day 4");
    let mut store = MisereStore::new();
    let trees = trees_of(&explicit, &mut store);
    let mut distinct: Vec<TreeId> = games.iter().map(|&g| trees[g]).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 22, "simplest forms of the explicit games");
    assert_eq!(
        distinct,
        store.born_by_day(4).expect("small day"),
        "both constructions give the same 22 trees"
    );
}

#[test]
fn simplest_forms_agree_with_conways_equality_rule() {
    let mut explicit = Explicit::default();
    let day3 = explicit.born_by_day(3);
    let day4 = explicit.born_by_day(4);
    let mut store = MisereStore::new();
    let trees = trees_of(&explicit, &mut store);
    let mut outcomes = FxHashMap::default();
    let mut memo = FxHashMap::default();
    // All pairs of games born by day 3: equal by the rule exactly when they have the same tree.
    for &g in &day3 {
        for &h in &day3 {
            assert_eq!(
                explicit.equal_by_rule(g, h, &mut outcomes, &mut memo),
                trees[g] == trees[h],
                "{} against {}",
                store.display(trees[g]),
                store.display(trees[h])
            );
        }
    }
    // Day 4: one representative per tree; the 22 are pairwise unequal, and every game equals its
    // representative.
    let mut representative: FxHashMap<TreeId, usize> = FxHashMap::default();
    for &g in &day4 {
        representative.entry(trees[g]).or_insert(g);
    }
    let reps: Vec<usize> = representative.values().copied().collect();
    assert_eq!(reps.len(), 22, "trees of day 4");
    for &g in &reps {
        for &h in &reps {
            assert_eq!(
                explicit.equal_by_rule(g, h, &mut outcomes, &mut memo),
                g == h
            );
        }
    }
    for &g in &day4 {
        let rep = representative[&trees[g]];
        assert!(
            explicit.equal_by_rule(g, rep, &mut outcomes, &mut memo),
            "explicit game {g} and its simplest form {}",
            store.display(trees[g])
        );
    }
}

#[test]
fn sums_of_up_to_three_games_born_by_day_3_match_plain_recursion() {
    let mut explicit = Explicit::default();
    let day3 = explicit.born_by_day(3);
    assert_eq!(day3.len(), 16, "explicit games born by day 3");
    let mut store = MisereStore::new();
    let trees = trees_of(&explicit, &mut store);
    let mut memo = FxHashMap::default();
    let sums = sums_of_up_to_three(day3.len());
    assert_eq!(
        sums.len(),
        16 + 136 + 816,
        "multisets of one to three games"
    );
    for sum in sums {
        let parts: Vec<usize> = sum.iter().map(|&i| day3[i]).collect();
        let part_trees: Vec<TreeId> = parts.iter().map(|&p| trees[p]).collect();
        let plain = Outcome::from_win(explicit.sum_wins(&parts, &mut memo));
        assert_eq!(store.outcome_of_sum(&part_trees), plain, "sum {parts:?}");
        let tree = store.sum_all(&part_trees);
        assert_eq!(
            store.outcome(tree),
            plain,
            "simplest form of the sum {parts:?}"
        );
    }
}

#[test]
fn sums_of_up_to_three_simplest_forms_born_by_day_4_match_plain_recursion() {
    let mut explicit = Explicit::default();
    let day4 = explicit.born_by_day(4);
    let mut store = MisereStore::new();
    let trees = trees_of(&explicit, &mut store);
    let mut representative: FxHashMap<TreeId, usize> = FxHashMap::default();
    for &g in &day4 {
        representative.entry(trees[g]).or_insert(g);
    }
    let mut reps: Vec<usize> = representative.values().copied().collect();
    reps.sort_unstable();
    let mut memo = FxHashMap::default();
    for sum in sums_of_up_to_three(reps.len()) {
        let parts: Vec<usize> = sum.iter().map(|&i| reps[i]).collect();
        let part_trees: Vec<TreeId> = parts.iter().map(|&p| trees[p]).collect();
        let plain = Outcome::from_win(explicit.sum_wins(&parts, &mut memo));
        assert_eq!(store.outcome_of_sum(&part_trees), plain, "sum {parts:?}");
    }
}

#[test]
fn sums_with_shortcuts_equal_sums_by_definition() {
    let mut store = MisereStore::new();
    let mut games = store.born_by_day(3).expect("small day");
    games.extend((0..6).map(|n| store.heap(n)));
    games.sort_unstable();
    games.dedup();
    let mut memo = FxHashMap::default();
    for &a in &games {
        for &b in &games {
            let by_definition = sum_by_definition(&mut store, a, b, &mut memo);
            assert_eq!(
                store.sum(a, b),
                by_definition,
                "{} + {}",
                store.display(a),
                store.display(b)
            );
        }
    }
}

#[test]
fn nim_heaps_are_canonical_and_add_by_xor_beside_0_and_1() {
    let mut store = MisereStore::new();
    for n in 0..10 {
        let heap = store.heap(n);
        assert_eq!(store.heap_size(heap), Some(n));
        assert_eq!(
            store.options(heap).len(),
            n as usize,
            "no option of *{n} is removed"
        );
        assert_eq!(store.birthday(heap), n);
    }
    let mut memo = FxHashMap::default();
    for m in 0..2 {
        for n in 0..8 {
            let (a, b) = (store.heap(m), store.heap(n));
            let expected = store.heap(m ^ n);
            assert_eq!(
                sum_by_definition(&mut store, a, b, &mut memo),
                expected,
                "*{m} + *{n}"
            );
        }
    }
    let two = store.heap(2);
    let double = store.sum(two, two);
    assert_eq!(
        store.heap_size(double),
        None,
        "*2 + *2 is not a heap in misère play"
    );
    assert_eq!(store.display(TreeId::ZERO).to_string(), "0");
    let star = store.heap(1);
    assert_eq!(store.display(star).to_string(), "*");
}

#[test]
fn misere_nim_rule_matches_plain_recursion_and_trees() {
    let mut plain = OutcomeSolver::new(Nim, Convention::Misere);
    let mut by_trees = MisereSolver::new(Nim);
    let mut checked = 0;
    for a in 0..6 {
        for b in a..6 {
            for c in b..6 {
                for d in c..6 {
                    let heaps = [a, b, c, d];
                    let position = Nim::position(heaps);
                    let expected = plain.outcome(&position);
                    assert_eq!(misere_nim_outcome(heaps), expected, "heaps {heaps:?}");
                    assert_eq!(by_trees.outcome(&position), expected, "heaps {heaps:?}");
                    let tree = by_trees.tree(&position);
                    assert_eq!(by_trees.store().outcome(tree), expected, "heaps {heaps:?}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 126, "multisets of four heaps of 0 to 5");
}

#[test]
fn the_day_3_games_print_in_braces() {
    let mut store = MisereStore::new();
    let day3 = store.born_by_day(3).expect("small day");
    let mut shown: Vec<String> = day3.iter().map(|&g| store.display(g).to_string()).collect();
    shown.sort();
    assert_eq!(shown, ["*", "*2", "*3", "0", "{*2}"]);
}

#[test]
fn trees_move_between_stores_unchanged() {
    let mut source = MisereStore::new();
    let mut games = source.born_by_day(4).expect("small day");
    let two = source.heap(2);
    games.push(source.sum(two, two));
    let mut target = MisereStore::new();
    let seven = target.heap(7);
    for &game in &games {
        let moved = target.import(&source, game);
        assert_eq!(target.outcome(moved), source.outcome(game));
        assert_eq!(target.birthday(moved), source.birthday(game));
        assert_eq!(
            target.display(moved).to_string(),
            source.display(game).to_string()
        );
        assert_eq!(
            target.import(&source, game),
            moved,
            "importing twice adds nothing"
        );
    }
    assert_eq!(target.heap(7), seven, "what the target had keeps its id");
    let heap_in_source = source.heap(3);
    let heap_in_target = target.heap(3);
    assert_eq!(target.import(&source, heap_in_source), heap_in_target);
}
