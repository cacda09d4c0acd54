//! The per-thread search state shared by every algorithm: node counting, limits, evaluation.

use crate::heuristics::Heuristics;
use crate::limits::Clock;
use crate::pv::PvTable;
use crate::score::{DISC, EVAL_LIMIT, leaf_value};
use crate::{SearchConfig, SearchStats, Selectivity};
use othello_eval::{CutTable, Evaluator};
use othello_rules::movegen::{self, Backend};
use othello_rules::{BoardSize, Color, Position, final_score};
use othello_table::{BoardTable, Table};

/// How often (in nodes) the clock and the stop flags are read: `Instant::now` costs about as
/// much as a node, so once every 1024 nodes is free and still reacts within a millisecond.
const POLL_MASK: u64 = 1023;

/// One search thread: its counters, heuristics and PV table, and shared references to the
/// evaluation, the table and the clock.
pub(crate) struct Worker<'a, E: Evaluator, T: Table> {
    pub(crate) eval: &'a E,
    /// The table, seen for the board size of the root.
    pub(crate) table: Option<BoardTable<'a, T>>,
    pub(crate) clock: &'a Clock,
    pub(crate) pvs: bool,
    pub(crate) quiescence: bool,
    pub(crate) killers: bool,
    pub(crate) history: bool,
    pub(crate) mobility: bool,
    /// Whether nodes at depth 1 take the specialised path (`Worker::search_one`); always on
    /// outside the tests that compare it with the general node.
    pub(crate) depth_one: bool,
    /// What a selective search cuts with; `None` when full-width (see
    /// [`Worker::selectivity`]).
    pub(crate) cuts: Option<Cuts<'a>>,
    /// The selectivity in effect (`Off` when `cuts` is `None`).
    pub(crate) selectivity: Selectivity,
    /// Late-move reductions at selective nodes (`SearchConfig::reductions`; only with `cuts`).
    pub(crate) reductions: bool,
    /// The move-generation back end whose copy of the recursion runs (`kernel.rs`).
    pub(crate) backend: Backend,
    pub(crate) size: BoardSize,
    pub(crate) mask: u64,
    pub(crate) corners: u64,
    /// The board's square classes (`ordering::classes_of`), the order of moves without a key.
    pub(crate) classes: [u64; crate::ordering::MAX_CLASSES],
    pub(crate) squares: u32,
    pub(crate) root_color: Color,
    pub(crate) stats: SearchStats,
    /// Set when a limit was hit: every node then returns at once and its value is ignored.
    pub(crate) aborted: bool,
    /// Off during the first iteration, which always completes (set by
    /// [`Worker::set_abortable`]).
    pub(crate) abortable: bool,
    /// The node count from which [`Worker::enter`] polls the limits (see [`Worker::poll`]).
    poll_at: u64,
    /// A Lazy SMP helper: flushes its node count to the clock every `POLL_MASK + 1` nodes.
    pub(crate) helper: bool,
    pub(crate) node_budget: u64,
    pub(crate) heuristics: Heuristics,
    pub(crate) pv: PvTable,
}

/// The cut model of a selective search and where its confidences apply (the
/// [`Selectivity`]'s numbers, read once).
#[derive(Clone, Copy)]
pub(crate) struct Cuts<'a> {
    /// The evaluation's cut table.
    pub(crate) table: &'a CutTable,
    /// The confidence, hundredths of a standard deviation, below the guard.
    pub(crate) t: u32,
    /// The full-width plies: a cut is tried only where `ply + shallow` reaches them (0:
    /// everywhere).
    pub(crate) from: u32,
    /// The guard's confidence, at the nodes of a ply below `guard_end`.
    pub(crate) guard_t: u32,
    /// The first ply below the guard (0: no guard).
    pub(crate) guard_end: u32,
    /// Whether the guard covers only the cuts that would lower a root move's value (`/G:Kr`).
    pub(crate) one_sided: bool,
}

impl Cuts<'_> {
    /// The confidences of the cuts that fail high and fail low at a node `ply` plies below
    /// the root: `Selectivity::confidences_at` from the numbers read once (the search asserts
    /// they agree under debug assertions).
    #[inline(always)]
    pub(crate) fn confidences_at(&self, ply: usize) -> (u32, u32) {
        let ply = ply as u32;
        if ply >= self.guard_end {
            (self.t, self.t)
        } else if !self.one_sided {
            (self.guard_t, self.guard_t)
        } else if ply % 2 == 1 {
            (self.guard_t, self.t)
        } else {
            (self.t, self.guard_t)
        }
    }
}

impl<'a, E: Evaluator, T: Table> Worker<'a, E, T> {
    #[allow(
        clippy::too_many_arguments,
        reason = "internal constructor, every argument is distinct"
    )]
    pub(crate) fn new(
        eval: &'a E,
        table: Option<&'a T>,
        clock: &'a Clock,
        config: &SearchConfig,
        pos: &Position,
        heuristics: Heuristics,
        node_budget: u64,
    ) -> Worker<'a, E, T> {
        let size = pos.size();
        let selectivity = effective_selectivity(eval, config, pos);
        let cuts = selectivity.confidence().and_then(|t| {
            let (guard_t, guard_plies) = selectivity.guard().unwrap_or((t, 0));
            eval.cut_table().map(|table| Cuts {
                table,
                t,
                from: selectivity.full_width_plies(),
                guard_t,
                guard_end: if guard_plies > 0 { guard_plies + 1 } else { 0 },
                one_sided: selectivity.guard_is_one_sided(),
            })
        });
        Worker {
            eval,
            table: table.filter(|_| config.algorithm.prunes()).map(|t| t.for_size(size)),
            clock,
            pvs: config.algorithm == crate::Algorithm::Pvs,
            quiescence: config.quiescence,
            killers: config.killers,
            history: config.history,
            mobility: config.mobility_ordering,
            depth_one: true,
            reductions: config.reductions && cuts.is_some(),
            cuts,
            selectivity,
            backend: movegen::backend(),
            size,
            mask: size.mask().0,
            corners: size.corners().0,
            classes: crate::ordering::classes_of(size.mask().0),
            squares: size.squares(),
            root_color: pos.side_to_move(),
            stats: SearchStats::default(),
            aborted: false,
            abortable: false,
            poll_at: POLL_MASK + 1,
            helper: false,
            node_budget,
            heuristics,
            pv: PvTable::new(),
        }
    }

    /// Counts a node and says whether the search must unwind (a limit was hit). The limits
    /// are read at [`Worker::poll`], only from the node count `poll_at` on.
    #[inline]
    pub(crate) fn enter(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.poll_at {
            self.poll();
        }
        self.aborted
    }

    /// The limits at the node just counted: a helper's node count flushed to the clock and
    /// the clock read every `POLL_MASK + 1` nodes, the node budget checked at every node of an
    /// abortable search. Then the next node count at which any of that can happen: the next
    /// multiple of `POLL_MASK + 1`, or the budget if sooner while the search can still abort.
    /// (Polling at any other node too changes nothing: each check is made on its own terms.)
    #[cold]
    #[inline(never)]
    fn poll(&mut self) {
        let nodes = self.stats.nodes;
        if self.helper && nodes & POLL_MASK == 0 {
            self.clock.add_helper_nodes(POLL_MASK + 1);
        }
        if self.abortable
            && !self.aborted
            && (nodes >= self.node_budget || (nodes & POLL_MASK == 0 && self.clock.must_stop()))
        {
            self.aborted = true;
        }
        let next = (nodes | POLL_MASK) + 1;
        self.poll_at = if self.abortable && !self.aborted {
            next.min(self.node_budget.max(nodes + 1))
        } else {
            next
        };
    }

    /// Lets the limits abort the search from the next node on.
    pub(crate) fn set_abortable(&mut self) {
        self.abortable = true;
        self.poll_at = 0;
    }

    /// The colour to move `ply` plies below the root (passes are plies, so parity is exact).
    #[inline]
    pub(crate) fn color_at(&self, ply: usize) -> Color {
        if ply & 1 == 0 {
            self.root_color
        } else {
            self.root_color.opposite()
        }
    }

    /// The clamped evaluation of a side-relative position `ply` plies below the root.
    #[inline]
    pub(crate) fn evaluate(&mut self, p: u64, o: u64, ply: usize) -> i32 {
        self.stats.leaf_evals += 1;
        let pos = Position::from_raw_unchecked(p, o, self.color_at(ply), self.size);
        leaf_value(self.eval, &pos)
    }

    /// [`Worker::evaluate`] of a position whose side to move has the legal squares `moves`
    /// (on the board: masked), which the evaluation may use instead of generating them; read
    /// from the thread's evaluation cache when it holds the position (the same value).
    #[inline]
    pub(crate) fn evaluate_moves(&mut self, p: u64, o: u64, moves: u64, ply: usize) -> i32 {
        self.stats.leaf_evals += 1;
        let color = self.color_at(ply);
        if let Some(v) = self.heuristics.evals.get(p, o, color) {
            self.stats.cached_evals += 1;
            return v;
        }
        let pos = Position::from_raw_unchecked(p, o, color, self.size);
        let v = self
            .eval
            .evaluate_with_moves(&pos, moves)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT);
        self.heuristics.evals.put(p, o, color, v);
        v
    }

    /// The exact score of a finished game, side-relative.
    #[inline]
    pub(crate) fn final_value(&self, p: u64, o: u64) -> i32 {
        final_score(p.count_ones(), o.count_ones(), self.squares) * DISC
    }
}

/// The selectivity a search of `pos` runs at: the configuration's with a pruning algorithm, an
/// evaluation that has a cut table and an 8x8 board; `Off` otherwise.
pub(crate) fn effective_selectivity<E: Evaluator>(eval: &E, config: &SearchConfig, pos: &Position) -> Selectivity {
    if !config.selectivity.is_off()
        && config.algorithm.prunes()
        && eval.cut_table().is_some()
        && pos.size() == BoardSize::Eight
    {
        config.selectivity
    } else {
        Selectivity::Off
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use othello_eval::Discs;
    use othello_table::TranspositionTable;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// The node at which `enter` first answers true, entering up to `max` nodes, with
    /// `set_abortable` called after `abortable_after` nodes.
    fn abort_node(clock: &Clock, budget: u64, abortable_after: u64, max: u64) -> Option<u64> {
        let pos = Position::start();
        let config = SearchConfig::default();
        let mut w: Worker<'_, Discs, TranspositionTable> =
            Worker::new(&Discs, None, clock, &config, &pos, Heuristics::default(), budget);
        for n in 1..=max {
            if n == abortable_after + 1 {
                w.set_abortable();
            }
            if w.enter() {
                assert_eq!(w.stats.nodes, n);
                // Once aborted, every later node answers true.
                assert!(w.enter() && w.enter());
                return Some(n);
            }
        }
        None
    }

    /// The limits are read exactly where every node read them: the budget at its own node
    /// (or at the first node after the search becomes abortable, when already past it), the
    /// stop flag at the next multiple of 1024 nodes, nothing before the search is abortable.
    #[test]
    fn enter_aborts_at_the_same_node_as_a_check_at_every_node() {
        let clock = Clock::new(&Limits::none(), 60);
        assert_eq!(abort_node(&clock, 3000, 0, 10_000), Some(3000));
        assert_eq!(abort_node(&clock, 3000, 2000, 10_000), Some(3000));
        assert_eq!(abort_node(&clock, 1024, 0, 10_000), Some(1024));
        assert_eq!(abort_node(&clock, 1, 0, 10_000), Some(1));
        assert_eq!(abort_node(&clock, 700, 2500, 10_000), Some(2501));
        assert_eq!(abort_node(&clock, 3000, 10_000, 10_000), None);
        assert_eq!(abort_node(&clock, u64::MAX, 0, 10_000), None);
        let stop = Arc::new(AtomicBool::new(false));
        let clock = Clock::new(&Limits::default().with_stop(stop.clone()), 60);
        assert_eq!(abort_node(&clock, u64::MAX, 0, 5000), None);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(abort_node(&clock, u64::MAX, 0, 5000), Some(1024));
        assert_eq!(abort_node(&clock, u64::MAX, 1500, 5000), Some(2048));
        assert_eq!(abort_node(&clock, 1500, 1100, 5000), Some(1500));
        assert_eq!(abort_node(&clock, 9000, 5000, 5000), None);
    }

    /// A helper flushes its node count to the clock at every multiple of 1024 nodes, and
    /// only then.
    #[test]
    fn a_helper_flushes_every_1024_nodes() {
        let clock = Clock::new(&Limits::none(), 60);
        let pos = Position::start();
        let config = SearchConfig::default();
        let mut w: Worker<'_, Discs, TranspositionTable> =
            Worker::new(&Discs, None, &clock, &config, &pos, Heuristics::default(), u64::MAX);
        w.set_abortable();
        w.helper = true;
        for n in 1..=5000u64 {
            assert!(!w.enter());
            assert_eq!(clock.helper_nodes(), n / 1024 * 1024, "{n}");
        }
    }
}
