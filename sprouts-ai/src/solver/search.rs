//! The search on couples `L + *k` (one land beside a nim heap).
//!
//! A couple is lost when every move leads to a won couple: a move in the land (whose lands'
//! known nimbers are folded into the heap, the smaller unknown lands' nimbers computed, and the
//! largest searched as a couple) or a move in the heap (`L + *j`, `j < k`). A land's nimber is the
//! least `k` for which `L + *k` is lost (Lemoine and Viennot, "Nimbers are inevitable",
//! Theoretical Computer Science 462, 2012). Proved results go to the fact table; a search stopped
//! by its limits records only what it proved before.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use smallvec::SmallVec;
use sprouts_topo::Position;

use super::Inner;
use super::land;
use super::table::{ChildList, lands_of};
use crate::Limits;

/// Why a search ended without a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// The caller's limits were reached.
    Limits,
    /// The node budget of this sub-search (one round of widening) was used up.
    Budget,
}

pub(crate) type Res<T> = Result<T, Stopped>;

/// The node budget of the first widening round; each round multiplies it by [`GROWTH`].
const FIRST_ROUND: u64 = 4;
/// How much each widening round multiplies the budget.
const GROWTH: u64 = 4;
/// An unlimited budget.
pub(crate) const UNLIMITED: u64 = u64::MAX;

/// A move to examine from a couple `L + *k`.
#[derive(Debug)]
enum Cand<'c> {
    /// A move in the land, to a child whose unknown lands are these, beside heap `heap`.
    Child {
        unknown: SmallVec<[&'c str; 4]>,
        heap: u32,
        /// Ordering key: smaller is tried first.
        order: (u32, u32, u32),
    },
    /// A move in the heap, to `L + *j`.
    Heap(u32),
}

/// One search: the solver's tables, the limits, and the nodes expanded so far.
pub(crate) struct Search<'a> {
    pub(crate) inner: &'a Inner,
    pub(crate) limits: &'a Limits,
    pub(crate) nodes: AtomicU64,
    /// Couples this close to the root (in nested calls) have their moves searched in parallel.
    pub(crate) par_depth: u32,
}

impl<'a> Search<'a> {
    pub(crate) fn new(inner: &'a Inner, limits: &'a Limits, par_depth: u32) -> Search<'a> {
        Search {
            inner,
            limits,
            nodes: AtomicU64::new(0),
            par_depth,
        }
    }

    fn tick(&self, budget: &mut u64) -> Res<()> {
        if *budget == 0 {
            return Err(Stopped::Budget);
        }
        if *budget != UNLIMITED {
            *budget -= 1;
        }
        let n = self.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        self.inner.expanded.fetch_add(1, Ordering::Relaxed);
        match self.limits.exceeded(n) {
            true => Err(Stopped::Limits),
            false => Ok(()),
        }
    }

    /// The distinct children of `land`, from the cache or computed.
    fn children(&self, land: &str) -> Arc<ChildList> {
        if let Some(list) = self.inner.children.get(land) {
            return list;
        }
        let mut list = ChildList::default();
        match Position::parse_glop(land) {
            Ok(pos) => pos.for_each_child_lands(|c| list.push(c.as_str())),
            // Lands come from canonical forms, which always read back.
            Err(e) => unreachable!("a canonical form reads back: {land}: {e}"),
        }
        let list = Arc::new(list);
        self.inner.children.insert(land, list.clone());
        list
    }

    /// Whether the sum of `lands` beside `*heap` is lost for the player to move.
    pub(crate) fn sum_is_loss<'l>(
        &self,
        lands: impl IntoIterator<Item = &'l str>,
        mut heap: u32,
        depth: u32,
        budget: &mut u64,
    ) -> Res<bool> {
        let mut unknown: SmallVec<[&str; 4]> = SmallVec::new();
        for l in lands {
            match self.inner.facts.nimber(l) {
                Some(n) => heap ^= n,
                None => unknown.push(l),
            }
        }
        self.unknown_sum_is_loss(unknown, heap, depth, budget)
    }

    /// Like [`Search::sum_is_loss`] for lands whose nimbers are not known yet: all but the
    /// largest are solved for their nimbers, and the largest is searched as a couple.
    fn unknown_sum_is_loss(
        &self,
        mut unknown: SmallVec<[&str; 4]>,
        mut heap: u32,
        depth: u32,
        budget: &mut u64,
    ) -> Res<bool> {
        if unknown.is_empty() {
            return Ok(heap == 0);
        }
        unknown.sort_by_cached_key(|l| (land::lives(l), l.len(), *l));
        let (last, rest) = unknown.split_last().expect("not empty");
        for l in rest {
            heap ^= self.nimber(l, depth, budget)?;
        }
        self.couple_is_loss(last, heap, depth, budget)
    }

    /// The nimber of `land`: the least `k` with `land + *k` lost.
    pub(crate) fn nimber(&self, land: &str, depth: u32, budget: &mut u64) -> Res<u32> {
        if let Some(n) = self.inner.facts.nimber(land) {
            return Ok(n);
        }
        let mut k = 0;
        loop {
            if self.couple_is_loss(land, k, depth, budget)? {
                return Ok(k);
            }
            k += 1;
        }
    }

    /// Whether the couple `land + *k` is lost for the player to move.
    ///
    /// The moves are examined in rounds of growing node budgets (4, 16, 64, ... nodes each), so
    /// that a losing move that is quick to prove is found before the search sinks into a large
    /// subtree; everything proved in a round is kept in the fact table for the next.
    pub(crate) fn couple_is_loss(
        &self,
        land: &str,
        k: u32,
        depth: u32,
        budget: &mut u64,
    ) -> Res<bool> {
        if let Some(known) = self.inner.facts.couple_is_loss(land, k) {
            return Ok(known);
        }
        self.tick(budget)?;
        let children = self.children(land);
        let facts = &self.inner.facts;
        let mut cands: Vec<Cand<'_>> = Vec::with_capacity(children.len() + k as usize);
        for child in children.iter() {
            let mut heap = k;
            let mut unknown: SmallVec<[&str; 4]> = SmallVec::new();
            for l in lands_of(child) {
                match facts.nimber(l) {
                    Some(n) => heap ^= n,
                    None => unknown.push(l),
                }
            }
            match unknown.len() {
                0 if heap == 0 => {
                    facts.record(land, k, false);
                    return Ok(false);
                }
                0 => {}
                1 => match facts.couple_is_loss(unknown[0], heap) {
                    Some(true) => {
                        facts.record(land, k, false);
                        return Ok(false);
                    }
                    Some(false) => {}
                    None => {
                        let order = order_key(&unknown, heap);
                        cands.push(Cand::Child {
                            unknown,
                            heap,
                            order,
                        });
                    }
                },
                _ => {
                    let order = order_key(&unknown, heap);
                    cands.push(Cand::Child {
                        unknown,
                        heap,
                        order,
                    });
                }
            }
        }
        for j in 0..k {
            match facts.couple_is_loss(land, j) {
                Some(true) => {
                    facts.record(land, k, false);
                    return Ok(false);
                }
                Some(false) => {}
                None => cands.push(Cand::Heap(j)),
            }
        }
        cands.sort_by_key(|c| match c {
            Cand::Child { order, .. } => *order,
            Cand::Heap(j) => (u32::MAX, *j, 0),
        });
        let eval = |c: &Cand<'_>, b: &mut u64| -> Res<bool> {
            match c {
                Cand::Child { unknown, heap, .. } => {
                    self.unknown_sum_is_loss(unknown.clone(), *heap, depth + 1, b)
                }
                Cand::Heap(j) => self.couple_is_loss(land, *j, depth + 1, b),
            }
        };
        let mut open: Vec<&Cand<'_>> = cands.iter().collect();
        let mut round = FIRST_ROUND;
        let found = loop {
            if open.is_empty() {
                break false;
            }
            let parallel = depth < self.par_depth && open.len() > 1 && *budget == UNLIMITED;
            let last_round = round >= *budget;
            let mut still_open = Vec::new();
            if parallel {
                let results: Vec<(usize, Res<bool>)> = {
                    let found = std::sync::atomic::AtomicBool::new(false);
                    open.par_iter()
                        .enumerate()
                        .map(|(i, c)| {
                            if found.load(Ordering::Relaxed) {
                                return (i, Err(Stopped::Budget));
                            }
                            let mut b = round;
                            let r = eval(c, &mut b);
                            if r == Ok(true) {
                                found.store(true, Ordering::Relaxed);
                            }
                            (i, r)
                        })
                        .collect()
                };
                let mut hit = false;
                for (i, r) in results {
                    match r {
                        Ok(true) => hit = true,
                        Ok(false) => {}
                        Err(Stopped::Budget) => still_open.push(open[i]),
                        Err(Stopped::Limits) => return Err(Stopped::Limits),
                    }
                }
                if hit {
                    break true;
                }
            } else {
                let mut hit = false;
                for &c in &open {
                    let mut b = round.min(*budget);
                    let before = b;
                    let r = eval(c, &mut b);
                    if *budget != UNLIMITED {
                        *budget -= before - b;
                    }
                    match r {
                        Ok(true) => {
                            hit = true;
                            break;
                        }
                        Ok(false) => {}
                        Err(Stopped::Budget) => {
                            if *budget == 0 {
                                return Err(Stopped::Budget);
                            }
                            still_open.push(c);
                        }
                        Err(Stopped::Limits) => return Err(Stopped::Limits),
                    }
                }
                if hit {
                    break true;
                }
            }
            if last_round && !still_open.is_empty() {
                return Err(Stopped::Budget);
            }
            open = still_open;
            round = round.saturating_mul(GROWTH);
        };
        // A losing move makes the couple a win; none makes it a loss.
        facts.record(land, k, !found);
        Ok(!found)
    }
}

/// The order in which moves are tried: children whose unknown part is small first (cheap to
/// settle), fewer unknown lands first.
fn order_key(unknown: &[&str], heap: u32) -> (u32, u32, u32) {
    let lives: u32 = unknown.iter().map(|l| land::lives(l)).sum();
    (lives + 4 * heap, u32::MAX - unknown.len() as u32, 0)
}
