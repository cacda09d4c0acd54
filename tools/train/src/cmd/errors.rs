//! `errors`: the errors of any weights on any labels file, per empties bucket.

use super::common::{Common, bad, read_labels};
use othello_eval::{Evaluator, WeightedEval};
use othello_pattern::PatternEval;
use othello_train::{TrainError, TrainResult, data, report};

/// Options of `errors`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Labels files (repeat to concatenate), e.g. the frozen held-out files
    /// `tools/train/data/heldout-14-20-games.jsonl` (one label from each of 3 699 games) and
    /// `tools/train/data/heldout-14-20.jsonl` (345 labels of 50 games), both of hand-feature
    /// self-play, and `tools/train/data/heldout-14-20-engine.jsonl` (the default's games).
    #[arg(long, required = true)]
    labels: Vec<String>,
    /// Label sources scored: `exact`, `search`, `result`, comma-separated, or `all`.
    #[arg(long, default_value = "exact")]
    sources: String,
    /// The model of the weights: `pattern` or `features`.
    #[arg(long, default_value = "pattern")]
    model: String,
    /// pattern: a weights file, or `default` (the embedded weights); features: a file holding
    /// the evaluation text, the text itself, or `default`.
    #[arg(long, default_value = "default")]
    weights: String,
    /// Score only the labels held out by a fit with this --test-every (1: every label).
    #[arg(long, default_value_t = 1)]
    test_every: u32,
    /// Width of the empties buckets of the table (1: one row per empties count).
    #[arg(long, default_value_t = 1)]
    bucket: u32,
    #[command(flatten)]
    common: Common,
}

/// Runs `errors`.
pub fn run(a: &Args) -> TrainResult<()> {
    if a.test_every == 0 || a.bucket == 0 {
        return Err(bad("bad --test-every or --bucket 0: expected at least 1".into()));
    }
    let eval: Box<dyn Evaluator> = match (a.model.as_str(), a.weights.as_str()) {
        ("pattern", "default") => Box::new(PatternEval::default()),
        ("pattern", path) => Box::new(PatternEval::from_path(path).map_err(|error| TrainError::Weights {
            path: path.to_string(),
            error,
        })?),
        ("features", "default") => Box::new(WeightedEval::default()),
        ("features", w) => {
            let text = if std::path::Path::new(w).is_file() {
                std::fs::read_to_string(w).map_err(|source| TrainError::Read {
                    path: w.to_string(),
                    source,
                })?
            } else {
                w.to_string()
            };
            Box::new(
                text.trim()
                    .parse::<WeightedEval>()
                    .map_err(|e| bad(format!("bad --weights {w:?}: {e}")))?,
            )
        }
        (other, _) => return Err(bad(format!("bad --model {other:?}: expected pattern or features"))),
    };
    let labels = read_labels(&a.labels, &a.sources, a.common.on_bad())?;
    if labels.is_empty() {
        return Err(bad(format!(
            "{} hold no labels of the sources asked for",
            a.labels.join(", ")
        )));
    }
    let (rows, _) = data::rows(&labels, a.test_every);
    let by_e = report::by_empties(&eval, &rows, |r| r.test);
    println!(
        "errors of {} ({}) on {} (games = 0 mod {}), discs, the hand-feature default beside:",
        a.weights,
        a.model,
        a.labels.join(", "),
        a.test_every
    );
    report::print_table(&by_e, a.bucket);
    Ok(())
}
