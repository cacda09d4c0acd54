//! Measures what each search feature buys: nodes and time to reach the same depth on a fixed
//! set of positions, with the eval crate's standard evaluation.
//!
//! Run: `cargo run --release -p othello-search --example ordering [depth] [variant number]`.
//! The time column is wall-clock time and is only meaningful on a quiet machine; the node
//! counts are exact and reproducible.

use othello_eval::WeightedEval;
use othello_rules::Position;
use othello_rules::hash::hash_pair;
use othello_search::{Algorithm, Limits, SearchConfig, Searcher};
use std::time::Instant;

/// Twelve midgame positions (16 to 30 discs placed), from a fixed pseudo-random game rule that
/// does not depend on any library's generator.
fn positions() -> Vec<Position> {
    (0..12u64)
        .map(|i| {
            let mut pos = Position::start();
            let plies = 16 + i;
            for ply in 0..plies {
                let moves = pos.moves();
                if moves.is_empty() {
                    break;
                }
                let k = hash_pair(i, ply) as usize % moves.len();
                pos = pos.play(moves[k]).expect("listed move");
            }
            pos
        })
        .collect()
}

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let only: Option<usize> = std::env::args().nth(2).and_then(|s| s.parse().ok());
    let base = SearchConfig::default().with_endgame_empties(0);
    let variants: Vec<(&str, SearchConfig)> = vec![
        (
            "default (pvs, tt, killers, history, mobility, aspiration)",
            base.clone(),
        ),
        ("no mobility ordering", base.clone().with_mobility_ordering(false)),
        ("no killers", base.clone().with_killers(false)),
        ("no history", base.clone().with_history(false)),
        (
            "table move only (no killers, history, mobility)",
            base.clone()
                .with_killers(false)
                .with_history(false)
                .with_mobility_ordering(false),
        ),
        ("no table", base.clone().with_tt_mib(0)),
        ("no aspiration", base.clone().with_aspiration(false)),
        (
            "alpha-beta instead of pvs",
            base.clone().with_algorithm(Algorithm::AlphaBeta),
        ),
        (
            "alpha-beta, no table, no ordering",
            base.clone()
                .with_algorithm(Algorithm::AlphaBeta)
                .with_tt_mib(0)
                .with_killers(false)
                .with_history(false)
                .with_mobility_ordering(false),
        ),
        ("quiescence on", base.clone().with_quiescence(true)),
        ("2 threads", base.clone().with_threads(2)),
    ];
    let positions = positions();
    println!("depth {depth}, {} positions, standard evaluation", positions.len());
    println!(
        "{:<58} {:>12} {:>9} {:>10} {:>8}",
        "variant", "nodes", "ms", "Mnodes/s", "1st-cut"
    );
    for (i, (name, config)) in variants.into_iter().enumerate() {
        if only.is_some_and(|k| k != i) {
            continue;
        }
        let mut searcher = Searcher::new(WeightedEval::standard(), config);
        let (mut nodes, mut cutoffs, mut first) = (0u64, 0u64, 0u64);
        let mut signature = 0i64;
        let start = Instant::now();
        for pos in &positions {
            searcher.new_game();
            let r = searcher.search(pos, &Limits::depth(depth), |_| {});
            nodes += r.nodes;
            cutoffs += r.stats.beta_cutoffs;
            first += r.stats.first_move_cutoffs;
            signature += i64::from(r.score) * 64 + i64::from(r.best_move.to_u8());
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:<58} {nodes:>12} {:>9.0} {:>10.2} {:>7.1}%  (score signature {signature})",
            secs * 1e3,
            nodes as f64 / secs / 1e6,
            100.0 * first as f64 / cutoffs.max(1) as f64
        );
    }
}
