//! The solver's fast path: the distinct children of a position as canonical lands.

use crate::canon::symmetry::Symmetry;
use crate::canon::{
    CanonicalForm, Canonicalizer, ChildBufs, DEFAULT_BUDGET, LandChildren, ParentLands, Reductions,
    with_canonicalizer,
};
use crate::moves::Move;
use crate::position::Position;
use smallvec::SmallVec;

/// One child of a position, as its canonical form split into lands (borrowed from the
/// enumeration; copy what you keep).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildLands<'a> {
    text: &'a str,
    exact: bool,
}

impl<'a> ChildLands<'a> {
    /// The child's whole canonical form (lands joined by `+`, or `!` when no move is left).
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The canonical forms of the child's independent lands, sorted (none when no move is left).
    pub fn lands(&self) -> impl Iterator<Item = &'a str> + 'a {
        let text = if self.text == "!" { "" } else { self.text };
        text.split('+').filter(|s| !s.is_empty())
    }

    /// Whether the form was completed within the work budget.
    pub fn is_exact(&self) -> bool {
        self.exact
    }
}

impl Position {
    /// Calls `f` once for every distinct child of the position (distinct canonical forms, with
    /// GLOP's reductions), in increasing order of form. Moves are generated with interchangeable
    /// boundaries counted rather than chosen, played into reused storage and canonicalised with a
    /// reused canonicalizer, so no position is allocated per child.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// // From two seeds: a curve joining them, or a loop at one of them (enclosing the other
    /// // or not is the same game on the sphere).
    /// let mut children = Vec::new();
    /// Position::new(2).for_each_child_lands(|c| children.push(c.as_str().to_string()));
    /// assert_eq!(children, ["0.AB|AB", "1a1a"]);
    /// ```
    pub fn for_each_child_lands(&self, mut f: impl FnMut(&ChildLands<'_>)) {
        // Storage reused from call to call (taken out of this thread's canonicalizer, since `f`
        // may canonicalise too, and put back at the end).
        let mut bufs = with_canonicalizer(|c| std::mem::take(&mut c.child_bufs));
        bufs.arena.clear();
        bufs.spans.clear();
        // A move is played in one region, and changes only the land holding it (the spots it
        // uses, and every region they are met in with a life, belong to that land): the children
        // are a child of one land beside the other lands as they are. So each land's form is
        // computed once and only the land played in is canonicalised per move.
        // Stumps left out: they take part in no move and every form drops them.
        let mut split = std::mem::take(&mut bufs.split);
        let lands = self.lands_into(true, &mut split);
        with_canonicalizer(|c| {
            // Land forms are remembered from call to call (bounded): a land met again, here or in
            // another position, is not canonicalised again.
            let was_on = c.keep_remembering(true);
            let ChildBufs {
                arena,
                spans,
                child,
                text,
                parent,
                pieces,
                land_children,
                moves,
                symmetry,
                ..
            } = &mut bufs;
            let child = child.get_or_insert_with(|| Position::empty_with_next(self.next));
            let parent_exact = parent_forms(c, lands, parent, land_children, text);
            for (i, land) in lands.iter().enumerate() {
                // The children of a land met before (the same land up to the names of its
                // spots) are read back; otherwise each move is played and canonicalised, and
                // the children's forms are remembered.
                let (es, ee) = match known_children(i, parent, land_children) {
                    Some(range) => range,
                    None => {
                        let (fs, fe, form_exact) = parent.form_of[i];
                        let form = (&parent.forms[fs as usize..fe as usize], form_exact);
                        enumerate_land(c, land, form, land_children, symmetry, moves, child, text)
                    }
                };
                for &(s, e, exact) in &land_children.entries[es as usize..ee as usize] {
                    let text = &land_children.text[s as usize..e as usize];
                    let exact = exact && parent_exact;
                    let start = arena.len() as u32;
                    merge_lands(text, i as u32, parent, pieces, arena);
                    spans.push((start, arena.len() as u32, exact));
                }
            }
            c.keep_remembering(was_on);
        });
        let ChildBufs { arena, spans, .. } = &mut bufs;
        // With one land the children are its remembered ones, already distinct and sorted.
        if lands.len() > 1 {
            spans.sort_unstable_by(|a, b| {
                arena[a.0 as usize..a.1 as usize].cmp(&arena[b.0 as usize..b.1 as usize])
            });
            spans.dedup_by(|a, b| {
                arena[a.0 as usize..a.1 as usize] == arena[b.0 as usize..b.1 as usize]
            });
        }
        debug_assert!(
            spans
                .windows(2)
                .all(|w| arena[w[0].0 as usize..w[0].1 as usize]
                    < arena[w[1].0 as usize..w[1].1 as usize])
        );
        for &(s, e, exact) in spans.iter() {
            f(&ChildLands {
                text: &arena[s as usize..e as usize],
                exact,
            });
        }
        bufs.split = split;
        with_canonicalizer(|c| c.child_bufs = bufs);
    }

    /// [`Position::for_each_child_lands`] the plain way: every child played in the whole
    /// position and canonicalised whole (the reference the land-by-land enumeration is tested
    /// against).
    #[doc(hidden)]
    pub fn for_each_child_lands_whole(&self, mut f: impl FnMut(&ChildLands<'_>)) {
        let mut child = Position::empty_with_next(self.next);
        let mut text = String::new();
        let mut forms: Vec<(String, bool)> = Vec::new();
        with_canonicalizer(|c| {
            for mv in self.distinct_moves() {
                if self.play_into(&mv, &mut child).is_err() {
                    continue;
                }
                let exact = c.canonical_into(&child, Reductions::Glop, DEFAULT_BUDGET, &mut text);
                forms.push((text.clone(), exact));
            }
        });
        forms.sort_unstable();
        forms.dedup_by(|a, b| a.0 == b.0);
        for (text, exact) in &forms {
            f(&ChildLands {
                text,
                exact: *exact,
            });
        }
    }

    /// The distinct children of the position as canonical forms, sorted.
    pub fn distinct_children(&self) -> Vec<CanonicalForm> {
        let mut out = Vec::new();
        self.for_each_child_lands(|c| {
            out.push(CanonicalForm::from_parts(
                c.as_str().to_string(),
                c.is_exact(),
            ));
        });
        out
    }
}

impl Position {
    /// The moves of [`Position::distinct_moves`] less those that a permutation of interchangeable
    /// boundaries maps onto a move kept: every distinct child is still reached, by fewer moves.
    ///
    /// Boundaries of a region that share no live spot with anything else and are equal up to
    /// rotation and renaming of their spots (the groups [`Position::distinct_moves`] already
    /// counts rather than chooses, such as the region's isolated spots `0`) can be permuted
    /// without changing the game, and a permutation carries each move to a move with an
    /// equivalent child. So of the families joining corners on boundaries of such a group, only
    /// those on its first boundary (a curve along one boundary, or from it to a boundary of
    /// another group) or on its first two (a curve joining two of them) are kept, the boundaries
    /// taken in the region's order. In `0*12`: 13 moves instead of 210.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// let p = Position::new(12);
    /// assert_eq!(p.distinct_moves().count(), 210);
    /// assert_eq!(p.representative_moves().len(), 13);
    /// ```
    pub fn representative_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.representative_moves_into(&mut out);
        out
    }

    /// One family of moves (a pair of corners, with its distinct enclosures) per orbit of
    /// families under the position's automorphisms: renamings of its spots, with or without
    /// every boundary reversed, that give the same position (see `canon::symmetry`). Each
    /// automorphism carries a move to a move with the same child up to names and mirror image,
    /// so every distinct child is still reached; the interchangeable boundaries of
    /// [`Position::representative_moves`] are one kind of automorphism, so these are never more
    /// moves than those, and usually fewer (exchanged branches of the tree of regions, rotated
    /// boundaries, mirror images). Meant for lands (as [`Position::for_each_child_lands`] plays
    /// them): in a position of several lands, automorphisms exchanging whole lands are not
    /// looked for, and in a position with stumps (spots met three times) these are the
    /// representative moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// // A and B exchanged, and the two regions: one family, the join of A and B.
    /// let p = Position::parse_glop("AB|AB").unwrap();
    /// assert_eq!(p.representative_moves().len(), 2);
    /// assert_eq!(p.symmetric_moves().len(), 1);
    /// ```
    pub fn symmetric_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        crate::canon::with_canonicalizer(|c| {
            c.child_bufs.symmetry.orbit_moves_into(self, &mut out);
        });
        out
    }

    /// [`Position::symmetric_moves`], asking `stop` as it goes: before the automorphisms are
    /// looked for, between generators, before each family and before each move listed. The
    /// moves of a region with many boundaries that are not interchangeable are exponentially
    /// many, so a search with a stop flag or a deadline lists them through this; when `stop`
    /// answers `true` the listing is given up at once.
    ///
    /// # Errors
    ///
    /// [`ListingStopped`] when `stop` answered `true` before the list was complete.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::{ListingStopped, Position};
    /// let p = Position::parse_glop("AB|AB").unwrap();
    /// assert_eq!(p.symmetric_moves_within(&|| false), Ok(p.symmetric_moves()));
    /// assert_eq!(p.symmetric_moves_within(&|| true), Err(ListingStopped));
    /// ```
    pub fn symmetric_moves_within(
        &self,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<Move>, ListingStopped> {
        let mut out = Vec::new();
        // The scratch space is taken out of the thread's canonicalizer while `stop` may run
        // (it may canonicalise too).
        let mut symmetry =
            crate::canon::with_canonicalizer(|c| std::mem::take(&mut c.child_bufs.symmetry));
        let listed = symmetry.orbit_moves_within(self, &mut out, stop);
        crate::canon::with_canonicalizer(|c| c.child_bufs.symmetry = symmetry);
        listed.map(|()| out)
    }

    /// [`Position::representative_moves`] into reused storage (`out` is cleared first).
    pub(crate) fn representative_moves_into(&self, out: &mut Vec<Move>) {
        let listed = self.representative_moves_within(out, &|| false);
        debug_assert!(listed.is_ok(), "nothing stops the listing");
    }

    /// [`Position::representative_moves_into`], asking `stop` before each family and each move
    /// listed.
    pub(crate) fn representative_moves_within(
        &self,
        out: &mut Vec<Move>,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), ListingStopped> {
        out.clear();
        let occ = self.occurrences();
        // The region whose classes are known, and per boundary (by offset in the region) its
        // class and its rank among the boundaries of its class.
        let mut known = usize::MAX;
        let mut classes: SmallVec<[u32; 16]> = SmallVec::new();
        let mut rank: SmallVec<[u32; 16]> = SmallVec::new();
        for family in self.families() {
            let r = family.region().index();
            let (bs, _) = self.region_bounds(r);
            if r != known {
                known = r;
                classes = self.interchange_classes(r, &occ);
                rank.clear();
                for (i, &c) in classes.iter().enumerate() {
                    rank.push(classes[..i].iter().filter(|&&d| d == c).count() as u32);
                }
            }
            let (from, to) = family.corners();
            let a = from.boundary.index() - bs;
            let b = to.boundary.index() - bs;
            let keep = if a == b {
                rank[a] == 0
            } else if classes[a] == classes[b] {
                rank[a].min(rank[b]) == 0 && rank[a].max(rank[b]) == 1
            } else {
                rank[a] == 0 && rank[b] == 0
            };
            if keep {
                for mv in family.distinct_moves() {
                    if stop() {
                        return Err(ListingStopped);
                    }
                    out.push(mv);
                }
            }
        }
        Ok(())
    }
}

/// A listing of moves given up because its `stop` answered `true`
/// ([`Position::symmetric_moves_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stopped before every move was listed")]
pub struct ListingStopped;

/// The parent's lands' forms (each one land, or none if all its regions go) into `parent`:
/// each land's key and entry in the memory of land children, its form (remembered there, or
/// canonicalised) and its pieces, the pieces then sorted. Returns whether every form is exact.
fn parent_forms(
    c: &mut Canonicalizer,
    lands: &[Position],
    parent: &mut ParentLands,
    land_children: &mut LandChildren,
    text: &mut String,
) -> bool {
    parent.text.clear();
    parent.pieces.clear();
    parent.forms.clear();
    parent.form_of.clear();
    parent.keys.clear();
    parent.key_of.clear();
    parent.entry_of.clear();
    let mut parent_exact = true;
    for (i, land) in lands.iter().enumerate() {
        // A land met before: its form is remembered with its children. (Its key and
        // entry are kept for the second pass below.)
        land_children.build_key(land);
        let ks = parent.keys.len() as u32;
        parent.keys.extend_from_slice(&land_children.key);
        parent.key_of.push((ks, parent.keys.len() as u32));
        let found = land_children.map.get(land_children.key.as_slice()).copied();
        parent
            .entry_of
            .push(found.map(|entry| (entry, land_children.clears)));
        let exact = match found {
            Some(entry) => {
                let (s, e, exact) = entry.form;
                text.clear();
                text.push_str(&land_children.text[s as usize..e as usize]);
                exact
            }
            None => c.canonical_into(land, Reductions::Glop, DEFAULT_BUDGET, text),
        };
        parent_exact &= exact;
        let fs = parent.forms.len() as u32;
        parent.forms.push_str(text);
        parent.form_of.push((fs, parent.forms.len() as u32, exact));
        push_pieces(text, &mut parent.text, |s, e| {
            parent.pieces.push((i as u32, s, e));
        });
    }
    let ptext = &parent.text;
    parent.pieces.sort_unstable_by(|a, b| {
        ptext[a.1 as usize..a.2 as usize].cmp(&ptext[b.1 as usize..b.2 as usize])
    });
    parent_exact
}

/// The children of land `i` remembered in the memory of land children (a range of its
/// entries), if they are there; the land's key is left in `land_children.key`.
fn known_children(
    i: usize,
    parent: &ParentLands,
    land_children: &mut LandChildren,
) -> Option<(u32, u32)> {
    let (ks, ke) = parent.key_of[i];
    land_children.key.clear();
    land_children
        .key
        .extend_from_slice(&parent.keys[ks as usize..ke as usize]);
    match parent.entry_of[i] {
        Some((entry, clears)) if clears == land_children.clears => Some(entry),
        // Looked up before (and not found), or found before the memory was
        // cleared: look again (an equal land earlier in this position may have
        // been entered since).
        _ => land_children.map.get(land_children.key.as_slice()).copied(),
    }
    .map(|entry| entry.children)
}

/// The distinct children of `land` (whose own form is `own_form`, with whether it is exact), each
/// move played and canonicalised, remembered in the memory of land children under the key in
/// `land_children.key`: returns their range of its entries.
#[allow(
    clippy::too_many_arguments,
    reason = "the enumeration's reused storage, taken apart"
)]
fn enumerate_land(
    c: &mut Canonicalizer,
    land: &Position,
    own_form: (&str, bool),
    land_children: &mut LandChildren,
    symmetry: &mut Symmetry,
    moves: &mut Vec<Move>,
    child: &mut Position,
    text: &mut String,
) -> (u32, u32) {
    land_children.bound();
    let es = land_children.entries.len() as u32;
    let text_start = land_children.text.len();
    // One family of moves per orbit under the land's automorphisms:
    // every distinct child is still reached (see `canon::symmetry`).
    symmetry.orbit_moves_into(land, moves);
    for mv in moves.iter() {
        land.play_generated_into(mv, child);
        let exact = c.canonical_into(child, Reductions::Glop, DEFAULT_BUDGET, text);
        let s = land_children.text.len() as u32;
        land_children.text.push_str(text);
        let e = land_children.text.len() as u32;
        land_children.entries.push((s, e, exact));
    }
    // Distinct children only (moves often give the same child): sorted by
    // form, equal ones kept once (exact only if all were).
    let LandChildren { entries, text, .. } = &mut *land_children;
    let ents = &mut entries[es as usize..];
    let form = |e: &(u32, u32, bool)| &text[e.0 as usize..e.1 as usize];
    ents.sort_unstable_by(|a, b| form(a).cmp(form(b)));
    let mut kept = 0;
    for k in 0..ents.len() {
        if kept > 0 && form(&ents[kept - 1]) == form(&ents[k]) {
            ents[kept - 1].2 &= ents[k].2;
        } else {
            ents[kept] = ents[k];
            kept += 1;
        }
    }
    entries.truncate(es as usize + kept);
    land_children.insert(es, text_start, own_form.0, own_form.1)
}

/// Appends to `arena` a child's lands (its land `i` played, the lands of form `text`), merged
/// with the parent's other lands (both sorted), joined by `+` (`!` when there are none).
/// `pieces` is scratch.
fn merge_lands(
    text: &str,
    i: u32,
    parent: &ParentLands,
    pieces: &mut Vec<(u32, u32)>,
    arena: &mut String,
) {
    pieces.clear();
    if text != "!" {
        let mut s = 0u32;
        for (k, b) in text.bytes().enumerate() {
            if b == b'+' {
                pieces.push((s, k as u32));
                s = k as u32 + 1;
            }
        }
        pieces.push((s, text.len() as u32));
    }
    let piece = |k: usize| &text[pieces[k].0 as usize..pieces[k].1 as usize];
    let mut k = 0;
    let mut first = true;
    let mut push = |arena: &mut String, s: &str| {
        if !first {
            arena.push('+');
        }
        first = false;
        arena.push_str(s);
    };
    let ptext = &parent.text;
    for &(j, s, e) in parent.pieces.iter() {
        if j == i {
            continue;
        }
        let other = &ptext[s as usize..e as usize];
        while k < pieces.len() && piece(k) < other {
            push(arena, piece(k));
            k += 1;
        }
        push(arena, other);
    }
    for k in k..pieces.len() {
        push(arena, piece(k));
    }
    if first {
        arena.push('!');
    }
}

/// Appends the lands of a form (`+`-separated, none for `!`) to `out`, reporting each one's range.
fn push_pieces(form: &str, out: &mut String, mut each: impl FnMut(u32, u32)) {
    if form == "!" {
        return;
    }
    for piece in form.split('+') {
        let s = out.len() as u32;
        out.push_str(piece);
        each(s, out.len() as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    type Children = Vec<(String, bool)>;

    fn both(p: &Position) -> (Children, Children) {
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        p.for_each_child_lands(|c| fast.push((c.as_str().to_string(), c.is_exact())));
        p.for_each_child_lands_whole(|c| slow.push((c.as_str().to_string(), c.is_exact())));
        (fast, slow)
    }

    /// Every position reachable from 1 to 3 seeds, and from 4 seeds down to depth 5: the children
    /// land by land are the children played and canonicalised whole.
    #[test]
    fn children_by_land_equal_whole_children_exhaustively() {
        for n in 1..=4u32 {
            let max_depth = if n == 4 { 5 } else { usize::MAX };
            for p in crate::reachable_positions(n, max_depth) {
                let (fast, slow) = both(&p);
                assert_eq!(fast, slow, "{}", p.to_glop());
            }
        }
    }

    /// The children of every position reachable from 1 to 3 seeds (and of random 12-spot games)
    /// read back from the memory of land children are those computed with the memory empty.
    #[test]
    fn remembered_land_children_equal_fresh_ones() {
        let collect = |p: &Position| {
            let mut v = Vec::new();
            p.for_each_child_lands(|c| v.push((c.as_str().to_string(), c.is_exact())));
            v
        };
        let forget = || {
            with_canonicalizer(|c| {
                c.child_bufs.land_children = crate::canon::LandChildren::default();
            })
        };
        // One position per distinct (structure) key, every child as played.
        let mut positions = Vec::new();
        for n in 1..=3u32 {
            let mut seen = std::collections::HashSet::new();
            let mut layer = vec![Position::new(n)];
            while !layer.is_empty() {
                let mut next = Vec::new();
                for p in &layer {
                    for m in p.moves() {
                        let q = p.play(&m).unwrap();
                        if seen.insert(crate::canon::structure_key(&q)) {
                            next.push(q);
                        }
                    }
                }
                positions.append(&mut layer);
                layer = next;
            }
        }
        let mut hits = 0;
        for p in &positions {
            let warm = collect(p);
            forget();
            let fresh = collect(p);
            assert_eq!(warm, fresh, "{}", p.to_glop());
            hits += usize::from(!fresh.is_empty());
        }
        assert!(hits > 1000, "{hits}");
    }

    /// The children's forms reached by `moves` from `p`, sorted and distinct.
    fn forms_of(p: &Position, moves: impl IntoIterator<Item = Move>) -> Vec<String> {
        let mut v: Vec<String> = moves
            .into_iter()
            .map(|m| p.play(&m).unwrap().canonical().into_string())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Every position reachable from 1 to 4 seeds (from 4 down to depth 4) and random games
    /// from 5 to 14 seeds: the representative moves reach the same distinct children as all the
    /// distinct moves, and are some of them.
    #[test]
    fn symmetric_moves_within_asks_stop_and_gives_up_at_once() {
        use std::cell::Cell;
        for text in ["0*12", "AB|AB", "0.AB|AB", "0.0.0.1a1a.AB|AB"] {
            let p = if let Some(n) = text.strip_prefix("0*") {
                Position::new(n.parse().unwrap())
            } else {
                Position::parse_glop(text).unwrap()
            };
            // Never stopped: the same moves as the plain listing, `stop` asked for each.
            let asked = Cell::new(0usize);
            let all = p
                .symmetric_moves_within(&|| {
                    asked.set(asked.get() + 1);
                    false
                })
                .unwrap();
            assert_eq!(all, p.symmetric_moves(), "{text}");
            assert!(asked.get() > all.len(), "{text}");
            // Stopped at the k-th question: given up there, `stop` not asked again.
            for k in 1..=asked.get() {
                let asked = Cell::new(0usize);
                let got = p.symmetric_moves_within(&|| {
                    asked.set(asked.get() + 1);
                    asked.get() >= k
                });
                assert_eq!(got, Err(ListingStopped), "{text} stopped at {k}");
                assert_eq!(asked.get(), k, "{text}");
            }
        }
    }

    #[test]
    fn a_huge_listing_is_given_up_promptly() {
        // On 0*1000 the whole listing takes seconds; a flag raised at once ends it within the
        // first family.
        let p = Position::new(1000);
        let start = std::time::Instant::now();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let got = p.symmetric_moves_within(&|| {
            if start.elapsed() > std::time::Duration::from_millis(20) {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            stop.load(std::sync::atomic::Ordering::Relaxed)
        });
        assert_eq!(got, Err(ListingStopped));
        assert!(
            start.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn representative_moves_reach_every_child() {
        let mut positions = Vec::new();
        for n in 1..=4u32 {
            let max_depth = if n == 4 { 4 } else { usize::MAX };
            positions.extend(crate::reachable_positions(n, max_depth));
        }
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for game in 0..120u32 {
            let mut p = Position::new(5 + game % 10);
            loop {
                let moves: Vec<_> = p.distinct_moves().collect();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                p = p.play(&moves[rng as usize % moves.len()]).unwrap();
                positions.push(p.clone());
            }
        }
        let (mut all, mut kept) = (0, 0);
        for p in &positions {
            let reps = p.representative_moves();
            let distinct: Vec<Move> = p.distinct_moves().collect();
            assert!(reps.iter().all(|m| distinct.contains(m)), "{}", p.to_glop());
            all += distinct.len();
            kept += reps.len();
            assert_eq!(forms_of(p, reps), forms_of(p, distinct), "{}", p.to_glop());
        }
        // The point of it: far fewer moves.
        assert!(kept * 10 < all * 7, "{kept} of {all}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random games from 1 to 14 seeds: the same children both ways.
        #[test]
        fn children_by_land_equal_whole_children(
            n in 1u32..=14,
            choices in prop::collection::vec(any::<u16>(), 0..40),
        ) {
            for p in crate::random_game(n, &choices) {
                let (fast, slow) = both(&p);
                prop_assert_eq!(fast, slow, "{}", p.to_glop());
            }
        }
    }
}
