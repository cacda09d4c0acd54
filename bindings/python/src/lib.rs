//! Python bindings of the Othello toolkit (the `othello_toolkit` package, built with maturin).
//!
//! Thin wrappers over the workspace crates: positions and text formats (`othello-rules`),
//! perft, the exact solver (`othello-endgame`), engines from spec strings (`othello-spec`, the
//! CLI's grammar), the pattern evaluation and its feature indices (`othello-pattern`), random
//! playouts (`othello-mcts`), seeded random play (`Rng`, a mutable `Board`, whole games as
//! NumPy arrays) and GGF records. Batch functions take many positions (a list of
//! `Position` or a NumPy `(n, 2)` array of side-relative `uint64` bitboards) and return NumPy
//! arrays, with the interpreter lock released while the Rust code runs.
//!
//! Every error of a crate reaches Python as an exception carrying the crate's message
//! (`ValueError` for bad text, illegal moves and bad specs); the wrappers check their inputs so
//! that no panic can cross into the interpreter.
//!
//! ```text
//! >>> import othello_toolkit as ot
//! >>> ot.perft(ot.Position(), 4)
//! 244
//! ```

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod batch;
mod engines;
mod games;
mod position;
mod random;

/// A `ValueError` carrying a crate error's message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The extension module `othello_toolkit._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::PyPosition>()?;
    m.add_class::<engines::PyEngine>()?;
    m.add_class::<engines::PyReply>()?;
    m.add_class::<engines::PySolver>()?;
    m.add_class::<engines::PySolution>()?;
    m.add_class::<engines::PyPatternEval>()?;
    m.add_class::<games::PyGame>()?;
    m.add_class::<random::PyRng>()?;
    m.add_class::<random::PyBoard>()?;
    m.add_function(wrap_pyfunction!(position::perft, m)?)?;
    m.add_function(wrap_pyfunction!(position::parse_obf, m)?)?;
    m.add_function(wrap_pyfunction!(position::parse_moves, m)?)?;
    m.add_function(wrap_pyfunction!(engines::solve, m)?)?;
    m.add_function(wrap_pyfunction!(engines::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(engines::feature_indices, m)?)?;
    m.add_function(wrap_pyfunction!(batch::legal_moves_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::evaluate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::feature_indices_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::positions_to_array, m)?)?;
    m.add_function(wrap_pyfunction!(batch::positions_from_array, m)?)?;
    m.add_function(wrap_pyfunction!(games::read_ggf, m)?)?;
    m.add_function(wrap_pyfunction!(random::random_games, m)?)?;
    m.add("PATTERN_SET_ID", othello_pattern::PATTERN_SET_ID)?;
    m.add("FEATURES", othello_pattern::FEATURES)?;
    m.add("SYMMETRIES", position::SYMMETRY_NAMES.to_vec())?;
    m.add("ENGINE_NAMES", othello_spec::NAMES.to_vec())?;
    Ok(())
}
