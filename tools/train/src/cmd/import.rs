//! `import`: the games of a match (`othello play --jsonl`) as a games file.

use super::common::Common;
use othello_train::TrainResult;
use othello_train::selfplay;

/// Options of `import`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The match's games (`othello play --jsonl FILE`; openings as move sequences).
    #[arg(long)]
    play: String,
    /// The games file to write (overwritten).
    #[arg(long)]
    out: String,
    /// The seed recorded with every game: games are known by their number and seed, so give
    /// each imported match its own to concatenate their games (and labels) without clashes.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    common: Common,
}

/// Runs `import`.
pub fn run(a: &Args) -> TrainResult<()> {
    let n = selfplay::import_play(&a.play, &a.out, a.seed, a.common.on_bad())?;
    eprintln!("import: {n} games from {} written to {}", a.play, a.out);
    Ok(())
}
