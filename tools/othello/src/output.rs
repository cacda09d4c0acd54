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

/// `n` and the noun, singular for one: `count(1, "position", "positions")` is `1 position`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Nodes per second as an integer (0 when no time was measured).
pub fn nps(nodes: u64, secs: f64) -> u64 {
    if secs > 0.0 {
        (nodes as f64 / secs).round() as u64
    } else {
        0
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

/// A progress bar on stderr counting `len` items of `what`. Hidden with `quiet`; indicatif also
/// hides it when stderr is not a terminal, so scripts never see it.
pub fn progress(len: u64, what: &str, quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    let template = format!("{{bar:30}} {{pos}}/{{len}} {what} {{elapsed_precise}} {{msg}}");
    bar.set_style(indicatif::ProgressStyle::with_template(&template).expect("valid template"));
    bar
}
