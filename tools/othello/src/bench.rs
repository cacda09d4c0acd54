//! `othello bench`: the default engine (PVS, default evaluation, table) searched to a fixed depth
//! on an embedded position set (openings, midgames, endgames), printing per position and in total
//! the nodes, time, speed, best move and score. Single-threaded, the total node count is the
//! engine's functional signature: a change that claims "no functional change" keeps it equal
//! (the test `bench_signature` pins it). `--perft` runs perft on the same positions instead.
//! `--movetime MS` is the time-limit benchmark: `--count` (200) fixed random positions searched
//! with the engine's `time=MS` limit each, reporting how far past the limit the searches returned.

use crate::error::{CliResult, input};
use crate::output::{Output, progress};
use crate::perft::round_ms;
use crate::search_cmd::discs;
use othello_rules::text::play_sequence;
use othello_rules::{Move, Position, perft};
use othello_search::{Algorithm, Limits, Searcher, Selectivity};
use othello_spec::{SEARCH_KEYS, Spec, search_algorithm, search_config, search_limits};
use serde_json::json;
use std::str::FromStr;
use std::time::Instant;

/// Options of `othello bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth (perft depth with `--perft`); the default is the signature's depth.
    #[arg(long, short, allow_negative_numbers = true)]
    depth: Option<i64>,
    /// Search threads (the node count is a deterministic signature only with one thread).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB (the engine spec's `tt`; the default engine's if omitted).
    #[arg(long)]
    hash: Option<usize>,
    /// The search engine benchmarked (`pvs`, `alphabeta`, ... with keys such as
    /// `eval=pattern`); its depth is `--depth`. The signature is that of the default `pvs`.
    #[arg(long, default_value = "pvs")]
    engine: String,
    /// Selectivity of the search (`off`, a level 0 to 4, or `t1.80`, optionally with `@N`
    /// full-width plies and a guard `/G:K` or a one-sided guard `/G:Kr` near the root: see
    /// the spec key `selectivity`);
    /// the engine's default if omitted.
    #[arg(long, conflicts_with = "perft")]
    selectivity: Option<String>,
    /// Count perft leaves instead of searching (the rules-only workload).
    #[arg(long)]
    perft: bool,
    /// Time-limit benchmark: search `--count` generated positions with this time limit in
    /// milliseconds each (the spec's `time`) and report how far past the limit the searches
    /// returned (percentiles of the overshoot), instead of the fixed-depth benchmark.
    #[arg(long, value_name = "MS", conflicts_with_all = ["perft", "depth"])]
    movetime: Option<u64>,
    /// Number of positions of the time-limit benchmark.
    #[arg(long, default_value_t = 200, requires = "movetime")]
    count: usize,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// The default search depth of the benchmark (12 since the default engine evaluates with
/// patterns: 6-8 s on the CPUs of docs/BENCHMARKS.md, 2026-12-01; depth 13 takes about 4x that).
pub const BENCH_DEPTH: u32 = 12;
/// The default perft depth of `--perft`.
pub const PERFT_DEPTH: u32 = 8;

/// Endgame positions of the benchmark (FFO #26, #35, #40, #43: 20 to 23 empties).
pub const BENCH_ENDGAMES: &[&str] = &[
    "-OOOOO----OXXO---OOOOXXO-OOOXOXX-OOXOOXX-XOXXOXX--O-XXXX--O----O X",
    "--XXX-----XXXX-OOOXXOOOOOOOOOOXO-OOXXXXO-OOOXXXO---XOXX---X----- O",
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
    "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
];

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

/// The result of one benchmark position.
struct Row {
    nodes: u64,
    ms: f64,
    best_move: Option<Move>,
    score: Option<f64>,
}

/// Runs `othello bench`.
pub fn run(args: &BenchArgs) -> CliResult {
    crate::input::check_threads(args.threads, "--threads")?;
    if let Some(ms) = args.movetime {
        return time_limits(args, ms);
    }
    let out = Output::new(args.json);
    let mut positions = positions();
    let depth = match args.depth {
        None if args.perft => PERFT_DEPTH,
        None => BENCH_DEPTH,
        Some(d) if args.perft => crate::check_depth(d, 20)?,
        Some(d) if !(1..=60).contains(&d) => return Err(input(format!("bad --depth {d}: expected 1 to 60"))),
        Some(d) => d as u32,
    };
    if !args.perft {
        positions.extend(
            BENCH_ENDGAMES
                .iter()
                .map(|b| b.parse::<Position>().expect("embedded endgames parse")),
        );
    }
    // The default engine is what `--engine pvs` builds.
    let mut spec = Spec::from_str(&args.engine)?;
    let Some(algorithm) = search_algorithm(&spec.name) else {
        return Err(input(format!(
            "bad --engine '{}': expected a search engine (pvs, alphabeta, negamax, minimax)",
            spec.name
        )));
    };
    let (mut config, eval) = search_config(&mut spec, algorithm)?;
    let known: Vec<&str> = SEARCH_KEYS
        .iter()
        .copied()
        .filter(|k| !matches!(*k, "depth" | "time" | "nodes"))
        .collect();
    spec.finish(&known)?;
    eval.check_size(othello_rules::BoardSize::Eight)?;
    config.threads = args.threads;
    if let Some(mib) = args.hash {
        config.tt_mib = crate::input::check_hash(mib, "--hash")?;
    }
    if let Some(s) = &args.selectivity {
        config.selectivity = s
            .parse::<Selectivity>()
            .map_err(|e| input(format!("bad --selectivity '{s}': {e}")))?;
    }
    let selectivity = config.selectivity;
    let mut searcher = Searcher::new(eval, config);
    let bar = progress(positions.len() as u64, "positions", args.quiet);
    let mut total = 0u64;
    let (mut evals, mut cached) = (0u64, 0u64);
    // Search time only: the table's allocation and its clearing between positions are not
    // counted (the search's own clock starts after them).
    let mut total_secs = 0.0;
    for pos in &positions {
        let row = if args.perft {
            let t = Instant::now();
            let nodes = perft::perft(pos, depth);
            Row {
                nodes,
                ms: t.elapsed().as_secs_f64() * 1e3,
                best_move: None,
                score: None,
            }
        } else {
            searcher.new_game();
            let r = searcher.search(pos, &Limits::depth(depth), |_| {});
            evals += r.stats.leaf_evals;
            cached += r.stats.cached_evals;
            Row {
                nodes: r.nodes,
                ms: r.time.as_secs_f64() * 1e3,
                best_move: Some(r.best_move),
                score: Some(discs(r.score)),
            }
        };
        total += row.nodes;
        total_secs += row.ms / 1e3;
        bar.inc(1);
        bar.suspend(|| {
            out.line(
                || match (row.best_move, row.score) {
                    (Some(m), Some(s)) => format!(
                        "{pos}  {m:<4} {s:+6.2}  nodes {:>11}  {:>8.1} ms  {:>6.2} M nodes/s",
                        row.nodes,
                        row.ms,
                        row.nodes as f64 / row.ms.max(1e-9) / 1e3
                    ),
                    _ => format!("{pos}  perft {depth}: {:>12} leaves {:>9.1} ms", row.nodes, row.ms),
                },
                || {
                    json!({"position": pos.to_string(), "depth": depth, "best_move": row.best_move.map(|m| m.to_string()),
                        "score": row.score, "nodes": row.nodes, "time_ms": round_ms(row.ms)})
                },
            )
        });
    }
    bar.finish_and_clear();
    let secs = total_secs;
    let nps = crate::output::nps(total, secs);
    out.line(
        || {
            format!(
                "bench: {}, depth {depth}{}, {total} nodes, {:.1} ms, {:.2} M nodes/s",
                crate::output::count(positions.len(), "position", "positions"),
                if args.perft { String::new() } else { format!(", selectivity {selectivity}") },
                secs * 1e3,
                nps as f64 / 1e6
            )
        },
        || json!({"positions": positions.len(), "depth": depth, "selectivity": (!args.perft).then(|| selectivity.to_string()),
            "nodes": total, "time_ms": round_ms(secs * 1e3), "nps": nps,
            "evals": (!args.perft).then_some(evals), "cached_evals": (!args.perft).then_some(cached)}),
    );
    Ok(())
}

/// `count` positions for the time-limit benchmark: from the start, 4 to 53 uniformly random
/// moves with a fixed seed (the same positions every run), skipping finished games.
pub fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let plies = 4 + out.len() % 50;
        let pos = othello_rules::random::play_random(&Position::start(), plies, &mut rng);
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

/// The value at quantile `q` (0 to 1) of sorted values, nearest rank.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The time-limit benchmark: each position searched by the default engine with `time=ms`
/// (as in a game: one searcher, its table kept), the wall time measured around the call.
fn time_limits(args: &BenchArgs, ms: u64) -> CliResult {
    if ms == 0 {
        return Err(input("bad --movetime 0: expected at least 1 ms"));
    }
    if args.count == 0 {
        return Err(input("bad --count 0: expected at least 1"));
    }
    let out = Output::new(args.json);
    let mut spec = Spec::from_str("pvs")?;
    spec.set("time", ms);
    let limits = search_limits(&mut spec)?;
    let (mut config, eval) = search_config(&mut spec, Algorithm::Pvs)?;
    config.threads = args.threads;
    if let Some(mib) = args.hash {
        config.tt_mib = crate::input::check_hash(mib, "--hash")?;
    }
    let mut searcher = Searcher::new(eval, config);
    let positions = random_positions(args.count, 20261130);
    let bar = progress(positions.len() as u64, "positions", args.quiet);
    let mut over = Vec::with_capacity(positions.len());
    for pos in &positions {
        let t = Instant::now();
        let r = searcher.search(pos, &limits, |_| {});
        let elapsed = t.elapsed().as_secs_f64() * 1e3;
        debug_assert!(pos.is_legal(r.best_move));
        over.push(elapsed - ms as f64);
        bar.inc(1);
    }
    bar.finish_and_clear();
    over.sort_by(f64::total_cmp);
    let q = |p: f64| round_ms(quantile(&over, p));
    let late = over.iter().filter(|&&o| o > 0.0).count();
    out.line(
        || {
            format!(
                "time limit {ms} ms, {} positions, {} threads: overshoot p50 {:+.3} ms, p90 {:+.3}, p99 {:+.3}, worst {:+.3}; {late} searches past the limit",
                over.len(),
                args.threads,
                q(0.5),
                q(0.9),
                q(0.99),
                q(1.0)
            )
        },
        || {
            json!({"movetime_ms": ms, "positions": over.len(), "threads": args.threads, "p50_ms": q(0.5),
                "p90_ms": q(0.9), "p99_ms": q(0.99), "worst_ms": q(1.0), "past_limit": late})
        },
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let v: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.5), 100.0);
        assert_eq!(quantile(&v, 0.99), 198.0);
        assert_eq!(quantile(&v, 1.0), 200.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn random_positions_are_fixed_and_playable() {
        let a = random_positions(60, 7);
        assert_eq!(a, random_positions(60, 7));
        assert_eq!(a.len(), 60);
        assert!(a.iter().all(|p| !p.is_game_over()));
        // Different lengths: the empties vary.
        assert!(
            a.iter()
                .map(|p| p.empty_count())
                .collect::<std::collections::HashSet<_>>()
                .len()
                > 20
        );
    }
}
