//! Potential mobility: empty squares next to the opponent's discs.

use crate::Evaluator;
use crate::bits::neighbours;
use othello_rules::{BoardSize, Position};

/// Potential mobility (frontier): the number of empty squares adjacent (8 directions) to at
/// least one opponent disc, minus the number adjacent to at least one disc of the side to
/// move. Such squares are where moves may appear later; having many of them next to the
/// opponent's discs (a small frontier of one's own) is good.
///
/// Unit: one square. Does not depend on whose turn it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PotentialMobility;

/// [`PotentialMobility`] on raw side-relative bitboards on a board of `size`.
#[inline]
pub fn potential_mobility(player: u64, opponent: u64, size: BoardSize) -> i32 {
    let mask = size.mask().0;
    let empty = mask & !(player | opponent);
    let mine = neighbours(opponent) & empty;
    let theirs = neighbours(player) & empty;
    mine.count_ones() as i32 - theirs.count_ones() as i32
}

impl PotentialMobility {
    /// The raw value for the side to move, in its own unit (one frontier square); the
    /// [`Evaluator`] score is this times [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        potential_mobility(pos.player().0, pos.opponent().0, pos.size())
    }
}

/// Centi-discs: [`PotentialMobility::raw`] x [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) (one frontier square is
/// worth one disc).
impl Evaluator for PotentialMobility {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.raw(pos) * crate::CENTI_DISCS_PER_UNIT
    }
}
