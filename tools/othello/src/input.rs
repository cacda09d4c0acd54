//! Turning command-line text into positions.

use crate::error::{CliResult, input};
use othello_rules::text::play_sequence;
use othello_rules::{BoardSize, Position};

/// The position named by an optional board string, an optional `--size` and optional
/// `--moves`: the string when given (its length fixes the size, which must agree with
/// `--size`), otherwise the start position of `--size` (8x8 by default); then the moves.
pub fn position(board: Option<&str>, size: Option<u8>, moves: Option<&str>) -> CliResult<Position> {
    let size = size
        .map(|s| BoardSize::from_side(s).ok_or_else(|| input(format!("bad --size {s}: expected 4, 6 or 8"))))
        .transpose()?;
    let start = match board {
        Some(text) => {
            let pos: Position = text.parse().map_err(|e| input(format!("bad position: {e}")))?;
            if let Some(s) = size
                && s != pos.size()
            {
                return Err(input(format!(
                    "--size {} contradicts the {} board of the position",
                    s.side(),
                    pos.size()
                )));
            }
            pos
        }
        None => Position::start_of(size.unwrap_or_default()),
    };
    match moves {
        Some(seq) => play_sequence(&start, seq).map_err(|e| input(format!("bad --moves: {e}"))),
        None => Ok(start),
    }
}

/// The options every position-taking command shares: `--moves` and `--size`.
#[derive(clap::Args, Debug)]
pub struct Setup {
    /// Moves played from the position (or from the start), e.g. f5d6c3.
    #[arg(long)]
    moves: Option<String>,
    /// Board size of the start position when no position is given: 4, 6 or 8.
    #[arg(long)]
    size: Option<u8>,
}

impl Setup {
    /// The position: `board` (or the start of `--size`) after `--moves`; see [`position`].
    ///
    /// # Errors
    /// Bad input naming the problem.
    pub fn position(&self, board: Option<&str>) -> CliResult<Position> {
        position(board, self.size, self.moves.as_deref())
    }
}
