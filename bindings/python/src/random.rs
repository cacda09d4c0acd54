//! Random play: `Rng` (a seeded generator), `Board` (a mutable position for play loops that
//! call Python once a move) and `random_games` (whole games in one call, NumPy arrays out).
//! The rules are the rules crate's; the only thing decided here is which legal move is drawn.

use crate::position::{PyPosition, to_move};
use crate::value_error;
use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3};
use othello_rules::{Move, Position};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A seeded random generator for the random-move calls (`Position.random_move`,
/// `Position.play_random`, `Board.play_random`): the same seed gives the same moves with the
/// same package version (the `rand` crate's `SmallRng`, the playouts' generator).
#[pyclass(name = "Rng", module = "othello_toolkit")]
pub struct PyRng(pub(crate) SmallRng);

#[pymethods]
impl PyRng {
    /// A generator seeded with `seed` (an integer 0 to 2**64 - 1).
    #[new]
    #[pyo3(signature = (seed=0))]
    fn new(seed: u64) -> Self {
        PyRng(SmallRng::seed_from_u64(seed))
    }

    /// A uniformly drawn integer in `0..n` (`n` at least 1), from the same stream as the moves.
    fn below(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 {
            return Err(PyValueError::new_err("bad bound 0: expected n >= 1"));
        }
        Ok(self.0.random_range(0..n))
    }

    fn __repr__(&self) -> &'static str {
        "Rng(...)"
    }
}

/// A uniformly drawn legal move of `pos` (the pass when it is forced), `None` when the game is
/// over: the `k`-th lowest legal square for `k = rng.random_range(0..count)`.
#[inline]
pub(crate) fn random_move(pos: &Position, rng: &mut SmallRng) -> Option<Move> {
    let mut squares = pos.legal_moves().0;
    if squares == 0 {
        return pos.opponent_moves().any().then_some(Move::Pass);
    }
    for _ in 0..rng.random_range(0..squares.count_ones()) {
        squares &= squares - 1;
    }
    Move::from_u8(squares.trailing_zeros() as u8)
}

/// The `ValueError` of a random move asked of a finished game.
pub(crate) fn game_over() -> PyErr {
    PyValueError::new_err("the game is over: no move to play")
}

/// A mutable position for loops that call Python once a move: `play` and `play_random`
/// change it in place (no new object a move). `Board()` is the 8x8 start; `Board(position)`
/// starts from a copy of `position`.
#[pyclass(name = "Board", module = "othello_toolkit")]
pub struct PyBoard(Position);

#[pymethods]
impl PyBoard {
    /// A board at `position` (default: the 8x8 start).
    #[new]
    #[pyo3(signature = (position=None))]
    fn new(position: Option<PyPosition>) -> Self {
        PyBoard(position.map_or(Position::start(), |p| p.0))
    }

    /// The current position (an immutable copy).
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(self.0)
    }

    /// The legal squares of the side to move as a 64-bit mask (0 when it must pass).
    #[getter]
    fn legal_moves(&self) -> u64 {
        self.0.legal_moves().0
    }

    /// The legal moves as indices, as `Position.move_indices`.
    fn move_indices(&self) -> Vec<u8> {
        self.0.moves().iter().map(|m| m.to_u8()).collect()
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.0.is_game_over()
    }

    /// Plays `move` (text or index, 64 for the pass) in place; `ValueError` naming why an
    /// illegal move is illegal (the board is then unchanged).
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0 = self.0.play(to_move(r#move)?).map_err(value_error)?;
        Ok(())
    }

    /// Plays a uniformly drawn legal move in place (the pass when it is forced) and returns
    /// it as an index (0..63, 64 for the pass); returns None, leaving the board unchanged,
    /// when the game is over. `while board.play_random(rng) is not None: pass` plays a game.
    fn play_random(&mut self, mut rng: PyRefMut<'_, PyRng>) -> Option<u8> {
        let mv = random_move(&self.0, &mut rng.0)?;
        self.0 = self.0.play_unchecked(mv);
        Some(mv.to_u8())
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.0)
    }
}

/// Plays `count` games from `start` to the end, each move drawn uniformly among the legal
/// ones (the pass when forced) by one generator seeded with `seed`: the games `Board.play_random`
/// plays with `Rng(seed)`, one after another. Returns `(moves, lengths, scores)`: an
/// `(count, longest)` uint8 array of move indices (64 the pass, 255 after a game's end), the
/// int32 number of moves of each game (passes included), and each game's final score in discs
/// from the side to move at `start`. With `positions=True`, a fourth array of shape
/// `(count, longest + 1, 2)`: the `(player, opponent)` bitboards (side-relative) before each
/// move and after the last, zero after a game's end. Runs without the interpreter lock.
#[pyfunction]
#[pyo3(signature = (count, seed=0, start=None, positions=false))]
pub(crate) fn random_games<'py>(
    py: Python<'py>,
    count: usize,
    seed: u64,
    start: Option<PyPosition>,
    positions: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let start = start.map_or(Position::start(), |p| p.0);
    // A game has at most one pass for each disc placed after it, so at most twice the empties
    // plus one moves.
    let most = 2 * start.empty_count() as usize + 1;
    let too_big = || PyMemoryError::new_err(format!("{count} random games do not fit in memory"));
    let (longest, moves, lengths, scores, boards) = py
        .detach(|| {
            let games = play_games(count, seed, start, positions, most)?;
            let longest = games.lengths.iter().copied().max().unwrap_or(0) as usize;
            let moves = pad(&games.moves, &games.lengths, (1, 0), longest, 255)?;
            let boards = if positions {
                Some(pad(&games.boards, &games.lengths, (2, 2), 2 * (longest + 1), 0)?)
            } else {
                None
            };
            Some((longest, moves, games.lengths, games.scores, boards))
        })
        .ok_or_else(too_big)?;
    let moves = Array2::from_shape_vec((count, longest), moves).map_err(value_error)?;
    let moves: Bound<'py, PyArray2<u8>> = moves.into_pyarray(py);
    let lengths: Bound<'py, PyArray1<i32>> = lengths.into_pyarray(py);
    let scores: Bound<'py, PyArray1<i32>> = scores.into_pyarray(py);
    let Some(boards) = boards else {
        return PyTuple::new(py, [moves.into_any(), lengths.into_any(), scores.into_any()]);
    };
    let boards = Array3::from_shape_vec((count, longest + 1, 2), boards).map_err(value_error)?;
    let boards: Bound<'py, PyArray3<u64>> = boards.into_pyarray(py);
    PyTuple::new(
        py,
        [
            moves.into_any(),
            lengths.into_any(),
            scores.into_any(),
            boards.into_any(),
        ],
    )
}

/// The games' items `flat`, game after game, `per_move * length + extra` items a game for
/// `(per_move, extra)` = `items`, in rows of `width` items filled up with `fill`; `None` when
/// memory runs out.
fn pad<T: Copy>(flat: &[T], lengths: &[i32], items: (usize, usize), width: usize, fill: T) -> Option<Vec<T>> {
    let (per_move, extra) = items;
    let mut out = Vec::new();
    out.try_reserve_exact(lengths.len().checked_mul(width)?).ok()?;
    let mut at = 0;
    for &len in lengths {
        let items = per_move * len as usize + extra;
        out.extend_from_slice(&flat[at..at + items]);
        out.resize(out.len() + width - items, fill);
        at += items;
    }
    Some(out)
}

/// The games of `random_games`, flat: every game's moves one after another.
struct Games {
    moves: Vec<u8>,
    lengths: Vec<i32>,
    scores: Vec<i32>,
    /// With positions: each game's positions before each move and its final one, as
    /// `player, opponent` pairs.
    boards: Vec<u64>,
}

/// Plays the games; `None` when memory runs out (reserved ahead of each game, `most` moves).
fn play_games(count: usize, seed: u64, start: Position, positions: bool, most: usize) -> Option<Games> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut games = Games {
        moves: Vec::new(),
        lengths: Vec::new(),
        scores: Vec::new(),
        boards: Vec::new(),
    };
    games.lengths.try_reserve_exact(count).ok()?;
    games.scores.try_reserve_exact(count).ok()?;
    // The padded array built from these holds about as much again.
    games.moves.try_reserve(count.checked_mul(64)?).ok()?;
    let side = start.side_to_move();
    for _ in 0..count {
        games.moves.try_reserve(most).ok()?;
        if positions {
            games.boards.try_reserve(2 * (most + 1)).ok()?;
        }
        let mut pos = start;
        let mut len = 0;
        while let Some(mv) = random_move(&pos, &mut rng) {
            if positions {
                games.boards.extend_from_slice(&[pos.player().0, pos.opponent().0]);
            }
            games.moves.push(mv.to_u8());
            pos = pos.play_unchecked(mv);
            len += 1;
        }
        if positions {
            games.boards.extend_from_slice(&[pos.player().0, pos.opponent().0]);
        }
        games.lengths.push(len);
        let score = pos.final_score();
        games
            .scores
            .push(if pos.side_to_move() == side { score } else { -score });
    }
    Some(games)
}
