//! Search budgets: a node count, a deadline and a stop flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The limits of a search. A search that reaches one of them ends with an unknown value.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The most nodes the search may expand.
    pub nodes: Option<u64>,
    /// The instant after which the search stops.
    pub deadline: Option<Instant>,
    /// A flag another thread may raise to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// At most `n` nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// A deadline `d` from now.
    pub fn time(d: Duration) -> Limits {
        Limits {
            deadline: Instant::now().checked_add(d),
            ..Limits::default()
        }
    }

    /// The same limits, also stopped when `flag` is raised.
    pub fn with_stop(self, flag: Arc<AtomicBool>) -> Limits {
        Limits {
            stop: Some(flag),
            ..self
        }
    }

    /// Whether a search that has expanded `nodes_so_far` nodes must stop.
    pub fn exceeded(&self, nodes_so_far: u64) -> bool {
        if self.nodes.is_some_and(|n| nodes_so_far >= n) {
            return true;
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return true;
        }
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A search result: `value` is None when the limits ended the search first ("unknown").
#[derive(Clone, Debug)]
pub struct Solved<T> {
    /// The value, or None when the search was stopped by its limits.
    pub value: Option<T>,
    /// The nodes the search expanded.
    pub nodes: u64,
    /// The time the search took.
    pub elapsed: Duration,
}
