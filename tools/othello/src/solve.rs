//! `othello solve`: exact (or win/loss/draw) endgame solving of one position or an OBF file,
//! checked against the scores the file lists.

use crate::error::{CliError, CliResult, input};
use crate::output::{Output, progress};
use crate::perft::round_ms;
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::{Move, ObfLine};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

/// Options of `othello solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// An OBF file (one position per line, optionally with move scores), or a position "<board> X".
    #[arg(allow_hyphen_values = true)]
    input: String,
    /// Moves played from the position first (position input only).
    #[arg(long)]
    moves: Option<String>,
    /// Win/loss/draw only (score -1, 0 or 1).
    #[arg(long)]
    wld: bool,
    /// Score every legal move (OBF style).
    #[arg(long)]
    all_moves: bool,
    /// Solver threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// The positions to solve: the lines of a file that exists, or the argument as one position.
fn read_input(args: &SolveArgs) -> CliResult<Vec<ObfLine>> {
    let path = Path::new(&args.input);
    if path.is_file() {
        if args.moves.is_some() {
            return Err(input("--moves applies to a position argument, not to a file"));
        }
        let bytes = std::fs::read(path).map_err(|e| input(format!("cannot read {}: {e}", args.input)))?;
        let text = String::from_utf8(bytes).map_err(|_| input(format!("{} is not UTF-8 text", args.input)))?;
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') || t.starts_with('%') {
                continue;
            }
            let obf: ObfLine = t
                .parse()
                .map_err(|e| input(format!("{} line {}: {e}", args.input, i + 1)))?;
            lines.push(obf);
        }
        if lines.is_empty() {
            return Err(input(format!("{}: no positions", args.input)));
        }
        Ok(lines)
    } else {
        let looks_like_path = args.input.ends_with(".obf") || args.input.contains('/');
        let pos = crate::input::position(Some(&args.input), None, args.moves.as_deref()).map_err(|e| {
            if looks_like_path {
                input(format!("no such file: {}", args.input))
            } else {
                e
            }
        })?;
        Ok(vec![ObfLine {
            position: pos,
            scores: Vec::new(),
        }])
    }
}

/// The verdict of a solve against the listed scores: `None` when nothing is listed.
fn check(line: &ObfLine, wld: bool, best: Move, score: i32) -> Option<(i32, bool)> {
    let expected_exact = line.best_score()?;
    let expected = if wld { expected_exact.signum() } else { expected_exact };
    let value = |s: i32| if wld { s.signum() } else { s };
    let ok = score == expected && line.scores.iter().any(|&(m, s)| m == best && value(s) == expected);
    Some((expected, ok))
}

/// Runs `othello solve`.
pub fn run(args: &SolveArgs) -> CliResult {
    if args.threads == 0 || args.threads > 256 {
        return Err(input(format!("bad --threads {}: expected 1 to 256", args.threads)));
    }
    if args.hash > 1 << 16 {
        return Err(input(format!("bad --hash {}: at most 65536 MiB", args.hash)));
    }
    let lines = read_input(args)?;
    let mode = if args.wld {
        SolveMode::WinLossDraw
    } else {
        SolveMode::Exact
    };
    let mut solver = Solver::new(
        SolverConfig::default()
            .with_tt_mib(args.hash)
            .with_threads(args.threads),
    );
    let out = Output::new(args.json);
    let t0 = Instant::now();
    let (mut total_nodes, mut mismatches) = (0u64, 0usize);
    let bar = progress(lines.len() as u64, "positions", args.quiet);
    for (i, line) in lines.iter().enumerate() {
        let pos = line.position;
        let sol = solver.solve(&pos, mode);
        total_nodes += sol.nodes;
        let secs = sol.time.as_secs_f64();
        let nps = if secs > 0.0 { sol.nodes as f64 / secs } else { 0.0 };
        let verdict = check(line, args.wld, sol.best_move, sol.score);
        let mut move_scores = Vec::new();
        let mut all_ok = true;
        if args.all_moves {
            move_scores = solver.score_moves(&pos, mode);
            let value = |s: i32| if args.wld { s.signum() } else { s };
            for &(m, s) in &line.scores {
                if let Some(&(_, got)) = move_scores.iter().find(|&&(mm, _)| mm == m)
                    && got != value(s)
                {
                    all_ok = false;
                }
            }
        }
        let ok = verdict.map(|(_, ok)| ok && all_ok);
        if ok == Some(false) {
            mismatches += 1;
            let (expected, _) = verdict.expect("checked");
            bar.suspend(|| {
                eprintln!(
                    "MISMATCH position {}: {pos}: got {} {:+}, expected {:+}{}",
                    i + 1,
                    sol.best_move,
                    sol.score,
                    expected,
                    if all_ok { "" } else { " (or a move score differs)" }
                )
            });
        }
        bar.inc(1);
        bar.suspend(|| out.line(
            || {
                let mut s = format!(
                    "#{:<3} {pos}  best {:<4} score {:+3}  nodes {:>12}  time {:>9.1} ms  {:>7.2} M nodes/s",
                    i + 1,
                    sol.best_move.to_string(),
                    sol.score,
                    sol.nodes,
                    secs * 1e3,
                    nps / 1e6
                );
                if let Some((e, ok)) = verdict {
                    s += &format!("  expected {e:+3} {}", if ok && all_ok { "ok" } else { "MISMATCH" });
                }
                if args.all_moves {
                    let obf = ObfLine { position: pos, scores: move_scores.clone() };
                    s += &format!("\n     {obf}");
                }
                s
            },
            || {
                let mut o = json!({"position": pos.to_string(), "best_move": sol.best_move.to_string(), "score": sol.score,
                    "nodes": sol.nodes, "time_ms": round_ms(secs * 1e3), "nps": nps.round(),
                    "pv": sol.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()});
                if let Some((e, ok)) = verdict {
                    o["expected"] = json!(e);
                    o["ok"] = json!(ok && all_ok);
                }
                if args.all_moves {
                    o["moves"] = move_scores.iter().map(|(m, s)| json!({"move": m.to_string(), "score": s})).collect();
                }
                o
            },
        ));
    }
    bar.finish_and_clear();
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    out.line(
        || {
            format!(
                "solved {} positions, {mismatches} mismatches, {total_nodes} nodes, {ms:.1} ms",
                lines.len()
            )
        },
        || json!({"positions": lines.len(), "mismatches": mismatches, "nodes": total_nodes, "time_ms": round_ms(ms)}),
    );
    if mismatches > 0 {
        return Err(CliError::Check(format!(
            "{mismatches} of {} positions do not match their listed scores",
            lines.len()
        )));
    }
    Ok(())
}
