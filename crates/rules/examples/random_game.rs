//! A seeded random game with the rules crate alone, printed move by move:
//! `cargo run --release -p othello-rules --example random_game -- [SEED] [SIZE]`.
use othello_rules::{BoardSize, Move, Position};

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::XorShift;

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let side: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let size = BoardSize::from_side(side).unwrap_or_default();
    let mut rng = XorShift(seed.max(1));
    let mut pos = Position::start_of(size);
    let mut line = Vec::new();
    while !pos.is_game_over() {
        let moves = pos.moves(); // a forced pass is the one move `Move::Pass`
        let mv: Move = moves[rng.below(moves.len())];
        line.push(mv.to_string());
        pos = pos.play(mv).expect("a generated move is legal");
    }
    println!("{}", line.join(" "));
    println!("{pos}");
    let (black, white) = pos.disc_counts();
    println!("black {black} white {white}: {:+} for black", pos.final_score_black());
}
