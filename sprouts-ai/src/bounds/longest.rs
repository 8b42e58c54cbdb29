//! The exact longest game, by the specification's `reach` procedure (section 5.5).

use rustc_hash::FxHashMap;
use sprouts_topo::Position;

use super::upper_bound;
use crate::{Limits, Solved};

/// What has been proved about one part's longest game: a line of `lo` moves exists, none of
/// more than `hi`.
#[derive(Clone, Copy, Debug)]
struct Known {
    lo: u32,
    hi: u32,
}

/// The exact longest game of positions, part by part.
///
/// The longest game of a position is the sum of those of its parts (lands), which share no live
/// spot. For one part, `reach(p, need)` asks whether a line of `need` moves exists: yes at once
/// when a line that long is known, no when the part's upper bound or a proved maximum is below
/// it, otherwise each child (most promising bound first) is split into parts, the smaller parts
/// are worked out exactly and the largest is asked for what is left. The longest game is the
/// first `need`, from the bound down, that is reachable. Only proved facts are kept, per part, by
/// canonical form, so later questions about the same parts are answered from the table.
///
/// The table is not shared between threads: give every worker its own.
///
/// # Examples
///
/// ```
/// use sprouts_ai::bounds::LongestGame;
/// use sprouts_ai::Limits;
/// use sprouts_topo::Position;
/// let mut longest = LongestGame::new();
/// // Every n-spot game can last 3n - 1 moves.
/// assert_eq!(longest.longest(&Position::new(4), &Limits::none()).value, Some(11));
/// ```
#[derive(Debug, Default)]
pub struct LongestGame {
    known: FxHashMap<Box<str>, Known>,
    nodes: u64,
}

/// Thrown (as `Err`) when the limits end the search.
struct OutOfBudget;

impl LongestGame {
    /// An empty table.
    pub fn new() -> LongestGame {
        LongestGame::default()
    }

    /// The number of parts with something proved about them.
    pub fn known_parts(&self) -> usize {
        self.known.len()
    }

    /// The longest game from `position`, or `None` ("not known") when `limits` end the search
    /// first (the node count is this call's).
    pub fn longest(&mut self, position: &Position, limits: &Limits) -> Solved<u32> {
        let form = position.canonical();
        let lands: Vec<&str> = form.lands().collect();
        self.longest_of_lands(&lands, limits)
    }

    /// The longest game of a position given by the canonical forms of its lands.
    pub fn longest_of_lands(&mut self, lands: &[&str], limits: &Limits) -> Solved<u32> {
        let start = limits.now();
        self.nodes = 0;
        let mut total = Some(0);
        for land in lands {
            match self.longest_part(land, limits) {
                Ok(n) => total = total.map(|t| t + n),
                Err(OutOfBudget) => {
                    total = None;
                    break;
                }
            }
        }
        Solved {
            value: total,
            nodes: self.nodes,
            elapsed: limits.now().saturating_duration_since(start),
        }
    }

    /// What is proved about the land `form`: `(lo, hi)`, a line of `lo` moves exists and none
    /// longer than `hi` (the upper bound when nothing more is known).
    pub fn known_range(&mut self, form: &str) -> (u32, u32) {
        let k = self.entry(form);
        (k.lo, k.hi)
    }

    fn entry(&mut self, form: &str) -> Known {
        if let Some(&k) = self.known.get(form) {
            return k;
        }
        let p = Position::parse_glop(form).expect("canonical forms read back");
        let hi = upper_bound(&p);
        // A land has a move.
        let k = Known { lo: hi.min(1), hi };
        self.known.insert(form.into(), k);
        k
    }

    fn longest_part(&mut self, form: &str, limits: &Limits) -> Result<u32, OutOfBudget> {
        loop {
            let k = self.entry(form);
            if k.lo >= k.hi {
                return Ok(k.hi);
            }
            if self.reach(form, k.hi, limits)? {
                return Ok(k.hi);
            }
        }
    }

    /// Whether a line of `need` moves exists in the land `form`.
    fn reach(&mut self, form: &str, need: u32, limits: &Limits) -> Result<bool, OutOfBudget> {
        if need == 0 {
            return Ok(true);
        }
        let k = self.entry(form);
        if need <= k.lo {
            return Ok(true);
        }
        if need > k.hi {
            return Ok(false);
        }
        self.nodes += 1;
        if limits.exceeded(self.nodes) {
            return Err(OutOfBudget);
        }
        let p = Position::parse_glop(form).expect("canonical forms read back");
        // The children as lists of lands, with the sum of their lands' upper limits.
        let mut children: Vec<(u32, Vec<Box<str>>)> = Vec::new();
        let mut lands: Vec<Box<str>> = Vec::new();
        p.for_each_child_lands(|c| {
            lands.clear();
            lands.extend(c.lands().map(Box::from));
            children.push((0, lands.clone()));
        });
        for child in &mut children {
            child.0 = child.1.iter().map(|l| self.entry(l).hi).sum();
        }
        children.sort_by_key(|c| std::cmp::Reverse(c.0));
        let want = need - 1;
        for (sum_hi, parts) in &children {
            if *sum_hi < want {
                break;
            }
            if self.child_reaches(parts, want, limits)? {
                let e = self.known.get_mut(form).expect("entered above");
                e.lo = e.lo.max(need);
                return Ok(true);
            }
        }
        let e = self.known.get_mut(form).expect("entered above");
        e.hi = e.hi.min(need - 1);
        Ok(false)
    }

    /// Whether the sum of `parts` has a line of `want` moves.
    fn child_reaches(
        &mut self,
        parts: &[Box<str>],
        want: u32,
        limits: &Limits,
    ) -> Result<bool, OutOfBudget> {
        if want == 0 {
            return Ok(true);
        }
        if parts.is_empty() {
            return Ok(false);
        }
        // The largest part by bound is asked; the others are worked out exactly.
        let largest = (0..parts.len())
            .max_by_key(|&i| self.entry(&parts[i]).hi)
            .expect("non-empty");
        let mut others = 0;
        for (i, part) in parts.iter().enumerate() {
            if i != largest {
                others += self.longest_part(part, limits)?;
            }
        }
        if others >= want {
            return Ok(true);
        }
        self.reach(&parts[largest], want - others, limits)
    }
}
