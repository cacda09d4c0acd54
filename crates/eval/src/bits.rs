//! Bitboard helpers shared by the features: file and rank masks, neighbourhoods, and the
//! per-size corner regions (X and C squares).

use othello_rules::BoardSize;

/// Column a.
pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Column h.
pub(crate) const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Row 1.
pub(crate) const RANK_1: u64 = 0x0000_0000_0000_00ff;
/// Row 8.
pub(crate) const RANK_8: u64 = 0xff00_0000_0000_0000;

/// Every square except columns a.. (k columns from the left); used to stop shifts towards
/// higher columns from wrapping onto the next row.
pub(crate) const NOT_A: u64 = !FILE_A;
pub(crate) const NOT_AB: u64 = !(FILE_A | FILE_A << 1);
pub(crate) const NOT_A_TO_D: u64 = !(FILE_A * 0x0f);
/// The same from the right: used by shifts towards lower columns.
pub(crate) const NOT_H: u64 = !FILE_H;
pub(crate) const NOT_GH: u64 = !(FILE_H | FILE_H >> 1);
pub(crate) const NOT_E_TO_H: u64 = !(FILE_A * 0xf0);

/// The squares adjacent to a square of `b`: the rules crate's one definition.
pub(crate) use othello_rules::neighbours;

/// The four corners of each board size, indexed by `BoardSize as usize`.
pub(crate) const CORNERS: [u64; 3] = [
    BoardSize::Four.corners().0,
    BoardSize::Six.corners().0,
    BoardSize::Eight.corners().0,
];

/// X squares (diagonally inside a corner) and C squares (beside a corner on an edge) of each
/// board size, indexed by `BoardSize as usize`.
pub(crate) const X_SQUARES: [u64; 3] = corner_regions().0;
/// See [`X_SQUARES`].
pub(crate) const C_SQUARES: [u64; 3] = corner_regions().1;

const fn corner_regions() -> ([u64; 3], [u64; 3]) {
    let mut x = [0u64; 3];
    let mut c = [0u64; 3];
    let mut i = 0;
    while i < 3 {
        let n = BoardSize::ALL[i].side() as i32 - 1;
        let corners = [(0, 0), (n, 0), (0, n), (n, n)];
        let mut k = 0;
        while k < 4 {
            let (col, row) = corners[k];
            let dc = if col == 0 { 1 } else { -1 };
            let dr = if row == 0 { 1 } else { -1 };
            x[i] |= bit(col + dc, row + dr);
            c[i] |= bit(col + dc, row) | bit(col, row + dr);
            k += 1;
        }
        i += 1;
    }
    (x, c)
}

const fn bit(col: i32, row: i32) -> u64 {
    1 << (row * 8 + col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_regions_of_each_size() {
        // a1 b1 a2 b2 ... on 4x4: C = b1 c1 a2 d2 a3 d3 b4 c4, X = b2 c2 b3 c3.
        assert_eq!(X_SQUARES[0], bit(1, 1) | bit(2, 1) | bit(1, 2) | bit(2, 2));
        assert_eq!(
            C_SQUARES[0],
            bit(1, 0) | bit(2, 0) | bit(0, 1) | bit(3, 1) | bit(0, 2) | bit(3, 2) | bit(1, 3) | bit(2, 3)
        );
        // 8x8: X = b2 g2 b7 g7.
        assert_eq!(X_SQUARES[2], bit(1, 1) | bit(6, 1) | bit(1, 6) | bit(6, 6));
        assert_eq!(C_SQUARES[2].count_ones(), 8);
        assert_eq!(C_SQUARES[1] & !BoardSize::Six.mask().0, 0);
    }

    #[test]
    fn neighbours_do_not_wrap() {
        assert_eq!(neighbours(1 << 7), 1 << 6 | 1 << 14 | 1 << 15);
        assert_eq!(neighbours(1 << 8), 1 | 1 << 1 | 1 << 9 | 1 << 16 | 1 << 17);
        assert_eq!(neighbours(1 << 63).count_ones(), 3);
    }
}
