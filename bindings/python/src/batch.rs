//! Batches: many positions in (a list of `Position` or an `(n, 2)` uint64 NumPy array of
//! side-relative bitboards), NumPy arrays out, the interpreter lock released while Rust runs.

use crate::engines::{check_eight, check_table, check_threads, solve_mode, solver_config};
use crate::position::{PyPosition, parse_color};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use othello_endgame::Solver;
use othello_eval::Evaluator;
use othello_pattern::{FEATURES, PatternEval};
use othello_rules::{Bitboard, BoardSize, Color, Position};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The position of a row of a position array.
#[inline]
fn row(i: usize, p: u64, o: u64) -> PyResult<Position> {
    if p & o == 0 {
        Ok(Position::from_raw_unchecked(p, o, Color::Black, BoardSize::Eight))
    } else {
        Err(overlap(i, p, o))
    }
}

/// The error of a row whose discs overlap.
#[cold]
fn overlap(i: usize, p: u64, o: u64) -> PyErr {
    match Position::from_side_relative(Bitboard(p), Bitboard(o), Color::Black, BoardSize::Eight) {
        Err(e) => PyValueError::new_err(format!("position array, row {i}: {e}")),
        Ok(_) => PyValueError::new_err(format!("position array, row {i}: overlapping discs")),
    }
}

/// Positions given to a batch function: an `(n, 2)` uint64 array of `(player, opponent)`
/// rows (8x8, side-relative: the side to move is recorded as black, which no side-relative
/// result depends on), or a sequence of `Position`. Checked: the discs of a row must not
/// overlap. Read by type check, so the array path costs about a nanosecond a row.
pub(crate) fn batch(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    if let Ok(array) = obj.cast::<PyArray2<u64>>() {
        let array = array.readonly();
        let shape = array.shape();
        if shape[1] != 2 {
            return Err(PyValueError::new_err(format!(
                "bad position array of shape {shape:?}: expected (n, 2) rows of (player, opponent)"
            )));
        }
        let mut out = Vec::with_capacity(shape[0]);
        // `as_slice` also accepts a Fortran-ordered array, whose rows are not pairs in memory.
        if array.is_c_contiguous() {
            let flat = array.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?;
            for (i, r) in flat.chunks_exact(2).enumerate() {
                out.push(row(i, r[0], r[1])?);
            }
        } else {
            let view = array.as_array();
            for i in 0..shape[0] {
                out.push(row(i, view[[i, 0]], view[[i, 1]])?);
            }
        }
        return Ok(out);
    }
    if obj.cast::<numpy::PyUntypedArray>().is_ok() {
        return Err(PyTypeError::new_err(
            "a position array must be two-dimensional, of dtype uint64: (n, 2) rows of (player, opponent)",
        ));
    }
    let not_positions =
        || PyTypeError::new_err("expected a sequence of Position or an (n, 2) uint64 array of (player, opponent)");
    // A list (the usual sequence) item by item, each read in place (a frozen class needs no
    // borrow); any other sequence through the generic conversion.
    if let Ok(list) = obj.cast::<PyList>() {
        let mut out = Vec::with_capacity(list.len());
        for item in list.iter() {
            out.push(item.cast::<PyPosition>().map_err(|_| not_positions())?.get().0);
        }
        return Ok(out);
    }
    let list: Vec<PyPosition> = obj.extract().map_err(|_| not_positions())?;
    Ok(list.into_iter().map(|p| p.0).collect())
}

/// The positions of a batch as an `(n, 2)` uint64 array of `(player, opponent)` (the side to
/// move's discs first). 8x8 positions only.
#[pyfunction]
pub(crate) fn positions_to_array<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let positions = batch(positions)?;
    let mut out = Array2::<u64>::zeros((positions.len(), 2));
    for (i, p) in positions.iter().enumerate() {
        check_eight(p).map_err(|e| PyValueError::new_err(format!("position {i}: {e}")))?;
        out[[i, 0]] = p.player().0;
        out[[i, 1]] = p.opponent().0;
    }
    Ok(out.into_pyarray(py))
}

/// The positions of an `(n, 2)` array of `(player, opponent)` rows, each with `side` to
/// move (`ValueError` naming the first row whose discs overlap).
#[pyfunction]
#[pyo3(signature = (array, side="X"))]
pub(crate) fn positions_from_array(array: &Bound<'_, PyAny>, side: &str) -> PyResult<Vec<PyPosition>> {
    let side = parse_color(side)?;
    Ok(batch(array)?
        .into_iter()
        .map(|p| {
            PyPosition(Position::from_raw_unchecked(
                p.player().0,
                p.opponent().0,
                side,
                p.size(),
            ))
        })
        .collect())
}

/// The legal squares of each position as a uint64 mask (0 for a forced pass or a finished
/// game), computed without the interpreter lock.
#[pyfunction]
pub(crate) fn legal_moves_batch<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    // The common case, a C-ordered array of disjoint rows, straight from its memory.
    if let Ok(array) = positions.cast::<PyArray2<u64>>() {
        let array = array.readonly();
        if array.is_c_contiguous() && array.shape()[1] == 2 {
            let flat = array.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?;
            if flat.chunks_exact(2).all(|r| r[0] & r[1] == 0) {
                let masks: Vec<u64> = py.detach(|| {
                    flat.chunks_exact(2)
                        .map(|r| othello_rules::movegen::legal_moves(r[0], r[1]))
                        .collect()
                });
                return Ok(masks.into_pyarray(py));
            }
        }
    }
    let positions = batch(positions)?;
    let masks: Vec<u64> = py.detach(|| positions.iter().map(|p| p.legal_moves().0).collect());
    Ok(masks.into_pyarray(py))
}

/// The embedded pattern evaluation, built once.
fn default_eval() -> &'static PatternEval {
    static EVAL: OnceLock<PatternEval> = OnceLock::new();
    EVAL.get_or_init(PatternEval::default)
}

/// The thread count of a batch call: `threads`, checked, or the machine's parallelism.
pub(crate) fn batch_threads(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(t) => check_threads(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The fewest positions a thread of a batch evaluation is given: starting a thread costs
/// about as much as evaluating a few hundred positions.
const EVALS_PER_THREAD: usize = 2048;

/// The pattern values of the side-relative rows `(flat[2i], flat[2i + 1])` (disjoint discs,
/// checked by the caller), on up to `threads` threads. The rows are taken in order of their
/// number of empties (a counting sort): the weights of one phase are then read together and
/// stay in cache, where rows in their given order each read another phase's tables. Each
/// thread takes a contiguous run of that order; every value is that of a single evaluation,
/// so the result does not depend on the thread count.
fn evaluate_rows(eval: &PatternEval, flat: &[u64], threads: usize) -> Vec<i32> {
    let rows = flat.len() / 2;
    let empties = |i: usize| 64 - (flat[2 * i] | flat[2 * i + 1]).count_ones() as usize;
    let mut starts = [0usize; 66];
    for i in 0..rows {
        starts[empties(i) + 1] += 1;
    }
    for e in 1..starts.len() {
        starts[e] += starts[e - 1];
    }
    let mut order = vec![0usize; rows];
    for i in 0..rows {
        let slot = &mut starts[empties(i)];
        order[*slot] = i;
        *slot += 1;
    }
    let value = |i: usize| {
        eval.evaluate(&Position::from_raw_unchecked(
            flat[2 * i],
            flat[2 * i + 1],
            Color::Black,
            BoardSize::Eight,
        ))
    };
    let mut sorted = vec![0i32; rows];
    let threads = threads.min(rows.div_ceil(EVALS_PER_THREAD)).max(1);
    if threads == 1 {
        for (v, &i) in sorted.iter_mut().zip(&order) {
            *v = value(i);
        }
    } else {
        // The calling thread takes the first run, the others one each.
        let chunk = rows.div_ceil(threads);
        let fill = move |values: &mut [i32], indices: &[usize]| {
            for (v, &i) in values.iter_mut().zip(indices) {
                *v = value(i);
            }
        };
        std::thread::scope(|s| {
            let mut runs = sorted.chunks_mut(chunk).zip(order.chunks(chunk));
            let first = runs.next();
            for (values, indices) in runs {
                s.spawn(move || fill(values, indices));
            }
            if let Some((values, indices)) = first {
                fill(values, indices);
            }
        });
    }
    let mut out = vec![0i32; rows];
    for (&v, &i) in sorted.iter().zip(&order) {
        out[i] = v;
    }
    out
}

pub(crate) fn evaluate_with<'py>(
    py: Python<'py>,
    eval: &PatternEval,
    positions: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let threads = batch_threads(threads)?;
    // The common case, a C-ordered array, straight from its memory.
    if let Ok(array) = positions.cast::<PyArray2<u64>>() {
        let array = array.readonly();
        if array.is_c_contiguous() && array.shape()[1] == 2 {
            let flat = array.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?;
            if let Some(i) = flat.chunks_exact(2).position(|r| r[0] & r[1] != 0) {
                return Err(overlap(i, flat[2 * i], flat[2 * i + 1]));
            }
            let values = py.detach(|| evaluate_rows(eval, flat, threads));
            return Ok(values.into_pyarray(py));
        }
    }
    let positions = batch(positions)?;
    let mut flat = Vec::with_capacity(2 * positions.len());
    for (i, p) in positions.iter().enumerate() {
        check_eight(p).map_err(|e| PyValueError::new_err(format!("position {i}: {e}")))?;
        flat.extend_from_slice(&[p.player().0, p.opponent().0]);
    }
    let values = py.detach(|| evaluate_rows(eval, &flat, threads));
    Ok(values.into_pyarray(py))
}

/// The pattern evaluation (embedded weights) of each 8x8 position in centi-discs from its
/// side to move, as an int32 array (`PatternEval.evaluate_batch` for other weights), on
/// `threads` threads (default: the machine's parallelism; the values do not depend on it).
#[pyfunction]
#[pyo3(signature = (positions, threads=None))]
pub(crate) fn evaluate_batch<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    evaluate_with(py, default_eval(), positions, threads)
}

/// The pattern feature indices of each 8x8 position as an `(n, FEATURES)` uint32 array (rows
/// as `feature_indices`).
#[pyfunction]
pub(crate) fn feature_indices_batch<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<u32>>> {
    let positions = batch(positions)?;
    for (i, p) in positions.iter().enumerate() {
        check_eight(p).map_err(|e| PyValueError::new_err(format!("position {i}: {e}")))?;
    }
    let rows = positions.len();
    let flat: Vec<u32> = py.detach(|| {
        let mut flat = Vec::with_capacity(rows * FEATURES);
        for p in &positions {
            flat.extend_from_slice(&othello_pattern::feature_indices(p));
        }
        flat
    });
    let array = Array2::from_shape_vec((rows, FEATURES), flat).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(array.into_pyarray(py))
}

/// The scores and best-move codes of `solve_batch`.
type Solved<'py> = (Bound<'py, PyArray1<i32>>, Bound<'py, PyArray1<u8>>);

/// Solves every position (`mode` `"exact"` or `"wld"`) on `threads` threads, each with its
/// own solver and table of `tt_mib` MiB, taking positions in turn; returns `(scores, moves)`:
/// int32 scores from each side to move, and uint8 best-move codes (square index 0..63, 64 for
/// a pass or a finished game). The results are those of single solves.
#[pyfunction]
#[pyo3(signature = (positions, mode="exact", threads=1, tt_mib=16, ordering=None))]
pub(crate) fn solve_batch<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    mode: &str,
    threads: usize,
    tt_mib: usize,
    ordering: Option<&str>,
) -> PyResult<Solved<'py>> {
    let positions = batch(positions)?;
    let mode = solve_mode(mode)?;
    let threads = check_threads(threads)?.min(positions.len().max(1));
    check_table(tt_mib.saturating_mul(threads))?;
    let config = solver_config(tt_mib, 1, ordering)?;
    let results: Vec<(i32, u8)> = py.detach(|| {
        let slots: Vec<Mutex<(i32, u8)>> = positions.iter().map(|_| Mutex::new((0, 0))).collect();
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let mut solver = Solver::new(config.clone());
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(pos) = positions.get(i) else { break };
                        let solution = solver.solve(pos, mode);
                        *slots[i].lock().expect("no other writer of this slot") =
                            (solution.score, solution.best_move.to_u8());
                    }
                });
            }
        });
        slots
            .into_iter()
            .map(|m| m.into_inner().expect("the workers have finished"))
            .collect()
    });
    let scores: Vec<i32> = results.iter().map(|r| r.0).collect();
    let moves: Vec<u8> = results.iter().map(|r| r.1).collect();
    Ok((scores.into_pyarray(py), moves.into_pyarray(py)))
}
