//! Builds the random-play endgame set committed as `data/random-60.obf`: 30 positions with 12
//! empty squares, 20 with 20 and 10 with 24, each from its own named seed, solved exactly.
//!
//! `cargo run --release -p othello-endgame --example random_set > crates/endgame/data/random-60.obf`
//! (`-- --positions` prints the positions without solving them).
//!
//! Position `k` of a group with `e` empty squares comes from seed `1000 * e + k`: random play
//! (uniform among legal moves, [`SmallRng`]) from the start until `e` squares are empty with
//! the side to move able to move; a game that ends or passes on the way is replayed with the
//! generator's next numbers. The file is committed because a random generator's output may
//! change with its version; the positions, not this program, are the benchmark.

use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::random::play_random_until;
use othello_rules::{Move, ObfLine, Position};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn random_position(empties: u32, rng: &mut SmallRng) -> Position {
    loop {
        let pos = play_random_until(&Position::start(), rng, |p| p.empty_count() <= empties || p.must_pass());
        let can_move = pos.moves().first().is_some_and(|&m| m != Move::Pass);
        if pos.empty_count() == empties && can_move {
            return pos;
        }
    }
}

/// Prints the set on stdout and, on stderr, the nodes and time of each group and of the whole
/// set (one thread, a 64 MiB table kept from position to position, as `othello solve` does).
fn main() {
    println!("% Random-play endgame set (see examples/random_set.rs): 30 x 12, 20 x 20, 10 x 24 empties.");
    println!("% Each position with its best move and exact score (disc difference for the side to move).");
    let solve = !std::env::args().any(|a| a == "--positions");
    let mut solver = Solver::new(SolverConfig::default().with_tt_mib(64).with_threads(1));
    let (mut all_nodes, mut all_time) = (0u64, std::time::Duration::ZERO);
    for (empties, count) in [(12u32, 30u64), (20, 20), (24, 10)] {
        let (mut nodes, mut time) = (0u64, std::time::Duration::ZERO);
        for k in 1..=count {
            let seed = 1000 * empties as u64 + k;
            let pos = random_position(empties, &mut SmallRng::seed_from_u64(seed));
            let mut line = ObfLine {
                position: pos,
                scores: Vec::new(),
            };
            if solve {
                let s = solver.solve(&pos, SolveMode::Exact);
                nodes += s.nodes;
                time += s.time;
                line.scores.push((s.best_move, s.score));
            }
            println!("% seed {seed}, {empties} empty squares");
            println!("{line}");
        }
        eprintln!(
            "{count} x {empties} empties: {nodes} nodes, {:.1} s",
            time.as_secs_f64()
        );
        all_nodes += nodes;
        all_time += time;
    }
    eprintln!("all: {all_nodes} nodes, {:.1} s", all_time.as_secs_f64());
}
