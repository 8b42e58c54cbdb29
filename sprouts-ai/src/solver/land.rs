//! Cheap facts read off a land's canonical form, without parsing it into a position.

use smallvec::SmallVec;

/// The lives of a land written in GLOP notation: 3 per `0`, 2 per `1`, 1 per `2`, and 1 per
/// letter spot (each letter is written twice; a letter's `(k)` suffix is skipped). `0*n` counts
/// `n` spots. Used for ordering moves and choosing which land to search, never for a verdict.
pub(crate) fn lives(land: &str) -> u32 {
    let bytes = land.as_bytes();
    let mut total = 0u32;
    let mut letters = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'0' => {
                if bytes.get(i + 1) == Some(&b'*') {
                    let mut j = i + 2;
                    let mut n = 0u32;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        n = n
                            .saturating_mul(10)
                            .saturating_add(u32::from(bytes[j] - b'0'));
                        j += 1;
                    }
                    total = total.saturating_add(n.saturating_mul(3));
                    i = j;
                    continue;
                }
                total += 3;
            }
            b'1' => total += 2,
            b'2' => total += 1,
            b'(' => {
                while i < bytes.len() && bytes[i] != b')' {
                    i += 1;
                }
            }
            b if b.is_ascii_alphabetic() => letters += 1,
            _ => {}
        }
        i += 1;
    }
    total.saturating_add(letters.div_ceil(2))
}

/// A spot met at a corner of a land written in GLOP notation: its lives and an identity (letters
/// by kind and number; every digit is a spot of its own, met once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spot {
    lives: u8,
    kind: SpotKind,
    id: u32,
}

/// How a spot is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpotKind {
    /// `0`, `1`, `2` or `3`: met once.
    Digit,
    /// A letter named per region.
    RegionLetter,
    /// An upper-case letter, named per land.
    LandLetter,
}

/// Identities of digits: counted down from here, never equal to a letter's.
const DIGIT_IDS: u32 = u32::MAX;

/// Reads a letter's number after its first byte at `bytes[*i]`: `(k)` when `compact` is false
/// (the letter is `m`, `n` or `Z`), the letter itself otherwise.
fn letter_number(bytes: &[u8], i: &mut usize, compact: Option<u32>) -> u32 {
    match compact {
        Some(n) => n,
        None => {
            // `m(13)`, `n(13)`, `Z(26)`.
            let mut n = 0u32;
            let mut j = *i + 1;
            if bytes.get(j) == Some(&b'(') {
                j += 1;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    n = n
                        .saturating_mul(10)
                        .saturating_add(u32::from(bytes[j] - b'0'));
                    j += 1;
                }
                // The closing parenthesis.
                *i = j;
            }
            n
        }
    }
}

/// The number of distinct moves of a land written in GLOP notation (a canonical form), the same
/// as summing `Family::distinct_move_count` over the families of the parsed position, read off
/// the text without building the position. Per region with 2 lives or more: every pair of live
/// corners (a corner with itself included) that is not one spot with a single life is a family;
/// a family whose corners are on one boundary counts one move per choice of how many of each
/// group of interchangeable other boundaries it encloses, the product of `size + 1` over the
/// groups. Two boundaries are interchangeable when every live spot on them is met only there
/// and their words of lives (repeated spots numbered in order of appearance) are equal up to
/// rotation. Saturates at `u32::MAX`.
pub(crate) fn move_count(land: &str) -> u32 {
    let bytes = land.as_bytes();
    // Upper-case letters are named per land: their occurrences in the whole land.
    let mut upper: SmallVec<[(u32, u32); 32]> = SmallVec::new();
    {
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_uppercase() {
                let compact = (b != b'Z').then(|| u32::from(b - b'A') + 1);
                let n = letter_number(bytes, &mut i, compact);
                match upper.iter_mut().find(|(id, _)| *id == n) {
                    Some(e) => e.1 += 1,
                    None => upper.push((n, 1)),
                }
            } else if b == b'(' {
                while i < bytes.len() && bytes[i] != b')' {
                    i += 1;
                }
            }
            i += 1;
        }
    }
    let mut total: u128 = 0;
    let mut corners: SmallVec<[(u32, Spot); 64]> = SmallVec::new();
    for region in land.split('|') {
        corners.clear();
        let mut boundaries = 0u32;
        let mut digit = DIGIT_IDS;
        for boundary in region.split('.') {
            let bb = boundary.as_bytes();
            if bb.len() >= 2 && bb[0] == b'0' && bb[1] == b'*' {
                // `0*n`: n boundaries `0`.
                let n = bb[2..].iter().fold(0u32, |n, &d| {
                    n.saturating_mul(10)
                        .saturating_add(u32::from(d.wrapping_sub(b'0')))
                });
                for _ in 0..n {
                    corners.push((
                        boundaries,
                        Spot {
                            lives: 3,
                            kind: SpotKind::Digit,
                            id: digit,
                        },
                    ));
                    digit -= 1;
                    boundaries += 1;
                }
                continue;
            }
            let mut i = 0;
            while i < bb.len() {
                let b = bb[i];
                let spot = match b {
                    b'0'..=b'3' => {
                        let s = Spot {
                            lives: 3 - (b - b'0'),
                            kind: SpotKind::Digit,
                            id: digit,
                        };
                        digit -= 1;
                        s
                    }
                    b'a'..=b'l' | b'm' => {
                        let compact = (b != b'm').then(|| u32::from(b - b'a') + 1);
                        Spot {
                            lives: 1,
                            kind: SpotKind::RegionLetter,
                            id: letter_number(bb, &mut i, compact),
                        }
                    }
                    b'o'..=b'z' | b'n' => {
                        let compact = (b != b'n').then(|| u32::from(b'z' - b) + 1);
                        Spot {
                            lives: 1,
                            kind: SpotKind::RegionLetter,
                            id: 1 << 30 | letter_number(bb, &mut i, compact),
                        }
                    }
                    b'A'..=b'Z' => {
                        let compact = (b != b'Z').then(|| u32::from(b - b'A') + 1);
                        Spot {
                            lives: 1,
                            kind: SpotKind::LandLetter,
                            id: letter_number(bb, &mut i, compact),
                        }
                    }
                    _ => {
                        i += 1;
                        continue;
                    }
                };
                if spot.lives > 0 {
                    corners.push((boundaries, spot));
                }
                i += 1;
            }
            boundaries += 1;
        }
        total = total.saturating_add(region_move_count(&corners, boundaries, &upper));
    }
    total.min(u128::from(u32::MAX)) as u32
}

/// The distinct moves of one region, given its live corners in order as `(boundary, spot)` and
/// the land's upper-case letter occurrences (see [`move_count`]).
fn region_move_count(corners: &[(u32, Spot)], boundaries: u32, upper: &[(u32, u32)]) -> u128 {
    let nb = boundaries as usize;
    let m_all = corners.len();
    // Per corner: how often its spot is met on its boundary and in the region, and whether this
    // is the spot's first corner on the boundary. Digits are met once; letters twice at most.
    let mut on_boundary: SmallVec<[u8; 64]> = SmallVec::from_elem(1, m_all);
    let mut in_region: SmallVec<[u8; 64]> = SmallVec::from_elem(1, m_all);
    let mut first: SmallVec<[bool; 64]> = SmallVec::from_elem(true, m_all);
    for i in 0..m_all {
        let (bi, si) = corners[i];
        if si.kind == SpotKind::Digit {
            continue;
        }
        for j in i + 1..m_all {
            let (bj, sj) = corners[j];
            if sj == si {
                in_region[i] = in_region[i].saturating_add(1);
                in_region[j] = in_region[j].saturating_add(1);
                if bj == bi {
                    on_boundary[i] = on_boundary[i].saturating_add(1);
                    on_boundary[j] = on_boundary[j].saturating_add(1);
                    first[j] = false;
                }
            }
        }
    }
    // The corners of each boundary (a range of `corners`) and the region's lives.
    let mut ranges: SmallVec<[(usize, usize); 32]> = SmallVec::from_elem((0, 0), nb);
    let mut k = 0;
    let mut region_lives = 0u32;
    for (b, r) in ranges.iter_mut().enumerate() {
        let s = k;
        while k < m_all && corners[k].0 as usize == b {
            if first[k] {
                region_lives += u32::from(corners[k].1.lives);
            }
            k += 1;
        }
        *r = (s, k);
    }
    if region_lives < 2 {
        return 0;
    }
    // Occurrences of the spot at corner `i` in the land.
    let occurrences = |i: usize| -> u8 {
        let s = corners[i].1;
        match s.kind {
            SpotKind::Digit => 1,
            SpotKind::LandLetter => upper
                .iter()
                .find(|(n, _)| *n == s.id)
                .map_or(0, |e| e.1.min(255) as u8),
            SpotKind::RegionLetter => in_region[i],
        }
    };
    // Interchangeability classes of the live boundaries (every boundary listed has a live
    // corner): closed ones by their least rotation, every other one a class of its own.
    let mut keys: SmallVec<[(u128, usize); 32]> = SmallVec::new();
    let mut long_keys: SmallVec<[SmallVec<[u32; 8]>; 2]> = SmallVec::new();
    let mut class: SmallVec<[u32; 32]> = SmallVec::from_elem(u32::MAX, nb);
    let mut sizes: SmallVec<[u32; 32]> = SmallVec::new();
    for (b, &(s, e)) in ranges.iter().enumerate() {
        if s == e {
            continue;
        }
        if (s..e).any(|i| on_boundary[i] != occurrences(i)) {
            class[b] = sizes.len() as u32;
            sizes.push(1);
            continue;
        }
        // Words of at most 24 codes (of 5 bits) packed with their length; longer ones numbered.
        let key = if e - s <= PACKED_CODES {
            packed_least_rotation(&corners[s..e], &on_boundary[s..e])
        } else {
            let word = least_rotation(&corners[s..e], &on_boundary[s..e]);
            let id = match long_keys.iter().position(|w| *w == word) {
                Some(id) => id,
                None => {
                    long_keys.push(word);
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
    // Families with both corners on boundary `b`: pairs of its corners (a corner with itself
    // included) less those of one single-life spot, each counting the product over the other
    // live boundaries' classes of (size + 1).
    let mut all_product: u128 = 1;
    for &size in &sizes {
        all_product = all_product.saturating_mul(u128::from(size) + 1);
    }
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
            if corners[i].1.lives < 2 && first[i] {
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
        if in_region[i] > on_boundary[i] && corners[i].1.lives < 2 {
            // Corners of the same spot on later boundaries.
            let (bi, si) = corners[i];
            let later = corners[i + 1..]
                .iter()
                .filter(|&&(bj, sj)| sj == si && bj != bi)
                .count();
            cross -= later as u128;
        }
    }
    total.saturating_add(cross)
}

/// The most codes of a boundary's word packed into one key (5 bits each, and the length).
const PACKED_CODES: usize = 24;

/// [`least_rotation`] of a word of at most [`PACKED_CODES`] corners, packed: the length, then
/// each code in 5 bits (lexicographic order of words of one length is the order of the
/// numbers).
fn packed_least_rotation(w: &[(u32, Spot)], on_boundary: &[u8]) -> u128 {
    let m = w.len();
    let repeats = on_boundary.iter().any(|&t| t > 1);
    let mut best = u128::MAX;
    let mut names: SmallVec<[Spot; 8]> = SmallVec::new();
    for rot in 0..m {
        names.clear();
        let mut key = m as u128;
        for k in 0..m {
            let i = if rot + k < m { rot + k } else { rot + k - m };
            let s = w[i].1;
            let code = if repeats && on_boundary[i] > 1 {
                let idx = match names.iter().position(|&n| n == s) {
                    Some(i) => i,
                    None => {
                        names.push(s);
                        names.len() - 1
                    }
                };
                16 + idx as u32
            } else {
                u32::from(s.lives)
            };
            key = key << 5 | u128::from(code);
        }
        best = best.min(key);
    }
    best
}

/// The least rotation of a closed boundary's live word: a spot met once written by its lives,
/// repeated spots (`on_boundary` above 1) numbered `16, 17, ...` in order of appearance.
fn least_rotation(w: &[(u32, Spot)], on_boundary: &[u8]) -> SmallVec<[u32; 8]> {
    let m = w.len();
    let mut best: SmallVec<[u32; 8]> = SmallVec::new();
    let mut cur: SmallVec<[u32; 8]> = SmallVec::new();
    let mut names: SmallVec<[Spot; 8]> = SmallVec::new();
    for rot in 0..m {
        cur.clear();
        names.clear();
        for k in 0..m {
            let i = (rot + k) % m;
            let s = w[i].1;
            let code = if on_boundary[i] > 1 {
                let idx = match names.iter().position(|&n| n == s) {
                    Some(i) => i,
                    None => {
                        names.push(s);
                        names.len() - 1
                    }
                };
                16 + idx as u32
            } else {
                u32::from(s.lives)
            };
            cur.push(code);
        }
        if rot == 0 || cur < best {
            std::mem::swap(&mut best, &mut cur);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use sprouts_topo::Position;

    #[test]
    fn lives_match_the_position() {
        for text in [
            "0*12",
            "0*8.AB|0*3.AB",
            "0.1a1a.AB|AB",
            "12AB2a1a|AB",
            "0*4.1Aab1baBCD|ADCB",
            "22",
            "0",
        ] {
            let p = Position::parse_glop(text).unwrap();
            assert_eq!(lives(text), p.total_lives(), "{text}");
        }
    }

    /// The reference: the land parsed, its families' distinct moves summed.
    fn move_count_parsed(land: &str) -> u32 {
        Position::parse_glop(land)
            .unwrap()
            .families()
            .iter()
            .map(|f| f.distinct_move_count())
            .fold(0u128, u128::saturating_add)
            .min(u128::from(u32::MAX)) as u32
    }

    #[test]
    fn move_counts_of_written_lands() {
        for text in [
            "0*12",
            "0*8.AB|0*3.AB",
            "0.1a1a.AB|AB",
            "12AB2a1a|AB",
            "0*4.1Aab1baBCD|ADCB",
            "22",
            "0",
            "1ab1ba.1cd1dc.0.0.2",
            "abcdefghijklm(13)m(13)lkjihgfedcba.1",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ(26)|0.Z(26)YXWVUTSRQPONMLKJIHGFEDCBA",
        ] {
            assert_eq!(move_count(text), move_count_parsed(text), "{text}");
        }
    }

    /// Every land of every position reachable from 1 to 4 spots, and of random games from 5 to
    /// 14 spots: the count read off the text is the parsed position's.
    #[test]
    fn move_counts_equal_the_parsed_count() {
        let mut lands = std::collections::BTreeSet::new();
        for n in 1..=4u32 {
            let mut seen = std::collections::HashSet::new();
            let mut layer = vec![Position::new(n)];
            while !layer.is_empty() {
                let mut next = Vec::new();
                for p in &layer {
                    for c in p.distinct_children() {
                        if seen.insert(c.as_str().to_string()) {
                            lands.extend(c.lands().map(str::to_string));
                            next.push(Position::parse_glop(c.as_str()).unwrap());
                        }
                    }
                }
                layer = next;
            }
        }
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for game in 0..300u64 {
            let mut p = Position::new(5 + (game % 10) as u32);
            loop {
                let moves: Vec<_> = p.distinct_moves().collect();
                if moves.is_empty() {
                    break;
                }
                p = p.play(&moves[next() as usize % moves.len()]).unwrap();
                lands.extend(p.canonical().lands().map(str::to_string));
            }
        }
        assert!(lands.len() > 3000, "{}", lands.len());
        for l in &lands {
            assert_eq!(move_count(l), move_count_parsed(l), "{l}");
        }
    }
}
