//! What the commands accept from outside and the limits on it: positions (with the size limit of
//! the commands that search them), input files (read with a size cap), thread counts (checked
//! against the machine), numeric flags, and the short excerpt of an input that errors quote.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, bail};
use sprouts_topo::Position;

/// The most spots a position given to `moves`, `solve`, `misere` or `analyse` may have: their
/// work grows much faster than linearly with the spots (the moves of one region pair its
/// boundaries' corners), and past this size a single step takes minutes and gigabytes.
pub(crate) const MAX_SEARCH_SPOTS: usize = 500;

/// The most distinct moves a position given to `moves`, `solve`, `misere` or `analyse` may have
/// (0*500 has 375,250). The moves of a region are listed whole, and their number is exponential
/// in the region's boundaries that are not interchangeable.
pub(crate) const MAX_SEARCH_MOVES: u128 = 1_000_000;

/// The longest position text any command reads, in bytes.
pub(crate) const MAX_POSITION_BYTES: usize = 1 << 20;

/// The largest input file (a saved game) any command reads, in bytes.
pub(crate) const MAX_FILE_BYTES: u64 = 64 << 20;

/// The most characters of an input an error message quotes.
const EXCERPT_CHARS: usize = 40;

/// At most [`EXCERPT_CHARS`] characters of `text` around byte `at` (the start when `None`),
/// with `...` where it was cut, and where `at` falls in the excerpt (in characters). Every error
/// that quotes an input quotes it through this.
pub(crate) fn excerpt_at(text: &str, at: Option<usize>) -> (String, usize) {
    let at = at.unwrap_or(0).min(text.len());
    let at = (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let before = text[..at].chars().count();
    let total = text.chars().count();
    if total <= EXCERPT_CHARS {
        return (text.to_owned(), before);
    }
    // A window of EXCERPT_CHARS characters holding `at` a quarter of the way in.
    let start = before
        .saturating_sub(EXCERPT_CHARS / 4)
        .min(total - EXCERPT_CHARS);
    let mut out = String::new();
    if start > 0 {
        out.push_str("...");
    }
    out.extend(text.chars().skip(start).take(EXCERPT_CHARS));
    if start + EXCERPT_CHARS < total {
        out.push_str("...");
    }
    let caret = before - start + if start > 0 { 3 } else { 0 };
    (out, caret)
}

/// At most [`EXCERPT_CHARS`] characters of `text` from its start (see [`excerpt_at`]), with the
/// length when it was cut.
pub(crate) fn excerpt(text: &str) -> String {
    let (short, _) = excerpt_at(text, None);
    match text.chars().count() > EXCERPT_CHARS {
        true => format!("{short} ({} bytes)", text.len()),
        false => short,
    }
}

/// Reads a position in GLOP notation, with an error quoting the place of the problem (an
/// excerpt, not the whole input) and a limit on the length of the text.
pub(crate) fn read_position(text: &str) -> anyhow::Result<Position> {
    if text.len() > MAX_POSITION_BYTES {
        bail!(
            "the position `{}` is longer than {MAX_POSITION_BYTES} bytes",
            excerpt(text)
        );
    }
    Position::parse_glop(text).map_err(|e| {
        let (short, caret) = excerpt_at(text, Some(e.offset()));
        anyhow::anyhow!(
            "cannot read the position: {e}\n  {short}\n  {}^",
            " ".repeat(caret)
        )
    })
}

/// [`read_position`], refused when the position has more than `max_spots` spots or more than
/// [`MAX_SEARCH_MOVES`] distinct moves (`what` names the command in the message).
pub(crate) fn read_position_within(
    text: &str,
    max_spots: usize,
    what: &str,
) -> anyhow::Result<Position> {
    let pos = read_position(text)?;
    let spots = pos.spot_count();
    if spots > max_spots {
        bail!(
            "the position `{}` has {spots} spots; {what} takes at most {max_spots}",
            excerpt(text)
        );
    }
    let moves = pos
        .families()
        .iter()
        .fold(0u128, |n, f| n.saturating_add(f.distinct_move_count()));
    if moves > MAX_SEARCH_MOVES {
        bail!(
            "the position `{}` has {moves} distinct moves; {what} takes at most {MAX_SEARCH_MOVES}",
            excerpt(text)
        );
    }
    Ok(pos)
}

/// Reads a text file of at most [`MAX_FILE_BYTES`] bytes: a longer one (or an endless one such
/// as a device) is refused after reading one byte past the cap.
pub(crate) fn read_text_file(path: &Path) -> anyhow::Result<String> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!(
            "`{}` is larger than {} MiB, more than any input this program reads",
            path.display(),
            MAX_FILE_BYTES >> 20
        );
    }
    String::from_utf8(bytes).with_context(|| format!("`{}` is not UTF-8 text", path.display()))
}

/// The cores of this machine (1 when the system does not say).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Checks a `--threads` value against the machine: from 1 to the number of cores.
pub(crate) fn threads(requested: Option<usize>) -> anyhow::Result<Option<usize>> {
    let Some(t) = requested else {
        return Ok(None);
    };
    let most = cores();
    if t == 0 || t > most {
        bail!("--threads must be from 1 to {most} (the cores of this machine), not {t}");
    }
    Ok(Some(t))
}

/// Checks a numeric flag: `value` must lie in `least..=most`.
pub(crate) fn bounded<T: PartialOrd + std::fmt::Display>(
    flag: &str,
    value: T,
    least: T,
    most: T,
) -> anyhow::Result<T> {
    if value < least || value > most {
        bail!("{flag} must be from {least} to {most}, not {value}");
    }
    Ok(value)
}

/// A number of seconds from a flag: finite, not negative, at most `most`.
pub(crate) fn seconds(flag: &str, value: f64, most: f64) -> anyhow::Result<std::time::Duration> {
    if !(value.is_finite() && (0.0..=most).contains(&value)) {
        bail!("{flag} must be a number of seconds from 0 to {most}, not {value}");
    }
    Ok(std::time::Duration::from_secs_f64(value))
}

/// A size in bytes from a flag: a number with an optional unit `K`, `M`, `G` or `T` (powers of
/// 1024; `KB`, `MiB` and lower case read the same), from `least` to `most` bytes.
pub(crate) fn bytes(flag: &str, text: &str, least: u64, most: u64) -> anyhow::Result<u64> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => bail!("{flag}: `{text}` is not a size (a number, then K, M, G or T)"),
    };
    let value = digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1u64 << shift))
        .with_context(|| format!("{flag}: `{text}` is not a size (a number, then K, M, G or T)"))?;
    if value < least || value > most {
        bail!("{flag} must be from {least} to {most} bytes, not {value}");
    }
    Ok(value)
}

/// The machine's memory in bytes (`MemTotal` of /proc/meminfo), if it can be read.
pub(crate) fn machine_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_their_units_and_wrong_ones_are_refused() {
        assert_eq!(bytes("--memory", "4096", 0, u64::MAX).unwrap(), 4096);
        assert_eq!(bytes("--memory", "64M", 0, u64::MAX).unwrap(), 64 << 20);
        assert_eq!(bytes("--memory", "2GiB", 0, u64::MAX).unwrap(), 2 << 30);
        assert_eq!(bytes("--memory", "3 kb", 0, u64::MAX).unwrap(), 3 << 10);
        for bad in ["", "M", "12X", "-5M", "1.5G", "99999999999T"] {
            assert!(bytes("--memory", bad, 0, u64::MAX).is_err(), "{bad}");
        }
        let e = bytes("--memory", "1K", 1 << 20, 1 << 30).unwrap_err();
        assert!(
            e.to_string().contains("--memory must be from 1048576"),
            "{e}"
        );
    }

    #[test]
    fn excerpts_are_short_and_point_at_the_place() {
        assert_eq!(excerpt_at("0*2.Q", Some(4)), ("0*2.Q".to_owned(), 4));
        let long = format!("{}Q{}", "0.".repeat(1000), "0.".repeat(1000));
        let (short, caret) = excerpt_at(&long, Some(2000));
        assert!(short.chars().count() <= EXCERPT_CHARS + 6, "{short}");
        assert_eq!(short.chars().nth(caret), Some('Q'), "{short} {caret}");
        let (start, caret) = excerpt_at(&long, Some(0));
        assert!(start.starts_with("0.0.") && start.ends_with("...") && caret == 0);
        let (end, caret) = excerpt_at(&long, Some(long.len()));
        assert!(end.starts_with("...") && caret == end.chars().count());
        // Multi-byte characters are never split.
        let wide = "é".repeat(100);
        let (short, _) = excerpt_at(&wide, Some(101));
        assert!(short.chars().filter(|&c| c == 'é').count() == EXCERPT_CHARS);
        assert_eq!(excerpt("0*3"), "0*3");
        assert!(excerpt(&long).ends_with("(4001 bytes)"));
    }

    #[test]
    fn errors_quote_an_excerpt_once() {
        let long = format!("{}Q", "0.".repeat(5000));
        let err = format!("{:#}", read_position(&long).unwrap_err());
        assert!(err.len() < 300, "{err}");
        assert!(err.contains("0.0.0.Q\n"), "{err}");
        assert_eq!(err.matches("0.0.0.Q").count(), 1, "{err}");
    }

    #[test]
    fn flags_are_bounded() {
        assert!(threads(Some(0)).is_err());
        assert!(threads(Some(cores() + 1)).is_err());
        assert_eq!(threads(Some(1)).unwrap(), Some(1));
        assert!(bounded("--x", 5u32, 0, 4).is_err());
        assert_eq!(bounded("--x", 4u32, 0, 4).unwrap(), 4);
        assert!(seconds("--time", -1.0, 10.0).is_err());
        assert!(seconds("--time", f64::NAN, 10.0).is_err());
        assert!(seconds("--time", 11.0, 10.0).is_err());
        assert_eq!(
            seconds("--time", 1.5, 10.0).unwrap(),
            std::time::Duration::from_millis(1500)
        );
    }
}

#[cfg(test)]
mod move_limit_tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use sprouts_ai::players::random_move;

    use super::*;

    #[test]
    fn a_position_with_too_many_moves_is_refused_before_they_are_listed() {
        // Random moves from a large start leave regions with many boundaries that are not
        // interchangeable: their moves number in the billions, though the spots are few.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut p = Position::new(300);
        for _ in 0..40 {
            let mv = random_move(&p, &mut rng).expect("a move");
            p = p.play(&mv).expect("a legal move");
        }
        let text = p.to_glop();
        let start = std::time::Instant::now();
        let err = read_position_within(&text, MAX_SEARCH_SPOTS, "`moves`").unwrap_err();
        assert!(err.to_string().contains("distinct moves"), "{err}");
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        assert!(read_position_within("0*500", MAX_SEARCH_SPOTS, "`moves`").is_ok());
    }
}
