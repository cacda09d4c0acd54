//! `errors`: the errors of any weights on any labels file, per empties bucket.

use super::common::{Common, bad, read_labels};
use othello_eval::WeightedEval;
use othello_pattern::PatternEval;
use othello_search::Selectivity;
use othello_spec::SpecEval;
use othello_train::labelling::{self, SearchedEval};
use othello_train::{TrainError, TrainResult, data, report};

/// Options of `errors`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Labels files (repeat to concatenate), e.g. the frozen held-out files
    /// `tools/train/data/heldout-14-20-games.jsonl` (one label from each of 3 699 games) and
    /// `tools/train/data/heldout-14-20.jsonl` (345 labels of 50 games), both of hand-feature
    /// self-play, and `tools/train/data/heldout-14-20-engine.jsonl` and
    /// `heldout-20-24-engine.jsonl` (the default's games against Zebra).
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
    /// Score the value of a search of this depth with the weights instead of their static
    /// evaluation (0: the static evaluation): the value `labels --mode search` gives with the
    /// same --depth, --mean-of and --selectivity, so an evaluation's gain can be followed
    /// through search.
    #[arg(long, default_value_t = 0)]
    depth: u32,
    /// With --depth: the mean of the values of this many consecutive depths ending at --depth.
    #[arg(long, default_value_t = 1)]
    mean_of: u32,
    /// With --depth: the selectivity, `off` (full width) or a level 0-4 (needs pattern weights
    /// with a cut table).
    #[arg(long, default_value = "off")]
    selectivity: Selectivity,
    #[command(flatten)]
    common: Common,
}

/// Runs `errors`.
pub fn run(a: &Args) -> TrainResult<()> {
    if a.test_every == 0 || a.bucket == 0 {
        return Err(bad("bad --test-every or --bucket 0: expected at least 1".into()));
    }
    if a.depth > 30 {
        return Err(bad(format!("bad --depth {}: expected 0 (static) to 30", a.depth)));
    }
    if !(1..=a.depth.max(1)).contains(&a.mean_of) {
        return Err(bad(format!(
            "bad --mean-of {}: expected 1 to --depth ({})",
            a.mean_of,
            a.depth.max(1)
        )));
    }
    if a.depth == 0 && !a.selectivity.is_off() {
        return Err(bad("--selectivity needs --depth (a search)".into()));
    }
    let eval: SpecEval = match (a.model.as_str(), a.weights.as_str()) {
        ("pattern", "default") => SpecEval::Pattern(Box::default(), None),
        ("pattern", path) => SpecEval::Pattern(
            Box::new(PatternEval::from_path(path).map_err(|error| TrainError::Weights {
                path: path.to_string(),
                error,
            })?),
            None,
        ),
        ("features", "default") => SpecEval::Weighted(WeightedEval::default()),
        ("features", w) => {
            let text = if std::path::Path::new(w).is_file() {
                std::fs::read_to_string(w).map_err(|source| TrainError::Read {
                    path: w.to_string(),
                    source,
                })?
            } else {
                w.to_string()
            };
            SpecEval::Weighted(
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
    let by_e = if a.depth == 0 {
        report::by_empties(&eval, &rows, |r| r.test)
    } else {
        let name = format!("{} ({})", a.weights, a.model);
        let searcher = labelling::label_searcher(eval, &name, a.selectivity)?;
        report::by_empties(&SearchedEval::new(searcher, a.depth, a.mean_of), &rows, |r| r.test)
    };
    let what = match (a.depth, a.mean_of) {
        (0, _) => String::new(),
        (d, 1) => format!(", a depth-{d} search at selectivity {}", a.selectivity),
        (d, k) => format!(
            ", the mean of depths {}-{d} of a search at selectivity {}",
            d + 1 - k,
            a.selectivity
        ),
    };
    println!(
        "errors of {} ({}{what}) on {} (games = 0 mod {}), discs, the hand-feature default's static evaluation beside:",
        a.weights,
        a.model,
        a.labels.join(", "),
        a.test_every
    );
    report::print_table(&by_e, a.bucket);
    Ok(())
}
