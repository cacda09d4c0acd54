//! Corners held.

use crate::Evaluator;
use crate::bits::CORNERS;
use othello_rules::{BoardSize, Position};

/// Corners: the board's corners held by the side to move minus those held by the opponent
/// (a1, h1, a8, h8 on 8x8; the corners of the smaller board on 4x4 and 6x6).
///
/// Unit: one corner. Does not depend on whose turn it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Corners;

impl Corners {
    /// The raw value for the side to move, in its own unit (one corner); the
    /// [`Evaluator`] score is this times [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        corners(pos.player().0, pos.opponent().0, pos.size())
    }
}

/// Centi-discs: [`Corners::raw`] x [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) (one corner is
/// worth one disc).
impl Evaluator for Corners {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.raw(pos) * crate::CENTI_DISCS_PER_UNIT
    }
}

/// [`Corners`] on raw side-relative bitboards.
#[inline]
pub fn corners(player: u64, opponent: u64, size: BoardSize) -> i32 {
    let c = CORNERS[size as usize];
    (player & c).count_ones() as i32 - (opponent & c).count_ones() as i32
}
