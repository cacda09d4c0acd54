//! Lazy SMP with ABDADA's exclusive marks: helper threads that share the table and split the
//! work.
//!
//! Every helper runs its own iterative deepening on the same root with its own killers,
//! history and PV, and writes what it learns into the shared [`TranspositionTable`]; the main
//! thread finds those entries (best moves for ordering, values of equal draft for cutoffs).
//! Odd helpers start one depth ahead so the threads spread over two depths.
//!
//! Lazy SMP alone gained little here (1.0-1.2x with 2 threads on the bench), because an entry
//! settles a node only at equal draft: the threads mostly searched the same nodes in the same
//! order. So, as in ABDADA, every thread marks the nodes it is searching (from
//! `BUSY_MIN_DEPTH` on) in a small shared [`Busy`] set, and a thread that meets a move whose
//! child is marked by another thread (other than the first move of a node: the young brothers
//! wait) searches the node's other moves first and that one last, by when the table usually
//! holds its value. Measured in `docs/BENCHMARKS.md` (1.45-1.6x with 2 threads, loaded).
//!
//! The helpers stop when the main thread is done, and the result is the main thread's alone:
//! the order of the moves changes only which work is done first, and thanks to the equal-draft
//! rule and the root tie rule its move and score are those of a single-threaded search (only
//! node counts, timing and PVs among equal lines may differ).

use crate::deepening::deepen;
use crate::heuristics::Heuristics;
use crate::limits::Clock;
use crate::worker::Worker;
use crate::{SearchConfig, SearchStats};
use othello_eval::Evaluator;
use othello_rules::Position;
use othello_table::TranspositionTable;
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the busy set: only the nodes on the threads' current paths are marked at once
/// (at most threads x 64), so collisions are rare; one only makes a move wait.
const BUSY_SLOTS: usize = 1 << 12;

/// The nodes the threads are searching now (ABDADA's "exclusive" marks), by position key.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

/// The busy-set key of a side-relative position (never 0, the empty slot).
#[inline]
pub(crate) fn busy_key(p: u64, o: u64) -> u64 {
    othello_rules::hash::hash_pair(p, o) | 1
}

impl Busy {
    pub(crate) fn new() -> Busy {
        Busy {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 40) as usize & (BUSY_SLOTS - 1)]
    }

    /// Marks `key` busy; false if its slot is taken (by this position or another).
    #[inline]
    pub(crate) fn enter(&self, key: u64) -> bool {
        self.slot(key)
            .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Clears the mark set by a successful [`Busy::enter`].
    #[inline]
    pub(crate) fn leave(&self, key: u64) {
        self.slot(key).store(0, Ordering::Relaxed);
    }

    /// Whether another thread is searching `key` now.
    #[inline]
    pub(crate) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
}

/// Runs `work` (the main thread's search) while `helpers.len()` helper threads search the same
/// position; returns `work`'s result and the helpers' summed counters. The helpers' heuristics
/// are handed back through `helpers`.
#[allow(clippy::too_many_arguments, reason = "internal plumbing of the shared search state")]
pub(crate) fn with_helpers<E: Evaluator, R>(
    eval: &E,
    table: &TranspositionTable,
    clock: &Clock,
    config: &SearchConfig,
    pos: &Position,
    max_depth: u32,
    node_budget: u64,
    helpers: &mut [Heuristics],
    work: impl FnOnce() -> R,
) -> (R, SearchStats) {
    std::thread::scope(|s| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(k, slot)| {
                let heuristics = std::mem::take(slot);
                s.spawn(move || {
                    let mut worker: Worker<'_, E, TranspositionTable> =
                        Worker::new(eval, Some(table), clock, config, pos, heuristics, node_budget);
                    worker.abortable = true;
                    worker.helper = true;
                    let first = 1 + (k as u32 + 1) % 2;
                    deepen(&mut worker, pos, first.min(max_depth), max_depth, config, clock, |_| {});
                    *slot = worker.heuristics;
                    worker.stats
                })
            })
            .collect();
        let result = work();
        clock.stop_helpers();
        let mut stats = SearchStats::default();
        for h in handles {
            stats += &h.join().expect("a helper search thread panicked");
        }
        (result, stats)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_marks_are_exclusive_and_cleared() {
        let busy = Busy::new();
        let (a, b) = (busy_key(1, 2), busy_key(2, 1));
        assert!(a != 0 && b != 0 && a != b);
        assert!(!busy.is_busy(a));
        assert!(busy.enter(a));
        assert!(busy.is_busy(a));
        // A second thread entering the same node does not own the mark.
        assert!(!busy.enter(a));
        busy.leave(a);
        assert!(!busy.is_busy(a));
        // Another position sharing the slot is not reported busy, and cannot take the slot.
        let other = a ^ 2;
        assert!(busy.enter(a));
        assert!(!busy.is_busy(other));
        assert!(!busy.enter(other));
        busy.leave(a);
        assert!(busy.enter(other) && busy.is_busy(other) && !busy.is_busy(a));
    }
}
