//! The tool's error: bad input (a file, an option value) exits with code 2.

/// An error that ends the command with one line on stderr.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// Bad input: a missing or corrupt file, a bad option value. Exit code 2.
    #[error("{0}")]
    Input(String),
}

/// The result type of every step.
pub type TrainResult<T = ()> = Result<T, TrainError>;
