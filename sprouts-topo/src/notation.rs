//! GLOP notation: reading and writing positions as Lemoine and Viennot's GLOP writes them.
//!
//! A position is written as lands separated by `+`, a land as regions separated by `|`, a region
//! as boundaries separated by `.`, a boundary as its spots in order:
//!
//! * `0` a spot with 3 lives (always a boundary of its own), `1` a spot with 2 lives;
//! * a letter for a spot with 1 life met twice: upper case (`A`..`Y`, then `Z(26)`, `Z(27)`, ...)
//!   when the two corners are in two regions, lower case (`a`..`l`, then `m(13)`, ...) when both
//!   are in one region. Upper-case letters are named per land, lower-case letters per region,
//!   each in order of first appearance;
//! * `2` a spot with 1 life met only once (its other corner was in a region that was dropped);
//! * `3` a spot with no life (GLOP reads it; canonical forms drop stumps);
//! * `0*n` stands for `n` boundaries `0` in a row (`n >= 2` when written);
//! * the empty position is `!`, and a final `!` is accepted after any position.
//!
//! Within a region every boundary is read with the region on its left: GLOP's "outer boundary
//! counter-clockwise, the others clockwise". Reversing every boundary (the mirror image) is the
//! same game; reversing one alone is not.
//!
//! GLOP 1.0 wrote terminators instead of separators (`.` ends a boundary, `}` a region, `]` a land,
//! `!` the position: `12.AB.}AB.}]0.2ABC.}0.1ab1bc2ca.ACB.}]!`); [`parse`] reads that too. GLOP's
//! letters `o`..`z` for a spot met on two boundaries of one region occur only on other surfaces
//! than the sphere; they are read, and rejected by the position's rules.
//!
//! # Reading what SPOTS writes
//!
//! Čížek, Balko and Schmid's SPOTS writes the same notation with two differences, and [`parse`]
//! reads both:
//!
//! * SPOTS names lower-case letters per *boundary*, restarting at `a` on every boundary, so one
//!   region may hold two different spots both written `a` (`1a1a.1a2a`). The reader therefore
//!   pairs a lower-case letter's two occurrences within its boundary. This reads GLOP's letters
//!   too: the two corners of a 1-life spot met twice in one region always lie on one boundary (a
//!   spot lies on one connected piece of the drawing, and a region meets each piece along one
//!   boundary), so a letter that GLOP names once per region is met twice on one boundary. A
//!   lower-case letter met once, or three or more times, in its boundary cannot be paired and
//!   is an error naming it and where it is.
//! * Past the 25 compact upper-case letters SPOTS writes `n(26)`, `n(27)`, ... where GLOP
//!   writes `Z(26)`, ...; the reader takes `n(k)` as the upper-case letter `Z(k)`. (GLOP's own
//!   `n(k)`, the extended form of `o`..`z`, occurs only on other surfaces.)
//!
//! [`write()`] writes letters GLOP's way, which both programs read; [`write_spots`] writes them
//! SPOTS's way.
//!
//! References: J. Lemoine, S. Viennot, GLOP manual 2.2 (sprouts.tuxfamily.org); D. Applegate,
//! G. Jacobson, D. Sleator, "Computer Analysis of Sprouts", CMU-CS-91-144, 1991.

use rustc_hash::FxHashMap;
use thiserror::Error;

use crate::position::Position;
use crate::setup::{SetupProblem, validate};
use crate::spot::SpotId;

/// Letters `a`..`l` are the compact lower-case letters; more use `m(k)`.
pub(crate) const COMPACT_LOWER: u32 = 12;
/// Letters `A`..`Y` are the compact upper-case letters; more use `Z(k)`.
const COMPACT_UPPER: u32 = 25;

/// Why a text is not a position in GLOP notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("at byte {offset}: {kind}")]
pub struct ParseError {
    offset: usize,
    kind: ParseErrorKind,
}

impl ParseError {
    /// The byte offset in the text where the problem was found.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What was wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }
}

/// What was wrong with a text in GLOP notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Something else was expected here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What was expected.
        expected: &'static str,
        /// What was found (a character, or "the end").
        found: String,
    },
    /// A count is zero or too large.
    #[error("the count {0} is not a count of spots or letters")]
    BadCount(String),
    /// `0*n` was written inside a boundary.
    #[error("`0*n` stands for whole boundaries and must be one on its own")]
    ZerosInsideBoundary,
    /// Topology markers (other surfaces than the sphere) are not supported.
    #[error("positions on other surfaces than the sphere are not supported")]
    Surface,
    /// A letter is not met exactly twice in its scope.
    #[error(
        "letter {letter} is met {count} time(s) in its {scope}; a letter names a 1-life spot met twice (write `2` for one met once)"
    )]
    LetterCount {
        /// The letter as written.
        letter: String,
        /// How often it is met.
        count: usize,
        /// "boundary" for lower-case letters, "region" for GLOP's other-surface letters
        /// `o`..`z`, "land" for upper-case ones.
        scope: &'static str,
    },
    /// The text describes no position: it breaks a rule every position keeps.
    #[error("{0}")]
    Invalid(SetupProblem),
}

/// A spot as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sym {
    /// `0`, `1`, `2` or `3`.
    Digit(u8),
    /// A letter: its kind (0 for `a`..`l`/`m(k)`, 1 for `z`..`o`, 2 for `A`..`Y`/`Z(k)`/`n(k)`)
    /// and its 1-based number.
    Letter(u8, u32),
}

#[derive(Clone, Debug)]
struct Written {
    /// Per symbol: the symbol and its byte offset.
    syms: Vec<(Sym, usize)>,
    /// Boundary ends (exclusive) into `syms`.
    bnd: Vec<usize>,
    /// Region ends into `bnd`.
    reg: Vec<usize>,
    /// Land ends into `reg`.
    land: Vec<usize>,
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    out: Written,
}

fn describe(c: Option<u8>) -> String {
    match c {
        None => "the end".to_string(),
        Some(c) if c.is_ascii_graphic() => format!("`{}`", c as char),
        Some(c) => format!("byte 0x{c:02x}"),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn err(&self, expected: &'static str) -> ParseError {
        ParseError {
            offset: self.i,
            kind: ParseErrorKind::Expected {
                expected,
                found: describe(self.peek()),
            },
        }
    }

    fn number(&mut self) -> Result<u32, ParseError> {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        if start == self.i {
            return Err(self.err("a number"));
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).expect("digits are ASCII");
        match text.parse::<u32>() {
            Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
            _ => Err(ParseError {
                offset: start,
                kind: ParseErrorKind::BadCount(text.to_string()),
            }),
        }
    }

    /// One spot, or `None` if the next byte does not start one.
    fn symbol(&mut self) -> Result<Option<Sym>, ParseError> {
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let sym = match c {
            b'0'..=b'3' => Sym::Digit(c - b'0'),
            b'a'..=b'l' => Sym::Letter(0, u32::from(c - b'a') + 1),
            b'o'..=b'z' => Sym::Letter(1, u32::from(b'z' - c) + 1),
            b'A'..=b'Y' => Sym::Letter(2, u32::from(c - b'A') + 1),
            b'm' | b'n' | b'Z' => {
                self.i += 1;
                if self.peek() != Some(b'(') {
                    return Err(self.err("`(` after an extended letter"));
                }
                self.i += 1;
                let n = self.number()?;
                if self.peek() != Some(b')') {
                    return Err(self.err("`)`"));
                }
                self.i += 1;
                // `n(k)` is SPOTS's extended upper-case letter (see the module documentation).
                let kind = if c == b'm' { 0 } else { 2 };
                return Ok(Some(Sym::Letter(kind, n)));
            }
            b'@' | b'{' => {
                return Err(ParseError {
                    offset: self.i,
                    kind: ParseErrorKind::Surface,
                });
            }
            _ => return Ok(None),
        };
        self.i += 1;
        Ok(Some(sym))
    }

    /// A boundary (GLOP 2: up to a separator), or `0*n` boundaries.
    fn boundary(&mut self) -> Result<(), ParseError> {
        if self.peek() == Some(b'0') && self.s.get(self.i + 1) == Some(&b'*') {
            let at = self.i;
            self.i += 2;
            let n = self.number()?;
            for _ in 0..n {
                self.out.syms.push((Sym::Digit(0), at));
                self.out.bnd.push(self.out.syms.len());
            }
            return Ok(());
        }
        let start = self.out.syms.len();
        loop {
            let at = self.i;
            if self.peek() == Some(b'0') && self.s.get(self.i + 1) == Some(&b'*') {
                return Err(ParseError {
                    offset: at,
                    kind: ParseErrorKind::ZerosInsideBoundary,
                });
            }
            match self.symbol()? {
                Some(sym) => self.out.syms.push((sym, at)),
                None => break,
            }
        }
        if self.out.syms.len() == start {
            return Err(self.err("a spot (`0`, `1`, `2`, `3` or a letter)"));
        }
        self.out.bnd.push(self.out.syms.len());
        Ok(())
    }

    fn glop2(&mut self) -> Result<(), ParseError> {
        if self.peek() == Some(b'!') {
            self.i += 1;
            return self.end();
        }
        loop {
            // A land.
            loop {
                // A region.
                loop {
                    self.boundary()?;
                    if self.peek() == Some(b'.') {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                self.out.reg.push(self.out.bnd.len() - 1);
                if self.peek() == Some(b'|') {
                    self.i += 1;
                } else {
                    break;
                }
            }
            self.out.land.push(self.out.reg.len() - 1);
            match self.peek() {
                Some(b'+') => self.i += 1,
                Some(b'!') => {
                    self.i += 1;
                    return self.end();
                }
                None => return Ok(()),
                _ => return Err(self.err("`.`, `|`, `+`, `!` or the end")),
            }
        }
    }

    fn glop1(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                None => return Ok(()),
                Some(b'!') => {
                    self.i += 1;
                    return self.end();
                }
                _ => {}
            }
            // A land: regions up to `]`.
            loop {
                // A region: boundaries each ended by `.`, up to `}`.
                loop {
                    let start = self.out.syms.len();
                    loop {
                        let at = self.i;
                        match self.symbol()? {
                            Some(sym) => self.out.syms.push((sym, at)),
                            None => break,
                        }
                    }
                    if self.out.syms.len() == start {
                        return Err(self.err("a spot (`0`, `1`, `2`, `3` or a letter)"));
                    }
                    if self.peek() != Some(b'.') {
                        return Err(self.err("`.` ending the boundary"));
                    }
                    self.i += 1;
                    self.out.bnd.push(self.out.syms.len());
                    if self.peek() == Some(b'}') {
                        self.i += 1;
                        break;
                    }
                }
                self.out.reg.push(self.out.bnd.len() - 1);
                if self.peek() == Some(b']') {
                    self.i += 1;
                    break;
                }
            }
            self.out.land.push(self.out.reg.len() - 1);
        }
    }

    fn end(&self) -> Result<(), ParseError> {
        if self.i == self.s.len() {
            Ok(())
        } else {
            Err(self.err("the end after `!`"))
        }
    }
}

/// Reads a position written in GLOP notation (GLOP 2 separators, or GLOP 1.0 terminators).
///
/// Spots are numbered `1, 2, ...` in order of first appearance, after regions are grouped by
/// independent land (as [`write()`] groups them), so that writing the result gives back a text that
/// reads as the same position.
///
/// # Errors
///
/// The byte offset of the first problem and what was expected there, or the rule the described
/// position breaks.
///
/// # Examples
///
/// ```
/// use sprouts_topo::notation;
/// let p = notation::parse("0.1a1a.AB|AB").unwrap();
/// assert_eq!(p.region_count(), 2);
/// assert_eq!(notation::write(&p), "0.1a1a.AB|AB");
/// let old = notation::parse("12.AB.}AB.}]0.2ABC.}0.1ab1bc2ca.ACB.}]!").unwrap();
/// assert_eq!(old.to_glop(), "12.AB|AB+0.2ABC|0.1ab1bc2ca.ACB");
/// let err = notation::parse("0.1a1a?").unwrap_err();
/// assert_eq!(err.offset(), 6);
/// ```
pub fn parse(text: &str) -> Result<Position, ParseError> {
    let trimmed_start = text.len() - text.trim_start().len();
    let body = text.trim();
    let mut p = Parser {
        s: body.as_bytes(),
        i: 0,
        out: Written {
            syms: Vec::new(),
            bnd: vec![0],
            reg: vec![0],
            land: vec![0],
        },
    };
    let old = body.bytes().any(|c| c == b'}' || c == b']');
    let res = if old { p.glop1() } else { p.glop2() };
    res.map_err(|mut e| {
        e.offset += trimmed_start;
        e
    })?;
    build(&p.out).map_err(|mut e| {
        e.offset += trimmed_start;
        e
    })
}

fn letter_text(kind: u8, n: u32) -> String {
    match kind {
        0 if n <= COMPACT_LOWER => ((b'a' + (n - 1) as u8) as char).to_string(),
        0 => format!("m({n})"),
        1 if n <= 12 => ((b'z' - (n - 1) as u8) as char).to_string(),
        1 => format!("n({n})"),
        _ if n <= COMPACT_UPPER => ((b'A' + (n - 1) as u8) as char).to_string(),
        _ => format!("Z({n})"),
    }
}

/// Resolves letters, groups regions by land, numbers the spots and checks the position.
fn build(w: &Written) -> Result<Position, ParseError> {
    let n_regions = w.reg.len() - 1;
    // The land (as written) of every region.
    let mut written_land = vec![0usize; n_regions];
    for l in 0..w.land.len() - 1 {
        for r in w.land[l]..w.land[l + 1] {
            written_land[r] = l;
        }
    }
    // Letters: key (kind, number, scope) -> occurrences (region, symbol index). Lower-case
    // letters are paired within their boundary, GLOP's other-surface letters within their
    // region, upper-case letters within their land (see the module documentation).
    let mut letters: FxHashMap<(u8, u32, usize), Vec<(usize, usize)>> = FxHashMap::default();
    for r in 0..n_regions {
        for b in w.reg[r]..w.reg[r + 1] {
            for k in w.bnd[b]..w.bnd[b + 1] {
                if let (Sym::Letter(kind, n), _) = w.syms[k] {
                    let scope = match kind {
                        0 => b,
                        1 => r,
                        _ => written_land[r],
                    };
                    letters.entry((kind, n, scope)).or_default().push((r, k));
                }
            }
        }
    }
    let mut bad: Vec<_> = letters.iter().filter(|(_, occ)| occ.len() != 2).collect();
    bad.sort_unstable_by_key(|(_, occ)| occ[0].1);
    if let Some(((kind, n, _), occ)) = bad.first() {
        return Err(ParseError {
            offset: w.syms[occ[0].1].1,
            kind: ParseErrorKind::LetterCount {
                letter: letter_text(*kind, *n),
                count: occ.len(),
                scope: match kind {
                    0 => "boundary",
                    1 => "region",
                    _ => "land",
                },
            },
        });
    }
    // The partner symbol of every letter occurrence.
    let mut partner = vec![usize::MAX; w.syms.len()];
    for occ in letters.values() {
        partner[occ[0].1] = occ[1].1;
        partner[occ[1].1] = occ[0].1;
    }
    // Independent lands: regions linked by letters met in two regions.
    let mut uf = crate::setup::UnionFind::new(n_regions);
    for occ in letters.values() {
        uf.union(occ[0].0 as u32, occ[1].0 as u32);
    }
    let mut order: Vec<usize> = (0..n_regions).collect();
    let mut first_of_land = vec![usize::MAX; n_regions];
    for r in 0..n_regions {
        let root = uf.find(r as u32) as usize;
        if first_of_land[root] == usize::MAX {
            first_of_land[root] = r;
        }
    }
    order.sort_by_key(|&r| first_of_land[uf.find(r as u32) as usize]);
    // Number the spots in order of first appearance.
    let mut spot_of = vec![0u32; w.syms.len()];
    let mut pos = Position::empty_with_next(SpotId::new(1).expect("1 is not zero"));
    let mut next = 1u32;
    let mut corners: Vec<SpotId> = Vec::new();
    for &r in &order {
        for b in w.reg[r]..w.reg[r + 1] {
            corners.clear();
            for k in w.bnd[b]..w.bnd[b + 1] {
                let id = if partner[k] != usize::MAX && spot_of[partner[k]] != 0 {
                    spot_of[partner[k]]
                } else {
                    let id = next;
                    next += 1;
                    let lives = match w.syms[k].0 {
                        Sym::Digit(d) => 3 - d,
                        Sym::Letter(..) => 1,
                    };
                    pos.set_lives(SpotId::new(id).expect("ids start at 1"), lives);
                    id
                };
                spot_of[k] = id;
                corners.push(SpotId::new(id).expect("ids start at 1"));
            }
            pos.push_boundary(&corners);
        }
        pos.finish_region();
    }
    pos.next = SpotId::new(next).expect("next is not zero");
    let problems: Vec<_> = validate(&pos, false)
        .into_iter()
        .filter(|p| !p.is_incompleteness())
        .collect();
    if let Some(problem) = problems.into_iter().next() {
        // Point at the first corner of the spot or region the problem names.
        let offset = problem_offset(&problem, w, &spot_of, &order);
        return Err(ParseError {
            offset,
            kind: ParseErrorKind::Invalid(problem),
        });
    }
    Ok(pos)
}

fn problem_offset(problem: &SetupProblem, w: &Written, spot_of: &[u32], order: &[usize]) -> usize {
    let spot = match problem {
        SetupProblem::TooManyCorners { spot, .. }
        | SetupProblem::SeedNotAlone { spot }
        | SetupProblem::SpotOnTwoBoundaries { spot, .. } => Some(spot.get()),
        _ => None,
    };
    if let Some(id) = spot
        && let Some(k) = spot_of.iter().position(|&s| s == id)
    {
        return w.syms[k].1;
    }
    let region = match problem {
        SetupProblem::RegionsNotNested { region } | SetupProblem::EmptyRegion { region } => {
            Some(*region)
        }
        _ => None,
    };
    if let Some(r) = region
        && let Some(&written) = order.get(r)
        && let Some(&(_, off)) = w.syms.get(w.bnd[w.reg[written]])
    {
        return off;
    }
    0
}

/// A spot as the writer sees it: `0`..`3` for spots written by their lives, or `LABEL + i` for
/// the `i`-th letter (a 1-life spot met twice).
pub(crate) const LABEL: u32 = 4;

/// Scratch space for [`write_lands`]: what is known of each label (one record per label, so that
/// one table is reset per call and one lookup finds all).
#[derive(Default)]
pub(crate) struct WriteScratch {
    labels: Vec<LabelState>,
}

/// What [`write_lands`] knows of a label.
#[derive(Clone, Copy)]
struct LabelState {
    /// The first region it is met in, or `u32::MAX`.
    first_region: u32,
    /// Its number among the letters of its case once written (from 1), or 0.
    name: u32,
    /// Whether it is met again in its first region (a lower-case letter).
    lower: bool,
}

impl LabelState {
    const FRESH: LabelState = LabelState {
        first_region: u32::MAX,
        name: 0,
        lower: false,
    };
}

/// Writes lands in GLOP notation into `out` (the empty position is `!`): land `l` is the regions
/// `land[l]..land[l + 1]`, region `r` the boundaries `reg[r]..reg[r + 1]`, and boundary `b` the
/// tokens `boundary(b)` (see [`LABEL`]; `labels` distinct labels).
pub(crate) fn write_lands<'t>(
    land: &[u32],
    reg: &[u32],
    labels: usize,
    boundary: impl Fn(usize) -> &'t [u32],
    scratch: &mut WriteScratch,
    out: &mut String,
) {
    write_lands_styled::<false>(land, reg, labels, boundary, scratch, out);
}

/// [`write_lands`], with letters named GLOP's way (`SPOTS == false`) or SPOTS's way (lower-case
/// letters restarted on every boundary, extended upper-case letters written `n(k)`).
fn write_lands_styled<'t, const SPOTS: bool>(
    land: &[u32],
    reg: &[u32],
    labels: usize,
    boundary: impl Fn(usize) -> &'t [u32],
    scratch: &mut WriteScratch,
    out: &mut String,
) {
    let n_lands = land.len() - 1;
    if n_lands == 0 {
        out.push('!');
        return;
    }
    scratch.labels.clear();
    scratch.labels.resize(labels, LabelState::FRESH);
    let states = scratch.labels.as_mut_slice();
    // Which letters are lower case, and how many letters of each case are needed.
    let mut max_lower = 0u32;
    let mut max_upper = 0u32;
    // (Nothing to count without labels.)
    for l in 0..if labels == 0 { 0 } else { n_lands } {
        let mut upper = 0u32;
        for r in land[l]..land[l + 1] {
            let mut lower = 0u32;
            for b in reg[r as usize]..reg[r as usize + 1] {
                for &t in boundary(b as usize) {
                    if t >= LABEL {
                        let st = &mut states[(t - LABEL) as usize];
                        if st.first_region == u32::MAX {
                            st.first_region = r;
                            upper += 1;
                        } else if st.first_region == r && !st.lower {
                            // Met again in its first region: a lower-case letter (counted once,
                            // however often it is met, so `upper` cannot go below zero).
                            st.lower = true;
                            lower += 1;
                            upper -= 1;
                        }
                    }
                }
            }
            max_lower = max_lower.max(lower);
        }
        max_upper = max_upper.max(upper);
    }
    let ext_lower = max_lower > COMPACT_LOWER;
    let ext_upper = max_upper > COMPACT_UPPER;
    write_named::<SPOTS>(land, reg, boundary, states, ext_lower, ext_upper, out);
}

/// [`write_lands`] for lands whose letters' cases are known, and few enough to need no extended
/// names: `lower[i]` says whether label `i` is met twice in one region (and `lower.len()` is the
/// number of labels, at most [`COMPACT_LOWER`]). The pass that works the cases out is skipped.
pub(crate) fn write_lands_cased<'t>(
    land: &[u32],
    reg: &[u32],
    lower: &[bool],
    boundary: impl Fn(usize) -> &'t [u32],
    scratch: &mut WriteScratch,
    out: &mut String,
) {
    debug_assert!(lower.len() <= COMPACT_LOWER as usize);
    if land.len() == 1 {
        out.push('!');
        return;
    }
    scratch.labels.clear();
    scratch.labels.extend(lower.iter().map(|&lower| LabelState {
        lower,
        ..LabelState::FRESH
    }));
    write_named::<false>(land, reg, boundary, &mut scratch.labels, false, false, out);
}

/// The writing pass of [`write_lands`], the labels' cases known: names letters in order of first
/// appearance (upper case per land, lower case per region, or per boundary when `SPOTS`) as it
/// writes them.
#[inline(always)]
fn write_named<'t, const SPOTS: bool>(
    land: &[u32],
    reg: &[u32],
    boundary: impl Fn(usize) -> &'t [u32],
    states: &mut [LabelState],
    ext_lower: bool,
    ext_upper: bool,
    out: &mut String,
) {
    let n_lands = land.len() - 1;
    for l in 0..n_lands {
        if l > 0 {
            out.push('+');
        }
        let mut next_upper = 0u32;
        for r in land[l]..land[l + 1] {
            if r > land[l] {
                out.push('|');
            }
            let mut next_lower = 0u32;
            let (bs, be) = (reg[r as usize] as usize, reg[r as usize + 1] as usize);
            let mut b = bs;
            let mut first = true;
            while b < be {
                let toks = boundary(b);
                if SPOTS {
                    next_lower = 0;
                }
                if !first {
                    out.push('.');
                }
                first = false;
                if toks == [0] {
                    // A run of lone seeds.
                    let mut run = 1;
                    while b + run < be && boundary(b + run) == [0] {
                        run += 1;
                    }
                    if run >= 2 {
                        out.push_str("0*");
                        push_number(out, run as u32);
                    } else {
                        out.push('0');
                    }
                    b += run;
                    continue;
                }
                for &t in toks {
                    if t < LABEL {
                        out.push((b'0' + t as u8) as char);
                        continue;
                    }
                    let st = &mut states[(t - LABEL) as usize];
                    if st.name == 0 {
                        // Named in order of first appearance.
                        if st.lower {
                            next_lower += 1;
                            st.name = next_lower;
                        } else {
                            next_upper += 1;
                            st.name = next_upper;
                        }
                    }
                    if st.lower {
                        push_letter(out, b'a', b'm', st.name, ext_lower);
                    } else {
                        let ext = if SPOTS { b'n' } else { b'Z' };
                        push_letter(out, b'A', ext, st.name, ext_upper);
                    }
                }
                b += 1;
            }
        }
    }
}

pub(crate) fn push_number(out: &mut String, n: u32) {
    // Decimal digits, most significant first (without the formatting machinery: hot in
    // canonical forms).
    let mut digits = [0u8; 10];
    let mut k = digits.len();
    let mut n = n;
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[k..] {
        out.push(d as char);
    }
}

pub(crate) fn push_letter(out: &mut String, first: u8, ext: u8, n: u32, extended: bool) {
    if extended {
        out.push(ext as char);
        out.push('(');
        push_number(out, n);
        out.push(')');
    } else {
        out.push((first + (n - 1) as u8) as char);
    }
}

/// Writes a position in GLOP notation.
///
/// Regions are grouped by independent land (lands in order of their first region, regions in
/// their order within a land); within a region the boundaries keep their order and rotation.
/// Letters are named in order of first appearance (upper case per land, lower case per region),
/// runs of two or more lone seeds are written `0*n`, stumps `3`, and the empty position `!`.
/// Nothing is dropped or reduced: see [`Position::canonical`] for that.
pub fn write(pos: &Position) -> String {
    write_styled::<false>(pos)
}

/// Writes a position as SPOTS writes it: as [`write()`] does, except that lower-case letters are
/// named afresh on every boundary (`1a1a.1a2a`) and upper-case letters past `Y` are written
/// `n(26)`, `n(27)`, ... [`parse`] reads the text back as the same position.
///
/// # Examples
///
/// ```
/// use sprouts_topo::notation;
/// let p = notation::parse("0.1a1a.1b2b").unwrap();
/// assert_eq!(notation::write_spots(&p), "0.1a1a.1a2a");
/// assert_eq!(notation::parse("0.1a1a.1a2a").unwrap(), p);
/// ```
pub fn write_spots(pos: &Position) -> String {
    write_styled::<true>(pos)
}

/// [`write()`] or [`write_spots`].
fn write_styled<const SPOTS: bool>(pos: &Position) -> String {
    let occ = pos.occurrences();
    // Letters: spots with one life met twice.
    let mut label = vec![u32::MAX; pos.lives.len()];
    let mut labels = 0u32;
    for (i, &l) in pos.lives.iter().enumerate() {
        if l == 1 && occ[i] == 2 {
            label[i] = labels;
            labels += 1;
        }
    }
    // Lands: regions linked by a letter.
    let nr = pos.region_count();
    let mut uf = crate::setup::UnionFind::new(nr);
    let mut seen = vec![u32::MAX; pos.lives.len()];
    for r in 0..nr {
        let (bs, be) = pos.region_bounds(r);
        for b in bs..be {
            for &c in pos.boundary_slice(b) {
                if label[c.index()] != u32::MAX {
                    if seen[c.index()] == u32::MAX {
                        seen[c.index()] = r as u32;
                    } else {
                        uf.union(seen[c.index()], r as u32);
                    }
                }
            }
        }
    }
    let mut first_of_land = vec![usize::MAX; nr];
    for r in 0..nr {
        let root = uf.find(r as u32) as usize;
        if first_of_land[root] == usize::MAX {
            first_of_land[root] = r;
        }
    }
    let mut order: Vec<usize> = (0..nr).collect();
    order.sort_by_key(|&r| first_of_land[uf.find(r as u32) as usize]);
    let mut toks = Vec::with_capacity(pos.corners.len());
    let mut bnd = vec![0u32];
    let mut reg = vec![0u32];
    let mut land = vec![0u32];
    for (k, &r) in order.iter().enumerate() {
        if k > 0 && uf.find(r as u32) != uf.find(order[k - 1] as u32) {
            land.push(reg.len() as u32 - 1);
        }
        let (bs, be) = pos.region_bounds(r);
        for b in bs..be {
            for &c in pos.boundary_slice(b) {
                let l = pos.lives_at(c);
                let t = if label[c.index()] != u32::MAX {
                    LABEL + label[c.index()]
                } else {
                    u32::from(3 - l)
                };
                toks.push(t);
            }
            bnd.push(toks.len() as u32);
        }
        reg.push(bnd.len() as u32 - 1);
    }
    if nr > 0 {
        land.push(reg.len() as u32 - 1);
    }
    let mut out = String::new();
    write_lands_styled::<SPOTS>(
        &land,
        &reg,
        labels as usize,
        |b| &toks[bnd[b] as usize..bnd[b + 1] as usize],
        &mut WriteScratch::default(),
        &mut out,
    );
    out
}

impl Position {
    /// Reads a position in GLOP notation; see [`notation::parse`](parse).
    ///
    /// # Errors
    ///
    /// See [`notation::parse`](parse).
    pub fn parse_glop(text: &str) -> Result<Position, ParseError> {
        parse(text)
    }

    /// Writes the position in GLOP notation; see [`notation::write`](write()).
    pub fn to_glop(&self) -> String {
        write(self)
    }
}

impl std::str::FromStr for Position {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Position, ParseError> {
        parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn roundtrip(s: &str) {
        let p = parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        p.check_invariants().unwrap();
        assert_eq!(write(&p), s);
        assert_eq!(parse(&write(&p)).unwrap(), p);
    }

    /// A letter met three times in one region (no valid position has one: a 1-life spot has two
    /// corners) is still written as one lower-case letter, and the count of upper-case letters
    /// does not wrap below zero.
    #[test]
    fn letter_met_three_times_in_a_region_is_lower_case() {
        let toks: [&[u32]; 2] = [&[LABEL, LABEL, 1], &[LABEL, LABEL + 1, 2, LABEL + 1]];
        let mut out = String::new();
        write_lands(
            &[0, 1],
            &[0, 2],
            2,
            |b| toks[b],
            &mut WriteScratch::default(),
            &mut out,
        );
        assert_eq!(out, "aa1.ab2b");
    }

    #[track_caller]
    fn fails_at(s: &str, offset: usize) {
        let e = parse(s).expect_err(s);
        assert_eq!(e.offset(), offset, "{s}: {e}");
    }

    #[test]
    fn oracle_examples_round_trip() {
        for s in [
            "0*4",
            "0*2.1a1a",
            "0.1a1a.AB|AB",
            "0*22.1a1a.ABC.DE|0*9.DE|0*2.1abABCba",
            "12.AB|AB+0.2ABC|0.1ab1bc2ca.ACB",
            "0*8.AB|0*3.AB",
            "0*4.A|0*4.A+0*3",
            "0*4.A|0*4.A+0*2.AB|AB",
            "0*4.A|0*4.A+0.1a2a",
            "!",
            "0",
        ] {
            roundtrip(s);
        }
    }

    #[test]
    fn shorthand_and_terminators() {
        assert_eq!(write(&parse("0.0.0").unwrap()), "0*3");
        assert_eq!(write(&parse("0*1").unwrap()), "0");
        assert_eq!(write(&parse("0*2.1a1a!").unwrap()), "0*2.1a1a");
        assert_eq!(
            write(&parse("12.AB.}AB.}]0.2ABC.}0.1ab1bc2ca.ACB.}]!").unwrap()),
            "12.AB|AB+0.2ABC|0.1ab1bc2ca.ACB"
        );
        assert_eq!(write(&parse("  0*3\n").unwrap()), "0*3");
        // Independent regions written with `|` are written as lands.
        assert_eq!(write(&parse("0|0").unwrap()), "0+0");
        assert_eq!(write(&parse("AB|0|AB").unwrap()), "AB|AB+0");
    }

    #[test]
    fn extended_letters() {
        let p = parse("Z(1)Z(2)|Z(1)Z(2)").unwrap();
        assert_eq!(write(&p), "AB|AB");
        let p = parse("m(1)2m(1)").unwrap();
        assert_eq!(write(&p), "a2a");
    }

    #[test]
    fn errors_say_where() {
        fails_at("", 0);
        fails_at("0.", 2);
        fails_at("0..0", 2);
        fails_at("0*0", 2);
        fails_at("1A", 1);
        fails_at("A.0|0", 0);
        fails_at("10*2", 1);
        fails_at("0!0", 2);
        fails_at("0@1", 1);
        fails_at("0.0}", 3);
        fails_at("x", 0);
        fails_at("  1?", 3);
        // A seed inside a longer boundary.
        assert!(matches!(
            parse("01").unwrap_err().kind(),
            ParseErrorKind::Invalid(_)
        ));
        // A lower-case letter on two boundaries of one region: met once in each boundary.
        fails_at("aA.aA", 0);
        assert!(matches!(
            parse("aA.aA").unwrap_err().kind(),
            ParseErrorKind::LetterCount {
                count: 1,
                scope: "boundary",
                ..
            }
        ));
    }

    #[track_caller]
    fn letter_count_at(s: &str, offset: usize, letter: &str, count: usize, scope: &str) {
        let e = parse(s).expect_err(s);
        assert_eq!(e.offset(), offset, "{s}: {e}");
        match e.kind() {
            ParseErrorKind::LetterCount {
                letter: l,
                count: c,
                scope: sc,
            } => assert_eq!((l.as_str(), *c, *sc), (letter, count, scope), "{s}: {e}"),
            other => panic!("{s}: {other}"),
        }
    }

    /// SPOTS restarts lower-case letters on every boundary: two spots written `a` in one region
    /// are two spots, each met twice on its own boundary.
    #[test]
    fn lower_case_letters_are_paired_per_boundary() {
        let spots = parse("0.1a1a.1a2a").unwrap();
        let glop = parse("0.1a1a.1b2b").unwrap();
        assert_eq!(spots, glop);
        assert_eq!(write(&spots), "0.1a1a.1b2b");
        assert_eq!(write_spots(&glop), "0.1a1a.1a2a");
        // Two boundaries each meeting a 1-life spot twice, in a land with upper-case letters.
        let p = parse("1a1a.1a1a.AB|AB").unwrap();
        assert_eq!(write(&p), "1a1a.1b1b.AB|AB");
        assert_eq!(p.spot_count(), 8);
        // The same letter on three boundaries of one region, and on the terminator form.
        let q = parse("2a2a.1a1a.1a2a").unwrap();
        assert_eq!(write(&q), "2a2a.1b1b.1c2c");
        assert_eq!(parse("1a1a.1a2a.}]!").unwrap(), parse("1a1a.1b2b").unwrap());
    }

    /// A lower-case letter that cannot be paired within its boundary is an error naming the
    /// letter, how often it is met there, and where its first occurrence is.
    #[test]
    fn unpairable_letters_are_errors_naming_the_place() {
        letter_count_at("1aaaa", 1, "a", 4, "boundary");
        letter_count_at("1a1a.1a2", 6, "a", 1, "boundary");
        letter_count_at("0.1a1b1a.1b", 5, "b", 1, "boundary");
        letter_count_at("1a1a.1aa1a", 6, "a", 3, "boundary");
        letter_count_at("0*2+AB|AB+AB", 10, "A", 1, "land");
        letter_count_at("1m(13)1m(13)m(13)", 1, "m(13)", 3, "boundary");
    }

    /// Past `Y`, SPOTS writes upper-case letters `n(26)`, GLOP `Z(26)`; both read the same.
    #[test]
    fn extended_upper_case_letters_both_ways() {
        let names: Vec<String> = (1..=26).map(|k| letter_text(2, k)).collect();
        let inner = names.concat();
        let outer: String = names.iter().rev().map(String::as_str).collect();
        let p = parse(&format!("{inner}|{outer}")).unwrap();
        let glop = write(&p);
        let spots = write_spots(&p);
        assert!(
            glop.starts_with("Z(1)Z(2)") && glop.contains("Z(26)"),
            "{glop}"
        );
        assert!(
            spots.starts_with("n(1)n(2)") && spots.contains("n(26)"),
            "{spots}"
        );
        assert_eq!(parse(&glop).unwrap(), p);
        assert_eq!(parse(&spots).unwrap(), p);
        assert_eq!(write(&parse("n(1)n(2)|n(1)n(2)").unwrap()), "AB|AB");
    }

    /// Relabels a GLOP text the way SPOTS names lower-case letters: afresh on every boundary,
    /// in order of first appearance. Written on the text alone (not through the writer), as an
    /// independent check of [`write_spots`].
    fn restart_lower_letters_per_boundary(text: &str) -> String {
        let mut out = String::new();
        let mut names: Vec<(String, usize)> = Vec::new();
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            let letter = match c {
                b'a'..=b'l' => Some(((c as char).to_string(), i + 1)),
                b'm' => {
                    let end = i + text[i..].find(')').unwrap() + 1;
                    Some((text[i..end].to_string(), end))
                }
                _ => None,
            };
            match letter {
                Some((name, next)) => {
                    let k = match names.iter().position(|(n, _)| *n == name) {
                        Some(k) => k,
                        None => {
                            names.push((name, 0));
                            names.len() - 1
                        }
                    };
                    names[k].1 += 1;
                    out.push_str(&letter_text(0, k as u32 + 1));
                    i = next;
                }
                None => {
                    if matches!(c, b'.' | b'|' | b'+') {
                        names.clear();
                    }
                    out.push(c as char);
                    i += 1;
                }
            }
        }
        out
    }

    /// Exhaustive over the positions reachable from 1 to 5 seeds (each written as it stands,
    /// stumps and all): the text with lower-case letters restarted per boundary reads as the
    /// position GLOP's text reads as (spots numbered alike), with the canonical form of the
    /// position played, and is what [`write_spots`] writes.
    #[test]
    fn per_boundary_letters_read_as_the_same_game_exhaustively() {
        let mut positions = 0;
        let mut reused = 0;
        for n in 1..=5 {
            for p in crate::reachable_positions(n, usize::MAX) {
                let glop = write(&p);
                let spots = restart_lower_letters_per_boundary(&glop);
                assert_eq!(write_spots(&p), spots, "{glop}");
                let q = parse(&spots).unwrap_or_else(|e| panic!("{spots} (from {glop}): {e}"));
                assert_eq!(q, parse(&glop).unwrap(), "{spots} (from {glop})");
                assert_eq!(q.canonical(), p.canonical(), "{spots} (from {glop})");
                positions += 1;
                // Regions where SPOTS's text uses one lower-case letter for two spots.
                if spots
                    .split(['|', '+'])
                    .any(|region| region.split('.').filter(|b| b.contains('a')).count() >= 2)
                {
                    reused += 1;
                }
            }
        }
        assert!(positions > 19_000, "{positions} positions");
        assert!(
            reused > 100,
            "only {reused} positions reuse a letter in a region"
        );
        eprintln!("{positions} positions, {reused} with a letter reused in a region");
    }
}
