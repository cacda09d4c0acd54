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
        if self.json {
            println!("{}", json());
        } else {
            println!("{}", text());
        }
    }
}
