//! [`BoardSize`]: 4x4, 6x6 or 8x8.

use crate::{Bitboard, Square, Symmetry};
use std::fmt;
use std::str::FromStr;

/// The side length of the board. Smaller boards occupy the top-left corner of the 8x8 grid.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum BoardSize {
    /// 4x4 (16 squares).
    Four,
    /// 6x6 (36 squares).
    Six,
    /// 8x8 (64 squares), the standard game.
    #[default]
    Eight,
}

impl BoardSize {
    /// All sizes, smallest first.
    pub const ALL: [BoardSize; 3] = [BoardSize::Four, BoardSize::Six, BoardSize::Eight];

    /// The most classes [`BoardSize::square_classes`] has (on 8x8): a bound for fixed arrays.
    pub const MAX_SQUARE_CLASSES: usize = CLASSES_8.len();

    /// The side length: 4, 6 or 8.
    #[inline]
    pub const fn side(self) -> u8 {
        match self {
            BoardSize::Four => 4,
            BoardSize::Six => 6,
            BoardSize::Eight => 8,
        }
    }

    /// The number of squares: 16, 36 or 64.
    #[inline]
    pub const fn squares(self) -> u32 {
        let n = self.side() as u32;
        n * n
    }

    /// The size with this side length (4, 6 or 8).
    pub const fn from_side(side: u8) -> Option<BoardSize> {
        match side {
            4 => Some(BoardSize::Four),
            6 => Some(BoardSize::Six),
            8 => Some(BoardSize::Eight),
            _ => None,
        }
    }

    /// The squares of the board.
    #[inline]
    pub const fn mask(self) -> Bitboard {
        Bitboard(match self {
            BoardSize::Four => 0x0f0f_0f0f,
            BoardSize::Six => 0x3f3f_3f3f_3f3f,
            BoardSize::Eight => u64::MAX,
        })
    }

    /// Whether `sq` is on the board.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.mask().contains(sq)
    }

    /// The four corners.
    pub const fn corners(self) -> Bitboard {
        let n = self.side() - 1;
        Bitboard(1 | 1 << n | 1 << (8 * n) | 1 << (9 * n))
    }

    /// The squares on the edge of the board (corners included).
    pub const fn edges(self) -> Bitboard {
        let n = self.side() as u32;
        let row = (1u64 << n) - 1;
        let mut col = 0u64;
        let mut r = 0;
        while r < n {
            col |= 1 << (8 * r);
            r += 1;
        }
        Bitboard(row | row << (8 * (n - 1)) | col | col << (n - 1))
    }

    /// The board's squares in classes of equal static worth, best first: the static square
    /// order that engines use to try moves where they have no better key (Edax's presorted
    /// order on 8x8). Each class is one square and its images under the board's eight
    /// symmetries; the classes are disjoint and cover the board. On 8x8: the corners, then
    /// c4 (the inner squares off the centre), c3, a3, a4 (the edge squares away from the
    /// corners), b4, b3, the C-squares (b1), the X-squares (b2) and the centre (d4, filled from
    /// the start). On 6x6: a1, c1, c2, b1, b2, c3; on 4x4: a1, b1, b2.
    pub const fn square_classes(self) -> &'static [Bitboard] {
        match self {
            BoardSize::Four => &CLASSES_4,
            BoardSize::Six => &CLASSES_6,
            BoardSize::Eight => &CLASSES_8,
        }
    }

    /// The start position's discs: `(black, white)` on the four centre squares
    /// (white on d4 and e5, black on d5 and e4 for 8x8; the same pattern in the centre of the
    /// smaller boards).
    pub const fn start_discs(self) -> (Bitboard, Bitboard) {
        let h = (self.side() / 2 - 1) as u32; // top-left centre square's row and column
        let tl = h * 8 + h;
        let white = 1u64 << tl | 1 << (tl + 9);
        let black = 1u64 << (tl + 1) | 1 << (tl + 8);
        (Bitboard(black), Bitboard(white))
    }
}

/// The square `(col, row)` and its images under the eight symmetries of the board.
const fn symmetric_closure(col: u32, row: u32, size: BoardSize) -> u64 {
    let square = Bitboard(1 << (8 * row + col));
    let mut m = 0u64;
    let mut t = 0;
    while t < Symmetry::ALL.len() {
        m |= Symmetry::ALL[t].apply(square, size).0;
        t += 1;
    }
    m
}

/// The classes of [`BoardSize::square_classes`] from one `(col, row)` seed each.
const fn classes<const N: usize>(size: BoardSize, seeds: [(u32, u32); N]) -> [Bitboard; N] {
    let mut out = [Bitboard(0); N];
    let mut i = 0;
    while i < N {
        out[i] = Bitboard(symmetric_closure(seeds[i].0, seeds[i].1, size));
        i += 1;
    }
    out
}

const CLASSES_8: [Bitboard; 10] = classes(
    BoardSize::Eight,
    [
        (0, 0),
        (2, 3),
        (2, 2),
        (0, 2),
        (0, 3),
        (1, 3),
        (1, 2),
        (0, 1),
        (1, 1),
        (3, 3),
    ],
);
const CLASSES_6: [Bitboard; 6] = classes(BoardSize::Six, [(0, 0), (2, 0), (2, 1), (0, 1), (1, 1), (2, 2)]);
const CLASSES_4: [Bitboard; 3] = classes(BoardSize::Four, [(0, 0), (1, 0), (1, 1)]);

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

/// Error of parsing a [`BoardSize`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseBoardSizeError(String);

impl fmt::Display for ParseBoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad board size '{}': expected 4, 6 or 8", self.0)
    }
}

impl std::error::Error for ParseBoardSizeError {}

/// Parses `4`, `6`, `8` (or `4x4`, `6x6`, `8x8`).
impl FromStr for BoardSize {
    type Err = ParseBoardSizeError;
    fn from_str(s: &str) -> Result<BoardSize, ParseBoardSizeError> {
        let t = s.trim();
        let side = match t {
            "4" | "4x4" => 4,
            "6" | "6x6" => 6,
            "8" | "8x8" => 8,
            _ => return Err(ParseBoardSizeError(s.to_string())),
        };
        Ok(BoardSize::from_side(side).expect("4, 6 and 8 are sizes"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_corners() {
        assert_eq!(BoardSize::Four.mask().count(), 16);
        assert_eq!(BoardSize::Six.mask().count(), 36);
        assert_eq!(BoardSize::Eight.mask().count(), 64);
        assert_eq!(BoardSize::Eight.corners(), Bitboard(0x8100_0000_0000_0081));
        assert_eq!(BoardSize::Four.corners(), Bitboard(1 | 1 << 3 | 1 << 24 | 1 << 27));
        assert_eq!(BoardSize::Eight.edges().count(), 28);
        assert_eq!(BoardSize::Six.edges().count(), 20);
        assert_eq!(BoardSize::Four.edges().count(), 12);
        for s in BoardSize::ALL {
            let (b, w) = s.start_discs();
            assert_eq!(b.count(), 2);
            assert_eq!(w.count(), 2);
            assert!(((b | w) & !s.mask()).is_empty());
            assert_eq!(s.to_string().parse::<BoardSize>(), Ok(s));
        }
        let (b, w) = BoardSize::Eight.start_discs();
        assert_eq!(w, Bitboard(1 << 27 | 1 << 36));
        assert_eq!(b, Bitboard(1 << 28 | 1 << 35));
    }

    #[test]
    fn square_classes_partition_the_board() {
        let names = |s: BoardSize| {
            s.square_classes()
                .iter()
                .map(|&b| b.into_iter().map(|q| q.to_string()).collect::<Vec<_>>().join(" "))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(BoardSize::Eight),
            [
                "a1 h1 a8 h8",
                "d3 e3 c4 f4 c5 f5 d6 e6",
                "c3 f3 c6 f6",
                "c1 f1 a3 h3 a6 h6 c8 f8",
                "d1 e1 a4 h4 a5 h5 d8 e8",
                "d2 e2 b4 g4 b5 g5 d7 e7",
                "c2 f2 b3 g3 b6 g6 c7 f7",
                "b1 g1 a2 h2 a7 h7 b8 g8",
                "b2 g2 b7 g7",
                "d4 e4 d5 e5",
            ]
        );
        assert_eq!(
            names(BoardSize::Six),
            [
                "a1 f1 a6 f6",
                "c1 d1 a3 f3 a4 f4 c6 d6",
                "c2 d2 b3 e3 b4 e4 c5 d5",
                "b1 e1 a2 f2 a5 f5 b6 e6",
                "b2 e2 b5 e5",
                "c3 d3 c4 d4",
            ]
        );
        assert_eq!(
            names(BoardSize::Four),
            ["a1 d1 a4 d4", "b1 c1 a2 d2 a3 d3 b4 c4", "b2 c2 b3 c3"]
        );
        for s in BoardSize::ALL {
            let classes = s.square_classes();
            let mut seen = Bitboard(0);
            for &c in classes {
                assert!((seen & c).is_empty() && (c & !s.mask()).is_empty(), "{s}");
                seen |= c;
            }
            assert_eq!(seen, s.mask(), "{s}");
            assert!(classes.len() <= BoardSize::MAX_SQUARE_CLASSES, "{s}");
        }
    }
}
