//! Players from short texts: `random`, `montecarlo:200`, `parity-fast:2s`,
//! `parity-sharp:depth=6`, `perfect:5s`.

use std::time::Duration;

use thiserror::Error;

use super::{
    MonteCarlo, MonteCarloBudget, ParityConfig, ParitySearch, Perfect, Player, RandomPlayer,
};

/// Why a player specification was not understood.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The player's kind is unknown.
    #[error(
        "unknown player `{0}` (expected random, montecarlo, parity-fast, parity-sharp or perfect)"
    )]
    UnknownPlayer(String),
    /// A setting is not understood for this player.
    #[error("`{setting}` is not a setting of {player} ({expected})")]
    BadSetting {
        /// The player.
        player: String,
        /// The setting as written.
        setting: String,
        /// What was expected.
        expected: &'static str,
    },
    /// The player was understood but could not start (the operating system refused its
    /// solver's threads).
    #[error("{player} cannot start: {reason}")]
    CannotStart {
        /// The player.
        player: String,
        /// Why.
        reason: String,
    },
}

/// A duration written `2s`, `1.5s` or `500ms`.
fn duration(text: &str) -> Option<Duration> {
    let (num, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else {
        return None;
    };
    let x: f64 = num.parse().ok()?;
    (x.is_finite() && (0.0..=1e6).contains(&x)).then(|| Duration::from_secs_f64(x * scale))
}

/// The player a specification names, with `seed` for its random choices.
///
/// - `random`
/// - `montecarlo[:N|:Ts]`: `N` random games per candidate (default 100), or `T` seconds
/// - `parity-fast[:OPTS]`, `parity-sharp[:OPTS]`: comma-separated `depth=D`, `Ts` (time per
///   move), `threads=N`; default depth 6
/// - `perfect[:Ts]`: time per move (default 5 s)
///
/// # Errors
///
/// [`SpecError`] when the text names no player or a setting is not understood.
///
/// # Examples
///
/// ```
/// use sprouts_ai::players::player_from_spec;
/// assert_eq!(player_from_spec("montecarlo:200", 1).unwrap().name(), "montecarlo:200");
/// assert_eq!(player_from_spec("parity-sharp:depth=6", 1).unwrap().name(), "parity-sharp:depth=6");
/// assert!(player_from_spec("parity-fast:soon", 1).is_err());
/// ```
pub fn player_from_spec(spec: &str, seed: u64) -> Result<Box<dyn Player>, SpecError> {
    let spec = spec.trim();
    let (kind, opts) = match spec.split_once(':') {
        Some((k, o)) => (k, Some(o)),
        None => (spec, None),
    };
    let bad = |setting: &str, expected: &'static str| SpecError::BadSetting {
        player: kind.to_string(),
        setting: setting.to_string(),
        expected,
    };
    match kind {
        "random" => match opts {
            None => Ok(Box::new(RandomPlayer::new(seed))),
            Some(o) => Err(bad(o, "random takes no setting")),
        },
        "montecarlo" => {
            let budget = match opts {
                None => MonteCarloBudget::Games(100),
                Some(o) => match (o.parse::<u32>(), duration(o)) {
                    (Ok(n), _) if n > 0 => MonteCarloBudget::Games(n),
                    (_, Some(d)) => MonteCarloBudget::Time(d),
                    _ => {
                        return Err(bad(
                            o,
                            "a number of games such as 200, or a time such as 2s",
                        ));
                    }
                },
            };
            Ok(Box::new(MonteCarlo::new(budget, seed)))
        }
        "parity-fast" | "parity-sharp" => {
            let mut config = ParityConfig {
                sharp: kind == "parity-sharp",
                ..ParityConfig::default()
            };
            let mut depth_set = false;
            for o in opts.into_iter().flat_map(|o| o.split(',')) {
                let o = o.trim();
                if let Some(d) = o.strip_prefix("depth=") {
                    match d.parse::<u32>() {
                        Ok(d) if (1..=1000).contains(&d) => {
                            config.depth = Some(d);
                            depth_set = true;
                        }
                        _ => return Err(bad(o, "depth=D with D from 1 to 1000")),
                    }
                } else if let Some(t) = o.strip_prefix("threads=") {
                    match t.parse::<usize>() {
                        Ok(t) if t <= 1024 => config.threads = t,
                        _ => return Err(bad(o, "threads=N with N up to 1024")),
                    }
                } else if let Some(d) = duration(o) {
                    config.time = Some(d);
                    if !depth_set {
                        config.depth = None;
                    }
                } else {
                    return Err(bad(o, "depth=D, a time such as 2s, or threads=N"));
                }
            }
            Ok(Box::new(ParitySearch::new(config, seed)))
        }
        "perfect" => {
            let time = match opts {
                None => Some(Duration::from_secs(5)),
                Some(o) => match duration(o) {
                    Some(d) => Some(d),
                    None => return Err(bad(o, "a time such as 5s")),
                },
            };
            let player = Perfect::new(time, seed).map_err(|e| SpecError::CannotStart {
                player: "perfect".into(),
                reason: e.to_string(),
            })?;
            Ok(Box::new(player))
        }
        _ => Err(SpecError::UnknownPlayer(spec.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        for (spec, name) in [
            ("random", "random"),
            ("montecarlo", "montecarlo:100"),
            ("montecarlo:2s", "montecarlo:2s"),
            ("parity-fast:2s", "parity-fast:2s"),
            ("parity-fast", "parity-fast:depth=6"),
            ("parity-sharp:depth=4", "parity-sharp:depth=4"),
            ("perfect:5s", "perfect:5s"),
            ("perfect", "perfect:5s"),
        ] {
            assert_eq!(player_from_spec(spec, 0).unwrap().name(), name, "{spec}");
        }
        for bad in [
            "",
            "randomly",
            "random:3",
            "montecarlo:0",
            "montecarlo:x",
            "parity-fast:depth=0",
            "parity-fast:depth=",
            "perfect:5",
            "parity-sharp:-1s",
            "montecarlo:nans",
        ] {
            assert!(player_from_spec(bad, 0).is_err(), "{bad}");
        }
    }
}
