//! Spot identities and lives: `SpotId`, `Lives`, `SpotKind`.

use std::fmt;
use std::num::NonZeroU32;

/// The identity of a spot.
///
/// Spot identities are labels, not indices into anything: they survive moves. `Position::new(n)`
/// has the spots `1..=n`, and every move adds the next one (`n + 1`, `n + 2`, ...), so two programs
/// that start from the same position and play the same moves agree on every spot's identity.
/// A position read from GLOP notation numbers its spots `1, 2, ...` in order of first appearance.
///
/// `Display` writes the number.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SpotId(NonZeroU32);

impl SpotId {
    /// The spot numbered `n`, or `None` for `0` (identities start at 1).
    pub const fn new(n: u32) -> Option<SpotId> {
        match NonZeroU32::new(n) {
            Some(n) => Some(SpotId(n)),
            None => None,
        }
    }

    /// The spot's number (at least 1).
    pub const fn get(self) -> u32 {
        self.0.get()
    }

    /// The spot after this one (the identity the next move gives its new spot).
    ///
    /// # Panics
    ///
    /// Panics if the number would overflow `u32`.
    pub fn succ(self) -> SpotId {
        SpotId(self.0.checked_add(1).expect("spot identity overflow"))
    }

    /// The zero-based index of this spot (its number minus one).
    pub(crate) const fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }

    /// The spot whose zero-based index is `index`.
    pub(crate) fn from_index(index: usize) -> SpotId {
        let n = u32::try_from(index + 1).expect("spot index fits in u32");
        SpotId(NonZeroU32::new(n).expect("index + 1 is not zero"))
    }
}

impl fmt::Display for SpotId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for SpotId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The number of curves that can still be attached to a spot: 0, 1, 2 or 3.
///
/// A spot with `d` curves has `3 - d` lives.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Lives(u8);

impl Lives {
    /// No life left: a stump.
    pub const ZERO: Lives = Lives(0);
    /// One life: a link.
    pub const ONE: Lives = Lives(1);
    /// Two lives: a sprout.
    pub const TWO: Lives = Lives(2);
    /// Three lives: a seed.
    pub const THREE: Lives = Lives(3);

    /// `n` lives, or `None` if `n > 3`.
    pub const fn new(n: u8) -> Option<Lives> {
        if n <= 3 { Some(Lives(n)) } else { None }
    }

    /// The number of lives (0 to 3).
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The number of curves at a spot with these lives (`3 - lives`).
    pub const fn curves(self) -> u8 {
        3 - self.0
    }

    /// What a spot with these lives is called.
    pub const fn kind(self) -> SpotKind {
        match self.0 {
            0 => SpotKind::Stump,
            1 => SpotKind::Link,
            2 => SpotKind::Sprout,
            _ => SpotKind::Seed,
        }
    }
}

impl fmt::Display for Lives {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Spots by their lives (spec section 1.1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum SpotKind {
    /// No life left (three curves).
    Stump,
    /// One life (two curves).
    Link,
    /// Two lives (one curve).
    Sprout,
    /// Three lives (no curve yet).
    Seed,
}

impl SpotKind {
    /// The lives of a spot of this kind.
    pub const fn lives(self) -> Lives {
        match self {
            SpotKind::Stump => Lives::ZERO,
            SpotKind::Link => Lives::ONE,
            SpotKind::Sprout => Lives::TWO,
            SpotKind::Seed => Lives::THREE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spot_ids_start_at_one() {
        assert_eq!(SpotId::new(0), None);
        let s = SpotId::new(7).unwrap();
        assert_eq!(s.get(), 7);
        assert_eq!(s.index(), 6);
        assert_eq!(SpotId::from_index(6), s);
        assert_eq!(s.succ().get(), 8);
        assert_eq!(s.to_string(), "7");
    }

    #[test]
    fn lives_and_kinds() {
        assert_eq!(Lives::new(4), None);
        for n in 0..=3u8 {
            let l = Lives::new(n).unwrap();
            assert_eq!(l.get() + l.curves(), 3);
            assert_eq!(l.kind().lives(), l);
        }
        assert_eq!(Lives::THREE.kind(), SpotKind::Seed);
        assert_eq!(Lives::ZERO.kind(), SpotKind::Stump);
    }
}
