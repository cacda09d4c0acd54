//! Options shared by the subcommands, and small helpers.

use othello_train::data::{Label, Source};
use othello_train::jsonl::OnBad;
use othello_train::labelling;
use othello_train::selfplay::PlayEval;
use othello_train::{TrainError, TrainResult};

/// Options of every subcommand that reads data.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// Stop at the first malformed data line instead of reporting and skipping it.
    #[arg(long)]
    pub strict: bool,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

impl Common {
    /// What to do with a malformed line.
    pub fn on_bad(&self) -> OnBad {
        if self.strict { OnBad::Fatal } else { OnBad::Skip }
    }
}

/// A bad option value.
pub fn bad(msg: String) -> TrainError {
    TrainError::Input(msg)
}

/// The evaluation named by `--eval hand|pattern` and `--weights FILE` (which implies pattern).
pub fn play_eval(eval: &str, weights: Option<&String>) -> TrainResult<PlayEval> {
    match (eval, weights) {
        ("hand", None) => Ok(PlayEval::Hand),
        ("pattern", None) => Ok(PlayEval::Pattern),
        ("pattern", Some(w)) => Ok(PlayEval::Weights(w.clone())),
        ("hand", Some(_)) => Err(bad("--weights needs --eval pattern (its default with --weights)".into())),
        (other, _) => Err(bad(format!("bad --eval {other:?}: expected hand or pattern"))),
    }
}

/// Checks an empties range.
pub fn empties_range(min: u32, max: u32) -> TrainResult<()> {
    if min > max || max > 60 {
        return Err(bad(format!(
            "bad empties range {min}..={max}: expected min <= max <= 60"
        )));
    }
    Ok(())
}

/// Reads and concatenates labels files, keeping the labels of the named sources
/// (`exact,search,result`, or `all`).
pub fn read_labels(paths: &[String], sources: &str, on_bad: OnBad) -> TrainResult<Vec<Label>> {
    let mut keep = [false; 3];
    for s in sources.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match s {
            "all" => keep = [true; 3],
            "exact" => keep[0] = true,
            "search" => keep[1] = true,
            "result" => keep[2] = true,
            other => {
                return Err(bad(format!(
                    "bad --sources: unknown source {other:?} (expected exact, search, result or all)"
                )));
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        out.extend(labelling::read(p, false, on_bad)?.into_iter().filter(|l| {
            keep[match l.source {
                Source::Exact => 0,
                Source::Search { .. } => 1,
                Source::Result => 2,
            }]
        }));
    }
    Ok(out)
}
