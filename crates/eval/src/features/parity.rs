//! Parity: who is due to play the last move.

use crate::Evaluator;
use othello_rules::Position;

/// Parity: `+1` when the number of empty squares is odd (the side to move is due to play the
/// last move if nobody passes), `-1` when it is even and not zero, `0` on a full board.
///
/// Unit: one parity. **Depends on whose turn it is**: unlike the other features it is a
/// property of the side to move, not of the discs, so the same discs with the other side to
/// move give the *same* value, not the negated one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parity;

/// [`Parity`] from the number of empty squares.
#[inline]
pub const fn parity(empties: u32) -> i32 {
    if empties == 0 { 0 } else { 2 * (empties & 1) as i32 - 1 }
}

impl Parity {
    /// The raw value for the side to move, in its own unit (one unit of parity (+1 odd, -1 even)); the
    /// [`Evaluator`] score is this times [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        parity(pos.empty_count())
    }
}

/// Centi-discs: [`Parity::raw`] x [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) (one unit of parity (+1 odd, -1 even) is
/// worth one disc).
impl Evaluator for Parity {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.raw(pos) * crate::CENTI_DISCS_PER_UNIT
    }
}
