//! Perft from the 8x8 start: `cargo run --release -p othello-rules --example perft -- 11`.
use othello_rules::{Position, perft};
use std::time::Instant;

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let t = Instant::now();
    let n = perft::perft(&Position::start(), depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {n} in {s:.3} s ({:.1} M leaves/s)",
        n as f64 / s / 1e6
    );
}
