//! `othello-tune`: fits the weights of the evaluation (`othello_eval::WeightedEval`) to exact
//! endgame scores, so the default weights are measured rather than guessed.
//!
//! - `generate`: seeded self-play (random openings, then a shallow PVS with epsilon-random
//!   moves), every position with `--min-empties..=--max-empties` empties solved exactly by
//!   `othello-endgame`; JSON Lines out (see `data`).
//! - `fit FILE`: linear least squares (normal equations, ridge, Gaussian elimination) of the
//!   `start/end` weights of each feature, optionally bootstrapped to the phases the solver
//!   cannot reach; prints the weights in the evaluation's text form and the held-out RMS
//!   error of the fit and of the hand-set default on the same positions.
//! - `all`: both.
//!
//! Bad input (a missing or corrupt file, a bad option) prints one line on stderr and exits 2.
//! The method and the measured results are in `docs/tuning.md`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod data;
mod error;
mod features;
mod fit;
mod generate;
mod lstsq;

use clap::{Args, Parser, Subcommand};
use error::{TuneError, TuneResult};
use fit::{FitConfig, Source, StartMode};
use generate::GenConfig;
use othello_eval::Feature;
use std::time::Instant;

/// Fits the evaluation weights to exact endgame scores of self-play positions.
#[derive(Parser, Debug)]
#[command(name = "othello-tune", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate positions by self-play and label them with the exact solver (JSON Lines).
    Generate(GenerateArgs),
    /// Fit the weights to a data set and print them with the errors.
    Fit(FitArgs),
    /// Generate, then fit.
    All {
        #[command(flatten)]
        generate: GenerateArgs,
        #[command(flatten)]
        fit: FitOptions,
    },
}

#[derive(Args, Debug)]
struct GenerateArgs {
    /// Labelled positions to produce (the last game is completed).
    #[arg(long, default_value_t = 1000)]
    positions: usize,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (JSON Lines).
    #[arg(long)]
    out: String,
    /// Fewest empties of a labelled position.
    #[arg(long, default_value_t = 10)]
    min_empties: u32,
    /// Most empties of a labelled position (solving time grows about 3x per empty).
    #[arg(long, default_value_t = 20)]
    max_empties: u32,
    /// Self-play search depth.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Chance of a random move at each turn.
    #[arg(long, default_value_t = 0.1)]
    epsilon: f64,
    /// Random opening moves: 0 to this many, chosen per game.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Do not keep the positions with more empties (unlabelled, for the bootstrap).
    #[arg(long)]
    labelled_only: bool,
    /// Solver table size in MiB.
    #[arg(long, default_value_t = 64)]
    tt: usize,
}

#[derive(Args, Debug)]
struct FitArgs {
    /// The data set (JSON Lines from `generate`).
    file: String,
    #[command(flatten)]
    options: FitOptions,
}

#[derive(Args, Debug)]
struct FitOptions {
    /// Features fitted, comma-separated (names as in the evaluation text).
    #[arg(long, default_value = "discs,mobility,potential,corners,xc,parity")]
    features: String,
    /// Hold out every game whose number is a multiple of this.
    #[arg(long, default_value_t = 5)]
    test_every: u32,
    /// Ridge term (added to the diagonal of X^T X).
    #[arg(long, default_value_t = 1.0)]
    ridge: f64,
    /// `fit`: fit start and end weights; `default`: keep the hand-set start weights.
    #[arg(long, value_enum, default_value_t = StartMode::Fit)]
    start: StartMode,
    /// Bootstrap the unlabelled phases with a PVS of this depth (0 = off).
    #[arg(long, default_value_t = 0)]
    bootstrap_depth: u32,
    /// Positions labelled per bootstrap band.
    #[arg(long, default_value_t = 2000)]
    bootstrap_positions: usize,
    /// Width of a bootstrap band in empties.
    #[arg(long, default_value_t = 10)]
    band: u32,
    /// Seed of the bootstrap's choice of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn bad(msg: String) -> TuneError {
    TuneError::Input(msg)
}

fn gen_config(a: &GenerateArgs) -> TuneResult<GenConfig> {
    if a.positions == 0 {
        return Err(bad("bad --positions 0: expected at least 1".into()));
    }
    if a.min_empties > a.max_empties || a.max_empties > 60 {
        return Err(bad(format!(
            "bad empties range {}..={}: expected min <= max <= 60",
            a.min_empties, a.max_empties
        )));
    }
    if !(0.0..=1.0).contains(&a.epsilon) {
        return Err(bad(format!("bad --epsilon {}: expected 0 to 1", a.epsilon)));
    }
    if !(1..=20).contains(&a.depth) {
        return Err(bad(format!("bad --depth {}: expected 1 to 20", a.depth)));
    }
    Ok(GenConfig {
        positions: a.positions,
        seed: a.seed,
        min_empties: a.min_empties,
        max_empties: a.max_empties,
        depth: a.depth,
        epsilon: a.epsilon,
        random_plies: a.random_plies,
        keep_unlabelled: !a.labelled_only,
        tt_mib: a.tt.max(1),
    })
}

fn fit_config(o: &FitOptions) -> TuneResult<FitConfig> {
    let mut features = Vec::new();
    for name in o.features.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let f = Feature::from_name(name).ok_or_else(|| bad(format!("bad --features: unknown feature '{name}'")))?;
        if features.contains(&f) {
            return Err(bad(format!("bad --features: '{name}' given twice")));
        }
        features.push(f);
    }
    if features.is_empty() {
        return Err(bad("bad --features: none given".into()));
    }
    if o.test_every < 2 {
        return Err(bad(format!("bad --test-every {}: expected at least 2", o.test_every)));
    }
    if !(o.ridge >= 0.0 && o.ridge.is_finite()) {
        return Err(bad(format!("bad --ridge {}: expected a finite value >= 0", o.ridge)));
    }
    if o.band == 0 || o.bootstrap_depth > 30 {
        return Err(bad(
            "bad --band or --bootstrap-depth: expected band >= 1, depth <= 30".into()
        ));
    }
    Ok(FitConfig {
        features,
        test_every: o.test_every,
        ridge: o.ridge,
        start: o.start,
        bootstrap_depth: o.bootstrap_depth,
        bootstrap_positions: o.bootstrap_positions,
        band: o.band,
        seed: o.seed,
    })
}

fn run_generate(a: &GenerateArgs) -> TuneResult<()> {
    let config = gen_config(a)?;
    // Fail on an unwritable path before spending the time.
    std::fs::File::create(&a.out).map_err(|e| bad(format!("cannot write {}: {e}", a.out)))?;
    let t = Instant::now();
    let mut next_report = 0.1;
    let g = generate::generate(&config, |games, labelled| {
        let done = labelled as f64 / config.positions as f64;
        if done >= next_report {
            eprintln!(
                "{games} games, {labelled} labelled positions, {:.0} s",
                t.elapsed().as_secs_f64()
            );
            next_report += 0.1;
        }
    });
    data::write(&a.out, &g.samples)?;
    let labelled = g.samples.iter().filter(|s| s.score.is_some()).count();
    println!(
        "wrote {}: {} games, {} positions solved exactly ({}..={} empties), {} unlabelled; \
         self-play {:.1} s, solving {:.1} s ({} nodes)",
        a.out,
        g.games,
        labelled,
        config.min_empties,
        config.max_empties,
        g.samples.len() - labelled,
        g.play_time.as_secs_f64(),
        g.solve_time.as_secs_f64(),
        g.solve_nodes
    );
    Ok(())
}

fn run_fit(file: &str, o: &FitOptions) -> TuneResult<()> {
    let config = fit_config(o)?;
    let samples = data::read(file)?;
    let mut points = fit::exact_points(&samples, config.test_every);
    if points.is_empty() {
        return Err(bad(format!("{file} has no labelled positions")));
    }
    let (lo, hi) = points.iter().fold((u32::MAX, 0), |(lo, hi), p| {
        let e = p.pos.empty_count();
        (lo.min(e), hi.max(e))
    });
    let games = samples.iter().map(|s| s.game).max().unwrap_or(0) + 1;
    let test = points.iter().filter(|p| p.test).count();
    println!(
        "data: {} exact positions ({lo}..={hi} empties) from {games} games; train {}, held out {test} \
         (every {}th game)",
        points.len(),
        points.len() - test,
        config.test_every
    );
    if config.bootstrap_depth > 0 {
        fit::bootstrap(&samples, &mut points, &config, |b| {
            println!(
                "bootstrap {}..={} empties: {} positions labelled by depth-{} PVS with the fit so far ({:.1} s)",
                b.lo, b.hi, b.labelled, config.bootstrap_depth, b.seconds
            );
        });
    }
    let fitted = fit::fit(&points, &config).ok_or_else(|| bad("singular system: add data or a ridge term".into()))?;
    let real: Vec<String> = fitted
        .weights
        .iter()
        .map(|(f, s, e)| format!("{f} {s:.1}/{e:.1}"))
        .collect();
    println!("fitted (real): {}", real.join(", "));
    println!("eval: {}", fitted.eval());
    println!("held-out RMS error in discs (fitted / rounded to integers / hand-set default):");
    let mut groups = vec![(Source::Exact, lo, hi)];
    for e in lo..=hi {
        groups.push((Source::Exact, e, e));
    }
    let shi = points
        .iter()
        .filter(|p| p.source == Source::Search)
        .map(|p| p.pos.empty_count())
        .max();
    if let Some(shi) = shi {
        let mut b = hi + 1;
        while b <= shi {
            let top = (b + config.band - 1).min(60);
            groups.push((Source::Search, b, top));
            b = top + 1;
        }
    }
    for (source, a, b) in groups {
        let r = fit::errors(&points, &fitted, source, a, b);
        if r.n == 0 {
            continue;
        }
        let label = match source {
            Source::Exact => "exact",
            Source::Search => "search",
        };
        println!(
            "  {label:<6} {a:>2}..={b:<2} n={:<6} {:6.2} / {:6.2} / {:6.2}",
            r.n, r.fitted, r.rounded, r.default
        );
    }
    Ok(())
}

fn run(cli: &Cli) -> TuneResult<()> {
    match &cli.command {
        Command::Generate(a) => run_generate(a),
        Command::Fit(a) => run_fit(&a.file, &a.options),
        Command::All { generate, fit } => {
            // Check the fit options before the long generation.
            fit_config(fit)?;
            run_generate(generate)?;
            run_fit(&generate.out, fit)
        }
    }
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                print!("{e}");
                std::process::exit(0);
            }
            // clap's message spans several lines: keep the first, which names the problem.
            let text = e.render().to_string();
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("bad arguments");
            eprintln!("{}", first.trim_start_matches("error: ").trim());
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&cli) {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
