//! `othello perft`.

use crate::error::{CliResult, input};
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
    /// Start from this position ("<board> X"; 16, 36 or 64 squares).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    #[command(flatten)]
    setup: crate::input::Setup,
    /// Print the count below each root move at the final depth.
    #[arg(long)]
    divide: bool,
    /// Cache of this many MiB keyed by the full position (0: none).
    #[arg(long, default_value_t = 0)]
    hash: usize,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// Runs `othello perft`.
pub fn run(args: &PerftArgs) -> CliResult {
    let pos = args.setup.position(args.position.as_deref())?;
    let depth = crate::check_depth(args.depth, 64)?;
    if args.threads == 0 || args.threads > 256 {
        return Err(input(format!("bad --threads {}: expected 1 to 256", args.threads)));
    }
    if args.hash > 1 << 16 {
        return Err(input(format!("bad --hash {}: at most 65536 MiB", args.hash)));
    }
    let out = Output::new(args.json);
    // One table for every depth (and every thread): its entries stay valid from depth to depth.
    let table = (args.hash > 0).then(|| perft::PerftTable::new(args.hash, pos.size()));
    let count = |pos: &Position, d: u32| -> u64 {
        if args.threads > 1 {
            perft::perft_parallel_in(pos, d, args.threads, table.as_ref())
        } else if let Some(table) = &table {
            perft::perft_hashed_in(pos, d, table)
        } else {
            perft::perft(pos, d)
        }
    };
    let depths: Vec<u32> = if depth == 0 { vec![0] } else { (1..=depth).collect() };
    for d in depths {
        let t = Instant::now();
        let n = count(&pos, d);
        let secs = t.elapsed().as_secs_f64();
        let ms = secs * 1e3;
        let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
        out.line(
            || {
                format!(
                    "perft {d:>2}: {n:>16} leaves {ms:>10.1} ms {:>10.1} M leaves/s",
                    rate / 1e6
                )
            },
            || json!({"depth": d, "nodes": n, "time_ms": round_ms(ms), "nps": rate.round()}),
        );
    }
    if args.divide && depth > 0 {
        let mut total = 0;
        for m in pos.moves() {
            let n = count(&pos.play_unchecked(m), depth - 1);
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

/// Milliseconds rounded to 0.001.
pub fn round_ms(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}
