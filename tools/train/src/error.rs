//! Typed errors: of one data line ([`LineError`]) and of a command ([`TrainError`]). Every
//! command error is bad input (exit code 2).

use othello_rules::ParsePositionError;

/// Why one JSON line of a games or labels file was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LineError {
    /// Not valid JSON.
    #[error("not JSON: {0}")]
    Json(String),
    /// Valid JSON, but not an object.
    #[error("not a JSON object")]
    NotObject,
    /// A required field is missing, or has the wrong type or range.
    #[error("missing or bad '{0}'")]
    Field(&'static str),
    /// The `position` text does not parse.
    #[error("bad position: {0}")]
    Position(#[from] ParsePositionError),
    /// The position is not on the 8x8 board.
    #[error("not an 8x8 position")]
    NotEight,
    /// A score beyond the board's 64 discs, or a fractional exact score.
    #[error("score {0} out of range or not whole for its source")]
    Score(f64),
    /// The `empties` field disagrees with the position.
    #[error("'empties' {given} does not match the position ({actual})")]
    Empties {
        /// The field's value.
        given: u64,
        /// The position's empty squares.
        actual: u32,
    },
    /// An unknown `source` (or old `method`).
    #[error("unknown source {0:?}: expected exact, search (with depth) or result")]
    Source(String),
    /// The `moves` of a game do not parse or are illegal.
    #[error("bad moves: {0}")]
    Moves(String),
    /// The `moves` of a game stop before the end of the game.
    #[error("the moves do not finish the game")]
    Unfinished,
}

/// The error of a command: one line on stderr, exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A bad option value.
    #[error("{0}")]
    Input(String),
    /// A file that cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file that cannot be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A malformed data line (with `--strict`, or in a file that must be whole).
    #[error("{path} line {line}: {error}")]
    Line {
        /// The file.
        path: String,
        /// Its line number, from 1.
        line: usize,
        /// What is wrong with it.
        error: LineError,
    },
    /// A weights file that does not load.
    #[error("{path}: {error}")]
    Weights {
        /// The file.
        path: String,
        /// Why.
        error: othello_pattern::WeightsError,
    },
}

impl TrainError {
    /// The process exit code: 2 (bad input) for every error.
    pub fn exit_code(&self) -> i32 {
        2
    }
}

/// The result type of the pipeline's functions.
pub type TrainResult<T = ()> = Result<T, TrainError>;
