//! The library half of the `othello` command: every subcommand's options and code, so that the
//! binary (`src/main.rs`) stays a thin entry point and the fuzz targets (`fuzz/`) can call the
//! same parsers the command uses (NBoard sessions, GGF records). Engine specs are parsed, and
//! their players built, by the `othello-spec` crate; its errors are bad input here.
//!
//! ```
//! use othello_cli::input::position;
//!
//! let pos = position(None, Some(6), None).unwrap();
//! assert_eq!(pos.empty_count(), 32);
//! assert_eq!(position(None, Some(5), None).unwrap_err().exit_code(), 2);
//! ```
//!
//! Exit codes: 0 success, 1 a failed check (such as a solve mismatch), 2 bad input (a malformed
//! board, an illegal move, an unknown option, a bad file), always with one line on stderr (plus
//! clap's tip line when it has one, so a usage error can take two).
#![forbid(unsafe_code)]

pub mod arena;
pub mod bench;
pub mod book_cmd;
pub mod build_info;
pub mod cli;
pub mod error;
pub mod exact_at;
pub mod input;
pub mod mistakes;
pub mod nboard;
pub mod output;
pub mod paired;
pub mod perft;
pub mod picture;
pub mod play;
pub mod quality;
pub mod records;
pub mod search_cmd;
pub mod show;
pub mod solve;
pub mod stats;
pub mod time_use;

use error::{CliResult, input};

/// Checks a depth given on the command line: 0 to `max`.
///
/// # Errors
/// Bad input naming the depth.
pub fn check_depth(depth: i64, max: u32) -> CliResult<u32> {
    if depth < 0 || depth > max as i64 {
        return Err(input(format!("bad --depth {depth}: expected 0 to {max}")));
    }
    Ok(depth as u32)
}
