//! The tables and the search behind [`MisereSproutsSolver`](super::MisereSproutsSolver).

use std::sync::Arc;

use rustc_hash::FxHashMap;
use sprouts_topo::Position;

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
    form: Box<str>,
    lives: u32,
    tree: Option<TreeId>,
    children: Option<Children>,
}

/// A limit struck: the work is abandoned, what was proven is kept.
#[derive(Debug)]
struct Aborted;

/// A position as the search sees it: unsolved lands (sorted) beside the sum of the solved ones.
#[derive(Clone, Debug)]
struct State {
    lands: Vec<LandId>,
    context: TreeId,
}

#[derive(Debug)]
pub(super) struct Search {
    config: MisereConfig,
    store: MisereStore,
    lands: Vec<Land>,
    index: FxHashMap<Box<str>, LandId>,
    /// Proven outcomes (true: won for the player to move) of states, keyed by the context's id
    /// followed by the unsolved lands.
    table: FxHashMap<Box<[u32]>, bool>,
    nodes: u64,
}

impl Search {
    pub(super) fn new(config: MisereConfig) -> Self {
        Search {
            config,
            store: MisereStore::new(),
            lands: Vec::new(),
            index: FxHashMap::default(),
            table: FxHashMap::default(),
            nodes: 0,
        }
    }

    pub(super) fn stats(&self) -> MisereStats {
        MisereStats {
            lands: self.lands.len(),
            land_trees: self.lands.iter().filter(|l| l.tree.is_some()).count(),
            trees: self.store.len(),
            table: self.table.len(),
        }
    }

    /// The outcome of the position made of `lands` (canonical forms), and the nodes visited.
    pub(super) fn outcome(&mut self, lands: &[&str], limits: &Limits) -> (Option<Outcome>, u64) {
        self.nodes = 0;
        let ids: Vec<LandId> = lands.iter().map(|form| self.intern(form)).collect();
        let res = self
            .settle(ids, TreeId::ZERO, limits)
            .and_then(|state| self.won(&state, limits));
        (res.ok().map(Outcome::from_win), self.nodes)
    }

    /// The canonical tree of the position made of `lands`, written out, and the nodes visited.
    pub(super) fn tree_text(&mut self, lands: &[&str], limits: &Limits) -> (Option<String>, u64) {
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

    fn intern(&mut self, form: &str) -> LandId {
        if let Some(&id) = self.index.get(form) {
            return id;
        }
        let lives = Position::parse_glop(form)
            .unwrap_or_else(|e| panic!("a canonical land reads back: {form}: {e}"))
            .total_lives();
        let id = LandId(u32::try_from(self.lands.len()).expect("fewer than 2^32 lands"));
        self.lands.push(Land {
            form: form.into(),
            lives,
            tree: None,
            children: None,
        });
        self.index.insert(form.into(), id);
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
        let position = Position::parse_glop(&self.land(id).form)
            .unwrap_or_else(|e| panic!("a canonical land reads back: {e}"));
        let mut forms: Vec<Vec<String>> = Vec::new();
        position.for_each_child_lands(|child| {
            forms.push(child.lands().map(str::to_owned).collect());
        });
        let children: Children = forms
            .iter()
            .map(|child| {
                let mut ids: Vec<LandId> = child.iter().map(|f| self.intern(f)).collect();
                ids.sort_unstable();
                ids.into_boxed_slice()
            })
            .collect();
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
        self.lands[id.0 as usize].tree = Some(tree);
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

    /// Replaces the lands that are solved, or small enough to solve, by their trees added into
    /// the context.
    fn settle(
        &mut self,
        lands: Vec<LandId>,
        mut context: TreeId,
        limits: &Limits,
    ) -> Result<State, Aborted> {
        let mut open = Vec::with_capacity(lands.len());
        for land in lands {
            let entry = self.land(land);
            let tree = match entry.tree {
                Some(tree) => Some(tree),
                None if entry.lives <= self.config.tree_lives => {
                    Some(self.land_tree(land, limits)?)
                }
                None => None,
            };
            match tree {
                Some(tree) => context = self.store.sum(context, tree),
                None => open.push(land),
            }
        }
        if open.len() >= 2 {
            // Only the largest land is searched; the others are solved if they are not too large.
            let largest = open
                .iter()
                .copied()
                .max_by_key(|&l| (self.land(l).lives, std::cmp::Reverse(l)))
                .expect("two lands");
            let mut kept = Vec::with_capacity(open.len());
            for land in open {
                if land != largest && self.land(land).lives <= self.config.side_tree_lives {
                    let tree = self.land_tree(land, limits)?;
                    context = self.store.sum(context, tree);
                } else {
                    kept.push(land);
                }
            }
            open = kept;
        }
        open.sort_unstable();
        Ok(State {
            lands: open,
            context,
        })
    }

    fn key(state: &State) -> Box<[u32]> {
        std::iter::once(state.context.index() as u32)
            .chain(state.lands.iter().map(|l| l.0))
            .collect()
    }

    /// The proven outcome of a settled state, if it is known without search.
    fn known(&self, state: &State) -> Option<bool> {
        match state.lands.is_empty() {
            true => Some(self.store.outcome(state.context) == Outcome::Win),
            false => self.table.get(&Self::key(state)).copied(),
        }
    }

    /// Whether the player to move wins the settled `state`.
    fn won(&mut self, state: &State, limits: &Limits) -> Result<bool, Aborted> {
        if let Some(known) = self.known(state) {
            return Ok(known);
        }
        self.tick(limits)?;
        // Every child, settled; a child known to be lost ends the search at once.
        let mut open: Vec<(u32, State)> = Vec::new();
        let mut won = false;
        'children: {
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
                    let next = self.settle(lands, state.context, limits)?;
                    match self.known(&next) {
                        Some(false) => {
                            won = true;
                            break 'children;
                        }
                        Some(true) => {}
                        None => open.push((self.weight(&next), next)),
                    }
                }
            }
            for &option in self.store.options(state.context).to_vec().iter() {
                let next = State {
                    lands: state.lands.clone(),
                    context: option,
                };
                match self.known(&next) {
                    Some(false) => {
                        won = true;
                        break 'children;
                    }
                    Some(true) => {}
                    None => open.push((self.weight(&next), next)),
                }
            }
            // Smaller positions first: they are decided faster.
            open.sort_by_key(|(weight, _)| *weight);
            for (_, next) in &open {
                if !self.won(next, limits)? {
                    won = true;
                    break 'children;
                }
            }
        }
        self.table.insert(Self::key(state), won);
        Ok(won)
    }

    /// The order in which unknown children are searched: fewest lives first.
    fn weight(&self, state: &State) -> u32 {
        state.lands.iter().map(|&l| self.land(l).lives).sum::<u32>()
            + self.store.birthday(state.context)
    }
}
