//! JSON Lines files shared by every step: reading with `file:line` errors (skipped or fatal),
//! and appending after an interrupted run without loss or duplicates.

use crate::error::{TrainError, TrainResult};
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

/// What to do with a malformed line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnBad {
    /// Report it on stderr (file and line number) and go on.
    Skip,
    /// Stop with an error naming the file and line.
    Fatal,
}

/// Reads every non-blank line of `path`, parsing each with `parse`. A line that fails is
/// reported as `path line N: why` (skipped or fatal by `on_bad`). A missing file reads as
/// empty when `missing_ok`. Returns the parsed values and the number of bad lines.
pub fn read<T>(
    path: &str,
    missing_ok: bool,
    on_bad: OnBad,
    mut parse: impl FnMut(&str) -> Result<T, String>,
) -> TrainResult<(Vec<T>, usize)> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(TrainError::Input(format!("cannot read {path}: {e}"))),
    };
    let mut out = Vec::new();
    let mut bad = 0;
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| TrainError::Input(format!("cannot read {path} line {}: {e}", i + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        match parse(&line) {
            Ok(v) => out.push(v),
            Err(why) => {
                let msg = format!("{path} line {}: {why}", i + 1);
                match on_bad {
                    OnBad::Fatal => return Err(TrainError::Input(msg)),
                    OnBad::Skip => {
                        eprintln!("skipped: {msg}");
                        bad += 1;
                    }
                }
            }
        }
    }
    Ok((out, bad))
}

/// Opens `path` for appending. If an interrupted run left a last line without its newline,
/// that partial line is reported and cut off first (its record is made again by the resumed
/// run), so the next record starts on a line of its own.
pub fn append(path: &str) -> TrainResult<BufWriter<std::fs::File>> {
    let err = |e: std::io::Error| TrainError::Input(format!("cannot write {path}: {e}"));
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(err)?;
    let len = file.metadata().map_err(err)?.len();
    if len > 0 {
        // Find the last newline (read the tail backwards in blocks).
        let mut end = len;
        let mut keep = 0;
        let mut buf = vec![0u8; 4096];
        'scan: while end > 0 {
            let start = end.saturating_sub(buf.len() as u64);
            let n = (end - start) as usize;
            file.seek(SeekFrom::Start(start)).map_err(err)?;
            file.read_exact(&mut buf[..n]).map_err(err)?;
            for i in (0..n).rev() {
                if buf[i] == b'\n' {
                    keep = start + i as u64 + 1;
                    break 'scan;
                }
            }
            end = start;
        }
        if keep < len {
            eprintln!(
                "{path} line {}: truncated last line ({} bytes) removed; the resumed run redoes it",
                count_lines(path)? + 1,
                len - keep
            );
            file.set_len(keep).map_err(err)?;
        }
    }
    Ok(BufWriter::new(file))
}

fn count_lines(path: &str) -> TrainResult<usize> {
    let data = std::fs::read(path).map_err(|e| TrainError::Input(format!("cannot read {path}: {e}")))?;
    Ok(data.iter().filter(|&&b| b == b'\n').count())
}

/// Writes `line` and a newline, then flushes (a record is on disk once written).
pub fn write_line(w: &mut impl Write, path: &str, line: &str) -> TrainResult<()> {
    writeln!(w, "{line}")
        .and_then(|_| w.flush())
        .map_err(|e| TrainError::Input(format!("cannot write {path}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("pattern-train-jsonl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name).to_string_lossy().into_owned()
    }

    #[test]
    fn bad_lines_are_reported_or_fatal() {
        let p = tmp("bad.jsonl");
        std::fs::write(&p, "1\n\nx\n3\n").unwrap();
        let parse = |l: &str| l.parse::<i32>().map_err(|e| e.to_string());
        let (v, bad) = read(&p, false, OnBad::Skip, parse).unwrap();
        assert_eq!((v, bad), (vec![1, 3], 1));
        let e = read(&p, false, OnBad::Fatal, parse).unwrap_err().to_string();
        assert!(e.contains("line 3"), "{e}");
        assert!(read(&tmp("missing"), false, OnBad::Skip, parse).is_err());
        assert_eq!(read(&tmp("missing"), true, OnBad::Skip, parse).unwrap().0.len(), 0);
    }

    #[test]
    fn append_cuts_a_partial_last_line() {
        let p = tmp("partial.jsonl");
        std::fs::write(&p, "1\n2\n3").unwrap();
        let mut w = append(&p).unwrap();
        write_line(&mut w, &p, "4").unwrap();
        drop(w);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "1\n2\n4\n");
        std::fs::write(&p, "partial").unwrap();
        drop(append(&p).unwrap());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "");
    }
}
