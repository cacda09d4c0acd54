//! X- and C-squares next to an empty corner.

use crate::Evaluator;
use crate::bits::{C_SQUARES, CORNERS, X_SQUARES, neighbours};
use othello_rules::{BoardSize, Position};

/// X- and C-squares: discs next to an EMPTY corner, which often give that corner away.
///
/// An X-square is diagonally inside a corner (b2, g2, b7, g7 on 8x8), a C-square beside it on
/// an edge (b1, a2, ...); on 4x4 and 6x6 they are taken relative to that board's corners. Only
/// squares whose corner is empty count. The value is a *bonus* for the side to move: the
/// opponent's bad squares minus its own, an X-square counting 2 and a C-square 1. So a
/// positive weight penalises one's own X/C discs.
///
/// Unit: one C-square (an X-square is two). Does not depend on whose turn it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XcSquares;

impl XcSquares {
    /// The raw value for the side to move, in its own unit (one X- or C-square); the
    /// [`Evaluator`] score is this times [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        xc_squares(pos.player().0, pos.opponent().0, pos.size())
    }
}

/// Centi-discs: [`XcSquares::raw`] x [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) (one X- or C-square is
/// worth one disc).
impl Evaluator for XcSquares {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.raw(pos) * crate::CENTI_DISCS_PER_UNIT
    }
}

/// [`XcSquares`] on raw side-relative bitboards.
#[inline]
pub fn xc_squares(player: u64, opponent: u64, size: BoardSize) -> i32 {
    let i = size as usize;
    let near = neighbours(CORNERS[i] & !(player | opponent));
    let x = near & X_SQUARES[i];
    let xc = near & (X_SQUARES[i] | C_SQUARES[i]);
    let count = |b: u64| b.count_ones() as i32;
    // An X-square is in both `x` and `xc`, so it counts twice.
    count(opponent & x) - count(player & x) + count(opponent & xc) - count(player & xc)
}
