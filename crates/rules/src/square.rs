//! [`Square`], [`Color`] and [`Move`].

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares of the 8x8 grid; index `8 * row + col`, a1 = 0 (top-left), h8 = 63.
///
/// A `Square` cannot hold an index of 64 or more. Whether it lies on a smaller board is a
/// question for [`BoardSize::contains`](crate::BoardSize::contains).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with this index, if it is below 64.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The square with this index, masked to 0..64 (a larger index wraps, never UB).
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Square {
        Square(index & 63)
    }

    /// The square at column `col` (0 = a) and row `row` (0 = row 1), if both are below 8.
    #[inline]
    pub const fn from_coords(col: u8, row: u8) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The index, 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 (a) to 7 (h).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 & 7
    }

    /// The row, 0 (row 1) to 7 (row 8).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The one-square bitboard.
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// All 64 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

/// Lowercase coordinates, `a1` to `h8`.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error of parsing a [`Square`] or a [`Move`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    text: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad move '{}': expected a square a1..h8 or pass/PS/PA", self.text)
    }
}

impl std::error::Error for ParseMoveError {}

/// Parses `a1`..`h8` in either case.
impl FromStr for Square {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Square, ParseMoveError> {
        let b = s.as_bytes();
        let err = || ParseMoveError { text: s.to_string() };
        if b.len() != 2 {
            return Err(err());
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        Square::from_coords(col, row).ok_or_else(err)
    }
}

/// A player's colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// The first player, `X` in board strings.
    Black,
    /// The second player, `O` in board strings.
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for black, `O` for white (the FFO/OBF letters).
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// `+1` for black, `-1` for white: turns a side-to-move score into black-minus-white.
    #[inline]
    pub const fn sign(self) -> i32 {
        match self {
            Color::Black => 1,
            Color::White => -1,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A move: a disc placed on a square, or a pass.
///
/// A pass is a real move: it is legal exactly when the side to move has no square to play and
/// the game is not over.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// Place a disc on this square.
    Place(Square),
    /// Pass the turn (only legal when there is no other move).
    Pass,
}

impl Move {
    /// The square of a placing move, `None` for a pass.
    #[inline]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// A compact code: the square index 0..64, or 64 for a pass.
    #[inline]
    pub const fn to_u8(self) -> u8 {
        match self {
            Move::Place(sq) => sq.0,
            Move::Pass => 64,
        }
    }

    /// Inverse of [`Move::to_u8`]; `None` above 64.
    #[inline]
    pub const fn from_u8(code: u8) -> Option<Move> {
        if code < 64 {
            Some(Move::Place(Square(code)))
        } else if code == 64 {
            Some(Move::Pass)
        } else {
            None
        }
    }

    /// The token used in move sequences: `a1`..`h8` or `PS`.
    pub fn sequence_token(self) -> String {
        match self {
            Move::Place(sq) => sq.to_string(),
            Move::Pass => "PS".to_string(),
        }
    }
}

impl From<Square> for Move {
    #[inline]
    fn from(sq: Square) -> Move {
        Move::Place(sq)
    }
}

/// Lowercase `a1`..`h8`, or `pass` (the JSON form).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Parses `a1`..`h8` or `pass`, `PS`, `PA`, all in either case.
impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if ["pass", "ps", "pa"].iter().any(|p| s.eq_ignore_ascii_case(p)) {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Place)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_text_round_trips() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.to_string().to_uppercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h1".parse::<Square>().unwrap().index(), 7);
        assert_eq!("a2".parse::<Square>().unwrap().index(), 8);
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
        for bad in ["", "a", "a0", "a9", "i1", "a10", "1a", "pass"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn move_text() {
        for p in ["pass", "PASS", "PS", "ps", "PA", "pa", "Pass"] {
            assert_eq!(p.parse::<Move>(), Ok(Move::Pass));
        }
        assert_eq!("F5".parse::<Move>().unwrap().to_string(), "f5");
        assert_eq!(Move::Pass.to_string(), "pass");
        assert_eq!(Move::Pass.sequence_token(), "PS");
        assert!("p".parse::<Move>().is_err());
        for code in 0..=64u8 {
            assert_eq!(Move::from_u8(code).unwrap().to_u8(), code);
        }
        assert_eq!(Move::from_u8(65), None);
    }
}
