//! `fit --model pattern|features`: the least-squares fit of either model on labels files, with
//! the held-out split and the bootstrap; writes the weights and prints held-out errors.

use super::common::{Common, bad, empties_range, read_labels};
use othello_eval::Feature;
use othello_train::bootstrap::{self, Store};
use othello_train::data::{self, Label};
use othello_train::fit_features::{self, StartMode};
use othello_train::fit_pattern;
use othello_train::{TrainError, TrainResult, report, selfplay};
use std::time::Instant;

/// Options of `fit`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The model: `pattern` (a weights file of `othello-pattern`) or `features` (the weights of
    /// the hand-feature evaluation, written as its text form).
    #[arg(long)]
    model: String,
    /// Labels files (repeat to concatenate; old files of othello-tune and
    /// othello-pattern-train are read too).
    #[arg(long, required = true)]
    labels: Vec<String>,
    /// Label sources used: `exact`, `search`, `result`, comma-separated, or `all`.
    #[arg(long, default_value = "all")]
    sources: String,
    /// Games files (the bootstrap takes its positions from them; needed when it is on;
    /// repeat to concatenate).
    #[arg(long)]
    games: Vec<String>,
    /// The file written: the weights file (pattern) or the evaluation text (features).
    #[arg(long)]
    out: String,
    /// Hold out every game whose number is a multiple of this.
    #[arg(long, default_value_t = 10)]
    test_every: u32,
    /// Ridge term of the least squares [default: 5 pattern, 1 features].
    #[arg(long)]
    ridge: Option<f64>,
    /// Bootstrap search depth for the empties beyond the labels (0: off) [default: 4
    /// pattern, 0 features].
    #[arg(long)]
    bootstrap_depth: Option<u32>,
    /// Positions labelled by search per bootstrapped phase or band.
    #[arg(long, default_value_t = 3000)]
    bootstrap_positions: usize,
    /// File of the bootstrap's search labels (read if present, appended to).
    #[arg(long)]
    bootstrap_labels: Option<String>,
    /// Seed of the bootstrap's choice of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Use only the first N labels (to measure how the fit grows with data).
    #[arg(long)]
    max_labels: Option<usize>,
    /// Use only the labels of positions with at least this many empty squares (with
    /// --prior-weights, a phase left without labels keeps the prior's weights).
    #[arg(long, default_value_t = 0)]
    min_empties: u32,
    /// Use only the labels of positions with at most this many empty squares.
    #[arg(long, default_value_t = 60)]
    max_empties: u32,
    /// pattern: phases (1 to 61; phase of e empties = e * phases / 61).
    #[arg(long, default_value_t = 15)]
    phases: u32,
    /// pattern: conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = 300)]
    iterations: usize,
    /// pattern: positions within this many empties of a phase also train it.
    #[arg(long, default_value_t = 1)]
    margin: u32,
    /// pattern: pull each phase's weights towards the previous phase's instead of zero.
    #[arg(long, conflicts_with = "prior_weights")]
    prior_previous: bool,
    /// pattern: a warm start: pull each phase's weights towards this weights file's (same
    /// empties) instead of zero, so the fit refines them with the labels; phases beyond the
    /// labels keep them when the bootstrap is off (--bootstrap-depth 0).
    #[arg(long)]
    prior_weights: Option<String>,
    /// pattern, with --prior-weights: each weight's ridge grows by this much per training row
    /// that uses it, as if the prior weights came from this many times the labels given (e.g.
    /// their label count over the new labels'); 0: the plain --ridge.
    #[arg(long, default_value_t = 0.0, requires = "prior_weights")]
    prior_strength: f64,
    /// pattern, with --prior-weights: copy the prior file's sections into the output, such as
    /// the search's cut table (`CUTS`; without it a search with the output is full width). The
    /// table was measured with the prior's weights: for a refinement of a few phases.
    #[arg(long, requires = "prior_weights")]
    prior_sections: bool,
    /// features: the features fitted, comma-separated (names as in the evaluation text).
    #[arg(long, default_value = "discs,mobility,potential,corners,xc,parity")]
    features: String,
    /// features: `fit` start and end weights, or keep the hand-set start weights (`default`).
    #[arg(long, value_enum, default_value_t = StartMode::Fit)]
    start: StartMode,
    /// features: width of a bootstrap band in empties.
    #[arg(long, default_value_t = 10)]
    band: u32,
    #[command(flatten)]
    common: Common,
}

fn write_err(path: &str) -> impl Fn(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Write {
        path: path.to_string(),
        source,
    }
}

/// Runs `fit`.
pub fn run(a: &Args) -> TrainResult<()> {
    let pattern = match a.model.as_str() {
        "pattern" => true,
        "features" => false,
        other => return Err(bad(format!("bad --model {other:?}: expected pattern or features"))),
    };
    let ridge = a.ridge.unwrap_or(if pattern { 5.0 } else { 1.0 });
    if !(ridge >= 0.0 && ridge.is_finite()) {
        return Err(bad(format!("bad --ridge {ridge}: expected a finite value >= 0")));
    }
    let bootstrap_depth = a.bootstrap_depth.unwrap_or(if pattern { 4 } else { 0 });
    if bootstrap_depth > 20 {
        return Err(bad(format!(
            "bad --bootstrap-depth {bootstrap_depth}: expected at most 20"
        )));
    }
    empties_range(a.min_empties, a.max_empties)?;
    if a.test_every < 2 {
        return Err(bad(format!("bad --test-every {}: expected at least 2", a.test_every)));
    }
    if !(1..=61).contains(&a.phases) {
        return Err(bad(format!("bad --phases {}: expected 1 to 61", a.phases)));
    }
    if a.band == 0 {
        return Err(bad("bad --band 0: expected at least 1".into()));
    }
    let features = if pattern {
        Vec::new()
    } else {
        feature_list(&a.features)?
    };
    if bootstrap_depth > 0 && a.games.is_empty() {
        return Err(bad(
            "the bootstrap (--bootstrap-depth > 0) takes its positions from --games".into(),
        ));
    }
    if !(a.prior_strength >= 0.0 && a.prior_strength.is_finite()) {
        return Err(bad(format!(
            "bad --prior-strength {}: expected a finite value >= 0",
            a.prior_strength
        )));
    }
    if !pattern && a.prior_weights.is_some() {
        return Err(bad(
            "--prior-weights is a pattern weights file: only with --model pattern".into(),
        ));
    }
    // Read the prior weights before spending the time on the labels.
    let prior_weights = match &a.prior_weights {
        Some(path) => Some(
            othello_pattern::Weights::from_path(path).map_err(|error| TrainError::Weights {
                path: path.clone(),
                error,
            })?,
        ),
        None => None,
    };
    let t = Instant::now();
    let on_bad = a.common.on_bad();
    let mut labels: Vec<Label> = read_labels(&a.labels, &a.sources, on_bad)?;
    keep_empties(&mut labels, a.min_empties, a.max_empties);
    if let Some(n) = a.max_labels {
        labels.truncate(n);
    }
    if labels.is_empty() {
        return Err(bad(format!(
            "{} hold no labels of the sources asked for",
            a.labels.join(", ")
        )));
    }
    let mut games = Vec::new();
    if bootstrap_depth > 0 {
        for g in &a.games {
            games.extend(selfplay::read(g, false, on_bad)?);
        }
    }
    let candidates = bootstrap::candidates(&games);
    let mut store = match &a.bootstrap_labels {
        Some(p) if bootstrap_depth > 0 => Store::open(p, on_bad)?,
        _ => Store::memory(),
    };
    // Fail on an unwritable output before spending the time.
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(write_err(&a.out))?;
    let (rows, merged) = data::rows(&labels, a.test_every);
    let test = rows.iter().filter(|r| r.test).count();
    println!(
        "fit: {} labels, {} rows ({} repeats or symmetric twins merged, {} of them held out for a twin's game); \
         held out: games = 0 mod {} ({test} rows)",
        labels.len(),
        rows.len(),
        merged.duplicates,
        merged.pulled_out,
        a.test_every
    );
    let quiet = a.common.quiet;
    if pattern {
        let config = fit_pattern::FitConfig {
            phases: a.phases,
            test_every: a.test_every,
            ridge,
            iterations: a.iterations,
            margin: a.margin,
            bootstrap_depth,
            bootstrap_positions: a.bootstrap_positions,
            prior_previous: a.prior_previous,
            prior_weights,
            prior_strength: a.prior_strength,
            seed: a.seed,
        };
        let fitted = fit_pattern::run(&config, &rows, &candidates, &mut store, |m| {
            if !quiet {
                println!("{m}");
            }
        })?;
        let weights = match config.prior_weights.as_ref() {
            Some(p) if a.prior_sections => fit_pattern::with_prior_sections(fitted.weights, p),
            Some(p) if p.sections().len() > 0 => {
                let tags: Vec<String> = p
                    .sections()
                    .map(|(t, _)| String::from_utf8_lossy(&t).into_owned())
                    .collect();
                println!(
                    "note: the prior's sections ({}) are not copied (--prior-sections copies them): \
                     without a cut table a search with {} is full width",
                    tags.join(", "),
                    a.out
                );
                fitted.weights
            }
            _ => fitted.weights,
        };
        weights.write(&a.out).map_err(write_err(&a.out))?;
        println!("held-out error by phase (discs; the hand-feature default on the same positions):");
        println!("| empties | labels | n | RMS | MAE | hand RMS | hand MAE |");
        println!("|---|---|---|---|---|---|---|");
        for (lo, hi, method, ours, hand) in &fitted.report {
            println!(
                "| {lo}-{hi} | {method} | {} | {:.2} | {:.2} | {:.2} | {:.2} |",
                ours.n, ours.rms, ours.mae, hand.rms, hand.mae
            );
        }
        let eval = othello_pattern::PatternEval::new(&weights);
        let by_e = report::by_empties(&eval, &rows, |r| r.test);
        println!("held-out labels by empties:");
        report::print_table(&by_e, 4);
        println!(
            "wrote {} ({} phases), {:.1} s",
            a.out,
            a.phases,
            t.elapsed().as_secs_f64()
        );
    } else {
        run_features(a, features, ridge, bootstrap_depth, &rows, &candidates, &mut store)?;
    }
    Ok(())
}

fn feature_list(text: &str) -> TrainResult<Vec<Feature>> {
    let mut features = Vec::new();
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let f = Feature::from_name(name).ok_or_else(|| bad(format!("bad --features: unknown feature '{name}'")))?;
        if features.contains(&f) {
            return Err(bad(format!("bad --features: '{name}' given twice")));
        }
        features.push(f);
    }
    if features.is_empty() {
        return Err(bad("bad --features: none given".into()));
    }
    Ok(features)
}

fn run_features(
    a: &Args,
    features: Vec<Feature>,
    ridge: f64,
    bootstrap_depth: u32,
    rows: &[data::Row],
    candidates: &[bootstrap::Candidate],
    store: &mut Store,
) -> TrainResult<()> {
    use fit_features::Source;
    let config = fit_features::FitConfig {
        features,
        test_every: a.test_every,
        ridge,
        start: a.start,
        bootstrap_depth,
        bootstrap_positions: a.bootstrap_positions,
        band: a.band,
        seed: a.seed,
    };
    let mut points = fit_features::points(rows);
    let (lo, hi) = points.iter().fold((u32::MAX, 0), |(lo, hi), p| {
        let e = p.pos.empty_count();
        (lo.min(e), hi.max(e))
    });
    if config.bootstrap_depth > 0 {
        fit_features::bootstrap(candidates, store, &mut points, &config, |b| {
            println!(
                "bootstrap {}..={} empties: {} positions labelled by depth-{} PVS with the fit so far, {} reused ({:.1} s)",
                b.lo, b.hi, b.searched, config.bootstrap_depth, b.reused, b.seconds
            );
        })?;
    }
    let fitted =
        fit_features::fit(&points, &config).ok_or_else(|| bad("singular system: add data or a ridge term".into()))?;
    let real: Vec<String> = fitted
        .weights
        .iter()
        .map(|(f, s, e)| format!("{f} {s:.1}/{e:.1}"))
        .collect();
    println!("fitted (real): {}", real.join(", "));
    let eval = fitted.eval();
    println!("eval: {eval}");
    std::fs::write(&a.out, format!("{eval}\n")).map_err(write_err(&a.out))?;
    println!("held-out RMS error in discs (fitted / rounded to integers / hand-set default):");
    let mut groups = vec![(Source::Labels, lo, hi)];
    for e in lo..=hi {
        groups.push((Source::Labels, e, e));
    }
    let shi = points
        .iter()
        .filter(|p| p.source == Source::Bootstrap)
        .map(|p| p.pos.empty_count())
        .max();
    if let Some(shi) = shi {
        let mut b = hi + 1;
        while b <= shi {
            let top = (b + config.band - 1).min(60);
            groups.push((Source::Bootstrap, b, top));
            b = top + 1;
        }
    }
    for (source, lo, hi) in groups {
        let r = fit_features::errors(&points, &fitted, source, lo, hi);
        if r.n == 0 {
            continue;
        }
        let label = match source {
            Source::Labels => "labels",
            Source::Bootstrap => "search",
        };
        println!(
            "  {label:<6} {lo:>2}..={hi:<2} n={:<6} {:6.2} / {:6.2} / {:6.2}",
            r.n, r.fitted, r.rounded, r.default
        );
    }
    println!("wrote {}", a.out);
    Ok(())
}

/// Keeps the labels whose positions have `min..=max` empty squares, in their order.
fn keep_empties(labels: &mut Vec<Label>, min: u32, max: u32) {
    labels.retain(|l| (min..=max).contains(&l.pos.empty_count()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::Position;
    use othello_train::data::Source;

    #[test]
    fn keep_empties_keeps_the_range_in_order() {
        let label = |moves: &str| {
            let mut pos = Position::start();
            for m in moves.as_bytes().chunks(2) {
                pos = pos.play(std::str::from_utf8(m).unwrap().parse().unwrap()).unwrap();
            }
            Label {
                pos,
                centi: pos.empty_count() as i32,
                source: Source::Exact,
                game: None,
                seed: None,
                nodes: None,
            }
        };
        // 60, 59, 58, 57 empties, out of order.
        let mut labels = vec![label("f5d6"), label(""), label("f5"), label("f5d6c3")];
        keep_empties(&mut labels, 58, 59);
        assert_eq!(labels.iter().map(|l| l.centi).collect::<Vec<_>>(), [58, 59]);
        keep_empties(&mut labels, 59, 59);
        assert_eq!(labels.iter().map(|l| l.centi).collect::<Vec<_>>(), [59]);
        keep_empties(&mut labels, 0, 58);
        assert!(labels.is_empty());
    }
}
