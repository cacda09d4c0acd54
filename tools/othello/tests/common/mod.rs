//! Helpers shared by the end-to-end tests of the `othello` binary.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The `othello` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_othello");

/// Runs `othello ARGS --json` (and `-q` for `play`), asserts that it succeeded, and returns the
/// JSON lines before the last one and the last one (the summary).
#[allow(dead_code, reason = "not every test binary reads JSON summaries")]
pub fn run_json(args: &[&str]) -> (Vec<Value>, Value) {
    let quiet: &[&str] = if args.first() == Some(&"play") { &["-q"] } else { &[] };
    let out = Command::new(BIN).args(args).arg("--json").args(quiet).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    let mut lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = lines.pop().unwrap();
    (lines, summary)
}

/// `othello ARGS`, its output collected.
#[allow(dead_code, reason = "not every test binary runs othello this way")]
pub fn othello(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run othello")
}

/// `othello ARGS` with `input` on its standard input.
#[allow(dead_code, reason = "not every test binary pipes input")]
pub fn othello_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run othello");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().expect("wait for othello")
}
