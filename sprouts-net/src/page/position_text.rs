//! A start position typed on the page: GLOP text read and checked before a game is built, each
//! refusal saying what is wrong and where.

use sprouts::topo::Position;

use super::session::MAX_SPOTS;

/// The longest position text read (a 200-spot position is well under it).
pub const MAX_POSITION_TEXT: usize = 4096;

/// Reads `text` as a start: GLOP notation, at most [`MAX_SPOTS`] spots, at least one spot, and
/// a picture (every spot met as often as it has curves: GLOP's reduced positions, with `2` or
/// stumps `3` written apart, are games but cannot be drawn).
///
/// # Errors
/// A message for the page.
pub fn read_start(text: &str) -> Result<Position, String> {
    if text.len() > MAX_POSITION_TEXT {
        return Err(format!(
            "a position has at most {MAX_POSITION_TEXT} characters; this one has {}",
            text.len()
        ));
    }
    if text.trim().is_empty() {
        return Err("type a position in GLOP notation, for example 0*3 or 0.1a1a".into());
    }
    let pos = Position::parse_glop(text).map_err(|e| {
        let at = e.offset().min(text.len());
        let near: String = text[at..].chars().take(12).collect();
        format!("not a position in GLOP notation: {e} (at `{near}`)")
    })?;
    let spots = pos.spot_count();
    if spots == 0 {
        return Err("the position has no spots: there is nothing to play".into());
    }
    if spots > MAX_SPOTS as usize {
        return Err(format!(
            "at most {MAX_SPOTS} spots a game here; the position has {spots}"
        ));
    }
    pos.check_drawable().map_err(|e| {
        format!(
            "this position is a game but not a picture ({e}); write every spot once with all its corners (a position written with 2 or 3 cannot be drawn)"
        )
    })?;
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_text_reads_and_bad_text_is_refused_with_the_reason() {
        assert_eq!(read_start(" 0*3 ").unwrap().spot_count(), 3);
        assert!(read_start("0.1a1a").is_ok());
        assert!(read_start("").unwrap_err().contains("type a position"));
        assert!(read_start("0.1a1a?").unwrap_err().contains("at byte 6"));
        assert!(read_start("0.2").unwrap_err().contains("not a picture"));
        assert!(read_start("!").unwrap_err().contains("no spots"));
        assert!(read_start("0*201").unwrap_err().contains("at most 200"));
        assert!(
            read_start(&"0.".repeat(3000))
                .unwrap_err()
                .contains("at most 4096")
        );
    }
}
