//! JSON Lines files, shared by every step: reading with `file line N` errors (skipped or fatal),
//! and appending after an interrupted run without loss or duplicates.

use crate::error::{LineError, TrainError, TrainResult};
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

/// What a read found besides the records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Malformed lines skipped (reported on stderr).
    pub bad: usize,
    /// Lines that parse but hold no record (an unlabelled position of an old `othello-tune`
    /// data file).
    pub empty: usize,
}

/// Reads every non-blank line of `reader` (named `path` in errors), parsing each with `parse`,
/// which returns `Ok(None)` for a well-formed line without a record. A line that fails is
/// `path line N: why`, skipped (and reported on stderr) or fatal by `on_bad`. Bytes that are
/// not UTF-8 make the line malformed, not the file.
pub fn read_from<T>(
    reader: impl BufRead,
    path: &str,
    on_bad: OnBad,
    mut parse: impl FnMut(&str) -> Result<Option<T>, LineError>,
) -> TrainResult<(Vec<T>, ReadStats)> {
    let mut out = Vec::new();
    let mut stats = ReadStats::default();
    for (i, line) in reader.split(b'\n').enumerate() {
        let line = line.map_err(|source| TrainError::Read {
            path: path.to_string(),
            source,
        })?;
        let result = match std::str::from_utf8(&line) {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => parse(text),
            Err(e) => Err(LineError::Json(format!("not UTF-8: {e}"))),
        };
        match result {
            Ok(Some(v)) => out.push(v),
            Ok(None) => stats.empty += 1,
            Err(error) => {
                let e = TrainError::Line {
                    path: path.to_string(),
                    line: i + 1,
                    error,
                };
                match on_bad {
                    OnBad::Fatal => return Err(e),
                    OnBad::Skip => {
                        eprintln!("skipped: {e}");
                        stats.bad += 1;
                    }
                }
            }
        }
    }
    Ok((out, stats))
}

/// [`read_from`] on the file `path`. A missing file reads as empty when `missing_ok`.
pub fn read<T>(
    path: &str,
    missing_ok: bool,
    on_bad: OnBad,
    parse: impl FnMut(&str) -> Result<Option<T>, LineError>,
) -> TrainResult<(Vec<T>, ReadStats)> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((Vec::new(), ReadStats::default()));
        }
        Err(source) => {
            return Err(TrainError::Read {
                path: path.to_string(),
                source,
            });
        }
    };
    read_from(BufReader::new(file), path, on_bad, parse)
}

fn write_err(path: &str) -> impl Fn(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Write {
        path: path.to_string(),
        source,
    }
}

/// Opens `path` for appending. If an interrupted run left a last line without its newline,
/// that partial line is reported and cut off first (its record is made again by the resumed
/// run), so the next record starts on a line of its own.
pub fn append(path: &str) -> TrainResult<BufWriter<std::fs::File>> {
    let err = write_err(path);
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(&err)?;
    let len = file.metadata().map_err(&err)?.len();
    if len > 0 {
        // Find the last newline (read the tail backwards in blocks).
        let mut end = len;
        let mut keep = 0;
        let mut buf = vec![0u8; 4096];
        'scan: while end > 0 {
            let start = end.saturating_sub(buf.len() as u64);
            let n = (end - start) as usize;
            file.seek(SeekFrom::Start(start)).map_err(&err)?;
            file.read_exact(&mut buf[..n]).map_err(&err)?;
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
            file.set_len(keep).map_err(&err)?;
        }
    }
    Ok(BufWriter::new(file))
}

fn count_lines(path: &str) -> TrainResult<usize> {
    let data = std::fs::read(path).map_err(|source| TrainError::Read {
        path: path.to_string(),
        source,
    })?;
    Ok(data.iter().filter(|&&b| b == b'\n').count())
}

/// Writes `line` and a newline, then flushes (a record is on disk once written).
pub fn write_line(w: &mut impl Write, path: &str, line: &str) -> TrainResult<()> {
    writeln!(w, "{line}").and_then(|_| w.flush()).map_err(write_err(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("othello-train-jsonl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name).to_string_lossy().into_owned()
    }

    fn parse(l: &str) -> Result<Option<i32>, LineError> {
        match l {
            "none" => Ok(None),
            _ => l.parse::<i32>().map(Some).map_err(|e| LineError::Json(e.to_string())),
        }
    }

    #[test]
    fn bad_lines_are_reported_or_fatal() {
        let p = tmp("bad.jsonl");
        std::fs::write(&p, b"1\n\nx\n3\nnone\n\xff\n").unwrap();
        let (v, stats) = read(&p, false, OnBad::Skip, parse).unwrap();
        assert_eq!((v, stats), (vec![1, 3], ReadStats { bad: 2, empty: 1 }));
        let e = read(&p, false, OnBad::Fatal, parse).unwrap_err();
        assert!(matches!(e, TrainError::Line { line: 3, .. }), "{e}");
        assert!(e.to_string().starts_with(&format!("{p} line 3: not JSON")), "{e}");
        let e = read_from(&b"1\n\xff"[..], "x", OnBad::Fatal, parse).unwrap_err();
        assert!(matches!(e, TrainError::Line { line: 2, .. }), "{e}");
        assert!(matches!(
            read(&tmp("missing"), false, OnBad::Skip, parse),
            Err(TrainError::Read { .. })
        ));
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
