//! Corners held.

use crate::Evaluator;
use othello_rules::Position;

/// Corners: the board's corners held by the side to move minus those held by the opponent
/// (a1, h1, a8, h8 on 8x8; the corners of the smaller board on 4x4 and 6x6).
///
/// Unit: one corner. Does not depend on whose turn it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Corners;

impl Evaluator for Corners {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        let c = pos.size().corners().0;
        (pos.player().0 & c).count_ones() as i32 - (pos.opponent().0 & c).count_ones() as i32
    }
}
