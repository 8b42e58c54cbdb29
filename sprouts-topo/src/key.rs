//! `GameKey`: the identity-preserving key of a position, up to rotation, order and mirror image.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::position::{ABSENT, Position};
use crate::spot::SpotId;

/// A key naming a position with its spot identities: two positions have the same key exactly when
/// they have the same spots with the same lives, the same next spot, and the same regions made of
/// the same boundaries, up to the rotation of each boundary, the order of boundaries and regions,
/// and the mirror image (every boundary reversed at once).
///
/// This is the key the drawing layer's authority check compares (a picture read back must give the
/// position it should be, spot for spot), and what [`MoveNotation`](crate::MoveNotation) sends over
/// the network. It is already mirror-invariant. For the same *game* up to renumbering use
/// [`Position::canonical`].
///
/// The text form (`Display`, `FromStr`) lists the regions separated by `|`, the boundaries by `.`,
/// the spots of a boundary by `,`, then `;` and the lives of each spot as `id:lives` separated by
/// `,`, then `;` and the next spot: `1.2;1:3,2:3;3`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct GameKey(Box<[u32]>);

impl GameKey {
    /// The key as numbers: the spots' lives, the next spot, then the regions (each a count of
    /// boundaries, each boundary its length and spots), least rotation and order, mirror-invariant.
    pub fn as_slice(&self) -> &[u32] {
        &self.0
    }
}

impl Position {
    /// The identity-preserving key of the position (see [`GameKey`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// let p = Position::new(3);
    /// let a = p.moves().find(|m| m.describe(&p) == "1 -> 2").unwrap();
    /// let b = p.moves().find(|m| m.describe(&p) == "2 -> 1").unwrap_or(a.clone());
    /// assert_eq!(p.play(&a).unwrap().game_key(), p.play(&b).unwrap().game_key());
    /// ```
    pub fn game_key(&self) -> GameKey {
        let a = self.key_oriented(false);
        let b = self.key_oriented(true);
        GameKey(a.min(b).into_boxed_slice())
    }

    /// Whether `other` is the same position spot for spot, up to rotation, order and the mirror
    /// image (the same as comparing game keys): the drawing's notion of sameness.
    pub fn same_position_as(&self, other: &Position) -> bool {
        self.game_key() == other.game_key()
    }

    /// Whether `other` is the same game, exactly: the same position spot for spot
    /// ([`Position::same_position_as`]), or equal exact canonical forms without GLOP's
    /// reductions ([`Position::canonical_unreduced`]; the same position up to renumbering of
    /// its spots). Positions that differ only by dead parts are not the same game here: a move
    /// drawn in place of another must leave the same spots alive.
    ///
    /// This is the one test of "the same game" the drawing's ladder, self-play and network
    /// play use. A cheap invariant (total lives and the sorted lives of live regions) rules out
    /// most pairs before any form is computed.
    ///
    /// # Examples
    ///
    /// ```
    /// use sprouts_topo::Position;
    /// let p = Position::new(3);
    /// let one_two = p.moves().find(|m| m.describe(&p) == "1 -> 2").unwrap();
    /// let two_three = p.moves().find(|m| m.describe(&p) == "2 -> 3").unwrap();
    /// let loop_at_1 = p.moves().find(|m| m.describe(&p).starts_with("1 -> 1")).unwrap();
    /// let (a, b, c) = (p.play(&one_two).unwrap(), p.play(&two_three).unwrap(), p.play(&loop_at_1).unwrap());
    /// assert!(a.same_game(&b));
    /// assert!(!a.same_position_as(&b));
    /// assert!(!a.same_game(&c));
    /// ```
    pub fn same_game(&self, other: &Position) -> bool {
        if self.game_key() == other.game_key() {
            return true;
        }
        let signature = |p: &Position| {
            let mut regions: Vec<u32> =
                p.regions().map(|r| r.lives()).filter(|&l| l >= 2).collect();
            regions.sort_unstable();
            (p.total_lives(), regions)
        };
        if signature(self) != signature(other) {
            return false;
        }
        let (a, b) = (self.canonical_unreduced(), other.canonical_unreduced());
        a.is_exact() && b.is_exact() && a == b
    }

    fn key_oriented(&self, mirror: bool) -> Vec<u32> {
        let mut head = Vec::new();
        for (i, &l) in self.lives.iter().enumerate() {
            if l != ABSENT {
                head.push(i as u32 + 1);
                head.push(u32::from(l));
            }
        }
        let mut key = vec![head.len() as u32 / 2];
        key.extend_from_slice(&head);
        key.push(self.next.get());
        let mut regions: Vec<Vec<u32>> = Vec::with_capacity(self.region_count());
        let mut boundaries: Vec<Vec<u32>> = Vec::new();
        for r in 0..self.region_count() {
            let (bs, be) = self.region_bounds(r);
            boundaries.clear();
            for b in bs..be {
                let mut cs: Vec<u32> = self.boundary_slice(b).iter().map(|c| c.get()).collect();
                if mirror {
                    cs.reverse();
                }
                let rot = least_rotation(&cs);
                let mut enc = Vec::with_capacity(cs.len() + 1);
                enc.push(cs.len() as u32);
                enc.extend(cs[rot..].iter().chain(&cs[..rot]));
                boundaries.push(enc);
            }
            boundaries.sort_unstable();
            let mut enc = vec![boundaries.len() as u32];
            for b in &boundaries {
                enc.extend_from_slice(b);
            }
            regions.push(enc);
        }
        regions.sort_unstable();
        key.push(regions.len() as u32);
        for r in &regions {
            key.extend_from_slice(r);
        }
        key
    }
}

/// The start of the lexicographically least rotation of `s` (Booth's algorithm, K. S. Booth,
/// "Lexicographically least circular substrings", Information Processing Letters 10(4), 1980).
pub(crate) fn least_rotation<T: Ord>(s: &[T]) -> usize {
    let n = s.len();
    if n <= 1 {
        return 0;
    }
    // Duval-style two-pointer minimum rotation: i and j are candidate starts, k the matched length.
    let (mut i, mut j, mut k) = (0usize, 1usize, 0usize);
    while i < n && j < n && k < n {
        // i, j and k are below n: one subtraction wraps (no division).
        let wrap = |x: usize| if x >= n { x - n } else { x };
        let a = &s[wrap(i + k)];
        let b = &s[wrap(j + k)];
        if a == b {
            k += 1;
            continue;
        }
        if a > b {
            i += k + 1;
        } else {
            j += k + 1;
        }
        if i == j {
            j += 1;
        }
        k = 0;
    }
    i.min(j)
}

impl fmt::Display for GameKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = &self.0;
        let n_spots = k[0] as usize;
        let lives = &k[1..1 + 2 * n_spots];
        let next = k[1 + 2 * n_spots];
        let mut i = 2 + 2 * n_spots;
        let n_regions = k[i] as usize;
        i += 1;
        for r in 0..n_regions {
            if r > 0 {
                f.write_str("|")?;
            }
            let nb = k[i] as usize;
            i += 1;
            for b in 0..nb {
                if b > 0 {
                    f.write_str(".")?;
                }
                let len = k[i] as usize;
                i += 1;
                for c in 0..len {
                    if c > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", k[i + c])?;
                }
                i += len;
            }
        }
        f.write_str(";")?;
        for s in 0..n_spots {
            if s > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}:{}", lives[2 * s], lives[2 * s + 1])?;
        }
        write!(f, ";{next}")
    }
}

/// Why a text is not a game key.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("not a game key: {0}")]
pub struct GameKeyParseError(&'static str);

impl FromStr for GameKey {
    type Err = GameKeyParseError;

    /// Reads the text form and re-derives the key (so a key that was not least-rotated or sorted
    /// reads as the key of the position it describes).
    fn from_str(s: &str) -> Result<GameKey, GameKeyParseError> {
        let mut parts = s.trim().split(';');
        let regions_text = parts.next().ok_or(GameKeyParseError("missing regions"))?;
        let lives_text = parts.next().ok_or(GameKeyParseError("missing lives"))?;
        let next_text = parts.next().ok_or(GameKeyParseError("missing next spot"))?;
        if parts.next().is_some() {
            return Err(GameKeyParseError("too many `;`"));
        }
        let num = |t: &str| -> Result<u32, GameKeyParseError> {
            t.parse::<u32>()
                .map_err(|_| GameKeyParseError("bad number"))
        };
        let spot = |t: &str| -> Result<SpotId, GameKeyParseError> {
            SpotId::new(num(t)?).ok_or(GameKeyParseError("spot 0"))
        };
        let mut pos = Position::empty_with_next(spot(next_text)?);
        if !lives_text.is_empty() {
            for item in lives_text.split(',') {
                let (id, l) = item
                    .split_once(':')
                    .ok_or(GameKeyParseError("lives need `id:lives`"))?;
                let l = num(l)?;
                if l > 3 {
                    return Err(GameKeyParseError("lives above 3"));
                }
                pos.set_lives(spot(id)?, l as u8);
            }
        }
        if !regions_text.is_empty() {
            let mut corners = Vec::new();
            for region in regions_text.split('|') {
                for boundary in region.split('.') {
                    corners.clear();
                    for c in boundary.split(',') {
                        corners.push(spot(c)?);
                    }
                    pos.push_boundary(&corners);
                }
                pos.finish_region();
            }
        }
        if pos.check_invariants().is_err() {
            return Err(GameKeyParseError("the text breaks the rules of a position"));
        }
        Ok(pos.game_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_rotations() {
        assert_eq!(least_rotation(&[3, 1, 2]), 1);
        assert_eq!(least_rotation(&[1, 1, 0, 1]), 2);
        assert_eq!(least_rotation(&[2, 2, 2]), 0);
        assert_eq!(least_rotation::<u32>(&[]), 0);
        let s = [5, 3, 5, 3, 1, 5, 3, 1];
        let r = least_rotation(&s);
        let rotated: Vec<_> = s[r..].iter().chain(&s[..r]).copied().collect();
        for k in 0..s.len() {
            let other: Vec<_> = s[k..].iter().chain(&s[..k]).copied().collect();
            assert!(rotated <= other);
        }
    }

    #[test]
    fn text_form_round_trips() {
        let p = Position::parse_glop("0.1a1a.AB|AB").unwrap();
        let k = p.game_key();
        let text = k.to_string();
        assert_eq!(text.parse::<GameKey>().unwrap(), k);
    }
}
