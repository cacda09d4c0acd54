//! Times exact solves by the endgame solver and by the search itself, by number of empties,
//! to choose `SearchConfig::endgame_empties`.
//!
//! Run: `cargo run --release -p othello-search --example endgame_threshold`.

use othello_eval::WeightedEval;
use othello_rules::Position;
use othello_rules::hash::hash_pair;
use othello_search::{Limits, SearchConfig, Searcher};
use std::time::Instant;

/// Four positions with `empties` empty squares from a fixed pseudo-random rule.
fn positions(empties: u32) -> Vec<Position> {
    let mut out = Vec::new();
    let mut i = 0u64;
    while out.len() < 4 {
        i += 1;
        let mut pos = Position::start();
        let mut ply = 0;
        while pos.empty_count() > empties && !pos.is_game_over() {
            let moves = pos.moves();
            pos = pos
                .play(moves[hash_pair(i, ply) as usize % moves.len()])
                .expect("listed move");
            ply += 1;
        }
        if pos.empty_count() == empties && !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

fn main() {
    println!("{:>7} {:>12} {:>12}", "empties", "solver ms", "search ms");
    for empties in [12, 14, 16, 18] {
        let mut times = [0.0f64; 2];
        for (k, endgame_empties) in [64, 0].into_iter().enumerate() {
            let config = SearchConfig::default().with_endgame_empties(endgame_empties);
            let mut searcher = Searcher::new(WeightedEval::standard(), config);
            for pos in positions(empties) {
                searcher.new_game();
                let start = Instant::now();
                let r = searcher.search(&pos, &Limits::default(), |_| {});
                times[k] += start.elapsed().as_secs_f64() * 1e3;
                assert!(r.exact);
            }
        }
        println!("{empties:>7} {:>12.1} {:>12.1}", times[0], times[1]);
    }
}
