//! CLI errors: bad input exits 2, a failed check exits 1.

use std::fmt;

/// An error that ends the command with a one-line message on stderr.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: a malformed board, an illegal move, a bad option or file. Exit code 2.
    Input(String),
    /// A check failed (for example a solve mismatch). Exit code 1.
    Check(String),
}

impl CliError {
    /// The process exit code.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Check(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m) | CliError::Check(m) => f.write_str(m),
        }
    }
}

/// A spec that does not parse or build is bad input. `human` is no engine of the spec crate:
/// only `othello play` seats a person (`arena::human`), so elsewhere it is refused by name.
impl From<othello_spec::SpecError> for CliError {
    fn from(e: othello_spec::SpecError) -> CliError {
        match e {
            othello_spec::SpecError::UnknownEngine { name } if name == "human" => {
                CliError::Input("engine 'human' plays only in `othello play` (a person at the terminal)".to_string())
            }
            e => CliError::Input(e.to_string()),
        }
    }
}

/// Shorthand for bad input.
pub fn input(msg: impl Into<String>) -> CliError {
    CliError::Input(msg.into())
}

/// The result type of every command.
pub type CliResult<T = ()> = Result<T, CliError>;
