//! The eight symmetries of the square board.

use crate::{Bitboard, BoardSize, Position};

/// One of the eight symmetries of a square board (the dihedral group D4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    /// No change.
    Identity,
    /// Mirror rows (row 1 <-> last row).
    FlipVertical,
    /// Mirror columns (a <-> last column).
    FlipHorizontal,
    /// Mirror along the a1-h8 diagonal (transpose).
    FlipDiagonal,
    /// Mirror along the h1-a8 diagonal.
    FlipAntiDiagonal,
    /// Quarter turn clockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Quarter turn anticlockwise.
    Rotate270,
}

impl Symmetry {
    /// All eight symmetries.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipVertical,
        Symmetry::FlipHorizontal,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
    ];

    /// The symmetry applied to an 8x8 bitboard.
    pub const fn apply8(self, b: u64) -> u64 {
        match self {
            Symmetry::Identity => b,
            Symmetry::FlipVertical => b.swap_bytes(),
            Symmetry::FlipHorizontal => flip_h(b),
            Symmetry::FlipDiagonal => flip_diag(b),
            Symmetry::FlipAntiDiagonal => flip_diag(b.reverse_bits()),
            // (row, col) -> (col, n-1-row)
            Symmetry::Rotate90 => flip_h(flip_diag(b)),
            Symmetry::Rotate180 => b.reverse_bits(),
            // (row, col) -> (n-1-col, row)
            Symmetry::Rotate270 => flip_diag(flip_h(b)),
        }
    }

    /// The symmetry applied to a bitboard of a board of `size` (top-left corner layout).
    pub const fn apply(self, b: Bitboard, size: BoardSize) -> Bitboard {
        let n = size.side() as u32;
        if n == 8 {
            return Bitboard(self.apply8(b.0));
        }
        // Transform in the 8x8 frame, then move the board back to the top-left corner.
        let t = self.apply8(b.0);
        let shift = 8 - n;
        let (dc, dr) = match self {
            Symmetry::Identity | Symmetry::FlipDiagonal => (0, 0),
            Symmetry::FlipVertical => (0, shift),
            Symmetry::FlipHorizontal => (shift, 0),
            Symmetry::FlipAntiDiagonal | Symmetry::Rotate180 => (shift, shift),
            Symmetry::Rotate90 => (shift, 0),
            Symmetry::Rotate270 => (0, shift),
        };
        Bitboard((t >> (8 * dr)) >> dc)
    }

    /// The symmetry applied to a position (discs only; the side to move is kept).
    pub fn apply_position(self, pos: &Position) -> Position {
        let size = pos.size();
        Position::from_raw_unchecked(
            self.apply(pos.player(), size).0,
            self.apply(pos.opponent(), size).0,
            pos.side_to_move(),
            size,
        )
    }
}

/// The canonical form of a side-relative pair of bitboards under the eight symmetries: the
/// smallest `(player, opponent)` pair, compared lexicographically, among the eight images.
/// Symmetric positions share it, so a cache keyed by it (perft, an opening book) stores each
/// class of positions once.
#[inline]
pub fn canonical(player: u64, opponent: u64, size: BoardSize) -> (u64, u64) {
    if size != BoardSize::Eight {
        return Symmetry::ALL
            .iter()
            .map(|s| (s.apply(Bitboard(player), size).0, s.apply(Bitboard(opponent), size).0))
            .min()
            .expect("eight symmetries");
    }
    let mut best = (player, opponent);
    // The group is {identity, diagonal flip} x {identity, vertical, horizontal, both}.
    for (p, o) in [(player, opponent), (flip_diag(player), flip_diag(opponent))] {
        let (ph, oh) = (flip_h(p), flip_h(o));
        for cand in [
            (p, o),
            (p.swap_bytes(), o.swap_bytes()),
            (ph, oh),
            (ph.swap_bytes(), oh.swap_bytes()),
        ] {
            if cand < best {
                best = cand;
            }
        }
    }
    best
}

const fn flip_h(mut b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    b = ((b >> 1) & K1) | ((b & K1) << 1);
    b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

const fn flip_diag(mut b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    t = K2 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    t = K1 & (b ^ (b << 7));
    b ^= t ^ (t >> 7);
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    fn map_square(s: Symmetry, col: u32, row: u32, n: u32) -> (u32, u32) {
        let m = n - 1;
        match s {
            Symmetry::Identity => (col, row),
            Symmetry::FlipVertical => (col, m - row),
            Symmetry::FlipHorizontal => (m - col, row),
            Symmetry::FlipDiagonal => (row, col),
            Symmetry::FlipAntiDiagonal => (m - row, m - col),
            Symmetry::Rotate90 => (m - row, col),
            Symmetry::Rotate180 => (m - col, m - row),
            Symmetry::Rotate270 => (row, m - col),
        }
    }

    #[test]
    fn canonical_is_shared_by_all_images() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for size in BoardSize::ALL {
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let p = x & size.mask().0;
                let o = (x.rotate_left(23) & !p) & size.mask().0;
                let c = canonical(p, o, size);
                for s in Symmetry::ALL {
                    let (sp, so) = (s.apply(Bitboard(p), size).0, s.apply(Bitboard(o), size).0);
                    assert_eq!(canonical(sp, so, size), c);
                }
                assert!(
                    Symmetry::ALL
                        .iter()
                        .any(|s| (s.apply(Bitboard(p), size).0, s.apply(Bitboard(o), size).0) == c)
                );
            }
        }
    }

    #[test]
    fn symmetries_map_every_square_as_defined() {
        for size in BoardSize::ALL {
            let n = size.side() as u32;
            for s in Symmetry::ALL {
                for sq in size.mask() {
                    let (c, r) = map_square(s, sq.col() as u32, sq.row() as u32, n);
                    let expect = Square::from_coords(c as u8, r as u8).unwrap();
                    assert_eq!(
                        s.apply(Bitboard::from_square(sq), size),
                        Bitboard::from_square(expect),
                        "{s:?} {size} {sq}"
                    );
                }
            }
        }
    }
}
