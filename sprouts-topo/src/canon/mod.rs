//! Canonical forms (spec section 2.6): one name per game, written in GLOP notation.
//!
//! Two positions get the same canonical form exactly when they are the same game up to the
//! renumbering of spots, the rotation of boundaries, the order of boundaries and regions, and the
//! mirror image, once what cannot matter is dropped:
//!
//! * regions with fewer than two lives (no move can ever be made in them) and stumps;
//! * with [`Reductions::Glop`] (the default), also the game-preserving reductions GLOP applies
//!   (J. Lemoine, S. Viennot, GLOP 2.2, `Land::reduce`): a spot met twice in a row on a boundary is
//!   met once (`1aa` is `1a`), and a region with two or three lives is written as one boundary,
//!   its spots shared with other regions first and then a `2` for each private 1-life spot. Each
//!   reduction is checked in the test suite against a brute-force nimber (plain mex recursion, with
//!   and without the reduction) and misère outcomes, on every position reachable from 1 to 5
//!   seeds.
//!
//! The form is a *true* canonical form (unlike GLOP's, which is a heuristic normal form): it is
//! computed by canonising the tree that regions and pieces of curves form on the sphere (see the
//! `tree` module's notes), not by sorting strings, and ties are settled by trying every tied
//! choice. A work budget bounds that search; past it the form is finished greedily and
//! [`CanonicalForm::is_exact`] says so: it is then still a correct name of the position, only maybe
//! not the same name as an equal position's.
//!
//! A position made of independent lands (regions sharing no spot with a life) is written as the
//! sorted forms of its lands joined by `+`; a position where no move is left is `!`.
//!
//! Spots are written by their lives (`0`, `1`, letters and `2` for 1-life spots), letters in order
//! of first appearance, so GLOP and SPOTS read the forms. The order of regions and boundaries is
//! the canonical tree's, not lexicographic.

mod direct;
mod land_form;
mod presentation;
mod render;
mod shape;
pub(crate) mod symmetry;
mod tree;
mod two_regions;

use std::borrow::Borrow;
use std::cell::RefCell;
use std::fmt;

use land_form::LandSink;
pub use land_form::{LandForm, LandFormError};
pub use shape::{KeyOptions, Mirror};
use shape::{PackedLand, Shape, ShapeScratch};
use tree::{Budget, Orient, TreeScratch};

use rustc_hash::FxHashMap;

use crate::position::Position;

/// The default work budget of a canonical form, in code units written while trying tied choices.
/// Forms of positions from real games stay far below it.
pub const DEFAULT_BUDGET: u64 = 1 << 24;

/// Which reductions a canonical form applies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Reductions {
    /// Dead regions (fewer than two lives) and stumps are dropped; nothing else (spec 2.6).
    Plain,
    /// `Plain`, and GLOP's verified reductions: repeated adjacent spots met once, regions with two
    /// or three lives merged into one boundary.
    #[default]
    Glop,
}

/// A canonical form: the name of a game, in GLOP notation (see the module documentation).
///
/// Equality, ordering and hashing are those of the text.
#[derive(Clone, Debug)]
pub struct CanonicalForm {
    text: String,
    exact: bool,
}

impl CanonicalForm {
    pub(crate) fn from_parts(text: String, exact: bool) -> CanonicalForm {
        CanonicalForm { text, exact }
    }

    /// The form as text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The form as an owned string.
    pub fn into_string(self) -> String {
        self.text
    }

    /// Whether the form was completed within the work budget (it then is the same for every
    /// equal position).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// The forms of the independent lands, sorted (none when the game is over).
    pub fn lands(&self) -> impl Iterator<Item = &str> + '_ {
        let text = if self.is_over() {
            ""
        } else {
            self.text.as_str()
        };
        text.split('+').filter(|s| !s.is_empty())
    }

    /// Whether no move is left (the form is `!`).
    pub fn is_over(&self) -> bool {
        self.text == "!"
    }
}

impl PartialEq for CanonicalForm {
    fn eq(&self, other: &CanonicalForm) -> bool {
        self.text == other.text
    }
}

impl Eq for CanonicalForm {}

impl std::hash::Hash for CanonicalForm {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl PartialOrd for CanonicalForm {
    fn partial_cmp(&self, other: &CanonicalForm) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CanonicalForm {
    fn cmp(&self, other: &CanonicalForm) -> std::cmp::Ordering {
        self.text.cmp(&other.text)
    }
}

impl fmt::Display for CanonicalForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A key for a whole position up to renumbering of spots, rotation, order and the mirror image,
/// with nothing dropped (dead regions, stumps and all): the equivalence of "positions up to
/// renumbering and mirror images". Two positions have equal keys exactly when one is the other
/// with its spots renamed (and possibly mirrored). Used for exhaustive counts.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct StructureKey {
    code: Box<[u32]>,
    exact: bool,
}

impl StructureKey {
    /// The key's code units.
    pub fn as_slice(&self) -> &[u32] {
        &self.code
    }

    /// Whether the key was completed within the work budget.
    pub fn is_exact(&self) -> bool {
        self.exact
    }
}

/// How many positions ahead [`Canonicalizer::canonical_each`] asks for the memory of the
/// position it will read. One pass over a million positions held as played, one run each in
/// one sitting: 891,000 forms a second one ahead, 946,000 two ahead, 923,000 four ahead,
/// against 845,000 without.
pub const PREFETCH_AHEAD: usize = 2;

/// The most land forms a [`Canonicalizer`] remembers at once (it forgets them all past that).
pub const MEMO_CAP: usize = 1 << 17;

/// Reusable scratch space for canonical forms: keep one per thread in hot loops to avoid
/// allocating ([`Position::canonical`] uses a thread-local one).
#[derive(Debug)]
pub struct Canonicalizer {
    shape_scratch: ShapeScratch,
    shape: Shape,
    tree: TreeScratch,
    render: render::RenderScratch,
    direct: direct::DirectScratch,
    lands: Vec<(u32, u32)>,
    buf: String,
    /// Whether land forms are remembered (see [`Canonicalizer::remember_lands`]).
    memo_on: bool,
    /// Whether the forms of small lands are remembered even when `memo_on` is off (see
    /// [`Canonicalizer::remember_small_lands`]).
    small_memo_on: bool,
    /// Forms of lands already written, by the land's exact shape: a range of `memo_text` and
    /// whether the form is exact. Kept allocated while off, and cleared when turned on.
    memo: FxHashMap<Box<[u32]>, (u32, u32, bool)>,
    memo_text: String,
    memo_key: Vec<u32>,
    /// Forms of lands with GLOP's reductions, by their packed exact shape (see
    /// [`PackedLand`]): a range of `packed_text` (only exact forms are stored). These lands
    /// are not in `memo`.
    packed_memo: FxHashMap<u128, LandText>,
    packed_text: String,
    /// The lands of the position being read, and their forms.
    packs: Vec<PackedLand>,
    texts: Vec<LandText>,
    /// Storage for [`Position::for_each_child_lands`].
    pub(crate) child_bufs: ChildBufs,
    /// The form being handed out by [`Canonicalizer::canonical_each`].
    each_out: String,
}

/// A land's form: `start..end` of the small lands' memory's text (`in_memo`) or of the forms
/// being written, with its first eight bytes as a big-endian integer (zeros past its end),
/// which sort as the text does (a form has no zero byte).
#[derive(Clone, Copy, Debug)]
struct LandText {
    prefix: u64,
    start: u32,
    end: u32,
    in_memo: bool,
}

impl LandText {
    /// The form `text[start..]`.
    fn new(text: &str, start: usize, in_memo: bool) -> LandText {
        let bytes = &text.as_bytes()[start..];
        let mut first = [0u8; 8];
        for (f, &b) in first.iter_mut().zip(bytes) {
            *f = b;
        }
        LandText {
            prefix: u64::from_be_bytes(first),
            start: start as u32,
            end: text.len() as u32,
            in_memo,
        }
    }
}

/// Storage reused by [`Position::for_each_child_lands`]: the children's forms and a child.
#[derive(Default, Debug)]
pub(crate) struct ChildBufs {
    pub(crate) arena: String,
    pub(crate) spans: Vec<(u32, u32, bool)>,
    pub(crate) child: Option<Position>,
    pub(crate) text: String,
    /// The parent's lands' forms: the text, and per land piece `(land, start, end)`.
    pub(crate) parent: ParentLands,
    /// The current child's lands: ranges of `text`.
    pub(crate) pieces: Vec<(u32, u32)>,
    /// The children of lands already enumerated (see [`LandChildren`]).
    pub(crate) land_children: LandChildren,
    /// The parent's lands (see [`Position::lands_into`]).
    pub(crate) split: LandSplit,
    /// The moves of the land being enumerated.
    pub(crate) moves: Vec<crate::moves::Move>,
    /// The automorphisms of the land being enumerated (one move per orbit is played).
    pub(crate) symmetry: symmetry::Symmetry,
}

/// The children's forms of lands already enumerated by [`Position::for_each_child_lands`], keyed
/// by the land's exact contents (stumps left out) with its spots renumbered in order of first
/// appearance: two lands with equal keys are the same position up to the names of spots, so
/// their children have the same forms. Bounded: cleared when its keys, entries and text reach
/// [`LAND_CHILDREN_CAP`] bytes (per thread).
#[derive(Default, Debug)]
pub(crate) struct LandChildren {
    /// Per land key: its children (a range of `entries`) and its own form (a range of `text`,
    /// and whether it is exact).
    pub(crate) map: FxHashMap<Box<[u32]>, LandEntry>,
    /// Per child of a land: a range of `text` (the child land's form) and whether it is exact.
    pub(crate) entries: Vec<(u32, u32, bool)>,
    pub(crate) text: String,
    /// The bytes held by keys, entries and text (see [`LAND_CHILDREN_CAP`]).
    pub(crate) bytes: usize,
    /// Scratch: the key being built, and spot numbers by spot index.
    pub(crate) key: Vec<u32>,
    pub(crate) names: Vec<u32>,
    /// How many times the memory was cleared (an entry looked up before a clear is stale).
    pub(crate) clears: u64,
}

/// What [`LandChildren`] remembers of a land.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LandEntry {
    /// Its distinct children: a range of `LandChildren::entries`.
    pub(crate) children: (u32, u32),
    /// Its own form: a range of `LandChildren::text`, and whether it is exact.
    pub(crate) form: (u32, u32, bool),
}

/// The most bytes (keys, entries and text) [`LandChildren`] holds before it is cleared.
pub(crate) const LAND_CHILDREN_CAP: usize = 16 << 20;

impl LandChildren {
    /// Builds the key of `land` into `self.key`: per region a marker, per boundary a marker and
    /// its corners as `number << 2 | lives`, spots numbered in order of first appearance.
    pub(crate) fn build_key(&mut self, land: &Position) {
        self.key.clear();
        if self.names.len() < land.lives.len() {
            self.names.resize(land.lives.len(), u32::MAX);
        }
        let mut next = 0u32;
        for r in 0..land.region_count() {
            self.key.push(u32::MAX);
            let (bs, be) = land.region_bounds(r);
            for b in bs..be {
                self.key.push(u32::MAX - 1);
                for &c in land.boundary_slice(b) {
                    let i = c.index();
                    if self.names[i] == u32::MAX {
                        self.names[i] = next;
                        next += 1;
                    }
                    self.key
                        .push(self.names[i] << 2 | u32::from(land.lives_at(c)));
                }
            }
        }
        for &c in &land.corners {
            self.names[c.index()] = u32::MAX;
        }
    }

    /// Forgets everything if the memory is full.
    pub(crate) fn bound(&mut self) {
        if self.bytes > LAND_CHILDREN_CAP {
            self.clears += 1;
            self.map.clear();
            self.entries.clear();
            self.text.clear();
            self.bytes = 0;
        }
    }

    /// Remembers the children `entries[es..]` of the land whose key was built last, and its own
    /// form `form` (exact or not).
    pub(crate) fn insert(
        &mut self,
        es: u32,
        text_start: usize,
        form: &str,
        exact: bool,
    ) -> (u32, u32) {
        let ee = self.entries.len() as u32;
        let fs = self.text.len() as u32;
        self.text.push_str(form);
        let fe = self.text.len() as u32;
        self.bytes += self.key.len() * 4
            + (ee - es) as usize * std::mem::size_of::<(u32, u32, bool)>()
            + (self.text.len() - text_start)
            + 48;
        self.map.insert(
            self.key.as_slice().into(),
            LandEntry {
                children: (es, ee),
                form: (fs, fe, exact),
            },
        );
        (es, ee)
    }
}

/// The forms of a parent's lands, for [`Position::for_each_child_lands`].
#[derive(Default, Debug)]
pub(crate) struct ParentLands {
    pub(crate) text: String,
    pub(crate) pieces: Vec<(u32, u32, u32)>,
    /// Each land's whole form (a range of `forms`) and whether it is exact.
    pub(crate) forms: String,
    pub(crate) form_of: Vec<(u32, u32, bool)>,
    /// Each land's key in [`LandChildren`] (a range of `keys`), built once per call.
    pub(crate) keys: Vec<u32>,
    pub(crate) key_of: Vec<(u32, u32)>,
    /// Each land's entry in [`LandChildren`] when it was found there, with the memory's
    /// [`LandChildren::clears`] at the time (the entry is stale if it was cleared since).
    pub(crate) entry_of: Vec<Option<(LandEntry, u64)>>,
}

impl Default for Canonicalizer {
    fn default() -> Canonicalizer {
        Canonicalizer {
            shape_scratch: ShapeScratch::default(),
            shape: Shape::default(),
            tree: TreeScratch::default(),
            render: render::RenderScratch::default(),
            direct: direct::DirectScratch::default(),
            lands: Vec::new(),
            buf: String::new(),
            memo_on: false,
            small_memo_on: true,
            memo: FxHashMap::default(),
            memo_text: String::new(),
            memo_key: Vec::new(),
            packed_memo: FxHashMap::default(),
            packed_text: String::new(),
            packs: Vec::new(),
            texts: Vec::new(),
            child_bufs: ChildBufs::default(),
            each_out: String::new(),
        }
    }
}

impl Canonicalizer {
    /// A new canonicalizer (remembering the forms of small lands: see
    /// [`Canonicalizer::remember_small_lands`]).
    pub fn new() -> Canonicalizer {
        Canonicalizer::default()
    }

    /// Whether the forms of small lands (at most 16 spots, counted with repeats) are remembered,
    /// keyed by their exact shape, even when [`Canonicalizer::remember_lands`] is off: on by
    /// default. Real games are full of the same few small lands (`AB|AB`, `2AB|AB`, `0.A|2A`,
    /// ...), each costing a tree canonisation otherwise. Turn it off to measure the cost of
    /// canonising every land.
    pub fn remember_small_lands(&mut self, on: bool) {
        self.small_memo_on = on;
    }

    /// Remembers the form of every land it writes (keyed by the land's exact reduced shape) and
    /// reuses it when the same land comes again, or forgets them all (`false`). Worth it over the
    /// children of one position: a move changes one land and leaves the others as they were.
    /// The memory is bounded: past [`MEMO_CAP`] lands it is cleared.
    pub fn remember_lands(&mut self, on: bool) {
        self.memo_on = on;
        self.memo.clear();
        self.memo_text.clear();
        self.packed_memo.clear();
        self.packed_text.clear();
        if !on && self.memo.capacity() > 1 << 16 {
            // Do not keep a large table for nothing.
            self.memo = FxHashMap::default();
            self.memo_text = String::new();
        }
        if !on && self.packed_memo.capacity() > 1 << 16 {
            self.packed_memo = FxHashMap::default();
            self.packed_text = String::new();
        }
    }

    /// Turns remembering land forms on or off without forgetting those remembered (the memory
    /// stays bounded: it is cleared when it holds [`MEMO_CAP`] lands); returns whether it was on.
    pub(crate) fn keep_remembering(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.memo_on, on)
    }

    /// Writes the canonical form of `pos` into `out` (cleared first); returns whether it is exact.
    pub fn canonical_into(
        &mut self,
        pos: &Position,
        reductions: Reductions,
        budget: u64,
        out: &mut String,
    ) -> bool {
        let mode = match reductions {
            Reductions::Plain => KeyOptions::PLAIN,
            Reductions::Glop => KeyOptions::GLOP,
        };
        self.canonical_mode_into(pos, mode, budget, out)
    }

    /// The canonical form of `pos` with GLOP's reductions, as the forms of its lands (sorted;
    /// none when no move is left) put into `out` (cleared first): the lands of
    /// [`Canonicalizer::canonical_into`]'s form, made without writing the whole form. Returns
    /// whether it is exact.
    pub fn canonical_lands_into(
        &mut self,
        pos: &Position,
        budget: u64,
        out: &mut Vec<LandForm>,
    ) -> bool {
        self.canonical_mode_into(pos, KeyOptions::GLOP, budget, out)
    }

    /// Writes the canonical form of every position of `positions` in turn and hands it to `f`
    /// with the position's index and whether the form is exact: the forms
    /// [`Canonicalizer::canonical_into`] writes one at a time, in the same order, faster over
    /// positions held in memory. While one position is canonicalised, the tables of the one
    /// [`PREFETCH_AHEAD`] places on are asked for ([`Position::prefetch`]), so that they are in
    /// the cache when its turn comes: reading a position that is not waits for memory at every
    /// step. Over 300,000 and a million positions held as played (`canon_profile canon-both`)
    /// it runs 8 to 11% faster than one call a position.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::canon::{Canonicalizer, DEFAULT_BUDGET};
    /// use sprouts_topo::{Position, Reductions};
    ///
    /// let positions: Vec<Position> = ["0*2", "1a1a.0", "0.AB|AB"]
    ///     .iter()
    ///     .map(|t| Position::parse_glop(t).unwrap())
    ///     .collect();
    /// let mut forms = Vec::new();
    /// let mut canonicalizer = Canonicalizer::new();
    /// canonicalizer.canonical_each(&positions, Reductions::Glop, DEFAULT_BUDGET, |i, form, ok| {
    ///     assert!(ok);
    ///     forms.push((i, form.to_string()));
    /// });
    /// assert_eq!(forms.len(), 3);
    /// assert_eq!(forms[0], (0, positions[0].canonical().as_str().to_string()));
    /// ```
    pub fn canonical_each<P: Borrow<Position>>(
        &mut self,
        positions: &[P],
        reductions: Reductions,
        budget: u64,
        mut f: impl FnMut(usize, &str, bool),
    ) {
        let mut out = std::mem::take(&mut self.each_out);
        for p in positions.iter().take(PREFETCH_AHEAD) {
            p.borrow().prefetch();
        }
        // Every position of the slice is prefetched before it is read, so the reading's own
        // loads up front are skipped (only speed depends on this flag).
        self.shape_scratch.prefetched = true;
        for (i, p) in positions.iter().enumerate() {
            if let Some(ahead) = positions.get(i + PREFETCH_AHEAD) {
                ahead.borrow().prefetch();
            }
            let exact = self.canonical_into(p.borrow(), reductions, budget, &mut out);
            f(i, &out, exact);
        }
        self.shape_scratch.prefetched = false;
        self.each_out = out;
    }

    pub(crate) fn canonical_mode_into<S: LandSink>(
        &mut self,
        pos: &Position,
        mode: KeyOptions,
        budget: u64,
        out: &mut S,
    ) -> bool {
        out.start();
        if mode == KeyOptions::GLOP
            && (self.memo_on || self.small_memo_on)
            && !self.tree.reference
            && !self.shape_scratch.reference
        {
            return self.canonical_packed_into(pos, budget, out);
        }
        shape::build(pos, mode, &mut self.shape_scratch, &mut self.shape);
        let n_lands = self.shape.land.len() - 1;
        if n_lands == 0 {
            out.over();
            return true;
        }
        let mut budget = Budget {
            left: budget,
            exceeded: false,
        };
        self.buf.clear();
        self.lands.clear();
        for l in 0..n_lands {
            let start = self.buf.len() as u32;
            if !self.tree.reference && self.direct.named_directly(&self.shape, l, &mut self.buf) {
                self.lands.push((start, self.buf.len() as u32));
                continue;
            }
            // Remembered: every land when asked, and the small lands unless told not to (few
            // spots, so few exact shapes; the memory stays small), except in the reference mode.
            // The key is the land's exact shape, so a remembered form is the form.
            let memo = self.memo_on
                || (self.small_memo_on
                    && mode.drop_stumps
                    && !self.tree.reference
                    && land_tokens(&self.shape, l) <= SMALL_LAND_TOKENS);
            if memo {
                land_key(&self.shape, l, mode, &mut self.memo_key);
                if let Some(&(s, e, exact)) = self.memo.get(self.memo_key.as_slice()) {
                    self.buf.push_str(&self.memo_text[s as usize..e as usize]);
                    budget.exceeded |= !exact;
                    self.lands.push((start, self.buf.len() as u32));
                    continue;
                }
            }
            let was_exceeded = budget.exceeded;
            budget.exceeded = false;
            self.tree
                .canon_land(&self.shape, l, Orient::Best, &mut budget);
            self.render
                .render(&self.tree.code, &self.shape, l, &mut self.buf);
            if memo && !budget.exceeded {
                if self.memo.len() >= MEMO_CAP {
                    // Bounded: start again rather than grow without end.
                    self.memo.clear();
                    self.memo_text.clear();
                }
                let s = self.memo_text.len() as u32;
                self.memo_text.push_str(&self.buf[start as usize..]);
                let e = self.memo_text.len() as u32;
                self.memo
                    .insert(self.memo_key.as_slice().into(), (s, e, !budget.exceeded));
            }
            budget.exceeded |= was_exceeded;
            self.lands.push((start, self.buf.len() as u32));
        }
        self.write_sorted_lands(out);
        !budget.exceeded
    }

    /// Hands the lands' forms of `buf` to `out`, sorted.
    fn write_sorted_lands<S: LandSink>(&mut self, out: &mut S) {
        sort_lands(self.buf.as_bytes(), &mut self.lands);
        for &(s, e) in &self.lands {
            out.land(&self.buf[s as usize..e as usize]);
        }
    }

    /// [`Canonicalizer::canonical_mode_into`] with GLOP's reductions when lands are remembered:
    /// the position is read into its lands and their packed keys (see [`PackedLand`]), and only
    /// the lands not remembered are written out as shapes, one at a time, and named (directly
    /// or by the tree). A land of at most [`SMALL_LAND_TOKENS`] spots is remembered by its
    /// packed key, named directly or not; the others as [`Canonicalizer::canonical_mode_into`]
    /// remembers them. The lands' forms are sorted by their first eight bytes (kept in the
    /// memory with the text), and copied once, from where they lie, into `out`.
    fn canonical_packed_into<S: LandSink>(
        &mut self,
        pos: &Position,
        budget: u64,
        out: &mut S,
    ) -> bool {
        let merge = shape::read_lands(pos, &mut self.shape_scratch, &mut self.packs);
        if self.packs.is_empty() {
            out.over();
            return true;
        }
        if self.packed_memo.len() >= MEMO_CAP {
            // Bounded: start again rather than grow without end (here, so that the forms of
            // this call may point into the text).
            self.packed_memo.clear();
            self.packed_text.clear();
        }
        let mut budget = Budget {
            left: budget,
            exceeded: false,
        };
        self.buf.clear();
        self.texts.clear();
        for i in 0..self.packs.len() {
            let land = self.packs[i];
            if land.key() != 0
                && let Some(&text) = self.packed_memo.get(&land.key())
            {
                self.texts.push(text);
                continue;
            }
            // Not in this presentation: perhaps in another one (see `presentation`); a land of
            // one region is named directly for less than the look-up costs.
            let normal = if land.key() != 0 && land.regions() > 1 {
                presentation::normalized_key(land.key())
            } else {
                land.key()
            };
            if normal != land.key()
                && let Some(&text) = self.packed_memo.get(&normal)
            {
                self.packed_memo.insert(land.key(), text);
                self.texts.push(text);
                continue;
            }
            let start = self.buf.len();
            if land.key() != 0 {
                shape::unpack_land(land.key(), &mut self.shape);
            } else {
                shape::emit_land(merge, &mut self.shape_scratch, &mut self.shape, land);
            }
            let was_exceeded = budget.exceeded;
            budget.exceeded = false;
            if !self.direct.named_directly(&self.shape, 0, &mut self.buf) {
                let memo = land.key() == 0
                    && (self.memo_on
                        || (self.small_memo_on
                            && land_tokens(&self.shape, 0) <= SMALL_LAND_TOKENS));
                let mut found = false;
                if memo {
                    land_key(&self.shape, 0, KeyOptions::GLOP, &mut self.memo_key);
                    if let Some(&(s, e, exact)) = self.memo.get(self.memo_key.as_slice()) {
                        self.buf.push_str(&self.memo_text[s as usize..e as usize]);
                        budget.exceeded |= !exact;
                        found = true;
                    }
                }
                if !found {
                    self.tree
                        .canon_land(&self.shape, 0, Orient::Best, &mut budget);
                    self.render
                        .render(&self.tree.code, &self.shape, 0, &mut self.buf);
                    if memo && !budget.exceeded {
                        if self.memo.len() >= MEMO_CAP {
                            self.memo.clear();
                            self.memo_text.clear();
                        }
                        let s = self.memo_text.len() as u32;
                        self.memo_text.push_str(&self.buf[start..]);
                        let e = self.memo_text.len() as u32;
                        self.memo
                            .insert(self.memo_key.as_slice().into(), (s, e, true));
                    }
                }
            }
            if land.key() != 0 && !budget.exceeded {
                let s = self.packed_text.len();
                self.packed_text.push_str(&self.buf[start..]);
                let text = LandText::new(&self.packed_text, s, true);
                self.packed_memo.insert(land.key(), text);
                if normal != land.key() {
                    self.packed_memo.insert(normal, text);
                }
                self.texts.push(text);
            } else {
                self.texts.push(LandText::new(&self.buf, start, false));
            }
            budget.exceeded |= was_exceeded;
        }
        let (buf, memo) = (self.buf.as_bytes(), self.packed_text.as_bytes());
        let text = |t: &LandText| {
            let from = if t.in_memo { memo } else { buf };
            &from[t.start as usize..t.end as usize]
        };
        // An insertion sort (a form has a few lands), by the first bytes and then the rest.
        let texts = self.texts.as_mut_slice();
        for i in 1..texts.len() {
            let mut j = i;
            while j > 0 {
                let (a, b) = (&texts[j - 1], &texts[j]);
                let greater = match a.prefix.cmp(&b.prefix) {
                    std::cmp::Ordering::Equal => {
                        text(a)[8.min(text(a).len())..] > text(b)[8.min(text(b).len())..]
                    }
                    o => o == std::cmp::Ordering::Greater,
                };
                if !greater {
                    break;
                }
                texts.swap(j - 1, j);
                j -= 1;
            }
        }
        for t in texts.iter() {
            let from = if t.in_memo {
                &self.packed_text
            } else {
                &self.buf
            };
            out.land(&from[t.start as usize..t.end as usize]);
        }
        !budget.exceeded
    }

    /// The structure key of `pos` (see [`StructureKey`]).
    pub fn structure_key(&mut self, pos: &Position, budget: u64) -> StructureKey {
        self.key(pos, KeyOptions::FULL, budget)
    }

    /// The key of `pos` under `mode` (see [`key`]): the sorted codes of its lands.
    pub fn key(&mut self, pos: &Position, mode: KeyOptions, budget: u64) -> StructureKey {
        shape::build(pos, mode, &mut self.shape_scratch, &mut self.shape);
        let n_lands = self.shape.land.len() - 1;
        let mut budget = Budget {
            left: budget,
            exceeded: false,
        };
        let orients: &[Orient] = match mode.mirror {
            Mirror::Distinct => &[Orient::Straight],
            Mirror::PerLand => &[Orient::Best],
            Mirror::Whole => &[Orient::Straight, Orient::Mirrored],
        };
        let mut best: Option<Vec<u32>> = None;
        for &orient in orients {
            let mut codes: Vec<Vec<u32>> = Vec::with_capacity(n_lands);
            for l in 0..n_lands {
                self.tree.canon_land(&self.shape, l, orient, &mut budget);
                codes.push(self.tree.code.clone());
            }
            codes.sort_unstable();
            let mut code = Vec::new();
            code.push(codes.len() as u32);
            for c in codes {
                code.extend_from_slice(&c);
            }
            if best.as_ref().is_none_or(|b| code < *b) {
                best = Some(code);
            }
        }
        StructureKey {
            code: best.unwrap_or_default().into_boxed_slice(),
            exact: !budget.exceeded,
        }
    }
}

/// Sorts the lands' forms (ranges of `buf`, none empty) as strings: an insertion sort (a form
/// has a few lands).
fn sort_lands(buf: &[u8], lands: &mut [(u32, u32)]) {
    let cmp = |a: (u32, u32), b: (u32, u32)| {
        let (x, y) = (
            &buf[a.0 as usize..a.1 as usize],
            &buf[b.0 as usize..b.1 as usize],
        );
        // Byte by byte: forms are short and usually differ early, where a call to compare
        // memory would cost more than the loop.
        for (a, b) in x.iter().zip(y) {
            if a != b {
                return a.cmp(b);
            }
        }
        x.len().cmp(&y.len())
    };
    for i in 1..lands.len() {
        let mut j = i;
        while j > 0 && cmp(lands[j - 1], lands[j]) == std::cmp::Ordering::Greater {
            lands.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The lands always remembered have at most this many spots (counted with repeats).
const SMALL_LAND_TOKENS: usize = shape::PACKED_TOKENS as usize;

/// The number of spots (with repeats) of land `l` of `shape`.
fn land_tokens(shape: &Shape, l: usize) -> usize {
    let (rs, re) = (shape.land[l] as usize, shape.land[l + 1] as usize);
    (shape.bnd[shape.reg[re] as usize] - shape.bnd[shape.reg[rs] as usize]) as usize
}

/// The exact shape of land `l` of `shape` (a key for remembering its form): the mode, the
/// numbers of regions and boundaries, where each region's boundaries start and each boundary's
/// tokens end (with whether it is a bag), then the tokens. A land's labels are numbered from 0
/// in its tokens, so they are copied as they are.
fn land_key(shape: &Shape, l: usize, mode: KeyOptions, key: &mut Vec<u32>) {
    key.clear();
    let (rs, re) = (shape.land[l] as usize, shape.land[l + 1] as usize);
    let (bs, be) = (shape.reg[rs] as usize, shape.reg[re] as usize);
    let (ts, te) = (shape.bnd[bs] as usize, shape.bnd[be] as usize);
    key.reserve(3 + (re - rs) + (be - bs) + (te - ts));
    key.push(
        u32::from(mode.drop_dead) | u32::from(mode.drop_stumps) << 1 | u32::from(mode.glop) << 2,
    );
    key.push((re - rs) as u32);
    key.push((be - bs) as u32);
    key.extend(shape.reg[rs + 1..re].iter().map(|&b| b - bs as u32));
    key.extend(
        shape.bnd[bs + 1..=be]
            .iter()
            .zip(&shape.bag[bs..be])
            .map(|(&e, &bag)| (e - ts as u32) << 1 | u32::from(bag)),
    );
    key.extend_from_slice(&shape.toks[ts..te]);
}

thread_local! {
    static CANON: RefCell<Canonicalizer> = RefCell::new(Canonicalizer::new());
}

/// Runs `f` with this thread's canonicalizer (or a fresh one if it is busy).
pub(crate) fn with_canonicalizer<R>(f: impl FnOnce(&mut Canonicalizer) -> R) -> R {
    CANON.with(|c| match c.try_borrow_mut() {
        Ok(mut c) => f(&mut c),
        Err(_) => f(&mut Canonicalizer::new()),
    })
}

/// The structure key of `pos`: the position up to renumbering and mirror image, nothing dropped.
pub fn structure_key(pos: &Position) -> StructureKey {
    with_canonicalizer(|c| c.structure_key(pos, DEFAULT_BUDGET))
}

/// A canonical key of `pos` under `options` (see [`KeyOptions`]): equal keys exactly for positions
/// equal under them.
pub fn key(pos: &Position, options: KeyOptions) -> StructureKey {
    with_canonicalizer(|c| c.key(pos, options, DEFAULT_BUDGET))
}

impl Position {
    /// The canonical form of the position, with GLOP's verified reductions (see the
    /// [`canon`](crate::canon) module): equal games up to renumbering and mirror image get equal
    /// strings, different games different strings.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// let a = Position::parse_glop("0.1a1a.AB|AB").unwrap();
    /// let b = Position::parse_glop("BA|1a1a.BA.0").unwrap();
    /// assert_eq!(a.canonical(), b.canonical());
    /// // A region with fewer than two lives cannot matter.
    /// let c = Position::parse_glop("0*2+2").unwrap();
    /// assert_eq!(c.canonical().as_str(), "0*2");
    /// ```
    pub fn canonical(&self) -> CanonicalForm {
        self.canonical_with(Reductions::Glop, DEFAULT_BUDGET)
    }

    /// The canonical form without GLOP's reductions: dead regions and stumps dropped, nothing
    /// else (spec 2.6).
    pub fn canonical_unreduced(&self) -> CanonicalForm {
        self.canonical_with(Reductions::Plain, DEFAULT_BUDGET)
    }

    /// The canonical form with the given reductions and work budget.
    pub fn canonical_with(&self, reductions: Reductions, budget: u64) -> CanonicalForm {
        with_canonicalizer(|c| {
            let mut text = String::new();
            let exact = c.canonical_into(self, reductions, budget, &mut text);
            CanonicalForm { text, exact }
        })
    }

    /// The independent parts of the position (spec 5.6): its regions with two lives or more,
    /// grouped into lands joined by spots with a life met in two of them. Each land is a position
    /// of its own with the same spot identities (and the same next spot); dead regions are left
    /// out. Playing in one land changes nothing in the others.
    pub fn lands(&self) -> Vec<Position> {
        self.lands_with(false)
    }

    /// The lands of [`Position::lands`], with their stumps left out when `drop_stumps` (and the
    /// boundaries made only of stumps). A stump takes part in no move, and every canonical form
    /// drops it, so such a land has the same children's forms as the land with its stumps (a
    /// test checks it against the whole position's children).
    pub(crate) fn lands_with(&self, drop_stumps: bool) -> Vec<Position> {
        let mut split = LandSplit::default();
        let n = self.lands_into(drop_stumps, &mut split).len();
        split.parts.truncate(n);
        split.parts
    }

    /// [`Position::lands_with`] into reused storage: the lands are `split`'s first positions,
    /// rebuilt in place (their tables keep their room from call to call, so a warm `split`
    /// allocates nothing). Each land is the same position, table for table, as
    /// [`Position::lands_with`] builds.
    pub(crate) fn lands_into<'s>(
        &self,
        drop_stumps: bool,
        split: &'s mut LandSplit,
    ) -> &'s [Position] {
        let nr = self.region_count();
        let LandSplit {
            alive,
            uf,
            seen,
            roots,
            parts,
        } = split;
        alive.clear();
        alive.extend((0..nr).map(|r| self.region_lives(r) >= 2));
        uf.reset(nr);
        seen.clear();
        seen.resize(self.lives.len(), u32::MAX);
        for r in (0..nr).filter(|&r| alive[r]) {
            let (bs, be) = self.region_bounds(r);
            for &c in &self.corners[self.bnd[bs] as usize..self.bnd[be] as usize] {
                if self.lives_at(c) == 0 {
                    continue;
                }
                let i = c.index();
                if seen[i] == u32::MAX {
                    seen[i] = r as u32;
                } else {
                    uf.union(seen[i], r as u32);
                }
            }
        }
        roots.clear();
        for r in (0..nr).filter(|&r| alive[r]) {
            let root = uf.find(r as u32);
            let k = match roots.iter().position(|&x| x == root) {
                Some(k) => k,
                None => {
                    roots.push(root);
                    let k = roots.len() - 1;
                    if k == parts.len() {
                        parts.push(Position::empty_with_next(self.next));
                    }
                    let part = &mut parts[k];
                    part.clear_keeping_storage();
                    part.next = self.next;
                    // Room for every spot and corner at once (the tables then never grow).
                    part.lives.reserve(self.lives.len());
                    part.corners.reserve(self.corners.len());
                    part.bnd.reserve(self.bnd.len());
                    part.reg.reserve(nr + 1);
                    k
                }
            };
            let part = &mut parts[k];
            let (bs, be) = self.region_bounds(r);
            for b in bs..be {
                let cs = self.boundary_slice(b);
                if drop_stumps {
                    let start = part.corners.len();
                    for &c in cs {
                        let l = self.lives_at(c);
                        if l > 0 {
                            part.set_lives(c, l);
                            part.corners.push(c);
                        }
                    }
                    if part.corners.len() > start {
                        part.bnd.push(
                            u32::try_from(part.corners.len()).expect("corner count fits in u32"),
                        );
                    }
                    continue;
                }
                for &c in cs {
                    part.set_lives(c, self.lives_at(c));
                }
                part.push_boundary(cs);
            }
            part.finish_region();
        }
        &parts[..roots.len()]
    }
}

/// Storage for [`Position::lands_into`]: its scratch tables and the lands' positions.
#[derive(Default, Debug)]
pub(crate) struct LandSplit {
    alive: Vec<bool>,
    uf: crate::setup::UnionFind,
    seen: Vec<u32>,
    roots: Vec<u32>,
    /// The lands of the last split first; the others keep their storage for later splits.
    parts: Vec<Position>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The position reached from `n` seeds by playing, at each turn, move number
    /// `choice % count` (stopping when no move is left).
    fn played(n: u32, choices: &[u16]) -> Position {
        let mut p = Position::new(n);
        for &c in choices {
            let moves: Vec<_> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            p = p.play(&moves[usize::from(c) % moves.len()]).unwrap();
        }
        p
    }

    /// Forms, plain forms and keys of `p` with and without the shortcuts.
    fn with_and_without_shortcuts(p: &Position) {
        let mut fast = Canonicalizer::new();
        let mut slow = Canonicalizer::new();
        slow.tree.reference = true;
        slow.render.reference = true;
        let (mut a, mut b) = (String::new(), String::new());
        for r in [Reductions::Glop, Reductions::Plain] {
            let ea = fast.canonical_into(p, r, DEFAULT_BUDGET, &mut a);
            let eb = slow.canonical_into(p, r, DEFAULT_BUDGET, &mut b);
            assert_eq!((&a, ea), (&b, eb), "{p:?} {r:?}");
        }
        for mode in [KeyOptions::FULL, KeyOptions::GLOP.whole_mirror()] {
            assert_eq!(
                fast.key(p, mode, DEFAULT_BUDGET),
                slow.key(p, mode, DEFAULT_BUDGET),
                "{p:?} {mode:?}"
            );
        }
    }

    /// `canonical_each` hands out, in order and with their indices, the forms and exactness
    /// `canonical_into` writes one at a time, for both reductions, for positions held by value
    /// and by reference, for sets shorter than the prefetch distance and for none, and with a
    /// budget too small to finish.
    #[test]
    fn canonical_each_hands_out_the_forms_one_at_a_time() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut positions: Vec<Position> = (0..300)
            .map(|k| {
                let choices: Vec<u16> = (0..k % 28)
                    .map(|_| {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        (rng >> 48) as u16
                    })
                    .collect();
                played(3 + k as u32 % 10, &choices)
            })
            .collect();
        positions.push(Position::new(0));
        for reductions in [Reductions::Glop, Reductions::Plain] {
            for budget in [DEFAULT_BUDGET, 3] {
                let mut one = Canonicalizer::new();
                let mut want = Vec::new();
                let mut out = String::new();
                for p in &positions {
                    let exact = one.canonical_into(p, reductions, budget, &mut out);
                    want.push((out.clone(), exact));
                }
                if budget == 3 {
                    assert!(
                        want.iter().any(|(_, exact)| !exact),
                        "the small budget runs out"
                    );
                }
                for len in [0, 1, PREFETCH_AHEAD, positions.len()] {
                    let mut each = Canonicalizer::new();
                    let mut got = Vec::new();
                    each.canonical_each(&positions[..len], reductions, budget, |i, form, exact| {
                        assert_eq!(i, got.len(), "indices in order");
                        got.push((form.to_string(), exact));
                    });
                    assert_eq!(got, want[..len], "{reductions:?} {budget} {len}");
                    let refs: Vec<&Position> = positions[..len].iter().collect();
                    let mut by_ref = Vec::new();
                    each.canonical_each(&refs, reductions, budget, |_, form, exact| {
                        by_ref.push((form.to_string(), exact));
                    });
                    assert_eq!(
                        by_ref,
                        want[..len],
                        "by reference, {reductions:?} {budget} {len}"
                    );
                }
            }
        }
    }

    /// One position per GLOP class reachable from `n` seeds (down to `max_depth` moves).
    fn reachable(n: u32, max_depth: usize) -> Vec<Position> {
        crate::reachable_positions(n, max_depth)
    }

    /// Every land reachable from 1 to 4 seeds (every position, and every child of it, as
    /// played: stumps, dead regions and all): the shortcuts and lands named directly write
    /// exactly what the tree and the general writer write, reduced and plain.
    #[test]
    fn direct_lands_equal_tree_lands_exhaustively() {
        let mut fast = Canonicalizer::new();
        let mut slow = Canonicalizer::new();
        slow.tree.reference = true;
        slow.render.reference = true;
        let (mut a, mut b) = (String::new(), String::new());
        let mut direct = 0usize;
        for n in 1..=4 {
            for p in reachable(n, usize::MAX) {
                for q in std::iter::once(p.clone()).chain(p.moves().map(|m| p.play(&m).unwrap())) {
                    for r in [Reductions::Glop, Reductions::Plain] {
                        let ea = fast.canonical_into(&q, r, DEFAULT_BUDGET, &mut a);
                        let eb = slow.canonical_into(&q, r, DEFAULT_BUDGET, &mut b);
                        assert_eq!((&a, ea), (&b, eb), "{} {r:?}", q.to_glop());
                        direct += a.split('+').filter(|l| !l.contains('|')).count();
                    }
                }
            }
        }
        assert!(direct > 10_000, "{direct}");
    }

    /// Packed keys seen, with the exact shapes' keys they stand for, both ways.
    type PackedKeys = (
        std::collections::HashMap<u128, Vec<u32>>,
        std::collections::HashMap<Vec<u32>, u128>,
    );

    /// The lands of `p` as `read_lands` lists them, each written alone by `emit_land`, against
    /// the lands of the whole shape `build` writes: the same lands in the same order, token for
    /// token; and the packed keys against the exact shapes' keys, in `keys` (packed key to shape
    /// key and back: equal packed keys exactly for equal shapes).
    fn check_packed_lands(p: &Position, keys: &mut PackedKeys) {
        let mode = KeyOptions::GLOP;
        let (mut sc, mut whole, mut one) =
            (ShapeScratch::default(), Shape::default(), Shape::default());
        shape::build(p, mode, &mut sc, &mut whole);
        let mut lands = Vec::new();
        let merge = shape::read_lands(p, &mut sc, &mut lands);
        assert_eq!(lands.len(), whole.land.len() - 1, "{}", p.to_glop());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (l, &land) in lands.iter().enumerate() {
            shape::emit_land(merge, &mut sc, &mut one, land);
            assert_eq!(one.land, [0, one.reg.len() as u32 - 1]);
            land_key(&whole, l, mode, &mut a);
            land_key(&one, 0, mode, &mut b);
            assert_eq!(a, b, "{} land {l}", p.to_glop());
            let labels = |s: &Shape, l: usize| {
                s.label_class[s.land_labels[l] as usize..s.land_labels[l + 1] as usize].to_vec()
            };
            assert_eq!(
                labels(&whole, l),
                labels(&one, 0),
                "{} land {l}",
                p.to_glop()
            );
            let small = land_tokens(&one, 0) <= SMALL_LAND_TOKENS;
            if land.key() == 0 {
                assert!(!small, "{} land {l}", p.to_glop());
                continue;
            }
            assert!(small, "{} land {l}", p.to_glop());
            let mut unpacked = Shape::default();
            shape::unpack_land(land.key(), &mut unpacked);
            assert_eq!(unpacked, one, "{} land {l}", p.to_glop());
            // The key with the classes of the land's labels.
            let mut full = b.clone();
            full.extend(labels(&one, 0).iter().map(|&c| u32::from(c)));
            assert_eq!(
                keys.0.entry(land.key()).or_insert_with(|| full.clone()),
                &full,
                "{} land {l}",
                p.to_glop()
            );
            assert_eq!(
                *keys.1.entry(full).or_insert(land.key()),
                land.key(),
                "{} land {l}",
                p.to_glop()
            );
        }
    }

    /// Every position reachable from 1 to 4 seeds and every child of each, as played: the
    /// lands read with packed keys are the lands of the whole shape, and the packed keys name
    /// the exact shapes one to one.
    #[test]
    fn packed_lands_match_the_shape_exhaustively() {
        let mut keys = Default::default();
        for n in 1..=4 {
            for p in reachable(n, usize::MAX) {
                check_packed_lands(&p, &mut keys);
                for m in p.moves() {
                    check_packed_lands(&p.play(&m).unwrap(), &mut keys);
                }
            }
        }
        assert!(keys.0.len() > 1000, "{}", keys.0.len());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// Random games from 1 to 14 seeds: the same as the exhaustive test.
        #[test]
        fn packed_lands_match_the_shape(
            n in 1u32..=14,
            choices in prop::collection::vec(any::<u16>(), 0..40),
        ) {
            let mut keys = Default::default();
            for p in crate::random_game(n, &choices) {
                check_packed_lands(&p, &mut keys);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// The shortcuts (bags with one reading, pieces of one unlabelled boundary, batches with
        /// one reading) write exactly what the full comparison writes.
        #[test]
        fn shortcuts_change_no_form(
            n in 1u32..=12,
            choices in prop::collection::vec(any::<u16>(), 0..30),
        ) {
            let p = played(n, &choices);
            with_and_without_shortcuts(&p);
            for child in p.moves().take(40) {
                with_and_without_shortcuts(&p.play(&child).unwrap());
            }
        }
    }

    /// Lands of one region are written straight from their code: the same text as decoding,
    /// with compact and extended letters.
    #[test]
    fn single_regions_written_directly() {
        let letters = "abcdefghijklmnopqrstuvwxyz";
        let mut cases: Vec<String> = vec![
            "0".into(),
            "0*3".into(),
            "0*2.2.0*3.12".into(),
            "22".into(),
            "0.1a1a".into(),
            "0.1a2a1b1b".into(),
        ];
        for n in [11, 12, 13, 14] {
            // Letters past `l` are written `m(k)`.
            let letter = |k: usize| {
                if k < 12 {
                    letters[k..=k].to_string()
                } else {
                    format!("m({})", k + 1)
                }
            };
            let mut p: Vec<String> = (0..n)
                .map(|k| format!("1{}1{}", letter(k), letter(k)))
                .collect();
            p.push("0*2".into());
            cases.push(p.join("."));
        }
        for text in &cases {
            let p = Position::parse_glop(text).unwrap();
            with_and_without_shortcuts(&p);
            let form = p.canonical();
            assert_eq!(
                Position::parse_glop(form.as_str()).unwrap().canonical(),
                form
            );
        }
        let p = Position::parse_glop(&cases[cases.len() - 1]).unwrap();
        assert!(
            p.canonical().as_str().contains("m(14)"),
            "{}",
            p.canonical()
        );
    }

    /// Lands whose piece has starts known to write one code (an ordinary boundary with a bag
    /// of the same labels, two bags of the same labels at the root, two ordinary boundaries of
    /// the same labels in the same or the reverse cyclic order), and some near them that do
    /// not fit: the same forms and the
    /// same exactness as when every start is walked, down to budgets that run out, and the same
    /// forms as the reference.
    #[test]
    fn equal_starts_skipped_as_if_walked() {
        let lands = [
            "AB|AB",
            "0.AB|AB",
            "2AB|AB",
            "2AB|2AB",
            "0.ABC|ABC",
            "0.A2B|AB",
            "0.AB2|AB",
            "0.AB|0.AB",
            "0.AB.0|AB",
            "0.AB|AB+0.CD|CD",
            "1a1a.AB|AB",
            "0.AB|ABC|0.C",
            "0.AB|0.BA",
            "0.ABC|0.CBA",
            "0.ABC|0.ABC",
            "0.ABCD|0.DCBA",
            "0.ABCD|0.BADC",
            "0.ABCD|0.ACBD",
            "1a1a.ABC|0.CBA",
            "0.AB.1a1a|0.BA.1b1b",
            "0.AB|ABC|CDE|0.DE",
            "AB.CD|AB|CDE|EFG|0.FG",
            "0.AB|ABC|CDE|0.ED.2",
        ];
        let mut fast = Canonicalizer::new();
        let mut slow = Canonicalizer::new();
        fast.remember_small_lands(false);
        slow.remember_small_lands(false);
        slow.tree.walk_equal_starts = true;
        let (mut a, mut b) = (String::new(), String::new());
        for text in lands {
            let p = Position::parse_glop(text).unwrap();
            with_and_without_shortcuts(&p);
            for budget in (0..64).chain([DEFAULT_BUDGET]) {
                for r in [Reductions::Glop, Reductions::Plain] {
                    let ea = fast.canonical_into(&p, r, budget, &mut a);
                    let eb = slow.canonical_into(&p, r, budget, &mut b);
                    assert_eq!((&a, ea), (&b, eb), "{text} {r:?} {budget}");
                }
            }
        }
    }

    #[track_caller]
    fn canon(s: &str) -> String {
        Position::parse_glop(s).unwrap().canonical().into_string()
    }

    #[test]
    fn simple_forms() {
        assert_eq!(canon("0*4"), "0*4");
        assert_eq!(canon("0*2.1a1a"), "0*2.1a1a");
        assert_eq!(canon("1a1a.0*2"), "0*2.1a1a");
        assert_eq!(canon("!"), "!");
        assert_eq!(canon("2"), "!");
        assert_eq!(canon("0+0"), "0+0");
    }

    #[test]
    fn relabelled_rotated_and_mirrored_forms_agree() {
        let a = canon("0.1a1a.AB|AB");
        assert_eq!(canon("BA|1a1a.BA.0"), a);
        assert_eq!(canon("AB|0.a1a1.AB"), a);
        let b = canon("0*22.1a1a.ABC.DE|0*9.DE|0*2.1abABCba");
        // Mirror image: every boundary reversed.
        assert_eq!(canon("0*22.a1a1.CBA.ED|0*9.ED|0*2.abCBAba1"), b);
    }

    #[test]
    fn lands_are_split_and_sorted() {
        let p = Position::parse_glop("12.AB|AB+0.2ABC|0.1ab1bc2ca.ACB").unwrap();
        let c = p.canonical();
        assert_eq!(c.lands().count(), 2);
        assert_eq!(p.lands().len(), 2);
        let q = Position::parse_glop("0.2ABC|0.1ab1bc2ca.ACB+12.AB|AB").unwrap();
        assert_eq!(q.canonical(), c);
    }
}
