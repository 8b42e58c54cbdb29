//! The code of a piece, by walking it.
//!
//! A piece is entered through one boundary (its parent edge, or each least boundary at the
//! root) and walked breadth-first: each boundary's word names the labels it meets in order of
//! appearance, and the other boundaries a newly named label is met on are queued, then read from
//! their least rotation under the names given so far, each followed by its region's code. Where
//! several readings tie, each is walked to the end and the least code kept, under a bound (the
//! best code so far) and the work budget.

use smallvec::SmallVec;

use super::readings::BagPlans;
use super::{BAG_ALL, BND, Budget, CLASS, Ctx, END, GRP, NEW, NONE, REF, TreeScratch};
use crate::canon::shape::LABEL_BASE;

/// The state of one walk through a piece.
#[derive(Clone, Default, Debug)]
pub(super) struct Trav {
    /// Per local label: its name in this piece, or `NONE`.
    names: Vec<u32>,
    next_name: u32,
    /// Per local boundary: reached yet.
    disc: Vec<bool>,
    /// Boundaries to read, with a tag: boundaries reached through one spot share a tag.
    queue: Vec<(u32, u32)>,
    qi: usize,
    next_tag: u32,
    code: Vec<u32>,
}

impl Trav {
    /// Makes `self` a copy of `o`, reusing its tables (no allocation once they are large enough).
    fn copy_from(&mut self, o: &Trav) {
        self.names.clone_from(&o.names);
        self.next_name = o.next_name;
        self.disc.clone_from(&o.disc);
        self.queue.clone_from(&o.queue);
        self.qi = o.qi;
        self.next_tag = o.next_tag;
        self.code.clone_from(&o.code);
    }
}

impl TreeScratch {
    /// Appends the code of piece `g` entered through boundary `pb` (or `NONE` at the root).
    pub(super) fn group_code(&mut self, ctx: Ctx<'_>, g: usize, pb: u32, budget: &mut Budget) {
        if pb != NONE
            && !self.reference
            && self.gstart[g + 1] - self.gstart[g] == 1
            && self.toks(ctx, pb as usize).iter().all(|&t| t < LABEL_BASE)
        {
            // A piece of one boundary without labels: its least blind word is its code (what the
            // walk from each least reading would write, with the work it would count).
            let rots = self.blind_min_rotations(ctx, pb as usize);
            let starts = if rots[0] == BAG_ALL { 1 } else { rots.len() };
            let len = self.best_blind.len() + 2;
            self.arena.push(GRP);
            for &c in &self.best_blind {
                self.arena.push(CLASS + u32::from(c));
            }
            self.arena.push(END);
            for i in 0..starts {
                if i > 0 && !budget.can_branch() {
                    break;
                }
                budget.spend(len);
            }
            return;
        }
        let mut starts: SmallVec<[(u32, u32); 8]> = if pb != NONE {
            self.blind_min_rotations(ctx, pb as usize)
                .into_iter()
                .map(|rot| (pb, rot))
                .collect()
        } else {
            self.root_starts(ctx, g)
        };
        // A bag start stands for all its readings.
        // Their readings are kept for the walks (with no label named yet, a walk would work out
        // the same ones).
        let mut bag_plans: SmallVec<[(u32, BagPlans); 2]> = SmallVec::new();
        if starts.iter().any(|&(_, rd)| rd == BAG_ALL) {
            let mut expanded: SmallVec<[(u32, u32); 8]> = SmallVec::new();
            for &(b, rd) in &starts {
                if rd == BAG_ALL {
                    let plans = self.bag_plan(ctx, None, b as usize);
                    let n = plans.count;
                    bag_plans.push((b, plans));
                    expanded.extend((0..u32::from(n)).map(|r| (b, r)));
                } else {
                    expanded.push((b, rd));
                }
            }
            starts = expanded;
        }
        let root = pb == NONE;
        // When every start is known to write the same code, the first walk is the code; the
        // others are only counted as the work they would do (the same as the first's).
        let same = starts.len() > 1
            && !self.reference
            && !self.walk_equal_starts
            && self.starts_all_equal(ctx, g, pb);
        let mut first_cost = 0;
        let mut best = std::mem::take(&mut self.best);
        best.clear();
        let mut have = false;
        for (i, &(b0, rot)) in starts.iter().enumerate() {
            if i > 0 && !budget.can_branch() {
                break;
            }
            if same && i > 0 {
                budget.spend(first_cost);
                continue;
            }
            let left = budget.left;
            let mut t = self.trav.take().unwrap_or_default();
            let bound = if have { Some(best.as_slice()) } else { None };
            let plans = bag_plans.iter().find(|&&(b, _)| b == b0).map(|(_, p)| p);
            let done = self.walk(
                ctx,
                (b0 as usize, rot as usize, plans),
                root,
                &mut t,
                bound,
                budget,
            );
            budget.spend(t.code.len());
            first_cost = (left - budget.left) as usize;
            if done && (!have || t.code < best) {
                std::mem::swap(&mut best, &mut t.code);
                have = true;
            }
            self.reset_trav(&mut t);
            self.trav = Some(t);
        }
        self.arena.extend_from_slice(&best);
        self.best = best;
    }

    /// The starts of the root piece `g`: every least reading of each of its boundaries whose
    /// blind word and region code are least.
    fn root_starts(&mut self, ctx: Ctx<'_>, g: usize) -> SmallVec<[(u32, u32); 8]> {
        let mut starts: SmallVec<[(u32, u32); 8]> = SmallVec::new();
        let (gs, ge) = (self.gstart[g] as usize, self.gstart[g + 1] as usize);
        let mut best_key: (Vec<u8>, u32, u32) = (std::mem::take(&mut self.best_key), 0, 0);
        for k in gs..ge {
            let b = self.gbnd[k];
            let rots = self.blind_min_rotations(ctx, b as usize);
            let r = self.breg[b as usize] as usize;
            let (rs, re) = (self.code_start[r], self.code_end[r]);
            let better = if starts.is_empty() {
                std::cmp::Ordering::Less
            } else {
                self.best_blind.cmp(&best_key.0).then_with(|| {
                    self.arena[rs as usize..re as usize]
                        .cmp(&self.arena[best_key.1 as usize..best_key.2 as usize])
                })
            };
            match better {
                std::cmp::Ordering::Less => {
                    starts.clear();
                    best_key.0.clear();
                    best_key.0.extend_from_slice(&self.best_blind);
                    best_key.1 = rs;
                    best_key.2 = re;
                    starts.extend(rots.iter().map(|&rot| (b, rot)));
                }
                std::cmp::Ordering::Equal => starts.extend(rots.iter().map(|&rot| (b, rot))),
                std::cmp::Ordering::Greater => {}
            }
        }
        self.best_key = best_key.0;
        starts
    }

    /// Whether every start of piece `g` entered through `pb` (`NONE` at the root) writes the
    /// same code, for three shapes of piece common in real games, each of two boundaries whose
    /// every label is met once on each:
    ///
    /// * entered through an ordinary boundary `pb`, the other a bag: every start reads `pb` from
    ///   a rotation with the least blind word, and since each label is met once on it, its word
    ///   is that blind word (each label new); the bag is then read with every label named, in
    ///   the order of the names, which is the same for every start;
    /// * two bags (at the root; entered through one, it has one reading): the starts are one
    ///   reading of each bag (its labels are all met again in the other bag, so any two of equal
    ///   key can be exchanged), and they tie only when the two bags' blind words and regions'
    ///   codes are equal, so either bag read first writes the same units;
    /// * two ordinary boundaries made only of labels, the other boundary holding them in the same
    ///   cyclic order or in the reverse order (always so for two or three labels): the first
    ///   boundary is its blind word again, which names its labels `0, 1, ..` in cyclic order from
    ///   the start, and the other boundary, read from the label named 0, is then `0, 1, ..` or
    ///   `0, n - 1, ..` from every start; at the root, either boundary read first is the same.
    ///
    /// Walking the other starts would only find the first code again (and with no tie inside
    /// the walk, each would count the same work as the first).
    fn starts_all_equal(&self, ctx: Ctx<'_>, g: usize, pb: u32) -> bool {
        let (gs, ge) = (self.gstart[g] as usize, self.gstart[g + 1] as usize);
        if ge - gs != 2 {
            return false;
        }
        let (b1, b2) = (self.gbnd[gs] as usize, self.gbnd[gs + 1] as usize);
        let (first, other) = if pb == NONE || b1 == pb as usize {
            (b1, b2)
        } else {
            (b2, b1)
        };
        // Every label of `first` is met twice, once on `other`, and the other way round: both
        // hold the same labels, each once.
        let once_on_each = |b: usize, o: usize| {
            self.toks(ctx, b).iter().all(|&t| {
                t < LABEL_BASE || {
                    let (os, oe) = self.lrange[self.label(t)];
                    oe - os == 2 && (os..oe).any(|k| self.locc[k as usize].0 as usize == o)
                }
            })
        };
        let shape_fits = match (self.is_bag(ctx, first), self.is_bag(ctx, other)) {
            (false, true) => pb != NONE,
            (true, true) => true,
            (false, false) => {
                let (f, o) = (self.toks(ctx, first), self.toks(ctx, other));
                let n = f.len();
                o.len() == n
                    && f.iter().all(|&t| t >= LABEL_BASE)
                    && o.iter().all(|&t| t >= LABEL_BASE)
                    && o.iter().position(|&t| t == f[0]).is_some_and(|j| {
                        (0..n).all(|i| o[(j + i) % n] == f[i])
                            || (0..n).all(|i| o[(j + n - i) % n] == f[i])
                    })
            }
            (true, false) => false,
        };
        shape_fits && once_on_each(first, other) && once_on_each(other, first)
    }

    /// Clears the traversal state touched by a walk.
    fn reset_trav(&self, t: &mut Trav) {
        for &(b, _) in &t.queue {
            t.disc[b as usize] = false;
        }
        for n in t.names.iter_mut() {
            *n = NONE;
        }
        t.queue.clear();
        t.qi = 0;
        t.next_name = 0;
        t.next_tag = 0;
        t.code.clear();
    }

    /// Walks the piece from boundary `b0` read in reading `rot` (of `plans` if given: the readings
    /// of `b0`, a bag), leaving its code in `t.code`. With a `bound`, gives up (returns false) as
    /// soon as the code is greater than it.
    #[allow(
        clippy::too_many_arguments,
        reason = "the walk's context is spread over the scratch"
    )]
    fn walk(
        &mut self,
        ctx: Ctx<'_>,
        (b0, rot, plans): (usize, usize, Option<&BagPlans>),
        root: bool,
        t: &mut Trav,
        bound: Option<&[u32]>,
        budget: &mut Budget,
    ) -> bool {
        if t.names.len() != self.nl {
            t.names.clear();
            t.names.resize(self.nl, NONE);
        }
        if t.disc.len() != self.nb {
            t.disc.clear();
            t.disc.resize(self.nb, false);
        }
        t.code.clear();
        t.code.push(GRP);
        t.disc[b0] = true;
        t.queue.push((b0 as u32, NONE));
        t.qi = 1;
        match plans {
            Some(plans) => {
                for &tok in plans.order(rot.min(usize::from(plans.count) - 1)) {
                    self.emit_token(t, tok);
                }
            }
            None => self.emit_word(ctx, t, b0, rot),
        }
        if root {
            self.push_region_code(t, self.breg[b0] as usize);
        }
        let mut bound = bound;
        if !check_bound(&t.code, &mut bound) {
            return false;
        }
        if !self.run(ctx, t, &mut bound, budget) {
            return false;
        }
        t.code.push(END);
        check_bound(&t.code, &mut bound)
    }

    /// Continues a walk until every boundary of the piece is read; false if the code went past
    /// the bound.
    fn run(
        &mut self,
        ctx: Ctx<'_>,
        t: &mut Trav,
        bound: &mut Option<&[u32]>,
        budget: &mut Budget,
    ) -> bool {
        while t.qi < t.queue.len() {
            // The boundaries reached together with the next one.
            let tag = t.queue[t.qi].1;
            let mut end = t.qi + 1;
            while end < t.queue.len() && t.queue[end].1 == tag && tag != NONE {
                end += 1;
            }
            // A batch of one boundary with one possible reading needs no comparison.
            if end == t.qi + 1 && !self.reference {
                let b = t.queue[t.qi].0 as usize;
                if self.is_bag(ctx, b) {
                    let plans = self.bag_plan(ctx, Some(&t.names), b);
                    if plans.count == 1 {
                        self.take_bag(t, t.qi, &plans);
                        if !check_bound(&t.code, bound) {
                            return false;
                        }
                        continue;
                    }
                } else {
                    let toks = self.toks(ctx, b);
                    let mut first_min = u32::MAX;
                    let mut at_min = 0;
                    let mut rd_min = 0;
                    for k in 0..toks.len() {
                        let u = self.first_unit(t, Self::at(toks, ctx.mirror, k, 0));
                        if u < first_min {
                            first_min = u;
                            at_min = 1;
                            rd_min = k;
                        } else if u == first_min {
                            at_min += 1;
                        }
                    }
                    if at_min == 1 {
                        self.take(ctx, t, t.qi, rd_min);
                        if !check_bound(&t.code, bound) {
                            return false;
                        }
                        continue;
                    }
                }
            }
            // The options: a boundary of that batch and a reading, with the least word.
            let mut options: SmallVec<[(u32, u32); 4]> = SmallVec::new();
            // The readings of the batch's bags, kept for taking them (the names do not change
            // before an option is taken).
            let mut bag_cache: SmallVec<[(u32, BagPlans); 2]> = SmallVec::new();
            self.best_word.clear();
            for q in t.qi..end {
                let b = t.queue[q].0 as usize;
                if self.is_bag(ctx, b) {
                    let plans = self.bag_plan(ctx, Some(&t.names), b);
                    bag_cache.push((q as u32, plans));
                    for rd in 0..usize::from(plans.count) {
                        let ord =
                            self.build_word(t, plans.order(rd), false, 0, !options.is_empty());
                        self.consider(ord, q, rd, &mut options);
                    }
                    continue;
                }
                let toks = self.toks(ctx, b);
                // Only rotations starting with the least first unit can be least.
                let mut first_min = u32::MAX;
                for k in 0..toks.len() {
                    first_min = first_min.min(self.first_unit(t, Self::at(toks, ctx.mirror, k, 0)));
                }
                for rd in 0..toks.len() {
                    if self.first_unit(t, Self::at(toks, ctx.mirror, rd, 0)) != first_min {
                        continue;
                    }
                    let ord = self.build_word(t, toks, ctx.mirror, rd, !options.is_empty());
                    self.consider(ord, q, rd, &mut options);
                }
            }
            let cached = |q: u32| bag_cache.iter().find(|&&(c, _)| c == q).map(|(_, p)| *p);
            if options.len() == 1 || !budget.can_branch() {
                let (q, rot) = options[0];
                self.take_planned(ctx, t, q as usize, rot as usize, cached(q).as_ref());
                if !check_bound(&t.code, bound) {
                    return false;
                }
                continue;
            }
            // Branch: finish the walk for every tied option and keep the least code. The
            // copies of the walk come from a pool (`copy_from` reuses their tables), so
            // branching allocates nothing once the pool is warm.
            let mut best = self.pool.pop().unwrap_or_default();
            let mut have = false;
            let mut u = self.pool.pop().unwrap_or_default();
            for &(q, rot) in &options {
                u.copy_from(t);
                self.take_planned(ctx, &mut u, q as usize, rot as usize, cached(q).as_ref());
                let mut b = *bound;
                let ok = check_bound(&u.code, &mut b) && self.run(ctx, &mut u, &mut b, budget);
                budget.spend(u.code.len());
                if ok && (!have || u.code < best.code) {
                    std::mem::swap(&mut best, &mut u);
                    have = true;
                }
            }
            self.pool.push(u);
            if have {
                std::mem::swap(t, &mut best);
            }
            self.pool.push(best);
            return have;
        }
        true
    }

    /// Records the outcome of comparing a candidate word with the best so far.
    fn consider(
        &mut self,
        ord: std::cmp::Ordering,
        q: usize,
        rd: usize,
        options: &mut SmallVec<[(u32, u32); 4]>,
    ) {
        match ord {
            std::cmp::Ordering::Less => {
                options.clear();
                options.push((q as u32, rd as u32));
                std::mem::swap(&mut self.word, &mut self.best_word);
            }
            std::cmp::Ordering::Equal => options.push((q as u32, rd as u32)),
            std::cmp::Ordering::Greater => {}
        }
    }

    /// The unit a token is written as at the start of a word.
    #[inline]
    fn first_unit(&self, t: &Trav, tok: u32) -> u32 {
        if tok < LABEL_BASE {
            CLASS + tok
        } else {
            let l = self.label(tok);
            if t.names[l] != NONE {
                REF + t.names[l]
            } else {
                NEW + u32::from(self.lclass[l])
            }
        }
    }

    /// Builds the word of `toks` read from `rd` into `self.word`, comparing it with
    /// `self.best_word` as it goes when `compare` (stopping early once it is greater).
    fn build_word(
        &mut self,
        t: &Trav,
        toks: &[u32],
        mirror: bool,
        rd: usize,
        compare: bool,
    ) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        self.word.clear();
        self.tmp_names.clear();
        let mut next = t.next_name;
        let mut ord = if compare {
            Ordering::Equal
        } else {
            Ordering::Less
        };
        for k in 0..toks.len() {
            let tok = Self::at(toks, mirror, rd, k);
            let unit = if tok >= LABEL_BASE {
                let l = self.label(tok) as u32;
                let named = t.names[l as usize];
                if named != NONE {
                    REF + named
                } else if let Some(&(_, n)) = self.tmp_names.iter().find(|&&(ll, _)| ll == l) {
                    REF + n
                } else {
                    self.tmp_names.push((l, next));
                    next += 1;
                    NEW + u32::from(self.lclass[l as usize])
                }
            } else {
                CLASS + tok
            };
            if ord == Ordering::Equal {
                match self.best_word.get(k) {
                    Some(&b) if unit > b => return Ordering::Greater,
                    Some(&b) if unit < b => ord = Ordering::Less,
                    Some(_) => {}
                    None => return Ordering::Greater,
                }
            }
            self.word.push(unit);
        }
        if ord == Ordering::Equal && self.word.len() < self.best_word.len() {
            ord = Ordering::Less;
        }
        ord
    }

    /// Reads queue entry `q` next, in reading `rd`.
    fn take(&mut self, ctx: Ctx<'_>, t: &mut Trav, q: usize, rd: usize) {
        t.queue.swap(t.qi, q);
        t.queue[t.qi].1 = NONE;
        let b = t.queue[t.qi].0 as usize;
        t.qi += 1;
        t.code.push(BND);
        self.emit_word(ctx, t, b, rd);
        self.push_region_code(t, self.breg[b] as usize);
    }

    /// Reads queue entry `q` next in reading `rd`: of `plans` when given (the entry is a bag
    /// whose readings are known), as [`TreeScratch::take`] otherwise.
    fn take_planned(
        &mut self,
        ctx: Ctx<'_>,
        t: &mut Trav,
        q: usize,
        rd: usize,
        plans: Option<&BagPlans>,
    ) {
        let Some(plans) = plans.filter(|_| !self.reference) else {
            self.take(ctx, t, q, rd);
            return;
        };
        t.queue.swap(t.qi, q);
        t.queue[t.qi].1 = NONE;
        let b = t.queue[t.qi].0 as usize;
        t.qi += 1;
        t.code.push(BND);
        for &tok in plans.order(rd.min(usize::from(plans.count) - 1)) {
            self.emit_token(t, tok);
        }
        self.push_region_code(t, self.breg[b] as usize);
    }

    /// Reads queue entry `q`, a bag with the one reading `plans`, next.
    fn take_bag(&mut self, t: &mut Trav, q: usize, plans: &BagPlans) {
        t.queue.swap(t.qi, q);
        t.queue[t.qi].1 = NONE;
        let b = t.queue[t.qi].0 as usize;
        t.qi += 1;
        t.code.push(BND);
        for &tok in plans.order(0) {
            self.emit_token(t, tok);
        }
        self.push_region_code(t, self.breg[b] as usize);
    }

    #[inline]
    fn push_region_code(&self, t: &mut Trav, r: usize) {
        let (s, e) = (self.code_start[r] as usize, self.code_end[r] as usize);
        t.code.extend_from_slice(&self.arena[s..e]);
    }

    /// Writes boundary `b` in reading `rd` into the walk: names new labels and queues the
    /// boundaries they reach.
    fn emit_word(&mut self, ctx: Ctx<'_>, t: &mut Trav, b: usize, rd: usize) {
        if self.is_bag(ctx, b) {
            let plans = self.bag_plan(ctx, Some(&t.names), b);
            for &tok in plans.order(rd.min(usize::from(plans.count) - 1)) {
                self.emit_token(t, tok);
            }
            return;
        }
        let toks = self.toks(ctx, b);
        for k in 0..toks.len() {
            self.emit_token(t, Self::at(toks, ctx.mirror, rd, k));
        }
    }

    #[inline(always)]
    fn emit_token(&self, t: &mut Trav, tok: u32) {
        if tok < LABEL_BASE {
            t.code.push(CLASS + tok);
            return;
        }
        let l = self.label(tok);
        if t.names[l] != NONE {
            t.code.push(REF + t.names[l]);
            return;
        }
        t.names[l] = t.next_name;
        t.next_name += 1;
        t.code.push(NEW + u32::from(self.lclass[l]));
        // Queue the other boundaries this spot is met on, as one batch.
        let tag = t.next_tag;
        t.next_tag += 1;
        let (os, oe) = self.lrange[l];
        for k2 in os..oe {
            let ob = self.locc[k2 as usize].0 as usize;
            if !t.disc[ob] {
                t.disc[ob] = true;
                t.queue.push((ob as u32, tag));
            }
        }
    }
}

/// Compares a partial code with a bound: false if the code is already greater; once it is less
/// the bound is dropped (no later unit can change that).
fn check_bound(code: &[u32], bound: &mut Option<&[u32]>) -> bool {
    let Some(b) = *bound else { return true };
    let n = code.len().min(b.len());
    match code[..n].cmp(&b[..n]) {
        std::cmp::Ordering::Less => {
            *bound = None;
            true
        }
        std::cmp::Ordering::Greater => false,
        // Equal so far: a code longer than the bound is greater.
        std::cmp::Ordering::Equal => code.len() <= b.len(),
    }
}
