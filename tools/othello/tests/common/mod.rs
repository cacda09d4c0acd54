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

/// The arguments of a command line: the words of `words` (split at white space), then `more`
/// (paths and other arguments that may hold spaces), so that a long command stays one line.
#[allow(dead_code, reason = "not every test binary builds its arguments this way")]
pub fn args<'a>(words: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    words.split_whitespace().chain(more.iter().copied()).collect()
}

/// `othello ARGS`, asserting that it succeeded (else failing with its standard error); its
/// standard output.
#[allow(dead_code, reason = "not every test binary runs othello this way")]
pub fn othello_ok(args: &[&str]) -> String {
    let o = othello(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Each line of `text` parsed as JSON (failing with the line that is not JSON).
#[allow(dead_code, reason = "not every test binary reads JSON Lines")]
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

/// The JSON Lines file at `path`, each line parsed.
#[allow(dead_code, reason = "not every test binary reads JSON Lines files")]
pub fn read_json_lines(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    json_lines(&text)
}

/// The elements of the JSON array `v[key]`, each read by `read` (`Value::as_str`,
/// `Value::as_f64`, ...); fails naming the key when `v[key]` is not an array or an element is
/// not of the type `read` expects.
#[allow(dead_code, reason = "not every test binary reads JSON arrays")]
pub fn array<'a, T>(v: &'a Value, key: &str, read: impl Fn(&'a Value) -> Option<T>) -> Vec<T> {
    let items = v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not an array: {v}"));
    items
        .iter()
        .map(|x| read(x).unwrap_or_else(|| panic!("{key}: unexpected element {x}")))
        .collect()
}
