//! [`Bitboard`]: a set of squares as one `u64`.

use crate::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, one bit per square: bit `8 * row + col`.
///
/// ```text
///      a  b  c  d  e  f  g  h
///   1  0  1  2  3  4  5  6  7
///   2  8  9 10 11 12 13 14 15
///   3 16 17 18 19 20 21 22 23
///   4 24 25 26 27 28 29 30 31
///   5 32 33 34 35 36 37 38 39
///   6 40 41 42 43 44 45 46 47
///   7 48 49 50 51 52 53 54 55
///   8 56 57 58 59 60 61 62 63
/// ```
///
/// Square a1 (bit 0) is the top-left corner and h8 (bit 63) the bottom-right one, as in FFO/OBF
/// files and Edax. Smaller boards (4x4, 6x6) use the top-left corner of the same layout.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

/// The squares adjacent (8 directions) to a square of `b` on the 8x8 grid, without wrapping
/// around its edges. May include squares of `b` itself; mask with a board size's
/// [`mask`](crate::BoardSize::mask) for a smaller board. The one definition the evaluation
/// (potential mobility) and the endgame solver (move ordering) share.
///
/// ```
/// use othello_rules::neighbours;
/// // a1's neighbours are b1, a2 and b2 (bits 1, 8, 9); h1's do not wrap to a2.
/// assert_eq!(neighbours(1), (1 << 1) | (1 << 8) | (1 << 9));
/// assert_eq!(neighbours(1 << 7) & (1 << 8), 0);
/// ```
#[inline(always)]
pub const fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let bh = b | h;
    h | (bh << 8) | (bh >> 8)
}

impl Bitboard {
    /// The squares adjacent to this set (see [`neighbours`]).
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(neighbours(self.0))
    }

    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(u64::MAX);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// The raw bits.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Whether the two sets share a square.
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The squares of `self` that are not in `other`.
    #[inline]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(sq))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}
impl std::iter::FusedIterator for Squares {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<u64> for Bitboard {
    #[inline]
    fn from(bits: u64) -> Bitboard {
        Bitboard(bits)
    }
}

impl From<Bitboard> for u64 {
    #[inline]
    fn from(b: Bitboard) -> u64 {
        b.0
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

/// Prints an 8x8 grid, `X` for a member square and `.` otherwise, row 1 first.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for col in 0..8 {
                let c = if self.0 >> (row * 8 + col) & 1 != 0 { 'X' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_yields_each_square_in_order() {
        let b = Bitboard(0x8000_0000_0000_0101);
        let v: Vec<u8> = b.into_iter().map(|s| s.index() as u8).collect();
        assert_eq!(v, vec![0, 8, 63]);
        assert_eq!(b.into_iter().len(), 3);
        assert_eq!(b.into_iter().collect::<Bitboard>(), b);
    }

    #[test]
    fn set_operations() {
        let a1 = Square::from_index(0).unwrap();
        let b = Bitboard::EMPTY.with(a1);
        assert!(b.contains(a1));
        assert_eq!(b.without(a1), Bitboard::EMPTY);
        assert_eq!((!Bitboard::EMPTY).count(), 64);
        assert_eq!(Bitboard(6).and_not(Bitboard(2)), Bitboard(4));
    }
}
