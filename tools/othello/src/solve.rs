//! `othello solve`: exact (or win/loss/draw) endgame solving of one position or an OBF file,
//! checked against the scores the file lists.

use crate::error::{CliError, CliResult, input};
use crate::input::{check_hash, check_threads};
use crate::output::{Output, nps, progress};
use crate::perft::round_ms;
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::{BoardSize, Move, ObfLine};
use serde_json::json;
use std::time::Instant;

/// Options of `othello solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// An OBF file (one position per line, optionally with move scores), or a position "BOARD X".
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
    /// Evaluation ordering the solver's moves far from the leaves: `auto` (the pattern
    /// evaluation on 8x8, the built-in mobility ordering on 4x4 and 6x6), `none` (the built-in
    /// ordering everywhere), `pattern`, or any `eval=` value of an engine spec. Scores never
    /// change, only the work.
    #[arg(long, default_value = "auto")]
    eval: String,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Write each position as an SVG picture with its principal variation numbered (and every
    /// move's score with --all-moves): a file for one position; for several, a name with
    /// `{n}` (the position's number from 1, e.g. `pos-{n}.svg`) or a directory (`position-N.svg`
    /// in it).
    #[arg(long)]
    svg: Option<String>,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// The positions to solve: the lines of a file that exists (a regular file, or a special one
/// such as a pipe), of standard input (`-`), or the argument as one position.
fn read_input(args: &SolveArgs) -> CliResult<Vec<ObfLine>> {
    if let Some((_, lines)) = crate::input::read_obf(&args.input)? {
        if args.moves.is_some() {
            return Err(input("--moves applies to a position argument, not to a file"));
        }
        Ok(lines)
    } else {
        let pos = crate::input::position(Some(&args.input), None, args.moves.as_deref())
            .map_err(|e| crate::input::not_a_file_or_position(&args.input, e))?;
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
    check_threads(args.threads, "--threads")?;
    check_hash(args.hash, "--hash")?;
    let lines = read_input(args)?;
    let svg = args
        .svg
        .as_deref()
        .map(|value| crate::picture::SvgTargets::new(value, lines.len()))
        .transpose()?;
    let mode = if args.wld {
        SolveMode::WinLossDraw
    } else {
        SolveMode::Exact
    };
    let config = SolverConfig::default()
        .with_tt_mib(args.hash)
        .with_threads(args.threads);
    // `auto`: the pattern ordering on 8x8 (measured faster there, docs/BENCHMARKS.md) and the
    // built-in one on the smaller boards, which have no pattern tables. Each solver is made
    // (and its table allocated) when a position first needs it.
    let (ordering, auto) = match args.eval.as_str() {
        "none" => (None, false),
        "auto" => (
            Some(othello_spec::SpecEval::parse(Some("pattern"), None, "solve --eval")?),
            true,
        ),
        text => (
            Some(othello_spec::SpecEval::parse(Some(text), None, "solve --eval")?),
            false,
        ),
    };
    let ordered_config = ordering.map(|eval| {
        config
            .clone()
            .with_ordering(move |pos| othello_eval::Evaluator::evaluate(&eval, pos))
    });
    let (mut ordered, mut plain): (Option<Solver>, Option<Solver>) = (None, None);
    let out = Output::new(args.json);
    // After the table's allocation (each position's time also excludes clearing it).
    let t0 = Instant::now();
    let (mut total_nodes, mut mismatches) = (0u64, 0usize);
    let bar = progress(lines.len() as u64, "positions", args.quiet);
    for (i, line) in lines.iter().enumerate() {
        let pos = line.position;
        // Each position starts from an empty table, so its node count is that of a fresh
        // solver: the same whatever came before it in the file (docs/conventions.md).
        let solver = match &ordered_config {
            Some(c) if !auto || pos.size() == BoardSize::Eight => ordered.get_or_insert_with(|| Solver::new(c.clone())),
            _ => plain.get_or_insert_with(|| Solver::new(config.clone())),
        };
        solver.new_game();
        let sol = solver.solve(&pos, mode);
        let mut nodes = sol.nodes;
        let mut time = sol.time;
        let verdict = check(line, args.wld, sol.best_move, sol.score);
        let mut move_scores = Vec::new();
        let mut all_ok = true;
        if args.all_moves {
            // The nodes and time reported cover both searches: the solve and the move scores.
            let t = Instant::now();
            move_scores = solver.score_moves(&pos, mode);
            time += t.elapsed();
            nodes += solver.last_nodes();
            let value = |s: i32| if args.wld { s.signum() } else { s };
            for &(m, s) in &line.scores {
                if let Some(&(_, got)) = move_scores.iter().find(|&&(mm, _)| mm == m)
                    && got != value(s)
                {
                    all_ok = false;
                }
            }
        }
        if let Some(targets) = &svg {
            let scores: Vec<_> = move_scores
                .iter()
                .filter_map(|&(m, v)| Some((m.square()?, v)))
                .collect();
            let mut picture = othello_svg::BoardPicture::new(&pos)
                .pv(&sol.pv)
                .values(scores)
                .title(format!("#{} best {} score {:+}", i + 1, sol.best_move, sol.score));
            if lines.len() == 1 {
                picture = picture.last_move(crate::picture::last_move(args.moves.as_deref()));
            }
            crate::picture::write_board(&targets.path(i + 1), &picture, "--svg")?;
        }
        total_nodes += nodes;
        let secs = time.as_secs_f64();
        let nps = nps(nodes, secs);
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
                    nodes,
                    secs * 1e3,
                    nps as f64 / 1e6
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
                    "nodes": nodes, "time_ms": round_ms(secs * 1e3), "nps": nps,
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
                "solved {}, {}, {total_nodes} nodes, {ms:.1} ms",
                crate::output::count(lines.len(), "position", "positions"),
                crate::output::count(mismatches, "mismatch", "mismatches")
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
