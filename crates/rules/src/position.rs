//! [`Position`]: the board plus the side to move.

use crate::movegen;
use crate::{Bitboard, BoardSize, Color, Move, Square};
use std::fmt;

/// A game state: the discs of both sides, the side to move, and the board size.
///
/// Stored side-relative, as in Edax: `player` holds the discs of the side to move and
/// `opponent` the other side's, so playing a move is a few XORs and a swap. The type is `Copy`
/// (24 bytes); [`Position::play`] returns a new position and never changes `self`.
///
/// Invariants (checked by every constructor): `player` and `opponent` do not overlap and hold
/// no square outside the board.
///
/// ```
/// use othello_rules::{Move, Position};
/// let start = Position::start();
/// let d3: Move = "d3".parse().unwrap();
/// let next = start.play(d3).unwrap();
/// assert_eq!(next.disc_counts(), (4, 1)); // (black, white)
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    player: Bitboard,
    opponent: Bitboard,
    side: Color,
    size: BoardSize,
}

/// Why a set of discs is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square holds both a black and a white disc.
    Overlap(Square),
    /// A disc lies outside the board of the given size.
    OffBoard(Square, BoardSize),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(sq) => write!(f, "square {sq} holds both a black and a white disc"),
            PositionError::OffBoard(sq, size) => write!(f, "disc on {sq} lies outside the {size} board"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move that was refused.
    pub mv: Move,
    /// The position it was played in.
    pub position: Position,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.position;
        let why = match self.mv {
            Move::Pass if p.is_game_over() => "the game is over",
            Move::Pass => "a pass is only legal without another move",
            Move::Place(sq) if !p.size.contains(sq) => "the square is off the board",
            Move::Place(sq) if (p.player | p.opponent).contains(sq) => "the square is occupied",
            Move::Place(_) if p.must_pass() => "the side to move must pass",
            Move::Place(_) if p.is_game_over() => "the game is over",
            Move::Place(_) => "it flips no disc",
        };
        write!(f, "illegal move {} for {}: {why}", self.mv, p.side)
    }
}

impl std::error::Error for IllegalMoveError {}

impl Position {
    /// The standard 8x8 start position, black to move.
    pub const fn start() -> Position {
        Position::start_of(BoardSize::Eight)
    }

    /// The start position of a board size (four discs in the centre), black to move.
    pub const fn start_of(size: BoardSize) -> Position {
        let (black, white) = size.start_discs();
        Position {
            player: black,
            opponent: white,
            side: Color::Black,
            size,
        }
    }

    /// A position from absolute disc sets.
    ///
    /// # Errors
    /// [`PositionError`] when a square holds both colours or a disc lies off the board.
    pub fn from_discs(
        black: Bitboard,
        white: Bitboard,
        side: Color,
        size: BoardSize,
    ) -> Result<Position, PositionError> {
        if let Some(sq) = (black & white).first() {
            return Err(PositionError::Overlap(sq));
        }
        if let Some(sq) = ((black | white) & !size.mask()).first() {
            return Err(PositionError::OffBoard(sq, size));
        }
        let (player, opponent) = match side {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        Ok(Position {
            player,
            opponent,
            side,
            size,
        })
    }

    /// A position from side-relative disc sets (the discs of the side to move first).
    ///
    /// # Errors
    /// As [`Position::from_discs`].
    pub fn from_side_relative(
        player: Bitboard,
        opponent: Bitboard,
        side: Color,
        size: BoardSize,
    ) -> Result<Position, PositionError> {
        let p = Position::from_discs(player, opponent, Color::Black, size)?;
        Ok(Position { side, ..p })
    }

    /// An 8x8 position from raw side-relative bitboards without checks. Overlapping inputs give
    /// a corrupt (but memory-safe) position; use it on hot paths that keep the invariants.
    #[inline]
    pub const fn from_raw_unchecked(player: u64, opponent: u64, side: Color, size: BoardSize) -> Position {
        Position {
            player: Bitboard(player),
            opponent: Bitboard(opponent),
            side,
            size,
        }
    }

    /// The discs of the side to move.
    #[inline]
    pub const fn player(&self) -> Bitboard {
        self.player
    }

    /// The discs of the other side.
    #[inline]
    pub const fn opponent(&self) -> Bitboard {
        self.opponent
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The board size.
    #[inline]
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The discs of `color`.
    #[inline]
    pub const fn discs(&self, color: Color) -> Bitboard {
        if (color as u8) == (self.side as u8) {
            self.player
        } else {
            self.opponent
        }
    }

    /// Black's discs.
    #[inline]
    pub const fn black(&self) -> Bitboard {
        self.discs(Color::Black)
    }

    /// White's discs.
    #[inline]
    pub const fn white(&self) -> Bitboard {
        self.discs(Color::White)
    }

    /// The empty squares of the board.
    #[inline]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(self.size.mask().0 & !(self.player.0 | self.opponent.0))
    }

    /// The number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count()
    }

    /// `(black, white)` disc counts.
    #[inline]
    pub const fn disc_counts(&self) -> (u32, u32) {
        (self.black().count(), self.white().count())
    }

    /// The squares where the side to move may place a disc.
    #[inline]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(movegen::legal_moves(self.player.0, self.opponent.0) & self.size.mask().0)
    }

    /// The squares where the other side could place a disc if it were to move.
    #[inline]
    pub fn opponent_moves(&self) -> Bitboard {
        Bitboard(movegen::legal_moves(self.opponent.0, self.player.0) & self.size.mask().0)
    }

    /// Whether the side to move has a square to play.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.legal_moves().any()
    }

    /// Whether the side to move must pass: no square to play, but the opponent has one.
    #[inline]
    pub fn must_pass(&self) -> bool {
        !self.has_legal_move() && self.opponent_moves().any()
    }

    /// Whether the game is over: neither side can place a disc (a full board included).
    /// One side without moves is not the end: that side passes.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        !self.has_legal_move() && !self.opponent_moves().any()
    }

    /// The opponent discs that playing on `sq` would flip; empty when the move is not legal.
    #[inline]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if !self.empties().contains(sq) {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(self.player.0, self.opponent.0, sq.index() as u32))
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place(sq) => self.legal_moves().contains(sq),
            Move::Pass => self.must_pass(),
        }
    }

    /// The legal moves as a list: the squares in index order, or a single pass, or nothing
    /// when the game is over.
    pub fn moves(&self) -> Vec<Move> {
        let squares = self.legal_moves();
        if squares.any() {
            squares.into_iter().map(Move::Place).collect()
        } else if self.opponent_moves().any() {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    /// Plays `mv`, checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`] (holding the unchanged position) when `mv` is not legal.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMoveError> {
        let legal = match mv {
            Move::Place(sq) => self.size.contains(sq) && self.legal_moves().contains(sq),
            Move::Pass => self.must_pass(),
        };
        if legal {
            Ok(self.play_unchecked(mv))
        } else {
            Err(IllegalMoveError { mv, position: *self })
        }
    }

    /// Plays `mv` without checking legality. An illegal square move places a disc and flips
    /// whatever it flanks (possibly nothing); an illegal pass just hands over the turn. Never
    /// undefined behaviour, but the result may not be reachable in a real game.
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        match mv {
            Move::Place(sq) => {
                let f = movegen::flips(self.player.0, self.opponent.0, sq.index() as u32);
                self.play_with_flips(sq, Bitboard(f))
            }
            Move::Pass => self.pass_unchecked(),
        }
    }

    /// Places a disc on `sq` and flips `flips` (as computed by [`Position::flips`]).
    #[inline]
    pub const fn play_with_flips(&self, sq: Square, flips: Bitboard) -> Position {
        Position {
            player: Bitboard(self.opponent.0 ^ flips.0),
            opponent: Bitboard(self.player.0 ^ flips.0 | sq.bit()),
            side: self.side.opposite(),
            size: self.size,
        }
    }

    /// Hands the turn to the other side without checks.
    #[inline]
    pub const fn pass_unchecked(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
            side: self.side.opposite(),
            size: self.size,
        }
    }

    /// Disc difference from the side to move, without crediting empty squares.
    #[inline]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count() as i32 - self.opponent.count() as i32
    }

    /// The final score from the side to move, as at the end of a game: the disc difference with
    /// the empty squares credited to the side with more discs (none on a draw). This is the
    /// tournament and FFO convention. Meaningful when [`Position::is_game_over`].
    #[inline]
    pub const fn final_score(&self) -> i32 {
        final_score(self.player.count(), self.opponent.count(), self.size.squares())
    }

    /// [`Position::final_score`] from black's side (black minus white).
    pub const fn final_score_black(&self) -> i32 {
        self.final_score() * self.side.sign()
    }

    /// The same discs with every colour swapped and the other side to move. Side-relative
    /// values (negamax scores) are unchanged by it; black-minus-white values negate.
    #[inline]
    pub const fn color_swapped(&self) -> Position {
        Position {
            side: self.side.opposite(),
            ..*self
        }
    }

    /// The same discs with `side` to move.
    pub const fn with_side_to_move(&self, side: Color) -> Position {
        if (side as u8) == (self.side as u8) {
            *self
        } else {
            self.pass_unchecked()
        }
    }

    /// A 64-bit hash of the discs and the side to move (a mix of the two absolute bitboards,
    /// the equivalent of a Zobrist key; equal positions always hash equally).
    #[inline]
    pub fn hash_key(&self) -> u64 {
        crate::hash::hash_position(self.black().0, self.white().0, self.side)
    }
}

/// The final score from `player`'s side given the disc counts and the number of squares:
/// empty squares go to the winner.
#[inline]
pub const fn final_score(player: u32, opponent: u32, squares: u32) -> i32 {
    let p = player as i32;
    let o = opponent as i32;
    let empties = squares as i32 - p - o;
    if p > o {
        p - o + empties
    } else if p < o {
        p - o - empties
    } else {
        0
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_score_credits_empties() {
        assert_eq!(final_score(3, 11, 16), -10);
        assert_eq!(final_score(11, 3, 16), 10);
        assert_eq!(final_score(8, 8, 16), 0);
        assert_eq!(final_score(16, 0, 16), 16);
        assert_eq!(final_score(40, 24, 64), 16);
    }

    #[test]
    fn constructors_reject_bad_discs() {
        let s = BoardSize::Four;
        assert!(matches!(
            Position::from_discs(Bitboard(1), Bitboard(1), Color::Black, s),
            Err(PositionError::Overlap(_))
        ));
        assert!(matches!(
            Position::from_discs(Bitboard(1 << 4), Bitboard(0), Color::Black, s),
            Err(PositionError::OffBoard(_, _))
        ));
    }
}
