//! [`Limits`] and [`TimeLimit`], and the clock that enforces them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// When to stop searching. Every field is optional; the search stops at the first limit
/// reached, and in any case once an iteration has solved the game to the end (an exact score
/// cannot improve). With every field `None` the search runs until the game is solved; with only
/// `stop`, until the flag is set or the game is solved.
///
/// - `depth`: the deepest iteration (discs placed; passes are free). `Some(0)` is treated as 1.
/// - `nodes`: abort once this many nodes were searched (with `n` threads each thread gets
///   `nodes / n`). The first iteration always completes, so it may be exceeded by a few nodes.
/// - `time`: see [`TimeLimit`].
/// - `stop`: set it from another thread to abort; the last completed iteration is returned.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum iteration depth in discs placed.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Soft and hard time bounds.
    pub time: Option<TimeLimit>,
    /// External stop flag.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A node-limited search.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A timed search: no new iteration after `soft`, abort at `hard`.
    pub fn time(soft: Duration, hard: Duration) -> Limits {
        Limits {
            time: Some(TimeLimit { soft, hard }),
            ..Limits::default()
        }
    }
}

/// A time budget measured from the start of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimit {
    /// Do not start a new iteration after this much time.
    pub soft: Duration,
    /// Abort the running iteration at this much time.
    pub hard: Duration,
}

/// The shared clock and stop flags of one search (all threads read it).
pub(crate) struct Clock {
    pub(crate) start: Instant,
    soft: Option<Instant>,
    hard: Option<Instant>,
    external: Option<Arc<AtomicBool>>,
    /// Set when the main thread is done, so the helpers stop.
    internal: AtomicBool,
}

impl Clock {
    pub(crate) fn new(limits: &Limits) -> Clock {
        let start = Instant::now();
        Clock {
            start,
            soft: limits.time.map(|t| start + t.soft),
            hard: limits.time.map(|t| start + t.hard),
            external: limits.stop.clone(),
            internal: AtomicBool::new(false),
        }
    }

    /// Whether the running iteration must be abandoned: a stop flag or the hard time limit.
    pub(crate) fn must_stop(&self) -> bool {
        self.internal.load(Ordering::Relaxed)
            || self.external.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// Whether no new iteration may start.
    pub(crate) fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| Instant::now() >= s) || self.must_stop()
    }

    /// Tells the helper threads to stop.
    pub(crate) fn stop_helpers(&self) {
        self.internal.store(true, Ordering::Relaxed);
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
