//! [`LandForm`]: the canonical form of one land as an owned value, with what the solver reads off
//! it (lives, distinct moves) and the position it names.
//!
//! A land form holds the canonical text of its land, exactly as the canonicaliser writes it: that
//! text is an injective rendering of the land's canonical code, so comparing two forms is one
//! comparison of bytes, hashing one is hashing those bytes, and their order is the order in which
//! [`CanonicalForm::lands`] sorts the lands of a position. Forms are made only by the
//! canonicaliser ([`Canonicalizer::canonical_lands_into`], [`CanonicalForm::land_forms`],
//! [`LandForm::children`]) or by [`LandForm::parse`], which checks that a text is the canonical
//! form of one land; so every form decodes, and the decoder here reads only such texts. Reading
//! GLOP notation in general (any order, GLOP 1.0 terminators, errors with offsets) is
//! [`notation::parse`](crate::notation::parse), the reference the decoder is tested against.
//!
//! [`Canonicalizer::canonical_lands_into`]: super::Canonicalizer::canonical_lands_into

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;
use thiserror::Error;

use super::{CanonicalForm, DEFAULT_BUDGET, with_canonicalizer};
use crate::notation::ParseError;
use crate::position::Position;
use crate::spot::SpotId;

/// The canonical form of one land (a land of [`Position::lands`], with GLOP's reductions): the
/// solver's name for an independent part of a position, with its lives and distinct moves read
/// off it and the position it names.
///
/// Two lands are the same game (up to renumbering, mirror image and the verified reductions)
/// exactly when their forms are equal. Equality, hashing and ordering are those of the form's
/// GLOP text ([`LandForm::as_str`]); `Display` writes that text and [`LandForm::parse`] (or
/// `str::parse`) reads it back.
///
/// # Examples
///
/// ```
/// use sprouts_topo::{LandForm, Position};
///
/// let p = Position::parse_glop("0*8.AB|0*3.AB+0.0").unwrap();
/// let lands = p.canonical().land_forms();
/// assert_eq!(lands.len(), 2);
/// let land = &lands[1];
/// assert_eq!(land.to_string(), "0*3.AB|0*8.AB");
/// assert_eq!(land.lives(), 35);
/// assert_eq!(land.to_position().total_lives(), 35);
/// assert_eq!("0*3.AB|0*8.AB".parse::<LandForm>().unwrap(), *land);
/// // The same land, not written as its canonical form: refused.
/// assert!("0*8.AB|0*3.AB".parse::<LandForm>().is_err());
/// ```
#[derive(Clone)]
pub struct LandForm {
    text: Box<str>,
    /// The land's lives, read once when the form is made (a function of the text).
    lives: u32,
}

/// Why a text is not the canonical form of one land.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LandFormError {
    /// The text is not GLOP notation of a position.
    #[error("not GLOP notation: {0}")]
    Parse(#[from] ParseError),
    /// The position has no land (no move is left in it) or more than one.
    #[error("the position has {lands} lands, not one")]
    NotOneLand {
        /// How many lands the position has.
        lands: usize,
    },
    /// The text is a land, but not written as its canonical form.
    #[error("not a canonical form: the land's canonical form is `{canonical}`")]
    NotCanonical {
        /// The canonical form of the land the text describes.
        canonical: String,
    },
}

impl LandForm {
    /// A form from the text of one land of a canonical form, as the canonicaliser wrote it.
    pub(crate) fn from_canonical(text: &str) -> LandForm {
        debug_assert!(!text.is_empty() && !text.contains(['+', '!']), "{text}");
        LandForm {
            lives: lives_of(text.as_bytes()),
            text: text.into(),
        }
    }

    /// Reads the canonical form of one land: the text must be GLOP notation of a position with
    /// exactly one land, written as its canonical form (as [`LandForm`]'s `Display` writes it).
    ///
    /// # Errors
    ///
    /// [`LandFormError`]: the text is not GLOP notation, has no land or several, or is not the
    /// canonical form of its land.
    pub fn parse(text: &str) -> Result<LandForm, LandFormError> {
        let form = Position::parse_glop(text)?.canonical();
        let lands = form.lands().count();
        if lands != 1 {
            return Err(LandFormError::NotOneLand { lands });
        }
        if form.as_str() != text {
            return Err(LandFormError::NotCanonical {
                canonical: form.into_string(),
            });
        }
        Ok(LandForm::from_canonical(text))
    }

    /// The form's GLOP text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The total lives of the land's spots ([`Position::total_lives`] of
    /// [`LandForm::to_position`]), read when the form was made.
    pub fn lives(&self) -> u32 {
        self.lives
    }

    /// The number of distinct moves of the land: the sum of [`Family::distinct_move_count`]
    /// over the families of [`LandForm::to_position`] (saturating at `u32::MAX`), counted on the
    /// decoded form without building the position or its families. This is the land's mobility
    /// as the solver's first disproof numbers use it.
    ///
    /// [`Family::distinct_move_count`]: crate::Family::distinct_move_count
    pub fn move_count(&self) -> u32 {
        with_decoded(self, |d| {
            let mut total: u128 = 0;
            for r in 0..d.reg.len() - 1 {
                total = total.saturating_add(d.region_move_count(r));
            }
            total.min(u128::from(u32::MAX)) as u32
        })
    }

    /// The land as a position: spots numbered `1, 2, ...` in the order the form meets them, the
    /// same position (table for table) as [`Position::parse_glop`] of the form's text.
    pub fn to_position(&self) -> Position {
        with_decoded(self, |d| {
            let mut pos = Position::empty_with_next(SpotId::new(1).expect("1 is not zero"));
            for (i, &l) in d.lives.iter().enumerate() {
                pos.set_lives(SpotId::from_index(i), l);
            }
            let mut corners: SmallVec<[SpotId; 32]> = SmallVec::new();
            for r in 0..d.reg.len() - 1 {
                for b in d.reg[r] as usize..d.reg[r + 1] as usize {
                    corners.clear();
                    corners.extend(
                        d.corners[d.bnd[b] as usize..d.bnd[b + 1] as usize]
                            .iter()
                            .map(|&s| SpotId::from_index(s as usize)),
                    );
                    pos.push_boundary(&corners);
                }
                pos.finish_region();
            }
            pos.next = SpotId::from_index(d.lives.len());
            pos
        })
    }

    /// The distinct children of the land (the canonical forms of the positions one move
    /// leads to), each as its lands, sorted as their canonical forms are (see
    /// [`LandForm::cmp_sums`]). A move that ends the game gives a child with no land.
    pub fn children(&self) -> Vec<Vec<LandForm>> {
        let mut out = Vec::new();
        self.to_position()
            .for_each_child_lands(|c| out.push(c.lands().map(LandForm::from_canonical).collect()));
        out
    }

    /// Compares two sums of lands (each sorted, as a canonical form lists them) as their
    /// canonical forms compare: the texts of their lands joined by `+`, with `!` for a sum of
    /// no land.
    pub fn cmp_sums(a: &[LandForm], b: &[LandForm]) -> Ordering {
        fn bytes(lands: &[LandForm]) -> impl Iterator<Item = u8> + '_ {
            let over: &[u8] = if lands.is_empty() { b"!" } else { b"" };
            over.iter()
                .copied()
                .chain(lands.iter().enumerate().flat_map(|(i, l)| {
                    let plus: &[u8] = if i > 0 { b"+" } else { b"" };
                    plus.iter().chain(l.text.as_bytes()).copied()
                }))
        }
        // Lands equal up to the last of the shorter list compare as the lists do.
        for (x, y) in a.iter().zip(b) {
            if x.text != y.text {
                return bytes(a).cmp(bytes(b));
            }
        }
        a.len().cmp(&b.len())
    }
}

impl CanonicalForm {
    /// The forms of the independent lands, sorted as [`CanonicalForm::lands`] lists them (none
    /// when the game is over).
    pub fn land_forms(&self) -> Vec<LandForm> {
        self.lands().map(LandForm::from_canonical).collect()
    }
}

impl Position {
    /// The canonical forms of the position's lands ([`Position::canonical`]'s lands), sorted.
    pub fn land_forms(&self) -> Vec<LandForm> {
        let mut out = Vec::new();
        with_canonicalizer(|c| c.canonical_lands_into(self, DEFAULT_BUDGET, &mut out));
        out
    }
}

impl PartialEq for LandForm {
    fn eq(&self, other: &LandForm) -> bool {
        self.text == other.text
    }
}

impl Eq for LandForm {}

impl std::hash::Hash for LandForm {
    /// Hashes the text, as `str` hashes it.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl PartialOrd for LandForm {
    fn partial_cmp(&self, other: &LandForm) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for LandForm {
    fn cmp(&self, other: &LandForm) -> Ordering {
        self.text.cmp(&other.text)
    }
}

impl fmt::Display for LandForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for LandForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LandForm({})", self.text)
    }
}

impl FromStr for LandForm {
    type Err = LandFormError;

    fn from_str(s: &str) -> Result<LandForm, LandFormError> {
        LandForm::parse(s)
    }
}

/// Where [`Canonicalizer`](super::Canonicalizer) puts the forms of a position's lands, sorted.
pub(crate) trait LandSink {
    /// Called first.
    fn start(&mut self);
    /// The next land's form.
    fn land(&mut self, text: &str);
    /// Called instead of `land` when the position has no land.
    fn over(&mut self);
}

/// The whole canonical form as text: lands joined by `+`, or `!`.
impl LandSink for String {
    fn start(&mut self) {
        self.clear();
    }

    fn land(&mut self, text: &str) {
        if !self.is_empty() {
            self.push('+');
        }
        self.push_str(text);
    }

    fn over(&mut self) {
        self.push('!');
    }
}

/// The lands' forms, none when the game is over.
impl LandSink for Vec<LandForm> {
    fn start(&mut self) {
        self.clear();
    }

    fn land(&mut self, text: &str) {
        self.push(LandForm::from_canonical(text));
    }

    fn over(&mut self) {}
}

/// The lives of a land form's text: 3 per seed (`0`, and `n` per `0*n`), 2 per `1`, 1 per `2`,
/// and 1 per letter spot (each letter is written twice).
fn lives_of(text: &[u8]) -> u32 {
    let mut total = 0u32;
    let mut letters = 0u32;
    for_each_token(text, |t| match t {
        Token::Seeds(n) => total = total.saturating_add(n.saturating_mul(3)),
        Token::Digit(d) => total += 3 - u32::from(d),
        Token::Letter(..) => letters += 1,
        Token::EndBoundary | Token::EndRegion => {}
    });
    total.saturating_add(letters.div_ceil(2))
}

/// A piece of a land form's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// `0*n`: `n` boundaries, each one seed.
    Seeds(u32),
    /// `0`, `1` or `2` (a spot met once, with 3 minus this many lives).
    Digit(u8),
    /// A letter (a 1-life spot met twice): upper case (named per land) or not (per region),
    /// and its number from 1.
    Letter(bool, u32),
    /// The end of a boundary (`.`, or before `|` or the end).
    EndBoundary,
    /// The end of a region (`|` or the end).
    EndRegion,
}

/// Calls `f` with the tokens of a land form's text in order. A `0*n` is followed by its
/// boundary's end like any boundary.
fn for_each_token(text: &[u8], mut f: impl FnMut(Token)) {
    let number = |i: &mut usize| {
        let mut n = 0u32;
        while let Some(&d) = text.get(*i).filter(|d| d.is_ascii_digit()) {
            n = n.saturating_mul(10).saturating_add(u32::from(d - b'0'));
            *i += 1;
        }
        n
    };
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        i += 1;
        match b {
            b'0' if text.get(i) == Some(&b'*') => {
                i += 1;
                f(Token::Seeds(number(&mut i)));
            }
            b'0'..=b'2' => f(Token::Digit(b - b'0')),
            b'a'..=b'l' => f(Token::Letter(false, u32::from(b - b'a') + 1)),
            b'A'..=b'Y' => f(Token::Letter(true, u32::from(b - b'A') + 1)),
            b'm' | b'Z' => {
                // `m(k)` or `Z(k)`.
                i += 1;
                let n = number(&mut i);
                i += 1;
                f(Token::Letter(b == b'Z', n));
            }
            b'.' => f(Token::EndBoundary),
            b'|' => {
                f(Token::EndBoundary);
                f(Token::EndRegion);
            }
            other => debug_assert!(false, "byte {other} in a land form"),
        }
    }
    f(Token::EndBoundary);
    f(Token::EndRegion);
}

/// A land form decoded: spots numbered from 0 in order of first appearance, as
/// [`notation::parse`](crate::notation::parse) numbers them.
#[derive(Default, Debug)]
struct Decoded {
    /// Lives by spot.
    lives: Vec<u8>,
    /// Spots of every boundary, concatenated.
    corners: Vec<u32>,
    /// Boundary `b` is `corners[bnd[b]..bnd[b + 1]]`.
    bnd: Vec<u32>,
    /// Region `r` is the boundaries `reg[r]..reg[r + 1]`.
    reg: Vec<u32>,
    /// Spot of each letter number, upper case and per region lower case (`u32::MAX`: none yet).
    upper: Vec<u32>,
    lower: Vec<u32>,
    /// Occurrences of every spot in the land.
    occurrences: Vec<u8>,
    /// Scratch of [`Decoded::region_move_count`].
    moves: MoveScratch,
}

thread_local! {
    static DECODED: std::cell::RefCell<Decoded> = std::cell::RefCell::new(Decoded::default());
}

/// Runs `f` on `form` decoded into this thread's scratch (a fresh one if it is busy).
fn with_decoded<R>(form: &LandForm, f: impl FnOnce(&mut Decoded) -> R) -> R {
    DECODED.with(|d| match d.try_borrow_mut() {
        Ok(mut d) => {
            d.decode(form.text.as_bytes());
            f(&mut d)
        }
        Err(_) => {
            let mut d = Decoded::default();
            d.decode(form.text.as_bytes());
            f(&mut d)
        }
    })
}

impl Decoded {
    fn decode(&mut self, text: &[u8]) {
        self.lives.clear();
        self.corners.clear();
        self.bnd.clear();
        self.bnd.push(0);
        self.reg.clear();
        self.reg.push(0);
        self.upper.clear();
        self.lower.clear();
        let Decoded {
            lives,
            corners,
            bnd,
            reg,
            upper,
            lower,
            ..
        } = self;
        let new_spot = |lives: &mut Vec<u8>, l: u8| {
            lives.push(l);
            lives.len() as u32 - 1
        };
        for_each_token(text, |t| match t {
            Token::Seeds(n) => {
                // Each seed a boundary: the last one's end comes as its token.
                for k in 0..n {
                    if k > 0 {
                        bnd.push(corners.len() as u32);
                    }
                    let s = new_spot(lives, 3);
                    corners.push(s);
                }
            }
            Token::Digit(d) => {
                let s = new_spot(lives, 3 - d);
                corners.push(s);
            }
            Token::Letter(is_upper, n) => {
                let names = if is_upper { &mut *upper } else { &mut *lower };
                let k = n as usize - 1;
                if names.len() <= k {
                    names.resize(k + 1, u32::MAX);
                }
                if names[k] == u32::MAX {
                    names[k] = new_spot(lives, 1);
                }
                corners.push(names[k]);
            }
            Token::EndBoundary => bnd.push(corners.len() as u32),
            Token::EndRegion => {
                reg.push(bnd.len() as u32 - 1);
                lower.clear();
            }
        });
        self.occurrences.clear();
        self.occurrences.resize(self.lives.len(), 0);
        for &s in &self.corners {
            self.occurrences[s as usize] += 1;
        }
    }

    /// The distinct moves of region `r`: per family of two live corners of the region (with 2
    /// lives or more in it), one move, or for a family whose corners are on one boundary, one
    /// per choice of how many of each group of interchangeable other boundaries it encloses
    /// (the product of `size + 1` over the groups). Two boundaries are interchangeable when
    /// every spot on them is met only there and their words of lives (repeated spots numbered
    /// in order of appearance) are equal up to rotation.
    fn region_move_count(&mut self, r: usize) -> u128 {
        let (bs, be) = (self.reg[r] as usize, self.reg[r + 1] as usize);
        let nb = be - bs;
        let (cs, ce) = (self.bnd[bs] as usize, self.bnd[be] as usize);
        let corners = &self.corners[cs..ce];
        let m_all = corners.len();
        let lives = &self.lives;
        let occurrences = &self.occurrences;
        let MoveScratch {
            on_boundary,
            in_region,
            first,
            ranges,
            keys,
            long_keys,
            class,
            sizes,
        } = &mut self.moves;
        // Per corner: how often its spot is met on its boundary and in the region, and whether
        // this is the spot's first corner on the boundary. Letters are met twice at most.
        on_boundary.clear();
        on_boundary.resize(m_all, 1);
        in_region.clear();
        in_region.resize(m_all, 1);
        first.clear();
        first.resize(m_all, true);
        ranges.clear();
        let mut region_lives = 0u32;
        for b in bs..be {
            let (s, e) = (self.bnd[b] as usize - cs, self.bnd[b + 1] as usize - cs);
            ranges.push((s, e));
            for i in s..e {
                let si = corners[i];
                if occurrences[si as usize] < 2 {
                    continue;
                }
                for j in i + 1..m_all {
                    if corners[j] == si {
                        in_region[i] += 1;
                        in_region[j] += 1;
                        if j < e {
                            on_boundary[i] += 1;
                            on_boundary[j] += 1;
                            first[j] = false;
                        }
                    }
                }
            }
            for i in s..e {
                if first[i] {
                    region_lives += u32::from(lives[corners[i] as usize]);
                }
            }
        }
        if region_lives < 2 {
            return 0;
        }
        // Interchangeability classes of the boundaries (each has a live corner): closed ones
        // by their least rotation, every other one a class of its own.
        keys.clear();
        long_keys.clear();
        class.clear();
        class.resize(nb, u32::MAX);
        sizes.clear();
        for (b, &(s, e)) in ranges.iter().enumerate() {
            if s == e {
                continue;
            }
            if (s..e)
                .any(|i| u32::from(on_boundary[i]) != u32::from(occurrences[corners[i] as usize]))
            {
                class[b] = sizes.len() as u32;
                sizes.push(1);
                continue;
            }
            let word = &corners[s..e];
            let key = if e - s <= PACKED_CODES {
                packed_least_rotation(word, &on_boundary[s..e], lives)
            } else {
                let w = least_rotation(word, &on_boundary[s..e], lives);
                let id = match long_keys.iter().position(|x| *x == w) {
                    Some(id) => id,
                    None => {
                        long_keys.push(w);
                        long_keys.len() - 1
                    }
                };
                u128::MAX - id as u128
            };
            keys.push((key, b));
        }
        keys.sort_unstable();
        for k in 0..keys.len() {
            if k == 0 || keys[k - 1].0 != keys[k].0 {
                sizes.push(0);
            }
            let c = sizes.len() - 1;
            sizes[c] += 1;
            class[keys[k].1] = c as u32;
        }
        // Families with both corners on boundary `b`: pairs of its corners (a corner with
        // itself included) less those of one single-life spot, each counting the product over
        // the other boundaries' classes of (size + 1).
        let all_product = sizes
            .iter()
            .fold(1u128, |p, &z| p.saturating_mul(u128::from(z) + 1));
        let mut total: u128 = 0;
        let mut squares = 0u128;
        for (b, &(s, e)) in ranges.iter().enumerate() {
            let m = (e - s) as u128;
            squares += m * m;
            if m == 0 {
                continue;
            }
            let mut pairs = m * (m + 1) / 2;
            for i in s..e {
                if lives[corners[i] as usize] < 2 && first[i] {
                    let t = u128::from(on_boundary[i]);
                    pairs -= t * (t + 1) / 2;
                }
            }
            let c = class[b] as usize;
            let size = u128::from(sizes[c]);
            // The product with this boundary's class one smaller.
            let product = match all_product {
                u128::MAX => sizes
                    .iter()
                    .enumerate()
                    .map(|(d, &z)| u128::from(z - u32::from(d == c)) + 1)
                    .fold(1u128, u128::saturating_mul),
                p => p / (size + 1) * size,
            };
            total = total.saturating_add(product.saturating_mul(pairs));
        }
        // Families joining two boundaries: one move each, less the pairs of corners of one
        // single-life spot met on two boundaries.
        let all = m_all as u128;
        let mut cross = (all * all - squares) / 2;
        for i in 0..m_all {
            let si = corners[i];
            if in_region[i] > on_boundary[i] && lives[si as usize] < 2 {
                let b = ranges.partition_point(|&(_, e)| e <= i);
                let end = ranges[b].1;
                cross -= corners[end..].iter().filter(|&&sj| sj == si).count() as u128;
            }
        }
        total.saturating_add(cross)
    }
}

/// Scratch space of [`Decoded::region_move_count`].
#[derive(Default, Debug)]
struct MoveScratch {
    on_boundary: Vec<u8>,
    in_region: Vec<u8>,
    first: Vec<bool>,
    ranges: Vec<(usize, usize)>,
    keys: Vec<(u128, usize)>,
    long_keys: Vec<SmallVec<[u32; 8]>>,
    class: Vec<u32>,
    sizes: Vec<u32>,
}

/// The most codes of a boundary's word packed into one key (5 bits each, and the length).
const PACKED_CODES: usize = 24;

/// The code of corner `i` of a closed boundary's word: a spot met once on it by its lives, a
/// repeated one (`on_boundary` above 1) `16, 17, ...` in order of appearance from the rotation's
/// start.
fn code(
    w: &[u32],
    on_boundary: &[u8],
    lives: &[u8],
    i: usize,
    names: &mut SmallVec<[u32; 8]>,
) -> u32 {
    let s = w[i];
    if on_boundary[i] > 1 {
        let idx = match names.iter().position(|&n| n == s) {
            Some(k) => k,
            None => {
                names.push(s);
                names.len() - 1
            }
        };
        16 + idx as u32
    } else {
        u32::from(lives[s as usize])
    }
}

/// [`least_rotation`] of a word of at most [`PACKED_CODES`] corners, packed: the length, then
/// each code in 5 bits (lexicographic order of words of one length is the order of the
/// numbers).
fn packed_least_rotation(w: &[u32], on_boundary: &[u8], lives: &[u8]) -> u128 {
    let m = w.len();
    let mut best = u128::MAX;
    let mut names: SmallVec<[u32; 8]> = SmallVec::new();
    for rot in 0..m {
        names.clear();
        let mut key = m as u128;
        for k in 0..m {
            let i = if rot + k < m { rot + k } else { rot + k - m };
            key = key << 5 | u128::from(code(w, on_boundary, lives, i, &mut names));
        }
        best = best.min(key);
    }
    best
}

/// The least rotation of a closed boundary's word of codes (see [`code`]).
fn least_rotation(w: &[u32], on_boundary: &[u8], lives: &[u8]) -> SmallVec<[u32; 8]> {
    let m = w.len();
    let mut best: SmallVec<[u32; 8]> = SmallVec::new();
    let mut cur: SmallVec<[u32; 8]> = SmallVec::new();
    let mut names: SmallVec<[u32; 8]> = SmallVec::new();
    for rot in 0..m {
        cur.clear();
        names.clear();
        for k in 0..m {
            cur.push(code(w, on_boundary, lives, (rot + k) % m, &mut names));
        }
        if rot == 0 || cur < best {
            std::mem::swap(&mut best, &mut cur);
        }
    }
    best
}

#[cfg(test)]
mod tests;
