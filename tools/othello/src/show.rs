//! `othello show`.

use crate::error::CliResult;
use crate::output::Output;
use serde_json::json;

/// Options of `othello show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The position, "BOARD X" (16, 36 or 64 squares, then X or O); the 8x8 start if omitted.
    position: Option<String>,
    #[command(flatten)]
    setup: crate::input::Setup,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// Runs `othello show`.
pub fn run(args: &ShowArgs) -> CliResult {
    let pos = args.setup.position(args.position.as_deref())?;
    let out = Output::new(args.json);
    let moves: Vec<String> = pos.moves().iter().map(|m| m.to_string()).collect();
    let (black, white) = pos.disc_counts();
    let state = if pos.is_game_over() {
        "game over"
    } else if pos.must_pass() {
        "must pass"
    } else {
        "to move"
    };
    out.line(
        || {
            let mut s = format!("{}\n{pos}\n", pos.pretty());
            s += &format!(
                "moves: {}",
                if moves.is_empty() {
                    "none".to_string()
                } else {
                    moves.join(" ")
                }
            );
            if pos.is_game_over() {
                s += &format!(
                    "\ngame over: {:+} for black (empties to the winner)",
                    pos.final_score_black()
                );
            }
            s
        },
        || {
            json!({
                "position": pos.to_string(),
                "side_to_move": pos.side_to_move().to_string(),
                "state": state,
                "moves": moves,
                "black": black,
                "white": white,
                "empties": pos.empty_count(),
                "final_score_black": pos.is_game_over().then(|| pos.final_score_black()),
            })
        },
    );
    Ok(())
}
