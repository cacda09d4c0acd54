//! `games`: seeded self-play games.

use super::common::{Common, bad, play_eval};
use othello_train::TrainResult;
use othello_train::selfplay::{self, GamesConfig};
use std::time::Instant;

/// Options of `games`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output file (JSON Lines); games already in it (same number and seed) are not made again.
    #[arg(long)]
    out: String,
    /// Games wanted, numbered from --first.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Number of the first game (disjoint ranges let several machines contribute).
    #[arg(long, default_value_t = 0)]
    first: u32,
    /// Seed of every random choice (recorded in each game).
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
    /// default pattern weights, or --weights).
    #[arg(
        long,
        default_value = "hand",
        default_value_if("weights", clap::builder::ArgPredicate::IsPresent, "pattern")
    )]
    eval: String,
    /// A pattern weights file for the self-play evaluation (instead of the embedded one).
    #[arg(long)]
    weights: Option<String>,
    #[command(flatten)]
    common: Common,
}

/// Runs `games`.
pub fn run(a: &Args) -> TrainResult<()> {
    if !(0.0..=1.0).contains(&a.epsilon) {
        return Err(bad(format!("bad --epsilon {}: expected 0 to 1", a.epsilon)));
    }
    if !(1..=20).contains(&a.depth) {
        return Err(bad(format!("bad --depth {}: expected 1 to 20", a.depth)));
    }
    let config = GamesConfig {
        eval: play_eval(&a.eval, a.weights.as_ref())?,
        games: a.games,
        first: a.first,
        seed: a.seed,
        depth: a.depth,
        epsilon: a.epsilon,
        random_plies: a.random_plies,
    };
    let t = Instant::now();
    let made = selfplay::run(&config, &a.out, a.common.on_bad(), |n| {
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
