//! The solver's fast path: the distinct children of a position as canonical lands.

use crate::canon::{CanonicalForm, ChildBufs, DEFAULT_BUDGET, Reductions, with_canonicalizer};
use crate::position::Position;

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
        let ChildBufs {
            arena,
            spans,
            child,
            text,
        } = &mut bufs;
        let child = child.get_or_insert_with(|| Position::empty_with_next(self.next));
        with_canonicalizer(|c| {
            c.remember_lands(true);
            for mv in self.distinct_moves() {
                if self.play_into(&mv, child).is_err() {
                    continue;
                }
                let exact = c.canonical_into(child, Reductions::Glop, DEFAULT_BUDGET, text);
                let start = arena.len() as u32;
                arena.push_str(text);
                spans.push((start, arena.len() as u32, exact));
            }
            c.remember_lands(false);
        });
        spans.sort_unstable_by(|a, b| {
            arena[a.0 as usize..a.1 as usize].cmp(&arena[b.0 as usize..b.1 as usize])
        });
        spans.dedup_by(|a, b| {
            arena[a.0 as usize..a.1 as usize] == arena[b.0 as usize..b.1 as usize]
        });
        for &(s, e, exact) in spans.iter() {
            f(&ChildLands {
                text: &arena[s as usize..e as usize],
                exact,
            });
        }
        with_canonicalizer(|c| c.child_bufs = bufs);
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
