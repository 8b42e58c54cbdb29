//! Cheap facts read off a land's canonical form, without parsing it into a position.

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
}
