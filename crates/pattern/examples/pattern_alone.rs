//! The pattern evaluation alone: score a position with the embedded weights, compare it with the
//! hand-feature evaluation, and round-trip a weights file through its format.
//!
//! `cargo run --release -p othello-pattern --example pattern_alone`

use othello_eval::{Evaluator, WeightedEval};
use othello_pattern::{PatternEval, Weights};
use othello_rules::{Move, Position};

fn main() {
    let pattern = PatternEval::default();
    let hand = WeightedEval::default();
    let mut pos = Position::start();
    for text in ["f5", "d6", "c3", "d3", "c4"] {
        let mv: Move = text.parse().expect("a move");
        pos = pos.play(mv).expect("a legal move");
    }
    println!("{pos}");
    println!(
        "pattern: {:+.2} discs, hand features: {:+.2} discs (for the side to move; index extraction: {})",
        f64::from(pattern.evaluate(&pos)) / 100.0,
        f64::from(hand.evaluate(&pos)) / 100.0,
        pattern.extraction().name()
    );
    // Symmetric positions score the same.
    let mirrored = othello_rules::Symmetry::ALL[5].apply_position(&pos);
    assert_eq!(pattern.evaluate(&pos), pattern.evaluate(&mirrored));

    // A weights file round-trips bit for bit; an all-zero set scores 0.
    let zero = Weights::zero(4, 100).expect("a valid shape");
    let bytes = zero.to_bytes();
    assert_eq!(Weights::from_bytes(&bytes).expect("valid bytes"), zero);
    assert_eq!(PatternEval::new(&zero).evaluate(&pos), 0);
    // A damaged file is a typed error naming what is wrong.
    let mut bad = bytes.clone();
    *bad.last_mut().expect("non-empty") ^= 1;
    println!("damaged file: {}", Weights::from_bytes(&bad).expect_err("checksum"));
}
