//! `othello bench`: a fixed workload over an embedded position set, printing a node count (the
//! engine's functional signature) and the speed.

use crate::error::CliResult;
use crate::output::Output;
use crate::perft::round_ms;
use othello_rules::text::play_sequence;
use othello_rules::{Position, perft};
use serde_json::json;
use std::time::Instant;

/// Options of `othello bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Perft depth for each position.
    #[arg(long, short, default_value_t = 9, allow_negative_numbers = true)]
    depth: i64,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// The embedded positions: the start, openings and midgames as move sequences from the start.
pub const BENCH_LINES: &[&str] = &[
    "",
    "c4c3d3e3f3d6",
    "f5d6c4b3c6d3b4g5g6b7",
    "c4c3d3e3f2f3b2f1g2a1b3b4f5f6",
    "e6d6c7f7c3f3c5c6e7d3b6f5f6b7e3b5g3g2b4b3",
    "e6f6f5f4g6g7f3h6g5d3g4h4d2e2e3c3h5d7h7h8g8c4d6e1f1e7",
    "d3e3f6c5f3f2c4f4g2e6b5c6d6g6g4h1g3b3g1h4d7b7g5e2f5d8c8e8d2b8b6h3",
    "d3c3b3d6c4b2c2f3f4d2a1g4h4a3e6b5g2f7b4h1c7h5a6d7f2a2c6b6b1h3e2c1d8e8c5f1a7e7",
    "f5f4d3f6g6c4e3e6c6e2d7f7d6d8c5c7d2c1b5g4e8a6f3h7e1f1d1g5h3f8c2b4b1h4c8f2g7c3a4a5h5e7b2b7",
    "f5f4e3f2g4e6c4h3e7f3h4e8g5b4b3g6e2d2g1g2g3h5f7d3a4b5g7h1b6d7f1h6c3d1c7a6c5h7h2a5a7d6h8b8c2f6d8a2",
];

/// The positions of [`BENCH_LINES`].
pub fn positions() -> Vec<Position> {
    BENCH_LINES
        .iter()
        .map(|l| play_sequence(&Position::start(), l).expect("embedded bench lines are legal"))
        .collect()
}

/// Runs `othello bench`.
pub fn run(args: &BenchArgs) -> CliResult {
    let depth = crate::check_depth(args.depth, 20)?;
    let out = Output::new(args.json);
    let t0 = Instant::now();
    let mut total = 0u64;
    let positions = positions();
    for pos in &positions {
        let t = Instant::now();
        let n = perft::perft(pos, depth);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        total += n;
        out.line(
            || format!("{pos}  perft {depth}: {n:>12} leaves {ms:>9.1} ms"),
            || json!({"position": pos.to_string(), "depth": depth, "nodes": n, "time_ms": round_ms(ms)}),
        );
    }
    let secs = t0.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { (total as f64 / secs).round() } else { 0.0 };
    out.line(
        || {
            format!(
                "bench: {} positions, {total} nodes, {:.1} ms, {:.1} M nodes/s",
                positions.len(),
                secs * 1e3,
                nps / 1e6
            )
        },
        || json!({"positions": positions.len(), "nodes": total, "time_ms": round_ms(secs * 1e3), "nps": nps}),
    );
    Ok(())
}
