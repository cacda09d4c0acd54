//! Static evaluation for Othello positions (work in progress: the trait is stable).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use othello_rules::Position;

/// A static evaluation: an estimate of the final disc difference for the side to move, in
/// centi-discs (1/100 disc), so that it compares directly with exact endgame scores x100.
///
/// Implementations must be cheap and deterministic; the search is generic over this trait, so
/// calls are static, not dynamic.
pub trait Evaluator: Send + Sync {
    /// The score of `pos` for its side to move, in centi-discs.
    fn evaluate(&self, pos: &Position) -> i32;
}

impl<E: Evaluator + ?Sized> Evaluator for &E {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        (**self).evaluate(pos)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        (**self).evaluate(pos)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for std::sync::Arc<E> {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        (**self).evaluate(pos)
    }
}
