//! A file of distinct seeded random openings for matches (`othello play --openings FILE`):
//! `cargo run --release -p othello-rules --example openings -- COUNT PLIES SEED > FILE`.
//!
//! Each line is a move sequence of PLIES random legal moves from the 8x8 start; no two lines
//! reach positions that are images of each other under the board's symmetries, and none
//! reaches a position where the side to move must pass or the game is over. The generator is a
//! fixed xorshift (not a crate's generator, whose stream may change with its version), so the
//! same arguments always give the same file.
use othello_rules::{Position, canonical};
use std::collections::HashSet;

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let (Some(Ok(count)), Some(Ok(plies)), Some(Ok(seed))) = (args.next(), args.next(), args.next()) else {
        eprintln!("usage: openings COUNT PLIES SEED");
        std::process::exit(2);
    };
    let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut seen = HashSet::new();
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
