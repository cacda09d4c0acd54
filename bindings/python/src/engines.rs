//! Players and solvers: `Engine` (any spec of the CLI's grammar), `Solver` (the exact and
//! win/loss/draw endgame solver), `PatternEval`, random playouts and feature indices.

use crate::position::{PyPosition, to_move};
use crate::value_error;
use numpy::{IntoPyArray, PyArray1};
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_engine::{Limits, Player, Reply};
use othello_eval::Evaluator;
use othello_pattern::PatternEval;
use othello_rules::{BoardSize, Move, Position};
use othello_spec::Engine;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Checks a thread count (1 to the spec crate's maximum).
pub(crate) fn check_threads(threads: usize) -> PyResult<usize> {
    othello_spec::resources::threads_ok(threads)
        .map_err(|why| PyValueError::new_err(format!("bad thread count {threads}: {why}")))
}

/// Checks a table size in MiB against the memory available.
pub(crate) fn check_table(mib: usize) -> PyResult<usize> {
    othello_spec::resources::hash_ok(mib)
        .map_err(|why| PyValueError::new_err(format!("bad table size {mib} MiB: {why}")))
}

/// Seconds as a duration; `ValueError` for a negative, zero or non-finite value.
pub(crate) fn seconds(what: &str, s: f64) -> PyResult<Duration> {
    match Duration::try_from_secs_f64(s) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => Err(PyValueError::new_err(format!(
            "bad {what} {s}: expected a positive number of seconds"
        ))),
    }
}

/// The solve mode of its name.
pub(crate) fn solve_mode(mode: &str) -> PyResult<SolveMode> {
    match mode {
        "exact" => Ok(SolveMode::Exact),
        "wld" => Ok(SolveMode::WinLossDraw),
        other => Err(PyValueError::new_err(format!(
            "bad solve mode '{other}': expected 'exact' or 'wld'"
        ))),
    }
}

/// A solver configuration from the Python arguments.
pub(crate) fn solver_config(tt_mib: usize, threads: usize, ordering: Option<&str>) -> PyResult<SolverConfig> {
    let mut config = SolverConfig::default()
        .with_tt_mib(check_table(tt_mib)?.max(1))
        .with_threads(check_threads(threads)?);
    match ordering {
        None | Some("none") => {}
        Some("pattern") => {
            let eval = PatternEval::default();
            config = config.with_ordering(move |p| eval.evaluate(p));
        }
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "bad ordering '{other}': expected 'pattern' or None"
            )));
        }
    }
    Ok(config)
}

fn lock<T>(m: &Mutex<T>) -> PyResult<MutexGuard<'_, T>> {
    m.lock()
        .map_err(|_| PyRuntimeError::new_err("an earlier call failed inside the engine; make a new one"))
}

/// What a player answered: the move, its score and the search's figures.
#[pyclass(name = "Reply", module = "othello_toolkit", frozen, get_all)]
pub struct PyReply {
    /// The move to play (`"d3"`, or `"pass"`).
    best_move: String,
    /// The score in centi-discs from the side to move, if the player gives one.
    score: Option<i32>,
    /// Whether `score` is the exact game-theoretic value.
    exact: bool,
    /// The depth reached (discs placed).
    depth: u32,
    /// Nodes searched (MCTS: iterations).
    nodes: u64,
    /// Wall-clock seconds.
    time: f64,
    /// The principal variation, starting with `best_move`.
    pv: Vec<String>,
    /// Every root move with its score (centi-discs), best first, when the search scored them
    /// all (`multi_pv=True`); empty otherwise.
    root_moves: Vec<(String, i32)>,
    /// MCTS: playouts run (None for the other players).
    playouts: Option<u64>,
    /// MCTS: the mean result of the chosen move's playouts (win 1, draw 0.5, loss 0).
    mean_result: Option<f64>,
    /// The selectivity of the search that gave the score (`"off"` for full width).
    selectivity: String,
}

impl From<Reply> for PyReply {
    fn from(r: Reply) -> PyReply {
        PyReply {
            best_move: r.best_move.to_string(),
            score: r.score,
            exact: r.exact,
            depth: r.depth,
            nodes: r.nodes,
            time: r.time.as_secs_f64(),
            pv: r.pv.iter().map(Move::to_string).collect(),
            root_moves: r.root_moves.iter().map(|(m, s)| (m.to_string(), *s)).collect(),
            playouts: r.mcts.map(|m| m.playouts),
            mean_result: r.mcts.map(|m| m.mean_result),
            selectivity: r.selectivity.to_string(),
        }
    }
}

#[pymethods]
impl PyReply {
    fn __repr__(&self) -> String {
        format!(
            "Reply(best_move='{}', score={}, exact={}, depth={}, nodes={}, pv={:?})",
            self.best_move,
            self.score.map_or("None".to_string(), |s| s.to_string()),
            if self.exact { "True" } else { "False" },
            self.depth,
            self.nodes,
            self.pv
        )
    }
}

/// A player built from an engine spec, the grammar of the `othello` command:
/// `"pvs:depth=10,selectivity=3"`, `"pvs:eval=pattern,time=500"`, `"mcts:playouts=1000,seed=7"`,
/// `"random:seed=1"`. A bad spec raises `ValueError` with the CLI's message.
///
/// The engine keeps its state between calls (the search's transposition table, the MCTS
/// tree); `new_game` clears it. One call at a time: a second thread calling `think` on the
/// same engine waits for the first.
#[pyclass(name = "Engine", module = "othello_toolkit", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    spec: String,
}

#[pymethods]
impl PyEngine {
    /// Parses `spec` and builds its player.
    #[new]
    fn new(spec: &str) -> PyResult<Self> {
        let engine: Engine = spec.parse().map_err(value_error)?;
        Ok(PyEngine {
            engine: Mutex::new(engine),
            spec: spec.to_string(),
        })
    }

    /// The spec the engine was built from.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The player's name (`"pvs"`, `"mcts"`, ...).
    #[getter]
    fn name(&self) -> PyResult<String> {
        Ok(lock(&self.engine)?.name())
    }

    /// Chooses a move in `position` and returns a `Reply`. Without `depth`, `nodes` or `time`
    /// the spec's own limits apply; any of them replaces the spec's limits: `depth` (discs
    /// placed, 1 to 64), `nodes` (MCTS: iterations), `time` (seconds: no new iteration after
    /// half of it, a hard stop at it, as the spec's `time` key). `multi_pv=True` asks a search
    /// to score every root move (`Reply.root_moves`). The caller's position is unchanged; the
    /// interpreter lock is released while the engine thinks.
    #[pyo3(signature = (position, depth=None, nodes=None, time=None, multi_pv=false))]
    fn think(
        &self,
        py: Python<'_>,
        position: PyPosition,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        multi_pv: bool,
    ) -> PyResult<PyReply> {
        let pos = position.0;
        let mut engine = lock(&self.engine)?;
        engine.check_size(pos.size()).map_err(value_error)?;
        let limits = if depth.is_none() && nodes.is_none() && time.is_none() {
            engine.limits()
        } else {
            let mut limits = Limits::none();
            if let Some(d) = depth {
                if !(1..=64).contains(&d) {
                    return Err(PyValueError::new_err(format!("bad depth {d}: expected 1 to 64")));
                }
                limits = limits.with_depth(d);
            }
            if let Some(n) = nodes {
                if n == 0 {
                    return Err(PyValueError::new_err("bad node count 0: expected at least 1"));
                }
                limits = limits.with_nodes(n);
            }
            if let Some(t) = time {
                let hard = seconds("time", t)?;
                limits = limits.with_time(othello_engine::TimeLimit::new(hard / 2, hard));
            }
            limits
        };
        engine.set_multi_pv(multi_pv);
        let engine = &mut *engine;
        let reply = py.detach(move || engine.think(&pos, &limits));
        Ok(reply.into())
    }

    /// Tells the engine that `move` was played (MCTS keeps the subtree).
    fn observe(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = to_move(r#move)?;
        lock(&self.engine)?.observe(mv);
        Ok(())
    }

    /// Forgets what earlier searches learnt (tables, trees).
    fn new_game(&self) -> PyResult<()> {
        lock(&self.engine)?.new_game();
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("Engine('{}')", self.spec)
    }
}

/// The result of a solve.
#[pyclass(name = "Solution", module = "othello_toolkit", frozen, get_all)]
pub struct PySolution {
    /// The best move (the lowest square among equals); `"pass"` when the side to move must
    /// pass or the game is over.
    best_move: String,
    /// Discs from the side to move (empty squares to the winner); -1, 0 or 1 in `"wld"` mode.
    score: i32,
    /// Positions searched.
    nodes: u64,
    /// Wall-clock seconds.
    time: f64,
    /// A principal variation to the end of the game.
    pv: Vec<String>,
}

#[pymethods]
impl PySolution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(best_move='{}', score={}, nodes={}, pv={:?})",
            self.best_move, self.score, self.nodes, self.pv
        )
    }
}

impl From<othello_endgame::Solution> for PySolution {
    fn from(s: othello_endgame::Solution) -> PySolution {
        PySolution {
            best_move: s.best_move.to_string(),
            score: s.score,
            nodes: s.nodes,
            time: s.time.as_secs_f64(),
            pv: s.pv.iter().map(Move::to_string).collect(),
        }
    }
}

/// The exact endgame solver, owning its transposition table of `tt_mib` MiB (reused across
/// solves: solving related positions with one solver is faster). `threads` search one
/// position together; `ordering="pattern"` orders moves far from the leaves by the pattern
/// evaluation (fewer nodes; the same scores).
#[pyclass(name = "Solver", module = "othello_toolkit", frozen)]
pub struct PySolver {
    solver: Mutex<Solver>,
}

fn solve_one(
    py: Python<'_>,
    solver: &mut Solver,
    pos: Position,
    mode: &str,
    time: Option<f64>,
) -> PyResult<Option<PySolution>> {
    let mode = solve_mode(mode)?;
    let limits = match time {
        None => Limits::none(),
        Some(t) => Limits::move_time(seconds("time", t)?),
    };
    Ok(py
        .detach(move || solver.solve_within(&pos, mode, &limits))
        .map(Into::into))
}

#[pymethods]
impl PySolver {
    /// A solver with a table of `tt_mib` MiB on `threads` threads.
    #[new]
    #[pyo3(signature = (tt_mib=64, threads=1, ordering=None))]
    fn new(tt_mib: usize, threads: usize, ordering: Option<&str>) -> PyResult<Self> {
        Ok(PySolver {
            solver: Mutex::new(Solver::new(solver_config(tt_mib, threads, ordering)?)),
        })
    }

    /// Solves `position`: `mode="exact"` (the final disc difference) or `"wld"` (-1, 0, 1).
    /// With `time` (seconds), gives up at that time and returns None. (A solve has no node
    /// limit: it is one proof to the end of the game.) Runs without the interpreter lock.
    #[pyo3(signature = (position, mode="exact", time=None))]
    fn solve(
        &self,
        py: Python<'_>,
        position: PyPosition,
        mode: &str,
        time: Option<f64>,
    ) -> PyResult<Option<PySolution>> {
        let mut solver = lock(&self.solver)?;
        solve_one(py, &mut solver, position.0, mode, time)
    }

    /// Every legal move with its exact score (or -1/0/1 in `"wld"` mode), best first, equal
    /// scores by square index (the OBF order); `[("pass", s)]` for a forced pass, `[]` when
    /// the game is over.
    #[pyo3(signature = (position, mode="exact"))]
    fn score_moves(&self, py: Python<'_>, position: PyPosition, mode: &str) -> PyResult<Vec<(String, i32)>> {
        let mode = solve_mode(mode)?;
        let mut solver = lock(&self.solver)?;
        let solver = &mut *solver;
        let pos = position.0;
        let scores = py.detach(move || solver.score_moves(&pos, mode));
        Ok(scores.iter().map(|(m, s)| (m.to_string(), *s)).collect())
    }

    /// Empties the table (node counts then match a fresh solver's).
    fn new_game(&self) -> PyResult<()> {
        lock(&self.solver)?.new_game();
        Ok(())
    }
}

/// Solves one position with a fresh solver (`tt_mib` MiB table): see `Solver.solve`.
#[pyfunction]
#[pyo3(signature = (position, mode="exact", time=None, threads=1, tt_mib=16, ordering=None))]
pub(crate) fn solve(
    py: Python<'_>,
    position: PyPosition,
    mode: &str,
    time: Option<f64>,
    threads: usize,
    tt_mib: usize,
    ordering: Option<&str>,
) -> PyResult<Option<PySolution>> {
    let mut solver = Solver::new(solver_config(tt_mib, threads, ordering)?);
    solve_one(py, &mut solver, position.0, mode, time)
}

/// The pattern evaluation: the embedded trained weights, or a weights file of
/// `othello-train`. Scores are centi-discs from the side to move (8x8 boards).
#[pyclass(name = "PatternEval", module = "othello_toolkit", frozen)]
pub struct PyPatternEval {
    pub(crate) eval: PatternEval,
}

#[pymethods]
impl PyPatternEval {
    /// The embedded weights, or those of the file `weights` (`ValueError` naming what is
    /// wrong with a bad file).
    #[new]
    #[pyo3(signature = (weights=None))]
    fn new(weights: Option<std::path::PathBuf>) -> PyResult<Self> {
        let eval = match weights {
            None => PatternEval::default(),
            Some(path) => PatternEval::from_path(&path).map_err(|e| value_error(format!("{}: {e}", path.display())))?,
        };
        Ok(PyPatternEval { eval })
    }

    /// The value of `position` in centi-discs from the side to move (8x8 only).
    fn evaluate(&self, position: PyPosition) -> PyResult<i32> {
        check_eight(&position.0)?;
        Ok(self.eval.evaluate(&position.0))
    }

    /// Values of many positions (a list of `Position` or an `(n, 2)` uint64 array of
    /// `(player, opponent)`), as an int32 array, on `threads` threads; see `evaluate_batch`.
    #[pyo3(signature = (positions, threads=None))]
    fn evaluate_batch<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<i32>>> {
        crate::batch::evaluate_with(py, &self.eval, positions, threads)
    }
}

/// `ValueError` unless the position is 8x8 (the pattern tables' size).
pub(crate) fn check_eight(pos: &Position) -> PyResult<()> {
    if pos.size() == BoardSize::Eight {
        Ok(())
    } else {
        Err(value_error(othello_pattern::UnsupportedSize(pos.size())))
    }
}

/// The pattern features of an 8x8 position, as a uint32 array of `FEATURES` indices into
/// its phase's weights: the phase constant (0), one entry per pattern instance, the two
/// mobility entries and the global features; the set is `PATTERN_SET_ID`.
#[pyfunction]
pub(crate) fn feature_indices<'py>(py: Python<'py>, position: PyPosition) -> PyResult<Bound<'py, PyArray1<u32>>> {
    check_eight(&position.0)?;
    Ok(othello_pattern::feature_indices(&position.0).to_vec().into_pyarray(py))
}

/// `count` random playouts from `position` (uniformly random legal moves to the end, the MCTS
/// crate's playout), seeded: their final scores in discs from the side to move of
/// `position`, as an int32 array. Runs without the interpreter lock.
#[pyfunction]
#[pyo3(signature = (position, count, seed=0))]
pub(crate) fn random_playouts<'py>(
    py: Python<'py>,
    position: PyPosition,
    count: usize,
    seed: u64,
) -> Bound<'py, PyArray1<i32>> {
    let pos = position.0;
    let scores: Vec<i32> = py.detach(move || {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..count)
            .map(|_| othello_mcts::random_playout(&pos, &mut rng))
            .collect()
    });
    scores.into_pyarray(py)
}
