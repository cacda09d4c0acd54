//! `othello play`: engine-vs-engine matches with paired openings, Elo and the SPRT.

use crate::engine::Engine;
use crate::error::{CliError, CliResult, input};
use crate::output::{Output, progress};
use crate::spec::Spec;
use crate::stats::{Tally, Verdict};
use othello_rules::text::{format_moves, play_sequence};
use othello_rules::{BoardSize, Color, Move, Position};
use serde_json::json;

/// Options of `othello play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Engine A (results are A's), e.g. `pvs:depth=6`.
    engine_a: String,
    /// Engine B, e.g. `mcts:playouts=5000,seed=7`.
    engine_b: String,
    /// Number of games (even: each opening is played twice, A black then B black).
    #[arg(long, short, default_value_t = 10, allow_negative_numbers = true)]
    games: i64,
    /// A file with one opening move sequence per line (default: the built-in set).
    #[arg(long)]
    openings: Option<String>,
    /// Board size: 4, 6 or 8.
    #[arg(long)]
    size: Option<u8>,
    /// Stop when the SPRT for ELO0 < ELO1 decides (alpha = beta = 0.05), e.g. `0,10`.
    #[arg(long, allow_hyphen_values = true)]
    sprt: Option<String>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// The built-in openings: every line of `plies` moves from the start, with the first move
/// fixed on 8x8 (the four first moves are symmetric), in generation order.
pub fn builtin_openings(size: BoardSize) -> Vec<Vec<Move>> {
    let start = Position::start_of(size);
    let (first, plies): (Vec<Move>, usize) = match size {
        BoardSize::Eight => (vec!["f5".parse().expect("a move")], 4),
        _ => (Vec::new(), 2),
    };
    let mut lines = vec![first];
    while lines[0].len() < plies {
        let mut next = Vec::new();
        for line in &lines {
            let pos = play_sequence(&start, &format_moves(line)).expect("generated lines are legal");
            for m in pos.moves() {
                let mut l = line.clone();
                l.push(m);
                next.push(l);
            }
        }
        lines = next;
    }
    lines
}

fn read_openings(path: &str, start: &Position) -> CliResult<Vec<Vec<Move>>> {
    let text = std::fs::read_to_string(path).map_err(|e| input(format!("cannot read openings file {path}: {e}")))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let moves: Vec<Move> = othello_rules::text::parse_moves(t)
            .map_err(|e| input(format!("{path} line {}: {e}", i + 1)))?
            .into_iter()
            .map(|(_, m)| m)
            .collect();
        let pos = play_sequence(start, t).map_err(|e| input(format!("{path} line {}: {e}", i + 1)))?;
        if pos.is_game_over() {
            return Err(input(format!("{path} line {}: the opening ends the game", i + 1)));
        }
        out.push(moves);
    }
    if out.is_empty() {
        return Err(input(format!("openings file {path} has no openings")));
    }
    Ok(out)
}

fn parse_sprt(text: &str) -> CliResult<(f64, f64)> {
    let bad = || {
        input(format!(
            "bad --sprt '{text}': expected ELO0,ELO1 with ELO0 < ELO1, e.g. 0,10"
        ))
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b): (f64, f64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if !(a.is_finite() && b.is_finite() && a < b) {
        return Err(bad());
    }
    Ok((a, b))
}

/// One finished game: the final position and the moves played.
fn play_game(start: &Position, black: &mut Engine, white: &mut Engine) -> CliResult<Position> {
    black.new_game();
    white.new_game();
    let mut pos = *start;
    while !pos.is_game_over() {
        let mover = if pos.side_to_move() == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let mv = mover.choose(&pos);
        pos = pos
            .play(mv)
            .map_err(|e| CliError::Check(format!("engine played an illegal move: {e}")))?;
        black.observe(mv);
        white.observe(mv);
    }
    Ok(pos)
}

/// Runs `othello play`.
pub fn run(args: &PlayArgs) -> CliResult {
    if args.games < 2 || args.games % 2 != 0 {
        return Err(input(format!(
            "bad --games {}: expected an even number of at least 2",
            args.games
        )));
    }
    let size = match args.size {
        None => BoardSize::Eight,
        Some(s) => BoardSize::from_side(s).ok_or_else(|| input(format!("bad --size {s}: expected 4, 6 or 8")))?,
    };
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let mut a = Engine::from_spec(args.engine_a.parse::<Spec>()?)?;
    let mut b = Engine::from_spec(args.engine_b.parse::<Spec>()?)?;
    a.check_size(size)?;
    b.check_size(size)?;
    let start = Position::start_of(size);
    let openings = match &args.openings {
        Some(path) => read_openings(path, &start)?,
        None => builtin_openings(size),
    };
    let games = args.games as u64;
    let out = Output::new(args.json);
    let bar = progress(games, "games", args.quiet);
    let mut tally = Tally::default();
    let mut verdict = Verdict::Continue;
    for g in 0..games {
        let opening = &openings[(g / 2) as usize % openings.len()];
        let text = format_moves(opening);
        let pos0 = play_sequence(&start, &text).map_err(|e| input(format!("opening {text}: {e}")))?;
        let a_color = if g % 2 == 0 { Color::Black } else { Color::White };
        let end = if a_color == Color::Black {
            play_game(&pos0, &mut a, &mut b)?
        } else {
            play_game(&pos0, &mut b, &mut a)?
        };
        let a_discs = end.discs(a_color).count();
        let b_discs = end.discs(a_color.opposite()).count();
        let result = match a_discs.cmp(&b_discs) {
            std::cmp::Ordering::Greater => {
                tally.wins += 1;
                "win"
            }
            std::cmp::Ordering::Equal => {
                tally.draws += 1;
                "draw"
            }
            std::cmp::Ordering::Less => {
                tally.losses += 1;
                "loss"
            }
        };
        bar.inc(1);
        bar.set_message(format!("+{} ={} -{}", tally.wins, tally.draws, tally.losses));
        bar.suspend(|| {
            out.line(
                || {
                    format!(
                        "game {:>4} opening {text:<12} A {a_color:<5} {result:<4} {a_discs:>2}-{b_discs:<2}",
                        g + 1
                    )
                },
                || {
                    json!({"game": g + 1, "opening": text, "a_color": a_color.to_string(), "result": result,
                        "a_discs": a_discs, "b_discs": b_discs})
                },
            )
        });
        if let Some((e0, e1)) = sprt
            && g % 2 == 1
        {
            verdict = tally.sprt(e0, e1);
            if verdict != Verdict::Continue {
                break;
            }
        }
    }
    bar.finish_and_clear();
    let (elo, err) = tally.elo();
    let err = if err.is_finite() { Some(err) } else { None };
    out.line(
        || {
            let mut s = format!(
                "A vs B: +{} ={} -{} of {} games, score {:.3}, Elo {:+.1} +/- {}",
                tally.wins,
                tally.draws,
                tally.losses,
                tally.games(),
                tally.score(),
                elo,
                err.map_or("inf".to_string(), |e| format!("{e:.1}"))
            );
            if sprt.is_some() {
                s += &format!(", SPRT {}", verdict.as_str());
            }
            s
        },
        || {
            json!({"games": tally.games(), "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
                "score": tally.score(), "elo": elo, "elo_error": err, "sprt": sprt.map(|_| verdict.as_str())})
        },
    );
    Ok(())
}
