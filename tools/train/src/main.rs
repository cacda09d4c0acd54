//! `othello-train`: the training pipeline's command line. One module per subcommand (each
//! with its arguments and its `run`); this file only lists them. See `docs/pattern.md`
//! ("How to train") and `docs/tuning.md`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod cmd {
    pub mod common;
    pub mod cuts;
    pub mod errors;
    pub mod explore;
    pub mod fit;
    pub mod games;
    pub mod import;
    pub mod labels;
}

use clap::{Parser, Subcommand};
use cmd::*;
use othello_train::TrainResult;

/// The training pipeline: games, labels, fit (pattern or hand-feature model), errors.
#[derive(Parser, Debug)]
#[command(name = "othello-train", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Self-play games (JSON Lines, appended as they finish; resumable).
    Games(games::Args),
    /// Labels of the games' positions: exact, pv, result or search (JSON Lines; resumable).
    Labels(labels::Args),
    /// Fits a model (pattern weights file, or hand-feature weights), prints held-out errors.
    Fit(fit::Args),
    /// Errors of any weights on any labels file, per empties bucket.
    Errors(errors::Args),
    /// Converts the games of `othello play --jsonl` into a games file.
    Import(import::Args),
    /// Measures variants of the pattern model on the labelled phases, no weights file.
    Explore(explore::Args),
    /// Fits the cut table of selective search (ProbCut) on seeded self-play positions.
    Cuts(cuts::CutsArgs),
}

fn run(cli: &Cli) -> TrainResult<()> {
    match &cli.command {
        Command::Games(a) => games::run(a),
        Command::Labels(a) => labels::run(a),
        Command::Fit(a) => fit::run(a),
        Command::Errors(a) => errors::run(a),
        Command::Import(a) => import::run(a),
        Command::Explore(a) => explore::run(a),
        Command::Cuts(a) => cuts::run(a),
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
            eprintln!("othello-train: {}", first.trim_start_matches("error: ").trim());
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&cli) {
        eprintln!("othello-train: {e}");
        std::process::exit(e.exit_code());
    }
}
