//! Budgets for searches: a node count, a deadline and a stop flag, and what a bounded search
//! returns.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// When a search must give up: after a number of nodes, at a deadline, or when a flag is raised
/// (a user pressing Space, a player's clock). The default is no limit.
///
/// A search that hits a limit reports "unknown" ([`Solved::value`] is `None`), never a guess.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The most nodes the search may visit.
    pub nodes: Option<u64>,
    /// The instant after which the search stops.
    pub deadline: Option<Instant>,
    /// A flag another thread raises to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all.
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

    /// At most `d` from now.
    pub fn time(d: Duration) -> Limits {
        Limits {
            deadline: Instant::now().checked_add(d),
            ..Limits::default()
        }
    }

    /// The same limits, also ended by `flag`.
    pub fn with_stop(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.stop = Some(flag);
        self
    }

    /// The same limits, also ended after `n` nodes.
    pub fn with_nodes(mut self, n: u64) -> Limits {
        self.nodes = Some(n);
        self
    }

    /// Whether a search that has visited `nodes_so_far` nodes must stop now.
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

    /// Whether any limit is set.
    pub fn is_unlimited(&self) -> bool {
        self.nodes.is_none() && self.deadline.is_none() && self.stop.is_none()
    }
}

/// The result of a bounded search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved<T> {
    /// The answer, or `None` when the limits ended the search first ("unknown").
    pub value: Option<T>,
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limit() {
        let l = Limits::nodes(10);
        assert!(!l.exceeded(9));
        assert!(l.exceeded(10));
        assert!(!Limits::none().exceeded(u64::MAX));
    }

    #[test]
    fn stop_flag() {
        let flag = Arc::new(AtomicBool::new(false));
        let l = Limits::none().with_stop(flag.clone());
        assert!(!l.exceeded(0));
        flag.store(true, Ordering::Relaxed);
        assert!(l.exceeded(0));
    }

    #[test]
    fn deadline() {
        assert!(Limits::time(Duration::ZERO).exceeded(0));
        assert!(!Limits::time(Duration::from_secs(3600)).exceeded(0));
    }
}
