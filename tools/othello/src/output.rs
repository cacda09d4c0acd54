//! Text or JSON Lines output.

use serde_json::Value;

/// Where results go: human text, or one JSON object per line.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    json: bool,
}

impl Output {
    /// Text output unless `json`.
    pub fn new(json: bool) -> Output {
        Output { json }
    }

    /// Prints one result line, built lazily in the chosen form.
    pub fn line(&self, text: impl FnOnce() -> String, json: impl FnOnce() -> Value) {
        let line = if self.json { json().to_string() } else { text() };
        emit(&line);
    }
}

/// Writes one line to stdout and flushes it. A closed stdout (a reader such as `head` that
/// stopped reading) ends the process quietly with success instead of a panic.
pub fn emit(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}
