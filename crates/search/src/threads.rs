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
//! `BUSY_MIN_DEPTH` on) in a small shared [`BusySet`](othello_table::BusySet), and a thread that meets a move whose
//! child is marked by another thread (other than the first move of a node: the young brothers
//! wait) searches the node's other moves first and that one last, by when the table usually
//! holds its value. Measured in `docs/BENCHMARKS.md`: 1.92x with 2 threads on `othello bench`
//! (Intel Xeon, family 6 model 207, quiet, 2026-11-30).
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
                    worker.set_abortable();
                    worker.helper = true;
                    let first = 1 + (k as u32 + 1) % 2;
                    deepen(
                        &mut worker,
                        pos,
                        first.min(max_depth),
                        max_depth,
                        config,
                        clock,
                        None,
                        |_| {},
                    );
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
