//! Disc difference.

use crate::Evaluator;
use othello_rules::Position;

/// Disc difference: the side to move's discs minus the opponent's.
///
/// Unit: one disc. Empty squares are not credited (unlike [`Position::final_score`]), but at a
/// finished game the sign is the same as the final score's. Does not depend on whose turn it
/// is: the same discs with the other side to move give the negated value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Discs;

impl Evaluator for Discs {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        pos.disc_difference()
    }
}
