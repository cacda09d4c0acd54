//! [`Searcher`]: the entry point that owns the evaluation, the table and the heuristics.

use crate::deepening::{Completed, deepen};
use crate::endgame;
use crate::heuristics::Heuristics;
use crate::limits::Clock;
use crate::score::{final_value, leaf_value};
use crate::threads::with_helpers;
use crate::worker::Worker;
use crate::{Iteration, Limits, SearchConfig, SearchResult, SearchStats, Selectivity};
use othello_endgame::Solver;
use othello_engine::{Player, Progress, Reply};
use othello_eval::Evaluator;
use othello_rules::{BoardSize, Move, Position};
use othello_table::{Table, TranspositionTable};

/// A configured search: an evaluation, a [`SearchConfig`], and the state kept between searches
/// of one game (the table, killers and history).
///
/// ```
/// use othello_eval::Discs; // centi-discs, as every evaluator
/// use othello_rules::Position;
/// use othello_search::{Limits, SearchConfig, Searcher};
///
/// let mut searcher = Searcher::new(Discs, SearchConfig::default());
/// let result = searcher.search(&Position::start(), &Limits::depth(4), |_| {});
/// assert!(Position::start().is_legal(result.best_move));
/// assert_eq!(result.depth, 4);
/// ```
///
/// The table type is a parameter: [`TranspositionTable`] by default (shared by the Lazy SMP
/// threads), or any [`Table`], e.g. the lock-free single-thread
/// [`LocalTable`](othello_table::LocalTable) through [`Searcher::with_table_type`]. A table
/// that is not shareable ([`Table::as_shared`] is `None`) runs the search on one thread. The
/// endgame solver a search hands the root to ([`SearchConfig::endgame_empties`]) has its own
/// table of the same type, and likewise solves on one thread when it is not shareable.
pub struct Searcher<E: Evaluator, T: Table = TranspositionTable> {
    eval: E,
    config: SearchConfig,
    table: Option<T>,
    table_mib: usize,
    /// The rule the table's values were computed under, `(quiescence, selectivity,
    /// reductions)`: a value depends on it as well as on the position (the board size is part
    /// of the table's key, so sizes share a table), and a selective entry serves only a search
    /// at its level with the same reductions.
    table_rule: Option<(bool, Selectivity, bool)>,
    /// Whether the table holds nothing (just allocated or cleared, no search since): an empty
    /// table suits any rule, so the next search need not clear it again.
    table_empty: bool,
    heuristics: Heuristics,
    helper_heuristics: Vec<Heuristics>,
    /// The endgame solver of 8x8 roots (with the configuration's ordering evaluation),
    /// created on first use, on its own table of type `T`.
    solver: Option<Solver<T>>,
    /// The endgame solver of the smaller boards (the built-in ordering), created on first use.
    small_solver: Option<Solver<T>>,
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher with `eval` and `config` and the default shared [`TranspositionTable`]. The
    /// table is allocated by [`Searcher::new_game`] or the first search, whichever comes first.
    pub fn new(eval: E, config: SearchConfig) -> Self {
        Searcher::with_table_type(eval, config)
    }
}

impl<E: Evaluator, T: Table> Searcher<E, T> {
    /// A searcher with `eval`, `config` and a table of type `T` (allocated with
    /// [`Table::with_mib`] by [`Searcher::new_game`] or the first search).
    ///
    /// ```
    /// use othello_eval::Discs;
    /// use othello_rules::Position;
    /// use othello_search::{Limits, SearchConfig, Searcher};
    /// use othello_table::LocalTable;
    ///
    /// let mut local: Searcher<Discs, LocalTable> = Searcher::with_table_type(Discs, SearchConfig::default());
    /// let mut shared = Searcher::new(Discs, SearchConfig::default());
    /// let pos = Position::start();
    /// let (a, b) = (local.search(&pos, &Limits::depth(5), |_| {}), shared.search(&pos, &Limits::depth(5), |_| {}));
    /// assert_eq!((a.best_move, a.score, a.nodes), (b.best_move, b.score, b.nodes));
    /// ```
    pub fn with_table_type(eval: E, config: SearchConfig) -> Self {
        Searcher {
            eval,
            config,
            table: None,
            table_mib: 0,
            table_rule: None,
            table_empty: false,
            heuristics: Heuristics::default(),
            helper_heuristics: Vec::new(),
            solver: None,
            small_solver: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The configuration, to change between searches (a new table size takes effect at the
    /// next search).
    pub fn config_mut(&mut self) -> &mut SearchConfig {
        &mut self.config
    }

    /// The evaluation.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Forgets everything learnt: clears the table, the killers and the history. After it, a
    /// single-threaded search repeats a fresh searcher's result and node count exactly.
    ///
    /// It also does a game's setup work, so that no timed move pays for it: the table is
    /// allocated here if it is not yet (or its size changed), and so is the endgame solver's
    /// when the configuration hands endgames to it ([`SearchConfig::endgame_empties`]); the
    /// first search after it neither allocates nor clears a table. A searcher never given a
    /// new game allocates on its first search instead.
    pub fn new_game(&mut self) {
        let prunes = self.config.algorithm.prunes();
        if prunes && self.config.tt_mib > 0 && self.allocate_table() {
            // Freshly allocated: empty already.
        } else if let Some(t) = &self.table {
            t.clear();
        }
        self.table_empty = self.table.is_some();
        self.heuristics.clear();
        self.helper_heuristics.clear();
        match &mut self.solver {
            Some(solver) => solver.new_game(),
            None if prunes && self.config.endgame_empties > 0 => {
                self.solver = Some(endgame::new_solver(&self.config, BoardSize::Eight));
            }
            None => {}
        }
        if let Some(solver) = &mut self.small_solver {
            solver.new_game();
        }
    }

    /// The endgame solver for a root of `size`, created on first use.
    fn solver_for(&mut self, size: BoardSize) -> &mut Solver<T> {
        let config = &self.config;
        let slot = if size == BoardSize::Eight {
            &mut self.solver
        } else {
            &mut self.small_solver
        };
        slot.get_or_insert_with(|| endgame::new_solver(config, size))
    }

    /// Allocates the table when there is none or its size is not the configured one; whether
    /// it did (the new table is empty).
    fn allocate_table(&mut self) -> bool {
        if self.table.is_some() && self.table_mib == self.config.tt_mib {
            return false;
        }
        // The old table goes first, so that two never coexist.
        self.table = None;
        self.table = Some(T::with_mib(self.config.tt_mib));
        self.table_mib = self.config.tt_mib;
        self.table_rule = None;
        true
    }

    /// Makes the table match the configuration: its size, and the horizon rule and the
    /// selectivity its values were computed under (a change of the quiescence setting, of
    /// the selectivity or of the late-move reductions clears a table that holds values: a
    /// selective entry never serves a less selective search). A change of board size needs
    /// nothing: the size is part of the table's key, and searches of other sizes are
    /// full-width.
    fn prepare_table(&mut self) {
        if !self.config.algorithm.prunes() || self.config.tt_mib == 0 {
            return;
        }
        if self.allocate_table() {
            self.table_empty = true;
        }
        let table = self.table.as_ref().expect("allocated above");
        let rule = (self.config.quiescence, self.config.selectivity, self.config.reductions);
        if self.table_rule != Some(rule) {
            if !self.table_empty {
                table.clear();
            }
            self.table_rule = Some(rule);
        }
        // The search about to run fills it.
        self.table_empty = false;
        table.new_search();
    }

    /// Searches `pos` within `limits`, calling `on_iteration` after each completed iteration,
    /// and returns the best move, its score, the PV and the statistics. `pos` is not changed.
    ///
    /// Always returns a legal move: `Move::Pass` when the side to move must pass, and when the
    /// game is over (then with the final score, `depth` 0 and `exact`). See the crate docs for
    /// the semantics of depth, limits and scores.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> SearchResult {
        let pos = *pos;
        let empties = pos.empty_count();
        // The limits count from the call; the reported time restarts below, after the table.
        let mut clock = Clock::new(limits, empties);
        let moves = pos.moves();
        if moves.is_empty() {
            return finished(&pos, &clock);
        }
        let config = self.config.clone();
        let prunes = config.algorithm.prunes();
        self.prepare_table();
        // Reported times and speeds cover the search only, not the table's allocation or
        // clearing (the time limits still count from the call).
        clock.start = std::time::Instant::now();
        self.heuristics.age();
        self.heuristics.clear_killers();

        let forced = moves.len() == 1 && limits.time_limit(empties).is_some() && limits.depth.is_none();
        let solves = !forced && endgame::applies(&pos, limits, &config);
        // A solve that a time limit may interrupt comes after a short search, whose move is
        // played if it is (see `endgame::FALLBACK_DEPTH`). A stop flag alone changes nothing:
        // a flag that is never raised leaves the answer and its node count as without it (a
        // raised one abandons the move: an interrupted match or an NBoard `stop`).
        let interruptible = clock.hard().is_some();
        if solves && !interruptible {
            let solver = self.solver_for(pos.size());
            if let Some(result) = endgame::solve(solver, &pos, &config, &clock, &mut on_iteration) {
                return result;
            }
        }

        let mut max_depth = limits.depth.unwrap_or(u32::MAX).max(1).min(empties);
        if forced {
            // A forced move under a clock: answer at once, with a depth-1 score.
            max_depth = 1;
        }
        let solve_after = solves && interruptible;
        if solve_after {
            max_depth = max_depth.min(endgame::FALLBACK_DEPTH);
        }
        // Under a time limit with more empties than the threshold: the deepening decides when
        // to solve (a forced move's single iteration never asks).
        let mut handoff = endgame::HandOff::new(&pos, limits, &config);
        let table = if prunes { self.table.as_ref() } else { None };
        let shared = table.and_then(Table::as_shared);
        let threads = if shared.is_some() { config.threads.max(1) } else { 1 };
        if threads > 1 {
            clock.enable_busy();
        }
        let node_budget = limits.nodes.map_or(u64::MAX, |n| (n / threads as u64).max(1));

        let heuristics = std::mem::take(&mut self.heuristics);
        let eval = &self.eval;
        let ((completed, mut stats, heuristics), helper_stats) = match shared {
            Some(shared) if threads > 1 => {
                self.helper_heuristics.resize_with(threads - 1, Heuristics::default);
                with_helpers(
                    eval,
                    shared,
                    &clock,
                    &config,
                    &pos,
                    max_depth,
                    node_budget,
                    &mut self.helper_heuristics,
                    || {
                        run_main(
                            eval,
                            Some(shared),
                            &clock,
                            &config,
                            &pos,
                            heuristics,
                            node_budget,
                            max_depth,
                            handoff.as_mut(),
                            &mut on_iteration,
                        )
                    },
                )
            }
            _ => (
                run_main(
                    eval,
                    table,
                    &clock,
                    &config,
                    &pos,
                    heuristics,
                    node_budget,
                    max_depth,
                    handoff.as_mut(),
                    &mut on_iteration,
                ),
                SearchStats::default(),
            ),
        };
        self.heuristics = heuristics;
        stats += &helper_stats;
        let handed_off = handoff.is_some_and(|h| h.solve);
        // `interrupted`, not `must_stop`: with helper threads the main thread has told them to
        // stop by now, which must not cancel its solve.
        if (solve_after || handed_off) && !clock.interrupted() && !completed.as_ref().is_some_and(|c| c.exact) {
            let solver = self.solver_for(pos.size());
            if let Some(mut result) = endgame::solve(solver, &pos, &config, &clock, &mut on_iteration) {
                // The short search's nodes count too.
                result.nodes += stats.nodes;
                result.stats.nodes = result.nodes;
                return result;
            }
        }
        stats.time = clock.elapsed();
        // The first iteration cannot be aborted, so `completed` is always set; the first legal
        // move with the static evaluation is kept as a fallback all the same.
        let done = completed.unwrap_or_else(|| Completed {
            depth: 0,
            score: leaf_value(&self.eval, &pos),
            best: moves[0],
            pv: vec![moves[0]],
            exact: false,
            values: Vec::new(),
        });
        let selectivity = if done.exact {
            Selectivity::Off
        } else {
            crate::worker::effective_selectivity(&self.eval, &config, &pos)
        };
        result(&pos, done, stats, config.multi_pv, selectivity)
    }
}

/// The main thread's iterative deepening on a table of type `T`.
#[allow(clippy::too_many_arguments, reason = "internal plumbing of the search state")]
fn run_main<E: Evaluator, T: Table>(
    eval: &E,
    table: Option<&T>,
    clock: &Clock,
    config: &SearchConfig,
    pos: &Position,
    heuristics: Heuristics,
    node_budget: u64,
    max_depth: u32,
    handoff: Option<&mut endgame::HandOff>,
    on_iteration: &mut impl FnMut(&Iteration),
) -> (Option<Completed>, SearchStats, Heuristics) {
    let mut worker = Worker::new(eval, table, clock, config, pos, heuristics, node_budget);
    let completed = deepen(&mut worker, pos, 1, max_depth, config, clock, handoff, on_iteration);
    (completed, worker.stats, worker.heuristics)
}

/// The result for a finished game: a pass with the final score.
fn finished(pos: &Position, clock: &Clock) -> SearchResult {
    let score = final_value(pos);
    let time = clock.elapsed();
    SearchResult {
        best_move: Move::Pass,
        score,
        score_black: score * pos.side_to_move().sign(),
        depth: 0,
        nodes: 0,
        time,
        pv: Vec::new(),
        exact: true,
        selectivity: Selectivity::Off,
        stats: SearchStats {
            time,
            ..SearchStats::default()
        },
        root_moves: Vec::new(),
    }
}

fn result(
    pos: &Position,
    done: Completed,
    stats: SearchStats,
    multi_pv: bool,
    selectivity: Selectivity,
) -> SearchResult {
    SearchResult {
        best_move: done.best,
        score: done.score,
        score_black: done.score * pos.side_to_move().sign(),
        depth: done.depth,
        nodes: stats.nodes,
        time: stats.time,
        pv: done.pv,
        exact: done.exact,
        selectivity,
        stats,
        root_moves: if multi_pv { done.values } else { Vec::new() },
    }
}

impl<E: Evaluator, T: Table> Player for Searcher<E, T> {
    /// The algorithm's name: `pvs`, `alphabeta`, `negamax` or `minimax`.
    fn name(&self) -> String {
        match self.config.algorithm {
            crate::Algorithm::Minimax => "minimax",
            crate::Algorithm::Negamax => "negamax",
            crate::Algorithm::AlphaBeta => "alphabeta",
            crate::Algorithm::Pvs => "pvs",
        }
        .to_string()
    }

    fn new_game(&mut self) {
        Searcher::new_game(self);
    }

    /// [`Searcher::search`]: the score in centi-discs, the depth of the last completed
    /// iteration, the nodes of all threads, and with [`SearchConfig::multi_pv`] every root
    /// move's value.
    fn think(&mut self, pos: &Position, limits: &Limits) -> Reply {
        reply(self.search(pos, limits, |_| {}))
    }

    /// [`Player::think`], reporting each completed iteration (the `on_iteration` callback of
    /// [`Searcher::search`]) as a [`Progress`].
    fn think_with(&mut self, pos: &Position, limits: &Limits, on_progress: &mut dyn FnMut(&Progress)) -> Reply {
        reply(self.search(pos, limits, |it| on_progress(&progress(it))))
    }
}

/// An iteration as the player layer's [`Progress`].
fn progress(it: &Iteration) -> Progress {
    Progress::new(it.depth, it.score, it.exact)
        .with_nodes(it.nodes)
        .with_time(it.time)
        .with_pv(it.pv.clone())
        .with_selectivity(it.selectivity)
}

/// A search result as the player layer's [`Reply`].
fn reply(r: SearchResult) -> Reply {
    Reply::new(r.best_move)
        .with_score(r.score, r.exact)
        .with_depth(r.depth)
        .with_nodes(r.nodes)
        .with_time(r.time)
        .with_pv(r.pv)
        .with_selectivity(r.selectivity)
        .with_root_moves(r.root_moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Algorithm;
    use othello_eval::Discs;

    /// `new_game` sets up the table and the 8x8 solver ahead of the first move exactly when a
    /// search can use them: a table for a pruning algorithm with a size, the solver for a
    /// pruning algorithm with the solver on. Neither exists before; the [`Player`] method does
    /// the same.
    #[test]
    fn new_game_allocates_what_a_search_can_use() {
        for algorithm in [
            Algorithm::Minimax,
            Algorithm::Negamax,
            Algorithm::AlphaBeta,
            Algorithm::Pvs,
        ] {
            for (endgame_empties, tt_mib) in [(0, 1), (1, 0), (14, 1), (14, 2)] {
                for via_player in [false, true] {
                    let config = SearchConfig::default()
                        .with_algorithm(algorithm)
                        .with_tt_mib(tt_mib)
                        .with_endgame_empties(endgame_empties);
                    let mut s = Searcher::new(Discs, config);
                    assert!(s.table.is_none() && s.solver.is_none() && s.small_solver.is_none());
                    let case = format!("{algorithm:?}, endgame {endgame_empties}, {tt_mib} MiB");
                    for _ in 0..2 {
                        // A second game keeps (and clears) what the first set up.
                        if via_player {
                            Player::new_game(&mut s);
                        } else {
                            s.new_game();
                        }
                        let prunes = algorithm.prunes();
                        assert_eq!(s.table.is_some(), prunes && tt_mib > 0, "{case}");
                        assert_eq!(s.table_mib, if prunes { tt_mib } else { 0 }, "{case}");
                        assert_eq!(s.solver.is_some(), prunes && endgame_empties > 0, "{case}");
                        assert!(
                            s.small_solver.is_none(),
                            "the small boards' solver waits for a small root"
                        );
                    }
                }
            }
        }
    }

    /// A finished game is answered at once: a pass with the final score, its time in the
    /// statistics as well.
    #[test]
    fn a_finished_game_is_a_pass_with_its_final_score() {
        for (side, score) in [("X", 6200), ("O", -6200)] {
            let pos: Position = format!("{}O {side}", "X".repeat(63)).parse().expect("a full board");
            let mut s = Searcher::new(Discs, SearchConfig::default());
            let r = s.search(&pos, &Limits::depth(5), |_| {});
            assert_eq!((r.best_move, r.score, r.score_black), (Move::Pass, score, 6200));
            assert_eq!((r.exact, r.depth, r.nodes, r.pv.len()), (true, 0, 0, 0));
            assert_eq!(r.stats.time, r.time);
            assert!(r.time > std::time::Duration::ZERO);
        }
    }
}
