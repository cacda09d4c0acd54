//! Turning command-line text into positions.

use crate::error::{CliError, CliResult, input};
use othello_rules::text::play_sequence;
use othello_rules::{BoardSize, ObfLine, Position};
use othello_spec::resources::{hash_ok, threads_ok};

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

    /// The `--moves` text, if given.
    pub fn moves_text(&self) -> Option<&str> {
        self.moves.as_deref()
    }

    /// The `--size`, if given.
    pub fn size(&self) -> Option<u8> {
        self.size
    }
}

/// The largest input read from a file or standard input (an OBF file of a million positions
/// is about 100 MB); a special file that never ends, such as `/dev/zero`, stops here.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The text of an input file, or of standard input when `path` is `-` (every command that
/// reads a file takes `-`), with the name to show in messages (`standard input`, or the path).
/// Reads a regular file or a special one (a pipe, `/dev/stdin`), up to [`MAX_INPUT_BYTES`].
///
/// # Errors
/// Bad input naming `what` (e.g. "openings file") and the path: it cannot be read, it is a
/// directory, it is larger than the limit, or it is not UTF-8 text.
pub fn read_source(path: &str, what: &str) -> CliResult<(String, String)> {
    use std::io::Read;
    let (name, reader): (String, Box<dyn Read>) = if path == "-" {
        ("standard input".to_string(), Box::new(std::io::stdin()))
    } else {
        let pre = if what.is_empty() {
            String::new()
        } else {
            format!("{what} ")
        };
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(input(format!("{pre}{path} is a directory")));
        }
        let file = std::fs::File::open(path).map_err(|e| input(format!("cannot read {pre}{path}: {e}")))?;
        (path.to_string(), Box::new(file))
    };
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| input(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(input(format!("{name}: larger than {} MiB", MAX_INPUT_BYTES >> 20)));
    }
    let text = String::from_utf8(bytes).map_err(|_| input(format!("{name} is not UTF-8 text")))?;
    Ok((name, text))
}

/// The lines of an OBF file named by `arg` when it names one: a file that exists (a regular
/// file, or a special one such as a pipe) or standard input (`-`); `None` when `arg` is no file
/// (a position, say). Blank lines and lines starting with `#` or `%` are skipped. Returns the
/// name to show in messages with the lines.
///
/// # Errors
/// Bad input naming the file (and the line): unreadable, a directory, empty, only comments,
/// or a malformed line.
pub fn read_obf(arg: &str) -> CliResult<Option<(String, Vec<ObfLine>)>> {
    let meta = std::fs::metadata(arg);
    if arg != "-" && meta.is_err() {
        return Ok(None);
    }
    if meta.is_ok_and(|m| m.is_dir()) {
        return Err(input(format!(
            "{arg} is a directory: expected an OBF file or a position"
        )));
    }
    let (name, text) = read_source(arg, "")?;
    if text.trim().is_empty() {
        return Err(input(format!("{name}: empty input, no positions")));
    }
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') {
            continue;
        }
        let obf: ObfLine = t.parse().map_err(|e| input(format!("{name} line {}: {e}", i + 1)))?;
        lines.push(obf);
    }
    if lines.is_empty() {
        return Err(input(format!("{name}: no positions (only comments)")));
    }
    Ok(Some((name, lines)))
}

/// The error for an argument that names neither a file nor a valid position: "no such file"
/// when it looks like a path (it ends in `.obf` or holds a `/`), otherwise `error`, the
/// position's.
pub fn not_a_file_or_position(arg: &str, error: CliError) -> CliError {
    if arg.ends_with(".obf") || arg.contains('/') {
        input(format!("no such file: {arg}"))
    } else {
        error
    }
}

/// [`threads_ok`] (1 to [`MAX_THREADS`](othello_spec::resources::MAX_THREADS)) for a command-line flag such as `--threads`.
///
/// # Errors
/// Bad input naming the flag and the value.
pub fn check_threads(threads: usize, flag: &str) -> CliResult<usize> {
    threads_ok(threads).map_err(|why| input(format!("bad {flag} {threads}: {why}")))
}

/// [`hash_ok`] (the table fits in the memory available) for a command-line flag such as
/// `--hash`.
///
/// # Errors
/// Bad input naming the flag and the value.
pub fn check_hash(mib: usize, flag: &str) -> CliResult<usize> {
    hash_ok(mib).map_err(|why| input(format!("bad {flag} {mib}: {why}")))
}

/// A command-line argument that is a position whose board begins with `-` (an empty square),
/// such as the 8x8 start: its first word is made of board characters only and it is long
/// enough to be a board, or it holds a space. Such an argument is a position, never an option.
pub fn looks_like_board(arg: &str) -> bool {
    let first = arg.split_whitespace().next().unwrap_or("");
    arg.starts_with('-')
        && !first.is_empty()
        && first
            .chars()
            .all(|c| matches!(c, 'X' | 'x' | '*' | 'O' | 'o' | '-' | '.'))
        && (first.chars().count() >= 16 || arg.trim().contains(char::is_whitespace))
}

/// The command line with every [`looks_like_board`] argument's leading `-` written as `.`
/// (the same empty square), so that the argument parser never takes a position for an option
/// and an unknown option is always reported as one. Arguments after `--` are left alone.
pub fn protect_positions(args: impl IntoIterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut escaped = false;
    args.into_iter()
        .map(|a| {
            if escaped {
                return a;
            }
            if a == "--" {
                escaped = true;
                return a;
            }
            match a.to_str() {
                Some(s) if looks_like_board(s) => {
                    let dashes = s.len() - s.trim_start_matches('-').len();
                    format!("{}{}", ".".repeat(dashes), &s[dashes..]).into()
                }
                _ => a,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_spec::resources::MAX_THREADS;

    #[test]
    fn boards_are_protected_and_options_are_not() {
        let start = "---------------------------OX------XO--------------------------- X";
        assert!(looks_like_board(start));
        assert!(looks_like_board(
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
        ));
        assert!(looks_like_board(
            "---------------------------OX------XO---------------------------"
        ));
        assert!(looks_like_board("-- Q"));
        for option in ["--frobnicate", "--dpeth", "-d", "--", "-", "--xo", "--moves", "-1"] {
            assert!(!looks_like_board(option), "{option}");
        }
        let args = ["othello", "show", start, "--moves", "f5", "--", "-- X"].map(std::ffi::OsString::from);
        let out = protect_positions(args);
        assert_eq!(
            out[2].to_str().unwrap(),
            start.replacen("---------------------------", "...........................", 1)
        );
        assert_eq!(out[2].to_str().unwrap().parse::<Position>().unwrap(), Position::start());
        assert_eq!(out[3], "--moves");
        assert_eq!(out[6], "-- X");
    }

    #[test]
    fn flags_name_themselves_in_table_and_thread_errors() {
        let e = check_hash(usize::MAX, "--hash").unwrap_err().to_string();
        assert!(e.starts_with(&format!("bad --hash {}: ", usize::MAX)), "{e}");
        assert_eq!(check_hash(1, "--hash").unwrap(), 1);
        assert_eq!(
            check_threads(0, "--threads").unwrap_err().to_string(),
            "bad --threads 0: expected 1 to 256"
        );
        assert!(check_threads(0, "--threads").is_err());
        assert!(check_threads(1, "--threads").is_ok());
        assert!(check_threads(MAX_THREADS, "--threads").is_ok());
        assert!(check_threads(MAX_THREADS + 1, "--threads").is_err());
    }
}
