//! X- and C-squares next to an empty corner.

use crate::Evaluator;
use crate::bits::{C_SQUARES, X_SQUARES, neighbours};
use othello_rules::Position;

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

impl Evaluator for XcSquares {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        let size = pos.size();
        let (p, o) = (pos.player().0, pos.opponent().0);
        let near = neighbours(size.corners().0 & !(p | o));
        let x = near & X_SQUARES[size as usize];
        let c = near & C_SQUARES[size as usize];
        let count = |b: u64| b.count_ones() as i32;
        2 * (count(o & x) - count(p & x)) + count(o & c) - count(p & c)
    }
}
