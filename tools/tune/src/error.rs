//! The tool's error: bad input (a file, an option value) exits with code 2.

/// An error that ends the command with one line on stderr.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// Bad input: a missing or corrupt file, a bad option value. Exit code 2.
    #[error("{0}")]
    Input(String),
}

impl TuneError {
    /// The process exit code.
    pub fn exit_code(&self) -> i32 {
        match self {
            TuneError::Input(_) => 2,
        }
    }
}

/// The result type of every command.
pub type TuneResult<T = ()> = Result<T, TuneError>;
