//! A file of distinct seeded random openings for matches (`othello play --openings FILE`):
//! `cargo run --release -p othello-rules --example openings -- COUNT PLIES SEED [EXCLUDE] > FILE`.
//!
//! Each line is a move sequence of PLIES random legal moves from the 8x8 start; no two lines
//! reach positions that are images of each other under the board's symmetries, and none
//! reaches a position where the side to move must pass or the game is over. With EXCLUDE (a
//! file of move sequences, one a line, such as the openings of a test match), no line reaches
//! a position of that file or an image of one: openings for training games that stay apart
//! from the test openings. The generator is a
//! fixed xorshift (not a crate's generator, whose stream may change with its version), so the
//! same arguments always give the same file.
use othello_rules::text::play_sequence;
use othello_rules::{Position, canonical};
use std::collections::HashSet;

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
    let (Some(count), Some(plies), Some(seed), 3..=4) = (number(0), number(1), number(2), args.len()) else {
        eprintln!("usage: openings COUNT PLIES SEED [EXCLUDE]");
        std::process::exit(2);
    };
    let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut seen = HashSet::new();
    if let Some(path) = args.get(3) {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("openings: cannot read {path}: {e}");
            std::process::exit(2);
        });
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let pos = play_sequence(&Position::start(), line).unwrap_or_else(|e| {
                eprintln!("openings: {path} line {}: {e}", n + 1);
                std::process::exit(2);
            });
            seen.insert(canonical(pos.player().0, pos.opponent().0, pos.size()));
        }
    }
    let mut made = 0;
    let mut tries = 0u64;
    while made < count {
        tries += 1;
        if tries > 1000 * count.max(1) {
            eprintln!("only {made} distinct openings of {plies} plies found");
            std::process::exit(1);
        }
        let mut pos = Position::start();
        let mut line = String::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let squares: Vec<_> = moves.into_iter().collect();
            let sq = squares[rng.below(squares.len())];
            line.push_str(&sq.to_string());
            pos = pos.play_unchecked(othello_rules::Move::Place(sq));
        }
        if pos.legal_moves().is_empty() || line.len() != 2 * plies as usize {
            continue;
        }
        if seen.insert(canonical(pos.player().0, pos.opponent().0, pos.size())) {
            println!("{line}");
            made += 1;
        }
    }
}
