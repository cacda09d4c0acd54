//! Score units and bounds.
//!
//! Every score is in centi-discs (1/100 disc) from the side to move. A finished game scores its
//! final disc difference (empties to the winner) x100, so at most 6400 on 8x8. Evaluations are
//! clamped to [`EVAL_LIMIT`] so that every value the search can return fits the table's `i16`;
//! the reference functions apply the same clamp, so they still agree with the search for any
//! evaluation.

use othello_eval::Evaluator;
use othello_rules::Position;

/// A window bound strictly outside every score the search can return.
pub const INFINITY: i32 = 32_000;

/// Evaluations are clamped to `-EVAL_LIMIT..=EVAL_LIMIT` (300 discs: far beyond any real
/// estimate, and inside `i16`).
pub const EVAL_LIMIT: i32 = 30_000;

/// Centi-discs per disc.
pub const DISC: i32 = 100;

/// The score of a heuristic leaf: the evaluation, clamped (see the module docs).
#[inline]
pub fn leaf_value<E: Evaluator + ?Sized>(eval: &E, pos: &Position) -> i32 {
    eval.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The score of a finished game from the side to move: [`Position::final_score`] x100.
#[inline]
pub fn final_value(pos: &Position) -> i32 {
    pos.final_score() * DISC
}
