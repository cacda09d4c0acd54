//! GGF game records (the rules crate's `GgfGame`).

use crate::position::PyPosition;
use crate::value_error;
use othello_rules::ggf::{self, GgfEnding, GgfGame};
use pyo3::prelude::*;
use pyo3::types::PyType;

/// A game record in GGF (`(;GM[Othello]PB[..]PW[..]RE[..]BO[..]B[F5]W[D6]...;)`), as the
/// `othello play --ggf` command writes and Othello servers use. Parsing replays the moves and
/// fails on an illegal one (`ValueError` naming the move).
#[pyclass(name = "Game", module = "othello_toolkit", frozen)]
pub struct PyGame(GgfGame);

#[pymethods]
impl PyGame {
    /// Parses one record.
    #[classmethod]
    fn parse(_cls: &Bound<'_, PyType>, text: &str) -> PyResult<Self> {
        text.parse().map(PyGame).map_err(value_error)
    }

    /// Black's name.
    #[getter]
    fn black(&self) -> String {
        self.0.black.clone()
    }

    /// White's name.
    #[getter]
    fn white(&self) -> String {
        self.0.white.clone()
    }

    /// The place (`PC`), if given.
    #[getter]
    fn place(&self) -> Option<String> {
        self.0.place.clone()
    }

    /// The date (`DT`), if given.
    #[getter]
    fn date(&self) -> Option<String> {
        self.0.date.clone()
    }

    /// The time control (`TI`) as written, if given.
    #[getter]
    fn time_control(&self) -> Option<String> {
        self.0.time_control.clone()
    }

    /// Black's disc margin (`RE`), None when unknown.
    #[getter]
    fn result(&self) -> Option<f64> {
        self.0.result.as_ref().map(|r| r.black_margin)
    }

    /// How the game ended: `"scored"`, `"timeout"` (a loss on time), `"resigned"`, another
    /// suffix as written, or None when the result is unknown.
    #[getter]
    fn ending(&self) -> Option<String> {
        self.0.result.as_ref().map(|r| match &r.ending {
            GgfEnding::Scored => "scored".to_string(),
            GgfEnding::Timeout => "timeout".to_string(),
            GgfEnding::Resigned => "resigned".to_string(),
            GgfEnding::Other(s) => s.clone(),
        })
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition(self.0.start)
    }

    /// The moves as written (`"f5"`, `"pass"`).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.0.moves.iter().map(|m| m.mv.to_string()).collect()
    }

    /// The colour of each move's player (`"X"` or `"O"`).
    #[getter]
    fn colors(&self) -> Vec<String> {
        self.0.moves.iter().map(|m| m.color.letter().to_string()).collect()
    }

    /// Each move's evaluation (discs, from the mover's side), if recorded.
    #[getter]
    fn evals(&self) -> Vec<Option<f64>> {
        self.0.moves.iter().map(|m| m.eval).collect()
    }

    /// Each move's time in seconds, if recorded.
    #[getter]
    fn times(&self) -> Vec<Option<f64>> {
        self.0.moves.iter().map(|m| m.time).collect()
    }

    /// The position before each move, then the final one.
    fn positions(&self) -> Vec<PyPosition> {
        self.0.positions().into_iter().map(PyPosition).collect()
    }

    /// The position after the last move.
    fn final_position(&self) -> PyPosition {
        PyPosition(self.0.final_position())
    }

    /// The record as GGF text.
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(black='{}', white='{}', moves={})",
            self.0.black,
            self.0.white,
            self.0.moves.len()
        )
    }
}

/// Every game of a GGF text (a file's contents: records `(; ... ;)` one after another).
/// `ValueError` naming the first bad record (1-based) and what is wrong with it.
#[pyfunction]
pub(crate) fn read_ggf(text: &str) -> PyResult<Vec<PyGame>> {
    ggf::records(text)
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.parse()
                .map(PyGame)
                .map_err(|e| value_error(format!("GGF record {}: {e}", i + 1)))
        })
        .collect()
}
