//! Budgets for searches: a node count, a deadline and a stop flag, read through a clock, and what
//! a bounded search returns.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Where a search reads the time: the system's monotonic clock (wall time), the CPU time of
/// this process, or a [`ManualClock`] that moves only when told to (so tests of deadlines need
/// not sleep). The default is the system clock.
#[derive(Clone, Default)]
pub struct Clock {
    kind: ClockKind,
}

#[derive(Clone, Default)]
enum ClockKind {
    #[default]
    System,
    /// Process CPU time, shown as instants from an origin.
    Cpu(Instant),
    Manual(ManualClock),
}

impl Clock {
    /// The system's monotonic clock ([`Instant::now`]): wall time.
    pub fn system() -> Clock {
        Clock::default()
    }

    /// The CPU time of this process (every thread's, user and system), so a deadline on this
    /// clock is a number of CPU seconds: a machine shared with other work does not end a search
    /// early. With `t` threads busy it runs about `t` times as fast as wall time. Where the
    /// process's CPU time cannot be read (not a Unix system), it is wall time.
    pub fn cpu() -> Clock {
        Clock {
            kind: ClockKind::Cpu(Instant::now()),
        }
    }

    /// Whether this clock reads CPU time ([`Clock::cpu`]).
    pub fn is_cpu(&self) -> bool {
        matches!(self.kind, ClockKind::Cpu(_))
    }

    /// The current instant on this clock.
    pub fn now(&self) -> Instant {
        match &self.kind {
            ClockKind::System => Instant::now(),
            ClockKind::Cpu(origin) => match process_cpu_time() {
                Some(cpu) => *origin + cpu,
                None => Instant::now(),
            },
            ClockKind::Manual(m) => m.now(),
        }
    }
}

/// The CPU time this process has used (all threads, user and system).
#[cfg(unix)]
pub fn process_cpu_time() -> Option<Duration> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Some(Duration::new(
        u64::try_from(t.tv_sec).ok()?,
        u32::try_from(t.tv_nsec).ok()?,
    ))
}

/// The CPU time this process has used: not known on this system.
#[cfg(not(unix))]
pub fn process_cpu_time() -> Option<Duration> {
    None
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ClockKind::System => f.write_str("Clock::system"),
            ClockKind::Cpu(_) => f.write_str("Clock::cpu"),
            ClockKind::Manual(m) => write!(f, "Clock::manual(+{:?})", m.elapsed()),
        }
    }
}

/// A clock that stands still until [`ManualClock::advance`] moves it. Clones share one time.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use sprouts_ai::{Limits, ManualClock};
/// let clock = ManualClock::new();
/// let limits = Limits::none().with_clock(clock.clock()).with_time(Duration::from_secs(2));
/// assert!(!limits.exceeded(0));
/// clock.advance(Duration::from_secs(2));
/// assert!(limits.exceeded(0));
/// ```
#[derive(Clone, Debug)]
pub struct ManualClock {
    start: Instant,
    nanos: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock standing at the present instant.
    pub fn new() -> ManualClock {
        ManualClock {
            start: Instant::now(),
            nanos: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Moves the clock (and every clone of it) forward by `d`. The clock stops at
    /// [`ManualClock::MAX_ELAPSED`] from its start rather than wrapping round.
    pub fn advance(&self, d: Duration) {
        let cap = Self::MAX_ELAPSED.as_nanos() as u64;
        let add = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        let _ = self
            .nanos
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                Some(n.saturating_add(add).min(cap))
            });
    }

    /// The farthest a manual clock can be moved from its start (a hundred years).
    pub const MAX_ELAPSED: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

    /// How far the clock has been moved.
    pub fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::SeqCst))
    }

    /// The instant the clock stands at.
    pub fn now(&self) -> Instant {
        // Within a hundred years of a real instant, so representable.
        self.start + self.elapsed()
    }

    /// A [`Clock`] reading this clock.
    pub fn clock(&self) -> Clock {
        Clock {
            kind: ClockKind::Manual(self.clone()),
        }
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        ManualClock::new()
    }
}

/// When a search must give up: after a number of nodes, at a deadline, or when a flag is raised
/// (a user pressing Space, a player's clock). The default is no limit. The deadline is an
/// instant on [`Limits::clock`], which searches read through [`Limits::now`] and
/// [`Limits::exceeded`].
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
    /// The clock the deadline is read on.
    pub clock: Clock,
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

    /// At most `d` from now, on the system clock.
    pub fn time(d: Duration) -> Limits {
        Limits::none().with_time(d)
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

    /// The same limits read on `clock`. A deadline already set stays the same instant.
    pub fn with_clock(mut self, clock: Clock) -> Limits {
        self.clock = clock;
        self
    }

    /// The same limits, also ended `d` from now on this clock (the earlier of the two
    /// deadlines). A `d` too large to represent leaves the deadline as it was.
    pub fn with_time(mut self, d: Duration) -> Limits {
        if let Some(at) = self.clock.now().checked_add(d) {
            self.deadline = Some(self.deadline.map_or(at, |old| old.min(at)));
        }
        self
    }

    /// The current instant on the limits' clock.
    pub fn now(&self) -> Instant {
        self.clock.now()
    }

    /// The time left before the deadline (`None`: no deadline; zero once it has passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(self.clock.now()))
    }

    /// Whether the stop flag is raised.
    pub fn stop_raised(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether the stop flag is raised or the deadline has passed (nodes aside): the check for
    /// loops that do not count nodes.
    pub fn interrupted(&self) -> bool {
        self.stop_raised() || self.deadline.is_some_and(|d| self.clock.now() >= d)
    }

    /// Whether a search that has visited `nodes_so_far` nodes must stop now.
    pub fn exceeded(&self, nodes_so_far: u64) -> bool {
        self.nodes.is_some_and(|n| nodes_so_far >= n) || self.interrupted()
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
        assert!(!l.interrupted());
        flag.store(true, Ordering::Relaxed);
        assert!(l.exceeded(0));
        assert!(l.interrupted());
    }

    #[test]
    fn deadline_on_the_system_clock() {
        assert!(Limits::time(Duration::ZERO).exceeded(0));
        assert!(!Limits::time(Duration::from_secs(3600)).exceeded(0));
        assert!(Limits::time(Duration::MAX).deadline.is_none());
    }

    #[test]
    fn deadline_on_a_manual_clock() {
        let clock = ManualClock::new();
        let l = Limits::nodes(5)
            .with_clock(clock.clock())
            .with_time(Duration::from_millis(300));
        assert_eq!(l.remaining(), Some(Duration::from_millis(300)));
        clock.advance(Duration::from_millis(299));
        assert!(!l.exceeded(0));
        assert_eq!(l.remaining(), Some(Duration::from_millis(1)));
        clock.advance(Duration::from_millis(1));
        assert!(l.exceeded(0) && l.interrupted());
        assert_eq!(l.remaining(), Some(Duration::ZERO));
        // An earlier deadline wins; a later one does not move it.
        let l2 = l.clone().with_time(Duration::from_secs(60));
        assert_eq!(l2.deadline, l.deadline);
        // The clock stops at its farthest rather than wrapping.
        clock.advance(Duration::MAX);
        clock.advance(Duration::MAX);
        assert_eq!(clock.elapsed(), ManualClock::MAX_ELAPSED);
        assert!(clock.now() > l.deadline.unwrap());
    }
}
