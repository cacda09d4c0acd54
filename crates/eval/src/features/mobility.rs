//! Mobility: the difference in legal moves.

use crate::Evaluator;
use othello_rules::{BoardSize, Position, movegen};

/// Mobility: the number of squares the side to move may play minus the number the opponent
/// could play if it were to move.
///
/// Unit: one move. Uses the fast [`movegen::legal_moves_both`] (one call for both sides). Does not depend on whose
/// turn it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mobility;

/// [`Mobility`] on raw side-relative bitboards on a board of `size`.
#[inline]
pub fn mobility(player: u64, opponent: u64, size: BoardSize) -> i32 {
    let mask = size.mask().0;
    let (mine, theirs) = movegen::legal_moves_both(player, opponent);
    let (mine, theirs) = (mine & mask, theirs & mask);
    mine.count_ones() as i32 - theirs.count_ones() as i32
}

impl Mobility {
    /// The raw value for the side to move, in its own unit (one move); the
    /// [`Evaluator`] score is this times [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        mobility(pos.player().0, pos.opponent().0, pos.size())
    }
}

/// Centi-discs: [`Mobility::raw`] x [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) (one move is
/// worth one disc).
impl Evaluator for Mobility {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.raw(pos) * crate::CENTI_DISCS_PER_UNIT
    }
}
