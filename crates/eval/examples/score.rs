//! Score a position with the evaluation crate alone: each feature's raw value and its
//! centi-disc score, the tuned default, and two evaluators combined.
//! `cargo run --release -p othello-eval --example score -- [MOVES]` (e.g. `f5d6c3d3c4`).
use othello_eval::{Evaluator, Feature, WeightedEval};
use othello_rules::{Position, text::play_sequence};

/// Two evaluators combined: the sum of both scores (both in centi-discs, so they add).
struct Sum<A, B>(A, B);

impl<A: Evaluator, B: Evaluator> Evaluator for Sum<A, B> {
    fn evaluate(&self, pos: &Position) -> i32 {
        self.0.evaluate(pos) + self.1.evaluate(pos)
    }
}

fn main() {
    let moves = std::env::args().nth(1).unwrap_or_else(|| "f5d6c3d3c4".to_string());
    let pos = match play_sequence(&Position::start(), &moves) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("bad move sequence '{moves}': {e}");
            std::process::exit(2);
        }
    };
    println!("{pos}\n");
    println!("{:<10} {:>5} {:>12}", "feature", "raw", "centi-discs");
    for f in Feature::ALL {
        println!("{:<10} {:>5} {:>12}", f.name(), f.raw(&pos), f.evaluate(&pos));
    }
    let default = WeightedEval::default();
    let corners: WeightedEval = "corners*300".parse().expect("a valid text form");
    println!("\ndefault             {:>6} centi-discs", default.evaluate(&pos));
    println!("corners*300         {:>6} centi-discs", corners.evaluate(&pos));
    let both = Sum(&default, &corners);
    println!("default + corners   {:>6} centi-discs", both.evaluate(&pos));
}
