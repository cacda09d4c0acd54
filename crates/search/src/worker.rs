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
    /// The cut table and the confidence (hundredths of sigma) of a selective search; `None`
    /// when full-width (see [`Worker::selectivity`]).
    pub(crate) cuts: Option<(&'a CutTable, u32)>,
    /// The selectivity in effect (`Off` when `cuts` is `None`).
    pub(crate) selectivity: Selectivity,
    /// The move-generation back end whose copy of the recursion runs (`kernel.rs`).
    pub(crate) backend: Backend,
    pub(crate) size: BoardSize,
    pub(crate) mask: u64,
    pub(crate) corners: u64,
    pub(crate) squares: u32,
    pub(crate) root_color: Color,
    pub(crate) stats: SearchStats,
    /// Set when a limit was hit: every node then returns at once and its value is ignored.
    pub(crate) aborted: bool,
    /// Off during the first iteration, which always completes.
    pub(crate) abortable: bool,
    /// A Lazy SMP helper: flushes its node count to the clock every `POLL_MASK + 1` nodes.
    pub(crate) helper: bool,
    pub(crate) node_budget: u64,
    pub(crate) heuristics: Heuristics,
    pub(crate) pv: PvTable,
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
        let cuts = selectivity.confidence().and_then(|t| eval.cut_table().map(|c| (c, t)));
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
            cuts,
            selectivity,
            backend: movegen::backend(),
            size,
            mask: size.mask().0,
            corners: size.corners().0,
            squares: size.squares(),
            root_color: pos.side_to_move(),
            stats: SearchStats::default(),
            aborted: false,
            abortable: false,
            helper: false,
            node_budget,
            heuristics,
            pv: PvTable::new(),
        }
    }

    /// Counts a node and says whether the search must unwind (a limit was hit).
    #[inline]
    pub(crate) fn enter(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.helper && self.stats.nodes & POLL_MASK == 0 {
            self.clock.add_helper_nodes(POLL_MASK + 1);
        }
        if self.abortable
            && !self.aborted
            && (self.stats.nodes >= self.node_budget || (self.stats.nodes & POLL_MASK == 0 && self.clock.must_stop()))
        {
            self.aborted = true;
        }
        self.aborted
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
    /// (on the board: masked), which the evaluation may use instead of generating them.
    #[inline]
    pub(crate) fn evaluate_moves(&mut self, p: u64, o: u64, moves: u64, ply: usize) -> i32 {
        self.stats.leaf_evals += 1;
        let pos = Position::from_raw_unchecked(p, o, self.color_at(ply), self.size);
        self.eval
            .evaluate_with_moves(&pos, moves)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
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
