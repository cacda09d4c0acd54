//! [`BookError`] and [`EntryError`]: why a book file or an entry was refused.

use othello_rules::Move;

/// Why an entry (one position and its moves) is not consistent, on its own or with the rest
/// of the book.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EntryError {
    /// Not an 8x8 position (a book holds 8x8 positions only).
    #[error("not an 8x8 position")]
    NotEightByEight,
    /// A square holds discs of both sides.
    #[error("a square holds discs of both sides")]
    Overlap,
    /// The key is not the smallest of the position's eight symmetric images.
    #[error("the key is not canonical")]
    NotCanonical,
    /// The key is not after the previous entry's (the entries are sorted, each once).
    #[error("the key is not after the previous entry's (unsorted or repeated)")]
    Unsorted,
    /// The game is over in the position: a book holds positions with a move to choose.
    #[error("the game is over in the position")]
    GameOver,
    /// A move code above the pass code (64).
    #[error("bad move code {code} (expected 0 to 64)")]
    BadMoveCode {
        /// The code.
        code: u8,
    },
    /// A move that is not legal in the position.
    #[error("illegal move {mv}")]
    IllegalMove {
        /// The move.
        mv: Move,
    },
    /// The moves are not in increasing square order (a pass last), or one is repeated.
    #[error("moves not in increasing order, or repeated")]
    MovesUnordered,
    /// Not every legal move has a value.
    #[error("{found} moves, the position has {expected} legal moves")]
    MoveCount {
        /// Moves in the entry.
        found: usize,
        /// Legal moves (1 for a forced pass).
        expected: usize,
    },
    /// A value outside -6400..=6400 centi-discs.
    #[error("value {value} out of range (expected -6400 to 6400 centi-discs)")]
    ValueRange {
        /// The value.
        value: i32,
    },
    /// Flag bits this version does not define, or both propagated and exact (propagation
    /// clears the exact flag, so no book holds both).
    #[error("unknown or contradictory flags {flags:#04x} on move {mv}")]
    UnknownFlags {
        /// The move.
        mv: Move,
        /// The flag byte.
        flags: u8,
    },
    /// The position's value is not the best of its moves' values (negamax).
    #[error("value {stored} is not the best move value {best}")]
    NotBest {
        /// The stored value.
        stored: i32,
        /// The best move value.
        best: i32,
    },
    /// A move marked as propagated whose child position is not in the book.
    #[error("move {mv} is marked propagated but its position is not in the book")]
    MissingChild {
        /// The move.
        mv: Move,
    },
    /// A move marked as a searched leaf whose child position is in the book (its value must
    /// come from the book).
    #[error("move {mv} is marked as a searched leaf but its position is in the book")]
    StaleLeaf {
        /// The move.
        mv: Move,
    },
    /// A propagated value that is not the negated value of the child position.
    #[error("move {mv} has value {value}, its position in the book has {child} (expected {})", -.child)]
    PropagatedValue {
        /// The move.
        mv: Move,
        /// The stored value.
        value: i32,
        /// The child's value.
        child: i32,
    },
    /// A position that is not in the book (where an operation needs one that is).
    #[error("the position is not in the book")]
    NotInBook,
    /// A move whose value is not a searched leaf: propagated from the book, or a game end.
    #[error("move {mv} is not a searched leaf (its value is propagated or a final score)")]
    NotALeaf {
        /// The move.
        mv: Move,
    },
    /// A move that ends the game without its exact final score.
    #[error("move {mv} ends the game: expected exact value {expected}, found {value}")]
    FinalValue {
        /// The move.
        mv: Move,
        /// The stored value.
        value: i32,
        /// The final score in centi-discs.
        expected: i32,
    },
}

/// Why a book file was refused (or could not be read or written).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read book file {path}: {why}")]
    Io {
        /// The file.
        path: String,
        /// The kind of failure.
        kind: std::io::ErrorKind,
        /// The system's message.
        why: String,
    },
    /// The file could not be written.
    #[error("cannot write book file {path}: {why}")]
    Write {
        /// The file.
        path: String,
        /// The kind of failure.
        kind: std::io::ErrorKind,
        /// The system's message.
        why: String,
    },
    /// The file ends inside the header or an entry.
    #[error("book file truncated in {}: needs {needed} bytes, {left} left", place(*.entry))]
    Truncated {
        /// The entry cut (`None`: the header).
        entry: Option<u32>,
        /// Bytes the part needs.
        needed: usize,
        /// Bytes left in the file where it starts.
        left: usize,
    },
    /// Not a book file.
    #[error("not an opening book file: bad magic {found:02x?}")]
    BadMagic {
        /// The first eight bytes.
        found: [u8; 8],
    },
    /// A format version this crate does not read.
    #[error(
        "unsupported book format version {found} (this build reads {})",
        crate::FORMAT_VERSION
    )]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// The file is corrupt.
    #[error("checksum mismatch: header says {expected:#018x}, the file hashes to {found:#018x}")]
    Checksum {
        /// In the header.
        expected: u64,
        /// Computed.
        found: u64,
    },
    /// Bytes after the last entry.
    #[error("{extra} bytes after the last of the book's entries")]
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// An entry that is inconsistent on its own or with the others.
    #[error("book entry {index}: {source}")]
    Entry {
        /// The entry's index in the file (0-based).
        index: u32,
        /// What is wrong with it.
        source: EntryError,
    },
}

fn place(entry: Option<u32>) -> String {
    match entry {
        None => "the header".to_string(),
        Some(i) => format!("entry {i}"),
    }
}
