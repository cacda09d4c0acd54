//! An opening book for Othello: positions keyed by their canonical form under the eight
//! symmetries of the board (one entry per class of twins, looked up from any twin, moves
//! carried back through the symmetry), each with its negamax value and every legal move's
//! value in centi-discs for the side to move, marked as a searched leaf or as propagated from
//! the book. [`build`] grows a book from an engine's searches (a breadth-first walk along the
//! moves within a deviation window of the best, see [`plan`]; [`build_parallel`] searches on
//! several threads and gives the same book); [`deepen`] searches again, with a deeper engine,
//! the leaves that the lines near the best reach (see [`leaf_moves`]); [`Book::choose`] picks a move
//! at random among those within a margin of the best, from a seeded generator.
//!
//! ```
//! use othello_book::{Book, BuildConfig, build};
//! use othello_rules::{Move, Position};
//! use rand::SeedableRng;
//!
//! // A stand-in for an engine: each move scored by the mover's disc lead after it.
//! let mut search = |pos: &Position| -> Vec<(Move, i32)> {
//!     pos.moves().into_iter().map(|m| (m, -pos.play(m).unwrap().disc_difference() * 100)).collect()
//! };
//! let mut book = Book::new();
//! let config = BuildConfig { depth: 2, max_positions: 50, deviation: 0, ..BuildConfig::default() };
//! build(&mut book, &Position::start(), &config, &mut search, &mut |_| {}).unwrap();
//! assert!(book.contains(&Position::start()));
//!
//! // The four first moves are twins: one entry answers for all of them.
//! let d3 = Position::start().play("d3".parse().unwrap()).unwrap();
//! let f5 = Position::start().play("f5".parse().unwrap()).unwrap();
//! assert_eq!(book.moves(&d3).len(), book.moves(&f5).len());
//!
//! // The file form round trips; a damaged byte is a typed error.
//! let bytes = book.to_bytes();
//! assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
//! let mut bad = bytes.clone();
//! bad[30] ^= 1;
//! assert!(Book::from_bytes(&bad).is_err());
//!
//! // A seeded choice among the moves within 1 disc of the best.
//! let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
//! let (mv, _value) = book.choose(&f5, 100, &mut rng).unwrap();
//! assert!(f5.is_legal(mv));
//! ```
//!
//! # File format, version 1
//!
//! All integers little-endian.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `OTHBOOK\0` |
//! | 8..12 | format version (`u32`, 1) |
//! | 12..16 | entry count `N` (`u32`) |
//! | 16..24 | checksum (`u64`, FNV-1a 64 of bytes 0..16 then of every byte from 24 to the end) |
//! | then, `N` times | an entry |
//!
//! An entry: the canonical key, `player` then `opponent` (`u64` each: the discs of the side to
//! move and of the other side, bit `8 * row + col`, a1 = bit 0, of the smallest of the eight
//! symmetric images, compared as the pair), the position's value (`i16`, centi-discs), the
//! move count `k` (`u8`), then `k` moves of 4 bytes: the move code (`u8`: the square index in
//! the canonical frame, 64 for a pass), flags (`u8`: bit 0 propagated, bit 1 exact; other bits
//! zero), the move's value (`i16`, centi-discs for the side to move).
//!
//! The file ends with the last entry. Readers check, and [`Book::from_bytes`] refuses with a
//! [`BookError`]: the magic, the version, the checksum (right after them, so any damaged byte
//! is a checksum mismatch), a file cut inside the header or an entry, bytes after the last
//! entry, and each entry ([`EntryError`]): a canonical key without overlapping discs, keys in
//! strictly increasing order (`(player, opponent)` compared as a pair), a position where the
//! game goes on, every legal move once in increasing code order (a pass alone when the side
//! must pass), values within -6400..=6400, the entry's value the best move value, a move
//! marked propagated exactly when its position is in the book and then worth the negated
//! value of that entry, and a move that ends the game marked exact (only) with its final score.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod book;
mod build;
mod deepen;
mod error;
mod key;
#[cfg(test)]
mod tests;

pub use book::{
    Book, BookMove, CHECKSUM_FIELD, ENTRY_HEAD_LEN, Entry, FLAG_EXACT, FLAG_PROPAGATED, FORMAT_VERSION, HEADER_LEN,
    MAGIC, MAX_VALUE, MOVE_LEN, expected_checksum, fnv1a64_extend,
};
pub use build::{BuildConfig, BuildEvent, BuildReport, Candidate, build, build_parallel, plan, searched_values};
pub use deepen::{DeepenConfig, DeepenReport, LeafMove, deepen, leaf_moves};
pub use error::{BookError, EntryError};
pub use key::{Key, PASS_CODE, canonical_key, inverse, map_move};
