//! `othello-pattern-train`: the reproducible pipeline that trains the pattern evaluation
//! (`othello-pattern`). One command per step, each seeded and resumable:
//!
//! 1. `games`: seeded self-play from randomised openings with occasional random moves, one
//!    JSON line per finished game;
//! 2. `labels`: the positions of those games with few enough empties, solved exactly;
//! 3. `fit`: per-phase regularised least squares of the pattern weights (a held-out set of
//!    games kept apart from the start), with an optional bootstrap of the earlier phases by
//!    search; prints per-phase held-out errors and writes the weights file.
//!
//! And `errors`: the errors of any weights file (the embedded default included) on any labels
//! file, e.g. labels of positions from stronger play than the training games; `import` turns
//! the games of a match (`othello play --jsonl`) into a games file for `labels`.
//!
//! Bad input prints one line on stderr and exits 2. See `docs/pattern.md`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod cuts;
mod error;
mod explore;
mod fit;
mod games;
mod jsonl;
mod labels;

use clap::{Args, Parser, Subcommand};
use error::{TrainError, TrainResult};
use jsonl::OnBad;
use std::time::Instant;

/// Trains the pattern evaluation: games, labels, fit.
#[derive(Parser, Debug)]
#[command(name = "othello-pattern-train", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Step 1: self-play games (JSON Lines, appended as they finish; resumable).
    Games(GamesArgs),
    /// Step 2: exact labels of the games' positions (JSON Lines; resumable).
    Labels(LabelsArgs),
    /// Step 3: fit the weights per phase, print held-out errors, write the weights file.
    Fit(FitArgs),
    /// The errors of a weights file on the exact labels of a labels file, by empties.
    Errors(ErrorsArgs),
    /// Converts the games of `othello play --jsonl` into a games file (for `labels`).
    Import(ImportArgs),
    /// Measures model variants (phases, margin, ridge, prior, global features beside the
    /// patterns) on the exact phases: held-out and test-set errors, no weights file.
    Explore(ExploreArgs),
    /// Fits the cut table of selective search (ProbCut) on self-play positions.
    Cuts(cuts::CutsArgs),
}

#[derive(Args, Debug)]
struct ExploreArgs {
    /// Exact labels to train on (repeat to concatenate files).
    #[arg(long, required = true)]
    labels: Vec<String>,
    /// Labels files scored in full (positions never trained on; repeatable).
    #[arg(long)]
    test: Vec<String>,
    /// A variant: `phases=15,margin=1,ridge=30,iter=150,prior=1,max=20,extra=pmob+qpar`
    /// (extras: pmob, frontier, qpar, rpar, stable, discs, mobpair, cmob; repeatable).
    #[arg(long, required = true)]
    variant: Vec<String>,
    /// Hold out every game whose number is a multiple of this.
    #[arg(long, default_value_t = 10)]
    test_every: u32,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct ImportArgs {
    /// The match's games (`othello play --jsonl FILE`; openings as move sequences).
    #[arg(long)]
    play: String,
    /// The games file to write (overwritten).
    #[arg(long)]
    out: String,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct ErrorsArgs {
    /// The labels (from `labels`; only the exact ones are used).
    #[arg(long)]
    labels: String,
    /// The weights file, or `default` for the embedded default weights.
    #[arg(long, default_value = "default")]
    weights: String,
    /// Use only the games whose number is a multiple of this (1: every label; 10: the fit's
    /// held-out games).
    #[arg(long, default_value_t = 1)]
    test_every: u32,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct FitArgs {
    /// The exact labels (from `labels`).
    #[arg(long)]
    labels: String,
    /// The games (from `games`; the bootstrap takes its positions from them).
    #[arg(long)]
    games: String,
    /// The weights file to write.
    #[arg(long)]
    out: String,
    /// Phases (1 to 61; phase of e empties = e * phases / 61).
    #[arg(long, default_value_t = 15)]
    phases: u32,
    /// Hold out every game whose number is a multiple of this.
    #[arg(long, default_value_t = 10)]
    test_every: u32,
    /// Ridge term of the least squares (centi-disc units).
    #[arg(long, default_value_t = 5.0)]
    ridge: f64,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = 300)]
    iterations: usize,
    /// Positions within this many empties of a phase also train it.
    #[arg(long, default_value_t = 1)]
    margin: u32,
    /// Bootstrap search depth for the phases without exact labels (0: off).
    #[arg(long, default_value_t = 4)]
    bootstrap_depth: u32,
    /// Positions labelled by search per bootstrapped phase.
    #[arg(long, default_value_t = 3000)]
    bootstrap_positions: usize,
    /// File of the bootstrap's search labels (read if present, appended to).
    #[arg(long)]
    bootstrap_labels: Option<String>,
    /// Seed of the bootstrap's choice of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Use only the first N exact labels of the file (to measure how the fit grows with data).
    #[arg(long)]
    max_labels: Option<usize>,
    /// Pull each phase's weights towards the previous phase's (fewer empties) instead of
    /// towards zero: a rare configuration keeps its neighbour phase's value.
    #[arg(long)]
    prior_previous: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct Common {
    /// Stop at the first malformed data line instead of reporting and skipping it.
    #[arg(long)]
    strict: bool,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
}

impl Common {
    fn on_bad(&self) -> OnBad {
        if self.strict { OnBad::Fatal } else { OnBad::Skip }
    }
}

#[derive(Args, Debug)]
struct GamesArgs {
    /// Output file (JSON Lines); games already in it are not made again.
    #[arg(long)]
    out: String,
    /// Games wanted, numbered from --first.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Number of the first game (disjoint ranges let several machines contribute).
    #[arg(long, default_value_t = 0)]
    first: u32,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play search depth.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Chance of a random move at each turn after the opening.
    #[arg(long, default_value_t = 0.1)]
    epsilon: f64,
    /// Random opening moves: 0 to this many, chosen per game.
    #[arg(long, default_value_t = 10)]
    random_plies: u32,
    /// Self-play evaluation: `hand` (the hand-feature default) or `pattern` (the embedded
    /// default pattern weights).
    #[arg(long, default_value = "hand")]
    eval: String,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
struct LabelsArgs {
    /// The games file (from `games`).
    #[arg(long)]
    games: String,
    /// Output file (JSON Lines); positions already in it are not solved again.
    #[arg(long)]
    out: String,
    /// Fewest empties labelled.
    #[arg(long, default_value_t = 1)]
    min_empties: u32,
    /// Most empties labelled (the solving time grows about 3x per empty).
    #[arg(long, default_value_t = 20)]
    max_empties: u32,
    /// Visit at most this many games (in game order).
    #[arg(long)]
    max_games: Option<usize>,
    /// Visit only the games whose number is a multiple of this (e.g. the held-out games).
    #[arg(long, default_value_t = 1)]
    every: u32,
    /// Solver table size in MiB.
    #[arg(long, default_value_t = 64)]
    tt: usize,
    #[command(flatten)]
    common: Common,
}

fn bad(msg: String) -> TrainError {
    TrainError::Input(msg)
}

fn run_games(a: &GamesArgs) -> TrainResult<()> {
    if !(0.0..=1.0).contains(&a.epsilon) {
        return Err(bad(format!("bad --epsilon {}: expected 0 to 1", a.epsilon)));
    }
    if !(1..=20).contains(&a.depth) {
        return Err(bad(format!("bad --depth {}: expected 1 to 20", a.depth)));
    }
    let eval = match a.eval.as_str() {
        "hand" => games::PlayEval::Hand,
        "pattern" => games::PlayEval::Pattern,
        other => return Err(bad(format!("bad --eval {other:?}: expected hand or pattern"))),
    };
    let config = games::GamesConfig {
        eval,
        games: a.games,
        first: a.first,
        seed: a.seed,
        depth: a.depth,
        epsilon: a.epsilon,
        random_plies: a.random_plies,
    };
    let t = Instant::now();
    let made = games::run(&config, &a.out, a.common.on_bad(), |n| {
        if !a.common.quiet && n % 100 == 0 {
            eprintln!("games: {n} made, {:.1} s", t.elapsed().as_secs_f64());
        }
    })?;
    eprintln!(
        "games: {made} made ({} wanted), {:.1} s",
        a.games,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_labels(a: &LabelsArgs) -> TrainResult<()> {
    if a.min_empties > a.max_empties || a.max_empties > 60 {
        return Err(bad(format!(
            "bad empties range {}..={}: expected min <= max <= 60",
            a.min_empties, a.max_empties
        )));
    }
    let config = labels::LabelsConfig {
        min_empties: a.min_empties,
        max_empties: a.max_empties,
        max_games: a.max_games,
        every: a.every,
        tt_mib: a.tt,
    };
    let t = Instant::now();
    let s = labels::run(&config, &a.games, &a.out, a.common.on_bad(), |s| {
        if !a.common.quiet && s.games % 20 == 0 {
            eprintln!(
                "labels: {} games, {} solved, {:.2e} nodes, {:.1} s",
                s.games,
                s.solved,
                s.nodes as f64,
                t.elapsed().as_secs_f64()
            );
        }
    })?;
    eprintln!(
        "labels: {} games visited, {} positions solved, {:.2e} nodes, {:.1} s",
        s.games,
        s.solved,
        s.nodes as f64,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_fit(a: &FitArgs) -> TrainResult<()> {
    if !(1..=61).contains(&a.phases) {
        return Err(bad(format!("bad --phases {}: expected 1 to 61", a.phases)));
    }
    if !(a.ridge >= 0.0 && a.ridge.is_finite()) {
        return Err(bad(format!("bad --ridge {}: expected a finite value >= 0", a.ridge)));
    }
    if a.bootstrap_depth > 20 {
        return Err(bad(format!(
            "bad --bootstrap-depth {}: expected at most 20",
            a.bootstrap_depth
        )));
    }
    let t = Instant::now();
    let on_bad = a.common.on_bad();
    let mut exact: Vec<labels::Label> = labels::read(&a.labels, false, on_bad)?
        .into_iter()
        .filter(|l| l.method == "exact")
        .collect();
    if let Some(n) = a.max_labels {
        exact.truncate(n);
    }
    if exact.is_empty() {
        return Err(bad(format!("{} has no exact labels", a.labels)));
    }
    let games = games::read(&a.games, false, on_bad)?;
    // Fail on an unwritable output before spending the time.
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(|e| bad(format!("cannot write {}: {e}", a.out)))?;
    let config = fit::FitConfig {
        phases: a.phases,
        test_every: a.test_every,
        ridge: a.ridge,
        iterations: a.iterations,
        margin: a.margin,
        bootstrap_depth: a.bootstrap_depth,
        bootstrap_positions: a.bootstrap_positions,
        prior_previous: a.prior_previous,
        seed: a.seed,
    };
    let quiet = a.common.quiet;
    println!(
        "fit: {} exact labels from {} games ({} games read), held out: games = 0 mod {}",
        exact.len(),
        exact
            .iter()
            .map(|l| l.game)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        games.len(),
        a.test_every
    );
    let fitted = fit::run(&config, &exact, &games, a.bootstrap_labels.as_deref(), on_bad, |m| {
        if !quiet {
            println!("{m}");
        }
    })?;
    fitted
        .weights
        .write(&a.out)
        .map_err(|e| bad(format!("cannot write {}: {e}", a.out)))?;
    println!("held-out error by phase (discs; the hand-feature default on the same positions):");
    println!("| empties | labels | n | RMS | MAE | hand RMS | hand MAE |");
    println!("|---|---|---|---|---|---|---|");
    for (lo, hi, method, ours, hand) in &fitted.report {
        println!(
            "| {lo}-{hi} | {method} | {} | {:.2} | {:.2} | {:.2} | {:.2} |",
            ours.n, ours.rms, ours.mae, hand.rms, hand.mae
        );
    }
    let by_e = fit::errors_by_empties(&fitted.weights, &exact, a.test_every);
    print_bands(&by_e, "held-out exact");
    println!(
        "wrote {} ({} phases), {:.1} s",
        a.out,
        a.phases,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Prints the errors of the 14-20 and 10-20 empties bands from per-empties errors.
fn print_bands(by_e: &[(u32, fit::Errors, fit::Errors)], what: &str) {
    for (lo, hi) in [(14, 20), (10, 20)] {
        let (o, h) = fit::band(by_e, lo, hi);
        println!(
            "{what} {lo}-{hi} empties: n {}, RMS {:.2}, MAE {:.2} discs (hand features RMS {:.2}, MAE {:.2}; scores' SD {:.2})",
            o.n, o.rms, o.mae, h.rms, h.mae, o.sd
        );
    }
}

fn run_errors(a: &ErrorsArgs) -> TrainResult<()> {
    if a.test_every == 0 {
        return Err(bad("bad --test-every 0: expected at least 1".into()));
    }
    let weights = if a.weights == "default" {
        othello_pattern::Weights::from_bytes(othello_pattern::DEFAULT_WEIGHTS)
            .map_err(|e| bad(format!("the embedded weights: {e}")))?
    } else {
        othello_pattern::Weights::from_path(&a.weights).map_err(|e| bad(format!("{}: {e}", a.weights)))?
    };
    let exact: Vec<labels::Label> = labels::read(&a.labels, false, a.common.on_bad())?
        .into_iter()
        .filter(|l| l.method == "exact")
        .collect();
    if exact.is_empty() {
        return Err(bad(format!("{} has no exact labels", a.labels)));
    }
    let by_e = fit::errors_by_empties(&weights, &exact, a.test_every);
    println!(
        "errors of {} on {} (games = 0 mod {}), discs, the hand-feature default beside:",
        a.weights, a.labels, a.test_every
    );
    println!("| empties | n | RMS | MAE | hand RMS | hand MAE | score SD |");
    println!("|---|---|---|---|---|---|---|");
    for (e, o, h) in &by_e {
        println!(
            "| {e} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            o.n, o.rms, o.mae, h.rms, h.mae, o.sd
        );
    }
    print_bands(&by_e, "exact");
    Ok(())
}

fn run_explore(a: &ExploreArgs) -> TrainResult<()> {
    let variants: Vec<explore::Variant> = a
        .variant
        .iter()
        .map(|v| explore::Variant::parse(v).map_err(|e| bad(format!("bad --variant {v:?}: {e}"))))
        .collect::<TrainResult<_>>()?;
    if a.test_every < 2 {
        return Err(bad(format!("bad --test-every {}: expected at least 2", a.test_every)));
    }
    let t = Instant::now();
    let read = |p: &String| -> TrainResult<Vec<labels::Label>> {
        Ok(labels::read(p, false, a.common.on_bad())?
            .into_iter()
            .filter(|l| l.method == "exact")
            .collect())
    };
    let mut exact = Vec::new();
    for p in &a.labels {
        exact.extend(read(p)?);
    }
    let train = explore::Rows::new(&exact, a.test_every);
    drop(exact);
    let tests: Vec<explore::Rows> = a
        .test
        .iter()
        .map(|p| Ok(explore::Rows::new(&read(p)?, 1)))
        .collect::<TrainResult<_>>()?;
    let test_refs: Vec<&explore::Rows> = tests.iter().collect();
    eprintln!("explore: data read in {:.1} s", t.elapsed().as_secs_f64());
    for (v, text) in variants.iter().zip(&a.variant) {
        let t = Instant::now();
        let quiet = a.common.quiet;
        let r = explore::run(v, &train, &test_refs, |m| {
            if !quiet {
                eprintln!("{m}");
            }
        });
        let cpu = t.elapsed().as_secs_f64();
        let mut line = format!("variant {text}:");
        for (j, by_e) in r.iter().enumerate() {
            let name = if j == 0 {
                "held-out".to_string()
            } else {
                a.test[j - 1].clone()
            };
            let (n, rms) = explore::band_rms(by_e, 14, 20);
            let (_, rms_lo) = explore::band_rms(by_e, 0, 12);
            line += &format!(" | {name} 14-20 RMS {rms:.3} (n {n}; 0-12 {rms_lo:.3})");
        }
        println!("{line} | {cpu:.0} s");
    }
    Ok(())
}

fn run_import(a: &ImportArgs) -> TrainResult<()> {
    let n = games::import_play(&a.play, &a.out, a.common.on_bad())?;
    eprintln!("import: {n} games from {} written to {}", a.play, a.out);
    Ok(())
}

fn main() {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Games(a) => run_games(a),
        Command::Labels(a) => run_labels(a),
        Command::Fit(a) => run_fit(a),
        Command::Errors(a) => run_errors(a),
        Command::Import(a) => run_import(a),
        Command::Explore(a) => run_explore(a),
        Command::Cuts(a) => cuts::run(a),
    };
    if let Err(e) = result {
        eprintln!("othello-pattern-train: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod pipeline_tests {
    use super::*;
    use othello_eval::Evaluator;

    /// The whole pipeline on a tiny budget: games, labels, fit, weights file; each step run
    /// twice (the second run resumes and must add nothing), and a damaged line reported.
    #[test]
    fn end_to_end_on_a_tiny_budget() {
        let dir = std::env::temp_dir().join(format!("pattern-train-e2e-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |n: &str| dir.join(n).to_string_lossy().into_owned();
        let (games_p, labels_p, boot_p, out_p) = (path("g.jsonl"), path("l.jsonl"), path("b.jsonl"), path("w.bin"));
        let gc = games::GamesConfig {
            games: 12,
            seed: 3,
            depth: 1,
            ..games::GamesConfig::default()
        };
        assert_eq!(games::run(&gc, &games_p, OnBad::Fatal, |_| {}).unwrap(), 12);
        let text = std::fs::read_to_string(&games_p).unwrap();
        // Resume: nothing to do; a game cut in the middle of its line is made again, the same.
        assert_eq!(games::run(&gc, &games_p, OnBad::Fatal, |_| {}).unwrap(), 0);
        std::fs::write(&games_p, &text[..text.len() - 20]).unwrap();
        assert_eq!(games::run(&gc, &games_p, OnBad::Fatal, |_| {}).unwrap(), 1);
        assert_eq!(std::fs::read_to_string(&games_p).unwrap(), text);
        let lc = labels::LabelsConfig {
            min_empties: 1,
            max_empties: 8,
            max_games: Some(6),
            every: 1,
            tt_mib: 1,
        };
        let first = labels::run(&lc, &games_p, &labels_p, OnBad::Fatal, |_| {}).unwrap();
        assert!(first.solved >= 6 * 6);
        let all = labels::LabelsConfig { max_games: None, ..lc };
        let second = labels::run(&all, &games_p, &labels_p, OnBad::Fatal, |_| {}).unwrap();
        assert!(second.solved > 0);
        assert_eq!(
            labels::run(&all, &games_p, &labels_p, OnBad::Fatal, |_| {})
                .unwrap()
                .solved,
            0
        );
        let ls = labels::read(&labels_p, false, OnBad::Fatal).unwrap();
        assert_eq!(ls.len(), first.solved + second.solved);
        let mut keys: Vec<_> = ls.iter().map(|l| labels::key(&l.pos)).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), ls.len(), "no label twice");
        // Exact labels agree with a full-depth search.
        for l in ls.iter().take(5) {
            let mut s = othello_search::Searcher::new(othello_eval::WeightedEval::default(), Default::default());
            let r = s.search(&l.pos, &othello_search::Limits::depth(l.pos.empty_count()), |_| {});
            assert_eq!(r.score, l.centi);
        }
        // A damaged line: reported and skipped, or fatal with file and line.
        let mut damaged = std::fs::read_to_string(&labels_p).unwrap();
        damaged.insert_str(0, "{\"game\":1,\"position\":\"oops\"}\n");
        std::fs::write(&labels_p, damaged).unwrap();
        let err = labels::read(&labels_p, false, OnBad::Fatal).unwrap_err().to_string();
        assert!(err.contains("line 1") && err.contains("l.jsonl"), "{err}");
        assert_eq!(labels::read(&labels_p, false, OnBad::Skip).unwrap().len(), ls.len());
        let fc = fit::FitConfig {
            phases: 6,
            test_every: 4,
            ridge: 3.0,
            iterations: 30,
            margin: 2,
            bootstrap_depth: 1,
            bootstrap_positions: 10,
            prior_previous: false,
            seed: 1,
        };
        let games = games::read(&games_p, false, OnBad::Fatal).unwrap();
        let fitted = fit::run(&fc, &ls, &games, Some(&boot_p), OnBad::Fatal, |_| {}).unwrap();
        assert_eq!(fitted.report.len(), 6);
        assert!(fitted.report[0].3.n > 0, "held-out positions in the first phase");
        assert!(fitted.report[5].2.starts_with("search:depth=1"));
        let boot = labels::read(&boot_p, false, OnBad::Fatal).unwrap();
        assert!(!boot.is_empty() && boot.iter().all(|l| l.method == "search:depth=1"));
        // A second fit reuses the bootstrap labels and gives the same weights.
        let again = fit::run(&fc, &ls, &games, Some(&boot_p), OnBad::Fatal, |_| {}).unwrap();
        assert_eq!(labels::read(&boot_p, false, OnBad::Fatal).unwrap().len(), boot.len());
        assert_eq!(again.weights, fitted.weights);
        fitted.weights.write(&out_p).unwrap();
        let eval = othello_pattern::PatternEval::from_path(&out_p).unwrap();
        let _ = eval.evaluate(&othello_rules::Position::start());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
