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

impl Discs {
    /// The raw value for the side to move, in its own unit (one disc); the
    /// [`Evaluator`] score is this times [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        pos.disc_difference()
    }
}

/// Centi-discs: [`Discs::raw`] x [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) (one disc is
/// worth one disc).
impl Evaluator for Discs {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.raw(pos) * crate::CENTI_DISCS_PER_UNIT
    }
}
