//! The store of misère canonical trees: hash-consed simplest forms, sums, outcomes of sums.

use std::fmt;

use rustc_hash::FxHashMap;

use super::misere_nim_outcome;
use crate::impartial::Outcome;

/// The id of a misère canonical tree in a [`MisereStore`].
///
/// Ids are only meaningful in the store that made them. Within a store, two ids are equal exactly
/// when the games are equal in misère play (interchangeable in every sum), because each game has a
/// unique simplest form and the store keeps each form once. Ids are never reused or invalidated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TreeId(u32);

impl TreeId {
    /// The empty game `0` (no move), present in every store.
    pub const ZERO: TreeId = TreeId(0);

    /// The position of this tree in its store, counting from 0 in order of creation.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug)]
struct Node {
    /// The options, canonical, sorted by id, without repeats.
    options: Box<[TreeId]>,
    outcome: Outcome,
    birthday: u32,
    /// The normal-play nimber (Grundy value). Misère-equal games have equal nimbers (the nimber
    /// is the base of Conway's genus, an invariant of misère equality: *On Numbers and Games*,
    /// ch. 12), so it is a cheap test of inequality.
    nimber: u32,
    /// `Some(n)` when the tree is the nim heap `*n`.
    heap: Option<u32>,
}

/// A store of misère canonical trees (Conway, *On Numbers and Games*, ch. 12; Lemoine and Viennot,
/// "Analysis of misère Sprouts game with reduced canonical trees", arXiv:0908.4407).
///
/// In misère play the nimber of a part says nothing about how it behaves beside other parts; its
/// simplest form does. [`game`](Self::game) turns a set of options (trees already in the store)
/// into the simplest form of the game with those options, by the rules of spec 5.7:
///
/// - *equal options are merged*: options are canonical, so equal options have equal ids;
/// - *reversible options are removed*: an option `x` of `G = {S}` goes when `x` has an option equal
///   to `{S \ x}`, unless `S \ x` is empty and `G` is a misère loss for the player to move;
/// - *equality* of a tree `y` with a game `H` whose options are canonical is decided by Conway's
///   rule: same misère outcome, every option of `y` equals an option of `H` or has an option equal
///   to `H`, and every option of `H` equals an option of `y` or has an option equal to `y`.
///
/// Nim heaps are canonical, and `*m + *n = *(m ⊕ n)` when `m` or `n` is 0 or 1; sums of heaps
/// alone are decided by the misère nim rule ([`misere_nim_outcome`]).
///
/// # Examples
/// ```
/// use sprouts_ai::impartial::{MisereStore, Outcome, TreeId};
/// let mut store = MisereStore::new();
/// let star = store.heap(1);
/// // {*} is 0 in misère play: its only option reverses through 0.
/// assert_eq!(store.game(&[star]), TreeId::ZERO);
/// // *2 + *2 is not 0 in misère play, and the player to move loses it.
/// let two = store.heap(2);
/// let sum = store.sum(two, two);
/// assert_ne!(sum, TreeId::ZERO);
/// assert_eq!(store.outcome(sum), Outcome::Loss);
/// ```
#[derive(Clone, Debug)]
pub struct MisereStore {
    nodes: Vec<Node>,
    index: FxHashMap<Box<[TreeId]>, TreeId>,
    heaps: Vec<TreeId>,
    sums: FxHashMap<(TreeId, TreeId), TreeId>,
    sum_outcomes: FxHashMap<Box<[TreeId]>, Outcome>,
    /// Bytes `sum_outcomes` takes, as [`memo_bytes`](Self::memo_bytes) counts them.
    sum_outcomes_bytes: usize,
}

/// What an entry of [`MisereStore`]'s memo of sums costs: two ids, the result and the map's slot.
const SUM_ENTRY_BYTES: usize = 16;

impl Default for MisereStore {
    fn default() -> Self {
        MisereStore::new()
    }
}

impl MisereStore {
    /// A store holding only `0`.
    pub fn new() -> Self {
        let mut store = MisereStore {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            heaps: Vec::new(),
            sums: FxHashMap::default(),
            sum_outcomes: FxHashMap::default(),
            sum_outcomes_bytes: 0,
        };
        let zero = store.intern(Vec::new());
        debug_assert_eq!(zero, TreeId::ZERO, "0 is the first tree");
        store.heaps.push(zero);
        store
    }

    /// How many distinct trees the store holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the store holds nothing but `0` (it always holds `0`).
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// Bytes taken by the memos of sums and of the outcomes of sums (about; the map's slots and
    /// the keys' allocations counted), which [`forget_memos`](Self::forget_memos) frees.
    pub fn memo_bytes(&self) -> usize {
        self.sums.len() * SUM_ENTRY_BYTES + self.sum_outcomes_bytes
    }

    /// Forgets the memoised sums and outcomes of sums (they are computed again when needed). The
    /// trees stay: ids remain valid.
    pub fn forget_memos(&mut self) {
        self.sums = FxHashMap::default();
        self.sum_outcomes = FxHashMap::default();
        self.sum_outcomes_bytes = 0;
    }

    /// The options of `tree`, canonical and sorted by id.
    pub fn options(&self, tree: TreeId) -> &[TreeId] {
        &self.nodes[tree.index()].options
    }

    /// The misère outcome of `tree` alone, for the player to move.
    pub fn outcome(&self, tree: TreeId) -> Outcome {
        self.nodes[tree.index()].outcome
    }

    /// The birthday of `tree`: the height of its simplest form.
    pub fn birthday(&self, tree: TreeId) -> u32 {
        self.nodes[tree.index()].birthday
    }

    /// `Some(n)` when `tree` is the nim heap `*n`.
    pub fn heap_size(&self, tree: TreeId) -> Option<u32> {
        self.nodes[tree.index()].heap
    }

    /// The nim heap `*n = {0, *, ..., *(n-1)}`.
    pub fn heap(&mut self, n: u32) -> TreeId {
        while self.heaps.len() <= n as usize {
            let options = self.heaps.clone();
            let next = self.game(&options);
            self.heaps.push(next);
        }
        self.heaps[n as usize]
    }

    /// The simplest form of the game whose options are `options` (in any order, repeats allowed).
    ///
    /// # Complexity
    /// Each pass looks for one reversible option; a test costs at most the size of the option's
    /// tree times the number of options. The result is memoised only when it is new, so callers
    /// that build the same game often should keep its id.
    pub fn game(&mut self, options: &[TreeId]) -> TreeId {
        let mut set = options.to_vec();
        set.sort_unstable();
        set.dedup();
        if let Some(&known) = self.index.get(set.as_slice()) {
            return known;
        }
        'pass: loop {
            let whole = self.outcome_of_options(&set);
            for idx in 0..set.len() {
                let x = set[idx];
                if set.len() == 1 && whole == Outcome::Loss {
                    continue;
                }
                // The game {S \ x} without building it: its outcome and nimber first, a cheap
                // test that rules out most options of `x`.
                let target = self.signature_without(&set, idx);
                if !self.options(x).iter().any(|&y| self.signature(y) == target) {
                    continue;
                }
                let mut rest = set.clone();
                rest.remove(idx);
                if self.has_option_equal_to(x, &rest) {
                    set = rest;
                    continue 'pass;
                }
            }
            break;
        }
        match self.index.get(set.as_slice()) {
            Some(&known) => known,
            None => self.intern(set),
        }
    }

    /// The simplest form of the sum `a + b`.
    ///
    /// Computed from the definition, `a + b = {a' + b, a + b'}`, simplified, and memoised; `0` is
    /// the identity and heaps with `*0` or `*1` add by XOR.
    pub fn sum(&mut self, a: TreeId, b: TreeId) -> TreeId {
        let (a, b) = (a.min(b), a.max(b));
        if a == TreeId::ZERO {
            return b;
        }
        if let (Some(m), Some(n)) = (self.heap_size(a), self.heap_size(b))
            && (m <= 1 || n <= 1)
        {
            return self.heap(m ^ n);
        }
        if let Some(&known) = self.sums.get(&(a, b)) {
            return known;
        }
        let mut options = Vec::with_capacity(self.options(a).len() + self.options(b).len());
        for a_option in self.options(a).to_vec() {
            options.push(self.sum(a_option, b));
        }
        for b_option in self.options(b).to_vec() {
            options.push(self.sum(a, b_option));
        }
        let res = self.game(&options);
        self.sums.insert((a, b), res);
        res
    }

    /// The simplest form of the sum of all `trees` (`0` for none).
    pub fn sum_all(&mut self, trees: &[TreeId]) -> TreeId {
        trees
            .iter()
            .fold(TreeId::ZERO, |acc, &tree| self.sum(acc, tree))
    }

    /// The misère outcome of the sum of `trees`, for the player to move, without building the
    /// sum's simplest form.
    ///
    /// Zeros are dropped and `*1`s folded into a heap; a sum of heaps alone is decided by the
    /// misère nim rule; otherwise the sum is searched (a move is an option of one tree), with the
    /// outcomes of the sums met memoised.
    pub fn outcome_of_sum(&mut self, trees: &[TreeId]) -> Outcome {
        let parts = self.normalise_sum(trees);
        match parts.as_slice() {
            [] => return Outcome::Win,
            [single] => return self.outcome(*single),
            _ => {}
        }
        let heaps: Option<Vec<u32>> = parts.iter().map(|&t| self.heap_size(t)).collect();
        if let Some(heaps) = heaps {
            return misere_nim_outcome(heaps);
        }
        if let Some(&known) = self.sum_outcomes.get(parts.as_slice()) {
            return known;
        }
        let mut won = false;
        'search: for idx in 0..parts.len() {
            if idx > 0 && parts[idx] == parts[idx - 1] {
                continue;
            }
            for &option in self.options(parts[idx]).to_vec().iter() {
                let mut child = parts.clone();
                child[idx] = option;
                if self.outcome_of_sum(&child) == Outcome::Loss {
                    won = true;
                    break 'search;
                }
            }
        }
        let outcome = Outcome::from_win(won);
        self.sum_outcomes_bytes += 4 * parts.len() + 40;
        self.sum_outcomes.insert(parts.into_boxed_slice(), outcome);
        outcome
    }

    /// The id in this store of the tree `tree` of the store `other`, adding it and its options
    /// when they are missing. Workers that each keep a store can pool their trees this way.
    pub fn import(&mut self, other: &MisereStore, tree: TreeId) -> TreeId {
        let mut imported = FxHashMap::default();
        self.import_with(other, tree, &mut imported)
    }

    fn import_with(
        &mut self,
        other: &MisereStore,
        tree: TreeId,
        imported: &mut FxHashMap<TreeId, TreeId>,
    ) -> TreeId {
        if let Some(&known) = imported.get(&tree) {
            return known;
        }
        let options: Vec<TreeId> = other
            .options(tree)
            .iter()
            .map(|&option| self.import_with(other, option, imported))
            .collect();
        let res = self.game(&options);
        imported.insert(tree, res);
        res
    }

    /// Every misère game born by day `day`, in simplest form, sorted by id: the games born by day
    /// `k` are the games whose options are any set of games born by day `k - 1` (Conway, *On
    /// Numbers and Games*, ch. 12). There are 1, 2, 3, 5, 22 and 4,171,780 of them on days 0 to 5.
    ///
    /// Day 5 lists 2^22 sets and keeps 4,171,780 trees (about 8 s and 0.9 GB on a laptop-class
    /// core). Returns `None` when the games born by day `day - 1` are more than 30, whose sets are
    /// too many to list (day 6).
    pub fn born_by_day(&mut self, day: u32) -> Option<Vec<TreeId>> {
        let _span = tracing::info_span!("born_by_day", day).entered();
        let mut games = vec![TreeId::ZERO];
        for _ in 0..day {
            if games.len() > 30 {
                return None;
            }
            let mut next: Vec<TreeId> = (0u64..1 << games.len())
                .map(|subset| {
                    let options: Vec<TreeId> = games
                        .iter()
                        .enumerate()
                        .filter(|&(bit, _)| subset >> bit & 1 == 1)
                        .map(|(_, &game)| game)
                        .collect();
                    self.game(&options)
                })
                .collect();
            next.sort_unstable();
            next.dedup();
            games = next;
        }
        Some(games)
    }

    /// Writes `tree` in braces, with heaps as `0`, `*`, `*2`, ... (for example `{*2}`), options
    /// in order of birthday. The text is the same in every store; it repeats shared subtrees, so
    /// it is for small trees.
    pub fn display(&self, tree: TreeId) -> TreeDisplay<'_> {
        TreeDisplay { store: self, tree }
    }

    /// The sum `trees` as a sorted list of parts without zeros, with `*1`s folded away
    /// (`*1 + *1 = 0`, `*1 + *n = *(n ⊕ 1)`): a sum equal to `trees` that is cheap to make (no
    /// simplest form is built), the form [`outcome_of_sum`](Self::outcome_of_sum) works on.
    pub fn normalise_sum(&mut self, trees: &[TreeId]) -> Vec<TreeId> {
        let star = self.heap(1);
        let mut parts: Vec<TreeId> = trees
            .iter()
            .copied()
            .filter(|&t| t != TreeId::ZERO && t != star)
            .collect();
        parts.sort_unstable();
        let stars = trees.iter().filter(|&&t| t == star).count();
        if stars % 2 == 1 {
            let bigger_heap = parts.iter().position(|&t| self.heap_size(t).is_some());
            match bigger_heap {
                Some(idx) => {
                    let n = self.heap_size(parts[idx]).expect("a heap");
                    parts[idx] = self.heap(n ^ 1);
                }
                None => parts.push(star),
            }
        }
        parts.sort_unstable();
        parts
    }

    /// The misère outcome of the game whose options are `options`.
    fn outcome_of_options(&self, options: &[TreeId]) -> Outcome {
        Outcome::from_win(
            options.is_empty() || options.iter().any(|&o| self.outcome(o) == Outcome::Loss),
        )
    }

    /// The outcome and nimber of a tree: equal games have equal signatures.
    fn signature(&self, tree: TreeId) -> (Outcome, u32) {
        let node = &self.nodes[tree.index()];
        (node.outcome, node.nimber)
    }

    /// The outcome and nimber of the game whose options are `options` but the one at `skip`.
    fn signature_without(&self, options: &[TreeId], skip: usize) -> (Outcome, u32) {
        let rest = || {
            options
                .iter()
                .enumerate()
                .filter(move |&(idx, _)| idx != skip)
                .map(|(_, &o)| o)
        };
        let outcome = Outcome::from_win(
            options.len() == 1 || rest().any(|o| self.outcome(o) == Outcome::Loss),
        );
        (outcome, self.mex(rest()))
    }

    /// The least nimber missing among the nimbers of `options`.
    fn mex(&self, options: impl Iterator<Item = TreeId>) -> u32 {
        let mut seen: u64 = 0;
        let mut big: Vec<u32> = Vec::new();
        for o in options {
            let n = self.nodes[o.index()].nimber;
            match n < 64 {
                true => seen |= 1 << n,
                false => big.push(n),
            }
        }
        let low = seen.trailing_ones();
        if low < 64 {
            return low;
        }
        big.sort_unstable();
        big.dedup();
        let mut mex = 64;
        for n in big {
            if n != mex {
                break;
            }
            mex += 1;
        }
        mex
    }

    /// Whether some option of `x` equals the game `{options}`.
    fn has_option_equal_to(&self, x: TreeId, options: &[TreeId]) -> bool {
        let target = (
            self.outcome_of_options(options),
            self.mex(options.iter().copied()),
        );
        let mut memo = FxHashMap::default();
        self.options(x)
            .iter()
            .any(|&y| self.equals_game(y, options, target, &mut memo))
    }

    /// Whether the tree `y` equals the game `h = {options}` whose options are canonical, by
    /// Conway's equality rule (spec 5.7); `target` is the outcome and nimber of `h`. Between
    /// canonical trees equality is identity, so only comparisons with `h` itself recurse.
    fn equals_game(
        &self,
        y: TreeId,
        options: &[TreeId],
        target: (Outcome, u32),
        memo: &mut FxHashMap<TreeId, bool>,
    ) -> bool {
        if self.signature(y) != target {
            return false;
        }
        let y_options = self.options(y);
        // The part of the rule that does not recurse first.
        if !options.iter().all(|&h1| {
            y_options.binary_search(&h1).is_ok() || self.options(h1).binary_search(&y).is_ok()
        }) {
            return false;
        }
        if let Some(&known) = memo.get(&y) {
            return known;
        }
        let res = y_options.iter().all(|&y1| {
            options.binary_search(&y1).is_ok()
                || self
                    .options(y1)
                    .iter()
                    .any(|&y2| self.equals_game(y2, options, target, memo))
        });
        memo.insert(y, res);
        res
    }

    /// Adds the canonical option set `options` as a new tree.
    fn intern(&mut self, options: Vec<TreeId>) -> TreeId {
        let id = TreeId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 trees"));
        let outcome = self.outcome_of_options(&options);
        let birthday = options
            .iter()
            .map(|&o| self.birthday(o) + 1)
            .max()
            .unwrap_or(0);
        let nimber = self.mex(options.iter().copied());
        let sizes: Option<Vec<u32>> = options.iter().map(|&o| self.heap_size(o)).collect();
        let heap = match sizes {
            // Distinct heaps have distinct ids, so the sizes are distinct: `*n` when they fill 0..n.
            Some(sizes) if sizes.iter().all(|&s| (s as usize) < sizes.len()) => {
                Some(sizes.len() as u32)
            }
            _ => None,
        };
        let options = options.into_boxed_slice();
        self.index.insert(options.clone(), id);
        self.nodes.push(Node {
            options,
            outcome,
            birthday,
            nimber,
            heap,
        });
        id
    }
}

/// The [`fmt::Display`] of a tree, from [`MisereStore::display`].
#[derive(Clone, Copy, Debug)]
pub struct TreeDisplay<'a> {
    store: &'a MisereStore,
    tree: TreeId,
}

impl fmt::Display for TreeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.store.heap_size(self.tree) {
            Some(0) => write!(f, "0"),
            Some(1) => write!(f, "*"),
            Some(n) => write!(f, "*{n}"),
            None => {
                // Options in order of birthday, then text, so that the text does not depend on
                // the order in which the store made its trees.
                let mut options: Vec<(u32, String)> = self
                    .store
                    .options(self.tree)
                    .iter()
                    .map(|&o| (self.store.birthday(o), self.store.display(o).to_string()))
                    .collect();
                options.sort();
                let shown: Vec<String> = options.into_iter().map(|(_, text)| text).collect();
                write!(f, "{{{}}}", shown.join(", "))
            }
        }
    }
}
