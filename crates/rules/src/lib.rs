//! Othello (Reversi) rules on bitboards.
//!
//! This crate is the foundation of the toolkit: the vocabulary types ([`Bitboard`], [`Square`],
//! [`Color`], [`Move`] with an explicit [`Move::Pass`], [`BoardSize`], [`Position`]), legal-move
//! generation and flips ([`movegen`]), game end and scoring, text formats ([`text`], game records in [`ggf`]), hashing
//! ([`hash`]), the eight symmetries ([`Symmetry`]) and perft ([`perft`]); with the `rand`
//! feature, seeded random play for tests and data (`random`). Without that feature it has no
//! dependencies, and it allocates nothing on its hot paths.
//!
//! Design, after Edax and shakmaty:
//! - a position is stored side-relative (`player`, `opponent`), so making a move is two XORs and
//!   a swap, and it is `Copy`: [`Position::play`] returns a new position;
//! - a pass is a real move, legal exactly when the side to move has no square but the opponent
//!   has one; the game is over when neither side can move;
//! - 4x4 and 6x6 boards live in the top-left corner of the 8x8 bitboard, masked;
//! - the move-generation back end (portable, AVX2, BMI2 `pext`, AVX-512) is chosen at run time
//!   ([`movegen::Backend`], `OTHELLO_BACKEND` forces one) and every back end is checked against
//!   the portable one and against the naive [`reference`](mod@reference) on random positions.
//!
//! ```
//! use othello_rules::{perft::perft, Move, Position};
//!
//! let start = Position::start();
//! assert_eq!(start.moves().len(), 4); // d3, c4, f5, e6
//! let pos = start.play("f5".parse::<Move>().unwrap()).unwrap();
//! assert_eq!(pos.to_string(), "---------------------------OX------XXX-------------------------- O");
//! assert_eq!(perft(&start, 6), 8200);
//! ```
#![deny(missing_docs)]

mod bitboard;
pub mod ggf;
pub mod hash;
pub mod movegen;
pub mod perft;
mod position;
#[cfg(feature = "rand")]
pub mod random;
pub mod reference;
mod size;
mod square;
mod symmetry;
pub mod text;

pub use bitboard::{Bitboard, Squares, neighbours};
pub use ggf::{GgfClock, GgfGame, GgfMove, GgfTimeControl, ParseGgfError};
pub use position::{IllegalMoveError, Position, PositionError, final_score};
pub use size::{BoardSize, ParseBoardSizeError};
pub use square::{Color, Move, ParseMoveError, Square};
pub use symmetry::{Symmetry, canonical};
pub use text::{ObfLine, ParseObfError, ParsePositionError, SequenceError};
