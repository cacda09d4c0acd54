//! `othello show`.

use crate::error::{CliResult, input};
use crate::output::Output;
use crate::picture;
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_engine::Player;
use othello_rules::{BoardSize, Move, Position};
use othello_spec::Engine;
use othello_svg::BoardPicture;
use serde_json::{Value, json};
use std::path::Path;

/// The most empty squares `show --values solve` solves (an exact solve of more takes hours).
pub const MAX_SOLVE_EMPTIES: u32 = 30;

/// Options of `othello show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The position, "BOARD X" (16, 36 or 64 squares, then X or O); the 8x8 start if omitted.
    position: Option<String>,
    #[command(flatten)]
    setup: crate::input::Setup,
    /// Write the board as an SVG picture to this file (legal moves marked, the last move of
    /// --moves, the values of --values).
    #[arg(long)]
    svg: Option<String>,
    /// The value of every legal move: `search` (a search with --engine scoring every root
    /// move, in discs) or `solve` (exact, at most 30 empties); printed, and drawn with --svg.
    #[arg(long)]
    values: Option<String>,
    /// The engine spec of `--values search` (default `pvs`).
    #[arg(long, short)]
    engine: Option<String>,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// A move's value: centi-discs from a search, or exact discs from the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveValue {
    Centi(i32),
    Exact(i32),
}

impl MoveValue {
    fn text(self) -> String {
        match self {
            MoveValue::Centi(c) => format!("{:+.2}", crate::search_cmd::discs(c)),
            MoveValue::Exact(d) => format!("{d:+}"),
        }
    }

    fn json(self) -> Value {
        match self {
            MoveValue::Centi(c) => json!(crate::search_cmd::discs(c)),
            MoveValue::Exact(d) => json!(d),
        }
    }
}

/// Every legal move's value (`--values`), best first; empty when the game is over.
fn move_values(args: &ShowArgs, pos: &Position) -> CliResult<Vec<(Move, MoveValue)>> {
    if args.engine.is_some() && args.values.as_deref() != Some("search") {
        return Err(input("--engine applies to --values search"));
    }
    let Some(kind) = args.values.as_deref() else {
        return Ok(Vec::new());
    };
    match kind {
        "search" => {
            let spec = args.engine.as_deref().unwrap_or("pvs");
            let mut engine: Engine = spec.parse::<othello_spec::Spec>().map(Engine::from_spec)??;
            engine.check_size(pos.size())?;
            if !matches!(engine, Engine::Search { .. }) {
                return Err(input(format!(
                    "bad --engine {spec}: --values search needs a search (pvs, alphabeta, negamax, minimax)"
                )));
            }
            if pos.is_game_over() {
                return Ok(Vec::new());
            }
            engine.set_multi_pv(true);
            let limits = engine.limits();
            let reply = engine.think(pos, &limits);
            Ok(reply
                .root_moves
                .iter()
                .map(|&(m, v)| (m, MoveValue::Centi(v)))
                .collect())
        }
        "solve" => {
            if pos.empty_count() > MAX_SOLVE_EMPTIES {
                return Err(input(format!(
                    "--values solve: {} empties, more than {MAX_SOLVE_EMPTIES} (use --values search)",
                    pos.empty_count()
                )));
            }
            let mut config = SolverConfig::default();
            if pos.size() == BoardSize::Eight {
                // The solve command's default ordering on 8x8: scores never depend on it.
                let eval = othello_spec::SpecEval::parse(Some("pattern"), None, "show --values")?;
                config = config.with_ordering(move |p| othello_eval::Evaluator::evaluate(&eval, p));
            }
            let mut solver = Solver::new(config);
            Ok(solver
                .score_moves(pos, SolveMode::Exact)
                .into_iter()
                .map(|(m, v)| (m, MoveValue::Exact(v)))
                .collect())
        }
        other => Err(input(format!("bad --values '{other}': expected search or solve"))),
    }
}

/// The picture of `show --svg`.
fn picture(args: &ShowArgs, pos: &Position, values: &[(Move, MoveValue)]) -> BoardPicture {
    let squares = |exact: bool| {
        values
            .iter()
            .filter_map(move |&(m, v)| match (m.square(), v) {
                (Some(sq), MoveValue::Exact(d)) if exact => Some((sq, d)),
                (Some(sq), MoveValue::Centi(c)) if !exact => Some((sq, c)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let picture = BoardPicture::new(pos).last_move(picture::last_move(args.setup.moves_text()));
    match values.first() {
        Some((_, MoveValue::Exact(_))) => picture.values(squares(true)),
        Some((_, MoveValue::Centi(_))) => picture.values_centi(squares(false)),
        None => picture,
    }
}

/// Runs `othello show`.
pub fn run(args: &ShowArgs) -> CliResult {
    let pos = args.setup.position(args.position.as_deref())?;
    if let Some(path) = &args.svg {
        picture::check_writable(Path::new(path), "--svg")?;
    }
    let values = move_values(args, &pos)?;
    if let Some(path) = &args.svg {
        picture::write_board(Path::new(path), &picture(args, &pos, &values), "--svg")?;
    }
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
            if args.values.is_some() && !values.is_empty() {
                let list: Vec<String> = values.iter().map(|(m, v)| format!("{m} {}", v.text())).collect();
                s += &format!("\nvalues: {}", list.join(", "));
            }
            s
        },
        || {
            let mut o = json!({
                "position": pos.to_string(),
                "side_to_move": pos.side_to_move().to_string(),
                "state": state,
                "moves": moves,
                "black": black,
                "white": white,
                "empties": pos.empty_count(),
                "final_score_black": pos.is_game_over().then(|| pos.final_score_black()),
            });
            if args.values.is_some() {
                o["values"] = values
                    .iter()
                    .map(|(m, v)| json!({"move": m.to_string(), "score": v.json()}))
                    .collect();
            }
            o
        },
    );
    Ok(())
}
