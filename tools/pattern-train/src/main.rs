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
//! Bad input prints one line on stderr and exits 2. See `docs/pattern.md`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod error;
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
    let config = games::GamesConfig {
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

fn main() {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Games(a) => run_games(a),
        Command::Labels(a) => run_labels(a),
    };
    if let Err(e) = result {
        eprintln!("othello-pattern-train: {e}");
        std::process::exit(2);
    }
}
