//! The public solver: root search, principal variation, threads.

use crate::cache::Cache;
use crate::layout::Layout;
use crate::search::{self, Ctx, EvalOrdering, OrderingEval, Probcut, Techniques};
use othello_engine::Limits;
use othello_rules::{Move, Position, Square, movegen};
use othello_table::{BusySet, Table, TableStats, TranspositionTable};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// With an ordering evaluation and at least `SORT_MIN` empty squares, the root moves are
/// ordered by a search of this many plies (the root move included) with the evaluation at its
/// leaves. Measured 2026-11-30: 4 and 5 plies measured on the whole sets (FFO #40-#49
/// 1 249.1 M / 1 250.6 M nodes, the 24-empty random lines 4 673.8 M / 4 705.2 M, base 1 295.7 M
/// and 5 014.0 M), 4 kept (docs/BENCHMARKS.md).
const ROOT_EVAL_PLIES: u32 = 4;

/// The selective pre-solve's levels (confidence in hundredths of a standard deviation): with
/// an ordering evaluation and at least [`PRESOLVE_MIN`] empty squares, an exact solve first
/// runs a selective search at each level in turn, and its score is the exact search's first
/// guess (see [`Probcut`]). Measured 2026-12-01, nodes on FFO #40-#49 / the 24-empty
/// random lines (docs/BENCHMARKS.md): none 1 194.7 M / 4 278.9 M; 1.5: 646.7 M / 3 200.1 M;
/// 1.5 then 2.5: 624.0 M / 3 648.6 M; 1.2 then 2.0: 629.4 M / 3 454.2 M; 1.0, 1.5, 2.5:
/// 611.2 M / 3 737.8 M. One level of 1.5 kept.
const PRESOLVE: [Probcut; 1] = [Probcut { t: 150, level: 0 }];

/// Fewest empty squares at which an exact solve starts with the selective pre-solve.
const PRESOLVE_MIN: u32 = 18;

/// How often the watcher of [`Solver::solve_within`] reads the clock and the stop flag.
const WATCH_PERIOD: Duration = Duration::from_millis(1);

/// What a solve computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// The exact final disc difference (empty squares to the winner).
    Exact,
    /// Only whether the side to move wins (1), draws (0) or loses (-1) with best play: a
    /// null-window search around 0, usually several times faster.
    WinLossDraw,
}

/// Solver settings: [`SolverConfig::default`] and the `with_` setters.
///
/// ```
/// use othello_endgame::SolverConfig;
/// let config = SolverConfig::default().with_tt_mib(16).with_threads(2);
/// assert_eq!((config.tt_mib, config.threads), (16, 2));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SolverConfig {
    /// Transposition table size in MiB.
    pub tt_mib: usize,
    /// Search threads (at least one is used).
    pub threads: usize,
    /// An evaluation for move ordering far from the leaves (none by default: a mobility/corner evaluation orders the moves). Scores never depend
    /// on it; a good evaluation (the pattern evaluation) saves nodes.
    pub ordering: Option<OrderingEval>,
}

impl Default for SolverConfig {
    /// 64 MiB, one thread.
    fn default() -> SolverConfig {
        SolverConfig {
            tt_mib: 64,
            threads: 1,
            ordering: None,
        }
    }
}

impl SolverConfig {
    /// Sets the table size in MiB.
    #[must_use]
    pub fn with_tt_mib(mut self, tt_mib: usize) -> SolverConfig {
        self.tt_mib = tt_mib;
        self
    }

    /// Sets the number of threads (0 counts as 1).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> SolverConfig {
        self.threads = threads;
        self
    }

    /// Orders moves with `eval` (centi-discs for the side to move, as
    /// `othello_eval::Evaluator::evaluate` returns), for example the pattern evaluation:
    /// `config.with_ordering(move |p| pattern.evaluate(p))`. Scores are the same with or
    /// without it; only the node count changes.
    #[must_use]
    pub fn with_ordering(mut self, eval: impl Fn(&Position) -> i32 + Send + Sync + 'static) -> SolverConfig {
        self.ordering = Some(OrderingEval::new(eval));
        self
    }

    /// Sets or removes the ordering evaluation (see [`SolverConfig::with_ordering`]).
    #[must_use]
    pub fn with_ordering_eval(mut self, eval: Option<OrderingEval>) -> SolverConfig {
        self.ordering = eval;
        self
    }
}

impl Techniques {
    /// Every technique on (the default).
    pub fn all() -> Techniques {
        Techniques::default()
    }

    /// Sets [`Techniques::stability`].
    #[must_use]
    pub fn with_stability(mut self, on: bool) -> Techniques {
        self.stability = on;
        self
    }

    /// Sets [`Techniques::parity`].
    #[must_use]
    pub fn with_parity(mut self, on: bool) -> Techniques {
        self.parity = on;
        self
    }

    /// Sets [`Techniques::fastest_first`].
    #[must_use]
    pub fn with_fastest_first(mut self, on: bool) -> Techniques {
        self.fastest_first = on;
        self
    }

    /// Sets [`Techniques::table`].
    #[must_use]
    pub fn with_table(mut self, on: bool) -> Techniques {
        self.table = on;
        self
    }

    /// Sets [`Techniques::etc`].
    #[must_use]
    pub fn with_etc(mut self, on: bool) -> Techniques {
        self.etc = on;
        self
    }

    /// Sets [`Techniques::last_four`].
    #[must_use]
    pub fn with_last_four(mut self, on: bool) -> Techniques {
        self.last_four = on;
        self
    }

    /// Sets [`Techniques::presolve`].
    #[must_use]
    pub fn with_presolve(mut self, on: bool) -> Techniques {
        self.presolve = on;
        self
    }
}

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best move: among equally good moves the lowest square index. [`Move::Pass`] when the
    /// side to move must pass, and also when the game is over (then `pv` is empty).
    pub best_move: Move,
    /// Discs from the side to move, empty squares to the winner; in
    /// [`SolveMode::WinLossDraw`] -1, 0 or 1.
    pub score: i32,
    /// Positions searched (all threads).
    pub nodes: u64,
    /// Wall-clock time of the solve.
    pub time: Duration,
    /// A principal variation starting with `best_move`, to the end of the game (each move
    /// keeps the score; after the first one, the table's move is preferred, then the lowest
    /// square index). Empty when the game is over; cut short if a stop arrives while it is
    /// being built.
    pub pv: Vec<Move>,
}

/// An exact endgame solver owning its transposition table.
///
/// The table type is a parameter: [`TranspositionTable`] by default, or any [`Table`], e.g.
/// the lock-free single-thread [`LocalTable`](othello_table::LocalTable) through
/// [`Solver::with_table_type`]. Several threads ([`SolverConfig::threads`]) solve only on a
/// table that can be shared ([`Table::as_shared`] is `Some`, as for the default table); any
/// other table solves on one thread whatever the configuration. Scores, best moves and
/// single-threaded node counts do not depend on the table type.
///
/// Reuse one solver across related solves: the table keeps every result (they are all exact
/// facts about positions, keyed by board size and discs), so a second solve of a position or
/// of its successors is fast, and positions of several board sizes share the table safely.
/// Reuse changes node counts (not results): see `docs/conventions.md`; [`Solver::new_game`]
/// empties the table, after which a solve counts what a fresh solver counts.
///
/// The table is private: every entry in it is a result to the end of the game that the solver
/// itself stored, exact or from the selective pre-solve (tagged with its level, and then only
/// a move to try first for the exact search), which is what lets the search trust any hit. No
/// public method writes into it from outside.
pub struct Solver<T: Table = TranspositionTable> {
    tt: T,
    threads: usize,
    tech: Techniques,
    ordering: Option<OrderingEval>,
    /// The pre-solve's levels (empty when [`Techniques::presolve`] is off).
    presolve: Vec<Probcut>,
    /// Nodes of the last call that searched (see [`Solver::last_nodes`]).
    last_nodes: u64,
}

impl<T: Table> std::fmt::Debug for Solver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("tt_mib", &self.tt.mib())
            .field("threads", &self.threads)
            .field("techniques", &self.tech)
            .field("ordering", &self.ordering)
            .finish()
    }
}

/// The window of a mode: results are clamped into it, so `Exact` gives exact scores and
/// `WinLossDraw` gives -1 (any loss), 0 (draw) or 1 (any win).
fn window(mode: SolveMode, squares: i32) -> (i32, i32) {
    match mode {
        SolveMode::Exact => (-squares, squares),
        SolveMode::WinLossDraw => (-1, 1),
    }
}

impl Solver {
    /// A solver with a [`TranspositionTable`] of `config.tt_mib` MiB and every technique on.
    ///
    /// # Panics
    /// If the table cannot be allocated.
    pub fn new(config: SolverConfig) -> Solver {
        Solver::with_table_type(config)
    }

    /// A solver with some techniques switched off, to measure what each brings. Results are the
    /// same whatever the techniques; only the time and the node count change.
    ///
    /// # Panics
    /// If the table cannot be allocated.
    pub fn with_techniques(config: SolverConfig, techniques: Techniques) -> Solver {
        Solver::with_table_type_and_techniques(config, techniques)
    }
}

impl<T: Table> Solver<T> {
    /// A solver with a table of type `T` of `config.tt_mib` MiB ([`Table::with_mib`]) and
    /// every technique on. A table that is not shareable ([`Table::as_shared`] is `None`)
    /// solves on one thread whatever `config.threads`.
    ///
    /// ```
    /// use othello_endgame::{SolveMode, Solver, SolverConfig};
    /// use othello_table::LocalTable;
    ///
    /// let config = SolverConfig::default().with_tt_mib(4);
    /// let mut local: Solver<LocalTable> = Solver::with_table_type(config.clone());
    /// let mut shared = Solver::new(config);
    /// let ffo1 = othello_endgame::ffo::position(1).unwrap().position;
    /// let (a, b) = (local.solve(&ffo1, SolveMode::Exact), shared.solve(&ffo1, SolveMode::Exact));
    /// assert_eq!((a.best_move, a.score, a.nodes), (b.best_move, b.score, b.nodes));
    /// ```
    ///
    /// # Panics
    /// If the table cannot be allocated.
    pub fn with_table_type(config: SolverConfig) -> Self {
        Self::with_table_type_and_techniques(config, Techniques::default())
    }

    /// [`Solver::with_table_type`] with some techniques switched off (see
    /// [`Solver::with_techniques`]).
    ///
    /// # Panics
    /// If the table cannot be allocated.
    pub fn with_table_type_and_techniques(config: SolverConfig, techniques: Techniques) -> Self {
        Solver {
            tt: T::with_mib(config.tt_mib),
            threads: config.threads.max(1),
            tech: techniques,
            ordering: config.ordering,
            presolve: if techniques.presolve {
                PRESOLVE.to_vec()
            } else {
                Vec::new()
            },
            last_nodes: 0,
        }
    }

    /// Forgets every stored result (clears the table).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// The counters of the solver's table. The table itself is private: every entry in it is
    /// a full-depth result the solver wrote, which is what lets it trust any hit.
    pub fn table_stats(&self) -> TableStats {
        self.tt.stats()
    }

    /// The nodes searched by the last [`Solver::solve`] (and its variants),
    /// [`Solver::score_moves`] or [`Solver::solve_window`], all threads together (the same count as [`Solution::nodes`] for a solve); 0 after a solve
    /// that was stopped.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// The size of the solver's table in MiB.
    pub fn table_mib(&self) -> usize {
        self.tt.mib()
    }

    /// Opens a new table generation. Nothing is cleared when the board size changes: the
    /// size is part of every entry's key, so the sizes never see each other's entries.
    fn prepare(&mut self) {
        self.tt.new_search();
    }

    /// The settings of a solve's search contexts but the table.
    fn setup(&self, layout: &'static Layout) -> Setup<'_> {
        Setup {
            layout,
            tech: self.tech,
            ordering: self.ordering.as_ref(),
        }
    }

    /// A search context on the solver's own table.
    fn ctx<'a>(&'a self, layout: &'static Layout, stop: &'a AtomicBool, halt: &'a AtomicBool) -> Ctx<'a, T> {
        self.setup(layout).ctx(&self.tt, stop, halt)
    }

    /// Solves `pos`: its exact score (or win/loss/draw) and a best move.
    pub fn solve(&mut self, pos: &Position, mode: SolveMode) -> Solution {
        let never = AtomicBool::new(false);
        self.solve_with_stop(pos, mode, &never)
            .expect("a solve without a stop request always finishes")
    }

    /// [`Solver::solve`] within `limits`: gives up (`None`) at the hard time bound (from
    /// `limits.time` or the game clock `limits.clock`) or when `limits.stop` is raised.
    /// `limits.depth` and `limits.nodes` are not read: a solve is one proof to the end of the
    /// game, and a proof cut at a node count has no answer to give. The soft time bound is not
    /// read either (a solve has no iterations to decline).
    pub fn solve_within(&mut self, pos: &Position, mode: SolveMode, limits: &Limits) -> Option<Solution> {
        let start = Instant::now();
        let deadline = limits.time_limit(pos.empty_count()).map(|t| start + t.hard);
        let external = limits.stop.as_deref();
        if deadline.is_none() {
            let never = AtomicBool::new(false);
            return self.solve_with_stop(pos, mode, external.unwrap_or(&never));
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            // Already late: do not race the watcher (a fast solve could finish before it runs).
            self.last_nodes = 0;
            return None;
        }
        let stop = AtomicBool::new(false);
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let late = deadline.is_some_and(|d| Instant::now() >= d);
                    if late || external.is_some_and(|e| e.load(Ordering::Relaxed)) {
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(WATCH_PERIOD);
                }
            });
            let solution = self.solve_with_stop(pos, mode, &stop);
            done.store(true, Ordering::Relaxed);
            solution
        })
    }

    /// [`Solver::solve`], giving up when `stop` becomes true: returns `None` when the stop
    /// arrived before the score was known. The table only ever holds finished results, so a
    /// later solve still benefits from the work done.
    pub fn solve_with_stop(&mut self, pos: &Position, mode: SolveMode, stop: &AtomicBool) -> Option<Solution> {
        self.prepare();
        // Timed after the table is prepared (a first solve clears it): search time only.
        let start = Instant::now();
        self.last_nodes = 0;
        let layout = Layout::of(pos.size());
        let (lo, hi) = window(mode, layout.squares);
        let (p, o) = (pos.player().0, pos.opponent().0);
        if pos.is_game_over() {
            self.last_nodes = 1;
            return Some(Solution {
                best_move: Move::Pass,
                score: pos.final_score().clamp(lo, hi),
                nodes: 1,
                time: start.elapsed(),
                pv: Vec::new(),
            });
        }
        // A forced pass is the only move: solve from the opponent's side.
        let (root_p, root_o, passed) = if pos.must_pass() { (o, p, true) } else { (p, o, false) };
        let (value, best_sq, mut nodes) = self.root(layout, root_p, root_o, lo, hi, stop)?;
        let root = if passed { pos.pass_unchecked() } else { *pos };
        let first = Move::Place(Square::from_index(best_sq as u8).expect("the root has a move"));
        let mut pv = Vec::new();
        if passed {
            pv.push(Move::Pass);
        }
        pv.push(first);
        let halt = AtomicBool::new(false);
        let mut ctx = self.ctx(layout, stop, &halt);
        principal_variation(&mut ctx, root.play_unchecked(first), -value, lo, hi, &mut pv);
        nodes += ctx.nodes;
        self.last_nodes = nodes;
        Some(Solution {
            best_move: if passed { Move::Pass } else { first },
            score: if passed { -value } else { value },
            nodes,
            time: start.elapsed(),
            pv,
        })
    }

    /// Every legal move with its exact score (or -1/0/1 in [`SolveMode::WinLossDraw`]), best
    /// first, equal scores by square index (the OBF order). A position where the side to move
    /// must pass gives `[(Move::Pass, score)]`; a finished game gives `[]`.
    pub fn score_moves(&mut self, pos: &Position, mode: SolveMode) -> Vec<(Move, i32)> {
        self.prepare();
        let layout = Layout::of(pos.size());
        let (lo, hi) = window(mode, layout.squares);
        let moves = pos.moves();
        let never = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let threads = self.threads.min(moves.len()).max(1);
        // Threads only on a table they can share; any other table scores on one thread.
        let parts: Vec<(Vec<(Move, i32)>, u64)> = match self.tt.as_shared().filter(|_| threads > 1) {
            None => vec![score_shared_moves(
                self.ctx(layout, &never, &never),
                pos,
                &moves,
                &next,
                lo,
                hi,
            )],
            Some(shared) => {
                let setup = self.setup(layout);
                std::thread::scope(|s| {
                    let handles: Vec<_> = (0..threads)
                        .map(|_| {
                            s.spawn(|| {
                                score_shared_moves(setup.ctx(shared, &never, &never), pos, &moves, &next, lo, hi)
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("solver thread panicked"))
                        .collect()
                })
            }
        };
        // The root is a node, as in `solve`.
        self.last_nodes = 1 + parts.iter().map(|p| p.1).sum::<u64>();
        let mut scores: Vec<(Move, i32)> = parts.into_iter().flat_map(|p| p.0).collect();
        scores.sort_by_key(|&(mv, v)| (-v, mv.to_u8()));
        scores
    }

    /// A fail-soft alpha-beta search of `pos` in the window `(alpha, beta)`, in discs: the
    /// result `v` satisfies `v <= alpha` => true score <= `v`; `v >= beta` => true score >= `v`;
    /// otherwise `v` is the true score. With `beta = alpha + 1` it is a null-window test.
    ///
    /// # Panics
    /// If `alpha >= beta`.
    pub fn solve_window(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        assert!(alpha < beta, "solve_window needs alpha < beta (got {alpha}, {beta})");
        self.prepare();
        let never = AtomicBool::new(false);
        let mut ctx = self.ctx(Layout::of(pos.size()), &never, &never);
        let v = search::search(&mut ctx, pos.player().0, pos.opponent().0, alpha, beta);
        self.last_nodes = ctx.nodes;
        v
    }

    /// The root moves, table move first, then (with `by_eval`) by a [`ROOT_EVAL_PLIES`]-ply
    /// search by the ordering evaluation when there is one and at least `SORT_MIN` empty
    /// squares, then fastest-first (ties by square index). The ordering searches' nodes are
    /// added to `nodes`.
    fn root_order(&self, layout: &Layout, p: u64, o: u64, by_eval: bool, nodes: &mut u64) -> Vec<u32> {
        let tt_sq = match self.tt.probe(layout.size, p, o).and_then(|e| e.best_move) {
            Some(Move::Place(sq)) => sq.index() as u32,
            _ => 64,
        };
        let moves = movegen::legal_moves(p, o) & layout.mask;
        // Like the ordering searches below the root, only far from the end.
        let deep = by_eval && (layout.mask & !(p | o)).count_ones() >= search::SORT_MIN;
        let mut scored: Vec<(i32, u32)> = othello_rules::Bitboard(moves)
            .into_iter()
            .map(|sq| {
                let sq = sq.index() as u32;
                let f = movegen::flips(p, o, sq);
                let om = movegen::legal_moves(o ^ f, p ^ f ^ (1 << sq)) & layout.mask;
                let mobility = (om.count_ones() + (om & layout.corners).count_ones()) as i32;
                let key = if sq == tt_sq {
                    i32::MIN
                } else if let Some(eval) = self.ordering.as_ref().filter(|_| deep) {
                    let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                    let v = -search::eval_search(layout, eval, np, no, ROOT_EVAL_PLIES - 1, nodes);
                    // Centi-discs first (clamped far from any real value), mobility breaks ties.
                    -v.clamp(-1 << 20, 1 << 20) * 64 + mobility
                } else {
                    mobility
                };
                (key, sq)
            })
            .collect();
        scored.sort();
        scored.into_iter().map(|(_, sq)| sq).collect()
    }

    /// The root search: the clamped value and the best square (lowest index among the best),
    /// with helper threads (lazy SMP) when configured and the table can be shared. `None`
    /// when stopped.
    fn root(
        &self,
        layout: &'static Layout,
        p: u64,
        o: u64,
        lo: i32,
        hi: i32,
        stop: &AtomicBool,
    ) -> Option<(i32, u32, u64)> {
        let mut order_nodes = 0;
        let order = self.root_order(layout, p, o, true, &mut order_nodes);
        let threads = self.threads.min(order.len().max(1));
        // Helper threads need a table they can share (`Table::as_shared`): any other table
        // solves on one thread.
        let shared = self.tt.as_shared().filter(|_| threads > 1);
        // Helpers take the root moves in the cheap fastest-first order, so that where it
        // differs from the evaluation's order they start on other moves than the main
        // thread (2026-12-01, FFO #40-#49 with 2 threads: 1.49 G nodes against 1.57 G
        // when both threads take the evaluation's order; docs/BENCHMARKS.md).
        let helper_order = if shared.is_some() {
            self.root_order(layout, p, o, false, &mut order_nodes)
        } else {
            Vec::new()
        };
        let empties = (layout.mask & !(p | o)).count_ones();
        // The selective pre-solve's levels, whose scores are the exact search's first guess.
        let levels: &[Probcut] = if hi - lo > 2 && self.ordering.is_some() && empties >= PRESOLVE_MIN {
            &self.presolve
        } else {
            &[]
        };
        let root = Root { p, o, lo, hi, levels };
        let never = AtomicBool::new(false);
        let (result, nodes) = match shared {
            None => {
                let mut ctx = self.ctx(layout, stop, &never);
                let result = root.run(&mut ctx, &order);
                (result, ctx.nodes)
            }
            Some(shared) => {
                let setup = self.setup(layout);
                let done = AtomicBool::new(false);
                let busy = BusySet::new();
                std::thread::scope(|s| {
                    // Helpers run the main thread's search; the busy marks (`BusySet`) make
                    // the threads take different moves where they meet, and the shared table
                    // carries their results to each other. The main thread's result alone is
                    // returned, so it does not depend on their timing.
                    let helpers: Vec<_> = (1..threads)
                        .map(|_| {
                            let (done, busy, root, helper_order, setup) = (&done, &busy, &root, &helper_order, &setup);
                            s.spawn(move || {
                                let mut ctx = setup.ctx(shared, stop, done);
                                ctx.busy = Some(busy);
                                root.run(&mut ctx, helper_order);
                                ctx.nodes
                            })
                        })
                        .collect();
                    let mut ctx = setup.ctx(shared, stop, &never);
                    ctx.busy = Some(&busy);
                    let result = root.run(&mut ctx, &order);
                    done.store(true, Ordering::Relaxed);
                    let helper_nodes: u64 = helpers
                        .into_iter()
                        .map(|h| h.join().expect("solver helper panicked"))
                        .sum();
                    (result, ctx.nodes + helper_nodes)
                })
            }
        };
        result.map(|(v, sq)| (v, sq, nodes + order_nodes))
    }
}

/// What the search contexts of a solve share besides the table: `Sync` whatever the table
/// type, so the threads of a multi-threaded solve build their contexts from it (on the shared
/// table) rather than from the solver.
#[derive(Clone, Copy)]
struct Setup<'a> {
    layout: &'static Layout,
    tech: Techniques,
    ordering: Option<&'a OrderingEval>,
}

impl<'a> Setup<'a> {
    /// A fresh search context on `tt` (seen for the solve's board size).
    fn ctx<'b, U: Table>(&self, tt: &'b U, stop: &'b AtomicBool, halt: &'b AtomicBool) -> Ctx<'b, U>
    where
        'a: 'b,
    {
        Ctx {
            layout: self.layout,
            tt: tt.for_size(self.layout.size),
            tech: self.tech,
            nodes: 0,
            stop,
            halt,
            stopped: false,
            table_min: search::TABLE_MIN,
            cache: Cache::new(),
            ordering: self.ordering.map(|eval| EvalOrdering {
                eval,
                min: search::EVAL_SORT_MIN,
                depth: 0,
                ply: search::EVAL_SORT_PLY,
                deeper: search::EVAL_SORT_DEEPER,
                weight: search::EVAL_SORT_WEIGHT,
            }),
            busy: None,
            probcut: None,
        }
    }
}

/// The root search of an exact solve as every thread runs it: with a wide window, the
/// pre-solve's levels then the exact aspiration windows; with a narrow one (win/loss/draw),
/// one root search.
struct Root<'a> {
    p: u64,
    o: u64,
    lo: i32,
    hi: i32,
    levels: &'a [Probcut],
}

impl Root<'_> {
    /// The clamped value and best square from the root moves in `order`; `None` when stopped.
    fn run<T: Table>(&self, ctx: &mut Ctx<'_, T>, order: &[u32]) -> Option<(i32, u32)> {
        let Root { p, o, lo, hi, levels } = *self;
        if hi - lo > 2 {
            let mut order = order.to_vec();
            let mut guess = 0;
            for &level in levels {
                ctx.probcut = Some(level);
                guess = aspiration(ctx, p, o, lo, hi, &mut order, guess)?.0;
            }
            ctx.probcut = None;
            aspiration(ctx, p, o, lo, hi, &mut order, guess)
        } else {
            root_search(ctx, p, o, lo, hi, order)
        }
    }
}

/// Scores the moves of `pos` taken one by one from `next` (shared by the threads of
/// [`Solver::score_moves`]) with `ctx`: each move with its clamped score, and the nodes.
fn score_shared_moves<T: Table>(
    mut ctx: Ctx<'_, T>,
    pos: &Position,
    moves: &[Move],
    next: &AtomicUsize,
    lo: i32,
    hi: i32,
) -> (Vec<(Move, i32)>, u64) {
    let mut out = Vec::new();
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&mv) = moves.get(i) else { break };
        let child = pos.play_unchecked(mv);
        let v = -search::search(&mut ctx, child.player().0, child.opponent().0, -hi, -lo);
        out.push((mv, v.clamp(lo, hi)));
    }
    (out, ctx.nodes)
}

/// The exact value in `lo..=hi` by narrow windows `(g - 1, g + 1)` around a guess `g`: `guess`
/// first (0, or the pre-solve's score, rounded to the scores' parity), then steps growing in
/// the failing direction until the score is bracketed, then bisection. Narrow windows keep
/// every node of the tree a null-window node, which costs far less than one full-window search.
/// The move that reached a window goes first in `order` for the next windows (and the next
/// call). In a selective search the bounds may contradict each other: the last one is then
/// the answer.
fn aspiration<T: Table>(
    ctx: &mut Ctx<'_, T>,
    p: u64,
    o: u64,
    lo: i32,
    hi: i32,
    order: &mut [u32],
    guess: i32,
) -> Option<(i32, u32)> {
    // The score is known to lie in `low..=high` (every score has the parity of `lo`).
    let (mut low, mut high) = (lo, hi);
    let mut guess = (lo + (guess - lo).div_euclid(2) * 2).clamp(lo, hi);
    let mut step = 2;
    loop {
        let (a, b) = ((guess - 1).max(low - 1), (guess + 1).min(high + 1));
        // Classes at the window edges mean "at most a" and "at least b".
        let (v, sq) = root_search(ctx, p, o, a, b, order)?;
        if v > a {
            // The move that reached the window goes first in the next windows (the best move
            // is still the lowest index among the best, whatever the order).
            if let Some(i) = order.iter().position(|&m| m == sq) {
                order[..=i].rotate_right(1);
            }
        }
        if v > a && v < b || low == high {
            return Some((v, sq));
        }
        if v <= a {
            high = a - 1;
        } else {
            low = b + 1;
        }
        if low > high {
            // Only a selective search, whose bounds are guesses, contradicts itself: its last
            // bound is its answer.
            return Some((v.clamp(lo, hi), sq));
        }
        if low == high {
            // Bracketed to one value: one more window proves it and finds its best move.
            guess = low;
            continue;
        }
        guess = if low > lo && high < hi {
            // Both sides are known: bisect, keeping the parity of the scores.
            low + ((high - low) / 4) * 2
        } else if v <= a {
            (high - step).max(low)
        } else {
            (low + step).min(high)
        };
        step *= 2;
    }
}

/// PVS at the root with ties broken towards the lowest square index: a move after the current
/// best must beat it, one with a lower index only has to equal it.
fn root_search<T: Table>(ctx: &mut Ctx<'_, T>, p: u64, o: u64, lo: i32, hi: i32, order: &[u32]) -> Option<(i32, u32)> {
    ctx.nodes += 1;
    let mut best: Option<(i32, u32)> = None;
    // With threads, a move whose child another thread is in waits until the others are done.
    let mut deferred = Vec::new();
    let mut picked = order.iter().map(|&sq| (sq, true));
    while let Some((sq, first_pass)) = picked.next().or_else(|| deferred.pop().map(|sq| (sq, false))) {
        if ctx.should_stop() {
            return None;
        }
        let f = movegen::flips(p, o, sq);
        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
        if first_pass && best.is_some() && ctx.busy.is_some_and(|b| b.is_busy(BusySet::key(np, no))) {
            deferred.insert(0, sq);
            continue;
        }
        let Some((bv, bsq)) = best else {
            let v = -search::search(ctx, np, no, -hi, -lo);
            best = Some((v.clamp(lo, hi), sq));
            if ctx.stopped {
                return None;
            }
            continue;
        };
        // The move takes over if its (clamped) value reaches t.
        let t = if sq < bsq { bv } else { bv + 1 };
        if t > hi {
            continue;
        }
        let reaches = t <= lo || -search::search(ctx, np, no, -t, -t + 1) >= t;
        if ctx.stopped {
            return None;
        }
        if reaches {
            let v = if t >= hi {
                hi
            } else {
                -search::search(ctx, np, no, -hi, -(t - 1).max(lo))
            };
            if ctx.stopped {
                return None;
            }
            best = Some((v.clamp(lo, hi), sq));
        }
    }
    best
}

/// Extends `pv` from `pos`, whose value (clamped to `lo..=hi`) is `value`, to the end of the
/// game: at each step the first move (table move, then by index) proven to keep the value.
fn principal_variation<T: Table>(
    ctx: &mut Ctx<'_, T>,
    mut pos: Position,
    mut value: i32,
    lo: i32,
    hi: i32,
    pv: &mut Vec<Move>,
) {
    while pv.len() < 128 {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            if pos.opponent_moves().is_empty() {
                return;
            }
            pv.push(Move::Pass);
            pos = pos.pass_unchecked();
            value = -value;
            continue;
        }
        let (p, o) = (pos.player().0, pos.opponent().0);
        let tt_move = ctx.tt.probe(p, o).and_then(|e| match e.best_move {
            Some(Move::Place(sq)) if legal.contains(sq) => Some(sq),
            _ => None,
        });
        let candidates = tt_move
            .into_iter()
            .chain(legal.into_iter().filter(|&sq| Some(sq) != tt_move));
        let mut found = None;
        for sq in candidates {
            let child = pos.play_unchecked(Move::Place(sq));
            let (cp, co) = (child.player().0, child.opponent().0);
            // The child must be worth exactly -value (in the clamped sense).
            let target = -value;
            let w = search::search(ctx, cp, co, target - 1, target + 1);
            if ctx.stopped {
                return;
            }
            let w = w.clamp(lo, hi);
            if w == target {
                found = Some((sq, child));
                break;
            }
        }
        let Some((sq, child)) = found else { return };
        pv.push(Move::Place(sq));
        pos = child;
        value = -value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::random::play_random_until;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// Pre-solve levels far less confident than the default, down to no margin at all, and a
    /// less confident level after a more confident one: the selective searches then cut
    /// almost everywhere and contradict themselves, and scores stay exact (the solver without
    /// a pre-solve is the reference). A level's entries must serve a search at a lower level
    /// (level 2 after level 1 reuses them) but never the exact search.
    #[test]
    fn reckless_presolve_levels_keep_exact_scores() {
        let pattern = std::sync::Arc::new(othello_pattern::PatternEval::default());
        let config = SolverConfig::default()
            .with_tt_mib(8)
            .with_ordering(move |p: &Position| othello_eval::Evaluator::evaluate(pattern.as_ref(), p));
        let mut plain = Solver::with_techniques(config.clone(), Techniques::default().with_presolve(false));
        let mut reckless = Solver::new(config);
        reckless.presolve = vec![
            Probcut { t: 0, level: 0 },
            Probcut { t: 50, level: 2 },
            Probcut { t: 0, level: 1 },
        ];
        let mut rng = SmallRng::seed_from_u64(99);
        for i in 0..6 {
            let pos = play_random_until(&Position::start(), &mut rng, |p| p.empty_count() <= 18 + i % 3);
            let want = plain.solve(&pos, SolveMode::Exact);
            let got = reckless.solve(&pos, SolveMode::Exact);
            assert_eq!(
                (got.score, got.best_move, got.pv.len()),
                (want.score, want.best_move, want.pv.len()),
                "{pos}"
            );
        }
    }
}
