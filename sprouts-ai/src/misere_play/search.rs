//! The tables and the search behind [`MisereSproutsSolver`](super::MisereSproutsSolver).

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use sprouts_topo::LandForm;

use super::{MisereConfig, MisereStats};
use crate::Limits;
use crate::impartial::{MisereStore, Outcome, TreeId};

/// A land (an independent component, by canonical form) interned in the search's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct LandId(u32);

/// The children of a land: each child is the sorted multiset of its lands (empty when the move
/// ends the land).
type Children = Arc<[Box<[LandId]>]>;

#[derive(Debug)]
struct Land {
    form: LandForm,
    tree: Option<TreeId>,
    children: Option<Children>,
}

/// An infinite proof or disproof number: the state is proven the other way.
const INF: u32 = u32::MAX;

/// The sum of two proof numbers: infinite when one is, otherwise capped below infinity.
fn add(a: u32, b: u32) -> u32 {
    match (a, b) {
        (INF, _) | (_, INF) => INF,
        _ => a.saturating_add(b).min(INF - 1),
    }
}

/// A settled state with its table key.
type KeyedState = (State, Box<[u32]>);

/// A limit struck: the work is abandoned, what was proven is kept.
#[derive(Debug)]
struct Aborted;

/// A position as the search sees it: unsolved lands (sorted) beside the trees of the solved ones.
///
/// The trees are kept as a sum of parts ([`MisereStore::normalise_sum`]: sorted, no `0`, `*1`s
/// folded), not added into one simplest form: the simplest form of a sum of large trees costs a
/// tree as large as the product of theirs, while the search only needs the sum's outcome (a
/// search over the parts that stops at the first winning move) and its moves (an option of one
/// part).
#[derive(Clone, Debug)]
struct State {
    lands: Vec<LandId>,
    context: Vec<TreeId>,
}

/// Separates the context's trees from the lands in a table key.
const SEPARATOR: u32 = u32::MAX;

#[derive(Debug)]
pub(super) struct Search {
    config: MisereConfig,
    store: MisereStore,
    lands: Vec<Land>,
    /// The lands by the hash of their form (the form itself is kept once, in `lands`); the rare
    /// land whose hash another land already has is found in `collided`.
    index: FxHashMap<u64, LandId>,
    collided: FxHashMap<LandForm, LandId>,
    /// Bytes of the lands' form texts.
    land_text_bytes: usize,
    /// Proven outcomes (true: won for the player to move) of states, keyed by the context's
    /// trees, [`SEPARATOR`], then the unsolved lands.
    table: FxHashMap<Box<[u32]>, bool>,
    /// Proof and disproof numbers of states searched but not proven.
    numbers: FxHashMap<Box<[u32]>, (u32, u32)>,
    /// Bytes `table` and `numbers` take, as [`MisereConfig::table_bytes`] counts them.
    table_bytes: usize,
    numbers_bytes: usize,
    /// Bytes the children lists of lands take (see [`children_bytes`]).
    children_bytes: usize,
    /// The lands whose children have been listed since the lists were last dropped.
    listed: Vec<LandId>,
    /// Proven positions dropped to keep within the budget, and how many times it was done.
    evicted: u64,
    evictions: u32,
    nodes: u64,
}

/// What an entry of the transposition table or the table of numbers costs: its key (4 bytes a
/// word) and the map's slot with the key's allocation header.
fn entry_bytes(key: &[u32]) -> usize {
    4 * key.len() + 48
}

/// What a land's list of children costs: each child's allocation and pointer, and the list's.
fn children_bytes(children: &[Box<[LandId]>]) -> usize {
    children.iter().map(|c| 4 * c.len() + 32).sum::<usize>() + 32
}

impl Search {
    pub(super) fn new(config: MisereConfig) -> Self {
        Search {
            config,
            store: MisereStore::new(),
            lands: Vec::new(),
            index: FxHashMap::default(),
            collided: FxHashMap::default(),
            land_text_bytes: 0,
            table: FxHashMap::default(),
            numbers: FxHashMap::default(),
            table_bytes: 0,
            numbers_bytes: 0,
            children_bytes: 0,
            listed: Vec::new(),
            evicted: 0,
            evictions: 0,
            nodes: 0,
        }
    }

    /// Bytes counted against [`MisereConfig::table_bytes`]: the proven positions, the proof
    /// numbers, the lands' children lists and the store's memos of sums.
    fn bounded_bytes(&self) -> usize {
        self.table_bytes + self.numbers_bytes + self.children_bytes + self.store.memo_bytes()
    }

    /// Makes room for an entry of `cost` bytes within the budget, down to half of it so that
    /// the next clearing waits for as much growth. What is cheapest to do again goes first: the
    /// proof numbers (they only steer the search), the children lists of lands (one canonical
    /// form each to list again), half the proven positions (a different half each time, by a
    /// bit of the key's hash); the memos of sums go only when they alone fill the budget (sums
    /// of large trees are built recursively from them).
    fn make_room(&mut self, cost: usize) {
        let Some(budget) = self.config.table_bytes else {
            return;
        };
        if self.bounded_bytes() + cost <= budget {
            return;
        }
        let target = budget / 2;
        self.numbers = FxHashMap::default();
        self.numbers_bytes = 0;
        if self.bounded_bytes() + cost <= target {
            return;
        }
        for id in std::mem::take(&mut self.listed) {
            self.lands[id.0 as usize].children = None;
        }
        self.children_bytes = 0;
        if self.bounded_bytes() + cost <= target {
            return;
        }
        if self.table_bytes > 0 {
            self.evict_half_of_the_table();
        }
        if self.bounded_bytes() + cost > budget {
            self.store.forget_memos();
        }
    }

    fn evict_half_of_the_table(&mut self) {
        let bit = self.evictions % 64;
        self.evictions = self.evictions.wrapping_add(1);
        let before = self.table.len();
        let mut bytes = self.table_bytes;
        self.table.retain(|key, _| {
            let keep =
                (std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, key) >> bit) & 1 == 0;
            if !keep {
                bytes -= entry_bytes(key);
            }
            keep
        });
        self.table_bytes = bytes;
        self.evicted += (before - self.table.len()) as u64;
    }

    /// Records a proven position (`won` for the player to move), within the budget.
    fn prove(&mut self, key: &[u32], won: bool) {
        if self.numbers.remove(key).is_some() {
            self.numbers_bytes -= entry_bytes(key);
        }
        if !self.table.contains_key(key) {
            let cost = entry_bytes(key);
            self.make_room(cost);
            self.table_bytes += cost;
        }
        self.table.insert(key.into(), won);
    }

    /// Records the numbers of a position searched but not proven, within the budget.
    fn note_numbers(&mut self, key: &[u32], numbers: (u32, u32)) {
        if !self.numbers.contains_key(key) {
            let cost = entry_bytes(key);
            self.make_room(cost);
            self.numbers_bytes += cost;
        }
        self.numbers.insert(key.into(), numbers);
    }

    pub(super) fn stats(&self) -> MisereStats {
        MisereStats {
            lands: self.lands.len(),
            land_trees: self.lands.iter().filter(|l| l.tree.is_some()).count(),
            trees: self.store.len(),
            table: self.table.len(),
            table_bytes: self.bounded_bytes(),
            land_bytes: self.lands.len() * (std::mem::size_of::<Land>() + 24)
                + self.land_text_bytes,
            evicted: self.evicted,
        }
    }

    /// The outcome of the position made of `lands` (canonical forms), and the nodes visited.
    pub(super) fn outcome(
        &mut self,
        lands: &[LandForm],
        limits: &Limits,
    ) -> (Option<Outcome>, u64) {
        self.nodes = 0;
        let ids: Vec<LandId> = lands.iter().map(|form| self.intern(form)).collect();
        let res = self
            .settle(ids, Vec::new(), limits)
            .and_then(|state| self.decide(&state, limits));
        (res.ok().map(Outcome::from_win), self.nodes)
    }

    /// The canonical tree of the position made of `lands`, written out, and the nodes visited.
    pub(super) fn tree_text(
        &mut self,
        lands: &[LandForm],
        limits: &Limits,
    ) -> (Option<String>, u64) {
        self.nodes = 0;
        let ids: Vec<LandId> = lands.iter().map(|form| self.intern(form)).collect();
        let res = self.sum_tree(&ids, limits);
        (
            res.ok().map(|tree| self.store.display(tree).to_string()),
            self.nodes,
        )
    }

    fn tick(&mut self, limits: &Limits) -> Result<(), Aborted> {
        self.nodes += 1;
        match limits.exceeded(self.nodes) {
            true => Err(Aborted),
            false => Ok(()),
        }
    }

    fn intern(&mut self, form: &LandForm) -> LandId {
        let hash = std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, form);
        self.intern_hashed(form, hash)
    }

    /// [`intern`](Self::intern) with the form's hash given (tests give equal hashes to
    /// different forms).
    fn intern_hashed(&mut self, form: &LandForm, hash: u64) -> LandId {
        let first = self.index.get(&hash).copied();
        if let Some(id) = first
            && self.land(id).form == *form
        {
            return id;
        }
        if let Some(&id) = self.collided.get(form) {
            return id;
        }
        let id = LandId(u32::try_from(self.lands.len()).expect("fewer than 2^32 lands"));
        self.lands.push(Land {
            form: form.clone(),
            tree: None,
            children: None,
        });
        match first {
            None => {
                self.index.insert(hash, id);
            }
            Some(_) => {
                self.collided.insert(form.clone(), id);
            }
        }
        self.land_text_bytes += form.as_str().len() + 16;
        id
    }

    fn land(&self, id: LandId) -> &Land {
        &self.lands[id.0 as usize]
    }

    /// The children of a land, computed once.
    fn children(&mut self, id: LandId) -> Children {
        if let Some(children) = &self.land(id).children {
            return children.clone();
        }
        let forms = self.land(id).form.children();
        let children: Children = forms
            .iter()
            .map(|child| {
                let mut ids: Vec<LandId> = child.iter().map(|f| self.intern(f)).collect();
                ids.sort_unstable();
                ids.into_boxed_slice()
            })
            .collect();
        self.children_bytes += children_bytes(&children);
        self.listed.push(id);
        self.lands[id.0 as usize].children = Some(children.clone());
        children
    }

    /// The misère canonical tree of a land: the simplest game whose options are its children's
    /// trees. Memoised by the land.
    fn land_tree(&mut self, id: LandId, limits: &Limits) -> Result<TreeId, Aborted> {
        if let Some(tree) = self.land(id).tree {
            return Ok(tree);
        }
        self.tick(limits)?;
        let children = self.children(id);
        let mut options = Vec::with_capacity(children.len());
        for child in children.iter() {
            options.push(self.sum_tree(child, limits)?);
        }
        let tree = self.store.game(&options);
        // A land with a tree always joins the context and is never expanded again: its children
        // (most of a land's bytes) are not needed any more.
        let land = &mut self.lands[id.0 as usize];
        land.tree = Some(tree);
        if let Some(children) = land.children.take() {
            self.children_bytes = self
                .children_bytes
                .saturating_sub(children_bytes(&children));
        }
        Ok(tree)
    }

    /// The tree of a sum of lands.
    fn sum_tree(&mut self, lands: &[LandId], limits: &Limits) -> Result<TreeId, Aborted> {
        let mut sum = TreeId::ZERO;
        for &land in lands {
            let tree = self.land_tree(land, limits)?;
            sum = self.store.sum(sum, tree);
        }
        Ok(sum)
    }

    /// Replaces the lands that are solved, or small enough to solve, by their trees added to the
    /// context.
    fn settle(
        &mut self,
        lands: Vec<LandId>,
        mut context: Vec<TreeId>,
        limits: &Limits,
    ) -> Result<State, Aborted> {
        let mut open = Vec::with_capacity(lands.len());
        for land in lands {
            let entry = self.land(land);
            let tree = match entry.tree {
                Some(tree) => Some(tree),
                None if entry.form.lives() <= self.config.tree_lives => {
                    Some(self.land_tree(land, limits)?)
                }
                None => None,
            };
            match tree {
                Some(tree) => context.push(tree),
                None => open.push(land),
            }
        }
        if open.len() >= 2 {
            // Only the largest land is searched; the others are solved if they are not too large.
            let largest = open
                .iter()
                .copied()
                .max_by_key(|&l| (self.land(l).form.lives(), std::cmp::Reverse(l)))
                .expect("two lands");
            let mut kept = Vec::with_capacity(open.len());
            for land in open {
                if land != largest && self.land(land).form.lives() <= self.config.side_tree_lives {
                    let tree = self.land_tree(land, limits)?;
                    context.push(tree);
                } else {
                    kept.push(land);
                }
            }
            open = kept;
        }
        open.sort_unstable();
        Ok(State {
            lands: open,
            context: self.store.normalise_sum(&context),
        })
    }

    fn key(state: &State) -> Box<[u32]> {
        let trees = state.context.iter().map(|t| t.index() as u32);
        trees
            .chain(std::iter::once(SEPARATOR))
            .chain(state.lands.iter().map(|l| l.0))
            .collect()
    }

    /// The proven outcome of a settled state, if it is known without search.
    fn known(&mut self, state: &State) -> Option<bool> {
        match state.lands.is_empty() {
            true => Some(self.store.outcome_of_sum(&state.context) == Outcome::Win),
            false => self.table.get(&Self::key(state)).copied(),
        }
    }

    /// Whether the player to move wins the settled `state`: a depth-first proof-number search
    /// (df-pn; Nagai 2002, after Allis's proof-number search, 1994), which always expands the
    /// child that looks cheapest to decide and so does not sink into the first child.
    ///
    /// Every state has a proof number (how many unknown states must at least be decided to show
    /// it won) and a disproof number (to show it lost): a state is won when one child is lost,
    /// so its proof number is the least disproof number of its children, and lost when every child
    /// is won, so its disproof number is the sum of their proof numbers. Proven outcomes go to the
    /// table; the numbers of unproven states are kept beside it, so work is never lost.
    fn decide(&mut self, state: &State, limits: &Limits) -> Result<bool, Aborted> {
        if let Some(known) = self.known(state) {
            return Ok(known);
        }
        let key = Self::key(state);
        self.mid(state, &key, INF, INF, limits)?;
        Ok(*self
            .table
            .get(&key)
            .expect("a search without thresholds proves its state"))
    }

    /// The proof and disproof numbers of a settled state.
    fn numbers(&mut self, state: &State, key: &[u32]) -> (u32, u32) {
        let proven = match state.lands.is_empty() {
            true => Some(self.store.outcome_of_sum(&state.context) == Outcome::Win),
            false => self.table.get(key).copied(),
        };
        match proven {
            Some(true) => (0, INF),
            Some(false) => (INF, 0),
            None => self.numbers.get(key).copied().unwrap_or((1, 1)),
        }
    }

    /// One df-pn step: searches `state` until its proof number reaches `th_proof` or its
    /// disproof number reaches `th_disproof` (or it is proven).
    fn mid(
        &mut self,
        state: &State,
        key: &[u32],
        th_proof: u32,
        th_disproof: u32,
        limits: &Limits,
    ) -> Result<(), Aborted> {
        self.tick(limits)?;
        let Some(children) = self.expand(state, limits)? else {
            // A child is known to be lost.
            self.prove(key, true);
            return Ok(());
        };
        loop {
            let mut proof = INF;
            let mut second = INF;
            let mut disproof = 0u32;
            let mut best = 0;
            for (idx, (child, child_key)) in children.iter().enumerate() {
                let (child_proof, child_disproof) = self.numbers(child, child_key);
                disproof = add(disproof, child_proof);
                if child_disproof < proof {
                    second = proof;
                    proof = child_disproof;
                    best = idx;
                } else if child_disproof < second {
                    second = child_disproof;
                }
            }
            if proof == 0 || disproof == 0 {
                self.prove(key, proof == 0);
                return Ok(());
            }
            if proof >= th_proof || disproof >= th_disproof {
                self.note_numbers(key, (proof, disproof));
                return Ok(());
            }
            let (child, child_key) = &children[best];
            let (child_proof, _) = self.numbers(child, child_key);
            let child_th_proof = match th_disproof {
                INF => INF,
                th => (u64::from(th) - u64::from(disproof) + u64::from(child_proof))
                    .min(u64::from(INF - 1)) as u32,
            };
            let child_th_disproof = th_proof.min(add(second, 1));
            self.mid(child, child_key, child_th_proof, child_th_disproof, limits)?;
        }
    }

    /// The settled children of `state` with their keys, the lightest first, or `None` when one of
    /// them is known to be lost. Children are first probed without new work.
    fn expand(
        &mut self,
        state: &State,
        limits: &Limits,
    ) -> Result<Option<Vec<KeyedState>>, Aborted> {
        let mut open: Vec<(u32, Vec<LandId>, Vec<TreeId>)> = Vec::new();
        for idx in 0..state.lands.len() {
            let land = state.lands[idx];
            if idx > 0 && state.lands[idx - 1] == land {
                continue;
            }
            let children = self.children(land);
            for child in children.iter() {
                let mut lands = Vec::with_capacity(state.lands.len() + child.len());
                lands.extend_from_slice(&state.lands[..idx]);
                lands.extend_from_slice(&state.lands[idx + 1..]);
                lands.extend_from_slice(child);
                match self.probe(&lands, &state.context) {
                    Some(false) => return Ok(None),
                    Some(true) => {}
                    None => open.push((
                        self.weight(&lands, &state.context),
                        lands,
                        state.context.clone(),
                    )),
                }
            }
        }
        for idx in 0..state.context.len() {
            let tree = state.context[idx];
            if idx > 0 && state.context[idx - 1] == tree {
                continue;
            }
            for &option in self.store.options(tree).to_vec().iter() {
                let mut context = state.context.clone();
                context[idx] = option;
                let context = self.store.normalise_sum(&context);
                match self.probe(&state.lands, &context) {
                    Some(false) => return Ok(None),
                    Some(true) => {}
                    None => open.push((
                        self.weight(&state.lands, &context),
                        state.lands.clone(),
                        context,
                    )),
                }
            }
        }
        open.sort_by_key(|(weight, _, _)| *weight);
        let mut children: Vec<KeyedState> = Vec::with_capacity(open.len());
        let mut seen: FxHashSet<Box<[u32]>> = FxHashSet::default();
        for (_, lands, context) in open {
            let next = self.settle(lands, context, limits)?;
            let key = Self::key(&next);
            if self.known(&next) == Some(false) {
                return Ok(None);
            }
            if seen.insert(key.clone()) {
                children.push((next, key));
            }
        }
        Ok(Some(children))
    }

    /// The outcome of the position `lands` beside `context` when it is known without new work:
    /// lands with known trees are added to the context, and the state must then be the settled
    /// state (no land left that settling would solve).
    fn probe(&mut self, lands: &[LandId], context: &[TreeId]) -> Option<bool> {
        let mut open: Vec<LandId> = Vec::with_capacity(lands.len());
        let mut context = context.to_vec();
        for &land in lands {
            let entry = self.land(land);
            match entry.tree {
                Some(tree) => context.push(tree),
                None if entry.form.lives() <= self.config.tree_lives => return None,
                None => open.push(land),
            }
        }
        if open.len() >= 2 {
            let largest = open
                .iter()
                .copied()
                .max_by_key(|&l| (self.land(l).form.lives(), std::cmp::Reverse(l)))
                .expect("two lands");
            if open
                .iter()
                .any(|&l| l != largest && self.land(l).form.lives() <= self.config.side_tree_lives)
            {
                return None;
            }
        }
        open.sort_unstable();
        let context = self.store.normalise_sum(&context);
        self.known(&State {
            lands: open,
            context,
        })
    }

    /// The order in which unknown children are searched: the fewest lives left in lands that
    /// settling will not solve first (a child that splits into small lands is nearly decided),
    /// then the smaller context (the sum of its trees' birthdays).
    fn weight(&self, lands: &[LandId], context: &[TreeId]) -> u32 {
        let big: Vec<u32> = lands
            .iter()
            .map(|&l| self.land(l))
            .filter(|l| l.tree.is_none() && l.form.lives() > self.config.tree_lives)
            .map(|l| l.form.lives())
            .collect();
        let largest = big.iter().copied().max().unwrap_or(0);
        let searched: u32 = largest
            + big
                .iter()
                .filter(|&&l| l > self.config.side_tree_lives)
                .sum::<u32>()
            - if largest > self.config.side_tree_lives {
                largest
            } else {
                0
            };
        let birthdays: u32 = context.iter().map(|&t| self.store.birthday(t)).sum();
        searched * 64 + birthdays.min(63)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sprouts_topo::Position;

    #[test]
    fn lands_whose_hashes_collide_stay_apart() {
        let mut search = Search::new(MisereConfig::default());
        let forms: Vec<LandForm> = ["0*3", "0*4", "0*5"]
            .iter()
            .map(|glop| Position::parse_glop(glop).unwrap().canonical().land_forms()[0].clone())
            .collect();
        let ids: Vec<LandId> = forms.iter().map(|f| search.intern_hashed(f, 7)).collect();
        assert_eq!(ids, vec![LandId(0), LandId(1), LandId(2)]);
        for (form, &id) in forms.iter().zip(&ids) {
            assert_eq!(search.intern_hashed(form, 7), id);
            assert_eq!(search.land(id).form, *form);
        }
        assert_eq!(search.lands.len(), 3);
        assert_eq!(search.collided.len(), 2);
    }
}
