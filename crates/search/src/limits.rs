//! The clock that enforces [`Limits`] (the type lives in `othello-engine`).

use crate::{Limits, TimeLimit};
use othello_table::BusySet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The shared clock and stop flags of one search (all threads read it).
pub(crate) struct Clock {
    pub(crate) start: Instant,
    /// The call of the search, from which the time limits count (`start` moves past the
    /// table's preparation, for the reported times).
    origin: Instant,
    /// The time limit, measured from `origin`.
    time: Option<TimeLimit>,
    hard: Option<Instant>,
    external: Option<Arc<AtomicBool>>,
    /// Set when the main thread is done, so the helpers stop.
    internal: AtomicBool,
    /// Nodes the helper threads have searched so far, flushed every 1024 nodes (for the
    /// all-thread count of [`Iteration::nodes`](crate::Iteration::nodes)).
    helper_nodes: AtomicU64,
    /// The nodes being searched, when several threads search (see `threads.rs`).
    busy: Option<BusySet>,
}

impl Clock {
    /// The clock of a search of a position with `empties` empty squares (the game clock's
    /// share depends on them).
    pub(crate) fn new(limits: &Limits, empties: u32) -> Clock {
        let start = Instant::now();
        let time = limits.time_limit(empties);
        Clock {
            start,
            origin: start,
            time,
            hard: time.map(|t| start + t.hard),
            external: limits.stop.clone(),
            internal: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
            busy: None,
        }
    }

    /// Whether the running iteration must be abandoned: a stop flag (the caller's, or the main
    /// thread's signal to its helpers) or the hard time limit.
    pub(crate) fn must_stop(&self) -> bool {
        self.internal.load(Ordering::Relaxed) || self.interrupted()
    }

    /// Whether the search as a whole is interrupted: the caller's stop flag raised or the hard
    /// time limit reached. Unlike [`must_stop`](Self::must_stop), the main thread's signal to
    /// its helpers does not count: once they have stopped, the main thread may still solve.
    pub(crate) fn interrupted(&self) -> bool {
        self.external.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// The soft and hard bounds, measured from the call of the search.
    pub(crate) fn time_limit(&self) -> Option<TimeLimit> {
        self.time
    }

    /// Time since the call of the search (what the bounds are measured against).
    pub(crate) fn since_origin(&self) -> Duration {
        self.origin.elapsed()
    }

    /// Adds nodes searched by a helper thread.
    pub(crate) fn add_helper_nodes(&self, nodes: u64) {
        self.helper_nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    /// Nodes flushed by the helper threads so far.
    pub(crate) fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Ordering::Relaxed)
    }

    /// Marks the search as multi-threaded: nodes are marked busy while searched.
    pub(crate) fn enable_busy(&mut self) {
        self.busy = Some(BusySet::new());
    }

    /// The busy set of a multi-threaded search.
    #[inline]
    pub(crate) fn busy(&self) -> Option<&BusySet> {
        self.busy.as_ref()
    }

    /// Tells the helper threads to stop.
    pub(crate) fn stop_helpers(&self) {
        self.internal.store(true, Ordering::Relaxed);
    }

    /// The hard deadline, if any.
    pub(crate) fn hard(&self) -> Option<Instant> {
        self.hard
    }

    /// The external stop flag, if any.
    pub(crate) fn external(&self) -> Option<&Arc<AtomicBool>> {
        self.external.as_ref()
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
