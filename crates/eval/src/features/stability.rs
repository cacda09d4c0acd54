//! Stable discs: discs that can never be flipped, computed with bitboards.

use crate::Evaluator;
use crate::bits::{FILE_A, FILE_H, NOT_A, NOT_A_TO_D, NOT_AB, NOT_E_TO_H, NOT_GH, NOT_H, RANK_1, RANK_8};
use othello_rules::{BoardSize, Position};

/// Stability: the stable discs of the side to move minus the opponent's (see
/// [`stable_discs`]).
///
/// Unit: one disc. Does not depend on whose turn it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stability;

impl Stability {
    /// The raw value for the side to move, in its own unit (one stable disc); the
    /// [`Evaluator`] score is this times [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        let (p, o) = (pos.player().0, pos.opponent().0);
        let s = stable_discs(p, o, pos.size());
        (s & p).count_ones() as i32 - (s & o).count_ones() as i32
    }
}

/// Centi-discs: [`Stability::raw`] x [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) (one stable disc is
/// worth one disc).
impl Evaluator for Stability {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.raw(pos) * crate::CENTI_DISCS_PER_UNIT
    }
}

/// A subset of the discs (of both colours) that can never be flipped, whatever is played.
///
/// Sound, not complete. A disc is flipped only along one of four axes (horizontal, vertical,
/// two diagonals), and only when a run of its colour that contains it is bracketed on both
/// sides along that axis. So a disc is safe on an axis when
/// - the whole line through it on that axis is filled (no move can ever land on it), or
/// - one of its two neighbours on the axis is off the board, or
/// - one of those neighbours is a stable disc of the *same* colour (a bracket would have to
///   flip that neighbour too).
///
/// A disc safe on all four axes is stable. Starting from no stable disc, the rule is applied
/// until nothing changes (the least fixed point). Corners, corner-anchored edge runs, full
/// edges and filled regions grown from them are found this way. Soundness, by induction on
/// the order in which discs were added: the first disc of the set to flip would need a
/// bracket on an axis where it is safe, which needs either a move on a full line, a square
/// off the board, or an earlier stable disc flipping first.
///
/// Works on 4x4 and 6x6 boards (squares outside the board count as off the board).
pub fn stable_discs(player: u64, opponent: u64, size: BoardSize) -> u64 {
    let mask = size.mask().0;
    let off = !mask;
    let filled = player | opponent | off;
    let empty = !filled;

    let full_h = full_rows(filled);
    let full_v = full_columns(filled);
    let full_d = !spread(empty, 9, NOT_A, NOT_AB, NOT_A_TO_D, NOT_H, NOT_GH, NOT_E_TO_H);
    let full_a = !spread(empty, 7, NOT_H, NOT_GH, NOT_E_TO_H, NOT_A, NOT_AB, NOT_A_TO_D);

    let mut sp = 0u64;
    let mut so = 0u64;
    loop {
        let np = player & safe(sp | off, full_h, full_v, full_d, full_a);
        let no = opponent & safe(so | off, full_h, full_v, full_d, full_a);
        if np == sp && no == so {
            return sp | so;
        }
        sp = np;
        so = no;
    }
}

/// The squares safe on all four axes given the anchors `a` (stable discs of one colour plus
/// the squares off the board) and the full lines.
#[inline(always)]
fn safe(a: u64, full_h: u64, full_v: u64, full_d: u64, full_a: u64) -> u64 {
    // For each axis: squares whose neighbour on one side is an anchor or off the 8x8 grid.
    let h = ((a << 1) & NOT_A) | FILE_A | ((a >> 1) & NOT_H) | FILE_H;
    let v = (a << 8) | RANK_1 | (a >> 8) | RANK_8;
    let d = ((a << 9) & NOT_A) | ((a >> 9) & NOT_H) | FILE_A | FILE_H | RANK_1 | RANK_8;
    let n = ((a << 7) & NOT_H) | ((a >> 7) & NOT_A) | FILE_A | FILE_H | RANK_1 | RANK_8;
    (h | full_h) & (v | full_v) & (d | full_d) & (n | full_a)
}

/// Squares whose row is filled.
#[inline(always)]
fn full_rows(filled: u64) -> u64 {
    let mut f = filled;
    f &= f >> 1;
    f &= f >> 2;
    f &= f >> 4;
    (f & FILE_A) * 0xff
}

/// Squares whose column is filled.
#[inline(always)]
fn full_columns(filled: u64) -> u64 {
    let mut f = filled;
    f &= f >> 8;
    f &= f >> 16;
    f &= f >> 32;
    (f & RANK_1) * FILE_A
}

/// The squares on a diagonal (step `s`: 9 for a1-h8, 7 for h1-a8) through a square of `b`:
/// `b` spread both ways along it, 1 + 2 + 4 steps each way. The masks stop shifts by 1, 2 and
/// 4 steps from wrapping around the board, for the upward shift (`<< s`) then the downward.
#[expect(
    clippy::too_many_arguments,
    reason = "the six wrap masks differ between the two diagonals"
)]
#[inline(always)]
fn spread(b: u64, s: u32, up1: u64, up2: u64, up4: u64, down1: u64, down2: u64, down4: u64) -> u64 {
    let mut u = b;
    u |= (u << s) & up1;
    u |= (u << (2 * s)) & up2;
    u |= (u << (4 * s)) & up4;
    let mut d = b;
    d |= (d >> s) & down1;
    d |= (d >> (2 * s)) & down2;
    d |= (d >> (4 * s)) & down4;
    u | d
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::Position;

    fn stable_of(board: &str) -> u64 {
        let pos: Position = board.parse().unwrap();
        stable_discs(pos.player().0, pos.opponent().0, pos.size())
    }

    #[test]
    fn start_position_has_no_stable_disc() {
        let p = Position::start();
        assert_eq!(stable_discs(p.player().0, p.opponent().0, p.size()), 0);
    }

    #[test]
    fn corner_and_edge_run() {
        // Black on a1 b1 c1, white on d1; the rest empty: a1..c1 are stable, d1 is not.
        let s = stable_of("XXXO------------------------------------------------------------ X");
        assert_eq!(s, 0b0111);
    }

    #[test]
    fn full_board_is_all_stable() {
        let s = stable_of(&format!("{} X", "XO".repeat(32)));
        assert_eq!(s, u64::MAX);
        let s = stable_of(&format!("{} O", "XO".repeat(8)));
        assert_eq!(s, BoardSize::Four.mask().0);
    }
}
