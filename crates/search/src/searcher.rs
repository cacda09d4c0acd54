//! [`Searcher`]: the entry point that owns the evaluation, the table and the heuristics.

use crate::deepening::{Completed, deepen};
use crate::endgame;
use crate::heuristics::Heuristics;
use crate::limits::Clock;
use crate::score::{final_value, leaf_value};
use crate::threads::with_helpers;
use crate::worker::Worker;
use crate::{Iteration, Limits, SearchConfig, SearchResult, SearchStats};
use othello_endgame::Solver;
use othello_engine::{Player, Reply};
use othello_eval::Evaluator;
use othello_rules::{BoardSize, Move, Position};
use othello_table::TranspositionTable;

/// A configured search: an evaluation, a [`SearchConfig`], and the state kept between searches
/// of one game (the table, killers and history).
///
/// ```
/// use othello_eval::Evaluator;
/// use othello_rules::Position;
/// use othello_search::{Limits, SearchConfig, Searcher};
///
/// struct Discs;
/// impl Evaluator for Discs {
///     fn evaluate(&self, pos: &Position) -> i32 {
///         pos.disc_difference() * 100
///     }
/// }
///
/// let mut searcher = Searcher::new(Discs, SearchConfig::default());
/// let result = searcher.search(&Position::start(), &Limits::depth(4), |_| {});
/// assert!(Position::start().is_legal(result.best_move));
/// assert_eq!(result.depth, 4);
/// ```
pub struct Searcher<E: Evaluator> {
    eval: E,
    config: SearchConfig,
    table: Option<TranspositionTable>,
    table_mib: usize,
    /// What the table's values were computed for: a value depends on the board size and on
    /// the horizon rule as well as on the discs.
    table_key: Option<(BoardSize, bool)>,
    heuristics: Heuristics,
    helper_heuristics: Vec<Heuristics>,
    /// The endgame solver, created on first use.
    solver: Option<Solver>,
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher with `eval` and `config`. The table is allocated on the first search.
    pub fn new(eval: E, config: SearchConfig) -> Self {
        Searcher {
            eval,
            config,
            table: None,
            table_mib: 0,
            table_key: None,
            heuristics: Heuristics::default(),
            helper_heuristics: Vec::new(),
            solver: None,
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
    pub fn new_game(&mut self) {
        if let Some(t) = &self.table {
            t.clear();
        }
        self.table_key = None;
        self.heuristics.clear();
        self.helper_heuristics.clear();
        if let Some(solver) = &mut self.solver {
            solver.new_game();
        }
    }

    /// Makes the table match the configuration and the position's board size.
    fn prepare_table(&mut self, size: BoardSize) {
        if !self.config.algorithm.prunes() || self.config.tt_mib == 0 {
            return;
        }
        if self.table.is_none() || self.table_mib != self.config.tt_mib {
            self.table = Some(TranspositionTable::new(self.config.tt_mib));
            self.table_mib = self.config.tt_mib;
            self.table_key = None;
        }
        let table = self.table.as_ref().expect("allocated above");
        let key = (size, self.config.quiescence);
        if self.table_key != Some(key) {
            table.clear();
            self.table_key = Some(key);
        }
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
        let clock = Clock::new(limits, empties);
        let moves = pos.moves();
        if moves.is_empty() {
            return finished(&pos, &clock);
        }
        let config = self.config.clone();
        let prunes = config.algorithm.prunes();
        self.prepare_table(pos.size());
        self.heuristics.age();
        self.heuristics.clear_killers();

        let forced = moves.len() == 1 && limits.time_limit(empties).is_some() && limits.depth.is_none();
        if !forced && endgame::applies(&pos, limits, &config) {
            let solver = self.solver.get_or_insert_with(|| endgame::new_solver(&config));
            if let Some(result) = endgame::solve(solver, &pos, &config, &clock, &mut on_iteration) {
                return result;
            }
        }

        let mut max_depth = limits.depth.unwrap_or(u32::MAX).max(1).min(empties);
        if forced {
            // A forced move under a clock: answer at once, with a depth-1 score.
            max_depth = 1;
        }
        let table = if prunes { self.table.as_ref() } else { None };
        let threads = if table.is_some() { config.threads.max(1) } else { 1 };
        let node_budget = limits.nodes.map_or(u64::MAX, |n| (n / threads as u64).max(1));

        let heuristics = std::mem::take(&mut self.heuristics);
        let eval = &self.eval;
        let mut run_main = |heuristics: Heuristics| {
            let mut worker = Worker::new(eval, table, &clock, &config, &pos, heuristics, node_budget);
            let completed = deepen(&mut worker, &pos, 1, max_depth, &config, &clock, &mut on_iteration);
            (completed, worker.stats, worker.heuristics)
        };
        let ((completed, mut stats, heuristics), helper_stats) = match table {
            Some(table) if threads > 1 => {
                self.helper_heuristics.resize_with(threads - 1, Heuristics::default);
                with_helpers(
                    eval,
                    table,
                    &clock,
                    &config,
                    &pos,
                    max_depth,
                    node_budget,
                    &mut self.helper_heuristics,
                    || run_main(heuristics),
                )
            }
            _ => (run_main(heuristics), SearchStats::default()),
        };
        self.heuristics = heuristics;
        stats += &helper_stats;
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
        result(&pos, done, stats, config.multi_pv)
    }
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
        stats: SearchStats {
            time,
            ..SearchStats::default()
        },
        root_moves: Vec::new(),
    }
}

fn result(pos: &Position, done: Completed, stats: SearchStats, multi_pv: bool) -> SearchResult {
    SearchResult {
        best_move: done.best,
        score: done.score,
        score_black: done.score * pos.side_to_move().sign(),
        depth: done.depth,
        nodes: stats.nodes,
        time: stats.time,
        pv: done.pv,
        exact: done.exact,
        stats,
        root_moves: if multi_pv { done.values } else { Vec::new() },
    }
}

impl<E: Evaluator> Player for Searcher<E> {
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
    /// iteration and the nodes of all threads.
    fn think(&mut self, pos: &Position, limits: &Limits) -> Reply {
        let r = self.search(pos, limits, |_| {});
        Reply::new(r.best_move)
            .with_score(r.score, r.exact)
            .with_depth(r.depth)
            .with_nodes(r.nodes)
            .with_time(r.time)
            .with_pv(r.pv)
    }
}
