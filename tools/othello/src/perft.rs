//! `othello perft`.

mod split;

use crate::error::{CliResult, input};
use crate::input::{check_hash, check_threads};
use crate::output::Output;
use othello_rules::{Position, perft};
use serde_json::json;
use std::time::Instant;

/// Options of `othello perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Deepest depth to count (one line per depth from 1 to N; 0 counts 1).
    #[arg(long, short, default_value_t = 9, allow_negative_numbers = true)]
    depth: i64,
    /// Start from this position ("BOARD X"; 16, 36 or 64 squares); the 8x8 start if omitted.
    position: Option<String>,
    /// The position, as an option (the older spelling of the positional argument).
    #[arg(
        long = "position",
        value_name = "POSITION",
        allow_hyphen_values = true,
        hide = true,
        conflicts_with = "position"
    )]
    position_option: Option<String>,
    #[command(flatten)]
    setup: crate::input::Setup,
    /// Print the count below each root move at the final depth.
    #[arg(long)]
    divide: bool,
    /// Table (cache) size in MiB, keyed by the full position (0: none).
    #[arg(long, default_value_t = 0)]
    hash: usize,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print only the count at --depth, not one line per depth.
    #[arg(long)]
    leaf_only: bool,
    /// Count each position of this file ("-": standard input) at --depth, one "BOARD X" per
    /// line (blank lines and lines starting with # skipped): one result line per position.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves", "size", "divide", "split"])]
    positions: Option<String>,
    /// Instead of counting, print the distinct positions this many plies below (one per
    /// symmetry class, with the number of move sequences reaching it), then the number of
    /// games that ended above that ply.
    #[arg(long, value_name = "PLY", allow_negative_numbers = true, conflicts_with = "divide")]
    split: Option<i64>,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// Runs `othello perft`.
pub fn run(args: &PerftArgs) -> CliResult {
    let depth = crate::check_depth(args.depth, 64)?;
    check_threads(args.threads, "--threads")?;
    check_hash(args.hash, "--hash")?;
    let out = Output::new(args.json);
    if let Some(file) = &args.positions {
        return run_positions(args, file, depth, out);
    }
    let pos = args
        .setup
        .position(args.position.as_deref().or(args.position_option.as_deref()))?;
    if let Some(ply) = args.split {
        let ply = u32::try_from(ply)
            .ok()
            .filter(|&p| p <= 64)
            .ok_or_else(|| input(format!("bad --split {ply}: expected 0 to 64")))?;
        print_split(&pos, ply, out);
        return Ok(());
    }
    // One table for every depth (and every thread): its entries stay valid from depth to depth.
    let table = (args.hash > 0).then(|| perft::PerftTable::new(args.hash, pos.size()));
    let depths: Vec<u32> = if depth == 0 || args.leaf_only {
        vec![depth]
    } else {
        (1..=depth).collect()
    };
    for d in depths {
        let t = Instant::now();
        let n = count(args, &pos, d, table.as_ref());
        let secs = t.elapsed().as_secs_f64();
        let ms = secs * 1e3;
        let rate = crate::output::nps(n, secs);
        out.line(
            || {
                format!(
                    "perft {d:>2}: {n:>16} leaves {ms:>10.1} ms {:>10.1} M leaves/s",
                    rate as f64 / 1e6
                )
            },
            || json!({"depth": d, "nodes": n, "time_ms": round_ms(ms), "nps": rate}),
        );
    }
    if args.divide && depth > 0 {
        let mut total = 0;
        for m in pos.moves() {
            let n = count(args, &pos.play_unchecked(m), depth - 1, table.as_ref());
            total += n;
            out.line(
                || format!("{m:>5} {n:>16}"),
                || json!({"move": m.to_string(), "nodes": n}),
            );
        }
        out.line(
            || format!("total {total:>16}"),
            || json!({"divide_total": total, "depth": depth}),
        );
    }
    Ok(())
}

/// The perft count of `pos` at `depth` with the chosen mode.
fn count(args: &PerftArgs, pos: &Position, depth: u32, table: Option<&perft::PerftTable>) -> u64 {
    if depth == 0 {
        1
    } else if args.threads > 1 {
        perft::perft_parallel_in(pos, depth, args.threads, table)
    } else if let Some(table) = table {
        perft::perft_hashed_in(pos, depth, table)
    } else {
        perft::perft(pos, depth)
    }
}

/// `--positions`: one count per listed position, at `depth` only.
fn run_positions(args: &PerftArgs, file: &str, depth: u32, out: Output) -> CliResult {
    let (name, text) = crate::input::read_source(file, "")?;
    if text.trim().is_empty() {
        return Err(input(format!("{name}: empty input, no positions")));
    }
    // Parse everything first: a bad line fails before any work.
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let pos: Position = t
            .parse()
            .map_err(|e| input(format!("{name} line {}: bad position: {e}", i + 1)))?;
        positions.push(pos);
    }
    if positions.is_empty() {
        return Err(input(format!("{name}: no positions (only comments)")));
    }
    // One table for the whole list (entries stay valid across positions of one size).
    let mut table: Option<(perft::PerftTable, othello_rules::BoardSize)> = None;
    for pos in &positions {
        if args.hash > 0 && table.as_ref().map(|t| t.1) != Some(pos.size()) {
            table = Some((perft::PerftTable::new(args.hash, pos.size()), pos.size()));
        }
        let t = Instant::now();
        let n = count(args, pos, depth, table.as_ref().map(|t| &t.0));
        let ms = t.elapsed().as_secs_f64() * 1e3;
        out.line(
            || format!("{pos} {n}"),
            || json!({"position": pos.to_string(), "depth": depth, "nodes": n, "time_ms": round_ms(ms)}),
        );
    }
    Ok(())
}

/// `--split`: the distinct positions `ply` plies below `pos`, then the summary.
fn print_split(pos: &Position, ply: u32, out: Output) {
    let s = split::split(pos, ply);
    let mut paths = s.ended;
    for (p, m) in &s.positions {
        paths += m;
        out.line(|| format!("{p} {m}"), || json!({"position": p.to_string(), "count": m}));
    }
    out.line(
        || {
            format!(
                "split {ply}: {} positions, {paths} paths, {} ended",
                s.positions.len(),
                s.ended
            )
        },
        || json!({"split": ply, "positions": s.positions.len(), "paths": paths, "ended": s.ended}),
    );
}

/// Milliseconds rounded to 0.001.
pub fn round_ms(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}
