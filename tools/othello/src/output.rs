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

    /// Whether the output is JSON Lines.
    pub fn is_json(&self) -> bool {
        self.json
    }

    /// Prints one result line, built lazily in the chosen form.
    pub fn line(&self, text: impl FnOnce() -> String, json: impl FnOnce() -> Value) {
        if self.json {
            println!("{}", json());
        } else {
            println!("{}", text());
        }
    }

    /// Prints text only (nothing in JSON mode).
    pub fn text(&self, text: impl FnOnce() -> String) {
        if !self.json {
            println!("{}", text());
        }
    }
}
